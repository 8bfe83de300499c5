// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What the rollout panel shows, as one immutable value: made by the driver off the GUI thread
// from the state file, handed to the GUI by queued signal.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QMetaType>

#include "core/common/result.h"
#include "core/rollout/audit_log.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_state.h"

namespace dra::views {

// One rollout of the state file, for the picker.
struct RolloutSummary
{
    std::string id, workload;
    rollout::Stage stage = rollout::Stage::Baseline;
    int64_t updatedAt = 0;
};

// The state file as it was at `at`, and who drives the open rollout.
struct RolloutSnapshot
{
    // Local: this console's controller drives it. Remote: another process holds the lease and
    // verbs are queued for it. Idle: nobody drives it (settled, or no rollout open).
    enum class Drive { Idle, Local, Remote };

    QString statePath;
    std::vector<RolloutSummary> rollouts;
    std::optional<rollout::RolloutState> state; // the open rollout
    std::shared_ptr<const rollout::RolloutPlan>
        plan; // its stored plan; null when it no longer validates
    std::vector<rollout::AuditEntry> audit; // entries of the open rollout, in order
    rollout::AuditVerification verification; // of the whole log
    Drive drive = Drive::Idle;
    std::optional<rollout::ControllerLease> lease;
    std::vector<rollout::QueuedCommand> pending; // verbs waiting for the controller
    std::optional<common::Error> error; // the latest failure (reading, a step)
    int64_t at = 0;
};

using RolloutSnapshotPtr = std::shared_ptr<const RolloutSnapshot>;

// A verb as the panel asks for it.
struct VerbRequest
{
    rollout::Verb verb = rollout::Verb::Promote;
    std::string reason;
    bool acceptInconclusive = false;
    bool force = false; // outside the plan's maintenance window
    std::optional<rollout::GateKind> gate; // RetryGate
};

} // namespace dra::views

Q_DECLARE_METATYPE(dra::views::RolloutSnapshotPtr)
Q_DECLARE_METATYPE(dra::views::VerbRequest)
