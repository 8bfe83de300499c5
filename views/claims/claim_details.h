// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/inventory/snapshot.h"

namespace dra::views {

// A claim (or template) as HTML for the inspector: requests with selectors, constraints, the
// allocation with each device's node, the pods it is reserved for and the events about it.
QString claimDetailsHtml(const inventory::Snapshot &snapshot, const model::Object &claim);

} // namespace dra::views
