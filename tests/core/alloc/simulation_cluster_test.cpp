// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/simulation_cluster.h"

#include <gtest/gtest.h>

#include "core/alloc/allocated_state.h"
#include "core/alloc/simulator.h"
#include "core/model/decode_resource.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::alloc {
namespace {

// The mixed demo inventory (two nodes) as a cache would hold it, recorded as reported by `version`.
inventory::SnapshotPtr presetSnapshot(const std::string &version)
{
    inventory::SnapshotSource source;
    source.cluster = "test";
    source.kubernetesVersion = version;
    source.objects = dra::test::recordsOf(dra::test::presetList("mixed", 2));
    source.rev = int64_t(source.objects.size());
    return inventory::buildSnapshot(std::move(source));
}

// A claim whose only request is a firstAvailable list: allocatable only with DRAPrioritizedList.
ClaimToAllocate firstAvailableClaim()
{
    return {
        "default", "either",
        model::detail::decodeClaimSpec(nlohmann::json::parse(R"({"devices":{"requests":[
            {"name":"gpu","firstAvailable":[{"name":"any","deviceClassName":"gpu.nvidia.com"}]}]}})"))
    };
}

TEST(SimulationClusterTest, FollowsTheSnapshotsRecordedVersion)
{
    const ClaimToAllocate claim = firstAvailableClaim();
    for (const auto &[version, allocates] : { std::pair { std::string("v1.33.4"), false },
             std::pair { std::string("v1.34.1"), true }, std::pair { std::string(), true } }) {
        const Result<SimulationCluster> built = simulationCluster(*presetSnapshot(version));
        ASSERT_TRUE(built.has_value()) << built.error().message.toStdString();
        EXPECT_EQ(built->cluster->kubernetesVersion(), version);
        Simulator simulator(
            *built->cluster, built->release, AllocatedState::fromClaims(*built->cluster));
        const Placement placement = simulator.place({ claim }, {});
        EXPECT_EQ(placement.allocated, allocates)
            << version << ": " << placement.error << placement.summary;
        if (!allocates) {
            EXPECT_NE(placement.error.find("DRAPrioritizedList"), std::string::npos)
                << placement.error;
        }
    }
}

TEST(SimulationClusterTest, HoldsWhatTheDiagnosisReadsSharedWithTheSnapshot)
{
    const inventory::SnapshotPtr snapshot = presetSnapshot("v1.36.0");
    const Result<SimulationCluster> built = simulationCluster(*snapshot);
    ASSERT_TRUE(built.has_value());
    for (const model::Kind kind : { model::Kind::Node, model::Kind::DeviceClass,
             model::Kind::ResourceClaim, model::Kind::Pod }) {
        const auto objects = snapshot->objects(kind);
        ASSERT_FALSE(objects.empty()) << model::kindInfo(kind).name;
        EXPECT_EQ(built->cluster->objectsOf(kind).size(), objects.size());
        EXPECT_EQ(built->cluster->objectsOf(kind).front(), objects.front().get())
            << "the snapshot's object itself, not a copy";
    }
    EXPECT_EQ(built->cluster->slices().size(), snapshot->slices().size());
}

TEST(SimulationClusterCacheTest, BuildsOncePerRevisionVersionAndChoice)
{
    const inventory::SnapshotPtr snapshot = presetSnapshot("v1.36.0");
    SimulationClusterCache cache;
    const Result<SimulationCluster> first = cache.of(snapshot);
    const Result<SimulationCluster> again = cache.of(snapshot);
    ASSERT_TRUE(first && again);
    EXPECT_EQ(first->cluster, again->cluster);

    const Result<SimulationCluster> chosen = cache.of(snapshot, { "1.33", "" });
    ASSERT_TRUE(chosen.has_value());
    EXPECT_EQ(chosen->release.minor, 33);

    // The same objects reported by another release: a new release, even at the same revision.
    const Result<SimulationCluster> older = cache.of(presetSnapshot("v1.33.0"));
    ASSERT_TRUE(older.has_value());
    EXPECT_EQ(older->release.minor, 33);
    EXPECT_NE(older->cluster, first->cluster);
}

} // namespace
} // namespace dra::alloc
