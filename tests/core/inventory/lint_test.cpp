// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/lint.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/inventory_fixtures.h"

using namespace dra;
using namespace dra::inventory;
using dra::test::claimObject;
using dra::test::counters;
using dra::test::deviceClass;
using dra::test::gpuDevice;
using dra::test::json;
using dra::test::listOf;
using dra::test::nodeObject;
using dra::test::podObject;
using dra::test::sliceObject;

namespace {

std::vector<Finding> findingsOf(const std::vector<json> &items)
{
    return lint(*test::snapshotOf(listOf(items)));
}

std::vector<Finding> withCode(const std::vector<Finding> &findings, const std::string &code)
{
    std::vector<Finding> out;
    for (const Finding &finding : findings)
        if (finding.code == code)
            out.push_back(finding);
    return out;
}

bool names(const Finding &finding, const std::string &kind, const std::string &name)
{
    return std::ranges::any_of(finding.objects,
        [&](const common::ObjectKey &key) { return key.kind == kind && key.name == name; });
}

std::string listed(const std::vector<Finding> &findings)
{
    std::string text;
    for (const Finding &finding : findings)
        text += std::string(severityName(finding.severity)) + " " + finding.code + ": "
            + finding.message + "\n";
    return text;
}

} // namespace

// The mixed preset has every shape of the demo cluster: H100 with NICs, A100 MIG, L40S and
// device-plugin nodes.
TEST(LintTest, TheDemoClusterHasOnlyInformation)
{
    const std::vector<Finding> findings = lint(*test::sharedPresetSnapshot("mixed"));
    for (const Finding &finding : findings)
        EXPECT_EQ(finding.severity, Severity::Info) << finding.code << ": " << finding.message;
    // The driver installs classes (vfio, compute domains) the demo cluster has no devices for;
    // nothing requests them.
    const std::vector<Finding> classes = withCode(findings, "ClassMatchesNoDevice");
    ASSERT_FALSE(classes.empty()) << listed(findings);
    for (const Finding &finding : classes) {
        ASSERT_EQ(finding.objects.size(), 1u);
        EXPECT_EQ(finding.objects[0].kind, "DeviceClass");
    }
    EXPECT_TRUE(std::ranges::any_of(
        classes, [](const Finding &f) { return names(f, "DeviceClass", "vfio.gpu.nvidia.com"); }));
}

TEST(LintTest, IncompleteAndInconsistentPools)
{
    const std::vector<Finding> findings = findingsOf({
        sliceObject("a-1", "a", { gpuDevice("gpu-0") }, 1, 2),
        sliceObject("b-1", "b", { gpuDevice("gpu-0") }, 1, 2),
        sliceObject("b-2", "b", { gpuDevice("gpu-1") }, 1, 3),
        sliceObject("c-1", "c", { gpuDevice("gpu-0") }, 1, 2),
        sliceObject("c-2", "c", { gpuDevice("gpu-0") }, 1, 2),
        sliceObject("d-old", "d", { gpuDevice("gpu-0") }, 1, 1),
        sliceObject("d-new", "d", { gpuDevice("gpu-0") }, 2, 1),
    });
    const auto incomplete = withCode(findings, "PoolIncomplete");
    ASSERT_EQ(incomplete.size(), 1u) << listed(findings);
    EXPECT_EQ(incomplete[0].severity, Severity::Warning);
    EXPECT_TRUE(names(incomplete[0], "ResourceSlice", "a-1"));
    EXPECT_NE(incomplete[0].message.find("1 of 2"), std::string::npos) << incomplete[0].message;

    const auto mismatch = withCode(findings, "PoolSliceCountMismatch");
    ASSERT_EQ(mismatch.size(), 1u) << listed(findings);
    EXPECT_EQ(mismatch[0].severity, Severity::Error);
    EXPECT_TRUE(
        names(mismatch[0], "ResourceSlice", "b-1") && names(mismatch[0], "ResourceSlice", "b-2"));

    const auto duplicate = withCode(findings, "PoolDuplicateDevice");
    ASSERT_EQ(duplicate.size(), 1u) << listed(findings);
    EXPECT_NE(duplicate[0].message.find("gpu.example.com/c"), std::string::npos);
    EXPECT_NE(duplicate[0].message.find("gpu-0"), std::string::npos);

    const auto stale = withCode(findings, "PoolStaleSlices");
    ASSERT_EQ(stale.size(), 1u) << listed(findings);
    EXPECT_EQ(stale[0].severity, Severity::Info);
    EXPECT_TRUE(names(stale[0], "ResourceSlice", "d-old"));
    EXPECT_EQ(findings.front().severity, Severity::Error) << "errors come first";
}

