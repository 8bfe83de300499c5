// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/inventory/snapshot.h"

namespace dra::views {

// Everything known of one device as HTML for the details pane: identity, state, holders with
// their pods, attributes and capacities by domain, counters it consumes, taints.
QString deviceDetailsHtml(const inventory::Snapshot &snapshot, const inventory::Device &device);

} // namespace dra::views
