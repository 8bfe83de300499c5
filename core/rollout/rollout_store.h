// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/rollout/audit_log.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/rollout_state.h"
#include "core/store/state_db.h"

namespace dra::rollout {

// A rollout as the state file keeps it: its state and the plan text it was started with.
struct RolloutRecord
{
    RolloutState state;
    std::string planYaml;
    int64_t updatedAt = 0;
};

// A variant the user rejected for a workload.
struct RejectedVariant
{
    std::string workload, variant, rollout, reason;
    int64_t at = 0;
};

// The rollouts, rejected variants and audit log tables of the state file. Every change is
// written together with its audit entry in one transaction, so the log never misses a change
// that happened. Writes need the state file opened as writer. The caller's thread only.
class RolloutStore final
{
public:
    explicit RolloutStore(store::StateDb &state)
        : m_state(state)
        , m_audit(state.database())
    {
    }

    // Registers a new rollout at Baseline. Fails (Conflict) when a rollout of the same id exists
    // that is not settled, or another rollout of the same workload is not settled (one rollout
    // per workload at a time). A settled rollout of the same id is replaced (its history stays
    // in the audit log).
    [[nodiscard]] Result<void> create(const RolloutState &state, const std::string &planYaml,
        const std::string &actor, int64_t at);
    [[nodiscard]] Result<std::optional<RolloutRecord>> load(const std::string &id);
    // Every rollout, most recently updated first.
    [[nodiscard]] Result<std::vector<RolloutRecord>> list();

    // Applies `command` with `machine` to rollout `state` and stores the outcome: the new state
    // (when allowed), rejected variants marked, and one audit entry either way ("Canary ->
    // Shadow" or "refused: ..."), with the requirements and intended mutations as details.
    // `alsoWhenAllowed` runs inside the same transaction when the command is allowed (the
    // controller stores the transition's mutations with it, so a crash cannot separate them).
    [[nodiscard]] Result<Decision> execute(const RolloutMachine &machine, RolloutState &state,
        const Command &command, int64_t at,
        const std::function<Result<void>(const Decision &)> &alsoWhenAllowed = {});

    // Stores gate results the controller evaluated in the current stage; a gate whose verdict
    // changed gets an audit entry (an unchanged verdict is not news).
    [[nodiscard]] Result<void> recordGates(const RolloutMachine &machine, RolloutState &state,
        const std::vector<GateResult> &results, const std::string &actor, int64_t at);

    [[nodiscard]] Result<std::optional<RejectedVariant>> rejection(
        const std::string &workload, const std::string &variant);

    AuditLog &audit() { return m_audit; }

private:
    // The writer check and an immediate transaction, as every change starts.
    [[nodiscard]] Result<store::sqlite::Transaction> beginWrite();
    [[nodiscard]] Result<void> writeState(const RolloutState &state, int64_t at);

    store::StateDb &m_state;
    AuditLog m_audit;
};

} // namespace dra::rollout
