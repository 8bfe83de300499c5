// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/release/kubernetes_release.h"

#include <gtest/gtest.h>

namespace dra::release {
namespace {

TEST(KubernetesReleaseTest, NewestIsTheNewestReleaseWithItsDefaults)
{
    const KubernetesRelease newest = KubernetesRelease::newest();
    EXPECT_EQ(newest.minor, newestReleaseMinor());
    EXPECT_EQ(newest.gates, FeatureGates::newestRelease());
    EXPECT_FALSE(newest.gates.listTypeAttributes); // alpha in 1.36
    EXPECT_EQ(newest.description(), "Kubernetes 1.36");
}

TEST(KubernetesReleaseTest, ParsesVersionsAsUsersAndClustersWriteThem)
{
    for (const char *text : { "1.34", "v1.34.2", "1.34.1-gke.100" }) {
        const Result<KubernetesRelease> r = KubernetesRelease::parse(text);
        ASSERT_TRUE(r) << text;
        EXPECT_EQ(r->minor, 34) << text;
        EXPECT_EQ(r->gates, FeatureGates::forMinorVersion(34)) << text;
        EXPECT_EQ(r->version(), "1.34");
    }
    const Result<KubernetesRelease> empty = KubernetesRelease::parse("");
    ASSERT_TRUE(empty);
    EXPECT_EQ(*empty, KubernetesRelease::newest());
}

TEST(KubernetesReleaseTest, AppliesFeatureGatesForThatRelease)
{
    const Result<KubernetesRelease> r = KubernetesRelease::parse(
        "1.36", "DRAListTypeAttributes=true,DRAConsumableCapacity=false");
    ASSERT_TRUE(r) << r.error().message.toStdString();
    EXPECT_TRUE(r->gates.listTypeAttributes);
    EXPECT_FALSE(r->gates.consumableCapacity);
    EXPECT_EQ(r->description(),
        "Kubernetes 1.36 with DRAConsumableCapacity=false,DRAListTypeAttributes=true");
}

TEST(KubernetesReleaseTest, RejectsWhatTheReleaseDoesNotHave)
{
    const auto message = [](std::string_view version, std::string_view gates) {
        const Result<KubernetesRelease> r = KubernetesRelease::parse(version, gates);
        EXPECT_FALSE(r) << version << " " << gates;
        return r ? std::string() : r.error().message.toStdString();
    };
    EXPECT_NE(
        message("banana", "").find("'banana' is not a Kubernetes version"), std::string::npos);
    EXPECT_NE(message("1.29", "").find("Kubernetes 1.29 is not modelled"), std::string::npos);
    EXPECT_NE(message("1.38", "").find("1.31 to 1.37"), std::string::npos);
    // DRAListTypeAttributes does not exist before 1.36; admin access is locked on in 1.36.
    EXPECT_NE(message("1.35", "DRAListTypeAttributes=true")
                  .find("unrecognized feature gate: DRAListTypeAttributes"),
        std::string::npos);
    EXPECT_NE(message("1.36", "DRAAdminAccess=false").find("locked"), std::string::npos);
}

} // namespace
} // namespace dra::release
