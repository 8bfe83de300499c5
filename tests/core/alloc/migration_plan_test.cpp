// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The migration assistant on the mixed demo inventory (DRA H100, A100 MIG and L40S nodes beside
// device-plugin H100 nodes running inference/llm-server), with workloads added that ask for
// whole GPUs, MIG slices, a pinned GPU model, more than the cluster has, and a resource no
// DeviceClass maps.
#include "core/alloc/migration_plan.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/sandbox/demo_cluster.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::alloc {
namespace {

using nlohmann::json;

json mixedList()
{
    return dra::test::presetList("mixed", 2);
}

json deployment(const std::string &ns, const std::string &name, int replicas, const json &limits,
    const json &nodeSelector = nullptr)
{
    json container = { { "name", "main" }, { "image", "cuda:12" },
        { "resources", { { "limits", limits }, { "requests", limits } } } };
    json spec = { { "containers", json::array({ container }) } };
    if (!nodeSelector.is_null())
        spec["nodeSelector"] = nodeSelector;
    return { { "apiVersion", "apps/v1" }, { "kind", "Deployment" },
        { "metadata", { { "name", name }, { "namespace", ns }, { "uid", "uid-" + name } } },
        { "spec",
            { { "replicas", replicas }, { "selector", { { "matchLabels", { { "app", name } } } } },
                { "template",
                    { { "metadata", { { "labels", { { "app", name } } } } },
                        { "spec", spec } } } } } };
}

inventory::SnapshotPtr snapshotWith(json list, const std::vector<json> &extra)
{
    for (const json &object : extra)
        list["items"].push_back(object);
    inventory::SnapshotSource source;
    source.cluster = "test";
    source.kubernetesVersion = std::string(sandbox::kDemoKubernetesVersion);
    source.objects = dra::test::recordsOf(list);
    source.rev = int64_t(source.objects.size());
    return inventory::buildSnapshot(std::move(source));
}

MigrationPlan planOf(const inventory::SnapshotPtr &snapshot, const release::ReleaseChoice &choice)
{
    Result<SimulationCluster> cluster = simulationCluster(*snapshot, choice);
    EXPECT_TRUE(cluster.has_value()) << cluster.error().message.toStdString();
    Result<MigrationPlan> plan = planMigration(*snapshot, *cluster);
    EXPECT_TRUE(plan.has_value()) << plan.error().message.toStdString();
    return plan ? std::move(*plan) : MigrationPlan {};
}

const WorkloadMigration &workloadOf(const MigrationPlan &plan, const std::string &ns,
    const std::string &kind, const std::string &name)
{
    for (const WorkloadMigration &w : plan.workloads)
        if (w.workload.ns == ns && w.workload.kind == kind && w.workload.name == name)
            return w;
    static const WorkloadMigration none;
    ADD_FAILURE() << "no " << kind << " " << ns << "/" << name << " in the plan";
    return none;
}

// A node the device plugin serves GPUs on (it advertises nvidia.com/gpu).
bool isDevicePluginNode(const inventory::Snapshot &snapshot, const std::string &node)
{
    const model::Object *object = snapshot.object(model::Kind::Node, "", node);
    const auto *body = object ? object->as<model::Node>() : nullptr;
    return body && body->devicePluginGpus() > 0;
}

const json &templateOf(const MigrationProposal &proposal)
{
    for (const json &object : proposal.objects)
        if (object["kind"] == "ResourceClaimTemplate")
            return object;
    static const json none;
    ADD_FAILURE() << "the proposal has no ResourceClaimTemplate";
    return none;
}

TEST(MigrationPlanTest, OneGpuDeploymentFitsOnDraNodesThroughTheExtendedResourceClass)
{
    const auto snapshot = snapshotWith(
        mixedList(), { deployment("team", "one-gpu", 2, { { "nvidia.com/gpu", "1" } }) });
    const MigrationPlan plan = planOf(snapshot, {});
    EXPECT_TRUE(plan.release.gates.extendedResource) << "the demo runs 1.36";
    const WorkloadMigration &w = workloadOf(plan, "team", "Deployment", "one-gpu");
    EXPECT_EQ(w.workload.source, "object");
    ASSERT_EQ(w.workload.requests.size(), 1u);
    EXPECT_EQ(w.workload.requests[0].resource, "nvidia.com/gpu");
    EXPECT_EQ(w.workload.requests[0].count, 1);

    EXPECT_EQ(w.proposal.form, MigrationForm::ExtendedResourceClass) << w.proposal.reason;
    // The demo's gpu.nvidia.com already maps nvidia.com/gpu: nothing to create, pod unchanged.
    EXPECT_EQ(w.proposal.deviceClasses, std::vector<std::string> { "gpu.nvidia.com" });
    EXPECT_TRUE(w.proposal.objects.empty());
    EXPECT_TRUE(w.proposal.podTemplateChange.is_null());
    EXPECT_EQ(w.proposal.podTemplate, w.workload.podTemplate);
    ASSERT_TRUE(w.claimTemplate.has_value()) << "the rollout's template form comes along";
    EXPECT_EQ(w.claimTemplate->form, MigrationForm::ClaimTemplate);

    EXPECT_TRUE(w.verdict.fits) << w.verdict.reason;
    EXPECT_EQ(w.verdict.placed, 2);
    ASSERT_FALSE(w.verdict.nodes.empty());
    for (const auto &[node, pods] : w.verdict.nodes) {
        EXPECT_FALSE(isDevicePluginNode(*snapshot, node)) << node;
        EXPECT_FALSE(snapshot->devicesOnNode(node).empty()) << node << " has no DRA devices";
    }

    const json document = toJson(plan);
    ASSERT_EQ(document["workloads"].size(), plan.workloads.size());
    EXPECT_EQ(document["kubernetesVersion"], "1.36");
}

TEST(MigrationPlanTest, TheDemosDevicePluginServerIsFoundThroughItsDeployment)
{
    const auto snapshot = snapshotWith(mixedList(), {});
    const MigrationPlan plan = planOf(snapshot, {});
    const WorkloadMigration &w = workloadOf(plan, "inference", "Deployment", "llm-server");
    EXPECT_EQ(w.workload.source, "object");
    EXPECT_EQ(size_t(w.workload.replicas), w.workload.pods.size())
        << "one replica per device-plugin node, each pod found in the cache";
    ASSERT_EQ(w.workload.requests.size(), 1u);
    EXPECT_EQ(w.workload.requests[0].resource, "nvidia.com/gpu");
    EXPECT_EQ(w.workload.requests[0].nodesAdvertising, w.workload.replicas);
    // Its nodeSelector pins the device-plugin pool; the DRA nodes carry the other value.
    ASSERT_TRUE(w.proposal.podTemplateChange.is_object());
    EXPECT_EQ(
        w.proposal.podTemplateChange["nodeSelector"]["set"]["sandbox.dra-console.io/gpu-stack"],
        "dra");
    for (const std::string &node : w.proposal.excludedNodes)
        EXPECT_TRUE(isDevicePluginNode(*snapshot, node)) << node;
}

TEST(MigrationPlanTest, AReleaseWithoutDraExtendedResourcesGetsAClaimTemplate)
{
    const auto snapshot = snapshotWith(
        mixedList(), { deployment("team", "one-gpu", 2, { { "nvidia.com/gpu", "1" } }) });
    const MigrationPlan plan = planOf(snapshot, { "1.34", "" });
    EXPECT_FALSE(plan.release.gates.extendedResource);
    const WorkloadMigration &w = workloadOf(plan, "team", "Deployment", "one-gpu");
    ASSERT_EQ(w.proposal.form, MigrationForm::ClaimTemplate) << w.proposal.reason;
    EXPECT_NE(w.proposal.reason.find("DRAExtendedResource"), std::string::npos);
    const json &request = templateOf(w.proposal)["spec"]["spec"]["devices"]["requests"][0];
    EXPECT_EQ(request["exactly"]["deviceClassName"], "gpu.nvidia.com");
    EXPECT_EQ(request["exactly"]["count"], 1);

    // The pod template: no extended resource left, the claim in the container and the pod.
    const json &spec = w.proposal.podTemplate["spec"];
    const json &container = spec["containers"][0];
    EXPECT_FALSE(container["resources"].value("limits", json::object()).contains("nvidia.com/gpu"));
    EXPECT_EQ(container["resources"]["claims"][0]["name"], w.proposal.claimName);
    EXPECT_EQ(spec["resourceClaims"][0]["resourceClaimTemplateName"], w.proposal.templateName);
    EXPECT_EQ(w.proposal.podTemplateChange["removeResources"], json::array({ "nvidia.com/gpu" }));

    EXPECT_TRUE(w.verdict.fits) << w.verdict.reason;
    for (const auto &[node, pods] : w.verdict.nodes)
        EXPECT_FALSE(isDevicePluginNode(*snapshot, node)) << node;
}

TEST(MigrationPlanTest, TheGateTurnsTheExtendedResourceClassOnInAnOlderRelease)
{
    const auto snapshot = snapshotWith(
        mixedList(), { deployment("team", "one-gpu", 1, { { "nvidia.com/gpu", "1" } }) });
    const MigrationPlan plan = planOf(snapshot, { "1.35", "DRAExtendedResource=true" });
    EXPECT_EQ(workloadOf(plan, "team", "Deployment", "one-gpu").proposal.form,
        MigrationForm::ExtendedResourceClass);
}

TEST(MigrationPlanTest, AMigProfileBecomesASelectorOnTheProfileAttribute)
{
    // The demo's GPU nodes are tainted nvidia.com/gpu:NoSchedule, which admission tolerates
    // only for pods asking for nvidia.com/gpu itself: a MIG workload tolerates it explicitly, as
    // the demo's own workloads do.
    json small = deployment("batch", "small", 1, { { "nvidia.com/mig-1g.10gb", "1" } });
    small["spec"]["template"]["spec"]["tolerations"] = json::array(
        { { { "key", "nvidia.com/gpu" }, { "operator", "Exists" }, { "effect", "NoSchedule" } } });
    const auto snapshot = snapshotWith(mixedList(), { small });
    // 1.36 with DRA-backed extended resources switched off: a template selecting the profile.
    const MigrationPlan templated = planOf(snapshot, { "1.36", "DRAExtendedResource=false" });
    const WorkloadMigration &w = workloadOf(templated, "batch", "Deployment", "small");
    ASSERT_EQ(w.proposal.form, MigrationForm::ClaimTemplate) << w.proposal.reason;
    const json &exactly
        = templateOf(w.proposal)["spec"]["spec"]["devices"]["requests"][0]["exactly"];
    EXPECT_EQ(exactly["deviceClassName"], "mig.nvidia.com");
    EXPECT_EQ(exactly["selectors"][0]["cel"]["expression"],
        "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'");
    EXPECT_TRUE(w.verdict.fits) << w.verdict.reason;
    for (const auto &[node, pods] : w.verdict.nodes) {
        bool hasProfile = false;
        for (const inventory::Device *device : snapshot->devicesOnNode(node))
            hasProfile = hasProfile || device->profile() == "1g.10gb";
        EXPECT_TRUE(hasProfile) << node << " has no 1g.10gb MIG device";
    }

    // 1.34 cannot allocate MIG devices (partitionable devices are off): the verdict says so.
    const MigrationPlan old = planOf(snapshot, { "1.34", "" });
    const WorkloadMigration &oldW = workloadOf(old, "batch", "Deployment", "small");
    EXPECT_EQ(oldW.proposal.form, MigrationForm::ClaimTemplate);
    EXPECT_FALSE(oldW.verdict.fits);
    EXPECT_NE(
        oldW.verdict.explanation.dump().find("DRAPartitionableDevices is off"), std::string::npos)
        << oldW.verdict.reason;

    // Where the release maps extended resources: a class of its own for the profile.
    const MigrationPlan current = planOf(snapshot, {});
    const WorkloadMigration &mapped = workloadOf(current, "batch", "Deployment", "small");
    ASSERT_EQ(mapped.proposal.form, MigrationForm::ExtendedResourceClass);
    ASSERT_EQ(mapped.proposal.objects.size(), 1u);
    const json &klass = mapped.proposal.objects[0];
    EXPECT_EQ(klass["kind"], "DeviceClass");
    EXPECT_EQ(klass["spec"]["extendedResourceName"], "nvidia.com/mig-1g.10gb");
    EXPECT_NE(klass["spec"]["selectors"][0]["cel"]["expression"].get<std::string>().find(
                  "profile == '1g.10gb'"),
        std::string::npos);
    EXPECT_TRUE(mapped.verdict.fits) << mapped.verdict.reason;

    // Without that toleration the pods fit on no GPU node, and the verdict names the taint.
    const auto untolerated = snapshotWith(
        mixedList(), { deployment("batch", "bare", 1, { { "nvidia.com/mig-1g.10gb", "1" } }) });
    const MigrationPlan untoleratedPlan = planOf(untolerated, {});
    const WorkloadMigration &bare = workloadOf(untoleratedPlan, "batch", "Deployment", "bare");
    EXPECT_FALSE(bare.verdict.fits);
    EXPECT_NE(bare.verdict.reason.find("nvidia.com/gpu=present:NoSchedule"), std::string::npos)
        << bare.verdict.reason;
}

TEST(MigrationPlanTest, AGpuModelPinnedByNodeLabelBecomesAProductNameSelector)
{
    const auto snapshot = snapshotWith(mixedList(),
        { deployment("team", "h100-only", 1, { { "nvidia.com/gpu", "1" } },
            { { "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3" } }) });
    const MigrationPlan plan = planOf(snapshot, { "1.34", "" });
    const WorkloadMigration &w = workloadOf(plan, "team", "Deployment", "h100-only");
    ASSERT_EQ(w.proposal.form, MigrationForm::ClaimTemplate) << w.proposal.reason;
    const json &exactly
        = templateOf(w.proposal)["spec"]["spec"]["devices"]["requests"][0]["exactly"];
    EXPECT_EQ(exactly["selectors"][0]["cel"]["expression"],
        "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H100 80GB HBM3'");
    EXPECT_FALSE(w.proposal.podTemplate["spec"].contains("nodeSelector"))
        << "the model label moved into the claim";
    EXPECT_TRUE(w.verdict.fits) << w.verdict.reason;
    for (const auto &[node, pods] : w.verdict.nodes)
        for (const inventory::Device *device : snapshot->devicesOnNode(node))
            if (device->type() == "gpu") {
                EXPECT_EQ(device->productName(), "NVIDIA H100 80GB HBM3") << node;
            }
}

TEST(MigrationPlanTest, AWorkloadThatCannotFitSaysWhy)
{
    const auto snapshot = snapshotWith(mixedList(),
        { deployment("team", "too-big", 1, { { "nvidia.com/gpu", "64" } }),
            deployment("team", "too-many", 500, { { "nvidia.com/gpu", "1" } }) });
    const MigrationPlan plan = planOf(snapshot, {});
    const WorkloadMigration &big = workloadOf(plan, "team", "Deployment", "too-big");
    EXPECT_FALSE(big.verdict.fits);
    EXPECT_EQ(big.verdict.placed, 0);
    EXPECT_NE(big.verdict.reason.find("0 of 1 pod(s)"), std::string::npos) << big.verdict.reason;
    EXPECT_TRUE(!big.verdict.explanation.empty() || !big.verdict.error.empty());

    const WorkloadMigration &many = workloadOf(plan, "team", "Deployment", "too-many");
    EXPECT_FALSE(many.verdict.fits);
    EXPECT_GT(many.verdict.placed, 0);
    EXPECT_LT(many.verdict.placed, 500);
    EXPECT_FALSE(many.verdict.reason.empty());
    const json document = toJson(plan);
    for (const json &w : document["workloads"])
        if (w["name"] == "too-big") {
            EXPECT_FALSE(w["verdict"]["reason"].get<std::string>().empty()) << w.dump();
        }
}

// `list` with `taint` on every Node that has DRA devices (all of them when `only` is empty,
// else just that one).
json withNodeTaint(json list, const json &taint, const std::string &only = {})
{
    const auto plain = snapshotWith(list, {});
    const std::vector<std::string> draNodes = plain->deviceNodes();
    for (json &item : list["items"]) {
        if (item["kind"] != "Node")
            continue;
        const std::string name = item["metadata"]["name"];
        if (std::ranges::find(draNodes, name) == draNodes.end() || (!only.empty() && name != only))
            continue;
        item["spec"]["taints"].push_back(taint);
    }
    return list;
}

// The scheduler places the migrated pods only where their own node affinity and tolerations
// let them; the verdict follows it.
TEST(MigrationPlanTest, TheVerdictKeepsThePodsAffinityAndTolerations)
{
    json pinned = deployment("team", "pinned", 1, { { "nvidia.com/gpu", "1" } });
    pinned["spec"]["template"]["spec"]["affinity"] = { { "nodeAffinity",
        { { "requiredDuringSchedulingIgnoredDuringExecution",
            { { "nodeSelectorTerms",
                json::array({ { { "matchExpressions",
                    json::array({ { { "key", "example.com/rack" }, { "operator", "In" },
                        { "values", json::array({ "r7" }) } } }) } } }) } } } } } };
    const json dedicated
        = { { "key", "dedicated" }, { "value", "training" }, { "effect", "NoSchedule" } };
    json tolerant = deployment("team", "tolerant", 1, { { "nvidia.com/gpu", "1" } });
    tolerant["spec"]["template"]["spec"]["tolerations"] = json::array({ { { "key", "dedicated" },
        { "operator", "Equal" }, { "value", "training" }, { "effect", "NoSchedule" } } });
    const json plain = deployment("team", "plain", 1, { { "nvidia.com/gpu", "1" } });

    const auto tainted
        = snapshotWith(withNodeTaint(mixedList(), dedicated), { pinned, tolerant, plain });
    const MigrationPlan plan = planOf(tainted, {});
    const WorkloadMigration &p = workloadOf(plan, "team", "Deployment", "pinned");
    EXPECT_FALSE(p.verdict.fits);
    EXPECT_NE(p.verdict.reason.find("required node affinity"), std::string::npos)
        << p.verdict.reason;
    const WorkloadMigration &n = workloadOf(plan, "team", "Deployment", "plain");
    EXPECT_FALSE(n.verdict.fits) << "every DRA node is tainted";
    EXPECT_NE(n.verdict.reason.find("dedicated=training:NoSchedule"), std::string::npos)
        << n.verdict.reason;
    const WorkloadMigration &t = workloadOf(plan, "team", "Deployment", "tolerant");
    EXPECT_TRUE(t.verdict.fits) << t.verdict.reason;

    // A taint that only prefers is no filter; one tainted node is left out, the others serve.
    const json prefer
        = { { "key", "dedicated" }, { "value", "training" }, { "effect", "PreferNoSchedule" } };
    EXPECT_TRUE(workloadOf(planOf(snapshotWith(withNodeTaint(mixedList(), prefer), { plain }), {}),
        "team", "Deployment", "plain")
                    .verdict.fits);
    json wide = deployment("team", "wide", 40, { { "nvidia.com/gpu", "1" } });
    const MigrationPlan untainted = planOf(snapshotWith(mixedList(), { wide }), {});
    const auto &used = workloadOf(untainted, "team", "Deployment", "wide").verdict.nodes;
    ASSERT_FALSE(used.empty());
    const std::string first = used.begin()->first;
    const MigrationPlan one
        = planOf(snapshotWith(withNodeTaint(mixedList(), dedicated, first), { wide }), {});
    const WorkloadMigration &w = workloadOf(one, "team", "Deployment", "wide");
    EXPECT_FALSE(w.verdict.nodes.contains(first)) << "the tainted node gets no pod";
    EXPECT_GT(w.verdict.placed, 0);
}

TEST(MigrationPlanTest, PodsWithoutTheirWorkloadObjectsAreGroupedByOwner)
{
    json list = mixedList();
    json kept = json::array();
    for (const json &item : list["items"])
        if (item["kind"] != "Deployment" && item["kind"] != "ReplicaSet")
            kept.push_back(item);
    list["items"] = kept;
    json fpga = { { "apiVersion", "v1" }, { "kind", "Pod" },
        { "metadata", { { "name", "fpga-job" }, { "namespace", "lab" }, { "uid", "uid-fpga" } } },
        { "spec",
            { { "containers",
                json::array({ { { "name", "main" }, { "image", "x" },
                    { "resources", { { "limits", { { "example.com/fpga", "1" } } } } } } }) } } } };
    const auto snapshot = snapshotWith(list, { fpga });
    const MigrationPlan plan = planOf(snapshot, {});

    const WorkloadMigration &llm = workloadOf(plan, "inference", "Deployment", "llm-server");
    EXPECT_EQ(llm.workload.source, "pods") << "named from the ReplicaSet and pod-template-hash";
    EXPECT_EQ(size_t(llm.workload.replicas), llm.workload.pods.size());
    EXPECT_GT(llm.workload.replicas, 0);

    const WorkloadMigration &bare = workloadOf(plan, "lab", "Pod", "fpga-job");
    EXPECT_EQ(bare.proposal.form, MigrationForm::None);
    EXPECT_NE(bare.proposal.reason.find("example.com/fpga"), std::string::npos);
    EXPECT_FALSE(bare.verdict.fits);
}

TEST(MigrationPlanTest, ExtendedResourceNamesFollowKubernetes)
{
    EXPECT_TRUE(isExtendedResourceName("nvidia.com/gpu"));
    EXPECT_TRUE(isExtendedResourceName("nvidia.com/mig-1g.10gb"));
    EXPECT_FALSE(isExtendedResourceName("cpu"));
    EXPECT_FALSE(isExtendedResourceName("hugepages-2Mi"));
    EXPECT_FALSE(isExtendedResourceName("kubernetes.io/something"));
    EXPECT_FALSE(isExtendedResourceName("requests.nvidia.com/gpu"));
}

} // namespace
} // namespace dra::alloc
