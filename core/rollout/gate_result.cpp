// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/gate_result.h"

#include <array>
#include <utility>

namespace dra::rollout {

namespace {

constexpr std::array<std::pair<GateKind, const char *>, 6> kGateNames { {
    { GateKind::Baseline, "baseline" },
    { GateKind::Api, "api" },
    { GateKind::Node, "node" },
    { GateKind::Application, "application" },
    { GateKind::NegativeControl, "negative-control" },
    { GateKind::Rollback, "rollback" },
} };

constexpr std::array<std::pair<Verdict, const char *>, 3> kVerdictNames { {
    { Verdict::Passed, "Passed" },
    { Verdict::Failed, "Failed" },
    { Verdict::Inconclusive, "Inconclusive" },
} };

} // namespace

const Check *GateResult::decisive() const
{
    for (Verdict wanted : { Verdict::Failed, Verdict::Inconclusive })
        for (const Check &check : checks)
            if (check.verdict == wanted)
                return &check;
    return nullptr;
}

std::string GateResult::summary() const
{
    std::string text = verdictName(verdict);
    if (const Check *check = decisive())
        text += ": " + check->name + ": " + check->evidence;
    else if (checks.empty())
        text += ": nothing to check";
    return text;
}

GateResult gateResult(GateKind gate, std::vector<Check> checks, int64_t at)
{
    Verdict verdict = checks.empty() ? Verdict::Inconclusive : Verdict::Passed;
    for (const Check &check : checks) {
        if (check.verdict == Verdict::Failed)
            verdict = Verdict::Failed;
        else if (check.verdict == Verdict::Inconclusive && verdict == Verdict::Passed)
            verdict = Verdict::Inconclusive;
    }
    return GateResult { gate, verdict, std::move(checks), at };
}

const char *verdictName(Verdict verdict)
{
    for (const auto &[value, name] : kVerdictNames)
        if (value == verdict)
            return name;
    return "?";
}

const char *gateName(GateKind gate)
{
    for (const auto &[value, name] : kGateNames)
        if (value == gate)
            return name;
    return "?";
}

std::optional<GateKind> gateFromName(std::string_view name)
{
    for (const auto &[value, text] : kGateNames)
        if (name == text)
            return value;
    return std::nullopt;
}

std::optional<Verdict> verdictFromName(std::string_view name)
{
    for (const auto &[value, text] : kVerdictNames)
        if (name == text)
            return value;
    return std::nullopt;
}

nlohmann::json gateResultJson(const GateResult &result)
{
    nlohmann::json checks = nlohmann::json::array();
    for (const Check &check : result.checks)
        checks.push_back({ { "name", check.name }, { "verdict", verdictName(check.verdict) },
            { "evidence", check.evidence } });
    nlohmann::json json { { "gate", gateName(result.gate) },
        { "verdict", verdictName(result.verdict) }, { "at", result.at },
        { "checks", std::move(checks) } };
    if (!result.pictures.empty())
        json["pictures"] = result.pictures;
    if (!result.facts.is_null())
        json["facts"] = result.facts;
    return json;
}

std::optional<GateResult> gateResultFromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        return std::nullopt;
    const std::optional<GateKind> gate = gateFromName(json.value("gate", ""));
    const std::optional<Verdict> verdict = verdictFromName(json.value("verdict", ""));
    if (!gate || !verdict)
        return std::nullopt;
    GateResult result { *gate, *verdict, {}, json.value("at", int64_t(0)) };
    if (json.contains("checks") && json["checks"].is_array()) {
        for (const nlohmann::json &item : json["checks"]) {
            if (!item.is_object())
                return std::nullopt;
            const std::optional<Verdict> v = verdictFromName(item.value("verdict", ""));
            if (!v)
                return std::nullopt;
            result.checks.push_back(
                Check { item.value("name", ""), *v, item.value("evidence", "") });
        }
    }
    if (json.contains("pictures") && json["pictures"].is_object())
        for (const auto &[title, svg] : json["pictures"].items())
            if (svg.is_string())
                result.pictures[title] = svg.get<std::string>();
    if (json.contains("facts") && json["facts"].is_object())
        result.facts = json["facts"];
    return result;
}

} // namespace dra::rollout
