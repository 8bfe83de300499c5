// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/common/result.h"
#include "core/model/object.h"
#include "core/model/object_record.h"

namespace dra::model {

// The cache row of a decoded object: identity, bookkeeping, the raw JSON as received
// (compact) and, for a ResourceSlice, one device row per device with domain-qualified
// attribute and capacity names.
ObjectRecord toRecord(const model::Object &object);

// How a decoded object keeps its raw JSON: parsed, for objects about to be written out again
// (the API server), or as the row's text, parsed on first use, for objects held in bulk (a
// snapshot), whose parse trees would be most of the memory and of the time to load them.
enum class KeepRaw { Parsed, AsText };

// Decodes a stored row back into an object. Fails only for rows written by a newer console
// or edited by hand; the message names the object.
[[nodiscard]] Result<model::Object> fromRecord(
    const ObjectRecord &record, KeepRaw keep = KeepRaw::Parsed);
// The same, taking the row's text instead of copying it.
[[nodiscard]] Result<model::Object> fromRecord(ObjectRecord &&record, KeepRaw keep);

} // namespace dra::model
