// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The readiness report on the mixed demo inventory (DRA H100, A100 MIG and L40S nodes beside
// device-plugin H100 nodes), each check turned by changing the one fact it reads.
#include "core/inventory/readiness.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/common/html_text.h"
#include "core/inventory/gpu_stack.h"
#include "core/inventory/overview.h"
#include "core/sandbox/presets.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::inventory {
namespace {

using nlohmann::json;

json mixedList()
{
    return dra::test::presetList("mixed", 2);
}

SnapshotPtr snapshotOf(const json &list, const std::string &version)
{
    SnapshotSource source;
    source.cluster = "test";
    source.kubernetesVersion = version;
    source.objects = dra::test::recordsOf(list);
    source.rev = int64_t(source.objects.size());
    return buildSnapshot(std::move(source));
}

const ReadinessCheck &checkOf(const Readiness &report, const std::string &id)
{
    for (const ReadinessCheck &check : report.checks)
        if (check.id == id)
            return check;
    static const ReadinessCheck none;
    ADD_FAILURE() << "no check " << id;
    return none;
}

json &itemOf(json &list, const std::string &kind, const std::string &name)
{
    for (json &item : list["items"])
        if (item["kind"] == kind && item["metadata"]["name"] == name)
            return item;
    static json none;
    ADD_FAILURE() << "no " << kind << " " << name;
    return none;
}

model::StreamRecord stream(const std::string &kind, const std::string &state = "watching")
{
    model::StreamRecord s;
    s.group = "resource.k8s.io";
    s.kind = kind;
    s.state = state;
    s.apiVersion = "resource.k8s.io/v1";
    return s;
}

json claimWith(const std::string &ns, const json &request)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", "probe" }, { "namespace", ns } } },
        { "spec", { { "devices", { { "requests", json::array({ request }) } } } } } };
}

TEST(ReadinessTest, TheMixedDemoOnACurrentReleaseIsReadyCheckByCheck)
{
    const Readiness report = readiness(*snapshotOf(mixedList(), "v1.36.1"),
        std::vector { stream("ResourceSlice"), stream("ResourceClaim"), stream("DeviceClass") });
    ASSERT_EQ(report.checks.size(), 8u);
    EXPECT_EQ(report.checks.front().id, "release") << "the release is checked first";
    EXPECT_EQ(checkOf(report, "release").verdict, Verdict::Ready)
        << checkOf(report, "release").reason;
    EXPECT_EQ(checkOf(report, "kubelets").verdict, Verdict::Ready)
        << checkOf(report, "kubelets").reason;
    EXPECT_EQ(checkOf(report, "drivers").verdict, Verdict::Ready)
        << checkOf(report, "drivers").reason;
    // The legacy nodes still run the device plugin only: said, but no double offering.
    const ReadinessCheck &plugin = checkOf(report, "device-plugin");
    EXPECT_EQ(plugin.verdict, Verdict::Ready) << plugin.reason;
    EXPECT_NE(plugin.reason.find("legacy-h100-000"), std::string::npos) << plugin.reason;
    // DeviceTaintRule (and the other kinds) have no stream here: not served.
    const ReadinessCheck &api = checkOf(report, "api");
    EXPECT_EQ(api.verdict, Verdict::Ready) << api.reason;
    EXPECT_NE(api.details["notServed"].dump().find("DeviceTaintRule"), std::string::npos);

    const json document = toJson(report);
    EXPECT_EQ(document["kubernetesVersion"], "v1.36.1");
    EXPECT_EQ(document["checks"].size(), 8u);
    EXPECT_EQ(document["verdict"], verdictName(report.overall()));
    const json &features = document["checks"][0]["details"]["features"];
    const auto gate = std::find_if(features.begin(), features.end(),
        [](const json &f) { return f["name"] == "DRAPrioritizedList"; });
    ASSERT_NE(gate, features.end());
    EXPECT_EQ((*gate)["stage"], "GA");
}

TEST(ReadinessTest, WithoutAVersionOrStreamsWhatTheyTellIsUnknown)
{
    const Readiness report = readiness(*snapshotOf(mixedList(), ""), {});
    EXPECT_EQ(checkOf(report, "release").verdict, Verdict::Unknown);
    EXPECT_EQ(checkOf(report, "api").verdict, Verdict::Unknown);
    EXPECT_EQ(checkOf(report, "kubelets").verdict, Verdict::Unknown);
    EXPECT_FALSE(checkOf(report, "release").action.empty());
}

TEST(ReadinessTest, OldReleasesAndGatedFeaturesAreSaid)
{
    EXPECT_EQ(checkOf(readiness(*snapshotOf(mixedList(), "v1.31.4"), {}), "release").verdict,
        Verdict::NotReady);
    // firstAvailable on 1.33: DRAPrioritizedList is alpha and off there.
    json list = mixedList();
    list["items"].push_back(claimWith("default",
        { { "name", "gpu" },
            { "firstAvailable",
                json::array(
                    { { { "name", "any" }, { "deviceClassName", "gpu.nvidia.com" } } }) } }));
    const ReadinessCheck release = checkOf(readiness(*snapshotOf(list, "v1.33.2"), {}), "release");
    EXPECT_EQ(release.verdict, Verdict::Warning);
    EXPECT_NE(release.reason.find("DRAPrioritizedList"), std::string::npos) << release.reason;
}

