// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/cel/device_table.h"
#include "core/cel/dra_selector.h"

namespace dra::cel {

// Evaluates one compiled selector over many devices, as a sweep of the inventory does on each
// keystroke in the editor. A selector that reads `device` only through the paths
// collectDevicePaths() finds (constant keys, or every domain or name of a map) is a function
// of the values on those paths, and inventories repeat values (40,000 devices, a
// handful of products and driver versions): such devices share one evaluation, found by
// those values. Results are exactly those of evaluate(). One per thread; the selector must
// outlive it.
class SelectorEvaluator final
{
public:
    enum class Memo { On, Off };
    explicit SelectorEvaluator(const CompiledSelector &selector, Memo memo = Memo::On);

    // The outcome on `device`; the reference is valid until the next call.
    const SelectorResult &evaluate(const DeviceView &device);

    // The outcome on device `index` of `table`: exactly that of evaluate(table.device(index)),
    // with the values the selector reads taken from the table's columns. The reference is
    // valid until the next call.
    const SelectorResult &evaluate(const DeviceTable &table, size_t index);

    // How many evaluations reused a remembered result (for tests and benchmarks).
    size_t reused() const { return m_reused; }

private:
    struct KeyHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view key) const
        {
            return std::hash<std::string_view> {}(key);
        }
    };

    enum class KeyKind : uint8_t { None, Values, Ids };
    // Finds the remembered result of m_key, or evaluates `device` and remembers it.
    const SelectorResult &lookUp(const DeviceView &device);
    // The same for the slot of m_ids (see readColumnsOf()).
    const SelectorResult &lookUpSlot(const DeviceView &device, size_t slot);
    void useKeys(KeyKind kind);
    // Sets up the columns of `table` the selector's paths cover.
    void readColumnsOf(const DeviceTable &table);

    const CompiledSelector &m_selector;
    KeyKind m_keyKind = KeyKind::None; // what the keys of m_results encode
    const DeviceTable *m_table = nullptr;
    // Of m_table, those each device path covers (nullptr: absent), and whether the path reads
    // only presence (id 0 or not) from it.
    std::vector<const uint32_t *> m_columns;
    std::vector<bool> m_presenceOnly;
    std::vector<uint64_t> m_strides; // of each column's ids in a slot number (0: no slots)
    std::vector<int32_t> m_slots; // index into m_slotResults by slot, -1 until evaluated
    std::deque<SelectorResult> m_slotResults;
    std::vector<uint32_t> m_ids; // the ids of the last device read from m_table
    bool m_keyFromIds = false; // m_last is the result for m_ids
    bool m_memo;
    std::vector<DeviceLookupHint> m_hints; // one per device path
    std::string m_key;
    std::string m_lastKey;
    const SelectorResult *m_last = nullptr; // the remembered result of m_lastKey
    std::unordered_map<std::string, SelectorResult, KeyHash, std::equal_to<>> m_results;
    SelectorResult m_result;
    size_t m_lookups = 0;
    size_t m_reused = 0;
};

} // namespace dra::cel
