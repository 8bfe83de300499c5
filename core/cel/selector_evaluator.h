// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/cel/dra_selector.h"

namespace dra::cel {

// Evaluates one compiled selector over many devices, as a sweep of the inventory does on each
// keystroke in the editor. A selector that reads `device` only through constant-key paths is
// a function of the values on those paths, and inventories repeat values (40,000 devices, a
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

    // How many evaluations reused a remembered result (for tests and benchmarks).
    size_t reused() const { return m_reused; }

private:
    struct KeyHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
    };

    const CompiledSelector &m_selector;
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
