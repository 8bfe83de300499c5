// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Codes: PoolIncomplete, PoolSliceCountMismatch, PoolDuplicateDevice, PoolDuplicateCounterSet,
// PoolStaleSlices, CounterSetMissing, MigAlsoWhole, ClaimAllocatedNotReserved,
// ClaimReservedForMissingPod, ClaimDeviceMissing, DriverVersionMismatch, SliceNodeMissing,
// ClassMatchesNoDevice, ClassSelectorError, ObjectUnreadable, UnhealthyDeviceAllocated,
// ClassBlockedByTaints, ClaimBindingConditionsPending.
#include "core/inventory/lint.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/inventory/age.h"
#include "core/inventory/claim_specs.h"
#include "core/inventory/device_health.h"
#include "core/inventory/summaries.h"
#include "core/model/device_taints.h"

namespace dra::inventory {

namespace {

// How long kube-scheduler waits for a device's binding conditions (its DynamicResources
// plugin's default BindingTimeout).
constexpr int64_t kBindingTimeoutSeconds = 600;

// Whether `statuses` (a claim's status.devices) give `device` condition `type` as True.
bool conditionTrue(const std::vector<ClaimDeviceStatus> &statuses, const DeviceKey &device,
    const std::string &type)
{
    for (const ClaimDeviceStatus &status : statuses)
        if (status.device == device)
            for (const nlohmann::json &condition : status.conditions)
                if (condition.value("type", "") == type)
                    return condition.value("status", "") == "True";
    return false;
}

common::ObjectKey sliceKey(const std::string &name)
{
    return { std::string(model::kResourceGroup), "ResourceSlice", {}, name };
}

common::ObjectKey nodeKey(const std::string &name)
{
    return { {}, "Node", {}, name };
}

common::ObjectKey classKey(const std::string &name)
{
    return { std::string(model::kResourceGroup), "DeviceClass", {}, name };
}

std::string joined(const std::vector<std::string> &items, std::string_view separator = ", ")
{
    std::string text;
    for (const std::string &item : items) {
        if (!text.empty())
            text += separator;
        text += item;
    }
    return text;
}

std::string poolName(const Pool &pool)
{
    return pool.driver + "/" + pool.name;
}

std::vector<common::ObjectKey> sliceKeys(const std::vector<std::string> &names)
{
    std::vector<common::ObjectKey> keys;
    for (const std::string &name : names)
        keys.push_back(sliceKey(name));
    return keys;
}

class Linter
{
public:
    explicit Linter(const Snapshot &snapshot)
        : m_snapshot(snapshot)
    {
    }

    std::vector<Finding> run()
    {
        pools();
        counterSets();
        migAlsoWhole();
        claims();
        unhealthyDevices();
        driverVersions();
        sliceNodes();
        classes();
        taintedClasses();
        bindingConditions();
        unreadable();
        std::ranges::stable_sort(m_findings, [](const Finding &a, const Finding &b) {
            if (a.severity != b.severity)
                return a.severity > b.severity;
            if (a.code != b.code)
                return a.code < b.code;
            return a.objects < b.objects;
        });
        return std::move(m_findings);
    }

private:
    void add(Severity severity, std::string code, std::string message,
        std::vector<common::ObjectKey> objects)
    {
        m_findings.push_back({ severity, std::move(code), std::move(message), std::move(objects) });
    }

    void pools()
    {
        for (const Pool &pool : m_snapshot.pools()) {
            const auto keys = sliceKeys(pool.slices);
            if (!pool.declaredCounts.empty()) {
                std::vector<std::string> counts;
                for (int64_t count : pool.declaredCounts)
                    counts.push_back(std::to_string(count));
                add(Severity::Error, "PoolSliceCountMismatch",
                    "pool " + poolName(pool) + " is inconsistent: its slices at generation "
                        + std::to_string(pool.generation)
                        + " declare different resourceSliceCount values (" + joined(counts) + ")",
                    keys);
            } else if (int64_t(pool.slices.size()) != pool.resourceSliceCount) {
                add(Severity::Warning, "PoolIncomplete",
                    "pool " + poolName(pool)
                        + " is incomplete: " + std::to_string(pool.slices.size()) + " of "
                        + std::to_string(pool.resourceSliceCount) + " ResourceSlices at generation "
                        + std::to_string(pool.generation)
                        + " are published; Kubernetes does not allocate all of its devices until "
                          "the rest arrive",
                    keys);
            }
            if (!pool.duplicateDevices.empty())
                add(Severity::Error, "PoolDuplicateDevice",
                    "pool " + poolName(pool) + " publishes device names more than once ("
                        + joined(pool.duplicateDevices) + "); Kubernetes allocates nothing from it",
                    keys);
            if (!pool.duplicateCounterSets.empty())
                add(Severity::Error, "PoolDuplicateCounterSet",
                    "pool " + poolName(pool) + " defines counter sets more than once ("
                        + joined(pool.duplicateCounterSets)
                        + "); Kubernetes allocates nothing from it",
                    keys);
            if (!pool.staleSlices.empty())
                add(Severity::Info, "PoolStaleSlices",
                    "pool " + poolName(pool) + " still has "
                        + std::to_string(pool.staleSlices.size())
                        + " ResourceSlice(s) of an older generation, which are ignored",
                    sliceKeys(pool.staleSlices));
        }
    }

