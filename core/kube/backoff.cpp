// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/backoff.h"

#include <algorithm>
#include <cmath>

#include <QRandomGenerator>

namespace dra::kube {

Backoff::Backoff(BackoffPolicy policy, std::function<double()> random)
    : m_policy(policy)
    , m_random(
          random ? std::move(random) : [] { return QRandomGenerator::global()->generateDouble(); })
{
}

int64_t Backoff::next()
{
    const double base = std::min(double(m_policy.maxMs),
        double(m_policy.initialMs) * std::pow(m_policy.factor, std::min(m_failures, 30)));
    ++m_failures;
    return int64_t(base + base * m_policy.jitter * std::clamp(m_random(), 0.0, 1.0));
}

int64_t permanentRetryDelay(int64_t baseMs)
{
    const int64_t base = std::max<int64_t>(1, baseMs);
    return base + int64_t(double(base) * 0.2 * QRandomGenerator::global()->generateDouble());
}

QString permanentFailureReason(const QString &message, int64_t delayMs)
{
    return QStringLiteral("%1 (trying again in %2 min)")
        .arg(message)
        .arg((delayMs + 59999) / 60000);
}

} // namespace dra::kube
