// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Pending diagnosis: why a pod (or a claim) is not running, following the chain users reason
// with: claim not created -> claim not allocated -> pod not bound or not running -> not ready.
// Each step names who owns it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/simulator.h"

namespace dra::alloc {

struct DiagnosisStep
{
    enum class Status { Ok, Failed, Waiting, Skipped };
    std::string
        name; // "claims created", "claims allocated", "pod bound", "pod running", "pod ready"
    Status status = Status::Skipped;
    std::string owner; // who acts on this step
    std::string detail; // one or two sentences
    std::vector<std::string> events; // "Reason: message" of Events about the objects of this step
};

const char *statusName(DiagnosisStep::Status status);

struct Diagnosis
{
    std::string subject; // "Pod batch/b200-probe", "ResourceClaim batch/needs-b200"
    std::vector<DiagnosisStep> steps;
    std::string verdict; // where it is stuck and who owns it, or that it is running and ready
    // For claims that are not allocated: what the allocation simulation says.
    std::optional<Placement> simulation;
};

// Diagnoses pod `ns/name` of `cluster`; an error when there is no such pod.
[[nodiscard]] Result<Diagnosis> diagnosePod(const Cluster &cluster,
    const release::KubernetesRelease &release, const std::string &ns, const std::string &name,
    const SimulationOptions &options = {});

// Diagnoses claim `ns/name`: created, allocated (or why not), reserved for which pods and how
// those pods are doing.
[[nodiscard]] Result<Diagnosis> diagnoseClaim(const Cluster &cluster,
    const release::KubernetesRelease &release, const std::string &ns, const std::string &name,
    const SimulationOptions &options = {});

nlohmann::json diagnosisJson(const Diagnosis &diagnosis);

} // namespace dra::alloc
