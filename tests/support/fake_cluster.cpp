// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/support/fake_cluster.h"

#include <QUrlQuery>

#include "core/common/error.h"

namespace dra::rollout::test {

using model::Kind;
using nlohmann::json;

namespace {

std::string fakeKindName(Kind kind)
{
    return std::string(model::kindInfo(kind).name);
}

std::string fakeRef(Kind kind, const std::string &ns, const std::string &name)
{
    return fakeKindName(kind) + " " + (ns.empty() ? name : ns + "/" + name);
}

bool fakeSelectorMatches(const json &object, const std::string &selector)
{
    if (selector.empty())
        return true;
    const json labels = object["metadata"].value("labels", json::object());
    size_t start = 0;
    while (start <= selector.size()) {
        const size_t end = std::min(selector.find(',', start), selector.size());
        const std::string term = selector.substr(start, end - start);
        const size_t eq = term.find('=');
        if (eq != std::string::npos) {
            const std::string key = term.substr(0, eq), value = term.substr(eq + 1);
            if (!labels.contains(key) || labels[key] != value)
                return false;
        }
        start = end + 1;
    }
    return true;
}

std::string gpuUuid(int index)
{
    return "GPU-0000000" + std::to_string(index) + "-3b7e-4d2a-9f10-0a1b2c3d4e5f";
}

} // namespace

FakeCluster::FakeCluster() = default;

void FakeCluster::seedExampleWorld()
{
    put(json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"llm-server","namespace":"inference","labels":{"app":"llm-server"},"generation":1},
        "spec":{"replicas":8,"selector":{"matchLabels":{"app":"llm-server"}},
          "template":{"metadata":{"labels":{"app":"llm-server"}},
            "spec":{"nodeSelector":{"nvidia.com/gpu.deploy.device-plugin":"true","pool.example.com/zone":"a"},
              "containers":[{"name":"server","image":"registry.example.com/llm-server:1.4",
                "resources":{"limits":{"nvidia.com/gpu":"1","memory":"32Gi"},"requests":{"nvidia.com/gpu":"1"}}}]}}},
        "status":{"observedGeneration":1,"replicas":8,"readyReplicas":8}})"));
    put(json::parse(
        R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"llm-server","namespace":"inference"},
        "spec":{"selector":{"app":"llm-server"},"ports":[{"port":8080}]}})"));
    put(json::parse(R"({"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute",
        "metadata":{"name":"llm-server","namespace":"inference"},
        "spec":{"parentRefs":[{"name":"gateway"}],
          "rules":[{"backendRefs":[{"name":"llm-server","port":8080,"weight":1}]}]}})"));
    put(json::parse(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a",
        "labels":{"nvidia.com/gpu.deploy.device-plugin":"false"}},"status":{"allocatable":{"cpu":"64"}}})"));
    put(json::parse(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"node-b",
        "labels":{"nvidia.com/gpu.deploy.device-plugin":"true"}},"status":{"allocatable":{"cpu":"64","nvidia.com/gpu":"8"}}})"));
    put(json::parse(
        R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.nvidia.com"},
        "spec":{"selectors":[{"cel":{"expression":"device.driver == \"gpu.nvidia.com\""}}]}})"));
    json devices = json::array();
    for (int i = 0; i < 8; ++i)
        devices.push_back({ { "name", "gpu-" + std::to_string(i) },
            { "attributes",
                { { "uuid", { { "string", gpuUuid(i) } } },
                    { "productName", { { "string", "NVIDIA H100 80GB HBM3" } } } } } });
    put({ { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
        { "metadata", { { "name", "node-a-gpu.nvidia.com" } } },
        { "spec",
            { { "driver", "gpu.nvidia.com" }, { "nodeName", "node-a" },
                { "pool",
                    { { "name", "node-a" }, { "generation", 1 }, { "resourceSliceCount", 1 } } },
                { "devices", devices } } } });
}

void FakeCluster::put(json object)
{
    store(std::move(object));
}

