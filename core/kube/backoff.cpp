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

} // namespace dra::kube
