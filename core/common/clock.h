// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <QObject>
#include <QPointer>

namespace dra::common {

// Time for the kube module: the wall clock (credential expiry) and delayed calls (backoff,
// relist). Injected so tests advance time instead of sleeping.
class Clock
{
public:
    virtual ~Clock();
    // Milliseconds since the epoch.
    virtual int64_t nowMs() const = 0;
    // Calls `callback` on `context`'s thread after `delayMs`, unless `context` is gone by then.
    virtual void callLater(int64_t delayMs, QObject *context, std::function<void()> callback) = 0;

    // The real clock (QDateTime and QTimer). Any thread.
    static Clock &system();
};

// A clock that moves only when told: advance() runs every call that has come due, in time
// order. One thread (a test's).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(int64_t startMs = 1'700'000'000'000)
        : m_now(startMs)
    {
    }

    int64_t nowMs() const override { return m_now; }
    void callLater(int64_t delayMs, QObject *context, std::function<void()> callback) override;

    // Moves time forward by `ms`, running the calls that come due (and any they schedule).
    void advance(int64_t ms);
    // Runs the earliest pending call now, moving time to it; false when none is pending.
    bool runNext();
    int pendingCalls() const { return int(m_pending.size()); }
    // The delay until the earliest pending call, or -1.
    int64_t nextDelay() const;

private:
    struct Pending
    {
        int64_t at;
        uint64_t order;
        QPointer<QObject> context;
        std::function<void()> callback;
    };
    int64_t m_now;
    uint64_t m_order = 0;
    std::vector<Pending> m_pending;
};

} // namespace dra::common
