// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/object_intake.h"

#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"

namespace dra::kube {

namespace {

std::string stringAt(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

Result<model::ObjectRecord> intakeObject(
    nlohmann::json &&object, const model::KindInfo &kind, const std::string &apiVersion)
{
    if (!object.is_object())
        return fail(common::Error::Code::Parse,
            common::qs(kind.name) + QStringLiteral(": not a JSON object"));
    if (stringAt(object, "kind").empty())
        object["kind"] = kind.name;
    if (stringAt(object, "apiVersion").empty())
        object["apiVersion"] = apiVersion;
    if (kind.kind == model::Kind::Pod || kind.kind == model::Kind::Event) {
        if (auto metadata = object.find("metadata");
            metadata != object.end() && metadata->is_object())
            metadata->erase("managedFields");
    }
    Result<model::Object> decoded = model::decodeObject(std::move(object));
    if (!decoded)
        return fail(decoded.error());
    return model::toRecord(*decoded);
}

std::optional<common::ObjectKey> objectKeyOf(
    const nlohmann::json &object, const model::KindInfo &kind)
{
    if (!object.is_object())
        return std::nullopt;
    const auto metadata = object.find("metadata");
    if (metadata == object.end() || !metadata->is_object())
        return std::nullopt;
    const std::string name = stringAt(*metadata, "name");
    if (name.empty())
        return std::nullopt;
    return common::ObjectKey { std::string(kind.group), std::string(kind.name),
        kind.namespaced ? stringAt(*metadata, "namespace") : std::string(), name };
}

bool mirrorKeeps(const nlohmann::json &object, const model::KindInfo &kind)
{
    if (kind.kind != model::Kind::Event)
        return true;
    const auto involved = object.find("involvedObject");
    if (involved == object.end() || !involved->is_object())
        return false;
    const std::string involvedKind = stringAt(*involved, "kind");
    if (involvedKind == "Pod")
        return true;
    const std::string apiVersion = stringAt(*involved, "apiVersion");
    return apiVersion.starts_with(std::string(model::kResourceGroup) + "/");
}

} // namespace dra::kube
