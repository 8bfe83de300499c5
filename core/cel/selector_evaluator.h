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
    // valid until the next call. Inline: a sweep calls it for every device, and most devices
    // read the same ids as the one before.
    const SelectorResult &evaluate(const DeviceTable &table, size_t index)
    {
        if (m_sweeping != &table)
            return evaluateUnprepared(table, index);
        bool same = m_last != nullptr;
        size_t slot = 0;
        for (size_t i = 0; i < m_columns.size(); ++i) {
            const SweepColumn &column = m_columns[i];
            uint32_t id = column.ids[index];
            if (column.presenceOnly)
                id = id != 0;
            same = same && id == m_ids[i];
            m_ids[i] = id;
            slot += id * column.stride;
        }
        if (!same && !m_slots.empty() && m_slots[slot])
            m_last = m_slots[slot];
        else if (!same)
            return evaluateMiss(m_sweeping->device(index), slot);
        ++m_lookups;
        ++m_reused;
        return *m_last;
    }

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
    // evaluate(table, index) before readColumnsOf(table), or without remembering.
    const SelectorResult &evaluateUnprepared(const DeviceTable &table, size_t index);
    // evaluate(table, index) when m_ids differ from the last device's.
    const SelectorResult &evaluateMiss(const DeviceView &device, size_t slot);

    const CompiledSelector &m_selector;
    KeyKind m_keyKind = KeyKind::None; // what the keys of m_results encode
    // A column of the table being swept that the selector's paths cover.
    struct SweepColumn
    {
        const uint32_t *ids;
        bool presenceOnly; // the path reads whether there is a value (id 0 or not)
        uint64_t stride; // of its ids in a slot number (0: no slots)
    };
    // The table whose columns are read (readColumnsOf()); null until then, when keys of
    // values are in use, or when remembering stopped.
    const DeviceTable *m_sweeping = nullptr;
    std::vector<SweepColumn> m_columns;
    // The result remembered for each slot (null until evaluated), held by m_slotResults.
    std::vector<const SelectorResult *> m_slots;
    std::deque<SelectorResult> m_slotResults;
    std::vector<uint32_t> m_ids; // the ids of the last device read from m_sweeping
    bool m_memo;
    std::vector<DeviceLookupHint> m_hints; // one per device path
    std::string m_key;
    std::string m_lastKey;
    // The remembered result of m_lastKey, or (while sweeping) of m_ids.
    const SelectorResult *m_last = nullptr;
    std::unordered_map<std::string, SelectorResult, KeyHash, std::equal_to<>> m_results;
    SelectorResult m_result;
    size_t m_lookups = 0;
    size_t m_reused = 0;
};

} // namespace dra::cel
