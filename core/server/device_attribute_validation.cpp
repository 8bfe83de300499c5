// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/device_attribute_validation.h"

#include <array>

#include "core/cel/device_attribute.h"
#include "core/model/version.h"

namespace dra::server {

namespace {

using nlohmann::json;

constexpr const char *kSemverDetail = "must be a string compatible with semver.org spec 2.0.0";

// One string or version value at `path`: its length, and for a version its syntax.
void validateAttributeText(
    const json &value, bool version, const std::string &path, FieldErrors &errors)
{
    if (!value.is_string())
        return; // the schema reports the type
    const std::string &text = value.get_ref<const std::string &>();
    if (version && !model::Version::parse(text))
        errors.push_back(invalid(path, text, kSemverDetail));
    if (text.size() > cel::kDeviceAttributeMaxValueLength)
        errors.push_back(tooLong(path, int64_t(cel::kDeviceAttributeMaxValueLength)));
}

// One attribute at `path`; returns how many values it holds toward the per-device limit.
size_t validateAttribute(const json &attribute, const std::string &path, FieldErrors &errors)
{
    if (!attribute.is_object())
        return 0;
    static constexpr std::array<const char *, 8> kFields { "int", "bool", "string", "version",
        "ints", "bools", "strings", "versions" };
    int set = 0;
    size_t values = 0;
    for (const char *field : kFields) {
        const auto it = attribute.find(field);
        if (it == attribute.end() || it->is_null())
            continue;
        ++set;
        const std::string at = path + "." + field;
        const std::string_view name(field);
        if (name == "string" || name == "version") {
            validateAttributeText(*it, name == "version", at, errors);
            ++values;
        } else if (it->is_array()) {
            values += it->size();
            if (name == "strings" || name == "versions") {
                for (size_t i = 0; i < it->size(); ++i)
                    validateAttributeText(
                        (*it)[i], name == "versions", at + "[" + std::to_string(i) + "]", errors);
            }
        } else {
            ++values;
        }
    }
    if (set == 0)
        errors.push_back(required(path, "exactly one value must be specified"));
    else if (set > 1)
        errors.push_back(invalid(path, attribute, "exactly one value must be specified"));
    return values;
}

} // namespace

void validateDeviceAttributes(const json &device, const std::string &path, FieldErrors &errors)
{
    if (!device.is_object())
        return;
    const auto attributes = device.find("attributes");
    if (attributes == device.end() || !attributes->is_object())
        return;
    const std::string attributesPath = path + ".attributes";
    size_t values = 0;
    for (const auto &[name, attribute] : attributes->items())
        values += validateAttribute(attribute, attributesPath + "[" + name + "]", errors);
    if (values > cel::kDeviceAttributeMaxValues)
        errors.push_back(
            tooMany(attributesPath, int64_t(values), int64_t(cel::kDeviceAttributeMaxValues)));
}

} // namespace dra::server
