// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/inventory/snapshot.h"
#include "core/model/resource_types.h"

namespace dra::inventory {

// The resource names Kubernetes' ResourceClaim quota evaluator charges.
inline constexpr std::string_view kClaimCountQuota = "count/resourceclaims.resource.k8s.io";
// The devices one request of allocation mode All may get (resource.k8s.io's
// AllocationResultsMaxSize): what such a request is charged, as the worst case.
inline constexpr int64_t kAllocationResultsMaxSize = 32;

// "gpu.nvidia.com.deviceclass.resource.k8s.io/devices": the quota of a class's devices.
std::string classDevicesQuota(std::string_view className);
// The class a quota name limits ("gpu.nvidia.com"), or empty when it is no class quota.
std::string quotaClass(std::string_view quotaName);

// What one ResourceClaim with `spec` is charged, as the quota evaluator counts it: one claim
// (kClaimCountQuota); per request its class's devices (ExactCount: the count, All:
// kAllocationResultsMaxSize; admin access counts the same); for firstAvailable, per class the
// most any subrequest of the request may take. A class with an extendedResourceName (in
// `snapshot`) charges `requests.<that name>` as well, so that its devices count against the
// same quota as the device plugin's.
std::map<std::string, int64_t> claimQuotaUsage(
    const model::ResourceClaimSpec &spec, const Snapshot &snapshot);

// One limit of a ResourceQuota that the claims of its namespace are charged against.
struct QuotaLine
{
    std::string resource; // the quota name
    std::string className; // for a class's devices (or its extended resource), else empty
    int64_t hard = 0;
    int64_t used = 0; // counted from the namespace's claims now
    std::optional<int64_t> reported; // status.used, as the cluster's quota controller said
};

// The lines of one ResourceQuota that DRA claims are charged against.
struct DeviceQuota
{
    std::string ns, name;
    std::vector<QuotaLine> lines;
};

// Every ResourceQuota of `snapshot` (of namespace `ns` when given) with its DRA lines, used
// counted from the claims there; quotas without such lines are left out. Sorted by namespace,
// then name.
std::vector<DeviceQuota> deviceQuotas(const Snapshot &snapshot, std::string_view ns = {});

// A limit that `claims` more claims charged `usage` would pass in `ns`, worded as kube-apiserver
// refuses the create: `exceeded quota: NAME, requested: R=N, used: R=U, limited: R=H`.
struct QuotaExcess
{
    std::string quota, resource;
    int64_t requested = 0, used = 0, hard = 0;
    std::string message;
};
std::vector<QuotaExcess> quotaExcess(const Snapshot &snapshot, std::string_view ns,
    const std::map<std::string, int64_t> &usage, int64_t claims = 1);

// `dractl quota -o json`: {cluster, rev, quotas[{namespace, name, lines[{resource, class?,
// hard, used, reported?, blocked}]}]} (`blocked`: a hard limit of 0 keeps the class out).
nlohmann::json quotasJson(const Snapshot &snapshot, const std::vector<DeviceQuota> &quotas);
nlohmann::json toJson(const QuotaExcess &excess);

} // namespace dra::inventory