void FakeCluster::store(json object)
{
    const model::KindInfo *info = model::kindOf(
        object.value("apiVersion", std::string()), object.value("kind", std::string()));
    const json &meta = object["metadata"];
    object["metadata"]["resourceVersion"] = std::to_string(++m_version);
    m_objects[Key { info ? info->kind : Kind::Unknown, meta.value("namespace", std::string()),
        meta.value("name", std::string()) }]
        = std::move(object);
}

std::optional<json> FakeCluster::object(
    Kind kind, const std::string &ns, const std::string &name) const
{
    const auto found = m_objects.find(Key { kind, ns, name });
    if (found == m_objects.end())
        return std::nullopt;
    return found->second;
}

size_t FakeCluster::count(Kind kind) const
{
    size_t n = 0;
    for (const auto &[key, object] : m_objects)
        n += std::get<0>(key) == kind;
    return n;
}

std::vector<std::string> FakeCluster::writes() const
{
    std::vector<std::string> real;
    for (const std::string &call : calls)
        if (!call.starts_with("dry-run"))
            real.push_back(call);
    return real;
}

void FakeCluster::reconcile()
{
    std::vector<std::pair<std::string, std::string>> deployments;
    for (const auto &[key, object] : m_objects)
        if (std::get<0>(key) == Kind::Deployment)
            deployments.emplace_back(std::get<1>(key), std::get<2>(key));
    for (const auto &[ns, name] : deployments)
        runControlPlane(ns, name);
}

void FakeCluster::removeOwned(const std::string &ns, const std::string &deployment)
{
    const std::string prefix = deployment + "-pod-";
    for (auto it = m_objects.begin(); it != m_objects.end();) {
        const auto &[kind, objectNs, name] = it->first;
        const bool owned = objectNs == ns && (kind == Kind::Pod || kind == Kind::ResourceClaim)
            && name.starts_with(prefix);
        it = owned ? m_objects.erase(it) : std::next(it);
    }
}

