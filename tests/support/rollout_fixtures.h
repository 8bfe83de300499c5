// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/object.h"
#include "core/rollout/gate_result.h"
#include "core/rollout/rollout_plan.h"

namespace dra::rollout::test {

// resources/rollouts/llm-inference-h100.yaml, the example plan users start from.
std::string examplePlanText();
// The example plan parsed; fails the test when it does not parse.
RolloutPlan examplePlan();

// The documents of tests/data/rollout/<name> as JSON, for tests to change before decoding.
std::vector<nlohmann::json> fixtureDocuments(const std::string &name);
// Decodes one document; fails the test on error.
model::Object decode(const nlohmann::json &document);

// A gate that passed on one fixture check.
GateResult passedGate(GateKind gate);

} // namespace dra::rollout::test
