// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/controller_inbox.h"

#include <algorithm>

#include "core/common/json_text.h"

namespace dra::rollout {

namespace {

using common::Error;
using store::sqlite::Statement;
using store::sqlite::Transaction;

Result<Transaction> beginInboxWrite(store::StateDb &state)
{
    if (!state.isWriter())
        return fail(Error::Code::Invalid, QStringLiteral("the state file was opened read-only"));
    return Transaction::begin(state.database(), Transaction::Kind::Immediate);
}

// A single statement that changes the state file; refused when it was opened read-only.
Result<Statement> prepareInboxChange(store::StateDb &state, std::string_view sql)
{
    if (!state.isWriter())
        return fail(Error::Code::Invalid, QStringLiteral("the state file was opened read-only"));
    return state.database().prepare(sql);
}

// The one row `sql` selects for `rollout` (bound as ?1), stepped onto; nullopt when there is none.
// `rollout` is bound without a copy: it must outlive the statement.
Result<std::optional<Statement>> selectRolloutRow(
    store::StateDb &state, std::string_view sql, const std::string &rollout)
{
    Result<Statement> select = state.database().prepare(sql);
    if (!select)
        return fail(select.error());
    select->bind(1, rollout);
    const Result<bool> row = select->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<Statement>();
    return std::optional<Statement>(std::move(*select));
}

constexpr std::string_view kCommandColumns
    = "seq, rollout, command_json, created_at, consumed_at, result";

Result<QueuedCommand> readQueuedCommand(Statement &select)
{
    QueuedCommand queued;
    queued.seq = select.columnInt(0);
    queued.rollout = select.columnString(1);
    Result<nlohmann::json> json
        = common::parseJson(select.columnText(2), QStringLiteral("queued rollout command"));
    if (!json)
        return fail(json.error());
    std::optional<Command> command = commandFromJson(*json);
    if (!command)
        return fail(Error::Code::Parse,
            QStringLiteral("queued command %1 of rollout %2 is not a command")
                .arg(queued.seq)
                .arg(common::qs(queued.rollout)));
    queued.command = std::move(*command);
    queued.createdAt = select.columnInt(3);
    if (!select.columnIsNull(4))
        queued.consumedAt = select.columnInt(4);
    queued.result = select.columnString(5);
    return queued;
}

Result<std::vector<QueuedCommand>> readQueuedCommands(Statement &select)
{
    std::vector<QueuedCommand> list;
    while (true) {
        const Result<bool> row = select.step();
        if (!row)
            return fail(row.error());
        if (!*row)
            return list;
        Result<QueuedCommand> queued = readQueuedCommand(select);
        if (!queued)
            return fail(queued.error());
        list.push_back(std::move(*queued));
    }
}

} // namespace

nlohmann::json commandJson(const Command &command)
{
    nlohmann::json json { { "verb", verbName(command.verb) }, { "actor", command.actor },
        { "reason", command.reason } };
    if (command.overrideRejection)
        json["overrideRejection"] = true;
    if (command.acceptInconclusive)
        json["acceptInconclusive"] = true;
    if (command.force)
        json["force"] = true;
    if (command.gate)
        json["gate"] = gateName(*command.gate);
    if (command.stopAction)
        json["stopAction"] = stopActionName(*command.stopAction);
    return json;
}

std::optional<Command> commandFromJson(const nlohmann::json &json)
{
    if (!json.is_object() || !json.contains("verb") || !json["verb"].is_string())
        return std::nullopt;
    const std::optional<Verb> verb = verbFromName(json["verb"].get<std::string>());
    if (!verb)
        return std::nullopt;
    Command command { *verb };
    try {
        command.actor = json.value("actor", std::string());
        command.reason = json.value("reason", std::string());
        command.overrideRejection = json.value("overrideRejection", false);
        command.acceptInconclusive = json.value("acceptInconclusive", false);
        command.force = json.value("force", false);
        if (json.contains("gate")) {
            command.gate = gateFromName(json["gate"].get<std::string>());
            if (!command.gate)
                return std::nullopt;
        }
        if (json.contains("stopAction"))
            command.stopAction
                = json["stopAction"].get<std::string>() == stopActionName(StopAction::Rollback)
                ? StopAction::Rollback
                : StopAction::Pause;
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
    return command;
}

Result<int64_t> ControllerInbox::enqueue(
    const std::string &rollout, const Command &command, int64_t at)
{
    Result<Transaction> transaction = beginInboxWrite(m_state);
    if (!transaction)
        return fail(transaction.error());
    Result<Statement> insert = m_state.database().prepare(
        "INSERT INTO rollout_commands (rollout, command_json, created_at) VALUES (?1, ?2, ?3)");
    if (!insert)
        return fail(insert.error());
    const std::string json = common::compactJson(commandJson(command));
    insert->bind(1, rollout);
    insert->bind(2, json);
    insert->bind(3, at);
    if (Result<void> done = insert->exec(); !done)
        return fail(done.error());
    const int64_t seq = m_state.database().lastInsertRowid();
    if (Result<void> committed = transaction->commit(); !committed)
        return fail(committed.error());
    return seq;
}

Result<std::optional<QueuedCommand>> ControllerInbox::takeNext(
    const std::string &rollout, int64_t at)
{
    // The immediate transaction holds SQLite's write lock from the read on, so two handles can
    // never both see the same command unconsumed.
    Result<Transaction> transaction = beginInboxWrite(m_state);
    if (!transaction)
        return fail(transaction.error());
    Result<Statement> select = m_state.database().prepare("SELECT " + std::string(kCommandColumns)
        + " FROM rollout_commands WHERE rollout = ?1 AND consumed_at IS NULL ORDER BY seq LIMIT 1");
    if (!select)
        return fail(select.error());
    select->bind(1, rollout);
    Result<std::vector<QueuedCommand>> found = readQueuedCommands(*select);
    if (!found)
        return fail(found.error());
    if (found->empty())
        return std::optional<QueuedCommand>();
    QueuedCommand next = std::move(found->front());
    Result<Statement> mark
        = m_state.database().prepare("UPDATE rollout_commands SET consumed_at = ?2 WHERE seq = ?1");
    if (!mark)
        return fail(mark.error());
    mark->bind(1, next.seq);
    mark->bind(2, at);
    if (Result<void> done = mark->exec(); !done)
        return fail(done.error());
    if (Result<void> committed = transaction->commit(); !committed)
        return fail(committed.error());
    next.consumedAt = at;
    return std::optional<QueuedCommand>(std::move(next));
}

Result<void> ControllerInbox::setResult(int64_t seq, const std::string &result)
{
    Result<Statement> update
        = prepareInboxChange(m_state, "UPDATE rollout_commands SET result = ?2 WHERE seq = ?1");
    if (!update)
        return fail(update.error());
    update->bind(1, seq);
    update->bind(2, result);
    return update->exec();
}

Result<std::optional<QueuedCommand>> ControllerInbox::command(int64_t seq)
{
    Result<Statement> select = m_state.database().prepare(
        "SELECT " + std::string(kCommandColumns) + " FROM rollout_commands WHERE seq = ?1");
    if (!select)
        return fail(select.error());
    select->bind(1, seq);
    Result<std::vector<QueuedCommand>> found = readQueuedCommands(*select);
    if (!found)
        return fail(found.error());
    if (found->empty())
        return std::optional<QueuedCommand>();
    return std::optional<QueuedCommand>(std::move(found->front()));
}

Result<std::vector<QueuedCommand>> ControllerInbox::pending(const std::string &rollout)
{
    Result<Statement> select = m_state.database().prepare("SELECT " + std::string(kCommandColumns)
        + " FROM rollout_commands WHERE rollout = ?1 AND consumed_at IS NULL ORDER BY seq");
    if (!select)
        return fail(select.error());
    select->bind(1, rollout);
    return readQueuedCommands(*select);
}

Result<void> ControllerInbox::heartbeat(const std::string &rollout, const std::string &owner,
    int64_t pid, int64_t startedAt, int64_t at)
{
    Result<Statement> upsert = prepareInboxChange(m_state,
        "INSERT INTO rollout_controllers (rollout, owner, pid, started_at, heartbeat_at) VALUES "
        "(?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT (rollout) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, "
        "started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at");
    if (!upsert)
        return fail(upsert.error());
    upsert->bind(1, rollout);
    upsert->bind(2, owner);
    upsert->bind(3, pid);
    upsert->bind(4, startedAt);
    upsert->bind(5, at);
    return upsert->exec();
}

Result<void> ControllerInbox::release(const std::string &rollout, int64_t pid)
{
    Result<Statement> remove = prepareInboxChange(
        m_state, "DELETE FROM rollout_controllers WHERE rollout = ?1 AND pid = ?2");
    if (!remove)
        return fail(remove.error());
    remove->bind(1, rollout);
    remove->bind(2, pid);
    return remove->exec();
}

Result<std::optional<ControllerLease>> ControllerInbox::lease(const std::string &rollout)
{
    Result<std::optional<Statement>> select = selectRolloutRow(m_state,
        "SELECT owner, pid, started_at, heartbeat_at FROM rollout_controllers WHERE rollout = ?1",
        rollout);
    if (!select)
        return fail(select.error());
    if (!*select)
        return std::optional<ControllerLease>();
    Statement &stored = **select;
    return std::optional<ControllerLease>(ControllerLease {
        stored.columnString(0), stored.columnInt(1), stored.columnInt(2), stored.columnInt(3) });
}

Result<void> ControllerInbox::saveObservation(
    const std::string &rollout, const StageObservation &observed, int64_t at)
{
    Result<Statement> upsert = prepareInboxChange(m_state,
        "INSERT INTO rollout_observations (rollout, observation_json, updated_at) VALUES (?1, ?2, "
        "?3) "
        "ON CONFLICT (rollout) DO UPDATE SET observation_json = excluded.observation_json, "
        "updated_at = excluded.updated_at");
    if (!upsert)
        return fail(upsert.error());
    const StopObservation &o = observed.observation;
    const std::string json = common::compactJson({ { "stage", stageName(observed.stage) },
        { "step", observed.step }, { "pendingSince", o.pendingSince },
        { "readinessFailuresInARow", o.readinessFailuresInARow },
        { "claimsRemainingSince", o.claimsRemainingSince } });
    upsert->bind(1, rollout);
    upsert->bind(2, json);
    upsert->bind(3, at);
    return upsert->exec();
}

Result<std::optional<StageObservation>> ControllerInbox::observation(const std::string &rollout)
{
    Result<std::optional<Statement>> select = selectRolloutRow(
        m_state, "SELECT observation_json FROM rollout_observations WHERE rollout = ?1", rollout);
    if (!select)
        return fail(select.error());
    if (!*select)
        return std::optional<StageObservation>();
    Statement &stored = **select;
    Result<nlohmann::json> json
        = common::parseJson(stored.columnText(0), QStringLiteral("rollout observation"));
    if (!json)
        return fail(json.error());
    StageObservation observed;
    try {
        const std::optional<Stage> stage = stageFromName(json->value("stage", std::string()));
        if (!stage)
            return std::optional<StageObservation>();
        observed.stage = *stage;
        observed.step = json->value("step", -1);
        observed.observation.pendingSince = json->value("pendingSince", int64_t(0));
        observed.observation.readinessFailuresInARow = json->value("readinessFailuresInARow", 0);
        observed.observation.claimsRemainingSince = json->value("claimsRemainingSince", int64_t(0));
    } catch (const nlohmann::json::exception &) {
        return std::optional<StageObservation>(); // unreadable: start counting afresh
    }
    return std::optional<StageObservation>(observed);
}

Result<void> ControllerInbox::saveProgress(
    const std::string &rollout, const MutationProgress &progress, int64_t at)
{
    Result<Statement> upsert = prepareInboxChange(m_state,
        "INSERT INTO rollout_progress (rollout, verb, mutations_json, next_index, updated_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (rollout) DO UPDATE SET verb = excluded.verb, "
        "mutations_json = excluded.mutations_json, next_index = excluded.next_index, updated_at = "
        "excluded.updated_at");
    if (!upsert)
        return fail(upsert.error());
    const std::string json = common::compactJson(mutationsJson(progress.mutations));
    upsert->bind(1, rollout);
    upsert->bind(2, verbName(progress.verb));
    upsert->bind(3, json);
    upsert->bind(4, int64_t(progress.next));
    upsert->bind(5, at);
    return upsert->exec();
}

Result<std::optional<MutationProgress>> ControllerInbox::progress(const std::string &rollout)
{
    Result<std::optional<Statement>> select = selectRolloutRow(m_state,
        "SELECT verb, mutations_json, next_index FROM rollout_progress WHERE rollout = ?1",
        rollout);
    if (!select)
        return fail(select.error());
    if (!*select)
        return std::optional<MutationProgress>();
    Statement &stored = **select;
    MutationProgress progress;
    progress.verb = verbFromName(stored.columnString(0)).value_or(Verb::Start);
    Result<nlohmann::json> json
        = common::parseJson(stored.columnText(1), QStringLiteral("rollout progress"));
    if (!json)
        return fail(json.error());
    for (const nlohmann::json &item : *json) {
        std::optional<Mutation> m = mutationFromJson(item);
        if (!m)
            return fail(Error::Code::Parse,
                QStringLiteral("rollout %1: a stored mutation is not readable")
                    .arg(common::qs(rollout)));
        progress.mutations.push_back(std::move(*m));
    }
    progress.next = size_t(std::max<int64_t>(0, stored.columnInt(2)));
    return std::optional<MutationProgress>(std::move(progress));
}

std::optional<QueuedCommand> answeredCommand(const QString &statePath, int64_t seq)
{
    Result<store::StateDb> db = store::StateDb::open(statePath, store::OpenMode::ReadOnly);
    if (!db)
        return std::nullopt;
    Result<std::optional<QueuedCommand>> command = ControllerInbox(*db).command(seq);
    if (!command || !*command || !(*command)->consumedAt || (*command)->result.empty())
        return std::nullopt;
    return **command;
}

} // namespace dra::rollout
