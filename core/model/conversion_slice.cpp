// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// ResourceSlice: v1beta1 and v1alpha3 wrap every device property in `basic`, v1beta2 and v1 put
// them on the device itself.
#include "core/model/conversion_support.h"

namespace dra::model::detail {

using nlohmann::json;

namespace {

// 1.31's v1alpha3 gave each capacity as a plain quantity; 1.32 made it `{value: ...}` so that
// request policies could sit beside the value.
void capacityUpFromV1alpha3(json &device)
{
    const auto it = device.find("capacity");
    if (it == device.end() || !it->is_object())
        return;
    for (auto &[name, entry] : it->items()) {
        if (entry.is_string() || entry.is_number())
            entry = json { { "value", entry } };
    }
}

// The inverse; checkExpressibleInV1alpha3() has already refused anything beside `value`.
void capacityDownToV1alpha3(json &basic)
{
    const auto it = basic.find("capacity");
    if (it == basic.end() || !it->is_object())
        return;
    for (auto &[name, entry] : it->items()) {
        if (entry.is_object() && entry.size() == 1 && entry.contains("value"))
            entry = json(entry["value"]);
    }
}

Result<json> deviceUp(
    const json &device, ResourceVersion from, const ConversionScope &scope, const std::string &path)
{
    if (!device.is_object())
        return malformed(scope, path, "an object");
    json out = json::object();
    for (const auto &[key, value] : device.items()) {
        if (key == "name")
            out[key] = value;
        else if (key != "basic")
            // Only the basic device type ever made it into the API; another sibling of `basic`
            // would be a different kind of device, which v1 has no place for.
            return notExpressible(scope, childPath(path, key), "v1 knows only basic devices");
    }
    if (const auto basic = device.find("basic"); basic != device.end()) {
        const std::string basicPath = childPath(path, "basic");
        if (auto ok = requireObjectOrNull(*basic, scope, basicPath); !ok)
            return std::unexpected(ok.error());
        if (basic->is_object()) {
            for (const auto &[key, value] : basic->items()) {
                if (key == "name")
                    return notExpressible(
                        scope, childPath(basicPath, key), "it collides with the device's own name");
                // Everything in basic, known or not, is a device property in v1.
                out[key] = value;
            }
        }
    }
    if (from == ResourceVersion::V1alpha3)
        capacityUpFromV1alpha3(out);
    return out;
}

Result<json> deviceDown(
    const json &device, ResourceVersion to, const ConversionScope &scope, const std::string &path)
{
    if (!device.is_object())
        return malformed(scope, path, "an object");
    json out = json::object();
    json basic = json::object();
    for (const auto &[key, value] : device.items()) {
        if (key == "name")
            out[key] = value;
        else
            basic[key] = value; // a v1beta1 device is its name plus basic, so nothing else fits
    }
    if (to == ResourceVersion::V1alpha3)
        capacityDownToV1alpha3(basic);
    // Kubernetes always writes `basic`, even for a device with no properties.
    out["basic"] = std::move(basic);
    return out;
}

// Converts each entry of the spec's device list with `convert`.
Result<void> convertDevices(json &spec, const ConversionScope &scope, const ItemConverter &convert)
{
    const auto devices = spec.find("devices");
    if (devices == spec.end())
        return {};
    return convertItems(*devices, scope, "spec.devices", convert);
}

} // namespace

Result<void> sliceSpecUp(json &spec, ResourceVersion from, const ConversionScope &scope)
{
    if (auto ok = requireObjectOrNull(spec, scope, "spec"); !ok || spec.is_null())
        return ok;
    eraseGoZero(spec, "nodeName");
    eraseGoZero(spec, "allNodes");
    return convertDevices(spec, scope, [&](const json &device, const std::string &path) {
        return deviceUp(device, from, scope, path);
    });
}

Result<void> sliceSpecDown(json &spec, ResourceVersion to, const ConversionScope &scope)
{
    if (auto ok = requireObjectOrNull(spec, scope, "spec"); !ok || spec.is_null())
        return ok;
    // Slice-level nodeName and allNodes are pointers in v1 and plain omitempty values before.
    eraseGoZero(spec, "nodeName");
    eraseGoZero(spec, "allNodes");
    return convertDevices(spec, scope, [&](const json &device, const std::string &path) {
        return deviceDown(device, to, scope, path);
    });
}

} // namespace dra::model::detail
