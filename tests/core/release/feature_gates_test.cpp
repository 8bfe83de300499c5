// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/release/feature_gates.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/upstream.h"

namespace dra::release {
namespace {

// Our gate table must say exactly what kube_features.go says for every version 1.26-1.37.
TEST(FeatureGatesTest, TableMatchesKubernetesVersionedSpecs)
{
    DRA_REQUIRE_UPSTREAM(path, "k8s-dra-feature-gates.json");
    const nlohmann::json reference = nlohmann::json::parse(dra::test::readFile(path));
    const nlohmann::json &matrix = reference.at("matrix_1_26_to_1_37");
    ASSERT_EQ(matrix.size(), gateHistories().size());
    for (const GateHistory &gate : gateHistories()) {
        ASSERT_TRUE(matrix.contains(gate.name)) << gate.name;
        for (int minor = 26; minor <= 37; ++minor) {
            const nlohmann::json &expected = matrix.at(gate.name).at("1." + std::to_string(minor));
            const GateSpec *spec = gateSpecAt(gate, minor);
            if (expected.is_null()) {
                EXPECT_EQ(spec, nullptr) << gate.name << " 1." << minor;
                continue;
            }
            ASSERT_NE(spec, nullptr) << gate.name << " 1." << minor;
            EXPECT_EQ(spec->defaultValue, expected.at("default").get<bool>())
                << gate.name << " 1." << minor;
            EXPECT_EQ(spec->locked, expected.at("locked").get<bool>())
                << gate.name << " 1." << minor;
            EXPECT_EQ(spec->stage, expected.at("stage").get<std::string>())
                << gate.name << " 1." << minor;
        }
    }
}

TEST(FeatureGatesTest, NewestReleaseDefaults)
{
    const FeatureGates gates = FeatureGates::newestRelease();
    EXPECT_EQ(newestReleaseMinor(), 36);
    EXPECT_TRUE(gates.prioritizedList);
    EXPECT_TRUE(gates.adminAccess);
    EXPECT_TRUE(gates.deviceTaints);
    EXPECT_FALSE(gates.deviceTaintRules);
    EXPECT_TRUE(gates.partitionableDevices);
    EXPECT_TRUE(gates.consumableCapacity);
    EXPECT_TRUE(gates.bindingConditions());
}

TEST(FeatureGatesTest, ClusterVersionSelectsItsDefaults)
{
    const std::optional<FeatureGates> v134 = FeatureGates::forVersionText("v1.34.2");
    ASSERT_TRUE(v134);
    EXPECT_TRUE(v134->prioritizedList);
    EXPECT_FALSE(v134->partitionableDevices);
    EXPECT_FALSE(v134->consumableCapacity);
    EXPECT_EQ(minorVersionOf("1.33.1-gke.100"), 33);
    EXPECT_FALSE(FeatureGates::forVersionText("banana"));
}

TEST(FeatureGatesTest, FlagSetsGatesAsKubeSchedulerDoes)
{
    FeatureGates gates = FeatureGates::forMinorVersion(34);
    ASSERT_TRUE(gates.apply("DRAPartitionableDevices=true, DRAPrioritizedList=false", 34));
    EXPECT_TRUE(gates.partitionableDevices);
    EXPECT_FALSE(gates.prioritizedList);

    EXPECT_FALSE(gates.apply("DRAConsumableCapacity=maybe", 34));
    EXPECT_FALSE(gates.apply("NoSuchGate=true", 34));
    // Not there yet in 1.32.
    EXPECT_FALSE(gates.apply("DRADeviceTaints=true", 32));
    // Locked to true once GA.
    const Result<void> locked = gates.apply("DRAAdminAccess=false", 36);
    ASSERT_FALSE(locked);
    EXPECT_TRUE(locked.error().message.contains(QStringLiteral("locked")));
}

} // namespace
} // namespace dra::release