// The Deployment controller, scheduler and kubelet in one: status Ready at spec.replicas, and for
// a pod template using claims, that many Running pods each holding one allocated, reserved GPU.
void FakeCluster::runControlPlane(const std::string &ns, const std::string &name)
{
    if (!settleDeployments)
        return;
    auto found = m_objects.find(Key { Kind::Deployment, ns, name });
    if (found == m_objects.end())
        return;
    json &deployment = found->second;
    const int replicas = deployment["spec"].value("replicas", 1);
    deployment["status"]
        = { { "observedGeneration", deployment["metadata"].value("generation", 1) },
              { "replicas", replicas }, { "readyReplicas", replicas } };
    const json podSpec = deployment["spec"]["template"].value("spec", json::object());
    if (!podSpec.contains("resourceClaims"))
        return;
    const json labels = deployment["spec"]["template"]["metadata"].value("labels", json::object());
    removeOwned(ns, name);
    for (int i = 0; i < replicas; ++i) {
        const std::string pod = name + "-pod-" + std::to_string(i);
        const std::string claim = pod + "-gpu";
        const std::string uid = "uid-" + pod;
        json containers = podSpec["containers"];
        json statuses = json::array();
        for (const json &c : containers)
            statuses.push_back({ { "name", c["name"] }, { "ready", true }, { "started", true },
                { "state", { { "running", { { "startedAt", "2026-11-30T10:00:05Z" } } } } } });
        store({ { "apiVersion", "v1" }, { "kind", "Pod" },
            { "metadata",
                { { "name", pod }, { "namespace", ns }, { "uid", uid }, { "labels", labels } } },
            { "spec",
                { { "nodeName", "node-a" }, { "containers", containers },
                    { "resourceClaims", podSpec["resourceClaims"] } } },
            { "status",
                { { "phase", "Running" }, { "podIP", "10.0.0." + std::to_string(i + 1) },
                    { "conditions",
                        json::array({ { { "type", "Ready" }, { "status", "True" } } }) },
                    { "containerStatuses", statuses },
                    { "resourceClaimStatuses",
                        json::array(
                            { { { "name", "gpu" }, { "resourceClaimName", claim } } }) } } } });
        const std::string device = "gpu-" + std::to_string(i % 8);
        store({ { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
            { "metadata",
                { { "name", claim }, { "namespace", ns },
                    { "ownerReferences",
                        json::array(
                            { { { "kind", "Pod" }, { "name", pod }, { "uid", uid } } }) } } },
            { "spec",
                { { "devices",
                    { { "requests",
                        json::array({ { { "name", "gpu" },
                            { "exactly",
                                { { "deviceClassName", "gpu.nvidia.com" } } } } }) } } } } },
            { "status",
                { { "allocation",
                      { { "devices",
                          { { "results",
                              json::array({ { { "request", "gpu" }, { "driver", "gpu.nvidia.com" },
                                  { "pool", "node-a" }, { "device", device } } }) } } } } },
                    { "reservedFor",
                        json::array(
                            { { { "resource", "pods" }, { "name", pod }, { "uid", uid } } }) },
                    { "devices",
                        json::array({ { { "driver", "gpu.nvidia.com" }, { "pool", "node-a" },
                            { "device", device },
                            { "data",
                                { { "uuid",
                                    wrongDeviceIdentity ? gpuUuid(7 - i % 8)
                                                        : gpuUuid(i % 8) } } } } }) } } } });
    }
}

void FakeCluster::list(Kind kind, const std::string &ns, const std::string &labelSelector,
    QObject *, Done<std::vector<json>> done)
{
    std::vector<json> items;
    for (const auto &[key, object] : m_objects)
        if (std::get<0>(key) == kind && (ns.empty() || std::get<1>(key) == ns)
            && fakeSelectorMatches(object, labelSelector))
            items.push_back(object);
    done(std::move(items));
}

void FakeCluster::get(Kind kind, const std::string &ns, const std::string &name, QObject *,
    Done<std::optional<json>> done)
{
    done(object(kind, ns, name));
}

void FakeCluster::apply(const json &desired, bool dryRun, QObject *, Done<json> done)
{
    const model::KindInfo *info = model::kindOf(
        desired.value("apiVersion", std::string()), desired.value("kind", std::string()));
    if (!info)
        return done(fail(common::Error::Code::Invalid, QStringLiteral("unknown kind")));
    const std::string ns = desired["metadata"].value("namespace", std::string());
    const std::string name = desired["metadata"].value("name", std::string());
    calls.push_back(
        std::string(dryRun ? "dry-run " : "") + "apply " + fakeRef(info->kind, ns, name));
    std::optional<json> live = object(info->kind, ns, name);
    json result = live
        ? *live
        : json { { "apiVersion", desired["apiVersion"] }, { "kind", desired["kind"] },
              { "metadata", { { "name", name }, { "namespace", ns }, { "generation", 1 } } } };
    if (ns.empty())
        result["metadata"].erase("namespace");
    // Server-side apply, reduced: the fields applied replace the live ones.
    for (const auto &[field, value] : desired.items())
        if (field != "metadata" && field != "status") {
            if (live && field == "spec" && (*live)["spec"] != value)
                result["metadata"]["generation"] = (*live)["metadata"].value("generation", 1) + 1;
            result[field] = value;
        }
    if (desired["metadata"].contains("labels"))
        result["metadata"]["labels"] = desired["metadata"]["labels"];
    // Server-side apply drops the fields this manager applied before and applies no longer.
    if (desired["metadata"].contains("annotations"))
        result["metadata"]["annotations"] = desired["metadata"]["annotations"];
    else
        result["metadata"].erase("annotations");
    if (dryRun)
        return done(result);
    store(result);
    if (info->kind == Kind::Deployment)
        runControlPlane(ns, name);
    if (info->kind == Kind::ResourceClaim && name.ends_with("-negative-control")
        && negativeControlEvents)
        // The scheduler's word on a claim nothing can satisfy.
        store({ { "apiVersion", "v1" }, { "kind", "Event" },
            { "metadata", { { "name", name + ".1" }, { "namespace", ns } } },
            { "involvedObject", { { "kind", "Pod" }, { "namespace", ns }, { "name", name } } },
            { "reason", "FailedScheduling" }, { "type", "Warning" },
            { "message", "0/2 nodes are available: 2 cannot allocate all claims." } });
    done(*object(info->kind, ns, name));
}

void FakeCluster::mergePatch(Kind kind, const std::string &ns, const std::string &name,
    const json &patch, bool dryRun, QObject *, Done<json> done)
{
    calls.push_back(std::string(dryRun ? "dry-run " : "") + "patch " + fakeRef(kind, ns, name));
    std::optional<json> live = object(kind, ns, name);
    if (!live)
        return done(fail(common::Error::Code::NotFound,
            QString::fromStdString(fakeRef(kind, ns, name) + " not found")));
    json result = *live;
    result.merge_patch(patch);
    if (result["spec"] != (*live)["spec"])
        result["metadata"]["generation"] = (*live)["metadata"].value("generation", 1) + 1;
    if (dryRun)
        return done(result);
    store(result);
    if (kind == Kind::Deployment)
        runControlPlane(ns, name);
    done(*object(kind, ns, name));
}

void FakeCluster::remove(Kind kind, const std::string &ns, const std::string &name, bool dryRun,
    QObject *, Done<bool> done)
{
    calls.push_back(std::string(dryRun ? "dry-run " : "") + "delete " + fakeRef(kind, ns, name));
    const bool existed = object(kind, ns, name).has_value();
    if (!dryRun) {
        m_objects.erase(Key { kind, ns, name });
        if (kind == Kind::Deployment)
            removeOwned(ns, name);
    }
    done(existed);
}

void FakeCluster::reviewAccess(
    const std::string &verb, Kind kind, const std::string &, QObject *, Done<bool> done)
{
    done(!denied.contains({ verb, kind }));
}

void FakeCluster::servedResourceVersions(QObject *, Done<std::vector<std::string>> done)
{
    done(std::vector<std::string> { "v1" });
}

void FakeCluster::serverVersion(QObject *, Done<std::string> done)
{
    done(kubernetesVersion);
}

void FakeCluster::fetch(const QUrl &url, int, QObject *, Done<HttpAnswer> done)
{
    if (url.path().endsWith(QStringLiteral("/api/v1/query"))) {
        const QString query
            = QUrlQuery(url).queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded);
        const char *value = query.contains(QStringLiteral("histogram_quantile")) ? "0.2" : "0.001";
        return done(HttpAnswer { 200,
            QByteArray(
                R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1700000000,")")
                + value + "\"]}]}}",
            3 });
    }
    done(HttpAnswer { 200, "ok", 2 });
}

