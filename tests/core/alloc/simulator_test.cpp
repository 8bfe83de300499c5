// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The simulator on the demo cluster (the `mixed` preset): placement across nodes, explanations
// of claims that do not fit, and fit analysis of templates.
#include "core/alloc/simulator.h"

#include <gtest/gtest.h>

#include "core/alloc/selector_clauses.h"
#include "core/alloc/simulation_json.h"
#include "core/sandbox/presets.h"

namespace dra::alloc {
namespace {

using nlohmann::json;

std::shared_ptr<const Cluster> demoCluster()
{
    static std::shared_ptr<const Cluster> cluster = [] {
        Result<json> list = sandbox::generateInventory({ "mixed", 0, 1 });
        EXPECT_TRUE(list.has_value());
        std::vector<model::Object> objects;
        for (const json &item : (*list)["items"]) {
            Result<model::Object> object = model::decodeObject(item);
            EXPECT_TRUE(object.has_value());
            objects.push_back(std::move(*object));
        }
        Result<Cluster> built = Cluster::build(std::move(objects));
        EXPECT_TRUE(built.has_value());
        return std::make_shared<const Cluster>(std::move(*built));
    }();
    return cluster;
}

ClaimToAllocate claimOf(const std::string &name, const json &spec)
{
    json object = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", name }, { "namespace", "default" } } }, { "spec", spec } };
    Result<model::Object> decoded = model::decodeObject(object);
    EXPECT_TRUE(decoded.has_value());
    return { "default", name, decoded->as<model::ResourceClaim>()->spec };
}

json gpuRequest(const std::string &name, int count, const std::string &cls = "gpu.nvidia.com",
    const std::string &selector = {})
{
    json exactly = { { "deviceClassName", cls }, { "count", count } };
    if (!selector.empty())
        exactly["selectors"] = json::array({ { { "cel", { { "expression", selector } } } } });
    return { { "name", name }, { "exactly", exactly } };
}

Simulator demoSimulator()
{
    const Cluster &cluster = *demoCluster();
    return Simulator(
        cluster, release::KubernetesRelease::newest(), AllocatedState::fromClaims(cluster));
}

const model::DeviceAttribute *attribute(
    const Cluster &cluster, const DeviceResult &result, const std::string &name)
{
    return cluster.devices()[size_t(result.device)].spec->attribute(name, result.driver);
}

TEST(SimulatorTest, TwoGpusSharingAPcieRootLandOnOneRoot)
{
    Simulator simulator = demoSimulator();
    const ClaimToAllocate claim = claimOf("pair",
        { { "devices",
            { { "requests", json::array({ gpuRequest("gpus", 2) }) },
                { "constraints",
                    json::array(
                        { { { "matchAttribute", "resource.kubernetes.io/pcieRoot" } } }) } } } });
    const Placement placement = simulator.place({ claim });
    ASSERT_TRUE(placement.allocated) << placement.error;
    ASSERT_EQ(placement.claims.size(), 1u);
    const std::vector<DeviceResult> &devices = placement.claims[0].devices;
    ASSERT_EQ(devices.size(), 2u);
    const Cluster &cluster = simulator.cluster();
    EXPECT_NE(devices[0].name, devices[1].name);
    EXPECT_EQ(attribute(cluster, devices[0], "resource.kubernetes.io/pcieRoot")->stringValue,
        attribute(cluster, devices[1], "resource.kubernetes.io/pcieRoot")->stringValue);
    // Node-local devices pin the claim to the node it was allocated on.
    EXPECT_EQ(
        placement.claims[0].nodeSelector["nodeSelectorTerms"][0]["matchFields"][0]["values"][0],
        cluster.nodes()[size_t(placement.node)].name);
    // The devices are taken now.
    EXPECT_TRUE(simulator.state().isAllocated(cluster.devices()[size_t(devices[0].device)].id));
}

TEST(SimulatorTest, MigSliceComesFromAPartitionedGpuAndUsesItsCounters)
{
    Simulator simulator = demoSimulator();
    const ClaimToAllocate claim = claimOf("mig",
        { { "devices",
            { { "requests",
                json::array({ gpuRequest("mig", 1, "mig.nvidia.com",
                    "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'") }) } } } });
    const Placement placement = simulator.place({ claim });
    ASSERT_TRUE(placement.allocated) << placement.error;
    const DeviceResult &device = placement.claims[0].devices[0];
    EXPECT_EQ(attribute(simulator.cluster(), device, "profile")->stringValue, "1g.10gb");
    EXPECT_EQ(simulator.cluster().nodes()[size_t(placement.node)].name.rfind("a100-mig-", 0), 0u);
    // The whole GPU behind that slice can no longer be allocated: its counters are in use.
    const std::string parent = attribute(simulator.cluster(), device, "parentUUID")->stringValue;
    const ClaimToAllocate whole = claimOf("whole",
        { { "devices",
            { { "requests",
                json::array({ gpuRequest("gpu", 1, "gpu.nvidia.com",
                    "device.attributes['gpu.nvidia.com'].uuid == '" + parent + "'") }) } } } });
    SimulationOptions options;
    options.node = simulator.cluster().nodes()[size_t(placement.node)].name;
    const Placement blocked = simulator.place({ whole }, options);
    EXPECT_FALSE(blocked.allocated);
    ASSERT_EQ(blocked.explanation.size(), 1u);
    EXPECT_EQ(blocked.explanation[0].failedAt, FunnelStep::Free);
    EXPECT_EQ(blocked.explanation[0].noCounters, 1);
}

TEST(SimulatorTest, ImpossibleClaimIsExplainedNodeByNodeWithTheBlamedClause)
{
    Simulator simulator = demoSimulator();
    const std::string selector = "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA B200'";
    const ClaimToAllocate claim = claimOf("b200",
        { { "devices",
            { { "requests",
                json::array({ gpuRequest("gpu", 1, "gpu.nvidia.com", selector) }) } } } });
    SimulationOptions options;
    options.maxExplainedNodes = 0;
    const Placement placement = simulator.place({ claim }, options);
    EXPECT_FALSE(placement.allocated);
    EXPECT_TRUE(placement.error.empty()) << placement.error;
    ASSERT_EQ(placement.explanation.size(), simulator.cluster().nodes().size());
    const NodeExplanation &first = placement.explanation.front();
    EXPECT_EQ(first.failedAt, FunnelStep::Selectors);
    EXPECT_EQ(first.request, "gpu");
    EXPECT_EQ(first.matching, 0);
    EXPECT_GT(first.ofClass, 0);
    ASSERT_EQ(first.clauses.size(), 1u);
    EXPECT_EQ(first.clauses[0].clause, selector);
    EXPECT_EQ(first.clauses[0].eliminated, first.ofClass);
    // Nodes whose GPUs the device plugin manages have no usable pool at all.
    EXPECT_EQ(placement.explanation.back().failedAt, FunnelStep::Pools);
    EXPECT_NE(placement.summary.find("0/15 nodes can allocate the claims"), std::string::npos)
        << placement.summary;
    const json entry = explanationJson(first);
    EXPECT_EQ(entry["failedAt"], "selectors");
    EXPECT_EQ(entry["eliminatedBy"][0]["clause"], selector);
}

TEST(SimulatorTest, UnknownClassIsAnErrorNotAnExplanation)
{
    Simulator simulator = demoSimulator();
    const ClaimToAllocate claim = claimOf("typo",
        { { "devices",
            { { "requests", json::array({ gpuRequest("gpu", 1, "gpu.nvidia.comm") }) } } } });
    const Placement placement = simulator.place({ claim });
    EXPECT_FALSE(placement.allocated);
    EXPECT_EQ(placement.error,
        "claim default/typo, request gpu: could not retrieve device class gpu.nvidia.comm: "
        "deviceclass.resource.k8s.io \"gpu.nvidia.comm\" not found");
    EXPECT_TRUE(placement.explanation.empty());
}

TEST(SimulatorTest, FullNodesAreExplainedAsHeldByOtherClaims)
{
    Simulator simulator = demoSimulator();
    const ClaimToAllocate claim = claimOf(
        "eight", { { "devices", { { "requests", json::array({ gpuRequest("gpus", 8) }) } } } });
    SimulationOptions options;
    options.node = "h100-000"; // the inference server holds all its GPUs
    const Placement placement = simulator.place({ claim }, options);
    ASSERT_FALSE(placement.allocated);
    ASSERT_EQ(placement.explanation.size(), 1u);
    const NodeExplanation &e = placement.explanation[0];
    EXPECT_EQ(e.failedAt, FunnelStep::Free);
    EXPECT_EQ(e.allocated, 8);
    EXPECT_EQ(e.free, 0);
    ASSERT_FALSE(e.holders.empty());
    EXPECT_EQ(e.holders[0].rfind("inference/", 0), 0u) << e.holders[0];
}

TEST(SimulatorTest, ClaimsOfOnePodAreAllocatedTogetherOrNotAtAll)
{
    Simulator simulator = demoSimulator();
    const ClaimToAllocate fits = claimOf(
        "a", { { "devices", { { "requests", json::array({ gpuRequest("gpu", 1) }) } } } });
    const ClaimToAllocate impossible = claimOf(
        "b", { { "devices", { { "requests", json::array({ gpuRequest("gpu", 9) }) } } } });
    const AllocatedState before = simulator.state();
    const Placement placement = simulator.place({ fits, impossible });
    EXPECT_FALSE(placement.allocated);
    EXPECT_EQ(simulator.state().revision(), before.revision());
}

TEST(SimulatorTest, FitAnalysisCountsCopiesUntilTheClusterIsFull)
{
    const Cluster &cluster = *demoCluster();
    const ClaimToAllocate single = claimOf("l40s",
        { { "devices",
            { { "requests",
                json::array({ gpuRequest("gpu", 1, "gpu.nvidia.com",
                    "device.attributes['gpu.nvidia.com'].productName == "
                    "'NVIDIA L40S'") }) } } } });
    const FitAnalysis fit = analyzeFit(cluster, release::KubernetesRelease::newest(),
        AllocatedState::fromClaims(cluster), single, 100);
    // Two L40S nodes with 4 GPUs each; the demo's inference claims hold three of them.
    EXPECT_EQ(fit.nodesWhereOneFits, (std::vector<std::string> { "l40s-000", "l40s-001" }));
    EXPECT_EQ(fit.copiesThatFit, 5);
    EXPECT_FALSE(fit.capped);
    EXPECT_FALSE(fit.nextCopy.allocated);
    ASSERT_FALSE(fit.nextCopy.explanation.empty());
    EXPECT_EQ(fit.nextCopy.explanation[0].failedAt, FunnelStep::Free);
}

TEST(SelectorClausesTest, SplitsTopLevelConjunctionsOnly)
{
    EXPECT_EQ(splitClauses("a && b"), (std::vector<std::string> { "a", "b" }));
    EXPECT_EQ(splitClauses(" (a && (b || c)) && d['x&&y'] == \"&&\" "),
        (std::vector<std::string> { "a", "(b || c)", "d['x&&y'] == \"&&\"" }));
    EXPECT_EQ(splitClauses("a || b && c"), (std::vector<std::string> { "a || b && c" }));
    EXPECT_EQ(splitClauses("a ? b && c : d"), (std::vector<std::string> { "a ? b && c : d" }));
    EXPECT_EQ(splitClauses("f(a && b)"), (std::vector<std::string> { "f(a && b)" }));
    EXPECT_EQ(splitClauses("(a) || (b)"), (std::vector<std::string> { "(a) || (b)" }));
}

TEST(SimulationJsonTest, QuantitiesKeepTheirFamily)
{
    const Nano gi = Nano(1) << 30;
    EXPECT_EQ(formatQuantity(gi * 4 * 1'000'000'000, model::Quantity::Format::BinarySI), "4Gi");
    EXPECT_EQ(
        formatQuantity(Nano(2'000) * 1'000'000'000, model::Quantity::Format::DecimalSI), "2k");
    EXPECT_EQ(formatQuantity(500'000'000, model::Quantity::Format::DecimalSI), "500m");
}

} // namespace
} // namespace dra::alloc