    // A device that consumes from a counter set (or a counter) its pool does not publish can
    // never be allocated.
    void counterSets()
    {
        for (const Pool &pool : m_snapshot.pools()) {
            std::map<std::string, std::vector<std::string>>
                missing; // "set" or "set/counter" -> devices
            std::set<std::string> slices;
            for (const Device *device : m_snapshot.devicesInPool(pool.driver, pool.name)) {
                for (const model::DeviceCounterConsumption &consumption :
                    device->consumesCounters) {
                    const auto set = std::ranges::find(
                        pool.sharedCounters, consumption.counterSet, &model::CounterSet::name);
                    std::vector<std::string> absent;
                    if (set == pool.sharedCounters.end())
                        absent.push_back(consumption.counterSet);
                    else
                        for (const auto &[name, amount] : consumption.counters)
                            if (std::ranges::find(set->counters, name,
                                    &std::pair<std::string, model::Quantity>::first)
                                == set->counters.end())
                                absent.push_back(consumption.counterSet + "/" + name);
                    for (const std::string &what : absent) {
                        missing[what].push_back(device->key.device);
                        slices.insert(device->slice);
                    }
                }
            }
            for (const auto &[what, devices] : missing)
                add(Severity::Error, "CounterSetMissing",
                    "pool " + poolName(pool) + " has no counter " + what + " that "
                        + std::to_string(devices.size()) + " device(s) consume (" + joined(devices)
                        + "); they can never be allocated",
                    sliceKeys({ slices.begin(), slices.end() }));
        }
    }

    // Static MIG: a GPU in MIG mode cannot be handed out whole. A driver that still publishes
    // it lets a claim get the GPU while others hold its MIG devices, unless a shared counter
    // set ties them together (partitionable devices).
    void migAlsoWhole()
    {
        for (const Pool &pool : m_snapshot.pools()) {
            std::map<std::string, const Device *> wholeByUuid;
            const auto devices = m_snapshot.devicesInPool(pool.driver, pool.name);
            for (const Device *device : devices)
                if (!device->isPartition())
                    if (const std::string uuid = device->attributeText("uuid"); !uuid.empty())
                        wholeByUuid.emplace(uuid, device);
            std::map<const Device *, std::vector<const Device *>> untied;
            for (const Device *device : devices) {
                if (!device->isPartition())
                    continue;
                const auto parent = wholeByUuid.find(device->attributeText("parentUUID"));
                if (parent == wholeByUuid.end())
                    continue;
                const bool tied
                    = std::ranges::any_of(device->consumesCounters, [&](const auto &mine) {
                          return std::ranges::any_of(
                              parent->second->consumesCounters, [&](const auto &theirs) {
                                  return theirs.counterSet == mine.counterSet;
                              });
                      });
                if (!tied)
                    untied[parent->second].push_back(device);
            }
            for (const auto &[gpu, migs] : untied) {
                std::vector<std::string> names;
                std::set<std::string> slices { gpu->slice };
                for (const Device *mig : migs) {
                    names.push_back(mig->key.device);
                    slices.insert(mig->slice);
                }
                std::vector<common::ObjectKey> keys = sliceKeys({ slices.begin(), slices.end() });
                if (!gpu->node.empty())
                    keys.push_back(nodeKey(gpu->node));
                add(Severity::Warning, "MigAlsoWhole",
                    "GPU " + gpu->key.display() + " is advertised whole beside "
                        + std::to_string(migs.size()) + " MIG device(s) of it (" + joined(names)
                        + ") with no shared counter set between them, so both can be allocated at "
                          "once",
                    std::move(keys));
            }
        }
    }

