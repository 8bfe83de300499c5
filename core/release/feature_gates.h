// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace dra::release {

// The DRA feature gates the allocator and the CEL environment look at, resolved to on/off. A plain
// value.
struct FeatureGates
{
    bool prioritizedList = false; // DRAPrioritizedList: firstAvailable
    bool adminAccess = false; // DRAAdminAccess
    bool deviceTaints = false; // DRADeviceTaints: taints block allocation
    bool deviceTaintRules = false; // DRADeviceTaintRules: DeviceTaintRule objects apply
    bool partitionableDevices = false; // DRAPartitionableDevices: counters, per-device nodes
    bool consumableCapacity = false; // DRAConsumableCapacity: capacity requests, sharing
    bool deviceBindingConditions = false; // DRADeviceBindingConditions
    bool resourceClaimDeviceStatus = false; // DRAResourceClaimDeviceStatus
    bool listTypeAttributes = false; // DRAListTypeAttributes: list attributes, includes()
    // DRAExtendedResource: a DeviceClass's extendedResourceName (or the implicit
    // deviceclass.resource.kubernetes.io/<class>) lets pods ask for DRA devices by count.
    bool extendedResource = false;

    // Devices with binding conditions are usable only when both gates are on, as in the scheduler.
    bool bindingConditions() const { return deviceBindingConditions && resourceClaimDeviceStatus; }

    // The defaults of Kubernetes 1.<minor> (1.26 to 1.37); a gate that does not exist yet is off.
    static FeatureGates forMinorVersion(int minor);
    // The defaults of the newest Kubernetes release this build knows.
    static FeatureGates newestRelease();
    // The defaults for a version as a cluster reports it ("v1.34.2", "1.33.1-gke.100"); nullopt
    // when the text is not a 1.x version.
    static std::optional<FeatureGates> forVersionText(std::string_view version);

    // Applies kube-scheduler's --feature-gates syntax
    // ("DRAPrioritizedList=true,DRAAdminAccess=false") for Kubernetes 1.<minor>. Unknown gates,
    // gates that do not exist in that version, values other than true/false, and changing a gate
    // locked to its default are errors, as in Kubernetes.
    [[nodiscard]] Result<void> apply(std::string_view flag, int minor);

    // "DRAAdminAccess=true,..." for every gate this struct holds, in name order.
    std::string toString() const;

    bool operator==(const FeatureGates &) const = default;
};

// The minor version of the newest Kubernetes release this build knows (36 for 1.36).
int newestReleaseMinor();

// The 1.x minor version of a version text ("v1.34.2" -> 34), or nullopt.
std::optional<int> minorVersionOf(std::string_view version);

// One versioned spec of a gate: from Kubernetes 1.<minor> on, its default and whether it is locked.
struct GateSpec
{
    int minor;
    bool defaultValue;
    bool locked;
    const char *stage; // "Alpha", "Beta", "GA"
};

// A DRA-related Kubernetes feature gate and its history, as kube_features.go declares it.
struct GateHistory
{
    const char *name;
    std::vector<GateSpec> specs; // oldest first
};

// Every DRA-related gate this build knows, sorted by name.
const std::vector<GateHistory> &gateHistories();

// The spec in force at 1.<minor>, or nullptr when the gate does not exist yet.
const GateSpec *gateSpecAt(const GateHistory &gate, int minor);

} // namespace dra::release
