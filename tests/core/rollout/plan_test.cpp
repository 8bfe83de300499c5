// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_plan.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/model/yaml_codec.h"
#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;

namespace {

// A small valid plan; tests replace one line to break it.
constexpr const char *kMinimal = R"(apiVersion: draconsole.io/v1alpha1
kind: RolloutPlan
metadata:
  name: demo
spec:
  baseline:
    namespace: ml
    deployment: infer
  variant:
    resourceClaimTemplate:
      name: one-gpu
      spec:
        spec:
          devices:
            requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.example.com
  traffic:
    mode: ReplicaRatio
    service: infer
  cutover:
    steps: [25, 50, 100]
)";

std::string replace(std::string text, const std::string &from, const std::string &to)
{
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

const PlanError *errorAt(const PlanParse &parse, const std::string &path)
{
    for (const PlanError &error : parse.errors)
        if (error.path == path)
            return &error;
    return nullptr;
}

} // namespace

TEST(RolloutPlanTest, ExamplePlanParsesIntoTypedFields)
{
    const RolloutPlan plan = test::examplePlan();
    EXPECT_EQ(plan.name, "llm-server-to-dra");
    EXPECT_EQ(plan.workloadKey(), "inference/llm-server");
    EXPECT_EQ(plan.variant.name, "h100-single");
    EXPECT_EQ(plan.variant.deployment, "llm-server-dra");
    EXPECT_EQ(plan.variant.templateName, "llm-server-h100");
    EXPECT_EQ(plan.variant.templateManifest["metadata"]["namespace"], "inference");
    EXPECT_EQ(plan.variant.templateManifest["kind"], "ResourceClaimTemplate");
    EXPECT_EQ(plan.variant.podTemplate.nodeSelector.size(), 1u);
    EXPECT_EQ(plan.traffic.mode, TrafficMode::HttpRoute);
    EXPECT_EQ(plan.traffic.canaryService, "llm-server-dra");
    EXPECT_TRUE(plan.shadow.enabled);
    ASSERT_EQ(plan.cutover.size(), 4u);
    EXPECT_EQ(plan.cutover[0].percent, 5);
    EXPECT_EQ(plan.cutover[0].observationMs, 15 * 60'000);
    EXPECT_EQ(plan.cutover[3].observationMs, 60 * 60'000);
    EXPECT_EQ(plan.application.maxLatencyRatio, 1.2);
    EXPECT_EQ(plan.negativeControl.deviceClassName, "gpu.nvidia.com");
    ASSERT_EQ(plan.stopConditions.size(), 5u);
    const StopCondition *wrong = plan.stopCondition(StopCondition::Type::WrongDeviceIdentity);
    ASSERT_NE(wrong, nullptr);
    EXPECT_EQ(wrong->action, StopAction::Rollback);
    EXPECT_EQ(plan.stopCondition(StopCondition::Type::PendingTooLong)->afterMs, 5 * 60'000);
}

TEST(RolloutPlanTest, MinimalPlanTakesDefaults)
{
    const PlanParse parsed = parsePlan(kMinimal);
    ASSERT_TRUE(parsed.plan) << parsed.errorText(QStringLiteral("min")).toStdString();
    EXPECT_EQ(parsed.plan->variant.deployment, "infer-dra");
    EXPECT_EQ(parsed.plan->variant.name, "one-gpu");
    EXPECT_FALSE(parsed.plan->shadow.enabled) << "replica ratios cannot mirror: shadow is skipped";
    EXPECT_EQ(parsed.plan->variant.podTemplate.removeResources,
        std::vector<std::string> { "nvidia.com/gpu" });
    EXPECT_FALSE(parsed.plan->negativeControl.selector.empty());
}

TEST(RolloutPlanTest, ReportsEveryProblemWithFileLineAndPath)
{
    std::string text = replace(kMinimal, "steps: [25, 50, 100]", "steps: [25, 25, 80]");
    text = replace(text, "  name: demo", "  name: Demo_Plan");
    text = replace(text, "    service: infer", "    service: infer\n    weights: 3");
    text = replace(text, "apiVersion: draconsole.io/v1alpha1", "apiVersion: draconsole.io/v2");
    const PlanParse parsed = parsePlan(text);
    EXPECT_FALSE(parsed.plan);
    ASSERT_NE(errorAt(parsed, "apiVersion"), nullptr);
    ASSERT_NE(errorAt(parsed, "metadata.name"), nullptr);
    EXPECT_NE(errorAt(parsed, "metadata.name")->reason.find("Demo_Plan"), std::string::npos);
    ASSERT_NE(errorAt(parsed, "spec.traffic.weights"), nullptr);
    EXPECT_NE(
        errorAt(parsed, "spec.traffic.weights")->reason.find("unknown field"), std::string::npos);
    const PlanError *step = errorAt(parsed, "spec.cutover.steps[1]");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->reason, "steps must increase (25 after 25)");
    EXPECT_EQ(step->line, 24);
    EXPECT_EQ(parsed.errors.size(), 4u)
        << parsed.errorText(QStringLiteral("plan.yaml")).toStdString()
        << "the last step is not reported while the steps themselves are wrong";

    const QString message = step->message(QStringLiteral("plans/demo.yaml"));
    EXPECT_EQ(message,
        QStringLiteral(
            "plans/demo.yaml:24:17: spec.cutover.steps[1]: steps must increase (25 after 25)"));
}

TEST(RolloutPlanTest, LastStepMustReachAHundred)
{
    const PlanParse parsed = parsePlan(replace(kMinimal, "[25, 50, 100]", "[25, 50]"));
    ASSERT_NE(errorAt(parsed, "spec.cutover.steps"), nullptr);
    EXPECT_EQ(errorAt(parsed, "spec.cutover.steps")->reason, "the last step must be 100 (is 50)");
}

TEST(RolloutPlanTest, MissingSectionsAreNamed)
{
    const PlanParse parsed
        = parsePlan("apiVersion: draconsole.io/v1alpha1\nkind: RolloutPlan\nmetadata:\n  name: "
                    "x\nspec:\n  canary:\n    replicas: 0\n    observation: soon\n");
    for (const char *path : { "spec.baseline", "spec.variant", "spec.traffic", "spec.cutover",
             "spec.canary.replicas", "spec.canary.observation" })
        EXPECT_NE(errorAt(parsed, path), nullptr)
            << path << "\n"
            << parsed.errorText(QStringLiteral("p")).toStdString();
}

TEST(RolloutPlanTest, ShadowNeedsAMirrorCapableTrafficMode)
{
    const PlanParse parsed
        = parsePlan(replace(kMinimal, "  cutover:", "  shadow:\n    enabled: true\n  cutover:"));
    ASSERT_NE(errorAt(parsed, "spec.shadow.enabled"), nullptr);
    EXPECT_NE(errorAt(parsed, "spec.shadow.enabled")->reason.find("HTTPRoute"), std::string::npos);
}

TEST(RolloutPlanTest, StopConditionsAreChecked)
{
    const std::string stops = "  stopConditions:\n"
                              "  - type: PendingTooLong\n"
                              "  - type: ReadinessFailures\n    threshold: 2\n    action: Explode\n"
                              "  - type: ReadinessFailures\n    threshold: 3\n"
                              "  - type: CosmicRays\n";
    const PlanParse parsed = parsePlan(std::string(kMinimal) + stops);
    ASSERT_NE(errorAt(parsed, "spec.stopConditions[0].after"), nullptr);
    EXPECT_EQ(
        errorAt(parsed, "spec.stopConditions[0].after")->reason, "is required for PendingTooLong");
    ASSERT_NE(errorAt(parsed, "spec.stopConditions[1].action"), nullptr);
    ASSERT_NE(errorAt(parsed, "spec.stopConditions[2].type"), nullptr);
    EXPECT_NE(errorAt(parsed, "spec.stopConditions[2].type")->reason.find("listed twice"),
        std::string::npos);
    ASSERT_NE(errorAt(parsed, "spec.stopConditions[3].type"), nullptr);
}

TEST(RolloutPlanTest, TemplateIsValidatedAsAResourceClaimTemplate)
{
    const PlanParse parsed = parsePlan(replace(kMinimal,
        "              exactly:\n                deviceClassName: gpu.example.com",
        "              exactly:\n                count: many"));
    const PlanError *error = errorAt(parsed, "spec.variant.resourceClaimTemplate.spec");
    ASSERT_NE(error, nullptr) << parsed.errorText(QStringLiteral("p")).toStdString();
    EXPECT_GT(error->line, 0);
}

TEST(RolloutPlanTest, TemplateFromAFileBesideThePlan)
{
    QTemporaryDir dir;
    QFile rct(dir.filePath(QStringLiteral("rct.yaml")));
    ASSERT_TRUE(rct.open(QIODevice::WriteOnly));
    rct.write("apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: "
              "from-file\n"
              "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly:\n"
              "          deviceClassName: gpu.example.com\n");
    rct.close();
    const std::string text = replace(kMinimal,
        "      name: one-gpu\n      spec:\n        spec:\n          devices:\n            "
        "requests:\n"
        "            - name: gpu\n              exactly:\n                deviceClassName: "
        "gpu.example.com\n",
        "      file: rct.yaml\n");
    const PlanParse parsed = parsePlan(text, dir.path());
    ASSERT_TRUE(parsed.plan) << parsed.errorText(QStringLiteral("p")).toStdString();
    EXPECT_EQ(parsed.plan->variant.templateName, "from-file");
    EXPECT_EQ(parsed.plan->variant.templateFile, "rct.yaml");

    const PlanParse missing = parsePlan(replace(text, "rct.yaml", "gone.yaml"), dir.path());
    ASSERT_NE(errorAt(missing, "spec.variant.resourceClaimTemplate.file"), nullptr);
}

TEST(RolloutPlanTest, BrokenYamlIsOneErrorWithItsPosition)
{
    const PlanParse parsed = parsePlan("spec: [1, 2\nkind: x\n");
    ASSERT_EQ(parsed.errors.size(), 1u);
    EXPECT_GT(parsed.errors[0].line, 0);
}

TEST(RolloutPlanTest, TextThatIsNotUtf8IsOneErrorWhereItBreaks)
{
    const auto withDescription = [](const std::string &description) {
        return replace(
            kMinimal, "  name: demo\n", "  name: demo\n  description: " + description + "\n");
    };
    // A plan saved as Latin-1: "é" is the single byte 0xE9.
    const PlanParse latin1 = parsePlan(withDescription("caf\xE9 rollout"));
    ASSERT_EQ(latin1.errors.size(), 1u);
    EXPECT_EQ(latin1.errors[0].line, 5);
    EXPECT_EQ(latin1.errors[0].column, 19);
    EXPECT_NE(latin1.errors[0].reason.find("not UTF-8 text (byte 0xE9)"), std::string::npos)
        << latin1.errors[0].reason;

    // yaml-cpp decodes the escape \N (next line) to the lone byte 0x85: not text either.
    const PlanParse escaped = parsePlan(withDescription("\"x\\N\""));
    ASSERT_EQ(escaped.errors.size(), 1u);
    EXPECT_EQ(escaped.errors[0].line, 5);
    EXPECT_NE(escaped.errors[0].reason.find("not UTF-8"), std::string::npos)
        << escaped.errors[0].reason;

    // The same plan in UTF-8 reads, and its JSON carries the text.
    const PlanParse utf8 = parsePlan(withDescription("caf\xC3\xA9 rollout"));
    ASSERT_TRUE(utf8.errors.empty()) << utf8.errorText(QStringLiteral("plan.yaml")).toStdString();
    EXPECT_EQ(planJson(*utf8.plan)["metadata"]["description"], "caf\xC3\xA9 rollout");
}

TEST(RolloutPlanTest, JsonOfThePlanCarriesStepsAndDurations)
{
    const nlohmann::json json = planJson(test::examplePlan());
    EXPECT_EQ(json["kind"], "RolloutPlan");
    EXPECT_EQ(json["spec"]["cutover"]["steps"][3]["observation"], "1h");
    EXPECT_EQ(json["spec"]["traffic"]["mode"], "HTTPRoute");
    EXPECT_EQ(json["spec"]["stopConditions"][1]["type"], "WrongDeviceIdentity");
    const std::string summary = planSummary(test::examplePlan());
    EXPECT_NE(summary.find("Cutover    50%, observe 15m"), std::string::npos) << summary;
    EXPECT_NE(summary.find("stop: ErrorRateAbove above 2% -> Rollback"), std::string::npos)
        << summary;
}

TEST(RolloutPlanTest, ItsJsonIsAPlanThatReadsBackTheSame)
{
    const nlohmann::json json = planJson(test::examplePlan());
    const PlanParse again = parsePlan(dra::model::jsonToYaml(json));
    ASSERT_TRUE(again.plan) << again.errorText(QStringLiteral("round trip")).toStdString();
    EXPECT_EQ(planJson(*again.plan), json);
}
