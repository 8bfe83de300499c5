// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/object.h"

namespace dra::inventory {

// One device of one ResourceSlice, flattened for `dractl get devices` and the device table,
// with the claim that holds it (if any).
struct DeviceRow
{
    std::string node, driver, pool, slice, device;
    std::string type; // the driver's `type` attribute (gpu, mig, ...), else ""
    std::string model; // productName
    std::string memory; // capacity `memory`, canonical quantity
    std::string pcieRoot; // resource.kubernetes.io/pcieRoot
    std::string numaNode; // resource.kubernetes.io/numaNode
    std::string uuid;
    std::vector<std::string> heldBy; // "namespace/claim" of every claim allocated this device
    const model::Device *source = nullptr; // valid while the slices passed in live
};

// Every device of `slices` (ResourceSlice objects) in slice order, marked with the claims in
// `claims` (ResourceClaim objects) whose allocation names it. `node` restricts to one node.
std::vector<DeviceRow> deviceRows(const std::vector<model::Object> &slices,
    const std::vector<model::Object> &claims, const std::string &node = {});

// The columns of the device table: name, and priority (1 = wide only), as for object tables.
struct DeviceColumn
{
    const char *name;
    int priority;
};
const std::vector<DeviceColumn> &deviceColumns();
std::vector<std::string> deviceCells(const DeviceRow &row);

// A device row as JSON: every field plus all attributes and capacities, domain-qualified.
nlohmann::json deviceJson(const DeviceRow &row);

} // namespace dra::inventory
