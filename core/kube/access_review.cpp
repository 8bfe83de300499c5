// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/access_review.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/kube/rest_client.h"

namespace dra::kube {

namespace {

using common::Error;

QStringList strings(const nlohmann::json &object, const char *key)
{
    QStringList out;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_array())
        return out;
    for (const nlohmann::json &value : *it)
        if (value.is_string())
            out.append(common::qs(value.get<std::string>()));
    return out;
}

bool matches(const QStringList &allowed, const QString &wanted)
{
    return allowed.contains(QStringLiteral("*")) || allowed.contains(wanted);
}

RestRequest reviewRequest(const char *kind, nlohmann::json spec)
{
    RestRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/apis/authorization.k8s.io/v1/") + QString::fromLatin1(kind);
    const nlohmann::json body = { { "apiVersion", "authorization.k8s.io/v1" },
        { "kind",
            kind == std::string_view("selfsubjectrulesreviews") ? "SelfSubjectRulesReview"
                                                                : "SelfSubjectAccessReview" },
        { "spec", std::move(spec) } };
    request.body = QByteArray::fromStdString(common::compactJson(body));
    return request;
}

} // namespace

bool rulesAllow(const std::vector<ResourceRule> &rules, std::string_view group,
    std::string_view resource, const QStringList &verbs)
{
    const QString g = common::qs(group), r = common::qs(resource);
    for (const QString &verb : verbs) {
        bool allowed = false;
        for (const ResourceRule &rule : rules) {
            if (rule.resourceNames.isEmpty() && matches(rule.verbs, verb)
                && matches(rule.apiGroups, g) && matches(rule.resources, r)) {
                allowed = true;
                break;
            }
        }
        if (!allowed)
            return false;
    }
    return true;
}

void reviewRules(RestClient &client, const std::string &ns, QObject *context,
    std::function<void(const Result<std::vector<ResourceRule>> &)> done)
{
    client.send(reviewRequest("selfsubjectrulesreviews", { { "namespace", ns } }), context,
        [done = std::move(done)](const Result<RestResponse> &response) {
            if (!response) {
                done(fail(response.error()));
                return;
            }
            const nlohmann::json review = nlohmann::json::parse(
                response->body.begin(), response->body.end(), nullptr, false);
            if (!review.is_object() || !review.contains("status")
                || !review["status"].is_object()) {
                done(fail(Error::Code::Parse,
                    QStringLiteral("SelfSubjectRulesReview: no status in the answer")));
                return;
            }
            std::vector<ResourceRule> rules;
            const nlohmann::json &status = review["status"];
            if (auto list = status.find("resourceRules");
                list != status.end() && list->is_array()) {
                for (const nlohmann::json &rule : *list) {
                    if (rule.is_object())
                        rules.push_back(
                            ResourceRule { strings(rule, "verbs"), strings(rule, "apiGroups"),
                                strings(rule, "resources"), strings(rule, "resourceNames") });
                }
            }
            done(rules);
        });
}

void reviewAccess(RestClient &client, const std::string &verb, const std::string &group,
    const std::string &resource, const std::string &ns, QObject *context,
    std::function<void(const Result<bool> &)> done)
{
    nlohmann::json attributes = { { "verb", verb }, { "group", group }, { "resource", resource } };
    if (!ns.empty())
        attributes["namespace"] = ns;
    client.send(reviewRequest("selfsubjectaccessreviews",
                    { { "resourceAttributes", std::move(attributes) } }),
        context, [done = std::move(done)](const Result<RestResponse> &response) {
            if (!response) {
                done(fail(response.error()));
                return;
            }
            const nlohmann::json review = nlohmann::json::parse(
                response->body.begin(), response->body.end(), nullptr, false);
            const nlohmann::json *status
                = review.is_object() && review.contains("status") ? &review["status"] : nullptr;
            done(status && status->is_object() && status->value("allowed", false) == true);
        });
}

} // namespace dra::kube
