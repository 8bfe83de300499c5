// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/common/object_key.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {

enum class Severity { Info, Warning, Error };

// "info", "warning", "error".
std::string_view severityName(Severity severity);

// One problem in the inventory, naming the objects it is about so a view can link them.
struct Finding
{
    Severity severity = Severity::Warning;
    std::string code; // stable, e.g. "PoolIncomplete"; see lint.cpp for the list
    std::string message; // one sentence naming the objects and what is wrong
    std::vector<common::ObjectKey> objects;
};

// Checks the inventory for what makes allocation fail or waste devices: incomplete or
// inconsistent pools, counters consumed from sets a pool does not publish, MIG devices
// advertised beside their whole GPU with nothing keeping both from being allocated, claims
// allocated but not reserved (leaked devices), reservations for pods that no longer exist,
// allocations of devices that are no longer published, driver versions mixed on one node,
// slices for nodes that do not exist, DeviceClasses that match no device or do not compile,
// classes whose every device is tainted, claims waiting on binding conditions past the
// scheduler's timeout, devices reported unhealthy yet allocated, and objects the inventory
// could not read. Checks that need Pods or Nodes run only when
// the cache mirrors some. Errors first, then warnings, then info. Any thread.
std::vector<Finding> lint(const Snapshot &snapshot);

// {"severity","code","message","objects":[{"kind","namespace","name"}]}; the `dractl lint -o
// json` element.
nlohmann::json toJson(const Finding &finding);

} // namespace dra::inventory
