// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl rollout: validate a RolloutPlan, show rollouts and the audit log from the state file.
#include <algorithm>
#include <cstdio>

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QTimer>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/rollout_drive.h"
#include "app/dractl/commands/stop_signal.h"
#include "core/common/duration.h"
#include "core/common/json_text.h"
#include "core/rollout/governance.h"
#include "core/rollout/audit_log.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_status.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"

namespace dra::cli {

namespace {

using common::qs;

std::string timeText(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toStdString();
}

// The state file, read-only; `state` is empty when there is no file yet.
struct OpenedState
{
    std::optional<store::StateDb> state;
    QString path;
};

Result<OpenedState> openState(const QCommandLineParser &parser)
{
    OpenedState opened;
    Result<QString> path = statePath(parser);
    if (!path)
        return dra::fail(path.error());
    opened.path = *path;
    if (!QFileInfo::exists(opened.path))
        return opened;
    Result<store::StateDb> state = store::StateDb::open(opened.path, store::OpenMode::ReadOnly);
    if (!state)
        return dra::fail(state.error());
    opened.state = std::move(*state);
    return opened;
}

int runPlan(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addPositionalArgument(
        QStringLiteral("file"), QStringLiteral("The RolloutPlan YAML file."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Validate a RolloutPlan and print it as a summary (text), json or yaml. "
                           "Every problem is listed with its file, line, field and reason."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return reportFailure(QStringLiteral("rollout plan: name one plan file"));
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("yaml") },
            QStringLiteral("rollout plan")))
        return Usage;
    const QString file = parser.positionalArguments().front();
    const rollout::PlanParse parsed = rollout::readPlanFile(file);
    if (!parsed.plan) {
        err(parsed.errorText(file));
        err(QStringLiteral("dractl: rollout plan: %1 is not a valid plan (%2 problem(s))\n")
                .arg(file)
                .arg(parsed.errors.size()));
        return Failed;
    }
    if (isStructured(format)) {
        const nlohmann::json json = rollout::planJson(*parsed.plan);
        format == QLatin1String("json") ? printJson(json) : printYaml(json);
    } else {
        out(rollout::planSummary(*parsed.plan));
    }
    return Ok;
}

nlohmann::json statusJson(const rollout::RolloutRecord &record, store::StateDb *state = nullptr)
{
    return rollout::rolloutStatusJson(record, state, QDateTime::currentMSecsSinceEpoch());
}

std::string stepText(
    const rollout::RolloutState &state, const std::optional<rollout::RolloutPlan> &plan)
{
    const rollout::Stage stage = state.effectiveStage();
    const int step = state.stage == rollout::Stage::Paused ? state.pausedStep : state.step;
    if (stage != rollout::Stage::Cutover || step < 0)
        return "";
    if (plan && step < int(plan->cutover.size()))
        return std::to_string(plan->cutover[size_t(step)].percent) + "%";
    return "step " + std::to_string(step + 1);
}

// Who drives the rollout now, from the controller's heartbeat in the state file.
std::string controllerText(store::StateDb *state, const std::string &id)
{
    if (!state)
        return "none";
    Result<std::optional<rollout::ControllerLease>> lease
        = rollout::ControllerInbox(*state).lease(id);
    if (!lease || !*lease)
        return "none running (verbs run in the shell that gives them)";
    const int64_t now = QDateTime::currentMSecsSinceEpoch();
    const int64_t age = now - (*lease)->heartbeatAt;
    const rollout::LeaseState leaseState = rollout::leaseState(*lease, now);
    return (*lease)->owner + ", heartbeat "
        + common::formatDuration(std::max<int64_t>(0, age / 1000 * 1000)) + " ago"
        + (leaseState == rollout::LeaseState::Stale             ? " (stale: not running)"
                : leaseState == rollout::LeaseState::HolderGone ? " (its process is gone)"
                                                                : "");
}

void printDetail(const rollout::RolloutRecord &record, const std::string &controller = {})
{
    const rollout::RolloutState &s = record.state;
    const rollout::PlanParse parsed = rollout::parsePlan(record.planYaml);
    std::string stage = rollout::stageName(s.stage);
    if (s.stage == rollout::Stage::Paused)
        stage += std::string(" (in ") + rollout::stageName(s.pausedStage) + ")";
    const std::string step = stepText(s, parsed.plan);
    if (!step.empty())
        stage += " at " + step;
    std::string text = "Rollout " + s.id + "\n";
    text += "  workload  " + s.workload + "\n";
    text += "  variant   " + s.variant + "\n";
    text += "  stage     " + stage + "\n";
    if (!s.pauseReason.empty())
        text += "  paused    " + s.pauseReason + "\n";
    text += "  since     " + timeText(s.stageEnteredAt) + "\n";
    text += "  attempt   " + std::to_string(s.attempt) + ", baseline replicas "
        + std::to_string(s.baselineReplicas) + "\n";
    text += "  updated   " + timeText(record.updatedAt) + "\n";
    if (!controller.empty())
        text += "  driver    " + controller + "\n";
    if (!parsed.plan)
        text += "  (the stored plan no longer validates)\n";
    else
        for (const rollout::GovernanceFact &fact :
            rollout::governanceFacts(*parsed.plan, s, QDateTime::currentMSecsSinceEpoch()))
            text += "  " + fact.label
                + std::string(fact.label.size() < 10 ? 10 - fact.label.size() : 1, ' ') + fact.text
                + "\n";
    text += "Gates:\n";
    if (s.gates.empty())
        text += "  none evaluated in this stage\n";
    for (const auto &[kind, result] : s.gates) {
        text += "  " + std::string(rollout::gateName(kind)) + ": "
            + rollout::verdictName(result.verdict) + "\n";
        for (const rollout::Check &check : result.checks)
            text += "    [" + std::string(rollout::verdictName(check.verdict)) + "] " + check.name
                + ": " + check.evidence + "\n";
    }
    text += "History:\n";
    for (const rollout::HistoryEntry &h : s.history) {
        text += "  " + timeText(h.at) + "  " + h.actor + "  " + rollout::verbName(h.verb) + "  "
            + rollout::stageName(h.from) + " -> " + rollout::stageName(h.to);
        if (!h.note.empty())
            text += "  (" + h.note + ")";
        text += "\n";
    }
    std::string verbs;
    for (rollout::Verb verb : rollout::RolloutMachine::userVerbs(s.stage))
        verbs += (verbs.empty() ? "" : ", ") + std::string(rollout::verbName(verb));
    text += "Verbs: " + (verbs.empty() ? std::string("none (finished)") : verbs) + "\n";
    out(text);
}

// status NAME -w: the detail again at every change, until the rollout settles or Ctrl-C.
int watchStatus(const QCommandLineParser &parser)
{
    std::setvbuf(
        stdout, nullptr, _IOLBF, 0); // each change shows when it happens, also through a pipe
    if (parser.positionalArguments().size() != 1)
        return reportFailure(QStringLiteral("rollout status -w: name the rollout to follow"));
    const std::string name = parser.positionalArguments().front().toStdString();
    int64_t shown = -1;
    int status = Ok;
    const auto look = [&]() {
        Result<OpenedState> opened = openState(parser);
        if (!opened || !opened->state) {
            status = opened ? reportFailure(
                         QStringLiteral("rollout status: no state file at %1").arg(opened->path))
                            : reportFailure(opened.error());
            return QCoreApplication::quit();
        }
        Result<std::optional<rollout::RolloutRecord>> record
            = rollout::RolloutStore(*opened->state).load(name);
        if (!record || !*record) {
            status = record
                ? reportFailure(QStringLiteral("rollout status: no rollout named %1 in %2")
                                    .arg(qs(name), opened->path))
                : reportFailure(record.error());
            return QCoreApplication::quit();
        }
        if ((*record)->updatedAt != shown) {
            shown = (*record)->updatedAt;
            out(QStringLiteral("--- %1\n")
                    .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)));
            printDetail(**record, controllerText(&*opened->state, name));
        }
        if (rollout::isSettled((*record)->state.stage))
            QCoreApplication::quit();
    };
    const StopOnSignal stopOnSignal;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &poll, look);
    poll.start(1000);
    QTimer::singleShot(0, &poll, look);
    QCoreApplication::exec();
    return status;
}