void FakeCluster::exec(const std::string &ns, const std::string &pod, const std::string &,
    const std::vector<std::string> &command, int, QObject *, Done<ExecAnswer> done)
{
    if (execForbidden)
        return done(std::unexpected(common::Error { common::Error::Code::Forbidden,
            QStringLiteral("pods \"%1\" is forbidden: User \"alice\" cannot create resource "
                           "\"pods/exec\" in API group \"\" in the namespace \"%2\"")
                .arg(QString::fromStdString(pod), QString::fromStdString(ns)) }));
    const std::optional<json> found = object(Kind::Pod, ns, pod);
    if (!found)
        return done(std::unexpected(common::Error { common::Error::Code::NotFound,
            QStringLiteral("pods \"%1\" not found").arg(QString::fromStdString(pod)) }));
    if (command != std::vector<std::string> { "nvidia-smi", "-L" })
        return done(ExecAnswer { {}, "executable file not found in $PATH\n", 127 });
    std::vector<int> gpus;
    for (const json &status :
        found->value("/status/resourceClaimStatuses"_json_pointer, json::array()))
        if (const std::optional<json> claim
            = object(Kind::ResourceClaim, ns, status.value("resourceClaimName", "")))
            for (const json &result :
                claim->value("/status/allocation/devices/results"_json_pointer, json::array()))
                gpus.push_back(std::stoi(result.value("device", "gpu-0").substr(4)));
    if (execNeighbour && !gpus.empty())
        gpus.push_back((gpus.front() + 1) % 8);
    std::string out;
    for (size_t i = 0; i < gpus.size(); ++i)
        out += "GPU " + std::to_string(i) + ": NVIDIA H100 80GB HBM3 (UUID: " + gpuUuid(gpus[i])
            + ")\n";
    done(ExecAnswer { out, {}, 0 });
}

} // namespace dra::rollout::test
