// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What a running rollout controller shares with other processes through the state file: verbs
// waiting for it, its heartbeat, and its cursor through a transition's mutations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/rollout/mutation.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/stop_conditions.h"
#include "core/store/state_db.h"

namespace dra::rollout {

// A verb given from another process, waiting in the state file.
struct QueuedCommand
{
    int64_t seq = 0;
    std::string rollout;
    Command command;
    int64_t createdAt = 0;
    std::optional<int64_t> consumedAt;
    std::string result; // what the controller made of it ("Canary -> Shadow", "refused: ...")
};

// Who drives a rollout now, as its last heartbeat said.
struct ControllerLease
{
    std::string owner; // "alice on host (pid 1234)"
    int64_t pid = 0;
    int64_t startedAt = 0, heartbeatAt = 0;

    // A controller that beat within `staleAfterMs` is taken to be running.
    bool isLive(int64_t now, int64_t staleAfterMs) const
    {
        return now - heartbeatAt <= staleAfterMs;
    }
};

// The mutations of the last transition and how many of them are done. `next` below the count
// means the transition was interrupted: the controller resumes at `next` (the mutation that may
// have been under way is replayed, which is safe because each is idempotent).
struct MutationProgress
{
    Verb verb = Verb::Start;
    std::vector<Mutation> mutations;
    size_t next = 0;

    bool finished() const { return next >= mutations.size(); }
};

// What the stop conditions followed in one stage (and step) of a rollout.
struct StageObservation
{
    Stage stage = Stage::Baseline;
    int step = -1;
    StopObservation observation;
};

nlohmann::json commandJson(const Command &command);
std::optional<Command> commandFromJson(const nlohmann::json &json);

// The rollout_commands, rollout_controllers and rollout_progress tables. Writes need the state
// file opened as writer. The caller's thread only.
class ControllerInbox final
{
public:
    explicit ControllerInbox(store::StateDb &state)
        : m_state(state)
    {
    }

    // Queues `command` for the controller of `rollout`; returns its sequence number.
    [[nodiscard]] Result<int64_t> enqueue(
        const std::string &rollout, const Command &command, int64_t at);
    // The oldest command of `rollout` not yet consumed, marked consumed in the same transaction:
    // a command is handed out exactly once, whichever handle asks.
    [[nodiscard]] Result<std::optional<QueuedCommand>> takeNext(
        const std::string &rollout, int64_t at);
    [[nodiscard]] Result<void> setResult(int64_t seq, const std::string &result);
    [[nodiscard]] Result<std::optional<QueuedCommand>> command(int64_t seq);
    // Commands of `rollout` not consumed yet, oldest first.
    [[nodiscard]] Result<std::vector<QueuedCommand>> pending(const std::string &rollout);

    [[nodiscard]] Result<void> heartbeat(const std::string &rollout, const std::string &owner,
        int64_t pid, int64_t startedAt, int64_t at);
    // Drops the lease of `rollout` when `pid` holds it (a clean stop).
    [[nodiscard]] Result<void> release(const std::string &rollout, int64_t pid);
    [[nodiscard]] Result<std::optional<ControllerLease>> lease(const std::string &rollout);

    [[nodiscard]] Result<void> saveObservation(
        const std::string &rollout, const StageObservation &observed, int64_t at);
    [[nodiscard]] Result<std::optional<StageObservation>> observation(const std::string &rollout);

    [[nodiscard]] Result<void> saveProgress(
        const std::string &rollout, const MutationProgress &progress, int64_t at);
    [[nodiscard]] Result<std::optional<MutationProgress>> progress(const std::string &rollout);

private:
    store::StateDb &m_state;
};

// What the controller made of queued command `seq` in the state file at `statePath`, once it
// consumed it and recorded a result; nullopt while it waits (or while the file cannot be read).
// Opens the file read-only each time: a process waiting for its verb's outcome asks in a loop.
std::optional<QueuedCommand> answeredCommand(const QString &statePath, int64_t seq);

} // namespace dra::rollout
