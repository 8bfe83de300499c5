// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What the rollout panel's buttons and labels say, decided from a snapshot: the widgets only
// show it.
#pragma once

#include <optional>
#include <vector>

#include <QString>

#include "views/rollout/rollout_snapshot.h"

namespace dra::views {

// One button of the panel. Every verb always has its button (rollback is never hidden);
// `enabled` follows what the state machine lets a user do in the current stage.
struct VerbButton
{
    rollout::Verb verb = rollout::Verb::Promote;
    QString label;
    bool enabled = false;
    QString toolTip;
};

// The panel's buttons in order: start, promote, pause, resume, abort / roll back, retry gate,
// finalise, reject.
std::vector<VerbButton> verbButtons(const RolloutSnapshot &snapshot);

// The gate a "Retry gate" evaluates again: `selected` when it is one of the stage's gates, else
// the first gate that did not pass; nullopt when there is none.
std::optional<rollout::GateKind> gateToRetry(
    const RolloutSnapshot &snapshot, std::optional<rollout::GateKind> selected);

// Who drives the open rollout, for the panel's header: "Driven by this console (...)",
// "Driven by alice on host (pid 42); verbs are queued for it", ...
QString driveText(const RolloutSnapshot &snapshot);

// The open rollout's owner, second approval and maintenance window at the snapshot's time, one
// line ("Owner: ml-platform · Window: ...: closed, opens ..."); empty when its plan has none.
QString governanceText(const RolloutSnapshot &snapshot);

} // namespace dra::views
