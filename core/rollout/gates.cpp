// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/gates.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <optional>
#include <set>

#include "core/alloc/diagnosis.h"
#include "core/rollout/baseline_facts.h"

namespace dra::rollout {

namespace {

Check passed(std::string name, std::string evidence)
{
    return Check { std::move(name), Verdict::Passed, std::move(evidence) };
}

Check failed(std::string name, std::string evidence)
{
    return Check { std::move(name), Verdict::Failed, std::move(evidence) };
}

Check inconclusive(std::string name, std::string evidence)
{
    return Check { std::move(name), Verdict::Inconclusive, std::move(evidence) };
}

bool containsNoCase(std::string_view text, std::string_view word)
{
    return std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a))
            == std::tolower(static_cast<unsigned char>(b));
    }) != text.end();
}

int64_t countOf(const model::Event &event)
{
    return event.count > 0 ? event.count : 1;
}

std::string eventLine(const model::Event &event)
{
    return event.reason + ": " + event.message
        + (countOf(event) > 1 ? " (x" + std::to_string(countOf(event)) + ")" : "");
}

bool isAbout(
    const model::Event &event, std::string_view kind, std::string_view ns, std::string_view name)
{
    return event.involvedObject.kind == kind && event.involvedObject.name == name
        && (event.involvedObject.ns.empty() || event.involvedObject.ns == ns);
}

bool isAllocationFailure(const model::Event &event)
{
    if (event.reason == "FailedResourceClaimCreation")
        return true;
    return event.reason == "FailedScheduling"
        && (containsNoCase(event.message, "claim") || containsNoCase(event.message, "allocate"));
}

bool isPrepareFailure(const model::Event &event)
{
    return event.reason == "FailedPrepareDynamicResources"
        || containsNoCase(event.message, "PrepareResources")
        || containsNoCase(event.message, "prepare dynamic resources");
}

// The claims a pod uses, as (pod's claim entry name, ResourceClaim name or "" when unknown yet).
std::vector<std::pair<std::string, std::string>> claimNames(const model::Pod &pod)
{
    std::vector<std::pair<std::string, std::string>> names;
    for (const model::PodResourceClaim &entry : pod.resourceClaims) {
        std::string claim = entry.resourceClaimName;
        if (claim.empty())
            for (const model::PodResourceClaimStatus &status : pod.resourceClaimStatuses)
                if (status.name == entry.name)
                    claim = status.resourceClaimName;
        names.emplace_back(entry.name, claim);
    }
    return names;
}

const model::Object *findObject(
    const std::vector<model::Object> &objects, std::string_view ns, std::string_view name)
{
    for (const model::Object &object : objects)
        if (object.meta.name == name && object.meta.ns == ns)
            return &object;
    return nullptr;
}

struct SliceDevice
{
    const model::ResourceSlice *slice = nullptr;
    const model::Device *device = nullptr;
};

SliceDevice findDevice(
    const std::vector<model::Object> &slices, const model::DeviceRequestAllocationResult &result)
{
    for (const model::Object &object : slices)
        if (const auto *slice = object.as<model::ResourceSlice>();
            slice && slice->driver == result.driver && slice->pool.name == result.pool)
            for (const model::Device &device : slice->devices)
                if (device.name == result.device)
                    return { slice, &device };
    return {};
}

std::string deviceRef(const model::DeviceRequestAllocationResult &r)
{
    return r.driver + "/" + r.pool + "/" + r.device;
}

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", fraction * 100);
    return text;
}

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

// The identity the claim's status gives a device (status.devices[].data[field]): nullopt when
// the driver lists no status for the device, empty when its status has no such field.
std::optional<std::string> reportedIdentity(const model::ResourceClaim &claim,
    const model::DeviceRequestAllocationResult &r, const std::string &field)
{
    if (!claim.devicesStatus.is_array())
        return std::nullopt;
    std::optional<std::string> reported;
    for (const nlohmann::json &d : claim.devicesStatus)
        if (d.is_object() && d.value("driver", "") == r.driver && d.value("pool", "") == r.pool
            && d.value("device", "") == r.device) {
            reported = reported.value_or("");
            const nlohmann::json data = d.value("data", nlohmann::json());
            if (data.is_object() && data.contains(field) && data[field].is_string())
                reported = data[field].get<std::string>();
        }
    return reported;
}

