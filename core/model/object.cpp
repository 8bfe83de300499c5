// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/object.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/model/conversion.h"
#include "core/model/decode_core.h"
#include "core/model/decode_resource.h"
#include "core/model/decode_support.h"
#include "core/model/decode_workload.h"

namespace dra::model {

using common::Error;
using common::qs;
using nlohmann::json;

namespace {

std::string describe(std::string_view kind, const ObjectMeta &meta)
{
    std::string out(kind);
    out += ' ';
    out += meta.ns.empty() ? meta.name : meta.ns + '/' + meta.name;
    return out;
}

// The versions of the groups besides resource.k8s.io that we read: core/v1, apps/v1, and the
// Gateway API's v1 and v1beta1 (HTTPRoute has the same shape in both).
bool isReadableVersion(std::string_view group, std::string_view version)
{
    if (group == kGatewayGroup)
        return version == "v1" || version == "v1beta1";
    return version == "v1";
}

ObjectBody decodeBody(Kind kind, const json &v1)
{
    using namespace detail;
    static const json empty = json::object();
    const json *spec = field(v1, "spec");
    const json &specOrEmpty = spec ? *spec : empty;
    ObjectBody body;
    within(spec ? "spec" : "", [&] {
        switch (kind) {
        case Kind::DeviceClass:
            body = decodeDeviceClass(specOrEmpty);
            break;
        case Kind::ResourceSlice:
            body = decodeResourceSlice(specOrEmpty);
            break;
        case Kind::ResourceClaimTemplate:
            body = decodeResourceClaimTemplate(specOrEmpty);
            break;
        case Kind::DeviceTaintRule:
            body = decodeDeviceTaintRule(specOrEmpty);
            break;
        default:
            break;
        }
    });
    switch (kind) {
    case Kind::ResourceClaim:
        body = decodeResourceClaim(v1);
        break;
    case Kind::Node:
        body = decodeNode(v1);
        break;
    case Kind::Pod:
        body = decodePod(v1);
        break;
    case Kind::Namespace:
        body = decodeNamespace(v1);
        break;
    case Kind::Event:
        body = decodeEvent(v1);
        break;
    case Kind::Deployment:
        body = decodeDeployment(v1);
        break;
    case Kind::ReplicaSet:
        body = decodeReplicaSet(v1);
        break;
    case Kind::DaemonSet:
        body = decodeDaemonSet(v1);
        break;
    case Kind::Service:
        body = decodeService(v1);
        break;
    case Kind::HTTPRoute:
        body = decodeHttpRoute(v1);
        break;
    default:
        break;
    }
    return body;
}

} // namespace

common::ObjectKey Object::key() const
{
    const KindInfo &kindFacts = info();
    return { std::string(kindFacts.group), std::string(kindFacts.name), meta.ns, meta.name };
}

Result<Object> decodeObject(const json &value)
{
    return decodeObject(json(value));
}

Result<Object> decodeObject(json &&value)
{
    if (!value.is_object())
        return fail(Error::Code::Invalid,
            QStringLiteral("expected an object, got %1").arg(qs(detail::typeName(value))));
    const json *apiVersionField = detail::field(value, "apiVersion");
    const json *kindField = detail::field(value, "kind");
    if (!apiVersionField || !apiVersionField->is_string() || !kindField || !kindField->is_string())
        return fail(Error::Code::Invalid, QStringLiteral("object without apiVersion and kind"));
    const std::string apiVersion = apiVersionField->get<std::string>();
    const std::string kindName = kindField->get<std::string>();

    Object object;
    object.apiVersion = apiVersion;
    try {
        object.meta = detail::decodeMeta(value);
    } catch (const detail::DecodeError &e) {
        return fail(Error::Code::Invalid,
            qs(describe(kindName, object.meta)) + QStringLiteral(": ") + qs(e.path)
                + QStringLiteral(": ") + qs(e.reason));
    }
    const std::string who = describe(kindName, object.meta);
    if (object.meta.name.empty())
        return fail(
            Error::Code::Invalid, qs(kindName) + QStringLiteral(": metadata.name is missing"));

    const KindInfo *info = kindOf(apiVersion, kindName);
    if (!info)
        return fail(Error::Code::Unsupported,
            qs(who)
                + QStringLiteral(": kind %1 of %2 is not one DRA Console reads")
                      .arg(qs(kindName), qs(apiVersion)));
    object.kind = info->kind;
    if (info->namespaced && object.meta.ns.empty())
        return fail(
            Error::Code::Invalid, qs(who) + QStringLiteral(": metadata.namespace is missing"));

    const auto [group, version] = splitApiVersion(apiVersion);
    std::optional<json> converted;
    // A kind that only exists in an alpha version is read as served, never converted.
    const bool alphaOnly = info->preferredVersion != "v1";
    if (alphaOnly && version != info->preferredVersion) {
        return fail(Error::Code::Unsupported,
            qs(who)
                + QStringLiteral(": %1 exists only as %2/%3")
                      .arg(qs(kindName), qs(group), qs(info->preferredVersion)));
    } else if (group == kResourceGroup && version != "v1" && !alphaOnly) {
        if (!isKnownResourceVersion(version))
            return fail(Error::Code::Unsupported,
                qs(who) + QStringLiteral(": API version %1 is not supported").arg(qs(apiVersion)));
        Result<json> v1 = convertResourceObject(value, "resource.k8s.io/v1");
        if (!v1)
            return fail(v1.error()); // conversion errors already name the object
        converted = std::move(*v1);
    } else if (!alphaOnly && !isReadableVersion(group, version)) {
        return fail(Error::Code::Unsupported,
            qs(who) + QStringLiteral(": API version %1 is not supported").arg(qs(apiVersion)));
    }

    try {
        object.body = decodeBody(object.kind, converted ? *converted : value);
    } catch (const detail::DecodeError &e) {
        return fail(Error::Code::Invalid,
            qs(who) + QStringLiteral(": ") + qs(e.path) + QStringLiteral(": ") + qs(e.reason));
    }
    object.raw = RawJson(std::move(value));
    return object;
}

Result<json> encodeObject(const Object &object, std::string_view apiVersion)
{
    if (!object.raw)
        return fail(Error::Code::Internal, qs(object.display()) + QStringLiteral(": no JSON kept"));
    if (apiVersion.empty() || apiVersion == object.apiVersion)
        return *object.raw;
    const auto [group, version] = splitApiVersion(apiVersion);
    const KindInfo &kindFacts = object.info();
    if (group != kindFacts.group)
        return fail(Error::Code::Invalid,
            qs(object.display()) + QStringLiteral(": cannot be written as %1").arg(qs(apiVersion)));
    if (group != kResourceGroup) {
        if (!isReadableVersion(group, version))
            return fail(Error::Code::Unsupported,
                qs(object.display()) + QStringLiteral(": %1 is not supported").arg(qs(apiVersion)));
        json out = *object.raw; // the versions we read of these groups share one shape
        out["apiVersion"] = apiVersion;
        return out;
    }
    Result<json> converted = convertResourceObject(*object.raw, apiVersion);
    return converted; // conversion errors already name the object
}

} // namespace dra::model
