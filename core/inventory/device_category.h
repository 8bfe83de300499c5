// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>
#include <vector>

#include "core/inventory/device.h"

namespace dra::inventory {

class Snapshot;

// What an admin looks for first: whole GPUs, then their partitions, then NICs, then the rest.
// The overview counts by it and the device table orders and filters by it.
enum class DeviceCategory { Gpu, Partition, Nic, Other };
DeviceCategory categoryOf(const Device &device);
// "GPUs", "MIG devices", "NICs", "Other devices": for filters and summaries.
std::string_view categoryTitle(DeviceCategory category);

// Every device of `snapshot` by node (network-attached devices last), then category, then
// name, node and device names compared as people read them ("gpu-2" before "gpu-10").
std::vector<const Device *> devicesInBrowseOrder(const Snapshot &snapshot);
// The order of devicesInBrowseOrder(), for placing one device among others.
bool browsesBefore(const Device &a, const Device &b);

} // namespace dra::inventory
