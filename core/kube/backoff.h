// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>

#include <QString>

namespace dra::kube {

// Exponential backoff with jitter, as client-go's reflector backs off: each failure doubles
// the delay up to a cap, and a random share is added so that many clients (or many streams of
// one client) do not retry in lockstep.
struct BackoffPolicy
{
    int64_t initialMs = 800;
    int64_t maxMs = 30 * 1000;
    double factor = 2.0;
    double jitter = 0.5; // up to this fraction of the delay is added at random
};

class Backoff final
{
public:
    // `random` returns a number in [0, 1); injectable so tests know the delays.
    explicit Backoff(BackoffPolicy policy = {}, std::function<double()> random = {});

    // The delay before the next attempt, and one more failure counted.
    int64_t next();
    // Success: the next failure starts from the initial delay again.
    void reset() { m_failures = 0; }
    int failures() const { return m_failures; }

private:
    BackoffPolicy m_policy;
    std::function<double()> m_random;
    int m_failures = 0;
};

// The pause before trying again after a permanent error (a certificate that does not verify,
// refused credentials): `baseMs` plus up to a fifth more, so streams that failed together do not
// try again together.
int64_t permanentRetryDelay(int64_t baseMs);

// What a stream or the mirror says while it waits: "<message> (trying again in N min)".
QString permanentFailureReason(const QString &message, int64_t delayMs);

} // namespace dra::kube
