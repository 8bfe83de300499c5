// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/rollout/rollout_actions.h"

#include <algorithm>

#include "core/rollout/governance.h"
#include "core/rollout/rollout_machine.h"

namespace dra::views {

namespace {

using rollout::Verb;

QString verbLabel(Verb verb)
{
    switch (verb) {
    case Verb::Start:
        return QStringLiteral("Start");
    case Verb::Promote:
        return QStringLiteral("Promote");
    case Verb::Pause:
        return QStringLiteral("Pause");
    case Verb::Resume:
        return QStringLiteral("Resume");
    case Verb::Abort:
        return QStringLiteral("Abort / roll back");
    case Verb::RetryGate:
        return QStringLiteral("Retry gate");
    case Verb::Finalise:
        return QStringLiteral("Finalise");
    case Verb::Reject:
        return QStringLiteral("Reject variant");
    default:
        break;
    }
    return QString::fromLatin1(rollout::verbName(verb));
}

} // namespace

std::vector<VerbButton> verbButtons(const RolloutSnapshot &snapshot)
{
    static const Verb order[] = { Verb::Start, Verb::Promote, Verb::Pause, Verb::Resume,
        Verb::Abort, Verb::RetryGate, Verb::Finalise, Verb::Reject };
    std::vector<Verb> allowed;
    if (snapshot.state)
        allowed = rollout::RolloutMachine::userVerbs(snapshot.state->stage);
    const QString stage = snapshot.state
        ? QString::fromLatin1(rollout::stageName(snapshot.state->stage))
        : QString();
    std::vector<VerbButton> buttons;
    for (Verb verb : order) {
        VerbButton button { verb, verbLabel(verb),
            std::find(allowed.begin(), allowed.end(), verb) != allowed.end(), {} };
        if (!snapshot.state)
            button.toolTip = QStringLiteral("Open a rollout or start one from a plan file");
        else if (!button.enabled)
            button.toolTip = QStringLiteral("Not possible at %1").arg(stage);
        else if (snapshot.drive == RolloutSnapshot::Drive::Remote)
            button.toolTip = QStringLiteral("Queued for the controller that drives this rollout");
        if (verb == Verb::Abort && snapshot.state && button.enabled
            && snapshot.state->stage != rollout::Stage::Baseline)
            button.toolTip = QStringLiteral(
                "Roll back to the baseline: traffic, the baseline's replicas, then the "
                "canary and its claims removed");
        buttons.push_back(std::move(button));
    }
    return buttons;
}

std::optional<rollout::GateKind> gateToRetry(
    const RolloutSnapshot &snapshot, std::optional<rollout::GateKind> selected)
{
    if (!snapshot.state)
        return std::nullopt;
    const auto &gates = snapshot.state->gates;
    if (selected && gates.contains(*selected))
        return selected;
    for (const auto &[kind, result] : gates)
        if (result.verdict != rollout::Verdict::Passed)
            return kind;
    return std::nullopt;
}

QString governanceText(const RolloutSnapshot &snapshot)
{
    if (!snapshot.state || !snapshot.plan)
        return {};
    QStringList parts;
    for (const rollout::GovernanceFact &fact :
        rollout::governanceFacts(*snapshot.plan, *snapshot.state, snapshot.at)) {
        QString label = QString::fromStdString(fact.label);
        label[0] = label[0].toUpper();
        parts << label + QStringLiteral(": ") + QString::fromStdString(fact.text);
    }
    return parts.join(QStringLiteral(" · "));
}

QString driveText(const RolloutSnapshot &snapshot)
{
    if (!snapshot.state)
        return QStringLiteral("No rollout open");
    const QString owner
        = snapshot.lease ? QString::fromStdString(snapshot.lease->owner) : QString();
    switch (snapshot.drive) {
    case RolloutSnapshot::Drive::Local:
        return QStringLiteral("Driven by this console (%1)")
            .arg(owner.isEmpty() ? QStringLiteral("starting") : owner);
    case RolloutSnapshot::Drive::Remote:
        return QStringLiteral("Driven by %1; verbs are queued for it (%2 waiting)")
            .arg(owner)
            .arg(snapshot.pending.size());
    case RolloutSnapshot::Drive::Idle:
        break;
    }
    return rollout::isSettled(snapshot.state->stage) ? QStringLiteral("Settled: nothing to drive")
                                                     : QStringLiteral("Not driven");
}

} // namespace dra::views
