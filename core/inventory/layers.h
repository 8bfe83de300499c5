// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>

#include "core/inventory/snapshot_parts.h"

namespace dra::inventory::detail {

// Pools, current devices and the device indexes of a set of stored slices, with Kubernetes'
// pool rules: only the highest generation counts; a pool is complete when its slices at that
// generation all arrived; duplicate device or counter set names invalidate it.
std::shared_ptr<const DeviceLayer> deriveDeviceLayer(
    std::map<std::string, SlicePtr, std::less<>> slices);

// The holds of every allocated claim and the counters their devices consume.
std::shared_ptr<const HoldLayer> deriveHoldLayer(
    const DeviceLayer &devices, const KindTable &claims);

} // namespace dra::inventory::detail
