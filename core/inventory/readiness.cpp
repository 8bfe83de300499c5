// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/readiness.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/common/html_text.h"
#include "core/inventory/claim_specs.h"
#include "core/inventory/gpu_stack.h"
#include "core/model/kind.h"
#include "core/release/feature_gates.h"

namespace dra::inventory {

namespace {

using nlohmann::json;

// The label that lets a namespace's claims ask for admin access (KEP-5018).
constexpr std::string_view kAdminAccessLabel = "resource.kubernetes.io/admin-access";
// kubelets may be up to three minor versions older than kube-apiserver, never newer.
constexpr int kKubeletSkew = 3;
// The release in which DRA went GA and on by default.
constexpr int kDraGaMinor = 34;

std::string plural(size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// "a, b, c and 4 more".
std::string listed(const std::vector<std::string> &names, size_t shown = 5)
{
    std::string out;
    for (size_t i = 0; i < names.size() && i < shown; ++i)
        out += (i == 0 ? "" : ", ") + names[i];
    if (names.size() > shown)
        out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

std::string labelOf(const model::Object &object, std::string_view key)
{
    for (const auto &[k, v] : object.meta.labels)
        if (k == key)
            return v;
    return {};
}

std::string keyText(const model::Object &object)
{
    return std::string(object.info().name) + " "
        + (object.meta.ns.empty() ? "" : object.meta.ns + "/") + object.meta.name;
}

// What the cluster's objects show it uses, per gate: the first object that does, as a sentence.
std::map<std::string, std::string> featuresInUse(const Snapshot &snapshot)
{
    std::map<std::string, std::string> used;
    const auto note = [&used](const std::string &gate, const std::string &what) {
        used.try_emplace(gate, what);
    };
    forEachClaimSpec(
        snapshot, [&](const model::Object &object, const model::ResourceClaimSpec &spec) {
            forEachRequestSpec(
                spec, [&](const model::DeviceRequest &request, const model::DeviceRequestSpec &s) {
                    if (!request.firstAvailable.empty())
                        note("DRAPrioritizedList", keyText(object) + " uses firstAvailable");
                    if (s.adminAccess)
                        note("DRAAdminAccess", keyText(object) + " asks for adminAccess");
                    if (!s.capacity.is_null())
                        note("DRAConsumableCapacity", keyText(object) + " requests capacity");
                });
        });
    for (const Device *device : snapshot.devices()) {
        const std::string name
            = device->key.driver + "/" + device->key.pool + "/" + device->key.device;
        if (!device->taints.empty())
            note("DRADeviceTaints", "device " + name + " is tainted");
        if (device->view.allowMultipleAllocations)
            note("DRAConsumableCapacity", "device " + name + " allows multiple allocations");
        if (!device->bindingConditions.empty())
            note("DRADeviceBindingConditions", "device " + name + " has binding conditions");
        if (!device->consumesCounters.empty())
            note("DRAPartitionableDevices", "device " + name + " consumes shared counters");
    }
    if (!snapshot.objects(model::Kind::DeviceTaintRule).empty())
        note("DRADeviceTaintRules",
            keyText(*snapshot.objects(model::Kind::DeviceTaintRule).front()) + " exists");
    for (const auto &object : snapshot.objects(model::Kind::DeviceClass))
        if (const auto *klass = object->as<model::DeviceClass>();
            klass && !klass->extendedResourceName.empty())
            note("DRAExtendedResource", keyText(*object) + " maps " + klass->extendedResourceName);
    return used;
}

ReadinessCheck releaseCheck(const Snapshot &snapshot, std::optional<int> minor)
{
    ReadinessCheck check { "release", "Kubernetes release" };
    const std::string version = snapshot.kubernetesVersion();
    const std::map<std::string, std::string> used = featuresInUse(snapshot);
    json features = json::array();
    std::vector<std::string> gatedOff;
    for (const release::GateHistory &gate : release::gateHistories()) {
        json feature = { { "name", gate.name } };
        const release::GateSpec *spec = minor ? release::gateSpecAt(gate, *minor) : nullptr;
        if (spec)
            feature.update({ { "stage", spec->stage }, { "default", spec->defaultValue },
                { "locked", spec->locked } });
        else
            feature["stage"] = minor ? "absent" : "unknown";
        if (const auto it = used.find(gate.name); it != used.end()) {
            feature["usedBy"] = it->second;
            if (minor && (!spec || !spec->defaultValue))
                gatedOff.push_back(std::string(gate.name) + " (" + it->second + ")");
        }
        features.push_back(std::move(feature));
    }
    check.details = { { "kubernetesVersion", version }, { "features", std::move(features) } };
    if (!minor) {
        check.verdict = Verdict::Unknown;
        check.reason = "The cache does not record the cluster's version (an inventory imported "
                       "from files, or a cluster never reached).";
        check.action = "Mirror the cluster (dractl sync --context C) so its /version is recorded.";
        return check;
    }
    const std::string release = "Kubernetes 1." + std::to_string(*minor);
    if (*minor < 32) {
        check.verdict = Verdict::NotReady;
        check.reason = release + " has DRA with structured parameters only as an alpha feature.";
        check.action = "Upgrade the control plane to 1." + std::to_string(kDraGaMinor)
            + " or later, where DRA is GA and on by default.";
    } else if (*minor < kDraGaMinor) {
        check.verdict = Verdict::Warning;
        check.reason = release
            + " has DRA in beta, off by default: the DynamicResourceAllocation gate and the "
              "resource.k8s.io/v1beta1 API must be switched on in every component.";
        check.action = "Check that the gate and the API are on, or upgrade to 1."
            + std::to_string(kDraGaMinor) + ", where DRA is GA.";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = release + " has DRA GA and on by default.";
    }
    if (!gatedOff.empty()) {
        check.verdict = std::max(check.verdict, Verdict::Warning);
        check.reason += " The cluster's objects use features that " + release
            + " keeps off by default: " + listed(gatedOff, 3) + ".";
        if (check.action.empty())
            check.action = "Make sure those feature gates are on in kube-apiserver, "
                           "kube-scheduler and the kubelets, or the fields are dropped.";
    }
    return check;
}

ReadinessCheck apiCheck(std::span<const model::StreamRecord> streams)
{
    ReadinessCheck check { "api", "resource.k8s.io API" };
    json served = json::array();
    std::set<std::string> kindsServed;
    std::vector<std::string> broken;
    for (const model::StreamRecord &stream : streams) {
        if (stream.group != "resource.k8s.io")
            continue;
        kindsServed.insert(stream.kind);
        served.push_back({ { "kind", stream.kind }, { "namespace", stream.ns },
            { "apiVersion", stream.apiVersion }, { "state", stream.state },
            { "reason", stream.reason } });
        if (stream.state == "forbidden" || stream.state == "error")
            broken.push_back(stream.kind + " (" + stream.state
                + (stream.reason.empty() ? "" : ": " + stream.reason) + ")");
    }
    std::vector<std::string> notServed;
    for (const model::KindInfo &info : model::allKinds())
        if (info.group == "resource.k8s.io" && !kindsServed.contains(std::string(info.name)))
            notServed.emplace_back(info.name);
    check.details = { { "streams", std::move(served) }, { "notServed", notServed } };
    if (kindsServed.empty()) {
        check.verdict = Verdict::Unknown;
        check.reason = "No resource.k8s.io stream is mirrored (an inventory imported from "
                       "files): which versions the cluster serves is not known.";
        check.action = "Mirror the cluster with dractl sync to see what it serves.";
        return check;
    }
    std::set<std::string> versions;
    for (const json &s : check.details["streams"])
        versions.insert(s["apiVersion"].get<std::string>());
    const std::vector<std::string> versionList(versions.begin(), versions.end());
    if (!broken.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "Reading " + listed(broken, 3) + " fails.";
        check.action = "Grant the identity the console uses list and watch on resource.k8s.io, "
                       "or check the API server.";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = "The cluster serves " + listed(versionList) + ".";
    }
    if (!notServed.empty())
        check.reason += " Not served: " + listed(notServed)
            + " (features of later releases or "
              "off by their gates).";
    return check;
}

ReadinessCheck kubeletCheck(const Snapshot &snapshot, std::optional<int> minor)
{
    ReadinessCheck check { "kubelets", "Kubelet versions" };
    json nodes = json::array();
    std::vector<std::string> outOfSkew, unknown;
    for (const auto &object : snapshot.objects(model::Kind::Node)) {
        const auto *node = object->as<model::Node>();
        if (!node)
            continue;
        const std::optional<int> kubelet = release::minorVersionOf(node->kubeletVersion);
        json row = { { "node", object->meta.name }, { "kubeletVersion", node->kubeletVersion } };
        if (!kubelet || !minor) {
            unknown.push_back(object->meta.name);
        } else {
            const int skew = *minor - *kubelet;
            const bool ok = skew >= 0 && skew <= kKubeletSkew;
            row.update({ { "skew", skew }, { "supported", ok } });
            if (!ok)
                outOfSkew.push_back(object->meta.name + " (" + node->kubeletVersion + ")");
        }
        nodes.push_back(std::move(row));
    }
    check.details = { { "nodes", std::move(nodes) } };
    if (check.details["nodes"].empty()) {
        check.verdict = Verdict::Unknown;
        check.reason = "The cache holds no Nodes.";
        check.action = "Mirror Nodes (dractl sync) to check the kubelets.";
    } else if (!minor) {
        check.verdict = Verdict::Unknown;
        check.reason = "The control plane's version is not known, so the skew cannot be checked.";
        check.action = "Mirror the cluster so its /version is recorded.";
    } else if (!outOfSkew.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "Outside the supported skew (kubelet at most " + std::to_string(kKubeletSkew)
            + " minor versions older than the control plane, never newer): " + listed(outOfSkew)
            + ".";
        check.action = "Upgrade (or roll back) those kubelets before relying on DRA there.";
    } else {
        check.verdict = unknown.empty() ? Verdict::Ready : Verdict::Warning;
        check.reason = "Every kubelet is within the supported skew of the control plane 1."
            + std::to_string(*minor) + ".";
        if (!unknown.empty()) {
            check.reason += " Not reported: " + listed(unknown) + ".";
            check.action = "Check the kubelet version of those nodes.";
        }
    }
    return check;
}

ReadinessCheck driverCheck(const Snapshot &snapshot)
{
    ReadinessCheck check { "drivers", "DRA drivers" };
    // Per node: the drivers publishing local devices, with their version attributes.
    std::map<std::string, std::map<std::string, std::set<std::string>>> perNode;
    for (const Device *device : snapshot.devices()) {
        if (device->node.empty())
            continue;
        std::set<std::string> &versions = perNode[device->node][device->key.driver];
        if (const std::string version = device->attributeText("driverVersion"); !version.empty())
            versions.insert(version);
    }
    const std::map<std::string, NodeGpuStack> stacks = nodeGpuStacks(snapshot);
    json nodes = json::array();
    std::vector<std::string> withoutDriver;
    for (const auto &object : snapshot.objects(model::Kind::Node)) {
        if (!object->as<model::Node>())
            continue;
        const auto it = perNode.find(object->meta.name);
        json drivers = json::array();
        if (it != perNode.end())
            for (const auto &[driver, versions] : it->second)
                drivers.push_back({ { "driver", driver },
                    { "versions", std::vector<std::string>(versions.begin(), versions.end()) } });
        // A GPU node (as GPU feature discovery labels it) offering its GPUs neither through a
        // DRA driver nor through the device plugin (that one is the device-plugin check's).
        const bool gpuNode = labelOf(*object, "nvidia.com/gpu.present") == "true"
            && !stacks.at(object->meta.name).devicePlugin();
        if (drivers.empty() && gpuNode)
            withoutDriver.push_back(object->meta.name);
        nodes.push_back({ { "node", object->meta.name }, { "drivers", std::move(drivers) } });
    }
    std::vector<std::string> incomplete;
    for (const Pool &pool : snapshot.pools())
        if (!pool.complete())
            incomplete.push_back(pool.driver + "/" + pool.name + " ("
                + std::to_string(pool.slices.size()) + " of "
                + std::to_string(pool.resourceSliceCount) + " slices)");
    std::set<std::string> drivers;
    for (const SliceInfo &slice : snapshot.slices())
        drivers.insert(slice.driver);
    check.details = { { "drivers", std::vector<std::string>(drivers.begin(), drivers.end()) },
        { "nodes", std::move(nodes) }, { "gpuNodesWithoutDriver", withoutDriver },
        { "incompletePools", incomplete } };
    if (drivers.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "No DRA driver publishes ResourceSlices.";
        check.action = "Install a DRA driver (for NVIDIA GPUs, the NVIDIA DRA driver) on the "
                       "GPU nodes.";
    } else if (!incomplete.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "Pools with slices missing, which the scheduler does not allocate from: "
            + listed(incomplete, 3) + ".";
        check.action = "Check the driver on those nodes: it publishes fewer slices than it "
                       "declares.";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = listed(std::vector<std::string>(drivers.begin(), drivers.end()))
            + " publish complete pools on " + plural(perNode.size(), "node", "nodes") + ".";
    }
    if (!withoutDriver.empty()) {
        check.verdict = std::max(check.verdict, Verdict::Warning);
        check.reason += " GPU nodes without a DRA driver: " + listed(withoutDriver) + ".";
        if (check.action.empty())
            check.action = "Install the DRA driver there when those nodes move to DRA.";
    }
    return check;
}

ReadinessCheck devicePluginCheck(const Snapshot &snapshot)
{
    ReadinessCheck check { "device-plugin", "Device plugin and DRA" };
    const std::map<std::string, NodeGpuStack> stacks = nodeGpuStacks(snapshot);
    size_t draGpuNodes = 0;
    for (const auto &[name, stack] : stacks)
        draGpuNodes += stack.draGpus ? 1 : 0;
    json nodes = json::array();
    std::vector<std::string> both, pluginOnly;
    for (const auto &object : snapshot.objects(model::Kind::Node)) {
        if (!object->as<model::Node>())
            continue;
        const NodeGpuStack &stack = stacks.at(object->meta.name);
        if (!stack.devicePlugin() && !stack.draGpus)
            continue;
        nodes.push_back({ { "node", object->meta.name }, { "stack", stack.name() },
            { "devicePlugin", stack.devicePluginResources } });
        if (stack.draGpus && stack.devicePlugin())
            both.push_back(object->meta.name);
        else if (stack.devicePluginOnly())
            pluginOnly.push_back(object->meta.name);
    }
    check.details = { { "nodes", std::move(nodes) } };
    const size_t draOnly = draGpuNodes - both.size();
    if (!both.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "The device plugin and a DRA driver both offer the GPUs of " + listed(both)
            + ": the same GPU can be given to a device-plugin pod and to a claim at once.";
        check.action = "Take the device plugin off those nodes (label them out of its "
                       "DaemonSet) before DRA claims land there.";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = plural(draOnly, "GPU node uses", "GPU nodes use") + " DRA";
        check.reason += pluginOnly.empty() ? ", none the device plugin."
                                           : "; " + plural(pluginOnly.size(), "node", "nodes")
                + " still use the device plugin only (" + listed(pluginOnly) + ").";
        if (!pluginOnly.empty())
            check.action = "Plan their move with a rollout (dractl rollout plan).";
    }
    return check;
}

ReadinessCheck adminAccessCheck(const Snapshot &snapshot)
{
    ReadinessCheck check { "admin-access", "Admin access" };
    std::set<std::string> namespaces;
    std::vector<std::string> users;
    forEachClaimSpec(
        snapshot, [&](const model::Object &object, const model::ResourceClaimSpec &spec) {
            bool asks = false;
            forEachRequestSpec(
                spec, [&](const model::DeviceRequest &, const model::DeviceRequestSpec &s) {
                    asks = asks || s.adminAccess;
                });
            if (asks) {
                namespaces.insert(object.meta.ns);
                users.push_back(keyText(object));
            }
        });
    // A namespace the cache does not hold (Namespaces not mirrored, or not readable) is not
    // known to lack the label.
    std::vector<std::string> unlabelled, notMirrored;
    for (const std::string &ns : namespaces) {
        const model::Object *object = snapshot.object(model::Kind::Namespace, {}, ns);
        if (!object)
            notMirrored.push_back(ns);
        else if (labelOf(*object, kAdminAccessLabel) != "true")
            unlabelled.push_back(ns);
    }
    check.details = { { "requestedBy", users },
        { "namespaces", std::vector<std::string>(namespaces.begin(), namespaces.end()) },
        { "unlabelled", unlabelled }, { "notMirrored", notMirrored } };
    if (namespaces.empty()) {
        check.verdict = Verdict::Ready;
        check.reason = "No claim or template asks for admin access.";
    } else if (!unlabelled.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "Claims ask for admin access in namespaces without the "
            + std::string(kAdminAccessLabel)
            + "=true label, which Kubernetes refuses: " + listed(unlabelled) + ".";
        check.action = "Label those namespaces (kubectl label namespace NS "
            + std::string(kAdminAccessLabel) + "=true) if their users are admins.";
    } else if (!notMirrored.empty()) {
        check.verdict = Verdict::Unknown;
        check.reason = listed(users, 3) + " ask for admin access; the cache does not hold the "
            + "Namespace " + listed(notMirrored) + ", so its labels cannot be checked.";
        check.action = "Mirror Namespaces, or check that each has the label "
            + std::string(kAdminAccessLabel) + "=true.";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = "Every namespace whose claims ask for admin access carries the label.";
    }
    return check;
}

ReadinessCheck classCheck(const Snapshot &snapshot)
{
    ReadinessCheck check { "classes", "DeviceClasses" };
    json classes = json::array();
    std::vector<std::string> empty, broken;
    for (const auto &object : snapshot.objects(model::Kind::DeviceClass)) {
        const std::shared_ptr<const ClassMatch> match = snapshot.classMatch(object->meta.name);
        const size_t devices = match ? match->devices.size() : 0;
        const bool compiles = !match || match->errors.empty();
        classes.push_back(
            { { "name", object->meta.name }, { "devices", devices }, { "compiles", compiles } });
        if (!compiles)
            broken.push_back(object->meta.name);
        else if (devices == 0)
            empty.push_back(object->meta.name);
    }
    check.details = { { "classes", std::move(classes) } };
    if (check.details["classes"].empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "No DeviceClass exists: claims have nothing to name.";
        check.action = "Install the classes of the DRA driver (it usually ships them).";
    } else if (!broken.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason = "Classes whose selectors fail: " + listed(broken) + ".";
        check.action = "Fix their CEL selectors (dractl cel check --expr ...).";
    } else if (!empty.empty()) {
        check.verdict = Verdict::Warning;
        check.reason = "Classes that select no device: " + listed(empty) + ".";
        check.action = "Check their selectors against the inventory (dractl cel eval).";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = "Every DeviceClass selects devices.";
    }
    return check;
}

ReadinessCheck claimCheck(const Snapshot &snapshot)
{
    ReadinessCheck check { "claims", "Claims" };
    std::vector<std::string> missingClass, pending;
    int claims = 0;
    forEachClaimSpec(
        snapshot, [&](const model::Object &object, const model::ResourceClaimSpec &spec) {
            if (object.as<model::ResourceClaim>()) {
                ++claims;
                if (object.as<model::ResourceClaim>()->allocation == std::nullopt)
                    pending.push_back(keyText(object));
            }
            forEachRequestSpec(
                spec, [&](const model::DeviceRequest &, const model::DeviceRequestSpec &s) {
                    if (!s.deviceClassName.empty()
                        && !snapshot.object(model::Kind::DeviceClass, {}, s.deviceClassName))
                        missingClass.push_back(keyText(object) + " -> " + s.deviceClassName);
                });
        });
    std::sort(missingClass.begin(), missingClass.end());
    missingClass.erase(std::unique(missingClass.begin(), missingClass.end()), missingClass.end());
    check.details
        = { { "claims", claims }, { "pending", pending }, { "missingClass", missingClass } };
    if (!missingClass.empty()) {
        check.verdict = Verdict::NotReady;
        check.reason
            = "Requests name DeviceClasses that do not exist: " + listed(missingClass, 3) + ".";
        check.action = "Create the classes or fix the names (dractl template check).";
    } else if (!pending.empty()) {
        check.verdict = Verdict::Warning;
        check.reason = plural(pending.size(), "claim is", "claims are")
            + " not allocated: " + listed(pending, 3) + ".";
        check.action = "See why with dractl explain claim NS/NAME.";
    } else {
        check.verdict = Verdict::Ready;
        check.reason = claims == 0 ? "No claims yet." : "Every claim is allocated.";
    }
    return check;
}

} // namespace

std::string_view verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Ready:
        return "ready";
    case Verdict::Unknown:
        return "unknown";
    case Verdict::Warning:
        return "warning";
    case Verdict::NotReady:
        return "not-ready";
    }
    return "unknown";
}

Verdict Readiness::overall() const
{
    Verdict worst = Verdict::Ready;
    for (const ReadinessCheck &check : checks)
        worst = std::max(worst, check.verdict);
    return worst;
}

Readiness readiness(const Snapshot &snapshot, std::span<const model::StreamRecord> streams)
{
    Readiness out;
    out.cluster = snapshot.cluster();
    out.rev = snapshot.rev();
    out.kubernetesVersion = snapshot.kubernetesVersion();
    const std::optional<int> minor = release::minorVersionOf(out.kubernetesVersion);
    out.checks.push_back(releaseCheck(snapshot, minor));
    out.checks.push_back(apiCheck(streams));
    out.checks.push_back(kubeletCheck(snapshot, minor));
    out.checks.push_back(driverCheck(snapshot));
    out.checks.push_back(devicePluginCheck(snapshot));
    out.checks.push_back(classCheck(snapshot));
    out.checks.push_back(adminAccessCheck(snapshot));
    out.checks.push_back(claimCheck(snapshot));
    return out;
}

json toJson(const Readiness &readiness)
{
    json checks = json::array();
    for (const ReadinessCheck &check : readiness.checks)
        checks.push_back({ { "id", check.id }, { "title", check.title },
            { "verdict", verdictName(check.verdict) }, { "reason", check.reason },
            { "action", check.action }, { "details", check.details } });
    return { { "cluster", readiness.cluster }, { "rev", readiness.rev },
        { "kubernetesVersion", readiness.kubernetesVersion },
        { "verdict", verdictName(readiness.overall()) }, { "checks", std::move(checks) } };
}

std::string toText(const Readiness &readiness)
{
    std::string out = "DRA readiness of " + readiness.cluster + " ("
        + (readiness.kubernetesVersion.empty() ? "version not known" : readiness.kubernetesVersion)
        + "): " + std::string(verdictName(readiness.overall())) + "\n";
    for (const ReadinessCheck &check : readiness.checks) {
        out += "\n[" + std::string(verdictName(check.verdict)) + "] " + check.title + "\n  "
            + check.reason + "\n";
        if (!check.action.empty())
            out += "  next: " + check.action + "\n";
    }
    return out;
}

namespace {

constexpr std::string_view kReadinessStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1000px;color:#1d2330;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}section{border:1px solid #dfe3ea;border-left:6px solid #667085;border-radius:4px;padding:.3em 1em .6em;margin:1em 0}
section.ready{border-left-color:#137333}section.warning{border-left-color:#8a5a00}section.not-ready{border-left-color:#b3261e}
.badge{display:inline-block;padding:.05em .6em;border-radius:.8em;font-size:.85em;color:#fff;background:#5b6474}
.badge.ready{background:#137333}.badge.warning{background:#8a5a00}.badge.not-ready{background:#b3261e}
h2{font-size:1.1em;margin:.5em 0 .3em}.next{font-weight:600}small{color:#5b6474}
pre{background:#f6f8fa;padding:.6em;overflow:auto;font-size:12px;max-height:20em}
)css";

std::string badge(Verdict verdict)
{
    const std::string name(verdictName(verdict));
    return "<span class=\"badge " + name + "\">" + name + "</span>";
}

} // namespace

std::string toHtml(const Readiness &readiness)
{
    using common::escapeHtml;
    const std::string version = readiness.kubernetesVersion.empty()
        ? std::string("version not known")
        : readiness.kubernetesVersion;
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<title>DRA readiness of "
        + escapeHtml(readiness.cluster) + "</title>\n<style>" + std::string(kReadinessStyle)
        + "</style></head><body>\n<h1>DRA readiness of " + escapeHtml(readiness.cluster) + " "
        + badge(readiness.overall()) + "</h1>\n<p><small>Kubernetes " + escapeHtml(version)
        + " · cache revision " + std::to_string(readiness.rev)
        + " · the checks in the order to fix things</small></p>\n";
    for (const ReadinessCheck &check : readiness.checks) {
        html += "<section class=\"" + std::string(verdictName(check.verdict)) + "\" id=\""
            + escapeHtml(check.id) + "\">\n<h2>" + badge(check.verdict) + " "
            + escapeHtml(check.title) + "</h2>\n<p>" + escapeHtml(check.reason) + "</p>\n";
        if (!check.action.empty())
            html += "<p class=\"next\">Next: " + escapeHtml(check.action) + "</p>\n";
        if (!check.details.empty())
            html += "<details><summary>Facts</summary><pre>" + escapeHtml(check.details.dump(2))
                + "</pre></details>\n";
        html += "</section>\n";
    }
    return html + "</body></html>\n";
}

} // namespace dra::inventory