int runStatus(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(stateOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ { QStringLiteral("w"), QStringLiteral("watch") },
        QStringLiteral("Follow one rollout: print it again whenever it changes, until it settles "
                       "or Ctrl-C.") });
    parser.addPositionalArgument(QStringLiteral("name"),
        QStringLiteral("A rollout (default: all)."), QStringLiteral("[name]"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Show rollouts from the state file: a table of all, or one in detail."),
            &exitCode))
        return exitCode;
    if (parser.isSet(QStringLiteral("watch")))
        return watchStatus(parser);
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("yaml") },
            QStringLiteral("rollout status")))
        return Usage;
    if (parser.positionalArguments().size() > 1)
        return reportFailure(QStringLiteral("rollout status: name at most one rollout"));
    Result<OpenedState> opened = openState(parser);
    if (!opened)
        return reportFailure(opened.error());
    std::vector<rollout::RolloutRecord> records;
    if (opened->state) {
        rollout::RolloutStore store(*opened->state);
        Result<std::vector<rollout::RolloutRecord>> listed = store.list();
        if (!listed)
            return reportFailure(listed.error());
        records = std::move(*listed);
    }
    if (!parser.positionalArguments().isEmpty()) {
        const std::string name = parser.positionalArguments().front().toStdString();
        const auto found = std::find_if(
            records.begin(), records.end(), [&](const auto &r) { return r.state.id == name; });
        if (found == records.end())
            return reportFailure(QStringLiteral("rollout status: no rollout named %1 in %2")
                                     .arg(qs(name), opened->path));
        store::StateDb *db = opened->state ? &*opened->state : nullptr;
        if (isStructured(format))
            format == QLatin1String("json") ? printJson(statusJson(*found, db))
                                            : printYaml(statusJson(*found, db));
        else
            printDetail(*found, controllerText(db, name));
        return Ok;
    }
    if (isStructured(format)) {
        // The web console's list (GET /console/v1/rollouts) is this document.
        Result<nlohmann::json> document = rollout::rolloutListJson(
            opened->state ? &*opened->state : nullptr, QDateTime::currentMSecsSinceEpoch());
        if (!document)
            return reportFailure(document.error());
        format == QLatin1String("json") ? printJson(*document) : printYaml(*document);
        return Ok;
    }
    std::vector<std::vector<std::string>> rows;
    for (const rollout::RolloutRecord &record : records) {
        const rollout::RolloutState &s = record.state;
        std::string gates;
        for (const auto &[kind, result] : s.gates)
            gates += (gates.empty() ? "" : ",") + std::string(rollout::gateName(kind)) + "="
                + rollout::verdictName(result.verdict);
        rows.push_back({ s.id, s.workload, s.variant, rollout::stageName(s.stage),
            stepText(s, rollout::parsePlan(record.planYaml).plan), gates.empty() ? "-" : gates,
            timeText(record.updatedAt) });
    }
    printTable({ "NAME", "WORKLOAD", "VARIANT", "STAGE", "STEP", "GATES", "UPDATED" }, rows,
        QStringLiteral("No rollouts found."));
    return Ok;
}