TEST(ReadinessTest, KubeletsNewerThanTheControlPlaneAreOutOfSkew)
{
    // The demo's kubelets report v1.35.2.
    const ReadinessCheck kubelets
        = checkOf(readiness(*snapshotOf(mixedList(), "v1.34.0"), {}), "kubelets");
    EXPECT_EQ(kubelets.verdict, Verdict::NotReady);
    EXPECT_NE(kubelets.reason.find("v1.35.2"), std::string::npos) << kubelets.reason;
}

TEST(ReadinessTest, TheReleasePresetsAreReadInTheirReleases)
{
    // The demo presets of older releases, recorded as the demo records them: their kubelets
    // are within the skew, and the release check speaks of that release.
    for (const char *preset : { "mixed-1.32", "mixed-1.34" }) {
        const std::string version
            = sandbox::presetKubernetesVersion({ preset }).value_or("not a preset");
        const Readiness report
            = readiness(*snapshotOf(dra::test::presetList(preset, 2), version), {});
        const ReadinessCheck &kubelets = checkOf(report, "kubelets");
        EXPECT_EQ(kubelets.verdict, Verdict::Ready) << preset << ": " << kubelets.reason;
        const ReadinessCheck &release = checkOf(report, "release");
        EXPECT_NE(release.reason.find(version.substr(1, 4)), std::string::npos)
            << preset << ": " << release.reason;
        EXPECT_EQ(toJson(report)["kubernetesVersion"], version);
    }
    // DRA is beta in 1.32 and GA from 1.34; the mixed cluster's MIG slices use shared counters,
    // which both releases keep off by default: said as a warning.
    const ReadinessCheck older = checkOf(
        readiness(*snapshotOf(dra::test::presetList("mixed-1.32", 2), "v1.32.5"), {}), "release");
    const ReadinessCheck current = checkOf(
        readiness(*snapshotOf(dra::test::presetList("mixed-1.34", 2), "v1.34.2"), {}), "release");
    EXPECT_NE(older.reason.find("beta"), std::string::npos) << older.reason;
    EXPECT_NE(current.reason.find("GA"), std::string::npos) << current.reason;
    for (const ReadinessCheck *check : { &older, &current }) {
        EXPECT_EQ(check->verdict, Verdict::Warning) << check->reason;
        EXPECT_NE(check->reason.find("DRAPartitionableDevices"), std::string::npos)
            << check->reason;
    }
}

TEST(ReadinessTest, GpusOfferedByTheDevicePluginAndDraAtOnceAreNotReady)
{
    json list = mixedList();
    itemOf(list, "Node", "h100-000")["status"]["allocatable"]["nvidia.com/gpu"] = "8";
    const ReadinessCheck plugin
        = checkOf(readiness(*snapshotOf(list, "v1.36.0"), {}), "device-plugin");
    EXPECT_EQ(plugin.verdict, Verdict::NotReady);
    EXPECT_NE(plugin.reason.find("h100-000"), std::string::npos) << plugin.reason;
}

// A node whose GPUs only the device plugin offers is called so on every page, whatever else DRA
// publishes there (NICs) and whether the plugin offers whole GPUs or MIG slices.
TEST(ReadinessTest, DevicePluginNodesAreTheSameInTheOverviewAndTheReport)
{
    json list = mixedList();
    json nicsOnly = dra::test::nodeObject("nics-and-plugin-gpus");
    nicsOnly["status"]["allocatable"] = { { "nvidia.com/gpu", "4" } };
    json nic = dra::test::gpuDevice("nic-0");
    nic["attributes"]["type"] = { { "string", "nic" } };
    json migOnly = dra::test::nodeObject("plugin-mig-slices");
    migOnly["status"]["allocatable"] = { { "nvidia.com/mig-1g.10gb", "7" } };
    for (const json &item : { nicsOnly, migOnly,
             dra::test::sliceObject("nics-and-plugin-gpus-nics", "nics-and-plugin-gpus", { nic }) })
        list["items"].push_back(item);
    const SnapshotPtr snapshot = snapshotOf(list, "v1.36.0");

    const std::map<std::string, NodeGpuStack> stacks = nodeGpuStacks(*snapshot);
    EXPECT_TRUE(stacks.at("nics-and-plugin-gpus").devicePluginOnly());
    EXPECT_TRUE(stacks.at("plugin-mig-slices").devicePluginOnly());

    const ClusterOverview overview = clusterOverview(*snapshot);
    std::set<std::string> pluginOnlyInOverview;
    for (const NodeOverview &node : overview.nodes)
        if (node.devicePluginOnly)
            pluginOnlyInOverview.insert(node.summary.name);
    std::set<std::string> pluginOnlyInReport;
    const Readiness report = readiness(*snapshot, {});
    for (const json &node : checkOf(report, "device-plugin").details["nodes"])
        if (node["stack"] == "device-plugin")
            pluginOnlyInReport.insert(node["node"].get<std::string>());
    EXPECT_EQ(pluginOnlyInOverview, pluginOnlyInReport);
    EXPECT_TRUE(pluginOnlyInOverview.contains("nics-and-plugin-gpus"));
    EXPECT_TRUE(pluginOnlyInOverview.contains("plugin-mig-slices"));
    EXPECT_EQ(overview.devicePluginOnlyNodes, int(pluginOnlyInOverview.size()));
}