    // A device the kubelet reports Unhealthy that a claim still holds: the workload runs on a
    // failing device until the claim lets it go.
    void unhealthyDevices()
    {
        std::set<std::pair<DeviceKey, common::ObjectKey>> seen;
        for (const DeviceHealthReport &report : deviceHealthReports(m_snapshot)) {
            if (report.health != "Unhealthy" || !seen.insert({ report.device, report.pod }).second)
                continue;
            const auto holds = m_snapshot.holds(report.device);
            if (holds.empty())
                continue;
            std::vector<common::ObjectKey> objects { report.pod };
            std::string holders;
            for (const DeviceHold &hold : holds) {
                objects.push_back(hold.claim);
                holders += (holders.empty() ? "" : ", ") + hold.claim.ns + "/" + hold.claim.name;
            }
            add(Severity::Warning, "UnhealthyDeviceAllocated",
                "device " + report.device.display() + " is reported Unhealthy by pod "
                    + report.pod.ns + "/" + report.pod.name + " (container " + report.container
                    + ") and is still allocated to claim " + holders,
                std::move(objects));
        }
    }

    // A class whose every device is tainted NoSchedule or NoExecute: only requests whose
    // tolerations cover every such taint of some device get one. A request of it that tolerates
    // no device's taints can never be allocated.
    void taintedClasses()
    {
        // Per class whose every device is tainted: each device's blocking taints.
        std::map<std::string, std::vector<std::vector<model::DeviceTaint>>, std::less<>> blocked;
        std::map<std::string, std::set<std::string>, std::less<>> taintTexts;
        for (const auto &object : m_snapshot.objects(model::Kind::DeviceClass)) {
            const std::string &name = object->meta.name;
            const auto match = m_snapshot.classMatch(name);
            if (match->devices.empty())
                continue;
            std::vector<std::vector<model::DeviceTaint>> devices;
            for (const Device *device : match->devices) {
                std::vector<model::DeviceTaint> taints;
                for (const model::DeviceTaint &taint : m_snapshot.effectiveTaints(*device))
                    if (model::taintBlocksAllocation(taint)) {
                        taints.push_back(taint);
                        taintTexts[name].insert(taint.key
                            + (taint.value.empty() ? "" : "=" + taint.value) + ":" + taint.effect);
                    }
                if (taints.empty())
                    break;
                devices.push_back(std::move(taints));
            }
            if (devices.size() == match->devices.size())
                blocked[name] = std::move(devices);
        }
        if (blocked.empty())
            return;
        std::map<std::string, std::vector<common::ObjectKey>, std::less<>> untolerating;
        forEachClaimSpec(
            m_snapshot, [&](const model::Object &object, const model::ResourceClaimSpec &spec) {
                forEachRequestSpec(
                    spec, [&](const model::DeviceRequest &, const model::DeviceRequestSpec &one) {
                        const auto devices = blocked.find(one.deviceClassName);
                        if (devices == blocked.end())
                            return;
                        const std::vector<model::Toleration> tolerations
                            = model::parseTolerations(one.tolerations);
                        const bool someDevice = std::ranges::any_of(
                            devices->second, [&](const std::vector<model::DeviceTaint> &taints) {
                                return !model::untoleratedTaint(taints, tolerations);
                            });
                        if (!someDevice)
                            untolerating[one.deviceClassName].push_back(object.key());
                    });
            });
        for (const auto &[name, devices] : blocked) {
            const std::set<std::string> &taints = taintTexts[name];
            const std::string what = "every one of the " + std::to_string(devices.size())
                + " device(s) of DeviceClass " + name + " is tainted ("
                + joined(std::vector<std::string>(taints.begin(), taints.end())) + ")";
            const auto asked = untolerating.find(name);
            if (asked == untolerating.end()) {
                add(Severity::Info, "ClassBlockedByTaints",
                    what + ": only claims that tolerate the taints get one", { classKey(name) });
                continue;
            }
            std::vector<common::ObjectKey> objects { classKey(name) };
            objects.insert(objects.end(), asked->second.begin(), asked->second.end());
            add(Severity::Warning, "ClassBlockedByTaints",
                what + ", yet " + std::to_string(asked->second.size())
                    + " claim(s) or template(s) request it without tolerations that cover any "
                      "device's taints: they cannot be allocated",
                std::move(objects));
        }
    }

