// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Who may move a rollout forward, and when: the plan's maintenance window (outside it a verb
// needs a force and a reason) and its second approval (`approvals: 2`: promotion and finalise
// by a person other than the one who started the rollout). Pure functions over the plan, the
// state and a time; the state machine turns them into requirements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rollout/rollout_machine.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_state.h"

namespace dra::rollout {

// Where a moment falls in a window: open (until `closesAt`), or closed (until `opensAt`, 0 when
// it never opens, e.g. an unknown zone). Milliseconds since the epoch.
struct WindowState
{
    bool open = false;
    int64_t closesAt = 0;
    int64_t opensAt = 0;
};

WindowState windowStateAt(const MaintenanceWindow &window, int64_t atMs);

// "Tue, Thu 22:00 for 4h (Europe/Berlin)"; "every day" when no day is named.
std::string windowText(const MaintenanceWindow &window);

// A moment in the window's zone, for people: "Tue 2026-12-08 22:00 CET".
std::string localTimeText(int64_t atMs, const std::string &timeZone);

// Parts of a window as plans write them: "Mon".."Sun" or "Monday".."Sunday" (any case) as ISO
// weekdays; "22:00" as minutes after midnight; whether an IANA zone is known to this machine.
std::optional<int> weekdayFromName(std::string_view name);
std::string weekdayShortName(int isoWeekday); // "Mon"
std::string minuteOfDayText(int minute); // "22:00"
std::optional<int> minuteOfDayFromText(std::string_view text);
bool isKnownTimeZone(const std::string &timeZone);

// The person behind an actor text: "alice (web console)" and "alice" are the same person;
// "controller" (with any suffix) is none.
std::string personOf(std::string_view actor);
bool isController(std::string_view actor);

// Whom the history names as having started the current attempt ("" before any start).
std::string starterOf(const RolloutState &state);

// Verbs that move a rollout forward or change what runs, and so are bound to the window;
// stopping (pause, abort, reject) and the controller's rollback steps never are.
bool boundToWindow(Verb verb);
// Verbs that need the second person under `approvals: 2`.
bool needsSecondApproval(Verb verb);

// What the plan's window asks of `command` at `nowMs`: met inside the window, or outside it with
// a force and a reason (then noted, naming who forced it). nullopt when the plan has no window
// or the verb is not bound to it.
std::optional<Requirement> windowRequirement(
    const RolloutPlan &plan, const Command &command, int64_t nowMs);

// What `approvals: 2` asks of `command`: a person other than the one who started the rollout
// (the controller is nobody). Met requirements name both, for the history and the audit log.
std::optional<Requirement> approvalRequirement(
    const RolloutPlan &plan, const RolloutState &state, const Command &command);

// The plan's owner, second approval and window as every face shows them: {"owner", "..."},
// {"approvals", "2: promotion and finalise by someone other than alice"}, {"window", "Tue 22:00
// for 4h (UTC): closed, opens Tue 2026-12-08 22:00 UTC"}. Empty when the plan has none.
struct GovernanceFact
{
    std::string label, text;
};
std::vector<GovernanceFact> governanceFacts(
    const RolloutPlan &plan, const RolloutState &state, int64_t nowMs);

// {"owner", "approvals", "startedBy", "maintenanceWindow": {"open", "closesAt" or "opensAt"
// (ms; 0 when it never opens)}, "facts": [{"label", "text"}]}: what the status views show; null
// when the plan has none of these fields.
nlohmann::json governanceJson(const RolloutPlan &plan, const RolloutState &state, int64_t nowMs);

} // namespace dra::rollout
