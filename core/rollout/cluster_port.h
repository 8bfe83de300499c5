// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The cluster as the rollout controller sees it: a few asynchronous calls, so that the
// controller runs against a real API server (KubeCluster) and against a scripted fake in tests.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QObject>
#include <QUrl>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/kind.h"

namespace dra::rollout {

// An answer to a plain HTTP GET (a pod's probe, a Prometheus query).
struct HttpAnswer
{
    int status = 0;
    QByteArray body;
    double latencyMs = 0;
};

// What a command run in a container printed, and its exit code.
struct ExecAnswer
{
    std::string out, err;
    int exitCode = 0;
};

// Cluster access with the user's own credentials. Every call answers once through `done` on the
// thread of `context`, unless `context` is gone by then; an implementation may answer before
// the call returns. Errors name the object and the reason.
class ClusterPort
{
public:
    template <typename T> using Done = std::function<void(Result<T>)>;

    virtual ~ClusterPort();

    // Objects of `kind` in `ns` ("" for all namespaces or a cluster-scoped kind) whose labels
    // match `labelSelector` ("" for all), as the server sent them.
    virtual void list(model::Kind kind, const std::string &ns, const std::string &labelSelector,
        QObject *context, Done<std::vector<nlohmann::json>> done)
        = 0;
    // One object, or nullopt when it does not exist.
    virtual void get(model::Kind kind, const std::string &ns, const std::string &name,
        QObject *context, Done<std::optional<nlohmann::json>> done)
        = 0;
    // Server-side apply of `object` (its apiVersion and kind name the resource), taking over
    // conflicting fields; with `dryRun` the server only says what it would store. Answers the
    // object as stored (or as it would be).
    virtual void apply(
        const nlohmann::json &object, bool dryRun, QObject *context, Done<nlohmann::json> done)
        = 0;
    // A JSON merge patch of one object (spec.replicas: there is no /scale subresource to rely
    // on); answers the object as stored (or as it would be with `dryRun`).
    virtual void mergePatch(model::Kind kind, const std::string &ns, const std::string &name,
        const nlohmann::json &patch, bool dryRun, QObject *context, Done<nlohmann::json> done)
        = 0;
    // Deletes an object; answers false when it was already gone. `dryRun` only asks.
    virtual void remove(model::Kind kind, const std::string &ns, const std::string &name,
        bool dryRun, QObject *context, Done<bool> done)
        = 0;
    // SelfSubjectAccessReview: may the user `verb` objects of `kind` in `ns`?
    virtual void reviewAccess(const std::string &verb, model::Kind kind, const std::string &ns,
        QObject *context, Done<bool> done)
        = 0;
    // The resource.k8s.io versions the server serves ("v1", "v1beta2", ...).
    virtual void servedResourceVersions(QObject *context, Done<std::vector<std::string>> done) = 0;
    // The Kubernetes version the server reports at /version ("v1.34.2"): the release whose
    // scheduler rules the allocation simulations follow.
    virtual void serverVersion(QObject *context, Done<std::string> done) = 0;
    // A plain HTTP GET outside the API server (pod probes, Prometheus); a non-2xx status is an
    // answer, not an error. A URL that is only a path ("/api/v1/namespaces/monitoring/services/
    // prometheus:9090/proxy/api/v1/query?...") goes through the API server with the user's
    // credentials, as `kubectl get --raw` sends it; there a non-2xx status is an error.
    virtual void fetch(const QUrl &url, int timeoutMs, QObject *context, Done<HttpAnswer> done) = 0;
    // Runs `command` in `container` (empty: the pod's default) of pod ns/name through the
    // pods/exec subresource; a command that ran and failed is an answer (its exit code), one that
    // could not run an Error (Forbidden, NotFound, Network).
    virtual void exec(const std::string &ns, const std::string &pod, const std::string &container,
        const std::vector<std::string> &command, int timeoutMs, QObject *context,
        Done<ExecAnswer> done)
        = 0;
    // Who acts, as the audit log names them ("alice (context prod)").
    virtual std::string actor() const = 0;
};

} // namespace dra::rollout
