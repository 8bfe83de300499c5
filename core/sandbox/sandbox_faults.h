// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::sandbox {

// The failures the demo cluster can be told to produce, at least one for each rollout gate.
enum class FaultKind {
    AllocationFails, // scheduler: claims never allocated, FailedScheduling events
    AllocationHangs, // scheduler: claims stay unallocated, nothing is reported
    DriverPrepareFails, // kubelet: FailedPrepareDynamicResources, the pod never starts
    WrongDevice, // kubelet: the claim's device status names another device's uuid
    NeverReady, // kubelet: the pod runs but is never Ready
    Http500, // the pod's responder answers 500
    ClaimNotReleased, // claims of deleted pods stay reserved and are not deleted
    UnhealthyDevice, // kubelet: the pod's devices are reported Unhealthy (allocatedResourcesStatus)
    DriverNotReady, // kubelet: the DRA driver's kubelet-plugin pods run but are never Ready
};

std::string_view faultKindName(FaultKind kind); // "allocation-fails"
std::optional<FaultKind> parseFaultKind(std::string_view name);
// Every kind's name, for help texts and error messages.
std::string faultKindNames();

// One injected fault: its kind and the Deployment it targets (empty name: every workload).
struct Fault
{
    FaultKind kind;
    std::string ns; // with an empty deployment: ignored
    std::string deployment;

    nlohmann::json toJson() const;
    // {kind, namespace, deployment}; namespace defaults to "default" when a deployment is named.
    [[nodiscard]] static Result<Fault> fromJson(const nlohmann::json &json);
    bool operator==(const Fault &) const = default;
};

// The faults in force. Thread of the control plane.
class FaultSet final
{
public:
    void add(Fault fault);
    // Removes every fault, or those of `kind`; returns how many went.
    int clear(std::optional<FaultKind> kind = std::nullopt);
    const std::vector<Fault> &faults() const { return m_faults; }
    // Whether a fault of `kind` targets the Deployment `deployment` in `ns` (empty: not a
    // Deployment's pod, reached only by faults aimed at every workload).
    bool applies(FaultKind kind, const std::string &ns, const std::string &deployment) const;
    nlohmann::json toJson() const;

private:
    std::vector<Fault> m_faults;
};

} // namespace dra::sandbox
