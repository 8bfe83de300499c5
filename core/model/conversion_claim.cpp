// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// ResourceClaim (and the claim spec inside a ResourceClaimTemplate), DeviceClass: v1beta1 and
// v1alpha3 write an exact request's fields flat on the request, v1beta2 and v1 nest them in
// `exactly`; 1.31's v1alpha3 still carried fields of the removed control-plane controller.
#include "core/model/conversion_support.h"

namespace dra::model::detail {

using nlohmann::json;

namespace {

constexpr std::string_view kControllerRemoved
    = "the control-plane controller of classic DRA was removed in Kubernetes 1.32";

// A v1beta1 request is its name, firstAvailable, and the fields v1 nests in `exactly`: every
// field added to exact requests since (tolerations, capacity) was added flat in v1beta1 too.
bool isRequestLevel(std::string_view key)
{
    return key == "name" || key == "firstAvailable";
}

// Kubernetes sets `exactly` when one flat field holds a non-zero Go value; deviceClassName has
// no omitempty, so "" is what it writes for every firstAvailable request.
bool impliesExactly(std::string_view key, const json &value)
{
    if (value.is_null())
        return false;
    if (key == "deviceClassName" || key == "allocationMode")
        return !(value.is_string() && value.get_ref<const std::string &>().empty());
    if (key == "count")
        return !(value.is_number() && value == 0);
    return true; // pointers and slices: set when present (adminAccess: false included)
}

Result<json> requestUp(const json &request, const ConversionScope &scope, const std::string &path)
{
    if (!request.is_object())
        return malformed(scope, path, "an object");
    json out = json::object();
    json exactly = json::object();
    bool implied = false;
    for (const auto &[key, value] : request.items()) {
        if (isRequestLevel(key)) {
            out[key] = value;
        } else {
            exactly[key] = value;
            implied = implied || impliesExactly(key, value);
        }
    }
    // Without a non-zero field the flat fields are all unset, as Kubernetes reads them.
    if (implied)
        out["exactly"] = std::move(exactly);
    return out;
}

Result<json> requestDown(const json &request, const ConversionScope &scope, const std::string &path)
{
    if (!request.is_object())
        return malformed(scope, path, "an object");
    json out = json::object();
    for (const auto &[key, value] : request.items()) {
        if (isRequestLevel(key))
            out[key] = value;
        else if (key != "exactly")
            return notExpressible(scope, childPath(path, key),
                "a v1beta1 request holds only its name, firstAvailable and the "
                "fields of an exact request");
    }
    const auto exactly = request.find("exactly");
    if (exactly != request.end() && !exactly->is_null()) {
        const std::string exactPath = childPath(path, "exactly");
        if (!exactly->is_object())
            return malformed(scope, exactPath, "an object");
        bool implied = false;
        for (const auto &[key, value] : exactly->items()) {
            if (isRequestLevel(key))
                return notExpressible(
                    scope, childPath(exactPath, key), "it collides with the request's own field");
            out[key] = value;
            implied = implied || impliesExactly(key, value);
        }
        // v1beta1 has no flag for "exact": only a non-zero field says so, and this one has none.
        if (!implied)
            return notExpressible(scope, exactPath, "an exact request without any field set");
    }
    if (!out.contains("deviceClassName"))
        out["deviceClassName"] = ""; // no omitempty in v1beta1: the API server always writes it
    return out;
}

using RequestConverter
    = Result<json> (*)(const json &, const ConversionScope &, const std::string &);

Result<void> convertRequests(
    json &spec, RequestConverter convert, const ConversionScope &scope, std::string_view path)
{
    const auto devices = spec.find("devices");
    if (devices == spec.end())
        return {};
    const std::string devicesPath = childPath(path, "devices");
    if (auto ok = requireObjectOrNull(*devices, scope, devicesPath); !ok || devices->is_null())
        return ok;
    const auto requests = devices->find("requests");
    if (requests == devices->end())
        return {};
    const std::string requestsPath = childPath(devicesPath, "requests");
    return convertItems(
        *requests, scope, requestsPath, [&](const json &request, const std::string &itemPath) {
            return convert(request, scope, itemPath);
        });
}

// Drops a removed field when it holds its zero value, fails when it says something.
Result<void> dropRemovedField(
    json &object, std::string_view key, const ConversionScope &scope, std::string_view path)
{
    eraseGoZero(object, key);
    if (object.contains(key))
        return notExpressible(scope, childPath(path, key), kControllerRemoved);
    return {};
}

} // namespace

Result<void> claimSpecUp(
    json &spec, ResourceVersion from, const ConversionScope &scope, std::string_view path)
{
    if (auto ok = requireObjectOrNull(spec, scope, path); !ok || spec.is_null())
        return ok;
    if (from == ResourceVersion::V1alpha3) {
        if (auto ok = dropRemovedField(spec, "controller", scope, path); !ok)
            return ok;
    }
    return convertRequests(spec, &requestUp, scope, path);
}

Result<void> claimSpecDown(json &spec, const ConversionScope &scope, std::string_view path)
{
    if (auto ok = requireObjectOrNull(spec, scope, path); !ok || spec.is_null())
        return ok;
    return convertRequests(spec, &requestDown, scope, path);
}

Result<void> claimStatusUpFromV1alpha3(json &status, const ConversionScope &scope)
{
    if (auto ok = requireObjectOrNull(status, scope, "status"); !ok || status.is_null())
        return ok;
    if (auto ok = dropRemovedField(status, "deallocationRequested", scope, "status"); !ok)
        return ok;
    const auto allocation = status.find("allocation");
    if (allocation == status.end())
        return {};
    if (auto ok = requireObjectOrNull(*allocation, scope, "status.allocation");
        !ok || allocation->is_null())
        return ok;
    return dropRemovedField(*allocation, "controller", scope, "status.allocation");
}

Result<void> classSpecUpFromV1alpha3(json &spec, const ConversionScope &scope)
{
    if (auto ok = requireObjectOrNull(spec, scope, "spec"); !ok || spec.is_null())
        return ok;
    return dropRemovedField(spec, "suitableNodes", scope, "spec");
}

} // namespace dra::model::detail