int runAudit(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(stateOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ QStringLiteral("verify"),
        QStringLiteral("Check the hash chain; exit 1 and name the first broken entry.") });
    parser.addPositionalArgument(QStringLiteral("name"),
        QStringLiteral("Only entries of this rollout."), QStringLiteral("[name]"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Show or verify the append-only, hash-chained audit log."), &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("yaml") },
            QStringLiteral("rollout audit")))
        return Usage;
    Result<OpenedState> opened = openState(parser);
    if (!opened)
        return reportFailure(opened.error());
    if (!opened->state) {
        if (parser.isSet(QStringLiteral("verify")))
            out(QStringLiteral("audit log intact: 0 entries (no state file at %1)\n")
                    .arg(opened->path));
        else
            err(QStringLiteral("No audit entries found.\n"));
        return Ok;
    }
    rollout::AuditLog log(opened->state->database());
    if (parser.isSet(QStringLiteral("verify"))) {
        Result<rollout::AuditVerification> verified = log.verify();
        if (!verified)
            return reportFailure(verified.error());
        if (isStructured(format)) {
            const nlohmann::json json = rollout::auditVerificationJson(*verified);
            format == QLatin1String("json") ? printJson(json) : printYaml(json);
        } else if (verified->intact) {
            out(QStringLiteral("audit log intact: %1 entries, head %2\n")
                    .arg(verified->entries)
                    .arg(qs(verified->headHash)));
        } else {
            err(QStringLiteral("audit log broken: %1 (of %2 entries)\n")
                    .arg(qs(verified->reason))
                    .arg(verified->entries));
        }
        return verified->intact ? Ok : Failed;
    }
    std::optional<std::string> target;
    if (!parser.positionalArguments().isEmpty())
        target = parser.positionalArguments().front().toStdString();
    Result<std::vector<rollout::AuditEntry>> entries = log.entries(target);
    if (!entries)
        return reportFailure(entries.error());
    if (isStructured(format)) {
        nlohmann::json list = nlohmann::json::array();
        for (const rollout::AuditEntry &entry : *entries)
            list.push_back(rollout::auditEntryJson(entry));
        const nlohmann::json document { { "entries", std::move(list) } };
        format == QLatin1String("json") ? printJson(document) : printYaml(document);
        return Ok;
    }
    std::vector<std::vector<std::string>> rows;
    for (const rollout::AuditEntry &entry : *entries)
        rows.push_back({ std::to_string(entry.seq), timeText(entry.at), entry.actor, entry.action,
            entry.target, entry.result });
    printTable({ "SEQ", "TIME", "ACTOR", "ACTION", "TARGET", "RESULT" }, rows,
        QStringLiteral("No audit entries found."));
    return Ok;
}

