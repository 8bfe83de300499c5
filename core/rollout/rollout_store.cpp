// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_store.h"

#include "core/common/json_text.h"

namespace dra::rollout {

namespace {

using common::Error;
using store::sqlite::Statement;
using store::sqlite::Transaction;

Result<RolloutRecord> readRecord(Statement &select)
{
    Result<nlohmann::json> json
        = common::parseJson(select.columnText(1), QStringLiteral("rollout state"));
    if (!json)
        return fail(json.error());
    std::string why;
    std::optional<RolloutState> state = stateFromJson(*json, &why);
    if (!state)
        return fail(Error::Code::Parse,
            QStringLiteral("rollout %1: %2")
                .arg(common::qs(select.columnText(0)), common::qs(why)));
    return RolloutRecord { std::move(*state), select.columnString(2), select.columnInt(3) };
}

std::string transitionText(const RolloutState &before, const Decision &decision)
{
    const auto label = [](Stage stage, int step) {
        return std::string(stageName(stage))
            + (stage == Stage::Cutover ? "[" + std::to_string(step) + "]" : "");
    };
    return label(before.stage, before.step) + " -> " + label(decision.to, decision.toStep);
}

} // namespace

Result<Transaction> RolloutStore::beginWrite()
{
    if (!m_state.isWriter())
        return fail(Error::Code::Invalid, QStringLiteral("the state file was opened read-only"));
    return Transaction::begin(m_state.database(), Transaction::Kind::Immediate);
}

Result<void> RolloutStore::create(
    const RolloutState &state, const std::string &planYaml, const std::string &actor, int64_t at)
{
    store::sqlite::Database &db = m_state.database();
    Result<Transaction> transaction = beginWrite();
    if (!transaction)
        return fail(transaction.error());
    Result<std::vector<RolloutRecord>> existing = list();
    if (!existing)
        return fail(existing.error());
    for (const RolloutRecord &record : *existing) {
        if (isSettled(record.state.stage))
            continue;
        if (record.state.id == state.id)
            return fail(Error::Code::Conflict,
                QStringLiteral("rollout %1 exists and is at %2; abort or finish it first")
                    .arg(common::qs(state.id), QString::fromLatin1(stageName(record.state.stage))));
        if (record.state.workload == state.workload)
            return fail(Error::Code::Conflict,
                QStringLiteral("rollout %1 of %2 is at %3; one rollout per workload at a time")
                    .arg(common::qs(record.state.id), common::qs(state.workload),
                        QString::fromLatin1(stageName(record.state.stage))));
    }
    Result<Statement> upsert = db.prepare(
        "INSERT INTO rollouts (id, plan_yaml, state_json, updated_at, workload, stage, created_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4) ON CONFLICT (id) DO UPDATE SET plan_yaml = "
        "excluded.plan_yaml, "
        "state_json = excluded.state_json, updated_at = excluded.updated_at, workload = "
        "excluded.workload, "
        "stage = excluded.stage, created_at = excluded.created_at");
    if (!upsert)
        return fail(upsert.error());
    const std::string json = common::compactJson(stateJson(state));
    upsert->bind(1, state.id);
    upsert->bind(2, planYaml);
    upsert->bind(3, json);
    upsert->bind(4, at);
    upsert->bind(5, state.workload);
    upsert->bind(6, stageName(state.stage));
    if (Result<void> done = upsert->exec(); !done)
        return done;
    AuditEntry entry { 0, at, actor, "create", state.id, "Baseline",
        { { "workload", state.workload }, { "variant", state.variant } } };
    // The pre-flight, with the baseline facts: the evidence bundle starts from them.
    if (const auto preflight = state.gates.find(GateKind::Baseline); preflight != state.gates.end())
        entry.details["preflight"] = gateResultJson(preflight->second);
    if (Result<AuditEntry> logged = m_audit.append(std::move(entry)); !logged)
        return fail(logged.error());
    return transaction->commit();
}

Result<std::optional<RolloutRecord>> RolloutStore::load(const std::string &id)
{
    Result<Statement> select = m_state.database().prepare(
        "SELECT id, state_json, plan_yaml, updated_at FROM rollouts WHERE id = ?1");
    if (!select)
        return fail(select.error());
    select->bind(1, id);
    const Result<bool> row = select->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<RolloutRecord>();
    Result<RolloutRecord> record = readRecord(*select);
    if (!record)
        return fail(record.error());
    return std::optional<RolloutRecord>(std::move(*record));
}

Result<std::vector<RolloutRecord>> RolloutStore::list()
{
    Result<Statement> select = m_state.database().prepare(
        "SELECT id, state_json, plan_yaml, updated_at FROM rollouts ORDER BY updated_at DESC, id");
    if (!select)
        return fail(select.error());
    std::vector<RolloutRecord> records;
    while (true) {
        const Result<bool> row = select->step();
        if (!row)
            return fail(row.error());
        if (!*row)
            return records;
        Result<RolloutRecord> record = readRecord(*select);
        if (!record)
            return fail(record.error());
        records.push_back(std::move(*record));
    }
}

Result<void> RolloutStore::writeState(const RolloutState &state, int64_t at)
{
    Result<Statement> update = m_state.database().prepare(
        "UPDATE rollouts SET state_json = ?2, stage = ?3, updated_at = ?4 WHERE id = ?1");
    if (!update)
        return fail(update.error());
    const std::string json = common::compactJson(stateJson(state));
    update->bind(1, state.id);
    update->bind(2, json);
    update->bind(3, stageName(state.stage));
    update->bind(4, at);
    return update->exec();
}

Result<Decision> RolloutStore::execute(const RolloutMachine &machine, RolloutState &state,
    const Command &command, int64_t at,
    const std::function<Result<void>(const Decision &)> &alsoWhenAllowed)
{
    store::sqlite::Database &db = m_state.database();
    Result<Transaction> transaction = beginWrite();
    if (!transaction)
        return fail(transaction.error());

    RolloutState next = state;
    const Decision decision = machine.apply(next, command);
    nlohmann::json requirements = nlohmann::json::array();
    for (const Requirement &r : decision.requirements)
        requirements.push_back({ { "what", r.what }, { "met", r.met }, { "detail", r.detail } });
    nlohmann::json details { { "requirements", std::move(requirements) },
        { "mutations", mutationsJson(decision.mutations) }, { "reason", command.reason } };
    if (command.gate)
        details["gate"] = gateName(*command.gate);
    if (command.stopAction)
        details["stopAction"] = stopActionName(*command.stopAction);
    if (command.overrideRejection)
        details["overrideRejection"] = true;
    if (command.force)
        details["force"] = true;
    AuditEntry entry { 0, at, command.actor, verbName(command.verb), state.id,
        decision.allowed ? transitionText(state, decision) : "refused: " + decision.refusal,
        std::move(details) };
    if (decision.allowed) {
        if (Result<void> written = writeState(next, at); !written)
            return fail(written.error());
        for (const Mutation &m : decision.mutations) {
            if (m.kind != Mutation::Kind::MarkVariantRejected)
                continue;
            Result<Statement> mark = db.prepare("INSERT INTO rejected_variants (workload, variant, "
                                                "rollout, at, reason) VALUES (?1, ?2, ?3, ?4, ?5) "
                                                "ON CONFLICT (workload, variant) DO UPDATE SET "
                                                "rollout = excluded.rollout, at = excluded.at, "
                                                "reason = excluded.reason");
            if (!mark)
                return fail(mark.error());
            mark->bind(1, m.ns);
            mark->bind(2, m.name);
            mark->bind(3, state.id);
            mark->bind(4, at);
            mark->bind(5, command.reason);
            if (Result<void> done = mark->exec(); !done)
                return fail(done.error());
        }
    }
    if (decision.allowed && alsoWhenAllowed)
        if (Result<void> done = alsoWhenAllowed(decision); !done)
            return fail(done.error());
    if (Result<AuditEntry> logged = m_audit.append(std::move(entry)); !logged)
        return fail(logged.error());
    if (Result<void> committed = transaction->commit(); !committed)
        return fail(committed.error());
    if (decision.allowed)
        state = std::move(next);
    return decision;
}

Result<void> RolloutStore::recordGates(const RolloutMachine &machine, RolloutState &state,
    const std::vector<GateResult> &results, const std::string &actor, int64_t at)
{
    Result<Transaction> transaction = beginWrite();
    if (!transaction)
        return fail(transaction.error());
    RolloutState next = state;
    for (const GateResult &result : results) {
        const auto before = next.gates.find(result.gate);
        const bool news = before == next.gates.end() || before->second.verdict != result.verdict;
        machine.recordGate(next, result);
        if (!news)
            continue;
        AuditEntry entry { 0, at, actor, "gate", state.id,
            std::string(gateName(result.gate)) + ": " + verdictName(result.verdict),
            { { "gate", gateResultJson(result) }, { "stage", stageName(state.stage) } } };
        if (Result<AuditEntry> logged = m_audit.append(std::move(entry)); !logged)
            return fail(logged.error());
    }
    if (Result<void> written = writeState(next, at); !written)
        return fail(written.error());
    if (Result<void> committed = transaction->commit(); !committed)
        return fail(committed.error());
    state = std::move(next);
    return {};
}

Result<std::optional<RejectedVariant>> RolloutStore::rejection(
    const std::string &workload, const std::string &variant)
{
    Result<Statement> select = m_state.database().prepare(
        "SELECT rollout, at, reason FROM rejected_variants WHERE workload = ?1 AND variant = ?2");
    if (!select)
        return fail(select.error());
    select->bind(1, workload);
    select->bind(2, variant);
    const Result<bool> row = select->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<RejectedVariant>();
    return std::optional<RejectedVariant>(RejectedVariant { workload, variant,
        select->columnString(0), select->columnString(2), select->columnInt(1) });
}

} // namespace dra::rollout
