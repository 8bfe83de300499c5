// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/snapshot.h"

#include <algorithm>

#include "core/common/json_text.h"
#include "core/inventory/cluster_release.h"
#include "core/inventory/device_health.h"
#include "core/inventory/snapshot_parts.h"
#include "core/inventory/taint_rules.h"
#include "core/model/device_taints.h"

namespace dra::inventory {

using namespace detail;

namespace {

// Evaluation errors are reported for the first few devices only: the same mistake repeats on
// every device of a driver.
constexpr size_t kMaxMatchErrors = 5;

template <typename Map>
std::span<const Device *const> listOf(const Map &map, const typename Map::key_type &key)
{
    const auto it = map.find(key);
    return it == map.end() ? std::span<const Device *const>()
                           : std::span<const Device *const>(it->second);
}

} // namespace

bool Pool::complete() const
{
    return declaredCounts.empty() && int64_t(slices.size()) == resourceSliceCount;
}

const CounterUsage *CounterSetUsage::counter(std::string_view name) const
{
    const auto it = std::ranges::find(counters, name, &CounterUsage::name);
    return it == counters.end() ? nullptr : &*it;
}

std::string_view deviceStateName(DeviceState state)
{
    switch (state) {
    case DeviceState::Free:
        return "free";
    case DeviceState::Allocated:
        return "allocated";
    case DeviceState::Blocked:
        return "blocked";
    case DeviceState::Tainted:
        return "tainted";
    }
    return "";
}

Snapshot::Snapshot() = default;
Snapshot::~Snapshot() = default;

SnapshotStats Snapshot::stats() const
{
    SnapshotStats stats;
    stats.slices = m_devices->slices.size();
    stats.devices = m_devices->devices.size();
    stats.pools = m_devices->pools.size();
    for (const auto &table : m_objects->kinds)
        stats.objects += table->objects.size();
    stats.objects += stats.slices;
    return stats;
}

const std::vector<const Device *> &Snapshot::devices() const
{
    return m_devices->devices;
}

const cel::DeviceTable &Snapshot::deviceTable() const
{
    const detail::DeviceLayer &layer = *m_devices;
    std::call_once(layer.tableOnce, [&layer] {
        std::vector<const cel::DeviceView *> views;
        views.reserve(layer.devices.size());
        for (const Device *device : layer.devices)
            views.push_back(&device->view);
        layer.table = std::make_unique<const cel::DeviceTable>(views);
    });
    return *layer.table;
}

const Device *Snapshot::device(const DeviceKey &key) const
{
    const auto it = m_devices->byKey.find(viewOf(key));
    return it == m_devices->byKey.end() ? nullptr : it->second;
}

std::span<const Device *const> Snapshot::devicesOnNode(std::string_view node) const
{
    const auto it = m_devices->byNode.find(node);
    return it == m_devices->byNode.end() ? std::span<const Device *const>()
                                         : std::span<const Device *const>(it->second);
}

std::span<const Device *const> Snapshot::devicesOfDriver(std::string_view driver) const
{
    const auto it = m_devices->byDriver.find(driver);
    return it == m_devices->byDriver.end() ? std::span<const Device *const>()
                                           : std::span<const Device *const>(it->second);
}

std::span<const Device *const> Snapshot::devicesInPool(
    std::string_view driver, std::string_view pool) const
{
    return listOf(m_devices->byPool, PoolId { std::string(driver), std::string(pool) });
}

std::vector<std::string> Snapshot::deviceNodes() const
{
    std::vector<std::string> nodes;
    for (const auto &[node, list] : m_devices->byNode)
        if (!node.empty())
            nodes.push_back(node);
    return nodes;
}

const std::vector<Pool> &Snapshot::pools() const
{
    return m_devices->pools;
}

const Pool *Snapshot::pool(std::string_view driver, std::string_view name) const
{
    const auto &pools = m_devices->pools;
    const auto it = std::lower_bound(
        pools.begin(), pools.end(), std::pair(driver, name), [](const Pool &p, const auto &id) {
            return std::tie(p.driver, p.name) < std::tie(id.first, id.second);
        });
    return it != pools.end() && it->driver == driver && it->name == name ? &*it : nullptr;
}

std::span<const SliceInfo> Snapshot::slices() const
{
    return m_devices->sliceInfos;
}

const SliceInfo *Snapshot::slice(std::string_view name) const
{
    const auto &infos = m_devices->sliceInfos;
    const auto it = std::lower_bound(infos.begin(), infos.end(), name,
        [](const SliceInfo &info, std::string_view n) { return info.name < n; });
    return it != infos.end() && it->name == name ? &*it : nullptr;
}

Result<model::Object> Snapshot::sliceObject(std::string_view name) const
{
    const auto it = m_devices->slices.find(name);
    if (it == m_devices->slices.end())
        return fail(common::Error::Code::NotFound,
            QStringLiteral("ResourceSlice %1 is not in the inventory").arg(common::qs(name)));
    Result<nlohmann::json> json = common::parseJson(
        it->second->json, QStringLiteral("ResourceSlice %1").arg(common::qs(name)));
    if (!json)
        return fail(json.error());
    return model::decodeObject(std::move(*json));
}

std::span<const DeviceHold> Snapshot::holds(const DeviceKey &key) const
{
    const auto it = m_holds->holds.find(key);
    return it == m_holds->holds.end() ? std::span<const DeviceHold>()
                                      : std::span<const DeviceHold>(it->second);
}

std::span<const CounterSetUsage> Snapshot::counterUsage(
    std::string_view driver, std::string_view pool) const
{
    const auto it = m_holds->counters.find(PoolId { std::string(driver), std::string(pool) });
    return it == m_holds->counters.end() ? std::span<const CounterSetUsage>()
                                         : std::span<const CounterSetUsage>(it->second);
}

DeviceState Snapshot::state(const Device &device) const
{
    const std::span<const DeviceHold> held = holds(device.key);
    const bool allocated
        = std::ranges::any_of(held, [](const DeviceHold &hold) { return !hold.adminAccess; });
    if (allocated && !device.view.allowMultipleAllocations)
        return DeviceState::Allocated;
    if (!allocated && !device.consumesCounters.empty()) {
        const std::span<const CounterSetUsage> sets
            = counterUsage(device.key.driver, device.key.pool);
        for (const model::DeviceCounterConsumption &consumption : device.consumesCounters) {
            const auto set
                = std::ranges::find(sets, consumption.counterSet, &CounterSetUsage::name);
            if (set == sets.end())
                return DeviceState::Blocked; // consumes from a set the pool does not publish
            for (const auto &[name, amount] : consumption.counters) {
                const CounterUsage *counter = set->counter(name);
                if (!counter)
                    return DeviceState::Blocked;
                const Result<model::Quantity> needed = counter->consumed.add(amount);
                if (!needed || needed->compare(counter->total) > 0)
                    return DeviceState::Blocked;
            }
        }
    }
    const std::vector<model::DeviceTaint> taints = effectiveTaints(device);
    if (std::ranges::any_of(taints, model::taintBlocksAllocation))
        return DeviceState::Tainted;
    return DeviceState::Free;
}

std::vector<model::DeviceTaint> Snapshot::effectiveTaints(const Device &device) const
{
    std::vector<model::DeviceTaint> taints = device.taints;
    for (const auto &rule : m_objects->kinds[size_t(model::Kind::DeviceTaintRule)]->objects)
        if (const auto *body = rule->as<model::DeviceTaintRule>();
            body && taintRuleSelects(*this, *body, device))
            taints.push_back(body->taint);
    return taints;
}

std::shared_ptr<const ClassMatch> Snapshot::classMatch(std::string_view className) const
{
    {
        std::lock_guard lock(m_classMutex);
        if (const auto it = m_classMatches.find(className); it != m_classMatches.end())
            return it->second;
    }
    // Evaluated outside the lock: two threads asking at once both compute the same answer.
    auto match = std::make_shared<ClassMatch>();
    const model::Object *object = this->object(model::Kind::DeviceClass, {}, className);
    const model::DeviceClass *deviceClass = object ? object->as<model::DeviceClass>() : nullptr;
    if (deviceClass) {
        match->classExists = true;
        std::vector<cel::CompiledSelector> selectors;
        for (const model::DeviceSelector &selector : deviceClass->selectors) {
            std::vector<cel::Diagnostic> diagnostics;
            // As the cluster's scheduler compiles a class it holds: its release, stored rules.
            Result<cel::CompiledSelector> compiled = cel::compileSelector(
                selector.celExpression, storedSelectorOptions(*this), &diagnostics);
            if (!compiled || !compiled->isValid()) {
                std::string message
                    = "selector \"" + selector.celExpression + "\" does not compile";
                if (!compiled)
                    message += ": " + compiled.error().message.toStdString();
                else if (!diagnostics.empty())
                    message += ": " + diagnostics.front().message;
                match->errors.push_back(std::move(message));
                continue;
            }
            selectors.push_back(std::move(*compiled));
        }
        if (match->errors.empty()) {
            for (const Device *device : m_devices->devices) {
                bool matches = true;
                for (const cel::CompiledSelector &selector : selectors) {
                    const cel::SelectorResult result = cel::evaluate(selector, device->view);
                    if (result.outcome == cel::SelectorResult::Outcome::Match)
                        continue;
                    matches = false;
                    if (result.outcome == cel::SelectorResult::Outcome::Error
                        && match->errors.size() < kMaxMatchErrors)
                        match->errors.push_back(device->key.display() + ": " + result.error);
                    break;
                }
                if (matches)
                    match->devices.push_back(device);
            }
        }
    }
    std::lock_guard lock(m_classMutex);
    return m_classMatches.emplace(std::string(className), std::move(match)).first->second;
}

std::span<const std::shared_ptr<const model::Object>> Snapshot::objects(model::Kind kind) const
{
    if (size_t(kind) >= kKindCount)
        return {};
    return m_objects->kinds[size_t(kind)]->objects;
}

const std::vector<DeviceHealthReport> &Snapshot::deviceHealthReports() const
{
    const detail::KindTable &pods = *m_objects->kinds[size_t(model::Kind::Pod)];
    std::call_once(
        pods.healthOnce, [&pods] { pods.health = readDeviceHealthReports(pods.objects); });
    return pods.health;
}

const model::Object *Snapshot::object(
    model::Kind kind, std::string_view ns, std::string_view name) const
{
    const auto list = objects(kind);
    const auto it = std::lower_bound(
        list.begin(), list.end(), std::pair(ns, name), [](const auto &object, const auto &key) {
            return std::tie(object->meta.ns, object->meta.name) < std::tie(key.first, key.second);
        });
    return it != list.end() && (*it)->meta.ns == ns && (*it)->meta.name == name ? it->get()
                                                                                : nullptr;
}

std::vector<Snapshot::Problem> Snapshot::problems() const
{
    std::vector<Problem> problems;
    for (const auto &[key, problem] : m_objects->problems)
        problems.push_back({ key,
            problem.find(key.display()) == std::string::npos ? key.display() + ": " + problem
                                                             : problem });
    return problems;
}

namespace detail {

std::shared_ptr<Snapshot> SnapshotAssembler::make(std::string cluster, int64_t rev,
    std::string kubernetesVersion, std::shared_ptr<const DeviceLayer> devices,
    std::shared_ptr<const HoldLayer> holds, std::shared_ptr<const ObjectLayer> objects)
{
    std::shared_ptr<Snapshot> snapshot(new Snapshot());
    snapshot->m_cluster = std::move(cluster);
    snapshot->m_rev = rev;
    snapshot->m_kubernetesVersion = std::move(kubernetesVersion);
    snapshot->m_devices = std::move(devices);
    snapshot->m_holds = std::move(holds);
    snapshot->m_objects = std::move(objects);
    return snapshot;
}

void SnapshotAssembler::inheritClassMatches(const Snapshot &from, Snapshot &to)
{
    std::scoped_lock lock(from.m_classMutex, to.m_classMutex);
    to.m_classMatches = from.m_classMatches;
}

} // namespace detail

} // namespace dra::inventory
