// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The DRA form of a device-plugin workload. Where the release serves DRA-backed extended
// resources (DRAExtendedResource), a DeviceClass whose extendedResourceName is the resource the
// pods ask for: the pod spec stays as it is and the scheduler allocates DRA devices for it.
// Otherwise a ResourceClaimTemplate and the pod template change that uses it: the MIG profile of
// `nvidia.com/mig-<profile>` becomes a CEL selector on the driver's `profile` attribute, a node
// label pinning a GPU model one on `productName`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/allocator.h"
#include "core/alloc/legacy_workloads.h"
#include "core/inventory/snapshot.h"
#include "core/release/kubernetes_release.h"

namespace dra::alloc {

enum class MigrationForm { ExtendedResourceClass, ClaimTemplate, None };

// "extendedResourceClass", "claimTemplate", "none".
std::string_view migrationFormName(MigrationForm form);

struct MigrationProposal
{
    MigrationForm form = MigrationForm::None;
    std::string reason; // why this form, or why there is none
    // The objects to apply, as manifests: new or changed DeviceClasses, the template.
    std::vector<nlohmann::json> objects;
    std::vector<std::string> deviceClasses; // the classes the devices come from
    std::string templateName; // the ResourceClaimTemplate (claimTemplate form)
    std::string claimName; // the pod's resourceClaims[].name (claimTemplate form)
    // {removeResources, resourceClaims, containers: [{name, claims}], nodeSelector: {remove,
    // set}}; null when the pod template stays as it is.
    nlohmann::json podTemplateChange;
    nlohmann::json podTemplate; // the workload's pod template after the change
    // What the scheduler allocates per pod: the template's claim, or the claim it makes for
    // the extended resources.
    ClaimToAllocate claim;
    model::StringPairs nodeSelector; // the pod's nodeSelector after the change
    // Nodes the pods cannot get DRA devices on: those whose device plugin offers the resource
    // (the scheduler serves an extended resource from the device plugin where a node has one).
    std::vector<std::string> excludedNodes;
    std::vector<std::string> notes;
};

// The ResourceClaimTemplate form. `None` with the reason when a resource maps to no devices.
MigrationProposal proposeClaimTemplate(
    const LegacyWorkload &workload, const inventory::Snapshot &snapshot);

// The extended-resource DeviceClass form (whatever the release). `None` with the reason when a
// resource has no class and none can be proposed.
MigrationProposal proposeExtendedResourceClass(
    const LegacyWorkload &workload, const inventory::Snapshot &snapshot);

// The form `release` allows: the extended-resource class where DRAExtendedResource is on and
// every resource maps to a class, else the claim template.
MigrationProposal proposeMigration(const LegacyWorkload &workload,
    const inventory::Snapshot &snapshot, const release::KubernetesRelease &release);

} // namespace dra::alloc
