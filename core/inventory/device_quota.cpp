// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_quota.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/model/quantity.h"

namespace dra::inventory {

namespace {

constexpr std::string_view kClassQuotaSuffix = ".deviceclass.resource.k8s.io/devices";
constexpr std::string_view kRequestsPrefix = "requests.";

// What a request of `spec` may take at most: its count, or the worst case of All.
int64_t devicesOf(const model::DeviceRequestSpec &spec)
{
    if (spec.allocationMode == "ExactCount")
        return spec.count;
    if (spec.allocationMode == "All")
        return kAllocationResultsMaxSize;
    return 0; // a mode this release does not know is not charged, as upstream's evaluator does
}

// extendedResourceName -> class, for the classes that have one.
std::map<std::string, std::string> extendedResources(const Snapshot &snapshot)
{
    std::map<std::string, std::string> out;
    for (const auto &object : snapshot.objects(model::Kind::DeviceClass))
        if (const auto *deviceClass = object->as<model::DeviceClass>();
            deviceClass && !deviceClass->extendedResourceName.empty())
            out.emplace(deviceClass->extendedResourceName, object->meta.name);
    return out;
}

std::optional<int64_t> quantityValue(const nlohmann::json &text)
{
    if (!text.is_string())
        return std::nullopt;
    Result<model::Quantity> quantity = model::Quantity::parse(text.get<std::string>());
    if (!quantity)
        return std::nullopt;
    return quantity->value();
}

// claimQuotaUsage() with the classes' extended resources read once by the caller.
std::map<std::string, int64_t> usageOf(
    const model::ResourceClaimSpec &spec, const std::map<std::string, std::string> &classOfExtended)
{
    std::map<std::string, int64_t> byClass;
    for (const model::DeviceRequest &request : spec.requests) {
        if (request.exactly) {
            byClass[request.exactly->deviceClassName] += devicesOf(*request.exactly);
            continue;
        }
        // One of the subrequests is allocated: charge each class the most any may take.
        std::map<std::string, int64_t> most;
        for (const model::DeviceRequestSpec &sub : request.firstAvailable)
            most[sub.deviceClassName] = std::max(most[sub.deviceClassName], devicesOf(sub));
        for (const auto &[className, devices] : most)
            byClass[className] += devices;
    }
    std::map<std::string, int64_t> usage { { std::string(kClaimCountQuota), 1 } };
    for (const auto &[className, devices] : byClass) {
        usage[classDevicesQuota(className)] += devices;
        for (const auto &[extended, ofClass] : classOfExtended)
            if (ofClass == className)
                usage[std::string(kRequestsPrefix) + extended] += devices;
    }
    return usage;
}

} // namespace

std::string classDevicesQuota(std::string_view className)
{
    return std::string(className) + std::string(kClassQuotaSuffix);
}

std::string quotaClass(std::string_view quotaName)
{
    if (!quotaName.ends_with(kClassQuotaSuffix))
        return {};
    return std::string(quotaName.substr(0, quotaName.size() - kClassQuotaSuffix.size()));
}

std::map<std::string, int64_t> claimQuotaUsage(
    const model::ResourceClaimSpec &spec, const Snapshot &snapshot)
{
    return usageOf(spec, extendedResources(snapshot));
}

std::vector<DeviceQuota> deviceQuotas(const Snapshot &snapshot, std::string_view ns)
{
    const std::map<std::string, std::string> classOfExtended = extendedResources(snapshot);
    // What each namespace's claims are charged now.
    std::map<std::string, std::map<std::string, int64_t>> usedIn;
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaim)) {
        const auto *claim = object->as<model::ResourceClaim>();
        if (!claim || (!ns.empty() && object->meta.ns != ns))
            continue;
        for (const auto &[resource, amount] : usageOf(claim->spec, classOfExtended))
            usedIn[object->meta.ns][resource] += amount;
    }
    std::vector<DeviceQuota> quotas;
    for (const auto &object : snapshot.objects(model::Kind::ResourceQuota)) {
        if (!object->raw || (!ns.empty() && object->meta.ns != ns))
            continue;
        const nlohmann::json hard = object->raw->value(
            nlohmann::json::json_pointer("/spec/hard"), nlohmann::json::object());
        const nlohmann::json reported = object->raw->value(
            nlohmann::json::json_pointer("/status/used"), nlohmann::json::object());
        DeviceQuota quota { object->meta.ns, object->meta.name, {} };
        for (const auto &[resource, limit] : hard.items()) {
            std::string className = quotaClass(resource);
            if (className.empty() && resource.starts_with(kRequestsPrefix)) {
                const auto extended = classOfExtended.find(resource.substr(kRequestsPrefix.size()));
                if (extended != classOfExtended.end())
                    className = extended->second;
            }
            if (className.empty() && resource != kClaimCountQuota)
                continue;
            const std::optional<int64_t> hardValue = quantityValue(limit);
            if (!hardValue)
                continue;
            const auto &used = usedIn[object->meta.ns];
            const auto usedHere = used.find(resource);
            quota.lines.push_back({ resource, className, *hardValue,
                usedHere == used.end() ? 0 : usedHere->second,
                reported.contains(resource) ? quantityValue(reported[resource]) : std::nullopt });
        }
        if (!quota.lines.empty())
            quotas.push_back(std::move(quota));
    }
    std::sort(quotas.begin(), quotas.end(), [](const DeviceQuota &a, const DeviceQuota &b) {
        return std::tie(a.ns, a.name) < std::tie(b.ns, b.name);
    });
    return quotas;
}

std::vector<QuotaExcess> quotaExcess(const Snapshot &snapshot, std::string_view ns,
    const std::map<std::string, int64_t> &usage, int64_t claims)
{
    std::vector<QuotaExcess> out;
    for (const DeviceQuota &quota : deviceQuotas(snapshot, ns)) {
        for (const QuotaLine &line : quota.lines) {
            const auto charged = usage.find(line.resource);
            if (charged == usage.end() || charged->second == 0)
                continue;
            const int64_t requested = charged->second * claims;
            if (line.used + requested <= line.hard)
                continue;
            const std::string r = line.resource;
            out.push_back({ quota.name, r, requested, line.used, line.hard,
                "exceeded quota: " + quota.name + ", requested: " + r + "="
                    + std::to_string(requested) + ", used: " + r + "=" + std::to_string(line.used)
                    + ", limited: " + r + "=" + std::to_string(line.hard) });
        }
    }
    return out;
}

nlohmann::json quotasJson(const Snapshot &snapshot, const std::vector<DeviceQuota> &quotas)
{
    nlohmann::json list = nlohmann::json::array();
    for (const DeviceQuota &quota : quotas) {
        nlohmann::json lines = nlohmann::json::array();
        for (const QuotaLine &line : quota.lines) {
            nlohmann::json entry = { { "resource", line.resource }, { "hard", line.hard },
                { "used", line.used }, { "blocked", line.hard == 0 && !line.className.empty() } };
            if (!line.className.empty())
                entry["class"] = line.className;
            if (line.reported)
                entry["reported"] = *line.reported;
            lines.push_back(std::move(entry));
        }
        list.push_back(
            { { "namespace", quota.ns }, { "name", quota.name }, { "lines", std::move(lines) } });
    }
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "quotas", std::move(list) } };
}

nlohmann::json toJson(const QuotaExcess &excess)
{
    return { { "quota", excess.quota }, { "resource", excess.resource },
        { "requested", excess.requested }, { "used", excess.used }, { "hard", excess.hard },
        { "message", excess.message } };
}

} // namespace dra::inventory