std::string joined(const std::set<std::string> &items)
{
    std::string text;
    for (const std::string &item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

// The GPU and MIG UUIDs nvidia-smi -L printed: "(UUID: GPU-...)" and "(UUID: MIG-...)".
std::set<std::string> listedUuids(const std::string &out)
{
    std::set<std::string> uuids;
    for (size_t at = out.find("(UUID: "); at != std::string::npos; at = out.find("(UUID: ", at)) {
        at += 7;
        const size_t end = out.find(')', at);
        if (end == std::string::npos)
            break;
        const std::string uuid = out.substr(at, end - at);
        if (uuid.starts_with("GPU-") || uuid.starts_with("MIG-"))
            uuids.insert(uuid);
    }
    return uuids;
}

// What the container sees, against what its claims hold: every allocated GPU (a MIG device's
// parent) and MIG device listed, and nothing else.
Check containerDevicesCheck(const PodEvidence &evidence, const NodeGateConfig &config,
    const model::Pod &pod, const std::string &podRef)
{
    std::string commandText;
    for (const std::string &word : config.command)
        commandText += (commandText.empty() ? "" : " ") + word;
    const std::string name = "container device identity";
    const ContainerCommand &ran = *evidence.command;
    if (!ran.error.empty())
        return inconclusive(
            name, "could not run " + commandText + " in " + podRef + ": " + ran.error);
    if (ran.exitCode != 0) {
        const std::string why = ran.err.substr(0, ran.err.find('\n'));
        return inconclusive(name,
            commandText + " exited with " + std::to_string(ran.exitCode) + " in " + podRef
                + (why.empty() ? std::string() : " (" + why + ")")
                + ": the image may not have it; devices not verified");
    }
    const std::set<std::string> listed = listedUuids(ran.out);
    if (listed.empty())
        return inconclusive(name, commandText + " printed no GPU or MIG UUID in " + podRef);
    std::set<std::string> expected;
    bool migUnknown = false;
    for (const auto &[entry, claimName] : claimNames(pod)) {
        const model::Object *object = claimName.empty()
            ? nullptr
            : findObject(evidence.claims, evidence.pod.meta.ns, claimName);
        const auto *claim = object ? object->as<model::ResourceClaim>() : nullptr;
        if (!claim || !claim->allocation)
            continue;
        for (const model::DeviceRequestAllocationResult &r : claim->allocation->results) {
            const SliceDevice found = findDevice(evidence.slices, r);
            if (!found.device)
                continue;
            if (const model::DeviceAttribute *parent
                = found.device->attribute("parentUUID", r.driver)) {
                expected.insert(parent->display());
                const std::string mig
                    = reportedIdentity(*claim, r, config.identityField).value_or("");
                if (mig.starts_with("MIG-"))
                    expected.insert(mig);
                else
                    migUnknown = true;
            } else if (const model::DeviceAttribute *id
                = found.device->attribute(config.identityAttribute, r.driver)) {
                if (const std::string uuid = id->display(); uuid.starts_with("GPU-"))
                    expected.insert(uuid);
            }
        }
    }
    if (expected.empty())
        return inconclusive(name,
            commandText + " lists " + joined(listed) + " but no allocated device of " + podRef
                + " has a GPU UUID to compare with");
    std::set<std::string> extra, missing;
    std::ranges::set_difference(listed, expected, std::inserter(extra, extra.end()));
    std::ranges::set_difference(expected, listed, std::inserter(missing, missing.end()));
    if (migUnknown) // the driver did not say which MIG device it made: any is its own
        std::erase_if(extra, [](const std::string &uuid) { return uuid.starts_with("MIG-"); });
    if (!extra.empty())
        return failed(name,
            "the container of " + podRef + " sees " + joined(extra)
                + ", not allocated to it: a neighbour's device");
    if (!missing.empty())
        return failed(name,
            "the container of " + podRef + " does not see " + joined(missing)
                + ", which its claims hold");
    return passed(
        name, commandText + " in " + podRef + " lists exactly its devices: " + joined(listed));
}

} // namespace

GateResult apiGate(const PodEvidence &evidence, int64_t now)
{
    std::vector<Check> checks;
    const auto *pod = evidence.pod.as<model::Pod>();
    const std::string &ns = evidence.pod.meta.ns;
    const std::string podRef = ns + "/" + evidence.pod.meta.name;
    if (!pod)
        return gateResult(GateKind::Api, { failed("pod", "the evidence holds no Pod") }, now);
    const auto names = claimNames(*pod);
    if (names.empty())
        checks.push_back(
            failed("claims", "Pod " + podRef + " has no resourceClaims: it is not using DRA"));

    int64_t failures = 0;
    std::string lastFailure;
    for (const model::Object &object : evidence.events) {
        const auto *event = object.as<model::Event>();
        if (!event || !isAllocationFailure(*event))
            continue;
        bool relevant = isAbout(*event, "Pod", ns, evidence.pod.meta.name);
        for (const auto &[entry, claim] : names)
            relevant = relevant || (!claim.empty() && isAbout(*event, "ResourceClaim", ns, claim));
        if (relevant) {
            failures += countOf(*event);
            lastFailure = eventLine(*event);
        }
    }

    bool allAllocated = !names.empty();
    for (const auto &[entry, claimName] : names) {
        const std::string label = "claim " + entry;
        const model::Object *object
            = claimName.empty() ? nullptr : findObject(evidence.claims, ns, claimName);
        if (!object) {
            checks.push_back(inconclusive(label + " created",
                claimName.empty() ? "no ResourceClaim generated for pod claim \"" + entry + "\" yet"
                                  : "ResourceClaim " + ns + "/" + claimName + " not found yet"));
            allAllocated = false;
            continue;
        }
        const std::string ref = "ResourceClaim " + ns + "/" + claimName;
        checks.push_back(passed(label + " created", ref + " exists"));
        const auto *claim = object->as<model::ResourceClaim>();
        if (!claim || !claim->allocation) {
            checks.push_back(inconclusive(label + " allocated", ref + " is not allocated yet"));
            allAllocated = false;
            continue;
        }
        std::string devices;
        for (const model::DeviceRequestAllocationResult &r : claim->allocation->results)
            devices += (devices.empty() ? "" : ", ") + deviceRef(r);
        checks.push_back(passed(label + " allocated",
            ref + " allocated " + (devices.empty() ? "no devices" : devices)));
        const bool forThisPod
            = std::any_of(claim->reservedFor.begin(), claim->reservedFor.end(), [&](const auto &c) {
                  return c.resource == "pods" && c.name == evidence.pod.meta.name
                      && (c.uid.empty() || evidence.pod.meta.uid.empty()
                          || c.uid == evidence.pod.meta.uid);
              });
        if (forThisPod) {
            checks.push_back(passed(label + " reserved", ref + " is reserved for Pod " + podRef));
        } else if (claim->reservedFor.empty()) {
            checks.push_back(
                inconclusive(label + " reserved", ref + " is not reserved for any pod yet"));
        } else {
            std::string others;
            for (const auto &c : claim->reservedFor)
                others += (others.empty() ? "" : ", ") + c.resource + "/" + c.name;
            checks.push_back(failed(
                label + " reserved", ref + " is reserved for " + others + ", not Pod " + podRef));
        }
    }

    if (failures == 0)
        checks.push_back(passed("no allocation failures",
            "no allocation-failure Events about " + podRef + " or its claims"));
    else if (failures == 1 && allAllocated)
        checks.push_back(passed("no allocation failures",
            "one transient failure before allocation succeeded: " + lastFailure));
    else
        checks.push_back(failed("no allocation failures",
            std::to_string(failures) + " allocation failure(s), last: " + lastFailure));
    return gateResult(GateKind::Api, std::move(checks), now);
}

// The driver's DaemonSet pod on `node`: every driver DaemonSet with a pod there must have it
// Ready, and at least one must have one (a node without its driver prepares no devices).
Check driverPodCheck(const DriverPods &driver, const std::string &node)
{
    constexpr const char *kName = "driver pod Ready";
    if (!driver.error.empty())
        return inconclusive(kName, "the DRA driver's pods could not be read: " + driver.error);
    std::vector<std::string> ready, unready;
    for (const std::string &daemonSet : driver.daemonSets) {
        const size_t slash = daemonSet.find('/');
        const std::string ns = daemonSet.substr(0, slash), name = daemonSet.substr(slash + 1);
        for (const model::Object &object : driver.pods) {
            const auto *pod = object.as<model::Pod>();
            const bool ours = std::any_of(object.meta.ownerReferences.begin(),
                object.meta.ownerReferences.end(), [&](const model::OwnerReference &owner) {
                    return owner.controller && owner.kind == "DaemonSet" && owner.name == name;
                });
            if (!pod || !ours || object.meta.ns != ns || pod->nodeName != node)
                continue;
            const std::string line = "Pod " + ns + "/" + object.meta.name + " of DaemonSet "
                + daemonSet + " on node " + node;
            if (pod->ready())
                ready.push_back(line + " is Ready");
            else
                unready.push_back(line + " is not Ready ("
                    + (pod->phase.empty() ? "no phase" : pod->phase) + ")");
        }
    }
    const auto join = [](const std::vector<std::string> &lines) {
        std::string text;
        for (const std::string &line : lines)
            text += (text.empty() ? "" : "; ") + line;
        return text;
    };
    if (!unready.empty())
        return failed(kName, join(unready));
    if (ready.empty()) {
        std::string names;
        for (const std::string &daemonSet : driver.daemonSets)
            names += (names.empty() ? "" : ", ") + daemonSet;
        return failed(
            kName, "no pod of the DRA driver's DaemonSet (" + names + ") runs on node " + node);
    }
    return passed(kName, join(ready));
}

GateResult nodeGate(const PodEvidence &evidence, const NodeGateConfig &config, int64_t now)
{
    std::vector<Check> checks;
    const auto *pod = evidence.pod.as<model::Pod>();
    const std::string &ns = evidence.pod.meta.ns;
    const std::string podRef = ns + "/" + evidence.pod.meta.name;
    if (!pod)
        return gateResult(GateKind::Node, { failed("pod", "the evidence holds no Pod") }, now);

    if (pod->nodeName.empty())
        checks.push_back(inconclusive("scheduled", "Pod " + podRef + " is not scheduled yet"));
    else
        checks.push_back(passed("scheduled", "Pod " + podRef + " is on node " + pod->nodeName));

    // Containers: from the raw status, which the typed model does not keep.
    const nlohmann::json *statuses = nullptr;
    if (evidence.pod.raw && evidence.pod.raw->contains("status")
        && (*evidence.pod.raw)["status"].is_object()) {
        const nlohmann::json &status = (*evidence.pod.raw)["status"];
        if (status.contains("containerStatuses") && status["containerStatuses"].is_array())
            statuses = &status["containerStatuses"];
    }
    if (!statuses || statuses->empty()) {
        checks.push_back(inconclusive("containers started", "no container status reported yet"));
    } else {
        std::vector<std::string> waiting, broken, running;
        for (const nlohmann::json &s : *statuses) {
            const std::string name = s.value("name", "?");
            const nlohmann::json state = s.value("state", nlohmann::json::object());
            if (state.contains("running") || s.value("started", false)) {
                running.push_back(name);
            } else if (state.contains("waiting")) {
                const std::string reason = state["waiting"].value("reason", "");
                const bool bad = reason != "ContainerCreating" && reason != "PodInitializing"
                    && !reason.empty();
                (bad ? broken : waiting)
                    .push_back(name + " (" + (reason.empty() ? "waiting" : reason) + ")");
            } else if (state.contains("terminated")) {
                broken.push_back(
                    name + " (terminated: " + state["terminated"].value("reason", "?") + ")");
            } else {
                waiting.push_back(name);
            }
        }
        const auto list = [](const std::vector<std::string> &items) {
            std::string text;
            for (const std::string &item : items)
                text += (text.empty() ? "" : ", ") + item;
            return text;
        };
        if (!broken.empty())
            checks.push_back(failed("containers started", "not starting: " + list(broken)));
        else if (!waiting.empty())
            checks.push_back(
                inconclusive("containers started", "still starting: " + list(waiting)));
        else
            checks.push_back(passed("containers started", "running: " + list(running)));
    }

    if (evidence.driver && !pod->nodeName.empty())
        checks.push_back(driverPodCheck(*evidence.driver, pod->nodeName));

    std::string prepareErrors;
    for (const model::Object &object : evidence.events)
        if (const auto *event = object.as<model::Event>();
            event && isPrepareFailure(*event) && isAbout(*event, "Pod", ns, evidence.pod.meta.name))
            prepareErrors = eventLine(*event);
    if (prepareErrors.empty())
        checks.push_back(passed(
            "no driver preparation errors", "no preparation-failure Events about Pod " + podRef));
    else
        checks.push_back(failed("no driver preparation errors", prepareErrors));

    for (const auto &[entry, claimName] : claimNames(*pod)) {
        const model::Object *object
            = claimName.empty() ? nullptr : findObject(evidence.claims, ns, claimName);
        const auto *claim = object ? object->as<model::ResourceClaim>() : nullptr;
        if (!claim || !claim->allocation) {
            checks.push_back(
                inconclusive("devices of claim " + entry, "the claim is not allocated yet"));
            continue;
        }
        for (const model::DeviceRequestAllocationResult &r : claim->allocation->results) {
            const std::string ref = deviceRef(r);
            const SliceDevice found = findDevice(evidence.slices, r);
            if (!found.device) {
                checks.push_back(inconclusive(
                    "device " + ref + " location", "no ResourceSlice publishes " + ref));
                checks.push_back(inconclusive(
                    "device " + ref + " identity", "no ResourceSlice publishes " + ref));
                continue;
            }
            const std::string &deviceNode
                = !found.device->nodeName.empty() ? found.device->nodeName : found.slice->nodeName;
            if (deviceNode.empty())
                checks.push_back(
                    passed("device " + ref + " location", "the device is not bound to one node"));
            else if (pod->nodeName.empty())
                checks.push_back(inconclusive("device " + ref + " location",
                    "the device is on " + deviceNode + "; the pod is not scheduled"));
            else if (deviceNode == pod->nodeName)
                checks.push_back(passed(
                    "device " + ref + " location", "the device and the pod are on " + deviceNode));
            else
                checks.push_back(failed("device " + ref + " location",
                    "the device is on " + deviceNode + " but the pod runs on " + pod->nodeName));

            const model::DeviceAttribute *attribute
                = found.device->attribute(config.identityAttribute, r.driver);
            const std::string expected = attribute ? attribute->display() : "";
            const std::optional<std::string> status
                = reportedIdentity(*claim, r, config.identityField);
            const bool statusListed = status.has_value();
            const std::string reported = status.value_or("");
            const std::string check = "device " + ref + " identity";
            if (reported.empty())
                checks.push_back(inconclusive(check,
                    statusListed ? "the driver reports no " + config.identityField
                            + " in the claim's status.devices[].data; identity not verified"
                                 : "the driver publishes no status for this device in the claim; "
                                   "identity not verified"));
            else if (expected.empty())
                checks.push_back(inconclusive(check,
                    "the driver reports " + reported + " but the ResourceSlice has no "
                        + config.identityAttribute + " attribute to compare with"));
            else if (reported == expected)
                checks.push_back(
                    passed(check, config.identityAttribute + " " + reported + " as published"));
            else
                checks.push_back(failed(check,
                    "the pod got " + reported + " but the ResourceSlice publishes " + expected
                        + " for " + ref));
        }
    }
    // Pods the collector did not look into (not running yet, or past the few it samples) have
    // no command evidence and no such check.
    if (!config.command.empty() && evidence.command)
        checks.push_back(containerDevicesCheck(evidence, config, *pod, podRef));
    return gateResult(GateKind::Node, std::move(checks), now);
}

GateResult applicationGate(
    const ApplicationEvidence &evidence, const ApplicationGateConfig &config, int64_t now)
{
    std::vector<Check> checks;
    if (evidence.pods.empty()) {
        checks.push_back(inconclusive("pods ready", "no canary pod yet"));
    } else {
        std::vector<std::string> notReady;
        bool anyFailed = false;
        for (const model::Object &object : evidence.pods) {
            const auto *pod = object.as<model::Pod>();
            if (pod && pod->ready())
                continue;
            notReady.push_back(object.meta.name + (pod ? " (" + pod->phase + ")" : ""));
            anyFailed = anyFailed || (pod && (pod->phase == "Failed" || pod->phase == "Succeeded"));
        }
        std::string names;
        for (const std::string &n : notReady)
            names += (names.empty() ? "" : ", ") + n;
        if (notReady.empty())
            checks.push_back(passed(
                "pods ready", std::to_string(evidence.pods.size()) + " canary pod(s) Ready"));
        else if (anyFailed)
            checks.push_back(failed("pods ready", "pods ended: " + names));
        else
            checks.push_back(inconclusive("pods ready", "not Ready yet: " + names));
    }

    if (!config.probePath.empty()) {
        const std::string target = ":" + std::to_string(config.probePort) + config.probePath;
        if (evidence.probes.empty()) {
            checks.push_back(inconclusive("probe " + target, "no probe results yet"));
        } else {
            const auto ok = std::count_if(evidence.probes.begin(), evidence.probes.end(),
                [](const ProbeResult &p) { return p.ok; });
            const double ratio = double(ok) / double(evidence.probes.size());
            std::string detail = std::to_string(ok) + "/" + std::to_string(evidence.probes.size())
                + " probes answered";
            for (const ProbeResult &p : evidence.probes)
                if (!p.ok) {
                    detail += "; first failure: "
                        + (p.status ? "HTTP " + std::to_string(p.status) : p.error);
                    break;
                }
            if (ratio + 1e-9 >= config.minProbeSuccess)
                checks.push_back(passed("probe " + target, detail));
            else
                checks.push_back(failed(
                    "probe " + target, detail + " (need " + percent(config.minProbeSuccess) + ")"));
        }
    }

    const bool errorChecks = config.maxErrorRate || config.maxErrorRateIncrease;
    if ((errorChecks || config.maxLatencyRatio) && evidence.canaryTakesTraffic) {
        if (!evidence.canary) {
            checks.push_back(inconclusive("metrics", "no canary metrics for the window yet"));
        } else {
            const TrafficMetrics &c = *evidence.canary;
            if (config.maxErrorRate) {
                const std::string text = "canary error rate " + percent(c.errorRate) + " (limit "
                    + percent(*config.maxErrorRate) + ")";
                checks.push_back(c.errorRate <= *config.maxErrorRate ? passed("error rate", text)
                                                                     : failed("error rate", text));
            }
            if ((config.maxErrorRateIncrease || config.maxLatencyRatio)
                && evidence.baselineTakesTraffic) {
                if (!evidence.baseline) {
                    checks.push_back(
                        inconclusive("against baseline", "no baseline metrics to compare with"));
                } else {
                    const TrafficMetrics &b = *evidence.baseline;
                    if (config.maxErrorRateIncrease) {
                        const double increase = c.errorRate - b.errorRate;
                        const std::string text = "canary " + percent(c.errorRate) + " vs baseline "
                            + percent(b.errorRate) + " (allowed increase "
                            + percent(*config.maxErrorRateIncrease) + ")";
                        checks.push_back(increase <= *config.maxErrorRateIncrease + 1e-12
                                ? passed("error rate vs baseline", text)
                                : failed("error rate vs baseline", text));
                    }
                    if (config.maxLatencyRatio) {
                        const std::string text = "p95 canary " + number(c.latencyP95Ms)
                            + " ms vs baseline " + number(b.latencyP95Ms) + " ms (limit x"
                            + number(*config.maxLatencyRatio) + ")";
                        if (b.latencyP95Ms <= 0)
                            checks.push_back(inconclusive(
                                "latency vs baseline", "the baseline reports no latency"));
                        else
                            checks.push_back(
                                c.latencyP95Ms <= b.latencyP95Ms * *config.maxLatencyRatio
                                    ? passed("latency vs baseline", text)
                                    : failed("latency vs baseline", text));
                    }
                }
            }
        }
    }
    return gateResult(GateKind::Application, std::move(checks), now);
}

GateResult negativeControlGate(const NegativeControlEvidence &evidence, int64_t now)
{
    std::vector<Check> checks;
    if (!evidence.claim)
        return gateResult(GateKind::NegativeControl,
            { inconclusive("claim created", "the negative-control claim does not exist yet") },
            now);
    const model::Object &object = *evidence.claim;
    const std::string ref = "ResourceClaim " + object.meta.ns + "/" + object.meta.name;
    const auto *claim = object.as<model::ResourceClaim>();
    checks.push_back(passed("claim created", ref + " exists"));
    if (claim && claim->allocation) {
        std::string devices;
        for (const auto &r : claim->allocation->results)
            devices += (devices.empty() ? "" : ", ") + deviceRef(r);
        checks.push_back(failed("stays pending",
            ref + " was allocated " + devices
                + " although no device can satisfy its selector: selectors are not enforced"));
        return gateResult(GateKind::NegativeControl, std::move(checks), now);
    }
    checks.push_back(passed("stays pending", ref + " is not allocated"));

    std::string explanation;
    for (const model::Object &e : evidence.events)
        if (const auto *event = e.as<model::Event>(); event && isAllocationFailure(*event))
            explanation = eventLine(*event);
    if (explanation.empty() && evidence.diagnosis) {
        if (evidence.diagnosis->simulation && !evidence.diagnosis->simulation->summary.empty())
            explanation = "simulation: " + evidence.diagnosis->simulation->summary;
        else if (!evidence.diagnosis->verdict.empty())
            explanation = "diagnosis: " + evidence.diagnosis->verdict;
        if (evidence.diagnosis->simulation && evidence.diagnosis->simulation->allocated)
            return gateResult(GateKind::NegativeControl,
                { checks[0], checks[1],
                    failed("explained",
                        "the allocation simulation would allocate it: the selector is not "
                        "impossible") },
                now);
    }
    if (explanation.empty())
        checks.push_back(
            inconclusive("explained", "Pending with no Event or diagnosis explaining why yet"));
    else
        checks.push_back(passed("explained", explanation));
    return gateResult(GateKind::NegativeControl, std::move(checks), now);
}

GateResult baselineGate(const BaselineEvidence &evidence, int64_t now)
{
    std::vector<Check> checks;
    if (evidence.servedResourceVersions.empty()) {
        checks.push_back(failed("DRA API served", "the cluster serves no resource.k8s.io version"));
    } else {
        std::string versions;
        for (const std::string &v : evidence.servedResourceVersions)
            versions += (versions.empty() ? "" : ", ") + v;
        checks.push_back(passed("DRA API served", "resource.k8s.io " + versions));
    }
    const WorkloadStatus &b = evidence.baseline;
    if (!b.exists)
        checks.push_back(failed("baseline Ready", "the baseline Deployment does not exist"));
    else if (b.replicas == 0)
        checks.push_back(
            failed("baseline Ready", "the baseline Deployment has 0 replicas: nothing to move"));
    else if (b.readyReplicas < b.replicas)
        checks.push_back(failed("baseline Ready",
            std::to_string(b.readyReplicas) + "/" + std::to_string(b.replicas)
                + " replicas Ready: start from a healthy baseline"));
    else
        checks.push_back(passed("baseline Ready",
            std::to_string(b.readyReplicas) + "/" + std::to_string(b.replicas)
                + " replicas Ready"));

    // A node with device-plugin GPUs and a GPU driver's ResourceSlice: two managers, one GPU.
    std::vector<std::string> mixed;
    for (const model::Object &object : evidence.nodes) {
        const auto *node = object.as<model::Node>();
        if (!node || node->devicePluginGpus() == 0)
            continue;
        for (const model::Object &s : evidence.slices) {
            const auto *slice = s.as<model::ResourceSlice>();
            if (slice && slice->nodeName == object.meta.name && containsNoCase(slice->driver, "gpu")
                && !slice->devices.empty()) {
                mixed.push_back(object.meta.name + " (" + std::to_string(node->devicePluginGpus())
                    + " nvidia.com/gpu and " + slice->driver + ")");
                break;
            }
        }
    }
    if (mixed.empty()) {
        checks.push_back(
            passed("device plugin and DRA apart", "no node advertises GPUs through both"));
    } else {
        std::string list;
        for (const std::string &m : mixed)
            list += (list.empty() ? "" : ", ") + m;
        checks.push_back(failed("device plugin and DRA apart", "both manage GPUs on " + list));
    }
    GateResult result = gateResult(GateKind::Baseline, std::move(checks), now);
    result.facts = baselineFacts(evidence);
    return result;
}

GateResult rollbackGate(const RollbackEvidence &evidence, int64_t now)
{
    std::vector<Check> checks;
    const WorkloadStatus &b = evidence.baseline;
    const std::string want = std::to_string(evidence.expectedReplicas);
    if (!b.exists)
        checks.push_back(failed("baseline restored", "the baseline Deployment is gone"));
    else if (b.replicas != evidence.expectedReplicas)
        checks.push_back(inconclusive(
            "baseline restored", std::to_string(b.replicas) + " replicas, expected " + want));
    else if (b.readyReplicas < b.replicas)
        checks.push_back(inconclusive(
            "baseline restored", std::to_string(b.readyReplicas) + "/" + want + " Ready"));
    else
        checks.push_back(passed("baseline restored", want + "/" + want + " replicas Ready"));
    if (evidence.routeBaselineWeight) {
        if (*evidence.routeBaselineWeight == 100)
            checks.push_back(passed("traffic on baseline", "the route sends 100% to the baseline"));
        else
            checks.push_back(inconclusive("traffic on baseline",
                "the route still sends " + std::to_string(100 - *evidence.routeBaselineWeight)
                    + "% to the canary"));
    }
    if (evidence.canary.exists || evidence.canaryPods > 0)
        checks.push_back(inconclusive(
            "canary removed", std::to_string(evidence.canaryPods) + " canary pod(s) left"));
    else
        checks.push_back(passed("canary removed", "no canary Deployment or pods"));
    if (evidence.remainingClaims.empty()) {
        checks.push_back(passed("claims released", "no claim of the variant is left"));
    } else {
        std::string list;
        for (const std::string &c : evidence.remainingClaims)
            list += (list.empty() ? "" : ", ") + c;
        checks.push_back(inconclusive("claims released", "still present: " + list));
    }
    return gateResult(GateKind::Rollback, std::move(checks), now);
}

} // namespace dra::rollout