TEST(LintTest, CounterSetsDuplicatedOrMissing)
{
    const json set
        = { { "name", "gpu-0-set" }, { "counters", counters({ { "memory", "80Gi" } }) } };
    const json consumer = gpuDevice("gpu-0", json::object(),
        { { "consumesCounters",
            { { { "counterSet", "elsewhere" },
                { "counters", counters({ { "memory", "1Gi" } }) } } } } });
    const std::vector<Finding> findings = findingsOf({
        sliceObject("a-1", "a", {}, 1, 2, "a", { { "sharedCounters", { set } } }),
        sliceObject("a-2", "a", { consumer }, 1, 2, "a", { { "sharedCounters", { set } } }),
    });
    const auto duplicate = withCode(findings, "PoolDuplicateCounterSet");
    ASSERT_EQ(duplicate.size(), 1u) << listed(findings);
    EXPECT_NE(duplicate[0].message.find("gpu-0-set"), std::string::npos);
    const auto missing = withCode(findings, "CounterSetMissing");
    ASSERT_EQ(missing.size(), 1u) << listed(findings);
    EXPECT_NE(missing[0].message.find("elsewhere"), std::string::npos);
    EXPECT_TRUE(names(missing[0], "ResourceSlice", "a-2"));
}

TEST(LintTest, MigDevicesBesideTheirWholeGpuWithoutSharedCounters)
{
    const json gpu = gpuDevice("gpu-0", { { "uuid", { { "string", "GPU-A" } } } });
    json mig = gpuDevice("gpu-0-mig-1g",
        { { "parentUUID", { { "string", "GPU-A" } } },
            { "profile", { { "string", "1g.10gb" } } } });
    mig["attributes"]["type"] = { { "string", "mig" } };
    const std::vector<Finding> untied
        = findingsOf({ nodeObject("n1"), sliceObject("n1", "n1", { gpu, mig }) });
    const auto found = withCode(untied, "MigAlsoWhole");
    ASSERT_EQ(found.size(), 1u) << listed(untied);
    EXPECT_NE(found[0].message.find("gpu-0-mig-1g"), std::string::npos);
    EXPECT_TRUE(names(found[0], "Node", "n1"));

    // Partitionable devices: both consume the same counter set, so Kubernetes keeps them apart.
    const json set
        = { { "name", "gpu-0-set" }, { "counters", counters({ { "memory", "80Gi" } }) } };
    json tiedGpu = gpu;
    tiedGpu["consumesCounters"]
        = { { { "counterSet", "gpu-0-set" }, { "counters", counters({ { "memory", "80Gi" } }) } } };
    json tiedMig = mig;
    tiedMig["consumesCounters"]
        = { { { "counterSet", "gpu-0-set" }, { "counters", counters({ { "memory", "10Gi" } }) } } };
    const std::vector<Finding> tied = findingsOf({ nodeObject("n1"),
        sliceObject(
            "n1", "n1", { tiedGpu, tiedMig }, 1, 1, "n1", { { "sharedCounters", { set } } }) });
    EXPECT_TRUE(withCode(tied, "MigAlsoWhole").empty()) << listed(tied);
}

