// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/kube_cluster.h"

#include <memory>

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>

#include "core/common/json_text.h"
#include "core/kube/access_review.h"
#include "core/kube/resource_path.h"
#include "core/kube/pod_exec_client.h"
#include "core/kube/rest_client.h"
#include "core/kube/server_side_apply.h"
#include "core/model/conversion.h"

namespace dra::rollout {

namespace {

using common::Error;
using common::qs;

constexpr const char *kRolloutFieldManager = "draconsole-rollout";

Result<nlohmann::json> parseClusterBody(const QByteArray &body, const QString &what)
{
    return common::parseJson(std::string_view(body.constData(), size_t(body.size())), what);
}

} // namespace

ClusterPort::~ClusterPort() = default;

QString servedResourcePath(const kube::ApiDiscovery &served, model::Kind kind,
    const std::string &ns, const std::string &name)
{
    const model::KindInfo &info = model::kindInfo(kind);
    std::string apiVersion = served.apiVersionOf(kind);
    if (apiVersion.empty()) // not served: the request says so (404) in the kind's own words
        apiVersion = info.group.empty()
            ? std::string(info.preferredVersion)
            : std::string(info.group) + '/' + std::string(info.preferredVersion);
    return kube::resourcePath(apiVersion, info, ns, name);
}

Result<nlohmann::json> objectInServedVersion(
    const nlohmann::json &object, const kube::ApiDiscovery &served)
{
    const model::KindInfo *kind
        = model::kindOf(object.value("apiVersion", ""), object.value("kind", ""));
    if (!kind || kind->group != model::kResourceGroup)
        return object;
    const std::string target = served.apiVersionOf(kind->kind);
    if (target.empty())
        return object; // not served: the request says so (404) in the object's own version
    return model::convertResourceObject(object, target);
}

void KubeCluster::withServed(
    QObject *context, std::function<void(Result<const kube::ApiDiscovery *>)> then)
{
    QPointer<QObject> guard(context);
    auto call = [guard, then = std::move(then)](const Result<kube::ApiDiscovery> &served) {
        if (!guard)
            return;
        if (!served)
            return then(fail(served.error()));
        then(&*served);
    };
    if (m_served)
        return call(*m_served);
    m_waitingForServed.push_back(std::move(call));
    if (m_waitingForServed.size() > 1)
        return; // a discovery is under way
    kube::discover(m_client, this, [this](const Result<kube::ApiDiscovery> &served) {
        if (served)
            m_served = *served; // a failure is not kept: the next call asks again
        std::vector<std::function<void(const Result<kube::ApiDiscovery> &)>> waiting;
        waiting.swap(m_waitingForServed);
        for (const auto &wait : waiting)
            wait(m_served ? Result<kube::ApiDiscovery>(*m_served) : served);
    });
}

void KubeCluster::sendForObject(
    kube::RestRequest request, QObject *context, Done<nlohmann::json> done)
{
    const QString path = request.path;
    m_client.send(
        std::move(request), context, [done, path](const Result<kube::RestResponse> &response) {
            if (!response)
                return done(fail(response.error()));
            Result<nlohmann::json> json = parseClusterBody(response->body, path);
            if (!json)
                return done(fail(json.error()));
            done(std::move(*json));
        });
}

KubeCluster::KubeCluster(kube::RestClient &client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_http(new QNetworkAccessManager(this))
{
}

void KubeCluster::list(model::Kind kind, const std::string &ns, const std::string &labelSelector,
    QObject *context, Done<std::vector<nlohmann::json>> done)
{
    withServed(context,
        [this, kind, ns, labelSelector, context, done](Result<const kube::ApiDiscovery *> served) {
            if (!served)
                return done(fail(served.error()));
            QUrlQuery query;
            if (!labelSelector.empty())
                query.addQueryItem(QStringLiteral("labelSelector"), qs(labelSelector));
            const QString path = servedResourcePath(**served, kind, ns);
            m_client.get(
                path, query, context, [done, path](const Result<kube::RestResponse> &response) {
                    if (!response)
                        return done(fail(response.error()));
                    Result<nlohmann::json> json = parseClusterBody(response->body, path);
                    if (!json)
                        return done(fail(json.error()));
                    std::vector<nlohmann::json> items;
                    if (json->contains("items") && (*json)["items"].is_array())
                        for (nlohmann::json &item : (*json)["items"])
                            items.push_back(std::move(item));
                    done(std::move(items));
                });
        });
}

void KubeCluster::get(model::Kind kind, const std::string &ns, const std::string &name,
    QObject *context, Done<std::optional<nlohmann::json>> done)
{
    withServed(
        context, [this, kind, ns, name, context, done](Result<const kube::ApiDiscovery *> served) {
            if (!served)
                return done(fail(served.error()));
            const QString path = servedResourcePath(**served, kind, ns, name);
            m_client.get(
                path, {}, context, [done, path](const Result<kube::RestResponse> &response) {
                    if (!response) {
                        if (response.error().code == Error::Code::NotFound)
                            return done(std::optional<nlohmann::json>());
                        return done(fail(response.error()));
                    }
                    Result<nlohmann::json> json = parseClusterBody(response->body, path);
                    if (!json)
                        return done(fail(json.error()));
                    done(std::optional<nlohmann::json>(std::move(*json)));
                });
        });
}

void KubeCluster::apply(
    const nlohmann::json &original, bool dryRun, QObject *context, Done<nlohmann::json> done)
{
    withServed(context,
        [this, original, dryRun, context, done](Result<const kube::ApiDiscovery *> served) {
            if (!served)
                return done(fail(served.error()));
            Result<nlohmann::json> converted = objectInServedVersion(original, **served);
            if (!converted)
                return done(fail(converted.error()));
            const nlohmann::json &object = *converted;
            Result<kube::ApplyTarget> target
                = kube::applyTargetOf(object, m_client.config().ns.toStdString());
            if (!target)
                return done(fail(target.error()));
            kube::RestRequest request;
            request.method = "PATCH";
            request.path = target->path;
            request.contentType = "application/apply-patch+yaml"; // JSON is YAML
            request.body = QByteArray::fromStdString(object.dump());
            request.query.addQueryItem(
                QStringLiteral("fieldManager"), QLatin1String(kRolloutFieldManager));
            request.query.addQueryItem(QStringLiteral("force"), QStringLiteral("true"));
            if (dryRun)
                request.query.addQueryItem(QStringLiteral("dryRun"), QStringLiteral("All"));
            sendForObject(std::move(request), context, done);
        });
}

void KubeCluster::mergePatch(model::Kind kind, const std::string &ns, const std::string &name,
    const nlohmann::json &patch, bool dryRun, QObject *context, Done<nlohmann::json> done)
{
    withServed(context,
        [this, kind, ns, name, patch, dryRun, context, done](
            Result<const kube::ApiDiscovery *> served) {
            if (!served)
                return done(fail(served.error()));
            kube::RestRequest request;
            request.method = "PATCH";
            request.path = servedResourcePath(**served, kind, ns, name);
            request.contentType = "application/merge-patch+json";
            request.body = QByteArray::fromStdString(patch.dump());
            request.query.addQueryItem(
                QStringLiteral("fieldManager"), QLatin1String(kRolloutFieldManager));
            if (dryRun)
                request.query.addQueryItem(QStringLiteral("dryRun"), QStringLiteral("All"));
            sendForObject(std::move(request), context, done);
        });
}

void KubeCluster::remove(model::Kind kind, const std::string &ns, const std::string &name,
    bool dryRun, QObject *context, Done<bool> done)
{
    withServed(context,
        [this, kind, ns, name, dryRun, context, done](Result<const kube::ApiDiscovery *> served) {
            if (!served)
                return done(fail(served.error()));
            kube::RestRequest request;
            request.method = "DELETE";
            request.path = servedResourcePath(**served, kind, ns, name);
            if (dryRun)
                request.query.addQueryItem(QStringLiteral("dryRun"), QStringLiteral("All"));
            // Foreground: a Deployment goes with its ReplicaSets and Pods, so "gone" means gone.
            request.body
                = R"({"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground"})";
            m_client.send(
                std::move(request), context, [done](const Result<kube::RestResponse> &response) {
                    if (!response) {
                        if (response.error().code == Error::Code::NotFound)
                            return done(false);
                        return done(fail(response.error()));
                    }
                    done(true);
                });
        });
}

void KubeCluster::reviewAccess(const std::string &verb, model::Kind kind, const std::string &ns,
    QObject *context, Done<bool> done)
{
    const model::KindInfo &info = model::kindInfo(kind);
    kube::reviewAccess(m_client, verb, std::string(info.group), std::string(info.plural),
        info.namespaced ? ns : "", context, [this, done](const Result<bool> &allowed) {
            // A server without authorization.k8s.io (a minimal test server) cannot
            // pre-check; its own authorization still decides the request itself.
            if (!allowed && allowed.error().code == common::Error::Code::NotFound) {
                if (!m_warnedNoAccessReview)
                    Q_EMIT m_client.warning(QStringLiteral(
                        "the server does not serve SelfSubjectAccessReviews; changes are sent "
                        "without that pre-check"));
                m_warnedNoAccessReview = true;
                return done(true);
            }
            done(allowed);
        });
}

void KubeCluster::servedResourceVersions(QObject *context, Done<std::vector<std::string>> done)
{
    m_client.get(QStringLiteral("/apis/resource.k8s.io"), {}, context,
        [done](const Result<kube::RestResponse> &response) {
            if (!response) {
                if (response.error().code == Error::Code::NotFound)
                    return done(std::vector<std::string>()); // no DRA API at all
                return done(fail(response.error()));
            }
            Result<nlohmann::json> json
                = parseClusterBody(response->body, QStringLiteral("/apis/resource.k8s.io"));
            if (!json)
                return done(fail(json.error()));
            std::vector<std::string> versions;
            if (json->contains("versions") && (*json)["versions"].is_array())
                for (const nlohmann::json &v : (*json)["versions"])
                    if (v.is_object() && v.contains("version") && v["version"].is_string())
                        versions.push_back(v["version"].get<std::string>());
            done(std::move(versions));
        });
}

void KubeCluster::serverVersion(QObject *context, Done<std::string> done)
{
    m_client.get(QStringLiteral("/version"), {}, context,
        [done](const Result<kube::RestResponse> &response) {
            if (!response)
                return done(fail(response.error()));
            Result<nlohmann::json> json
                = parseClusterBody(response->body, QStringLiteral("/version"));
            if (!json)
                return done(fail(json.error()));
            const auto version = json->find("gitVersion");
            if (version == json->end() || !version->is_string())
                return done(fail(
                    Error::Code::Parse, QStringLiteral("/version: the answer has no gitVersion")));
            done(version->get<std::string>());
        });
}

void KubeCluster::exec(const std::string &ns, const std::string &pod, const std::string &container,
    const std::vector<std::string> &command, int timeoutMs, QObject *context, Done<ExecAnswer> done)
{
    kube::execInPod(m_client, ns, pod, container, command, timeoutMs, context,
        [done = std::move(done)](Result<kube::ExecResult> ran) {
            if (!ran)
                return done(std::unexpected(ran.error()));
            done(ExecAnswer { std::move(ran->out), std::move(ran->err), ran->exitCode });
        });
}

void KubeCluster::fetch(const QUrl &url, int timeoutMs, QObject *context, Done<HttpAnswer> done)
{
    if (url.isRelative() && url.path().startsWith(QLatin1Char('/'))) {
        kube::RestRequest request;
        request.path = url.path();
        request.query = QUrlQuery(url);
        request.timeoutMs = timeoutMs;
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        m_client.send(
            std::move(request), context, [done, timer](const Result<kube::RestResponse> &response) {
                if (!response)
                    return done(fail(response.error()));
                done(HttpAnswer { response->status, response->body, double(timer->elapsed()) });
            });
        return;
    }
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    QNetworkReply *reply = m_http->get(request);
    QPointer<QObject> guard(context);
    connect(reply, &QNetworkReply::finished, this, [reply, guard, done, timer, url]() {
        reply->deleteLater();
        if (!guard)
            return;
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid())
            return done(fail(Error::Code::Network,
                QStringLiteral("GET %1: %2").arg(url.toString(), reply->errorString())));
        done(HttpAnswer { status.toInt(), reply->readAll(), double(timer->elapsed()) });
    });
}

std::string KubeCluster::actor() const
{
    const kube::ClientConfig &config = m_client.config();
    const QString user = config.user.isEmpty() ? QStringLiteral("?") : config.user;
    return QString(user + QStringLiteral(" (context ") + config.context + QLatin1Char(')'))
        .toStdString();
}

} // namespace dra::rollout
