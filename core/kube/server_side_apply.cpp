// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/server_side_apply.h"
#include "core/kube/resource_path.h"

#include <memory>

#include <QPointer>
#include <QUrlQuery>

#include "core/common/json_text.h"
#include "core/kube/apply_diff.h"
#include "core/kube/rest_client.h"

namespace dra::kube {
namespace {

using common::qs;
using nlohmann::json;

// The state of one serverSideApply() run, shared by its chained callbacks.
struct ApplyRun
{
    RestClient *client;
    std::vector<model::ManifestDocument> documents;
    ApplyOptions options;
    QPointer<QObject> context;
    std::function<void(std::vector<ApplyOutcome>)> done;
    std::vector<ApplyOutcome> outcomes;
    size_t next = 0;
};

void applyNext(const std::shared_ptr<ApplyRun> &run);

void finishObject(const std::shared_ptr<ApplyRun> &run, ApplyOutcome outcome)
{
    run->outcomes.push_back(std::move(outcome));
    applyNext(run);
}

RestRequest applyRequest(
    const ApplyRun &run, const ApplyTarget &target, const json &object, bool dryRun)
{
    RestRequest request;
    request.method = "PATCH";
    request.path = target.path;
    request.contentType = "application/apply-patch+yaml";
    // JSON is YAML, and keeps numbers and strings exactly as the manifest reader decoded them.
    request.body = QByteArray::fromStdString(object.dump());
    request.query.addQueryItem(QStringLiteral("fieldManager"), qs(run.options.fieldManager));
    if (run.options.forceConflicts)
        request.query.addQueryItem(QStringLiteral("force"), QStringLiteral("true"));
    if (dryRun)
        request.query.addQueryItem(QStringLiteral("dryRun"), QStringLiteral("All"));
    return request;
}

json parsedBody(const QByteArray &body)
{
    json value = json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    return value.is_discarded() ? json() : value;
}

// Step 3: the real apply, when something changes and this is not a dry run.
void applyForReal(const std::shared_ptr<ApplyRun> &run, const ApplyTarget &target,
    const json &object, ApplyOutcome outcome)
{
    run->client->send(applyRequest(*run, target, object, false), run->context,
        [run, outcome](const Result<RestResponse> &response) mutable {
            if (!response) {
                outcome.result = ApplyOutcome::Result::Error;
                outcome.error = response.error().message;
            } else {
                outcome.applied = true;
            }
            finishObject(run, std::move(outcome));
        });
}

// Step 2: the dry run, compared with what is live.
void sendDryRun(const std::shared_ptr<ApplyRun> &run, const ApplyTarget &target, const json &object,
    json live, ApplyOutcome outcome)
{
    run->client->send(applyRequest(*run, target, object, true), run->context,
        [run, target, object, live, outcome](const Result<RestResponse> &response) mutable {
            if (!response) {
                outcome.error = response.error().message;
                return finishObject(run, std::move(outcome));
            }
            const json result = parsedBody(response->body);
            if (!result.is_object()) {
                outcome.error
                    = QStringLiteral("%1: the dry run answered with something other than an object")
                          .arg(qs(outcome.label));
                return finishObject(run, std::move(outcome));
            }
            outcome.diff = objectDiff(live, result, outcome.label);
            if (live.is_null())
                outcome.result = ApplyOutcome::Result::Created;
            else if (comparableObject(live) == comparableObject(result))
                outcome.result = ApplyOutcome::Result::Unchanged;
            else
                outcome.result = ApplyOutcome::Result::Configured;
            if (run->options.dryRunOnly || outcome.result == ApplyOutcome::Result::Unchanged)
                return finishObject(run, std::move(outcome));
            applyForReal(run, target, object, std::move(outcome));
        });
}

void applyNext(const std::shared_ptr<ApplyRun> &run)
{
    if (!run->context)
        return;
    if (run->next == run->documents.size()) {
        run->done(std::move(run->outcomes));
        return;
    }
    const model::ManifestDocument &document = run->documents[run->next++];
    ApplyOutcome outcome;
    outcome.origin = document.origin;
    const json &object = document.object;
    outcome.kind = object.value("kind", "");
    outcome.name = object.contains("metadata") && object["metadata"].is_object()
        ? object["metadata"].value("name", "")
        : std::string();
    Result<ApplyTarget> target = applyTargetOf(object, run->options.defaultNamespace);
    if (!target) {
        outcome.error = target.error().withContext(document.origin).message;
        return finishObject(run, std::move(outcome));
    }
    outcome.ns = target->ns;
    outcome.label = target->label();
    // Step 1: the live object; NotFound means the apply creates it.
    run->client->get(target->path, {}, run->context,
        [run, target = *target, object, outcome](const Result<RestResponse> &response) mutable {
            json live;
            if (response) {
                live = parsedBody(response->body);
            } else if (response.error().code != common::Error::Code::NotFound) {
                outcome.error = response.error().message;
                return finishObject(run, std::move(outcome));
            }
            sendDryRun(run, target, object, std::move(live), std::move(outcome));
        });
}

} // namespace

std::string ApplyTarget::label() const
{
    std::string text = kind ? std::string(kind->singular) : std::string("object");
    if (kind && !kind->group.empty())
        text += "." + std::string(kind->group);
    return text + "/" + name;
}

Result<ApplyTarget> applyTargetOf(const json &object, const std::string &defaultNamespace)
{
    ApplyTarget target;
    target.apiVersion = object.value("apiVersion", "");
    const std::string kindName = object.value("kind", "");
    target.kind = model::kindOf(target.apiVersion, kindName);
    if (!target.kind)
        return fail(common::Error::Code::Unsupported,
            QStringLiteral("kind %1 of %2 is not one dractl can apply")
                .arg(qs(kindName), qs(target.apiVersion)));
    const json meta = object.value("metadata", json::object());
    target.name = meta.value("name", "");
    if (target.kind->namespaced) {
        target.ns = meta.value("namespace", "");
        if (target.ns.empty())
            target.ns = defaultNamespace.empty() ? "default" : defaultNamespace;
    }
    target.path = resourcePath(target.apiVersion, *target.kind, target.ns, target.name);
    return target;
}

const char *resultName(ApplyOutcome::Result result)
{
    switch (result) {
    case ApplyOutcome::Result::Created:
        return "created";
    case ApplyOutcome::Result::Configured:
        return "configured";
    case ApplyOutcome::Result::Unchanged:
        return "unchanged";
    case ApplyOutcome::Result::Error:
        break;
    }
    return "error";
}

QString outcomeLine(const ApplyOutcome &outcome, bool dryRun)
{
    const QString label = qs(outcome.label.empty() ? outcome.origin.toStdString() : outcome.label);
    if (outcome.result == ApplyOutcome::Result::Error)
        return QStringLiteral("%1: error: %2").arg(label, outcome.error);
    return QStringLiteral("%1 %2%3").arg(label, QLatin1String(resultName(outcome.result)),
        dryRun && outcome.changes() ? QStringLiteral(" (server dry run)") : QString());
}

void serverSideApply(RestClient &client, std::vector<model::ManifestDocument> documents,
    ApplyOptions options, QObject *context, std::function<void(std::vector<ApplyOutcome>)> done)
{
    auto run = std::make_shared<ApplyRun>();
    run->client = &client;
    run->documents = std::move(documents);
    run->options = std::move(options);
    run->context = context;
    run->done = std::move(done);
    applyNext(run);
}

json applyOutcomesJson(const std::vector<ApplyOutcome> &outcomes)
{
    json objects = json::array();
    for (const ApplyOutcome &outcome : outcomes) {
        json entry
            = { { "kind", outcome.kind }, { "namespace", outcome.ns }, { "name", outcome.name },
                  { "result", resultName(outcome.result) }, { "diff", outcome.diff } };
        if (outcome.result == ApplyOutcome::Result::Error)
            entry["error"] = outcome.error.toStdString();
        objects.push_back(std::move(entry));
    }
    return { { "objects", objects } };
}

} // namespace dra::kube
