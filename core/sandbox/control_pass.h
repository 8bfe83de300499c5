// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/sandbox/object_view.h"
#include "core/sandbox/sandbox_faults.h"

namespace dra::sandbox {

// What one pass of the simulated control plane works with: the objects (writes land in them),
// the time of the pass and the faults in force. Each controller takes one and returns.
struct ControlPass
{
    ObjectView &view;
    int64_t nowMs = 0;
    const FaultSet &faults;
    // The earliest time a controller wants the next pass even when nothing changes (a pod
    // due to start); 0: none.
    int64_t wakeAtMs = 0;

    void wakeAt(int64_t ms) { wakeAtMs = wakeAtMs == 0 ? ms : std::min(wakeAtMs, ms); }

    std::string now() const;
    // The Deployment a pod belongs to (through its ReplicaSet), empty when none.
    std::string deploymentOf(const nlohmann::json &pod) const;
    // Whether a fault of `kind` targets `pod`'s Deployment (or every workload).
    bool faultHits(FaultKind kind, const nlohmann::json &pod) const;

    // A new Pod from `owner`'s spec.template (labels, annotations, spec), named
    // "<owner>-<5 characters>" not yet taken, controlled by `owner`, Pending and unscheduled.
    nlohmann::json podFromTemplate(const nlohmann::json &owner) const;

    // Records an Event about `involved`; an Event with the same object and reason is updated
    // (message, count + 1, lastTimestamp) instead of adding another, as Kubernetes aggregates.
    void recordEvent(const nlohmann::json &involved, bool warning, const std::string &reason,
        const std::string &message, const std::string &component, const std::string &host = {});
};

// The Deployment a pod belongs to (its ReplicaSet's controller), empty when none.
std::string deploymentOfPod(const ObjectView &view, const nlohmann::json &pod);

} // namespace dra::sandbox
