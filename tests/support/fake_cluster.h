// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// An in-memory cluster for the rollout controller's tests: objects by kind, namespace and name,
// server-side apply reduced to "the applied fields replace the live ones", and a scripted control
// plane (Deployments settle at once; a Deployment using claims gets Running pods with allocated,
// reserved claims on node-a) that tests switch off or fault.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <QObject>

#include "core/rollout/cluster_port.h"

namespace dra::rollout::test {

class FakeCluster final : public ClusterPort
{
public:
    FakeCluster();

    // The example plan's world: Deployment inference/llm-server (8 replicas on the device
    // plugin, Ready), its Service and HTTPRoute llm-server, node-a (DRA, 8 H100s in a slice),
    // node-b (device plugin).
    void seedExampleWorld();

    void put(nlohmann::json object);
    std::optional<nlohmann::json> object(
        model::Kind kind, const std::string &ns, const std::string &name) const;
    size_t count(model::Kind kind) const;

    // The scripted control plane.
    bool settleDeployments = true; // Deployments become Ready (and DRA pods appear) when written
    bool wrongDeviceIdentity = false;
    bool negativeControlEvents
        = true; // the scheduler reports why the negative control cannot be allocated // DRA pods
                // get a device whose reported UUID is not the slice's
    std::set<std::pair<std::string, model::Kind>> denied; // access reviews that answer no
    // pods/exec: `nvidia-smi -L` in a canary lists the GPUs of its claim; with execNeighbour a
    // neighbour GPU too; execForbidden refuses exec as RBAC would.
    bool execNeighbour = false;
    bool execForbidden = false;
    std::string kubernetesVersion = "v1.36.0"; // what /version reports
    // Re-runs the control plane for every Deployment (after switching settleDeployments on).
    void reconcile();

    // Every request that changed something or would have: "apply Deployment inference/x",
    // "patch ...", "delete ...", dry runs as "dry-run apply ...".
    std::vector<std::string> calls;
    std::vector<std::string> writes() const; // the calls that were not dry runs

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
    std::string actor() const override { return "alice (context fake)"; }

private:
    using Key = std::tuple<model::Kind, std::string, std::string>;
    void store(nlohmann::json object);
    void runControlPlane(const std::string &ns, const std::string &deployment);
    void removeOwned(const std::string &ns, const std::string &deployment);

    std::map<Key, nlohmann::json> m_objects;
    int64_t m_version = 1;
};

} // namespace dra::rollout::test
