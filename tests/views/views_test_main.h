// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Shared set-up of the widget tests: inventories from the demo presets.
#pragma once

#include "tests/support/inventory_fixtures.h"

namespace dra::test {

// The a100-mig preset as a snapshot: small, with MIG devices, claims and pods.
inline inventory::SnapshotPtr a100Snapshot()
{
    static const inventory::SnapshotPtr snapshot = snapshotOf(presetList("a100-mig"));
    return snapshot;
}

inline inventory::SnapshotPtr mixedSnapshot()
{
    static const inventory::SnapshotPtr snapshot = snapshotOf(presetList("mixed", 2));
    return snapshot;
}

} // namespace dra::test
