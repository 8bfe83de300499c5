// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/stop_conditions.h"

#include <cstdio>

#include "core/common/duration.h"

namespace dra::rollout {

namespace {

std::string rateText(double rate)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", rate * 100);
    return text;
}

const GateResult *gate(const RolloutState &state, GateKind kind)
{
    const auto found = state.gates.find(kind);
    return found == state.gates.end() ? nullptr : &found->second;
}

} // namespace

std::optional<FiredStop> firstStopCondition(const RolloutPlan &plan, const RolloutState &state,
    const StopObservation &observation, int64_t now)
{
    const Stage stage = state.effectiveStage();
    const bool running
        = stage == Stage::Canary || stage == Stage::Shadow || stage == Stage::Cutover;
    using T = StopCondition::Type;
    for (const StopCondition &condition : plan.stopConditions) {
        const std::string name = stopConditionName(condition.type);
        switch (condition.type) {
        case T::PendingTooLong:
            if (running && observation.pendingSince > 0
                && now - observation.pendingSince >= condition.afterMs) {
                std::string reason = name + ": waiting "
                    + common::formatDuration(now - observation.pendingSince) + " (limit "
                    + common::formatDuration(condition.afterMs) + ")";
                if (const GateResult *api = gate(state, GateKind::Api); api && api->decisive())
                    reason += ": " + api->decisive()->evidence;
                return FiredStop { condition, std::move(reason) };
            }
            break;
        case T::WrongDeviceIdentity:
            if (const GateResult *node = gate(state, GateKind::Node); running && node)
                for (const Check &check : node->checks)
                    if (check.verdict == Verdict::Failed && check.name.ends_with(" identity"))
                        return FiredStop { condition, name + ": " + check.evidence };
            break;
        case T::ReadinessFailures:
            if (running && observation.readinessFailuresInARow >= condition.threshold)
                return FiredStop { condition,
                    name + ": " + std::to_string(observation.readinessFailuresInARow)
                        + " failed readiness checks in a row (limit "
                        + std::to_string(condition.threshold) + ")" };
            break;
        case T::ErrorRateAbove:
            if (running && observation.canaryErrorRate
                && *observation.canaryErrorRate > condition.rate)
                return FiredStop { condition,
                    name + ": canary error rate " + rateText(*observation.canaryErrorRate)
                        + " above " + rateText(condition.rate) };
            break;
        case T::ClaimNotReleased:
            if (stage == Stage::RollingBack && observation.claimsRemainingSince > 0
                && now - observation.claimsRemainingSince >= condition.afterMs)
                return FiredStop { condition,
                    name + ": the variant's claims are still there after "
                        + common::formatDuration(now - observation.claimsRemainingSince) };
            break;
        }
    }
    return std::nullopt;
}

} // namespace dra::rollout
