// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/demo_ages.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {
namespace {

using nlohmann::json;

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

std::string textAt(const json &object, const char *section, const char *field)
{
    const auto s = object.find(section);
    if (s == object.end() || !s->is_object())
        return {};
    const auto f = s->find(field);
    return f != s->end() && f->is_string() ? f->get<std::string>() : std::string();
}

// A stable fraction in [0, 1) for an object: the same object is always as old.
double fractionOf(const std::string &kind, const std::string &ns, const std::string &name)
{
    const size_t hash = std::hash<std::string> {}(kind + '/' + ns + '/' + name);
    return double(hash % 10007) / 10007.0;
}

// How far back objects of `kind` were made: [oldest, newest] before now.
std::pair<int64_t, int64_t> spanOf(const std::string &kind)
{
    if (kind == "Namespace" || kind == "DeviceClass" || kind == "Node"
        || kind == "CustomResourceDefinition")
        return { 90 * kDay, 20 * kDay };
    if (kind == "ResourceSlice")
        return { 19 * kDay, 2 * kDay }; // republished when a driver restarts
    if (kind == "Deployment" || kind == "ReplicaSet" || kind == "ResourceClaimTemplate"
        || kind == "Service" || kind == "StatefulSet" || kind == "Job")
        return { 6 * kDay, 3 * kHour };
    return { 30 * kDay, 1 * kDay };
}

void setTime(json &object, const char *section, const char *field, int64_t ms)
{
    auto s = object.find(section);
    if (s != object.end() && s->is_object() && s->contains(field))
        (*s)[field] = kubeTime(ms);
}

} // namespace

void dateDemoObjects(json &items, int64_t nowMs)
{
    if (!items.is_array())
        return;
    // Pods and claims: ranked by name, the first oldest, at most a few hours back.
    std::map<std::string, std::set<std::string>> recentNames; // kind -> names
    for (const json &item : items) {
        const std::string kind = item.value("kind", "");
        if (kind == "Pod" || kind == "ResourceClaim")
            recentNames[kind].insert(textAt(item, "metadata", "name"));
    }
    const auto recentAge = [&](const std::string &kind, const std::string &name) {
        const std::set<std::string> &names = recentNames[kind];
        const auto rank = int64_t(std::distance(names.begin(), names.find(name)));
        const int64_t count = int64_t(names.size());
        const int64_t step
            = std::clamp<int64_t>(5 * kHour / std::max<int64_t>(count, 1), 1000, 7 * kMinute);
        return 2 * kMinute + (count - 1 - rank) * step;
    };

    for (json &item : items) {
        if (!item.is_object() || !item.contains("metadata"))
            continue;
        const std::string kind = item.value("kind", "");
        const std::string name = textAt(item, "metadata", "name");
        const std::string ns = textAt(item, "metadata", "namespace");
        int64_t age = 0;
        if (kind == "Pod" || kind == "ResourceClaim") {
            age = recentAge(kind, name);
        } else {
            const auto [oldest, newest] = spanOf(kind);
            age = newest + int64_t(fractionOf(kind, ns, name) * double(oldest - newest));
        }
        const int64_t created = nowMs - age;
        item["metadata"]["creationTimestamp"] = kubeTime(created);
        if (kind == "Pod")
            setTime(item, "status", "startTime", created + 4000);
        if (kind == "ResourceClaim" && item.contains("status")
            && item["status"].contains("allocation"))
            setTime(item["status"], "allocation", "allocationTimestamp", created + 1000);
        if (kind == "Node" && item.contains("status") && item["status"].contains("conditions"))
            for (json &condition : item["status"]["conditions"]) {
                if (condition.contains("lastHeartbeatTime"))
                    condition["lastHeartbeatTime"] = kubeTime(nowMs - 10 * 1000);
                if (condition.contains("lastTransitionTime"))
                    condition["lastTransitionTime"] = kubeTime(created + 60 * 1000);
            }
    }
}

} // namespace dra::sandbox
