// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace dra::model {

// An object's JSON exactly as received, shared by the copies of the object. Held parsed, or as
// its text and parsed on first use: a snapshot of thousands of Nodes read from the cache keeps
// the text (one allocation each) instead of a tree of hundreds, and most are never looked at
// raw. Reads like a pointer to const JSON; safe to read from any thread.
class RawJson
{
public:
    RawJson() = default;
    explicit RawJson(nlohmann::json value);
    // `text` must be valid JSON (text that was just parsed, as the cache stores it).
    static RawJson fromText(std::string text);

    explicit operator bool() const { return m_state != nullptr; }
    const nlohmann::json &operator*() const { return value(); }
    const nlohmann::json *operator->() const { return &value(); }

private:
    struct State;
    const nlohmann::json &value() const;

    std::shared_ptr<State> m_state;
};

} // namespace dra::model
