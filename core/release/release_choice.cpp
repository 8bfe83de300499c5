// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/release/release_choice.h"

#include <optional>

namespace dra::release {

std::string ChosenRelease::text() const
{
    return description() + " (" + from + ")";
}

ChosenRelease recordedRelease(std::string_view recordedVersion)
{
    ChosenRelease out;
    const std::optional<int> minor = minorVersionOf(recordedVersion);
    if (!minor) {
        static_cast<KubernetesRelease &>(out) = KubernetesRelease::newest();
        out.from = "the newest release; the cluster's version is not known";
        return out;
    }
    static_cast<KubernetesRelease &>(out) = KubernetesRelease::withDefaults(*minor);
    out.from = "the cluster's version, " + std::string(recordedVersion);
    if (*minor < kOldestModelledMinor || *minor > developmentReleaseMinor())
        out.from += "; modelled are 1." + std::to_string(kOldestModelledMinor) + " to 1."
            + std::to_string(developmentReleaseMinor());
    return out;
}

Result<ChosenRelease> chooseRelease(std::string_view recordedVersion, const ReleaseChoice &choice)
{
    ChosenRelease out;
    if (!choice.kubernetesVersion.empty()) {
        Result<KubernetesRelease> asked = KubernetesRelease::parse(choice.kubernetesVersion);
        if (!asked)
            return std::unexpected(asked.error());
        static_cast<KubernetesRelease &>(out) = *asked;
        out.from = "as asked";
    } else {
        out = recordedRelease(recordedVersion);
    }
    if (Result<void> applied = out.gates.apply(choice.featureGates, out.minor); !applied)
        return std::unexpected(applied.error());
    return out;
}

} // namespace dra::release
