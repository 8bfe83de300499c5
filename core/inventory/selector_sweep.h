// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/diagnostic.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {

// A device selector evaluated over every device of a snapshot: what the template editor shows
// as the user types, and `dractl cel eval` prints.
struct SelectorSweep
{
    bool valid = false; // compiled without errors
    std::vector<cel::Diagnostic> diagnostics; // compile errors, then inventory warnings
    std::vector<const Device *> matches; // in snapshot order
    std::map<std::string, int> matchesByNode; // "" for network-attached devices
    int evaluated = 0;
    int runtimeErrors = 0; // devices on which evaluation failed (e.g. a missing attribute)
    std::string firstRuntimeError;
    bool cancelled = false;
};

// Compiles `expression` as a new selector in the cluster's release (newSelectorOptions()) and
// evaluates it on every device, stopping early when `cancel` turns
// true (a newer keystroke). Adds warnings where the expression names a driver, domain,
// attribute or capacity that no device of the inventory publishes, with the nearest name
// that exists ("did you mean"). Any thread; the snapshot is only read.
SelectorSweep sweepSelector(const Snapshot &snapshot, std::string_view expression,
    const std::atomic<bool> *cancel = nullptr);

// Warnings for names in `expression` that the inventory does not publish; part of
// sweepSelector(), public for editors that only compile.
std::vector<cel::Diagnostic> inventoryWarnings(
    const Snapshot &snapshot, std::string_view expression);

// What a selector editor offers to complete: `device.driver`, `device.attributes["d"].name`
// and `device.capacity["d"].name` for every published name, the domains, the drivers, the
// string values attributes take (product names, profiles), and CEL's DRA functions. Sorted,
// without duplicates.
std::vector<std::string> selectorVocabulary(const Snapshot &snapshot);

} // namespace dra::inventory
