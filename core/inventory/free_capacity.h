// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/inventory/snapshot.h"

namespace dra::inventory {

// How free capacity is grouped: per pool ("driver/pool"), node, DeviceClass or GPU model
// (productName).
enum class FreeGrouping { Pool, Node, Class, Model };

// "pool", "node", "class", "model" and back; nullopt for anything else.
std::string_view groupingName(FreeGrouping grouping);
std::optional<FreeGrouping> parseGrouping(std::string_view name);

// The partitions of one profile ("1g.10gb") in a group.
struct ProfileCapacity
{
    std::string profile;
    int total = 0; // placements published
    int free = 0; // placements allocatable now, each on its own
    int fit = 0; // how many of them can be allocated at once, given shared counters
};

// Free capacity of one group, as KEP-5677's pool status counts it: devices in each state
// (DeviceState), whole devices free of total, and per partition profile what still fits.
struct FreeCapacity
{
    std::string group;
    int devices = 0, allocated = 0, free = 0, blocked = 0, tainted = 0;
    int wholeTotal = 0, wholeFree = 0; // devices that are not partitions
    std::vector<ProfileCapacity> profiles; // sorted by profile
};

// Free capacity per group, sorted by group name. A device matching several DeviceClasses
// counts in each. `fit` packs partitions first-fit in inventory order against what is left of
// each pool's counters, one profile at a time. Any thread; the class grouping evaluates
// class selectors on first use.
std::vector<FreeCapacity> freeCapacity(const Snapshot &snapshot, FreeGrouping grouping);

// Free capacity of any set of devices, e.g. all of them for a total.
FreeCapacity freeCapacityOf(
    const Snapshot &snapshot, std::string group, std::span<const Device *const> devices);

// The `dractl free -o json` element of one group.
nlohmann::json toJson(const FreeCapacity &capacity);

} // namespace dra::inventory
