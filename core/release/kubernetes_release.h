// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/release/feature_gates.h"

namespace dra::release {

// The oldest release whose DRA the console models: structured parameters arrived in 1.31.
inline constexpr int kOldestModelledMinor = 31;

// The newest minor version the console models, the development tree included (37 for 1.37).
int developmentReleaseMinor();

// A Kubernetes release as checks and simulations follow it: the minor version and the feature
// gates, resolved to on/off (the release's defaults unless changed). A plain value.
struct KubernetesRelease
{
    int minor = 0; // 1.<minor>
    FeatureGates gates;

    // The newest released Kubernetes this build knows, with its default gates.
    static KubernetesRelease newest();
    // Kubernetes 1.<minor> with its default gates.
    static KubernetesRelease withDefaults(int minor);
    // The release a user names ("1.34", "v1.34.2", "1.33.1-gke.100"; empty: the newest) with
    // kube-scheduler's --feature-gates syntax applied for it. Versions outside 1.31 to the
    // development release, unknown or locked gates are errors naming the flag.
    [[nodiscard]] static Result<KubernetesRelease> parse(
        std::string_view version, std::string_view featureGates = {});

    // "1.34".
    std::string version() const;
    // "Kubernetes 1.34" and, when the gates differ from the release's defaults, what changed
    // ("Kubernetes 1.36 with DRAListTypeAttributes=true").
    std::string description() const;

    bool operator==(const KubernetesRelease &) const = default;
};

} // namespace dra::release
