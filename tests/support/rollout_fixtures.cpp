// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/support/rollout_fixtures.h"

#include <gtest/gtest.h>

#include "core/model/yaml_codec.h"
#include "tests/support/upstream.h"

namespace dra::rollout::test {

std::string examplePlanText()
{
    return dra::test::readFile(
        std::filesystem::path(DRA_SOURCE_DIR) / "resources/rollouts/llm-inference-h100.yaml");
}

RolloutPlan examplePlan()
{
    const PlanParse parsed = parsePlan(examplePlanText());
    EXPECT_TRUE(parsed.plan.has_value())
        << parsed.errorText(QStringLiteral("example")).toStdString();
    return parsed.plan.value_or(RolloutPlan {});
}

std::vector<nlohmann::json> fixtureDocuments(const std::string &name)
{
    const std::string text = dra::test::readFile(dra::test::testDataPath("rollout/" + name));
    const model::YamlStream stream = model::parseYamlDocuments(text);
    EXPECT_TRUE(stream.errors.empty()) << name;
    std::vector<nlohmann::json> documents;
    for (const model::YamlDocument &document : stream.documents)
        documents.push_back(document.value);
    return documents;
}

model::Object decode(const nlohmann::json &document)
{
    Result<model::Object> object = model::decodeObject(document);
    EXPECT_TRUE(object.has_value()) << (object ? "" : object.error().message.toStdString());
    return object.value_or(model::Object {});
}

GateResult passedGate(GateKind gate)
{
    return gateResult(gate, { Check { "fixture", Verdict::Passed, "ok" } });
}

} // namespace dra::rollout::test
