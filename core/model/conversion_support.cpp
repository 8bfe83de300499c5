// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/conversion_support.h"

#include <span>

#include "core/common/json_text.h"

namespace dra::model::detail {

using common::Error;
using common::qs;
using nlohmann::json;

std::unexpected<Error> notExpressible(
    const ConversionScope &scope, std::string_view path, std::string_view why)
{
    QString message = qs(scope.who) + QStringLiteral(": ") + qs(path)
        + QStringLiteral(" cannot be expressed in ") + qs(scope.target);
    if (!why.empty())
        message += QStringLiteral(" (") + qs(why) + QLatin1Char(')');
    return fail(Error::Code::Unsupported, message);
}

std::unexpected<Error> malformed(
    const ConversionScope &scope, std::string_view path, std::string_view expected)
{
    return fail(Error::Code::Invalid,
        qs(scope.who) + QStringLiteral(": ") + qs(path) + QStringLiteral(" is not ")
            + qs(expected));
}

std::string childPath(std::string_view path, std::string_view key)
{
    std::string out(path);
    if (!out.empty())
        out += '.';
    out += key;
    return out;
}

std::string itemPath(std::string_view path, std::size_t index)
{
    return std::string(path) + '[' + std::to_string(index) + ']';
}

Result<void> requireObjectOrNull(
    const json &value, const ConversionScope &scope, std::string_view path)
{
    if (value.is_object() || value.is_null())
        return {};
    return malformed(scope, path, "an object");
}

Result<void> requireArrayOrNull(
    const json &value, const ConversionScope &scope, std::string_view path)
{
    if (value.is_array() || value.is_null())
        return {};
    return malformed(scope, path, "a list");
}

Result<void> convertItems(
    json &items, const ConversionScope &scope, std::string_view path, const ItemConverter &convert)
{
    if (auto ok = requireArrayOrNull(items, scope, path); !ok || items.is_null())
        return ok;
    for (std::size_t i = 0; i < items.size(); ++i) {
        Result<json> converted = convert(items[i], itemPath(path, i));
        if (!converted)
            return std::unexpected(converted.error());
        items[i] = std::move(*converted);
    }
    return {};
}

void eraseGoZero(json &object, std::string_view key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return;
    if ((it->is_string() && it->get_ref<const std::string &>().empty())
        || (it->is_boolean() && !it->get<bool>()) || it->is_null())
        object.erase(it);
}

// ---- What 1.31's v1alpha3 could say, described over the v1 form ----------------------------
//
// An allow-list rather than a deny-list: 1.31 is frozen, so anything v1 gained since (and any
// field from the future) is by definition not expressible there.

namespace {

enum class Nesting { Single, List, Map };

struct Shape;

struct FieldRule
{
    std::string_view key;
    const Shape *shape = nullptr; // nullptr: the value is opaque (node selectors, parameters)
    Nesting nesting = Nesting::Single;
};

struct Shape
{
    std::span<const FieldRule> fields;
};

constexpr FieldRule kCelFields[] = { { "expression" } };
constexpr Shape kCel { kCelFields };
constexpr FieldRule kSelectorFields[] = { { "cel", &kCel } };
constexpr Shape kSelector { kSelectorFields };
constexpr FieldRule kOpaqueFields[] = { { "driver" }, { "parameters" } };
constexpr Shape kOpaque { kOpaqueFields };
constexpr FieldRule kClassConfigFields[] = { { "opaque", &kOpaque } };
constexpr Shape kClassConfig { kClassConfigFields };
constexpr FieldRule kClassSpecFields[]
    = { { "selectors", &kSelector, Nesting::List }, { "config", &kClassConfig, Nesting::List } };
constexpr Shape kClassSpec { kClassSpecFields };

constexpr FieldRule kPoolFields[] = { { "name" }, { "generation" }, { "resourceSliceCount" } };
constexpr Shape kPool { kPoolFields };
constexpr FieldRule kAttributeFields[] = { { "int" }, { "bool" }, { "string" }, { "version" } };
constexpr Shape kAttribute { kAttributeFields };
constexpr FieldRule kCapacityFields[] = { { "value" } };
constexpr Shape kCapacity { kCapacityFields };
constexpr FieldRule kDeviceFields[] = { { "name" }, { "attributes", &kAttribute, Nesting::Map },
    { "capacity", &kCapacity, Nesting::Map } };
constexpr Shape kDevice { kDeviceFields };
constexpr FieldRule kSliceSpecFields[] = { { "driver" }, { "pool", &kPool }, { "nodeName" },
    { "nodeSelector" }, { "allNodes" }, { "devices", &kDevice, Nesting::List } };
constexpr Shape kSliceSpec { kSliceSpecFields };

constexpr FieldRule kExactFields[]
    = { { "deviceClassName" }, { "selectors", &kSelector, Nesting::List }, { "allocationMode" },
          { "count" }, { "adminAccess" } };
constexpr Shape kExact { kExactFields };
constexpr FieldRule kRequestFields[] = { { "name" }, { "exactly", &kExact } };
constexpr Shape kRequest { kRequestFields };
constexpr FieldRule kConstraintFields[] = { { "requests" }, { "matchAttribute" } };
constexpr Shape kConstraint { kConstraintFields };
constexpr FieldRule kClaimConfigFields[] = { { "requests" }, { "opaque", &kOpaque } };
constexpr Shape kClaimConfig { kClaimConfigFields };
constexpr FieldRule kDeviceClaimFields[] = { { "requests", &kRequest, Nesting::List },
    { "constraints", &kConstraint, Nesting::List }, { "config", &kClaimConfig, Nesting::List } };
constexpr Shape kDeviceClaim { kDeviceClaimFields };
constexpr FieldRule kClaimSpecFields[] = { { "devices", &kDeviceClaim } };
constexpr Shape kClaimSpec { kClaimSpecFields };

constexpr FieldRule kResultFields[] = { { "request" }, { "driver" }, { "pool" }, { "device" } };
constexpr Shape kResult { kResultFields };
constexpr FieldRule kAllocationConfigFields[]
    = { { "source" }, { "requests" }, { "opaque", &kOpaque } };
constexpr Shape kAllocationConfig { kAllocationConfigFields };
constexpr FieldRule kDeviceAllocationFields[]
    = { { "results", &kResult, Nesting::List }, { "config", &kAllocationConfig, Nesting::List } };
constexpr Shape kDeviceAllocation { kDeviceAllocationFields };
constexpr FieldRule kAllocationFields[] = { { "devices", &kDeviceAllocation }, { "nodeSelector" } };
constexpr Shape kAllocation { kAllocationFields };
constexpr FieldRule kClaimStatusFields[] = { { "allocation", &kAllocation }, { "reservedFor" } };
constexpr Shape kClaimStatus { kClaimStatusFields };

constexpr FieldRule kTemplateSpecFields[] = { { "metadata" }, { "spec", &kClaimSpec } };
constexpr Shape kTemplateSpec { kTemplateSpecFields };

Result<void> checkShape(
    const json &value, const Shape &shape, const std::string &path, const ConversionScope &scope);

Result<void> checkNested(
    const json &value, const FieldRule &rule, const std::string &path, const ConversionScope &scope)
{
    if (!rule.shape)
        return {};
    switch (rule.nesting) {
    case Nesting::Single:
        return checkShape(value, *rule.shape, path, scope);
    case Nesting::List:
        if (!value.is_array())
            return {};
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (auto ok = checkShape(value[i], *rule.shape, itemPath(path, i), scope); !ok)
                return ok;
        }
        return {};
    case Nesting::Map:
        if (!value.is_object())
            return {};
        for (const auto &[name, entry] : value.items()) {
            if (auto ok = checkShape(entry, *rule.shape, path + '[' + name + ']', scope); !ok)
                return ok;
        }
        return {};
    }
    return {};
}

Result<void> checkShape(
    const json &value, const Shape &shape, const std::string &path, const ConversionScope &scope)
{
    // A value of the wrong type is the decoder's business; here only unknown keys matter.
    if (!value.is_object())
        return {};
    for (const auto &[key, child] : value.items()) {
        const FieldRule *rule = nullptr;
        for (const FieldRule &candidate : shape.fields) {
            if (candidate.key == key) {
                rule = &candidate;
                break;
            }
        }
        const std::string here = childPath(path, key);
        if (!rule)
            return notExpressible(scope, here);
        if (auto ok = checkNested(child, *rule, here, scope); !ok)
            return ok;
    }
    return {};
}

} // namespace

Result<void> checkExpressibleInV1alpha3(
    const json &object, std::string_view kind, const ConversionScope &scope)
{
    const Shape *spec = nullptr;
    const Shape *status = nullptr;
    if (kind == "DeviceClass")
        spec = &kClassSpec;
    else if (kind == "ResourceSlice")
        spec = &kSliceSpec;
    else if (kind == "ResourceClaim")
        spec = &kClaimSpec, status = &kClaimStatus;
    else if (kind == "ResourceClaimTemplate")
        spec = &kTemplateSpec;
    // Other kinds of v1alpha3 (DeviceTaintRule) follow the current API, not 1.31's.
    if (spec) {
        if (const auto it = object.find("spec"); it != object.end()) {
            if (auto ok = checkShape(*it, *spec, "spec", scope); !ok)
                return ok;
        }
    }
    if (status) {
        if (const auto it = object.find("status"); it != object.end()) {
            if (auto ok = checkShape(*it, *status, "status", scope); !ok)
                return ok;
        }
    } else if (spec && object.contains("status")) {
        return notExpressible(scope, "status");
    }
    return {};
}

} // namespace dra::model::detail
