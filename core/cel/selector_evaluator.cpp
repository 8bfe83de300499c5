// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/selector_evaluator.h"

#include <algorithm>

namespace dra::cel {

namespace {

// Values that repeat are remembered; an inventory of unique values (a selector on device
// UUIDs) would only pay for keys, so remembering stops when too few lookups find a result,
// and memory stays bounded whatever the inventory.
constexpr size_t kMaxRemembered = 4096;
constexpr size_t kTrialLookups = 256;
// Selectors whose columns combine in at most this many ways find results by slot, not by key.
constexpr uint64_t kMaxSlots = 1 << 15;

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
    m_sweeping = nullptr;
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

const SelectorResult &SelectorEvaluator::evaluateUnprepared(const DeviceTable &table, size_t index)
{
    if (!m_memo) {
        evaluateInto(m_selector, table.device(index), m_result);
        return m_result;
    }
    readColumnsOf(table);
    return evaluate(table, index);
}

const SelectorResult &SelectorEvaluator::evaluateMiss(const DeviceView &device, size_t slot)
{
    if (!m_slots.empty())
        return lookUpSlot(device, slot);
    // The key is the value ids, 4 bytes per column: a short string stays inline (no allocation).
    m_key.assign(reinterpret_cast<const char *>(m_ids.data()), m_ids.size() * sizeof(uint32_t));
    return lookUp(device);
}

void SelectorEvaluator::readColumnsOf(const DeviceTable &table)
{
    useKeys(KeyKind::None); // forget ids of another table
    useKeys(KeyKind::Ids);
    m_columns.clear();
    // Ids of one column run from 0 (absent) to its count of distinct values; read as digits of
    // one number they give each combination a slot, when there are few enough combinations.
    uint64_t combinations = 1;
    for (const DevicePath &path : m_selector.devicePaths()) {
        for (const DeviceTable::ColumnRef &column : table.columns(path)) {
            if (!column.ids)
                continue; // no device publishes it: absent on all, the same for all
            const bool presenceOnly = path.presenceOnly && !column.layout;
            m_columns.push_back({ column.ids, presenceOnly, combinations });
            const uint64_t radix = presenceOnly ? 2 : uint64_t { column.distinct } + 1;
            combinations = std::min(combinations * radix, kMaxSlots + 1);
        }
    }
    if (combinations > kMaxSlots) {
        for (SweepColumn &column : m_columns)
            column.stride = 0;
    }
    m_slots.assign(combinations > kMaxSlots ? 0 : combinations, nullptr);
    m_slotResults.clear();
    m_ids.assign(m_columns.size(), 0);
    m_sweeping = &table;
}

const SelectorResult &SelectorEvaluator::lookUpSlot(const DeviceView &device, size_t slot)
{
    ++m_lookups;
    if (const SelectorResult *remembered = m_slots[slot]) {
        ++m_reused;
        m_last = remembered;
        return *m_last;
    }
    evaluateInto(m_selector, device, m_result);
    m_slotResults.push_back(m_result); // a deque: earlier results stay where they are
    m_slots[slot] = m_last = &m_slotResults.back();
    return *m_last;
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
        m_sweeping = nullptr;
        m_results.clear();
    } else if (m_results.size() < kMaxRemembered) {
        // Entries do not move when the table grows, so m_last stays valid.
        m_last = &m_results.emplace(m_lastKey, m_result).first->second;
    }
    return m_result;
}

} // namespace dra::cel
