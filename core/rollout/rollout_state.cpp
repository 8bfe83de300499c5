// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_state.h"

#include <array>
#include <utility>

namespace dra::rollout {

namespace {

constexpr std::array<std::pair<Stage, const char *>, 11> kStages { {
    { Stage::Baseline, "Baseline" },
    { Stage::Canary, "Canary" },
    { Stage::Shadow, "Shadow" },
    { Stage::Cutover, "Cutover" },
    { Stage::Complete, "Complete" },
    { Stage::Paused, "Paused" },
    { Stage::RollingBack, "RollingBack" },
    { Stage::RolledBack, "RolledBack" },
    { Stage::Aborted, "Aborted" },
    { Stage::Rejected, "Rejected" },
    { Stage::Finalised, "Finalised" },
} };

constexpr std::array<std::pair<Verb, const char *>, 11> kVerbs { {
    { Verb::Start, "start" },
    { Verb::Promote, "promote" },
    { Verb::Pause, "pause" },
    { Verb::Resume, "resume" },
    { Verb::Abort, "abort" },
    { Verb::RetryGate, "retry-gate" },
    { Verb::Finalise, "finalise" },
    { Verb::Reject, "reject" },
    { Verb::StopConditionFired, "stop-condition" },
    { Verb::RollbackVerified, "rollback-verified" },
    { Verb::RollbackStep, "rollback-step" },
} };

template <typename Enum, size_t N>
const char *nameOf(const std::array<std::pair<Enum, const char *>, N> &table, Enum value)
{
    for (const auto &[v, name] : table)
        if (v == value)
            return name;
    return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> valueOf(
    const std::array<std::pair<Enum, const char *>, N> &table, std::string_view name)
{
    for (const auto &[v, text] : table)
        if (name == text)
            return v;
    return std::nullopt;
}

} // namespace

const char *stageName(Stage stage)
{
    return nameOf(kStages, stage);
}

const char *verbName(Verb verb)
{
    return nameOf(kVerbs, verb);
}

std::optional<Stage> stageFromName(std::string_view name)
{
    return valueOf(kStages, name);
}

std::optional<Verb> verbFromName(std::string_view name)
{
    return valueOf(kVerbs, name);
}

bool isSettled(Stage stage)
{
    return stage == Stage::RolledBack || stage == Stage::Aborted || stage == Stage::Rejected
        || stage == Stage::Finalised;
}

nlohmann::json stateJson(const RolloutState &state)
{
    using nlohmann::json;
    json gates = json::object();
    for (const auto &[kind, result] : state.gates)
        gates[gateName(kind)] = gateResultJson(result);
    json retries = json::object();
    for (const auto &[kind, count] : state.gateRetries)
        retries[gateName(kind)] = count;
    json history = json::array();
    for (const HistoryEntry &h : state.history)
        history.push_back({ { "at", h.at }, { "actor", h.actor }, { "verb", verbName(h.verb) },
            { "from", stageName(h.from) }, { "to", stageName(h.to) }, { "fromStep", h.fromStep },
            { "toStep", h.toStep }, { "note", h.note } });
    return json { { "id", state.id }, { "workload", state.workload }, { "variant", state.variant },
        { "stage", stageName(state.stage) }, { "step", state.step },
        { "pausedStage", stageName(state.pausedStage) }, { "pausedStep", state.pausedStep },
        { "pauseReason", state.pauseReason }, { "createdAt", state.createdAt },
        { "stageEnteredAt", state.stageEnteredAt }, { "baselineReplicas", state.baselineReplicas },
        { "attempt", state.attempt }, { "rejectAfterRollback", state.rejectAfterRollback },
        { "gates", std::move(gates) }, { "gateRetries", std::move(retries) },
        { "history", std::move(history) } };
}

std::optional<RolloutState> stateFromJson(const nlohmann::json &json, std::string *error)
{
    const auto bad = [&](std::string why) -> std::optional<RolloutState> {
        if (error)
            *error = std::move(why);
        return std::nullopt;
    };
    if (!json.is_object())
        return bad("the rollout state is not a JSON object");
    try {
        RolloutState state;
        state.id = json.at("id").get<std::string>();
        state.workload = json.value("workload", "");
        state.variant = json.value("variant", "");
        const std::optional<Stage> stage = stageFromName(json.at("stage").get<std::string>());
        const std::optional<Stage> paused = stageFromName(json.value("pausedStage", "Baseline"));
        if (!stage || !paused)
            return bad("unknown stage \"" + json.at("stage").get<std::string>() + "\"");
        state.stage = *stage;
        state.pausedStage = *paused;
        state.step = json.value("step", -1);
        state.pausedStep = json.value("pausedStep", -1);
        state.pauseReason = json.value("pauseReason", "");
        state.createdAt = json.value("createdAt", int64_t(0));
        state.stageEnteredAt = json.value("stageEnteredAt", int64_t(0));
        state.baselineReplicas = json.value("baselineReplicas", 0);
        state.attempt = json.value("attempt", 0);
        state.rejectAfterRollback = json.value("rejectAfterRollback", false);
        if (json.contains("gates"))
            for (const auto &[name, item] : json.at("gates").items()) {
                std::optional<GateResult> result = gateResultFromJson(item);
                if (!result)
                    return bad("unreadable result of gate \"" + name + "\"");
                state.gates[result->gate] = std::move(*result);
            }
        if (json.contains("gateRetries"))
            for (const auto &[name, count] : json.at("gateRetries").items())
                if (const std::optional<GateKind> gate = gateFromName(name))
                    state.gateRetries[*gate] = count.get<int>();
        if (json.contains("history"))
            for (const nlohmann::json &item : json.at("history")) {
                const std::optional<Verb> verb = verbFromName(item.at("verb").get<std::string>());
                const std::optional<Stage> from = stageFromName(item.at("from").get<std::string>());
                const std::optional<Stage> to = stageFromName(item.at("to").get<std::string>());
                if (!verb || !from || !to)
                    return bad("unreadable history entry");
                state.history.push_back(HistoryEntry { item.value("at", int64_t(0)),
                    item.value("actor", ""), *verb, *from, *to, item.value("fromStep", -1),
                    item.value("toStep", -1), item.value("note", "") });
            }
        return state;
    } catch (const nlohmann::json::exception &e) {
        return bad(std::string("unreadable rollout state: ") + e.what());
    }
}

} // namespace dra::rollout