TEST(LintTest, LeakedClaimsMissingPodsAndVanishedDevices)
{
    const std::vector<Finding> findings = findingsOf({
        nodeObject("n1"),
        sliceObject("n1", "n1", { gpuDevice("gpu-0"), gpuDevice("gpu-1"), gpuDevice("gpu-2") }),
        podObject("ml", "alive"),
        claimObject("ml", "leaked", "n1", { "gpu-0" }, {}),
        claimObject("ml", "orphaned", "n1", { "gpu-1" }, { "ghost" }),
        claimObject("ml", "fine", "n1", { "gpu-2" }, { "alive" }),
        claimObject("ml", "stale", "n1", { "gpu-9" }, { "alive" }),
    });
    const auto leaked = withCode(findings, "ClaimAllocatedNotReserved");
    ASSERT_EQ(leaked.size(), 1u) << listed(findings);
    EXPECT_TRUE(names(leaked[0], "ResourceClaim", "leaked"));
    EXPECT_EQ(leaked[0].objects[0].ns, "ml");

    const auto orphaned = withCode(findings, "ClaimReservedForMissingPod");
    ASSERT_EQ(orphaned.size(), 1u) << listed(findings);
    EXPECT_TRUE(names(orphaned[0], "ResourceClaim", "orphaned"));
    EXPECT_TRUE(names(orphaned[0], "Pod", "ghost"));

    const auto vanished = withCode(findings, "ClaimDeviceMissing");
    ASSERT_EQ(vanished.size(), 1u) << listed(findings);
    EXPECT_NE(vanished[0].message.find("gpu.example.com/n1/gpu-9"), std::string::npos);
}

TEST(LintTest, APodReplacedUnderTheSameNameIsNotTheReservedOne)
{
    const std::vector<Finding> findings = findingsOf({
        sliceObject("n1", "n1", { gpuDevice("gpu-0") }), podObject("ml", "worker", "uid-new"),
        claimObject("ml", "c", "n1", { "gpu-0" }, { "worker" }), // reserved for uid-worker
    });
    const auto replaced = withCode(findings, "ClaimReservedForMissingPod");
    ASSERT_EQ(replaced.size(), 1u) << listed(findings);
    EXPECT_NE(replaced[0].message.find("replaced"), std::string::npos);
}

TEST(LintTest, DriverVersionsMixedOnOneNode)
{
    const std::vector<Finding> findings = findingsOf({ sliceObject("n1", "n1",
        { gpuDevice("gpu-0", { { "driverVersion", { { "version", "550.54.15" } } } }),
            gpuDevice("gpu-1", { { "driverVersion", { { "version", "550.54.15" } } } }),
            gpuDevice("gpu-2", { { "driverVersion", { { "version", "570.86.10" } } } }) }) });
    const auto mixed = withCode(findings, "DriverVersionMismatch");
    ASSERT_EQ(mixed.size(), 1u) << listed(findings);
    EXPECT_NE(mixed[0].message.find("550.54.15 on 2 device(s)"), std::string::npos)
        << mixed[0].message;
    EXPECT_NE(mixed[0].message.find("570.86.10 on 1 device(s)"), std::string::npos)
        << mixed[0].message;
    EXPECT_TRUE(names(mixed[0], "Node", "n1"));
}

TEST(LintTest, SlicesOfNodesThatDoNotExist)
{
    const std::vector<Finding> findings
        = findingsOf({ nodeObject("n1"), sliceObject("n1", "n1", { gpuDevice("gpu-0") }),
            sliceObject("gone", "n2", { gpuDevice("gpu-0") }) });
    const auto missing = withCode(findings, "SliceNodeMissing");
    ASSERT_EQ(missing.size(), 1u) << listed(findings);
    EXPECT_TRUE(names(missing[0], "ResourceSlice", "gone"));
    EXPECT_NE(missing[0].message.find("n2"), std::string::npos);
    // Without any Node in the cache nothing can be said.
    EXPECT_TRUE(withCode(
        findingsOf({ sliceObject("gone", "n2", { gpuDevice("gpu-0") }) }), "SliceNodeMissing")
                    .empty());
}

