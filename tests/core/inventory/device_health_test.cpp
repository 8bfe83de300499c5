// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Devices' status as drivers report it in claims, and their health as the kubelet reports it in
// pods, with the lint finding for an unhealthy device still allocated.
#include <gtest/gtest.h>

#include "core/inventory/device_health.h"
#include "core/inventory/lint.h"
#include "core/inventory/overview.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::inventory {
namespace {

using nlohmann::json;

// A pod whose container reports `health` for gpu.example.com/n1/`device` of claim `claim`.
json podReporting(const std::string &name, const std::string &claim, const std::string &device,
    const std::string &health)
{
    json pod = dra::test::podObject("ml", name);
    pod["status"]["containerStatuses"] = json::array({ { { "name", "main" },
        { "allocatedResourcesStatus",
            json::array({ { { "name", "claim:" + claim + "/gpu" },
                { "resources",
                    json::array({ { { "resourceID", "gpu.example.com/n1/" + device },
                        { "health", health } } }) } } }) } } });
    return pod;
}

TEST(DeviceHealthTest, ClaimsAndPodsSayHowTheirDevicesAre)
{
    json claim = dra::test::claimObject("ml", "train", "n1", { "gpu-0" }, { "trainer" });
    claim["status"]["devices"]
        = json::array({ { { "driver", "gpu.example.com" }, { "pool", "n1" }, { "device", "gpu-0" },
            { "conditions",
                json::array(
                    { { { "type", "Ready" }, { "status", "True" }, { "reason", "Prepared" } } }) },
            { "networkData",
                { { "interfaceName", "net1" }, { "ips", json::array({ "10.0.0.5/24" }) } } },
            { "data", { { "uuid", "GPU-1234" } } } } });
    const SnapshotPtr snapshot
        = dra::test::snapshotOf(dra::test::listOf({ dra::test::nodeObject("n1"),
            dra::test::sliceObject(
                "n1-gpus", "n1", { dra::test::gpuDevice("gpu-0"), dra::test::gpuDevice("gpu-1") }),
            claim, podReporting("trainer", "train", "gpu-0", "Unhealthy"),
            // A device no claim holds any more: reported, but nothing to warn about.
            podReporting("old", "gone", "gpu-1", "Unhealthy") }));

    const model::Object *train = snapshot->object(model::Kind::ResourceClaim, "ml", "train");
    ASSERT_NE(train, nullptr);
    const std::vector<ClaimDeviceStatus> statuses = claimDeviceStatuses(*train);
    ASSERT_EQ(statuses.size(), 1u);
    EXPECT_EQ(statuses[0].device, (DeviceKey { "gpu.example.com", "n1", "gpu-0" }));
    EXPECT_EQ(toJson(statuses[0])["conditions"][0]["reason"], "Prepared");
    EXPECT_EQ(toJson(statuses[0])["networkData"]["interfaceName"], "net1");
    EXPECT_EQ(toJson(statuses[0])["data"]["uuid"], "GPU-1234");

    const std::vector<DeviceHealthReport> reports = deviceHealthReports(*snapshot);
    const std::vector<DeviceHealthReport> gpu0
        = healthOf(reports, { "gpu.example.com", "n1", "gpu-0" });
    ASSERT_EQ(gpu0.size(), 1u);
    EXPECT_EQ(gpu0[0].health, "Unhealthy");
    EXPECT_EQ(gpu0[0].claim, "train");
    EXPECT_EQ(gpu0[0].request, "gpu");
    EXPECT_EQ(gpu0[0].container, "main");

    std::vector<std::string> unhealthy;
    for (const Finding &finding : lint(*snapshot))
        if (finding.code == "UnhealthyDeviceAllocated")
            unhealthy.push_back(finding.message);
    EXPECT_EQ(unhealthy,
        std::vector<std::string> { "device gpu.example.com/n1/gpu-0 is reported Unhealthy by pod "
                                   "ml/trainer (container main) and is still allocated to claim "
                                   "ml/train" });
}

TEST(DeviceHealthTest, EachNodeCountsItsUnhealthyDevicesOnce)
{
    const SnapshotPtr snapshot
        = dra::test::snapshotOf(dra::test::listOf({ dra::test::nodeObject("n1"),
            dra::test::sliceObject(
                "n1-gpus", "n1", { dra::test::gpuDevice("gpu-0"), dra::test::gpuDevice("gpu-1") }),
            // Two containers report gpu-0 unhealthy; gpu-1 is healthy to one, unknown to another.
            podReporting("a", "train", "gpu-0", "Unhealthy"),
            podReporting("b", "train", "gpu-0", "Unhealthy"),
            podReporting("c", "infer", "gpu-1", "Healthy"),
            podReporting("d", "infer", "gpu-1", "Unknown") }));
    const std::vector<DeviceHealthReport> reports = deviceHealthReports(*snapshot);
    EXPECT_EQ(
        unhealthyDevicesByNode(*snapshot, reports), (std::map<std::string, int> { { "n1", 1 } }));
    EXPECT_EQ(worstHealth(healthOf(reports, { "gpu.example.com", "n1", "gpu-1" })), "Unknown");
    EXPECT_EQ(worstHealth({}), "");
    EXPECT_EQ(healthLine(reports[0]), "ml/a container main: Unhealthy (claim train, request gpu)");
    // The node's tile says so, desktop and web alike.
    const std::vector<NodeOverview> nodes = nodeOverviews(*snapshot);
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes[0].unhealthyDevices, 1);
}

TEST(DeviceHealthTest, ResourceIdsNameDriverPoolAndDevice)
{
    EXPECT_EQ(parseResourceId("gpu.nvidia.com/pool/with/slashes/gpu-0"),
        (DeviceKey { "gpu.nvidia.com", "pool/with/slashes", "gpu-0" }));
    EXPECT_FALSE(parseResourceId("gpu.nvidia.com/gpu-0"));
    EXPECT_FALSE(parseResourceId("nvidia.com/gpu"));
}

} // namespace
} // namespace dra::inventory
