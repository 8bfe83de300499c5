// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <QObject>

#include "core/kube/discovery.h"
#include "core/kube/rest_client.h"
#include "core/rollout/cluster_port.h"

class QNetworkAccessManager;

namespace dra::rollout {

// The cluster port over a kube::RestClient: the user's own context and credentials, server-side
// apply with the field manager "draconsole-rollout", SelfSubjectAccessReviews, and a separate
// network manager for pod probes and Prometheus (they are not API requests and carry no
// credentials). A server that does not serve SelfSubjectAccessReviews at all (404) gets the
// request without the pre-check, after one warning. Paths and applied objects use the version
// of each kind the server serves (discovered once, at the first call that needs it), so a
// cluster serving only resource.k8s.io v1beta1 or v1beta2 is reached as well as a v1 one.
// The client must outlive this object. Thread of the client.
class KubeCluster final : public QObject, public ClusterPort
{
    Q_OBJECT
public:
    explicit KubeCluster(kube::RestClient &client, QObject *parent = nullptr);

    void list(model::Kind kind, const std::string &ns, const std::string &labelSelector,
        QObject *context, Done<std::vector<nlohmann::json>> done) override;
    void get(model::Kind kind, const std::string &ns, const std::string &name, QObject *context,
        Done<std::optional<nlohmann::json>> done) override;
    void apply(const nlohmann::json &object, bool dryRun, QObject *context,
        Done<nlohmann::json> done) override;
    void mergePatch(model::Kind kind, const std::string &ns, const std::string &name,
        const nlohmann::json &patch, bool dryRun, QObject *context,
        Done<nlohmann::json> done) override;
    void remove(model::Kind kind, const std::string &ns, const std::string &name, bool dryRun,
        QObject *context, Done<bool> done) override;
    void reviewAccess(const std::string &verb, model::Kind kind, const std::string &ns,
        QObject *context, Done<bool> done) override;
    void servedResourceVersions(QObject *context, Done<std::vector<std::string>> done) override;
    void serverVersion(QObject *context, Done<std::string> done) override;
    void fetch(const QUrl &url, int timeoutMs, QObject *context, Done<HttpAnswer> done) override;
    void exec(const std::string &ns, const std::string &pod, const std::string &container,
        const std::vector<std::string> &command, int timeoutMs, QObject *context,
        Done<ExecAnswer> done) override;
    std::string actor() const override;

private:
    // Sends a request answered by an object (apply, patch) and hands back the parsed body.
    void sendForObject(kube::RestRequest request, QObject *context, Done<nlohmann::json> done);
    // Runs `then` with what the server serves, discovering it first when not known yet; not at
    // all once `context` is gone.
    void withServed(QObject *context, std::function<void(Result<const kube::ApiDiscovery *>)> then);

    kube::RestClient &m_client;
    QNetworkAccessManager *m_http;
    bool m_warnedNoAccessReview = false;
    std::optional<kube::ApiDiscovery> m_served;
    std::vector<std::function<void(const Result<kube::ApiDiscovery> &)>> m_waitingForServed;
};

// The REST path of `kind` objects in `ns` (name appended when given), in the version `served`
// names for the kind, else the kind's preferred one: "/apis/resource.k8s.io/v1beta1/namespaces/
// ml/resourceclaimtemplates/llm" on a Kubernetes 1.32 server.
QString servedResourcePath(const kube::ApiDiscovery &served, model::Kind kind,
    const std::string &ns, const std::string &name = {});

// `object` in the resource.k8s.io version `served` names for its kind, converted as Kubernetes
// converts (model::convertResourceObject: for v1beta1 each request's `exactly` fields move up
// into the request). Objects of other groups, or of a kind not served, are returned as they are;
// a field the served version cannot express is an error naming it.
Result<nlohmann::json> objectInServedVersion(
    const nlohmann::json &object, const kube::ApiDiscovery &served);

} // namespace dra::rollout