    // A claim allocated devices with binding conditions that are not all True: the scheduler
    // waits for them (the device is being attached) and gives up after its binding timeout.
    void bindingConditions()
    {
        const int64_t now = nowSeconds();
        for (const auto &object : m_snapshot.objects(model::Kind::ResourceClaim)) {
            const model::ResourceClaim *claim = object->as<model::ResourceClaim>();
            if (!claim || !claim->allocation)
                continue;
            const int64_t allocatedAt = parseTimestamp(claim->allocation->allocationTimestamp);
            if (allocatedAt < 0 || now - allocatedAt <= kBindingTimeoutSeconds)
                continue;
            const std::vector<ClaimDeviceStatus> statuses = claimDeviceStatuses(*object);
            for (const model::DeviceRequestAllocationResult &r : claim->allocation->results) {
                const Device *device = m_snapshot.device({ r.driver, r.pool, r.device });
                if (!device || device->bindingConditions.empty())
                    continue;
                std::vector<std::string> waiting;
                for (const std::string &condition : device->bindingConditions)
                    if (!conditionTrue(statuses, device->key, condition))
                        waiting.push_back(condition);
                if (waiting.empty())
                    continue;
                add(Severity::Warning, "ClaimBindingConditionsPending",
                    "claim " + object->meta.ns + "/" + object->meta.name + " was allocated "
                        + DeviceKey { r.driver, r.pool, r.device }.display() + " "
                        + std::to_string((now - allocatedAt) / 60) + " min ago and still waits "
                        + "for its binding condition(s) " + joined(waiting)
                        + ", past the scheduler's " + std::to_string(kBindingTimeoutSeconds / 60)
                        + "-minute binding timeout",
                    { object->key(), sliceKey(device->slice) });
            }
        }
    }

    void claims()
    {
        const bool podsMirrored = !m_snapshot.objects(model::Kind::Pod).empty();
        for (const auto &object : m_snapshot.objects(model::Kind::ResourceClaim)) {
            const model::ResourceClaim *claim = object->as<model::ResourceClaim>();
            if (!claim || !claim->allocation)
                continue;
            const common::ObjectKey key = object->key();
            const std::string name = object->meta.ns + "/" + object->meta.name;
            std::vector<std::string> gone;
            for (const model::DeviceRequestAllocationResult &result : claim->allocation->results)
                if (!m_snapshot.device({ result.driver, result.pool, result.device }))
                    gone.push_back(result.driver + "/" + result.pool + "/" + result.device);
            if (!gone.empty())
                add(Severity::Warning, "ClaimDeviceMissing",
                    "ResourceClaim " + name
                        + " is allocated device(s) no ResourceSlice publishes any more ("
                        + joined(gone) + ")",
                    { key });
            if (claim->reservedFor.empty()) {
                if (object->meta.deletionTimestamp.empty())
                    add(Severity::Warning, "ClaimAllocatedNotReserved",
                        "ResourceClaim " + name + " holds "
                            + std::to_string(claim->allocation->results.size())
                            + " device(s) but is reserved for no pod: the devices are leaked until "
                              "it is "
                              "deallocated or deleted",
                        { key });
                continue;
            }
            if (!podsMirrored)
                continue;
            for (const model::ResourceClaimConsumerReference &ref : claim->reservedFor) {
                if (ref.resource != "pods" || !ref.apiGroup.empty())
                    continue;
                const model::Object *pod
                    = m_snapshot.object(model::Kind::Pod, object->meta.ns, ref.name);
                if (pod && (ref.uid.empty() || pod->meta.uid == ref.uid))
                    continue;
                std::vector<common::ObjectKey> keys { key };
                keys.push_back({ {}, "Pod", object->meta.ns, ref.name });
                add(Severity::Warning, "ClaimReservedForMissingPod",
                    "ResourceClaim " + name + " is reserved for pod " + ref.name
                        + (pod ? ", which was replaced by another pod of that name"
                               : ", which no longer exists"),
                    std::move(keys));
            }
        }
    }

