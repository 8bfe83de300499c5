// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/layers.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "core/model/qualified_name.h"

namespace dra::inventory::detail {

namespace {

// One pool while the device layer is derived: its slices of every generation.
struct PoolSlices
{
    std::vector<const SliceData *> slices;
};

void markStale(std::vector<SliceInfo> &infos, const std::string &name)
{
    const auto it = std::lower_bound(infos.begin(), infos.end(), name,
        [](const SliceInfo &info, const std::string &n) { return info.name < n; });
    if (it != infos.end() && it->name == name)
        it->stale = true;
}

Pool makePool(
    const PoolId &id, const PoolSlices &group, std::unordered_set<const SliceData *> &current)
{
    Pool pool;
    pool.driver = id.first;
    pool.name = id.second;
    for (const SliceData *slice : group.slices)
        pool.generation = std::max(pool.generation, slice->info.generation);
    std::set<int64_t> counts;
    std::set<std::string> deviceNames, duplicateDevices, counterSets, duplicateSets;
    std::set<std::string> nodes;
    bool networkAttached = false;
    for (const SliceData *slice : group.slices) { // in slice-name order
        if (slice->info.generation != pool.generation) {
            pool.staleSlices.push_back(slice->info.name);
            continue;
        }
        current.insert(slice);
        pool.slices.push_back(slice->info.name);
        if (pool.slices.size() == 1)
            pool.resourceSliceCount = slice->info.resourceSliceCount;
        counts.insert(slice->info.resourceSliceCount);
        for (const Device &device : slice->devices)
            if (!deviceNames.insert(device.key.device).second)
                duplicateDevices.insert(device.key.device);
        for (const model::CounterSet &set : slice->sharedCounters) {
            if (!counterSets.insert(set.name).second)
                duplicateSets.insert(set.name);
            pool.sharedCounters.push_back(set);
        }
        pool.deviceCount += slice->devices.size();
        if (slice->info.node.empty())
            networkAttached = true;
        else
            nodes.insert(slice->info.node);
    }
    if (counts.size() > 1)
        pool.declaredCounts.assign(counts.begin(), counts.end());
    pool.duplicateDevices.assign(duplicateDevices.begin(), duplicateDevices.end());
    pool.duplicateCounterSets.assign(duplicateSets.begin(), duplicateSets.end());
    if (nodes.size() == 1 && !networkAttached)
        pool.node = *nodes.begin();
    return pool;
}

// A consumedCapacity map of an allocation result: names resolve against the driver.
std::vector<std::pair<std::string, model::Quantity>> consumedCapacity(
    const nlohmann::json &json, const std::string &driver)
{
    std::vector<std::pair<std::string, model::Quantity>> consumed;
    if (!json.is_object())
        return consumed;
    for (const auto &[name, value] : json.items()) {
        if (!value.is_string())
            continue;
        if (Result<model::Quantity> quantity
            = model::Quantity::parse(value.get_ref<const std::string &>()))
            consumed.emplace_back(
                model::QualifiedName::resolve(name, driver).toString(), *quantity);
    }
    return consumed;
}

// Adds what `device` consumes to the usage of its pool's counter sets.
void consume(std::vector<CounterSetUsage> &sets, const Device &device)
{
    for (const model::DeviceCounterConsumption &consumption : device.consumesCounters) {
        const auto set = std::ranges::find(sets, consumption.counterSet, &CounterSetUsage::name);
        if (set == sets.end())
            continue;
        for (const auto &[name, amount] : consumption.counters) {
            const auto counter = std::ranges::find(set->counters, name, &CounterUsage::name);
            if (counter == set->counters.end())
                continue;
            if (Result<model::Quantity> sum = counter->consumed.add(amount))
                counter->consumed = *sum;
        }
    }
}

} // namespace

std::shared_ptr<const DeviceLayer> deriveDeviceLayer(
    std::map<std::string, SlicePtr, std::less<>> slices)
{
    auto layer = std::make_shared<DeviceLayer>();
    layer->slices = std::move(slices);

    std::map<PoolId, PoolSlices> groups;
    layer->sliceInfos.reserve(layer->slices.size());
    for (const auto &[name, slice] : layer->slices) {
        groups[{ slice->info.driver, slice->info.pool }].slices.push_back(slice.get());
        layer->sliceInfos.push_back(slice->info);
    }

    std::unordered_set<const SliceData *> current;
    layer->pools.reserve(groups.size());
    for (const auto &[id, group] : groups) {
        layer->pools.push_back(makePool(id, group, current));
        for (const std::string &stale : layer->pools.back().staleSlices)
            markStale(layer->sliceInfos, stale);
    }

    size_t deviceCount = 0;
    for (const SliceData *slice : current)
        deviceCount += slice->devices.size();
    layer->devices.reserve(deviceCount);
    layer->byKey.reserve(deviceCount);
    for (const auto &[name, slice] : layer->slices) {
        if (!current.contains(slice.get()))
            continue;
        for (const Device &device : slice->devices) {
            layer->devices.push_back(&device);
            layer->byKey.emplace(viewOf(device.key), &device); // the first of duplicates wins
        }
    }
    // Grouping runs over the already ordered list, so each index keeps the same order.
    std::vector<const Device *> *nodeList = nullptr;
    std::vector<const Device *> *driverList = nullptr;
    std::vector<const Device *> *poolList = nullptr;
    const Device *previous = nullptr;
    for (const Device *device : layer->devices) {
        if (!previous || previous->node != device->node)
            nodeList = &layer->byNode[device->node];
        if (!previous || previous->key.driver != device->key.driver)
            driverList = &layer->byDriver[device->key.driver];
        if (!previous || previous->key.driver != device->key.driver
            || previous->key.pool != device->key.pool)
            poolList = &layer->byPool[{ device->key.driver, device->key.pool }];
        nodeList->push_back(device);
        driverList->push_back(device);
        poolList->push_back(device);
        previous = device;
    }
    return layer;
}

std::shared_ptr<const HoldLayer> deriveHoldLayer(
    const DeviceLayer &devices, const KindTable &claims)
{
    auto layer = std::make_shared<HoldLayer>();
    for (const auto &object : claims.objects) {
        const model::ResourceClaim *claim = object->as<model::ResourceClaim>();
        if (!claim || !claim->allocation)
            continue;
        std::vector<std::string> pods;
        for (const model::ResourceClaimConsumerReference &ref : claim->reservedFor)
            if (ref.resource == "pods" && ref.apiGroup.empty())
                pods.push_back(ref.name);
        for (const model::DeviceRequestAllocationResult &result : claim->allocation->results) {
            DeviceHold hold;
            hold.claim = object->key();
            hold.request = result.request;
            hold.adminAccess = result.adminAccess;
            hold.shareID = result.shareID;
            hold.consumedCapacity = consumedCapacity(result.consumedCapacity, result.driver);
            hold.pods = pods;
            layer->holds[DeviceKey { result.driver, result.pool, result.device }].push_back(
                std::move(hold));
        }
    }

    for (const Pool &pool : devices.pools) {
        if (pool.sharedCounters.empty())
            continue;
        std::vector<CounterSetUsage> &sets = layer->counters[{ pool.driver, pool.name }];
        for (const model::CounterSet &set : pool.sharedCounters) {
            if (std::ranges::find(sets, set.name, &CounterSetUsage::name) != sets.end())
                continue; // a duplicate: the pool is invalid anyway
            CounterSetUsage usage { set.name, {} };
            for (const auto &[name, total] : set.counters)
                usage.counters.push_back({ name, total, model::Quantity() });
            sets.push_back(std::move(usage));
        }
        const auto members = devices.byPool.find(PoolId { pool.driver, pool.name });
        if (members == devices.byPool.end())
            continue;
        for (const Device *device : members->second) {
            const auto held = layer->holds.find(device->key);
            if (held == layer->holds.end())
                continue;
            // A shared device consumes its counters once, however many claims share it;
            // admin access consumes nothing.
            if (std::ranges::any_of(
                    held->second, [](const DeviceHold &hold) { return !hold.adminAccess; }))
                consume(sets, *device);
        }
    }
    return layer;
}

} // namespace dra::inventory::detail