TEST(LintTest, ClassesThatMatchNothingOrDoNotCompile)
{
    const std::vector<Finding> findings = findingsOf({
        sliceObject("n1", "n1", { gpuDevice("gpu-0") }),
        deviceClass("gpu.example.com", "device.driver == 'gpu.example.com'"),
        deviceClass("wanted", "device.driver == 'fpga.example.com'"),
        deviceClass("unused", "device.driver == 'nic.example.com'"),
        deviceClass("broken", "device.attributes["),
        claimObject("ml", "waiting", "n1", {}, {}, "wanted"),
    });
    const auto nothing = withCode(findings, "ClassMatchesNoDevice");
    ASSERT_EQ(nothing.size(), 2u) << listed(findings);
    EXPECT_TRUE(names(nothing[0], "DeviceClass", "wanted"));
    EXPECT_EQ(nothing[0].severity, Severity::Warning) << "a claim asks for it";
    EXPECT_NE(nothing[0].message.find("1 claim(s)"), std::string::npos);
    EXPECT_TRUE(names(nothing[1], "DeviceClass", "unused"));
    EXPECT_EQ(nothing[1].severity, Severity::Info);
    const auto broken = withCode(findings, "ClassSelectorError");
    ASSERT_EQ(broken.size(), 1u) << listed(findings);
    EXPECT_TRUE(names(broken[0], "DeviceClass", "broken"));
}

TEST(LintTest, UnreadableObjectsAreFindings)
{
    SnapshotSource source;
    source.cluster = "test";
    model::ObjectRecord record;
    record.key = { "resource.k8s.io", "ResourceClaim", "ml", "broken" };
    record.json
        = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"broken","namespace":"ml"},"spec":{"devices":{"requests":7}}})";
    source.objects.push_back(record);
    const std::vector<Finding> findings = lint(*buildSnapshot(std::move(source)));
    const auto unreadable = withCode(findings, "ObjectUnreadable");
    ASSERT_EQ(unreadable.size(), 1u) << listed(findings);
    EXPECT_TRUE(names(unreadable[0], "ResourceClaim", "broken"));
}

TEST(LintTest, JsonNamesKindNamespaceAndName)
{
    const Finding finding { Severity::Warning, "ClaimAllocatedNotReserved", "m",
        { { "resource.k8s.io", "ResourceClaim", "ml", "c" }, { {}, "Node", {}, "n1" } } };
    const nlohmann::json json = toJson(finding);
    EXPECT_EQ(json["severity"], "warning");
    EXPECT_EQ(json["code"], "ClaimAllocatedNotReserved");
    EXPECT_EQ(json["objects"][0],
        (nlohmann::json { { "group", "resource.k8s.io" }, { "kind", "ResourceClaim" },
            { "namespace", "ml" }, { "name", "c" } }));
    EXPECT_EQ(json["objects"][1], (nlohmann::json { { "kind", "Node" }, { "name", "n1" } }));
}

