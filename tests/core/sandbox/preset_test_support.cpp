// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/core/sandbox/preset_test_support.h"

#include <gtest/gtest.h>

#include "core/sandbox/presets.h"

namespace dra::test {

nlohmann::json generatePreset(const std::string &preset, int nodes, uint64_t seed)
{
    const auto generated = dra::sandbox::generateInventory({ preset, nodes, seed });
    if (!generated) {
        ADD_FAILURE() << preset << ": " << generated.error().message.toStdString();
        return nullptr;
    }
    return *generated;
}

std::vector<const nlohmann::json *> itemsOfKind(const nlohmann::json &list, const std::string &kind)
{
    std::vector<const nlohmann::json *> out;
    if (!list.is_object() || !list.contains("items"))
        return out;
    for (const nlohmann::json &item : list["items"]) {
        if (item.value("kind", "") == kind)
            out.push_back(&item);
    }
    return out;
}

int64_t quantityValue(const std::string &text)
{
    static const std::pair<std::string, int64_t> kSuffixes[] = { { "Ki", int64_t(1) << 10 },
        { "Mi", int64_t(1) << 20 }, { "Gi", int64_t(1) << 30 }, { "Ti", int64_t(1) << 40 } };
    int64_t multiplier = 1;
    std::string digits = text;
    for (const auto &[suffix, factor] : kSuffixes) {
        if (text.size() > suffix.size() && text.ends_with(suffix)) {
            digits = text.substr(0, text.size() - suffix.size());
            multiplier = factor;
        }
    }
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    return std::stoll(digits) * multiplier;
}

std::map<std::string, const nlohmann::json *> devicesByKey(const nlohmann::json &list)
{
    std::map<std::string, const nlohmann::json *> out;
    for (const nlohmann::json *slice : itemsOfKind(list, "ResourceSlice")) {
        const nlohmann::json &spec = (*slice)["spec"];
        if (!spec.contains("devices"))
            continue;
        const std::string prefix = spec["driver"].get<std::string>() + '/'
            + spec["pool"]["name"].get<std::string>() + '/';
        for (const nlohmann::json &device : spec["devices"])
            out[prefix + device["name"].get<std::string>()] = &device;
    }
    return out;
}

} // namespace dra::test
