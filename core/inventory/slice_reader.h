// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/common/result.h"
#include "core/inventory/snapshot_parts.h"
#include "core/model/object.h"
#include "core/model/object_record.h"

namespace dra::inventory::detail {

// Reads a stored ResourceSlice for the inventory. Attributes and capacities come from the
// record's device rows (already domain-qualified); the few other fields (pool, counters, taints,
// node selection) are skimmed from its JSON without a full parse. A record without device rows,
// or JSON the skim cannot follow, is decoded in full instead. Errors name the slice. Any thread.
// Takes only what it keeps (the JSON; everything on the full-decode path): the device rows stay
// in `record`, for a reader that reuses their storage.
[[nodiscard]] Result<SlicePtr> readSlice(model::ObjectRecord &&record);

// The same SliceData from an already decoded ResourceSlice (the full-decode path).
[[nodiscard]] Result<SlicePtr> sliceFromObject(
    const model::Object &object, std::string json, int64_t rev);

} // namespace dra::inventory::detail