    // One kernel driver serves every GPU of a node, so differing driver versions among devices
    // of one driver on one node mean stale slices or a half-finished upgrade.
    void driverVersions()
    {
        for (const std::string &node : m_snapshot.deviceNodes()) {
            // (driver, attribute) -> value -> devices
            std::map<std::pair<std::string, std::string>,
                std::map<std::string, std::vector<const Device *>>>
                values;
            for (const Device *device : m_snapshot.devicesOnNode(node))
                for (const auto &domain : device->view.attributeDomains())
                    for (const auto &entry : domain.entries) {
                        std::string lower = entry.name;
                        std::ranges::transform(lower, lower.begin(),
                            [](unsigned char c) { return char(std::tolower(c)); });
                        if (lower.ends_with("driverversion"))
                            values[{ device->key.driver, domain.name + "/" + entry.name }]
                                  [entry.value.stringValue + std::to_string(entry.value.intValue)]
                                      .push_back(device);
                    }
            for (const auto &[id, byValue] : values) {
                if (byValue.size() < 2)
                    continue;
                std::vector<std::string> parts;
                std::set<std::string> slices;
                for (const auto &[value, devices] : byValue) {
                    parts.push_back(devices.front()->attributeText(id.second) + " on "
                        + std::to_string(devices.size()) + " device(s)");
                    for (const Device *device : devices)
                        slices.insert(device->slice);
                }
                std::vector<common::ObjectKey> keys { nodeKey(node) };
                for (const std::string &slice : slices)
                    keys.push_back(sliceKey(slice));
                add(Severity::Warning, "DriverVersionMismatch",
                    "node " + node + " has devices of " + id.first + " with different " + id.second
                        + " (" + joined(parts) + ")",
                    std::move(keys));
            }
        }
    }

    void sliceNodes()
    {
        if (m_snapshot.objects(model::Kind::Node).empty())
            return; // the cache does not mirror nodes
        std::map<std::string, std::vector<std::string>> missing;
        for (const SliceInfo &slice : m_snapshot.slices())
            if (!slice.node.empty() && !m_snapshot.object(model::Kind::Node, {}, slice.node))
                missing[slice.node].push_back(slice.name);
        for (const auto &[node, slices] : missing)
            add(Severity::Warning, "SliceNodeMissing",
                "node " + node + " does not exist, yet " + std::to_string(slices.size())
                    + " ResourceSlice(s) publish devices on it (" + joined(slices) + ")",
                sliceKeys(slices));
    }

    void classes()
    {
        const std::map<std::string, int, std::less<>> requests = classRequestCounts(m_snapshot);
        for (const auto &object : m_snapshot.objects(model::Kind::DeviceClass)) {
            const std::string &name = object->meta.name;
            const auto match = m_snapshot.classMatch(name);
            if (!match->errors.empty()) {
                add(Severity::Error, "ClassSelectorError",
                    "DeviceClass " + name + " has a selector that fails: " + match->errors.front(),
                    { classKey(name) });
                continue;
            }
            if (!match->devices.empty())
                continue;
            const auto asked = requests.find(name);
            if (asked != requests.end())
                add(Severity::Warning, "ClassMatchesNoDevice",
                    "DeviceClass " + name + " matches no device, yet "
                        + std::to_string(asked->second) + " claim(s) or template(s) request it",
                    { classKey(name) });
            else
                add(Severity::Info, "ClassMatchesNoDevice",
                    "DeviceClass " + name + " matches no device", { classKey(name) });
        }
    }

    void unreadable()
    {
        for (const Snapshot::Problem &problem : m_snapshot.problems())
            add(Severity::Warning, "ObjectUnreadable", "the inventory skips " + problem.message,
                { problem.object });
    }

    const Snapshot &m_snapshot;
    std::vector<Finding> m_findings;
};

} // namespace

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "";
}

std::vector<Finding> lint(const Snapshot &snapshot)
{
    return Linter(snapshot).run();
}

nlohmann::json toJson(const Finding &finding)
{
    nlohmann::json objects = nlohmann::json::array();
    for (const common::ObjectKey &key : finding.objects) {
        nlohmann::json object = { { "kind", key.kind }, { "name", key.name } };
        if (!key.group.empty())
            object["group"] = key.group;
        if (!key.ns.empty())
            object["namespace"] = key.ns;
        objects.push_back(std::move(object));
    }
    return { { "severity", severityName(finding.severity) }, { "code", finding.code },
        { "message", finding.message }, { "objects", std::move(objects) } };
}

} // namespace dra::inventory
