// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/release/feature_gates.h"

#include <algorithm>
#include <charconv>

#include "core/common/json_text.h"

namespace dra::release {

namespace {

using common::Error;
using common::qs;

// The newest Kubernetes release (not a development branch) the table below describes.
constexpr int kNewestReleaseMinor = 36;

bool *member(FeatureGates &gates, std::string_view name)
{
    if (name == "DRAPrioritizedList")
        return &gates.prioritizedList;
    if (name == "DRAAdminAccess")
        return &gates.adminAccess;
    if (name == "DRADeviceTaints")
        return &gates.deviceTaints;
    if (name == "DRADeviceTaintRules")
        return &gates.deviceTaintRules;
    if (name == "DRAPartitionableDevices")
        return &gates.partitionableDevices;
    if (name == "DRAConsumableCapacity")
        return &gates.consumableCapacity;
    if (name == "DRADeviceBindingConditions")
        return &gates.deviceBindingConditions;
    if (name == "DRAResourceClaimDeviceStatus")
        return &gates.resourceClaimDeviceStatus;
    if (name == "DRAListTypeAttributes")
        return &gates.listTypeAttributes;
    if (name == "DRAExtendedResource")
        return &gates.extendedResource;
    return nullptr;
}

const GateHistory *findGate(std::string_view name)
{
    for (const GateHistory &gate : gateHistories())
        if (name == gate.name)
            return &gate;
    return nullptr;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

} // namespace

const std::vector<GateHistory> &gateHistories()
{
    // The versioned specs of pkg/features/kube_features.go for the DRA gates.
    static const std::vector<GateHistory> gates = {
        { "DRAAdminAccess",
            { { 32, false, false, "Alpha" }, { 34, true, false, "Beta" },
                { 36, true, true, "GA" } } },
        { "DRAConsumableCapacity", { { 34, false, false, "Alpha" }, { 36, true, false, "Beta" } } },
        { "DRADeviceBindingConditions",
            { { 34, false, false, "Alpha" }, { 36, true, false, "Beta" } } },
        { "DRADeviceTaintRules",
            { { 35, false, false, "Alpha" }, { 36, false, false, "Beta" },
                { 37, true, false, "GA" } } },
        { "DRADeviceTaints",
            { { 33, false, false, "Alpha" }, { 36, true, false, "Beta" },
                { 37, true, false, "GA" } } },
        { "DRAExtendedResource",
            { { 34, false, false, "Alpha" }, { 36, true, false, "Beta" },
                { 37, true, true, "GA" } } },
        { "DRAFractionalCapacityRange", { { 37, true, false, "Beta" } } },
        { "DRAListTypeAttributes", { { 36, false, false, "Alpha" } } },
        { "DRANodeAllocatableResources", { { 36, false, false, "Alpha" } } },
        { "DRAOptionalNodeOperations", { { 37, false, false, "Alpha" } } },
        { "DRAPartitionableDevices",
            { { 33, false, false, "Alpha" }, { 36, true, false, "Beta" } } },
        { "DRAPartitionableDevicesType", { { 37, false, false, "Alpha" } } },
        { "DRAPrioritizedList",
            { { 33, false, false, "Alpha" }, { 34, true, false, "Beta" }, { 36, true, false, "GA" },
                { 37, true, true, "GA" } } },
        { "DRAResourceClaimDeviceStatus",
            { { 32, false, false, "Alpha" }, { 33, true, false, "Beta" },
                { 37, true, true, "GA" } } },
        { "DRAResourceClaimGranularStatusAuthorization", { { 36, true, false, "Beta" } } },
        { "DRAResourcePoolStatus", { { 36, false, false, "Alpha" } } },
        { "DRASchedulerFilterTimeout", { { 34, true, false, "Beta" } } },
        { "DRAWorkloadResourceClaims", { { 36, false, false, "Alpha" } } },
        { "DynamicResourceAllocation",
            { { 26, false, false, "Alpha" }, { 32, false, false, "Beta" },
                { 34, true, false, "GA" }, { 35, true, true, "GA" } } },
    };
    return gates;
}

const GateSpec *gateSpecAt(const GateHistory &gate, int minor)
{
    const GateSpec *found = nullptr;
    for (const GateSpec &spec : gate.specs)
        if (spec.minor <= minor)
            found = &spec;
    return found;
}

int newestReleaseMinor()
{
    return kNewestReleaseMinor;
}

std::optional<int> minorVersionOf(std::string_view version)
{
    if (!version.empty() && (version.front() == 'v' || version.front() == 'V'))
        version.remove_prefix(1);
    if (!version.starts_with("1."))
        return std::nullopt;
    version.remove_prefix(2);
    int minor = 0;
    const auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), minor);
    if (ec != std::errc() || end == version.data())
        return std::nullopt;
    return minor;
}

FeatureGates FeatureGates::forMinorVersion(int minor)
{
    FeatureGates gates;
    for (const GateHistory &gate : gateHistories()) {
        bool *value = member(gates, gate.name);
        if (!value)
            continue;
        const GateSpec *spec = gateSpecAt(gate, minor);
        *value = spec && spec->defaultValue;
    }
    return gates;
}

FeatureGates FeatureGates::newestRelease()
{
    return forMinorVersion(kNewestReleaseMinor);
}

std::optional<FeatureGates> FeatureGates::forVersionText(std::string_view version)
{
    const std::optional<int> minor = minorVersionOf(version);
    if (!minor)
        return std::nullopt;
    return forMinorVersion(*minor);
}

Result<void> FeatureGates::apply(std::string_view flag, int minor)
{
    while (!flag.empty()) {
        const size_t comma = flag.find(',');
        const std::string_view item = trim(flag.substr(0, comma));
        flag = comma == std::string_view::npos ? std::string_view() : flag.substr(comma + 1);
        if (item.empty())
            continue;
        const size_t equals = item.find('=');
        if (equals == std::string_view::npos)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--feature-gates: missing bool value for %1").arg(qs(item)));
        const std::string_view name = trim(item.substr(0, equals));
        const std::string_view text = trim(item.substr(equals + 1));
        bool value = false;
        if (text == "true" || text == "True" || text == "TRUE" || text == "1" || text == "t"
            || text == "T")
            value = true;
        else if (text == "false" || text == "False" || text == "FALSE" || text == "0" || text == "f"
            || text == "F")
            value = false;
        else
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--feature-gates: invalid value of %1=%2, err: strconv.ParseBool: "
                               "parsing \"%2\": invalid syntax")
                    .arg(qs(name), qs(text)));
        const GateHistory *gate = findGate(name);
        const GateSpec *spec = gate ? gateSpecAt(*gate, minor) : nullptr;
        if (!spec)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--feature-gates: unrecognized feature gate: %1 (Kubernetes 1.%2)")
                    .arg(qs(name))
                    .arg(minor));
        if (spec->locked && value != spec->defaultValue)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral(
                    "--feature-gates: cannot set feature gate %1 to %2, feature is locked to %3")
                    .arg(qs(name), value ? QStringLiteral("true") : QStringLiteral("false"),
                        spec->defaultValue ? QStringLiteral("true") : QStringLiteral("false")));
        if (bool *target = member(*this, name))
            *target = value;
    }
    return {};
}

std::string FeatureGates::toString() const
{
    std::string out;
    FeatureGates copy = *this;
    for (const GateHistory &gate : gateHistories()) {
        const bool *value = member(copy, gate.name);
        if (!value)
            continue;
        if (!out.empty())
            out += ',';
        out += gate.name;
        out += *value ? "=true" : "=false";
    }
    return out;
}

} // namespace dra::release