TEST(LintTest, ClassesWhoseEveryDeviceIsTainted)
{
    const auto taint = [](const std::string &key, const std::string &effect) {
        return json { { "taints",
            json::array({ { { "key", key }, { "value", "x" }, { "effect", effect } } }) } };
    };
    const json slice = sliceObject("s0", "node-a",
        { gpuDevice("gpu-0", json::object(), taint("maintenance", "NoSchedule")),
            gpuDevice("gpu-1", json::object(), taint("health", "NoExecute")) });
    const json asked = claimObject("ml", "waiting", "", {}, {});

    std::vector<Finding> found = withCode(
        findingsOf({ nodeObject("node-a"), slice, deviceClass("gpu.example.com", "true"), asked }),
        "ClassBlockedByTaints");
    ASSERT_EQ(found.size(), 1u) << listed(found);
    EXPECT_EQ(found[0].severity, Severity::Warning);
    EXPECT_EQ(found[0].message,
        "every one of the 2 device(s) of DeviceClass gpu.example.com is tainted "
        "(health=x:NoExecute, "
        "maintenance=x:NoSchedule), yet 1 claim(s) or template(s) request it without "
        "tolerations that cover any device's taints: they cannot be allocated");
    EXPECT_TRUE(names(found[0], "ResourceClaim", "waiting"));

    // The findings when the claim asks with `tolerations`.
    const auto blockedWith = [&](const json &tolerations) {
        json claim = asked;
        claim["spec"]["devices"]["requests"][0]["exactly"]["tolerations"] = tolerations;
        return withCode(findingsOf({ nodeObject("node-a"), slice,
                            deviceClass("gpu.example.com", "true"), claim }),
            "ClassBlockedByTaints");
    };
    // Tolerating a taint no device has, or only one of a device's taints, is no better.
    for (const json &tolerations :
        { json::array({ { { "key", "other" }, { "operator", "Exists" } } }),
            json::array({ { { "key", "maintenance" }, { "value", "y" } } }),
            json::array({ { { "key", "health" }, { "operator", "Exists" },
                { "effect", "NoSchedule" } } }) }) {
        found = blockedWith(tolerations);
        ASSERT_EQ(found.size(), 1u) << tolerations.dump();
        EXPECT_EQ(found[0].severity, Severity::Warning) << tolerations.dump();
    }
    // Tolerating every taint of one device is enough: gpu-0's maintenance=x.
    found = blockedWith(json::array({ { { "key", "maintenance" }, { "value", "x" } } }));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, Severity::Info);

    // A request that tolerates everything is not counted; nothing else asks: information.
    found = blockedWith(json::array({ { { "operator", "Exists" } } }));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, Severity::Info);

    // One untainted device is enough for the class.
    json mixed = slice;
    mixed["spec"]["devices"].push_back(gpuDevice("gpu-2"));
    EXPECT_TRUE(withCode(
        findingsOf({ nodeObject("node-a"), mixed, deviceClass("gpu.example.com", "true"), asked }),
        "ClassBlockedByTaints")
                    .empty());
}

TEST(LintTest, ClaimsWaitingOnBindingConditionsPastTheSchedulersTimeout)
{
    const json slice = sliceObject("s0", "node-a",
        { gpuDevice("gpu-0", json::object(),
            { { "bindsToNode", true }, { "bindingConditions", { "example.com/attached" } },
                { "bindingFailureConditions", { "example.com/failed" } } }) });
    json claim = claimObject("ml", "fabric", "node-a", { "gpu-0" }, {});
    claim["status"]["allocation"]["allocationTimestamp"] = "2026-01-01T00:00:00Z";
    claim["status"]["devices"] = json::array({ { { "driver", "gpu.example.com" },
        { "pool", "node-a" }, { "device", "gpu-0" },
        { "conditions",
            json::array({ { { "type", "example.com/attached" }, { "status", "False" } } }) } } });

    std::vector<Finding> found = withCode(
        findingsOf({ nodeObject("node-a"), slice, claim }), "ClaimBindingConditionsPending");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].message.find("still waits for its binding condition(s) "
                                    "example.com/attached, past the scheduler's 10-minute"),
        std::string::npos)
        << found[0].message;
    EXPECT_TRUE(names(found[0], "ResourceClaim", "fabric"));

    // The condition came true; or the allocation is recent: nothing to say.
    json attached = claim;
    attached["status"]["devices"][0]["conditions"][0]["status"] = "True";
    EXPECT_TRUE(withCode(
        findingsOf({ nodeObject("node-a"), slice, attached }), "ClaimBindingConditionsPending")
                    .empty());
    json recent = claim;
    recent["status"]["allocation"]["allocationTimestamp"] = "2999-01-01T00:00:00Z";
    EXPECT_TRUE(withCode(
        findingsOf({ nodeObject("node-a"), slice, recent }), "ClaimBindingConditionsPending")
                    .empty());
}
