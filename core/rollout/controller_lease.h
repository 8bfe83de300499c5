// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Who drives a rollout, and whether that controller still does: the one rule `dractl rollout`
// and the desktop console follow before they drive a rollout or queue a verb for another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/rollout/controller_inbox.h"
#include "core/store/state_db.h"

namespace dra::rollout {

// A heartbeat older than this: the controller is taken to be gone.
inline constexpr int64_t kLeaseStaleMs = 30'000;

// Who runs a controller: a user on a host, in a process. Its text is the lease's owner, as
// `dractl rollout status` and the console show it: "alice on host-1 (pid 1234)".
struct ControllerOwner
{
    std::string user, host;
    int64_t pid = 0;

    std::string text() const;
    // The owner a text() names; nullopt for any other text.
    static std::optional<ControllerOwner> parse(std::string_view text);
    // This process: $USER (else $USERNAME, else "unknown") on the local host name.
    static ControllerOwner thisProcess();

    bool operator==(const ControllerOwner &) const = default;
};

// The user of this process, as the history and the audit log name who gave a verb.
std::string localUserName();

enum class LeaseState {
    None, // no lease
    Live, // a controller beat within the stale limit
    Stale, // its last heartbeat is older than the stale limit
    HolderGone, // its controller ran on this host in a process that no longer exists
};

// "none", "live", "stale", "holder gone".
std::string_view leaseStateName(LeaseState state);

// Whether `lease` still binds at `now`. A controller of this host whose process is gone (killed,
// crashed) holds it no longer, whatever its last heartbeat says, so a controller started again
// takes over at once; otherwise a heartbeat older than `staleAfterMs` frees it.
LeaseState leaseState(
    const std::optional<ControllerLease> &lease, int64_t now, int64_t staleAfterMs = kLeaseStaleMs);

// The lease of `rollout` when it is Live and held by another controller than `self`: what makes
// a would-be controller follow (or refuse) instead of driving, and where verbs are queued. A
// lease `self` left (a controller of this process that stopped uncleanly) does not count.
[[nodiscard]] Result<std::optional<ControllerLease>> othersLiveLease(store::StateDb &state,
    const std::string &rollout, const ControllerOwner &self, int64_t now,
    int64_t staleAfterMs = kLeaseStaleMs);

} // namespace dra::rollout
