// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/release/kubernetes_release.h"

#include <optional>
#include <vector>

#include "core/common/json_text.h"

namespace dra::release {

namespace {

using common::Error;
using common::qs;

// The development tree the gate table describes beyond the newest release.
constexpr int kDevelopmentMinor = 37;

// "A=true,B=false" -> the items, for naming what differs from the defaults.
std::vector<std::string> items(const std::string &text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos)
            end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

} // namespace

int developmentReleaseMinor()
{
    return kDevelopmentMinor;
}

KubernetesRelease KubernetesRelease::newest()
{
    return withDefaults(newestReleaseMinor());
}

KubernetesRelease KubernetesRelease::withDefaults(int minor)
{
    return KubernetesRelease { minor, FeatureGates::forMinorVersion(minor) };
}

Result<KubernetesRelease> KubernetesRelease::parse(
    std::string_view version, std::string_view featureGates)
{
    int minor = newestReleaseMinor();
    if (!version.empty()) {
        const std::optional<int> parsed = minorVersionOf(version);
        if (!parsed)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--kubernetes-version: '%1' is not a Kubernetes version (1.NN, "
                               "such as 1.34)")
                    .arg(qs(version)));
        if (*parsed < kOldestModelledMinor || *parsed > kDevelopmentMinor)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--kubernetes-version: Kubernetes 1.%1 is not modelled: DRA with "
                               "structured parameters is checked for 1.%2 to 1.%3")
                    .arg(*parsed)
                    .arg(kOldestModelledMinor)
                    .arg(kDevelopmentMinor));
        minor = *parsed;
    }
    KubernetesRelease release = withDefaults(minor);
    if (Result<void> applied = release.gates.apply(featureGates, minor); !applied)
        return std::unexpected(applied.error());
    return release;
}

std::string KubernetesRelease::version() const
{
    return "1." + std::to_string(minor);
}

std::string KubernetesRelease::description() const
{
    std::string out = "Kubernetes " + version();
    const std::vector<std::string> defaults
        = items(FeatureGates::forMinorVersion(minor).toString());
    const std::vector<std::string> actual = items(gates.toString());
    std::string changed;
    for (size_t i = 0; i < actual.size() && i < defaults.size(); ++i) {
        if (actual[i] != defaults[i])
            changed += (changed.empty() ? "" : ",") + actual[i];
    }
    if (!changed.empty())
        out += " with " + changed;
    return out;
}

} // namespace dra::release
