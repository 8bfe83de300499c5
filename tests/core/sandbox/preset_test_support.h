// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dra::test {

// Generates a preset or fails the test (returns null then).
nlohmann::json generatePreset(const std::string &preset, int nodes = 0, uint64_t seed = 1);

// The items of `list` whose kind is `kind`, in list order.
std::vector<const nlohmann::json *> itemsOfKind(
    const nlohmann::json &list, const std::string &kind);

// A quantity as an integer: plain, or with an Ki/Mi/Gi/Ti suffix. -1 when it is neither.
int64_t quantityValue(const std::string &text);

// Devices of every slice, keyed "driver/pool/device".
std::map<std::string, const nlohmann::json *> devicesByKey(const nlohmann::json &list);

} // namespace dra::test
