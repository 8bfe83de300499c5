// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/release/release_choice.h"

#include <gtest/gtest.h>

namespace dra::release {
namespace {

TEST(RecordedReleaseTest, TheClusterVersionWithItsDefaults)
{
    const ChosenRelease recorded = recordedRelease("v1.33.4");
    EXPECT_EQ(recorded.minor, 33);
    EXPECT_EQ(recorded.from, "the cluster's version, v1.33.4");
    EXPECT_EQ(recorded.text(), "Kubernetes 1.33 (the cluster's version, v1.33.4)");
    EXPECT_FALSE(recorded.gates.prioritizedList) << "alpha and off in 1.33";
    EXPECT_TRUE(recorded.gates.resourceClaimDeviceStatus) << "beta and on in 1.33";
}

TEST(RecordedReleaseTest, UnknownVersionIsTheNewestReleaseAndSaysSo)
{
    for (const std::string_view version : { std::string_view(), std::string_view("unknown") }) {
        const ChosenRelease unknown = recordedRelease(version);
        EXPECT_EQ(unknown.minor, newestReleaseMinor());
        EXPECT_EQ(unknown.gates.toString(), FeatureGates::newestRelease().toString());
        EXPECT_NE(unknown.from.find("not known"), std::string::npos) << unknown.from;
    }
}

TEST(RecordedReleaseTest, AClusterOutsideTheModelledRangeIsFollowedAndSaidSo)
{
    // A cluster newer than this build runs its own release; checking it as an older one would
    // refuse what its API server accepts.
    const ChosenRelease newer = recordedRelease("v1.40.1");
    EXPECT_EQ(newer.minor, 40);
    EXPECT_NE(newer.from.find("v1.40.1"), std::string::npos) << newer.from;
    EXPECT_NE(newer.from.find("modelled are 1.31"), std::string::npos) << newer.from;
}

TEST(ChooseReleaseTest, AskedVersionAndGatesWin)
{
    const Result<ChosenRelease> chosen
        = chooseRelease("v1.36.0", { "1.33", "DRAPrioritizedList=true" });
    ASSERT_TRUE(chosen.has_value()) << chosen.error().message.toStdString();
    EXPECT_EQ(chosen->minor, 33);
    EXPECT_TRUE(chosen->gates.prioritizedList);
    EXPECT_EQ(chosen->from, "as asked");
    EXPECT_EQ(chosen->text(), "Kubernetes 1.33 with DRAPrioritizedList=true (as asked)");
}

TEST(ChooseReleaseTest, GatesApplyToTheClustersOwnRelease)
{
    const Result<ChosenRelease> chosen
        = chooseRelease("v1.33.2", { "", "DRAPrioritizedList=true" });
    ASSERT_TRUE(chosen.has_value()) << chosen.error().message.toStdString();
    EXPECT_EQ(chosen->minor, 33);
    EXPECT_TRUE(chosen->gates.prioritizedList);
    EXPECT_EQ(chosen->from, "the cluster's version, v1.33.2");
}

TEST(ChooseReleaseTest, NoChoiceIsTheRecordedRelease)
{
    const Result<ChosenRelease> chosen = chooseRelease("v1.34.0");
    ASSERT_TRUE(chosen.has_value());
    const ChosenRelease recorded = recordedRelease("v1.34.0");
    EXPECT_EQ(static_cast<const KubernetesRelease &>(*chosen), recorded);
    EXPECT_EQ(chosen->from, recorded.from);
}

TEST(ChooseReleaseTest, BadVersionsAndGatesAreErrorsNamingTheOption)
{
    const Result<ChosenRelease> notAVersion = chooseRelease("", { "latest", "" });
    ASSERT_FALSE(notAVersion.has_value());
    EXPECT_TRUE(notAVersion.error().message.contains(QStringLiteral("--kubernetes-version")));
    EXPECT_TRUE(notAVersion.error().message.contains(QStringLiteral("latest")));
    // Asked for, an unmodelled release is refused: its rules would be guessed.
    ASSERT_FALSE(chooseRelease("", { "1.29", "" }).has_value());
    const Result<ChosenRelease> badGate = chooseRelease("v1.36.0", { "", "NoSuchGate=1" });
    ASSERT_FALSE(badGate.has_value());
    EXPECT_TRUE(badGate.error().message.contains(QStringLiteral("NoSuchGate")));
}

} // namespace
} // namespace dra::release