// promote, pause, ...: the verb is the last word of the command, "dractl rollout promote".
int runVerb(const QStringList &arguments)
{
    return runRolloutVerb(arguments, arguments.value(0).section(QLatin1Char(' '), -1));
}

const CommandRegistration rolloutRegistration({ .path = "rollout",
    .summary = "Plan and follow canary -> shadow -> cutover rollouts",
    .order = 60,
    .details = "Verbs given while `rollout run` drives the rollout are queued for it in the state "
               "file." });

// In the order of a rollout's life; each has --help.
const CommandRegistration rolloutCommands[] = {
    CommandRegistration({ .path = "rollout plan",
        .summary = "validate a RolloutPlan and print it (-o text|json|yaml)",
        .run = runPlan,
        .order = 10,
        .synopsis = "FILE" }),
    CommandRegistration({ .path = "rollout start",
        .summary = "pre-flight baseline gate, create the rollout, start the canary",
        .run = runRolloutStart,
        .order = 20,
        .synopsis = "PLAN" }),
    CommandRegistration({ .path = "rollout run",
        .summary = "the controller in the foreground (--auto-promote, --once)",
        .run = runRolloutRun,
        .order = 30,
        .synopsis = "PLAN|NAME" }),
    CommandRegistration({ .path = "rollout promote",
        .summary = "next stage, once the gates pass and the window has run",
        .run = runVerb,
        .order = 40,
        .synopsis = "NAME" }),
    CommandRegistration({ .path = "rollout pause",
        .summary = "hold the current stage",
        .run = runVerb,
        .order = 41,
        .synopsis = "NAME" }),
    CommandRegistration({ .path = "rollout resume",
        .summary = "carry on from a pause",
        .run = runVerb,
        .order = 42,
        .synopsis = "NAME" }),
    CommandRegistration({ .path = "rollout abort",
        .summary = "roll back: traffic to the baseline, canary and claims removed",
        .run = runVerb,
        .order = 43,
        .synopsis = "NAME" }),
    CommandRegistration({ .path = "rollout finalise",
        .summary = "a Complete rollout: delete the old baseline Deployment",
        .run = runVerb,
        .order = 44,
        .synopsis = "NAME" }),
    CommandRegistration({ .path = "rollout reject",
        .summary = "roll back and mark the DRA variant rejected",
        .run = runVerb,
        .order = 45,
        .synopsis = "NAME" }),
    CommandRegistration({ .path = "rollout retry-gate",
        .summary = "evaluate a gate again",
        .run = runVerb,
        .order = 46,
        .synopsis = "NAME --gate G" }),
    CommandRegistration({ .path = "rollout status",
        .summary = "rollouts in the state file, or one in detail; -w follows it",
        .run = runStatus,
        .order = 50,
        .synopsis = "[NAME] [-w]" }),
    CommandRegistration({ .path = "rollout report",
        .summary = "the evidence bundle",
        .run = runRolloutReport,
        .order = 60,
        .synopsis = "NAME -o html|json" }),
    CommandRegistration({ .path = "rollout audit",
        .summary = "the audit log; --verify checks its hash chain",
        .run = runAudit,
        .order = 70,
        .synopsis = "[NAME]" }),
};

} // namespace

} // namespace dra::cli
