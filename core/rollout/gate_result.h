// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace dra::rollout {

enum class Verdict { Passed, Failed, Inconclusive };

// The evidence gates of a rollout. Baseline is the pre-flight check before start; Rollback
// confirms the cluster is back where it started.
enum class GateKind { Baseline, Api, Node, Application, NegativeControl, Rollback };

// One observation a gate made and what it concluded from it.
struct Check
{
    std::string name; // "claim allocated", "device identity"
    Verdict verdict = Verdict::Inconclusive;
    std::string evidence; // what was seen: "ResourceClaim ml/llm-0-gpu: allocated gpu-3 on node-a"
};

// A gate's verdict with every check that decided it: Failed when any check failed, else
// Inconclusive when any check was inconclusive (or there was nothing to check), else Passed.
struct GateResult
{
    GateKind gate = GateKind::Api;
    Verdict verdict = Verdict::Inconclusive;
    std::vector<Check> checks;
    int64_t at = 0; // ms since the epoch when evaluated (0: not stamped)
    // Pictures of the evidence, title -> SVG document: the node gate draws the topology of each
    // node the canary runs on, with the devices its claims hold, for the report.
    std::map<std::string, std::string> pictures;
    // What the gate saw besides its checks, kept for the evidence bundle (the pre-flight's
    // baseline facts); null when none.
    nlohmann::json facts;

    // The check that decided the verdict (first failed, else first inconclusive), or nullptr.
    const Check *decisive() const;
    // "Failed: device identity: ..." — one line for a status bar.
    std::string summary() const;
};

// Builds a GateResult from its checks, computing the verdict.
GateResult gateResult(GateKind gate, std::vector<Check> checks, int64_t at = 0);

const char *verdictName(Verdict verdict);
const char *gateName(
    GateKind gate); // "baseline", "api", "node", "application", "negative-control", "rollback"
std::optional<GateKind> gateFromName(std::string_view name);
std::optional<Verdict> verdictFromName(std::string_view name);

nlohmann::json gateResultJson(const GateResult &result);
// Reads what gateResultJson wrote; nullopt for anything else.
std::optional<GateResult> gateResultFromJson(const nlohmann::json &json);

} // namespace dra::rollout
