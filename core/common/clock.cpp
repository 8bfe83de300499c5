// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/clock.h"

#include <algorithm>
#include <chrono>

#include <QDateTime>
#include <QTimer>

namespace dra::common {

namespace {

class SystemClock final : public Clock
{
public:
    int64_t nowMs() const override { return QDateTime::currentMSecsSinceEpoch(); }
    void callLater(int64_t delayMs, QObject *context, std::function<void()> callback) override
    {
        QTimer::singleShot(
            std::chrono::milliseconds(std::max<int64_t>(0, delayMs)), context, std::move(callback));
    }
};

} // namespace

Clock::~Clock() = default;

Clock &Clock::system()
{
    static SystemClock clock;
    return clock;
}

void ManualClock::callLater(int64_t delayMs, QObject *context, std::function<void()> callback)
{
    m_pending.push_back(
        Pending { m_now + std::max<int64_t>(0, delayMs), m_order++, context, std::move(callback) });
}

bool ManualClock::runNext()
{
    if (m_pending.empty())
        return false;
    const auto earliest
        = std::ranges::min_element(m_pending, [](const Pending &a, const Pending &b) {
              return a.at != b.at ? a.at < b.at : a.order < b.order;
          });
    Pending due = std::move(*earliest);
    m_pending.erase(earliest);
    m_now = std::max(m_now, due.at);
    if (due.context)
        due.callback();
    return true;
}

void ManualClock::advance(int64_t ms)
{
    const int64_t until = m_now + ms;
    while (!m_pending.empty() && nextDelay() <= until - m_now)
        runNext();
    m_now = until;
}

int64_t ManualClock::nextDelay() const
{
    if (m_pending.empty())
        return -1;
    int64_t at = m_pending.front().at;
    for (const Pending &p : m_pending)
        at = std::min(at, p.at);
    return at - m_now;
}

} // namespace dra::common
