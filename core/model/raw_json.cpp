// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/raw_json.h"

#include <mutex>

#include <nlohmann/json.hpp>

namespace dra::model {

struct RawJson::State
{
    std::string text; // until parsed
    std::once_flag parsed;
    nlohmann::json value;
};

RawJson::RawJson(nlohmann::json value)
    : m_state(std::make_shared<State>())
{
    m_state->value = std::move(value);
    std::call_once(m_state->parsed, [] {});
}

RawJson RawJson::fromText(std::string text)
{
    RawJson raw;
    raw.m_state = std::make_shared<State>();
    raw.m_state->text = std::move(text);
    return raw;
}

const nlohmann::json &RawJson::value() const
{
    State &state = *m_state;
    std::call_once(state.parsed, [&state] {
        state.value = nlohmann::json::parse(state.text, nullptr, /*allow_exceptions=*/false);
        std::string().swap(state.text);
    });
    return state.value;
}

} // namespace dra::model
