// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A plan as JSON and as a summary a reviewer reads before the maintenance window.
#include "core/rollout/rollout_plan.h"

#include <cstdio>

#include "core/common/duration.h"
#include "core/rollout/governance.h"

namespace dra::rollout {

nlohmann::json planJson(const RolloutPlan &plan)
{
    using nlohmann::json;
    json variant { { "name", plan.variant.name }, { "deployment", plan.variant.deployment },
        { "resourceClaimTemplate",
            { { "name", plan.variant.templateName },
                { "spec", plan.variant.templateManifest.value("spec", json::object()) } } },
        { "podTemplate",
            { { "removeResources", plan.variant.podTemplate.removeResources },
                { "claimName", plan.variant.podTemplate.claimName },
                { "containers", plan.variant.podTemplate.containers },
                { "nodeSelector", json::object() } } } };
    for (const auto &[key, value] : plan.variant.podTemplate.nodeSelector)
        variant["podTemplate"]["nodeSelector"][key] = value;

    json traffic { { "mode", trafficModeName(plan.traffic.mode) } };
    if (plan.traffic.mode == TrafficMode::HttpRoute) {
        traffic["httpRoute"]
            = { { "name", plan.traffic.route }, { "baselineBackend", plan.traffic.baselineService },
                  { "canaryBackend", plan.traffic.canaryService } };
        traffic["mirrorPercent"] = plan.traffic.mirrorPercent;
    } else {
        traffic["service"] = plan.traffic.service;
    }

    json steps = json::array();
    for (const CutoverStep &step : plan.cutover)
        steps.push_back({ { "percent", step.percent },
            { "observation", common::formatDuration(step.observationMs) } });

    const ApplicationGateConfig &a = plan.application;
    json application = json::object();
    if (!a.probePath.empty())
        application["probe"] = { { "path", a.probePath }, { "port", a.probePort } };
    application["minProbeSuccess"] = a.minProbeSuccess;
    if (!a.prometheusUrl.empty())
        application["prometheus"] = { { "url", a.prometheusUrl },
            { "errorRateQuery", a.errorRateQuery }, { "latencyQuery", a.latencyQuery } };
    if (a.maxErrorRate)
        application["maxErrorRate"] = *a.maxErrorRate;
    if (a.maxErrorRateIncrease)
        application["maxErrorRateIncrease"] = *a.maxErrorRateIncrease;
    if (a.maxLatencyRatio)
        application["maxLatencyRatio"] = *a.maxLatencyRatio;

    json stops = json::array();
    for (const StopCondition &s : plan.stopConditions) {
        json item { { "type", stopConditionName(s.type) }, { "action", stopActionName(s.action) } };
        if (s.afterMs)
            item["after"] = common::formatDuration(s.afterMs);
        if (s.threshold)
            item["threshold"] = s.threshold;
        if (s.type == StopCondition::Type::ErrorRateAbove)
            item["rate"] = s.rate;
        stops.push_back(std::move(item));
    }

    json document { { "apiVersion", kPlanApiVersion }, { "kind", kPlanKind },
        { "metadata", { { "name", plan.name }, { "description", plan.description } } },
        { "spec",
            { { "baseline",
                  { { "namespace", plan.baseline.ns },
                      { "deployment", plan.baseline.deployment } } },
                { "variant", std::move(variant) }, { "traffic", std::move(traffic) },
                { "canary",
                    { { "replicas", plan.canary.replicas },
                        { "observation", common::formatDuration(plan.canary.observationMs) } } },
                { "shadow",
                    { { "enabled", plan.shadow.enabled },
                        { "observation", common::formatDuration(plan.shadow.observationMs) } } },
                { "cutover", { { "steps", std::move(steps) } } },
                { "rollback",
                    { { "drainWindow", common::formatDuration(plan.rollback.drainMs) } } },
                { "gates",
                    { { "application", std::move(application) },
                        { "node",
                            { { "identityAttribute", plan.node.identityAttribute },
                                { "identityField", plan.node.identityField },
                                { "command", plan.node.command },
                                { "container", plan.node.container },
                                { "driverDaemonSet", plan.node.driverDaemonSet } } },
                        { "negativeControl",
                            { { "enabled", plan.negativeControl.enabled },
                                { "selector", plan.negativeControl.selector },
                                { "deviceClassName", plan.negativeControl.deviceClassName } } } } },
                { "stopConditions", std::move(stops) } } } };
    json &spec = document["spec"];
    if (!plan.owner.empty())
        spec["owner"] = plan.owner;
    if (plan.approvals != 1)
        spec["approvals"] = plan.approvals;
    if (const auto &w = plan.maintenanceWindow) {
        json days = json::array();
        for (int day : w->days)
            days.push_back(weekdayShortName(day));
        spec["maintenanceWindow"] = { { "days", std::move(days) },
            { "start", minuteOfDayText(w->startMinute) },
            { "duration", common::formatDuration(w->durationMs) }, { "timeZone", w->timeZone } };
    }
    return document;
}

std::string planSummary(const RolloutPlan &plan)
{
    std::string text
        = "Rollout " + plan.name + ": " + plan.workloadKey() + " from the device plugin to DRA\n";
    if (!plan.description.empty())
        text += "  " + plan.description + "\n";
    text += "  variant " + plan.variant.name + ": Deployment " + plan.variant.deployment
        + " with ResourceClaimTemplate " + plan.variant.templateName + " as claim \""
        + plan.variant.podTemplate.claimName + "\"";
    if (!plan.variant.podTemplate.removeResources.empty()) {
        text += ", without";
        for (const std::string &resource : plan.variant.podTemplate.removeResources)
            text += " " + resource;
    }
    text += "\n";
    if (plan.traffic.mode == TrafficMode::HttpRoute)
        text += "  traffic: HTTPRoute " + plan.traffic.route + " weights "
            + plan.traffic.baselineService + " / " + plan.traffic.canaryService
            + ", shadow mirrors " + std::to_string(plan.traffic.mirrorPercent) + "%\n";
    else
        text += "  traffic: replica ratio behind Service " + plan.traffic.service + "\n";
    text += "  stages:\n";
    text += "    1. Baseline   capture evidence, pre-flight checks\n";
    text += "    2. Canary     " + std::to_string(plan.canary.replicas)
        + " replica(s) on DRA, observe " + common::formatDuration(plan.canary.observationMs) + "\n";
    int n = 3;
    if (plan.shadow.enabled)
        text += "    " + std::to_string(n++) + ". Shadow     mirrored traffic, observe "
            + common::formatDuration(plan.shadow.observationMs) + "\n";
    for (const CutoverStep &step : plan.cutover)
        text += "    " + std::to_string(n++) + ". Cutover    " + std::to_string(step.percent)
            + "%, observe " + common::formatDuration(step.observationMs) + "\n";
    text
        += "    " + std::to_string(n) + ". Complete   baseline scaled to 0, kept until finalised\n";
    text += "  gates: API, node (identity " + plan.node.identityAttribute + "), application";
    if (!plan.application.probePath.empty())
        text += " (probe :" + std::to_string(plan.application.probePort)
            + plan.application.probePath + ")";
    if (plan.negativeControl.enabled)
        text += ", negative control";
    text += "\n";
    if (!plan.owner.empty())
        text += "  owner: " + plan.owner + "\n";
    if (plan.approvals >= 2)
        text += "  approvals: 2 (promotion and finalise by a person other than the one who "
                "started it)\n";
    if (plan.maintenanceWindow)
        text += "  maintenance window: " + windowText(*plan.maintenanceWindow)
            + " (outside it: --force and a reason)\n";
    if (plan.stopConditions.empty())
        text += "  stop conditions: none (gates still block promotion)\n";
    for (const StopCondition &s : plan.stopConditions) {
        text += "  stop: " + std::string(stopConditionName(s.type));
        if (s.afterMs)
            text += " after " + common::formatDuration(s.afterMs);
        if (s.threshold)
            text += " at " + std::to_string(s.threshold);
        if (s.type == StopCondition::Type::ErrorRateAbove) {
            char rate[32];
            std::snprintf(rate, sizeof rate, "%g%%", s.rate * 100);
            text += " above " + std::string(rate);
        }
        text += " -> " + std::string(stopActionName(s.action)) + "\n";
    }
    return text;
}

} // namespace dra::rollout
