// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Which release a check or a simulation follows, and how the answer says where it came from.
// `dractl cel`, `dractl simulate`/`explain`/`template check`, the desktop and the web console
// all choose here, so one cache gives one release (and one wording) in each of them.
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/release/kubernetes_release.h"

namespace dra::release {

// What the user asked for; an empty field keeps the default.
struct ReleaseChoice
{
    std::string kubernetesVersion; // "1.33" or "v1.33.2" instead of the cluster's own
    std::string featureGates; // kube-scheduler's --feature-gates over the release's defaults

    bool operator==(const ReleaseChoice &) const = default;
};

// A release and where it came from.
struct ChosenRelease : KubernetesRelease
{
    // "as asked", "the cluster's version, v1.34.2", or "the newest release; the cluster's
    // version is not known".
    std::string from;

    // "Kubernetes 1.34 (the cluster's version, v1.34.2)", with the gates that differ from the
    // release's defaults (KubernetesRelease::description()).
    std::string text() const;

    bool operator==(const ChosenRelease &) const = default;
};

// The release of a cluster that reports `recordedVersion` ("v1.34.2"; "" when not known) with
// its default gates, else the newest release this build knows. The cluster's own release is
// followed even outside the modelled range (it is what runs there), and `from` says so.
ChosenRelease recordedRelease(std::string_view recordedVersion);

// The asked version (KubernetesRelease::parse()), else recordedRelease(), with the asked gates
// applied as kube-scheduler applies --feature-gates. Fails on an asked version outside the
// modelled range and on gates Kubernetes would refuse (unknown, locked), naming the option.
[[nodiscard]] Result<ChosenRelease> chooseRelease(
    std::string_view recordedVersion, const ReleaseChoice &choice = {});

} // namespace dra::release
