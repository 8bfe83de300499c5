// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/object.h"

namespace dra::inventory {

// A column of an object table, in the terms of meta.k8s.io Table column definitions.
struct TableColumn
{
    std::string name; // "Name", "Node"
    std::string type; // "string", "integer", "date"
    std::string format; // "name" for the name column
    std::string description;
    int priority = 0; // > 0: shown only by `-o wide`
};

// The columns of `kind` as kube-apiserver prints them (priority 0), plus our extra detail
// at priority 1. Shared by `dractl get`, the API server's Table responses and the console.
const std::vector<TableColumn> &tableColumns(model::Kind kind);

// One row of cells matching tableColumns(object.kind), ages relative to `now` (seconds).
std::vector<std::string> tableRow(const model::Object &object, int64_t now);

} // namespace dra::inventory
