// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Every conversion goes through v1, as Kubernetes' goes through its internal version: the source
// is brought up to v1, then down to the target. v1beta2 has the shape of v1 (only apiVersion
// changes); v1beta1 and 1.31's v1alpha3 differ in structure, handled in conversion_slice.cpp and
// conversion_claim.cpp.
#include "core/model/conversion.h"

#include <optional>

#include "core/common/json_text.h"
#include "core/model/conversion_support.h"

namespace dra::model {

using common::Error;
using common::qs;
using detail::ConversionScope;
using detail::ResourceVersion;
using nlohmann::json;

namespace {

constexpr std::string_view kGroupPrefix = "resource.k8s.io/";

std::optional<ResourceVersion> parseVersion(std::string_view version)
{
    if (version == "v1")
        return ResourceVersion::V1;
    if (version == "v1beta2")
        return ResourceVersion::V1beta2;
    if (version == "v1beta1")
        return ResourceVersion::V1beta1;
    if (version == "v1alpha3")
        return ResourceVersion::V1alpha3;
    return std::nullopt;
}

std::optional<ResourceVersion> parseApiVersion(std::string_view apiVersion)
{
    if (!apiVersion.starts_with(kGroupPrefix))
        return std::nullopt;
    return parseVersion(apiVersion.substr(kGroupPrefix.size()));
}

// Whether `kind` is served in `version` by some Kubernetes release the console supports.
bool definedIn(std::string_view kind, ResourceVersion version)
{
    if (kind == "DeviceClass" || kind == "ResourceSlice" || kind == "ResourceClaim"
        || kind == "ResourceClaimTemplate")
        return true;
    if (kind == "DeviceTaintRule")
        return version != ResourceVersion::V1beta1;
    return false;
}

// Kinds that only ever existed in an alpha version, so there is nothing to convert them to.
bool isAlphaOnlyKind(std::string_view kind)
{
    return kind == "ResourcePoolStatusRequest" || kind == "PodSchedulingContext";
}

std::string describe(const json &object, std::string_view kind)
{
    std::string who(kind);
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object())
        return who;
    const auto name = meta->find("name");
    const auto ns = meta->find("namespace");
    if (name == meta->end() || !name->is_string())
        return who;
    who += ' ';
    // Only claims and templates are namespaced; the others name themselves cluster-wide.
    const bool namespaced = kind == "ResourceClaim" || kind == "ResourceClaimTemplate";
    if (namespaced && ns != meta->end() && ns->is_string()
        && !ns->get_ref<const std::string &>().empty())
        who += ns->get<std::string>() + '/';
    who += name->get<std::string>();
    return who;
}

// The claim spec of a ResourceClaimTemplate sits one level deeper, at spec.spec.
json *templateClaimSpec(json &object)
{
    const auto spec = object.find("spec");
    if (spec == object.end() || !spec->is_object())
        return nullptr;
    const auto inner = spec->find("spec");
    return inner == spec->end() ? nullptr : &*inner;
}

json *member(json &object, std::string_view key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

// Kubernetes 1.35 removed deviceClassName and selectors from DeviceTaintRule's selector; a rule
// still carrying them would select more devices than intended if they were dropped.
Result<void> checkTaintRule(const json &object, const ConversionScope &scope)
{
    const auto spec = object.find("spec");
    if (spec == object.end() || !spec->is_object())
        return {};
    const auto selector = spec->find("deviceSelector");
    if (selector == spec->end() || !selector->is_object())
        return {};
    for (const std::string_view key : { "deviceClassName", "selectors" }) {
        const auto it = selector->find(key);
        if (it != selector->end() && !it->is_null())
            return detail::notExpressible(scope, detail::childPath("spec.deviceSelector", key),
                "removed from DeviceTaintRule in Kubernetes 1.35");
    }
    return {};
}

Result<void> up(
    json &object, std::string_view kind, ResourceVersion from, const ConversionScope &scope)
{
    if (from == ResourceVersion::V1 || from == ResourceVersion::V1beta2)
        return {};
    const bool alpha = from == ResourceVersion::V1alpha3;
    if (kind == "DeviceClass") {
        json *spec = member(object, "spec");
        return spec && alpha ? detail::classSpecUpFromV1alpha3(*spec, scope) : Result<void> {};
    }
    if (kind == "ResourceSlice") {
        json *spec = member(object, "spec");
        return spec ? detail::sliceSpecUp(*spec, from, scope) : Result<void> {};
    }
    if (kind == "ResourceClaim") {
        if (json *spec = member(object, "spec")) {
            if (auto ok = detail::claimSpecUp(*spec, from, scope, "spec"); !ok)
                return ok;
        }
        json *status = member(object, "status");
        return status && alpha ? detail::claimStatusUpFromV1alpha3(*status, scope)
                               : Result<void> {};
    }
    if (kind == "ResourceClaimTemplate") {
        json *spec = templateClaimSpec(object);
        return spec ? detail::claimSpecUp(*spec, from, scope, "spec.spec") : Result<void> {};
    }
    return {}; // DeviceTaintRule: the same shape in every version that has it
}

Result<void> down(
    json &object, std::string_view kind, ResourceVersion to, const ConversionScope &scope)
{
    if (to == ResourceVersion::V1 || to == ResourceVersion::V1beta2)
        return {};
    if (to == ResourceVersion::V1alpha3) {
        if (auto ok = detail::checkExpressibleInV1alpha3(object, kind, scope); !ok)
            return ok;
    }
    if (kind == "ResourceSlice") {
        json *spec = member(object, "spec");
        return spec ? detail::sliceSpecDown(*spec, to, scope) : Result<void> {};
    }
    if (kind == "ResourceClaim") {
        json *spec = member(object, "spec");
        return spec ? detail::claimSpecDown(*spec, scope, "spec") : Result<void> {};
    }
    if (kind == "ResourceClaimTemplate") {
        json *spec = templateClaimSpec(object);
        return spec ? detail::claimSpecDown(*spec, scope, "spec.spec") : Result<void> {};
    }
    return {}; // DeviceClass and DeviceTaintRule keep their shape
}

// The error for an apiVersion that is not a known resource.k8s.io version; `direction` is "to"
// for the target and "from" for the object's own.
std::unexpected<Error> unknownVersion(
    const ConversionScope &scope, QLatin1String direction, std::string_view apiVersion)
{
    return fail(Error::Code::Unsupported,
        qs(scope.who) + QStringLiteral(": cannot convert ") + direction + QLatin1Char(' ')
            + qs(apiVersion) + QStringLiteral(", not a resource.k8s.io version DRA Console knows"));
}

} // namespace

bool isKnownResourceVersion(std::string_view version)
{
    return parseVersion(version).has_value();
}

Result<json> convertResourceObject(const json &object, std::string_view targetApiVersion)
{
    if (!object.is_object())
        return fail(
            Error::Code::Invalid, QStringLiteral("a resource.k8s.io object must be a JSON object"));
    const auto kindIt = object.find("kind");
    const auto apiVersionIt = object.find("apiVersion");
    if (kindIt == object.end() || !kindIt->is_string()
        || kindIt->get_ref<const std::string &>().empty())
        return fail(
            Error::Code::Invalid, QStringLiteral("object without kind cannot be converted"));
    const std::string &kind = kindIt->get_ref<const std::string &>();
    ConversionScope scope { describe(object, kind), std::string(targetApiVersion) };
    if (apiVersionIt == object.end() || !apiVersionIt->is_string())
        return fail(
            Error::Code::Invalid, qs(scope.who) + QStringLiteral(": apiVersion is missing"));
    const std::string &apiVersion = apiVersionIt->get_ref<const std::string &>();

    const std::optional<ResourceVersion> to = parseApiVersion(targetApiVersion);
    if (!to)
        return unknownVersion(scope, QLatin1String("to"), targetApiVersion);
    if (apiVersion == targetApiVersion)
        return object;
    const std::optional<ResourceVersion> from = parseApiVersion(apiVersion);
    if (!from)
        return unknownVersion(scope, QLatin1String("from"), apiVersion);
    if (!isAlphaOnlyKind(kind) && !definedIn(kind, ResourceVersion::V1))
        return fail(Error::Code::Unsupported,
            qs(scope.who)
                + QStringLiteral(": kind %1 of %2 is not one DRA Console converts")
                      .arg(qs(kind), qs(apiVersion)));
    const std::string_view missingIn = !isAlphaOnlyKind(kind) && !definedIn(kind, *from)
        ? std::string_view(apiVersion)
        : targetApiVersion;
    if (isAlphaOnlyKind(kind) || !definedIn(kind, *from) || !definedIn(kind, *to))
        return fail(Error::Code::Unsupported,
            qs(scope.who)
                + QStringLiteral(": kind %1 is not defined in %2").arg(qs(kind), qs(missingIn)));

    json converted = object;
    if (kind == "DeviceTaintRule") {
        if (auto ok = checkTaintRule(converted, scope); !ok)
            return std::unexpected(ok.error());
    }
    if (auto ok = up(converted, kind, *from, scope); !ok)
        return std::unexpected(ok.error());
    if (auto ok = down(converted, kind, *to, scope); !ok)
        return std::unexpected(ok.error());
    converted["apiVersion"] = std::string(targetApiVersion);
    return converted;
}

} // namespace dra::model