TEST(ReadinessTest, AdminAccessNeedsTheNamespaceLabel)
{
    json list = mixedList();
    list["items"].push_back(claimWith("default",
        { { "name", "all" },
            { "exactly", { { "deviceClassName", "gpu.nvidia.com" }, { "adminAccess", true } } } }));
    // The cache holds no Namespace default: its label cannot be checked.
    EXPECT_EQ(checkOf(readiness(*snapshotOf(list, "v1.36.0"), {}), "admin-access").verdict,
        Verdict::Unknown);
    json ns = { { "apiVersion", "v1" }, { "kind", "Namespace" },
        { "metadata", { { "name", "default" } } } };
    list["items"].push_back(ns);
    const ReadinessCheck unlabelled
        = checkOf(readiness(*snapshotOf(list, "v1.36.0"), {}), "admin-access");
    EXPECT_EQ(unlabelled.verdict, Verdict::NotReady) << unlabelled.reason;
    EXPECT_NE(unlabelled.reason.find("default"), std::string::npos);
    list["items"].back()["metadata"]["labels"]["resource.kubernetes.io/admin-access"] = "true";
    EXPECT_EQ(checkOf(readiness(*snapshotOf(list, "v1.36.0"), {}), "admin-access").verdict,
        Verdict::Ready);
}

TEST(ReadinessTest, BrokenStreamsIncompletePoolsEmptyClassesAndMissingClassesAreSaid)
{
    json list = mixedList();
    json &slice = [&list]() -> json & {
        for (json &item : list["items"])
            if (item["kind"] == "ResourceSlice")
                return item;
        return list;
    }();
    slice["spec"]["pool"]["resourceSliceCount"] = 2;
    json klass = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", "nothing.example.com" } } },
        { "spec",
            { { "selectors",
                json::array(
                    { { { "cel", { { "expression", "device.driver == 'none'" } } } } }) } } } };
    list["items"].push_back(klass);
    list["items"].push_back(claimWith("default",
        { { "name", "gpu" }, { "exactly", { { "deviceClassName", "gpu.nvidia.comm" } } } }));
    const Readiness report = readiness(*snapshotOf(list, "v1.36.0"),
        std::vector { stream("ResourceSlice"), stream("ResourceClaim", "forbidden") });
    EXPECT_EQ(checkOf(report, "api").verdict, Verdict::NotReady);
    EXPECT_EQ(checkOf(report, "drivers").verdict, Verdict::NotReady)
        << checkOf(report, "drivers").reason;
    EXPECT_EQ(checkOf(report, "classes").verdict, Verdict::Warning);
    EXPECT_NE(checkOf(report, "classes").reason.find("nothing.example.com"), std::string::npos);
    const ReadinessCheck &claims = checkOf(report, "claims");
    EXPECT_EQ(claims.verdict, Verdict::NotReady);
    EXPECT_NE(claims.reason.find("gpu.nvidia.comm"), std::string::npos) << claims.reason;
    EXPECT_EQ(report.overall(), Verdict::NotReady);
    EXPECT_NE(toText(report).find("[not-ready] DRA drivers"), std::string::npos) << toText(report);
}

TEST(ReadinessTest, TheHtmlPageHasEveryCheckAndEscapesWhatTheClusterSays)
{
    Readiness report = readiness(*snapshotOf(mixedList(), "v1.36.1"),
        std::vector { stream("ResourceSlice"), stream("ResourceClaim"), stream("DeviceClass") });
    report.cluster = "lab <prod> & \"gpu\"";
    report.checks.front().reason = "a reason naming <script>alert(1)</script>";
    const std::string html = toHtml(report);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("lab &lt;prod&gt; &amp; &quot;gpu&quot;"), std::string::npos);
    EXPECT_EQ(html.find("<script>"), std::string::npos) << "cluster text is never markup";
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    for (const ReadinessCheck &check : report.checks) {
        EXPECT_NE(html.find("id=\"" + check.id + "\""), std::string::npos) << check.id;
        EXPECT_NE(html.find(check.title), std::string::npos) << check.id;
        if (!check.action.empty()) {
            EXPECT_NE(html.find("Next: " + common::escapeHtml(check.action)), std::string::npos)
                << check.id;
        }
    }
    EXPECT_NE(html.find(std::string("badge ") + std::string(verdictName(report.overall()))),
        std::string::npos);
}

} // namespace
} // namespace dra::inventory
