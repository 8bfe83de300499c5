// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Device quotas counted as Kubernetes' ResourceClaim quota evaluator counts them.
#include <gtest/gtest.h>

#include "core/inventory/device_quota.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::inventory {
namespace {

using nlohmann::json;

json quotaObject(const std::string &ns, json hard, json used = nullptr)
{
    json quota = { { "apiVersion", "v1" }, { "kind", "ResourceQuota" },
        { "metadata", { { "namespace", ns }, { "name", "devices" } } },
        { "spec", { { "hard", std::move(hard) } } } };
    if (!used.is_null())
        quota["status"] = { { "used", std::move(used) } };
    return quota;
}

// A claim whose spec.devices.requests are `requests`.
json claimWith(const std::string &ns, const std::string &name, json requests)
{
    json claim = dra::test::claimObject(ns, name, "", {}, {});
    claim["spec"]["devices"]["requests"] = std::move(requests);
    return claim;
}

json exactly(const std::string &name, const std::string &className, json more = json::object())
{
    json spec = { { "deviceClassName", className } };
    spec.update(more);
    return { { "name", name }, { "exactly", std::move(spec) } };
}

TEST(DeviceQuotaTest, ClaimsAreChargedAsTheQuotaEvaluatorChargesThem)
{
    json gpuClass = dra::test::deviceClass("gpu.example.com", "true");
    gpuClass["spec"]["extendedResourceName"] = "example.com/gpu";
    const SnapshotPtr snapshot = dra::test::snapshotOf(
        dra::test::listOf({ gpuClass, dra::test::deviceClass("mig.example.com", "true"),
            claimWith("ml", "two", { exactly("gpu", "gpu.example.com", { { "count", 2 } }) }),
            // All: the most one request can get. Admin access is charged the same.
            claimWith("ml", "all",
                { exactly("gpu", "gpu.example.com",
                    { { "allocationMode", "All" }, { "adminAccess", true } }) }),
            // firstAvailable: per class, the most any subrequest may take.
            claimWith("ml", "either",
                { { { "name", "gpu" },
                    { "firstAvailable",
                        { { { "name", "big" }, { "deviceClassName", "gpu.example.com" },
                              { "count", 1 } },
                            { { "name", "slices" }, { "deviceClassName", "mig.example.com" },
                                { "count", 3 } },
                            { { "name", "small" }, { "deviceClassName", "mig.example.com" },
                                { "count", 2 } } } } } }),
            claimWith("other", "elsewhere", { exactly("gpu", "gpu.example.com") }),
            quotaObject("ml",
                { { "gpu.example.com.deviceclass.resource.k8s.io/devices", "40" },
                    { "mig.example.com.deviceclass.resource.k8s.io/devices", "0" },
                    { "requests.example.com/gpu", "100" },
                    { "count/resourceclaims.resource.k8s.io", "3" }, { "pods", "10" } },
                { { "gpu.example.com.deviceclass.resource.k8s.io/devices", "35" } }) }));

    const std::vector<DeviceQuota> quotas = deviceQuotas(*snapshot);
    ASSERT_EQ(quotas.size(), 1u);
    EXPECT_EQ(quotas[0].ns, "ml");
    std::map<std::string, QuotaLine> lines;
    for (const QuotaLine &line : quotas[0].lines)
        lines[line.resource] = line;
    EXPECT_FALSE(lines.contains("pods")) << "not charged by claims";
    const QuotaLine &gpus = lines["gpu.example.com.deviceclass.resource.k8s.io/devices"];
    EXPECT_EQ(gpus.className, "gpu.example.com");
    EXPECT_EQ(gpus.used, 2 + kAllocationResultsMaxSize + 1);
    EXPECT_EQ(gpus.hard, 40);
    EXPECT_EQ(gpus.reported, 35);
    EXPECT_EQ(lines["mig.example.com.deviceclass.resource.k8s.io/devices"].used, 3);
    EXPECT_EQ(lines["requests.example.com/gpu"].used, 2 + kAllocationResultsMaxSize + 1);
    EXPECT_EQ(lines["requests.example.com/gpu"].className, "gpu.example.com");
    EXPECT_EQ(lines["count/resourceclaims.resource.k8s.io"].used, 3);
    EXPECT_FALSE(lines["count/resourceclaims.resource.k8s.io"].reported);

    const json document = quotasJson(*snapshot, quotas);
    bool blocked = false;
    for (const json &line : document["quotas"][0]["lines"])
        if (line["resource"] == "mig.example.com.deviceclass.resource.k8s.io/devices")
            blocked = line["blocked"].get<bool>();
    EXPECT_TRUE(blocked) << document.dump();

    // One more claim of 6 GPUs passes the GPU limit (35 + 6 > 40) and the claim count, as the API
    // server would say when it refuses it.
    model::DeviceRequest request;
    request.name = "gpu";
    request.exactly.emplace();
    request.exactly->name = "gpu";
    request.exactly->deviceClassName = "gpu.example.com";
    request.exactly->count = 6;
    model::ResourceClaimSpec six;
    six.requests.push_back(request);
    const std::vector<QuotaExcess> over
        = quotaExcess(*snapshot, "ml", claimQuotaUsage(six, *snapshot));
    std::vector<std::string> messages;
    for (const QuotaExcess &excess : over)
        messages.push_back(excess.message);
    EXPECT_EQ(messages,
        (std::vector<std::string> { "exceeded quota: devices, requested: "
                                    "count/resourceclaims.resource.k8s.io=1, used: "
                                    "count/resourceclaims.resource.k8s.io=3, limited: "
                                    "count/resourceclaims.resource.k8s.io=3",
            "exceeded quota: devices, requested: "
            "gpu.example.com.deviceclass.resource.k8s.io/devices=6, used: "
            "gpu.example.com.deviceclass.resource.k8s.io/devices=35, limited: "
            "gpu.example.com.deviceclass.resource.k8s.io/devices=40" }));
    EXPECT_TRUE(quotaExcess(*snapshot, "other", claimQuotaUsage(six, *snapshot)).empty())
        << "a namespace without a quota is not limited";
}

TEST(DeviceQuotaTest, QuotaNamesNameTheirClass)
{
    EXPECT_EQ(
        classDevicesQuota("gpu.nvidia.com"), "gpu.nvidia.com.deviceclass.resource.k8s.io/devices");
    EXPECT_EQ(quotaClass("gpu.nvidia.com.deviceclass.resource.k8s.io/devices"), "gpu.nvidia.com");
    EXPECT_EQ(quotaClass("requests.nvidia.com/gpu"), "");
}

} // namespace
} // namespace dra::inventory
