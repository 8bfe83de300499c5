// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// The demo's kube-scheduler: binds each pod without spec.nodeName to a node. Device-plugin pods
// by counting nvidia.com/gpu; DRA pods by making their claims from templates and allocating
// them together through core/alloc (status.allocation and reservedFor written, as the
// scheduler's DRA plugin does). A pod that fits nowhere gets PodScheduled False/Unschedulable
// with the scheduler's summary and one Warning FailedScheduling Event whose count grows on
// retries. Faults allocation-fails and allocation-hangs act here.
class PodScheduler final
{
public:
    // How long a pod that did not fit waits before its FailedScheduling Event counts a retry.
    static constexpr int64_t kEventRepeatMs = 10'000;
    // How long a pod that did not fit waits before it is tried again, doubling up to the cap
    // as kube-scheduler backs off: placing it means indexing the whole inventory, which must
    // not happen on every write a client makes.
    static constexpr int64_t kRetryMs = 1'000;
    static constexpr int64_t kMaxRetryMs = 10'000;
    // A retry waits at least this many times as long as the failed attempt took, so that one
    // pod that fits nowhere in a large inventory (every attempt indexes all of it) takes at
    // most about a tenth of the thread the API server shares with the control plane.
    static constexpr int64_t kRetryCostFactor = 10;
    // The wait before the next try of a pod whose try took `attemptMs` and failed, after a
    // previous wait of `previousDelayMs` (none: its first failure).
    static int64_t retryDelayMs(std::optional<int64_t> previousDelayMs, int64_t attemptMs);

    void reconcile(ControlPass &pass);
    // Pods that did not fit are tried on the next pass: devices were freed (a pod or claim
    // went), as kube-scheduler requeues them on such events.
    void retryUnschedulableNow() { m_backoff.clear(); }

private:
    // `attemptMs`: the wall-clock time the failed attempt took.
    void unschedulable(
        ControlPass &pass, nlohmann::json &pod, const std::string &message, int64_t attemptMs = 0);

    std::map<std::string, int64_t> m_lastFailureEventMs; // by pod uid
    struct Backoff
    {
        int64_t lastFailureMs = 0;
        int64_t delayMs = kRetryMs;
    };
    std::map<std::string, Backoff> m_backoff; // by pod uid
};

} // namespace dra::sandbox
