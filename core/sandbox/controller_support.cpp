// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/controller_support.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QUuid>

namespace dra::sandbox {

using nlohmann::json;

namespace {

// Kubernetes' rand.String alphabet: no vowels, so generated names spell no words.
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";

} // namespace

std::string kubeTime(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toStdString();
}

std::string newObjectUid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
}

std::string randomNameSuffix(int length)
{
    std::string out;
    for (int i = 0; i < length; ++i)
        out += kSuffixAlphabet[QRandomGenerator::global()->bounded(int(kSuffixAlphabet.size()))];
    return out;
}

std::string stableNameSuffix(const std::string &text, int length)
{
    uint64_t hash = 14695981039346656037ull; // FNV-1a, as Kubernetes hashes pod templates
    for (unsigned char c : text)
        hash = (hash ^ c) * 1099511628211ull;
    std::string out;
    for (int i = 0; i < length; ++i) {
        out += kSuffixAlphabet[hash % kSuffixAlphabet.size()];
        hash = hash / kSuffixAlphabet.size() + (hash << 7) + 0x9e3779b97f4a7c15ull;
    }
    return out;
}

json newObject(const char *apiVersion, const char *kind, const std::string &ns,
    const std::string &name, int64_t nowMs)
{
    json meta
        = { { "name", name }, { "uid", newObjectUid() }, { "creationTimestamp", kubeTime(nowMs) } };
    if (!ns.empty())
        meta["namespace"] = ns;
    return { { "apiVersion", apiVersion }, { "kind", kind }, { "metadata", std::move(meta) } };
}

json controllerReference(const json &owner)
{
    return { { "apiVersion", owner.value("apiVersion", "") }, { "kind", owner.value("kind", "") },
        { "name", textAt(owner, "/metadata/name") }, { "uid", textAt(owner, "/metadata/uid") },
        { "controller", true }, { "blockOwnerDeletion", true } };
}

const json *controllerOf(const json &object)
{
    const json::json_pointer pointer("/metadata/ownerReferences");
    if (!object.contains(pointer) || !object[pointer].is_array())
        return nullptr;
    for (const json &reference : object[pointer]) {
        if (reference.is_object() && reference.value("controller", false))
            return &reference;
    }
    return nullptr;
}

bool controlledBy(const json &object, const json &owner)
{
    const json *reference = controllerOf(object);
    if (!reference || reference->value("kind", "") != owner.value("kind", "")
        || reference->value("name", "") != textAt(owner, "/metadata/name"))
        return false;
    const std::string uid = reference->value("uid", ""), ownerUid = textAt(owner, "/metadata/uid");
    return uid.empty() || ownerUid.empty() || uid == ownerUid;
}

std::string textAt(const json &object, const char *pointer)
{
    const json::json_pointer path(pointer);
    if (!object.contains(path))
        return {};
    const json &value = object[path];
    return value.is_string() ? value.get<std::string>() : std::string();
}

int64_t numberAt(const json &object, const char *pointer, int64_t fallback)
{
    const json::json_pointer path(pointer);
    if (!object.contains(path))
        return fallback;
    const json &value = object[path];
    return value.is_number_integer() ? value.get<int64_t>() : fallback;
}

void setCondition(json &status, const std::string &type, bool value, const std::string &reason,
    const std::string &message, const std::string &now)
{
    json &conditions = status["conditions"];
    if (!conditions.is_array())
        conditions = json::array();
    const std::string text = value ? "True" : "False";
    for (json &condition : conditions) {
        if (condition.value("type", "") != type)
            continue;
        if (condition.value("status", "") != text)
            condition["lastTransitionTime"] = now;
        condition["status"] = text;
        if (reason.empty())
            condition.erase("reason");
        else
            condition["reason"] = reason;
        if (message.empty())
            condition.erase("message");
        else
            condition["message"] = message;
        return;
    }
    json condition = { { "type", type }, { "status", text }, { "lastTransitionTime", now } };
    if (!reason.empty())
        condition["reason"] = reason;
    if (!message.empty())
        condition["message"] = message;
    conditions.push_back(std::move(condition));
}

const json *findCondition(const json &object, const std::string &type)
{
    const json::json_pointer path("/status/conditions");
    if (!object.contains(path) || !object[path].is_array())
        return nullptr;
    for (const json &condition : object[path]) {
        if (condition.is_object() && condition.value("type", "") == type)
            return &condition;
    }
    return nullptr;
}

bool conditionTrue(const json &object, const std::string &type)
{
    const json *condition = findCondition(object, type);
    return condition && condition->value("status", "") == "True";
}

} // namespace dra::sandbox
