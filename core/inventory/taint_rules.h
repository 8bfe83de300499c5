// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/inventory/device.h"
#include "core/model/resource_types.h"

namespace dra::inventory {

class Snapshot;

// Whether a DeviceTaintRule's selector picks `device`: every field it sets must match (device
// class through the snapshot's class match, driver, pool, device name, CEL selectors). A
// selector that does not compile or fails on the device picks nothing. Any thread.
bool taintRuleSelects(
    const Snapshot &snapshot, const model::DeviceTaintRule &rule, const Device &device);

} // namespace dra::inventory
