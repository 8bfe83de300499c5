// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/free_capacity.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace dra::inventory {

namespace {

const std::string kNetworkAttached = "(network-attached)";
const std::string kNoModel = "(no productName)";
const std::string kNoProfile = "(no profile)";

using PoolCounters = std::map<std::pair<std::string, std::string>, std::vector<CounterSetUsage>>;

// Whether `device` fits in the working counters of its pool; consumes them when it does.
bool take(PoolCounters &working, const Snapshot &snapshot, const Device &device)
{
    if (device.consumesCounters.empty())
        return true;
    const std::pair<std::string, std::string> id { device.key.driver, device.key.pool };
    auto sets = working.find(id);
    if (sets == working.end()) {
        const auto usage = snapshot.counterUsage(device.key.driver, device.key.pool);
        sets = working.emplace(id, std::vector<CounterSetUsage>(usage.begin(), usage.end())).first;
    }
    std::vector<CounterSetUsage> after = sets->second;
    for (const model::DeviceCounterConsumption &consumption : device.consumesCounters) {
        const auto set = std::ranges::find(after, consumption.counterSet, &CounterSetUsage::name);
        if (set == after.end())
            return false;
        for (const auto &[name, amount] : consumption.counters) {
            const auto counter = std::ranges::find(set->counters, name, &CounterUsage::name);
            if (counter == set->counters.end())
                return false;
            const Result<model::Quantity> sum = counter->consumed.add(amount);
            if (!sum || sum->compare(counter->total) > 0)
                return false;
            counter->consumed = *sum;
        }
    }
    sets->second = std::move(after);
    return true;
}

FreeCapacity summarize(
    const Snapshot &snapshot, const std::string &group, std::span<const Device *const> devices)
{
    FreeCapacity capacity;
    capacity.group = group;
    std::map<std::string, std::vector<const Device *>> freeByProfile;
    std::map<std::string, ProfileCapacity> profiles;
    for (const Device *device : devices) {
        const DeviceState state = snapshot.state(*device);
        ++capacity.devices;
        switch (state) {
        case DeviceState::Free:
            ++capacity.free;
            break;
        case DeviceState::Allocated:
            ++capacity.allocated;
            break;
        case DeviceState::Blocked:
            ++capacity.blocked;
            break;
        case DeviceState::Tainted:
            ++capacity.tainted;
            break;
        }
        if (!device->isPartition()) {
            ++capacity.wholeTotal;
            capacity.wholeFree += state == DeviceState::Free ? 1 : 0;
            continue;
        }
        std::string profile = device->profile();
        if (profile.empty())
            profile = kNoProfile;
        ProfileCapacity &entry = profiles[profile];
        entry.profile = profile;
        ++entry.total;
        if (state == DeviceState::Free) {
            ++entry.free;
            freeByProfile[profile].push_back(device);
        }
    }
    for (auto &[profile, entry] : profiles) {
        PoolCounters working;
        for (const Device *device : freeByProfile[profile])
            entry.fit += take(working, snapshot, *device) ? 1 : 0;
        capacity.profiles.push_back(entry);
    }
    return capacity;
}

} // namespace

FreeCapacity freeCapacityOf(
    const Snapshot &snapshot, std::string group, std::span<const Device *const> devices)
{
    return summarize(snapshot, group, devices);
}

std::string_view groupingName(FreeGrouping grouping)
{
    switch (grouping) {
    case FreeGrouping::Pool:
        return "pool";
    case FreeGrouping::Node:
        return "node";
    case FreeGrouping::Class:
        return "class";
    case FreeGrouping::Model:
        return "model";
    }
    return "";
}

std::optional<FreeGrouping> parseGrouping(std::string_view name)
{
    for (FreeGrouping grouping :
        { FreeGrouping::Pool, FreeGrouping::Node, FreeGrouping::Class, FreeGrouping::Model })
        if (groupingName(grouping) == name)
            return grouping;
    return std::nullopt;
}

std::vector<FreeCapacity> freeCapacity(const Snapshot &snapshot, FreeGrouping grouping)
{
    std::vector<FreeCapacity> result;
    if (grouping == FreeGrouping::Class) {
        for (const auto &object : snapshot.objects(model::Kind::DeviceClass)) {
            const auto match = snapshot.classMatch(object->meta.name);
            result.push_back(summarize(snapshot, object->meta.name, match->devices));
        }
        return result; // classes come sorted by name
    }
    std::map<std::string, std::vector<const Device *>> groups;
    for (const Device *device : snapshot.devices()) {
        switch (grouping) {
        case FreeGrouping::Pool:
            groups[device->key.driver + "/" + device->key.pool].push_back(device);
            break;
        case FreeGrouping::Node:
            groups[device->node.empty() ? kNetworkAttached : device->node].push_back(device);
            break;
        case FreeGrouping::Model: {
            std::string model = device->productName();
            groups[model.empty() ? kNoModel : model].push_back(device);
            break;
        }
        case FreeGrouping::Class:
            break;
        }
    }
    for (const auto &[group, devices] : groups)
        result.push_back(summarize(snapshot, group, devices));
    return result;
}

nlohmann::json toJson(const FreeCapacity &capacity)
{
    nlohmann::json profiles = nlohmann::json::array();
    for (const ProfileCapacity &profile : capacity.profiles)
        profiles.push_back({ { "profile", profile.profile }, { "total", profile.total },
            { "free", profile.free }, { "fit", profile.fit } });
    return { { "group", capacity.group },
        { "devices",
            { { "total", capacity.devices }, { "allocated", capacity.allocated },
                { "free", capacity.free }, { "blocked", capacity.blocked },
                { "tainted", capacity.tainted } } },
        { "whole", { { "total", capacity.wholeTotal }, { "free", capacity.wholeFree } } },
        { "profiles", std::move(profiles) } };
}

} // namespace dra::inventory
