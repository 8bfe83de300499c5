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

void SelectorEvaluator::useKeys(KeyKind kind)
{
    // Keys of values and keys of table ids are different encodings of the same values: never
    // look one up among the other.
    if (m_keyKind == kind)
        return;
    m_keyKind = kind;
    m_keyFromIds = false;
    m_results.clear();
    m_last = nullptr;
    m_lastKey.clear();
}

const SelectorResult &SelectorEvaluator::evaluate(const DeviceView &device)
{
    if (!m_memo) {
        evaluateInto(m_selector, device, m_result);
        return m_result;
    }
    useKeys(KeyKind::Values);
    m_key.clear();
    const std::vector<DevicePath> &paths = m_selector.devicePaths();
    for (size_t i = 0; i < paths.size(); ++i)
        appendDevicePathKey(paths[i], device, m_key, m_hints[i]);
    return lookUp(device);
}

const SelectorResult &SelectorEvaluator::evaluate(const DeviceTable &table, size_t index)
{
    const DeviceView &device = table.device(index);
    if (!m_memo) {
        evaluateInto(m_selector, device, m_result);
        return m_result;
    }
    if (m_table != &table || m_keyKind != KeyKind::Ids) {
        useKeys(KeyKind::None); // forget ids of another table
        useKeys(KeyKind::Ids);
        m_table = &table;
        m_columns.clear();
        for (const DevicePath &path : m_selector.devicePaths())
            m_columns.push_back(table.column(path));
        m_ids.assign(m_columns.size(), 0);
    }
    // Neighbouring devices mostly read the same ids: compare them with the last device's
    // before building a key to hash.
    bool same = m_last != nullptr && m_keyFromIds;
    for (size_t i = 0; i < m_columns.size(); ++i) {
        const uint32_t id = m_columns[i] ? m_columns[i][index] : 0;
        same = same && id == m_ids[i];
        m_ids[i] = id;
    }
    if (same) {
        ++m_lookups;
        ++m_reused;
        return *m_last;
    }
    // The key is the value ids, 4 bytes per path: a short string stays inline (no allocation).
    m_key.assign(reinterpret_cast<const char *>(m_ids.data()), m_ids.size() * sizeof(uint32_t));
    const SelectorResult &result = lookUp(device);
    m_keyFromIds = true;
    return result;
}

const SelectorResult &SelectorEvaluator::lookUp(const DeviceView &device)
{
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
