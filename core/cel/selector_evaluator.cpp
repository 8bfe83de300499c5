// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/selector_evaluator.h"

namespace dra::cel {

namespace {

// Values that repeat are remembered; an inventory of unique values (a selector on device
// UUIDs) would only pay for keys, so remembering stops when too few lookups find a result,
// and memory stays bounded whatever the inventory.
constexpr size_t kMaxRemembered = 4096;
constexpr size_t kTrialLookups = 256;

} // namespace

SelectorEvaluator::SelectorEvaluator(const CompiledSelector &selector, Memo memo)
    : m_selector(selector)
    , m_memo(memo == Memo::On && selector.readsOnlyDevicePaths())
    , m_hints(selector.devicePaths().size())
{
}

const SelectorResult &SelectorEvaluator::evaluate(const DeviceView &device)
{
    if (!m_memo) {
        evaluateInto(m_selector, device, m_result);
        return m_result;
    }
    m_key.clear();
    const std::vector<DevicePath> &paths = m_selector.devicePaths();
    for (size_t i = 0; i < paths.size(); ++i)
        appendDevicePathKey(paths[i], device, m_key, m_hints[i]);
    ++m_lookups;
    // Neighbouring devices (the GPUs of one node) mostly read alike: compare with the last key
    // before hashing.
    if (m_last && m_key == m_lastKey) {
        ++m_reused;
        return *m_last;
    }
    m_lastKey.swap(m_key);
    if (const auto found = m_results.find(std::string_view(m_lastKey)); found != m_results.end()) {
        ++m_reused;
        m_last = &found->second;
        return *m_last;
    }
    evaluateInto(m_selector, device, m_result);
    m_last = nullptr;
    if (m_lookups >= kTrialLookups && m_reused * 2 < m_lookups) {
        m_memo = false;
        m_results.clear();
    } else if (m_results.size() < kMaxRemembered) {
        // Entries do not move when the table grows, so m_last stays valid.
        m_last = &m_results.emplace(m_lastKey, m_result).first->second;
    }
    return m_result;
}

} // namespace dra::cel
