// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CacheDb's change-log side: history queries, stream states, and the retention policy.
#include "core/store/cache_db.h"

#include <map>
#include <tuple>

#include <QFileInfo>

#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/store/batch_writer.h"
#include "core/store/cache_db_p.h"

namespace dra::store {

namespace {

using sqlite::collectRows;
using sqlite::Statement;

constexpr std::string_view kChangeColumns
    = "rev, cluster, grp, kind, ns, name, type, resource_version, at, json";

LoggedChange readChange(const Statement &row)
{
    return LoggedChange { row.columnInt(0), row.columnString(1),
        { row.columnString(2), row.columnString(3), row.columnString(4), row.columnString(5) },
        changeTypeFromName(row.columnText(6)), row.columnString(7), row.columnInt(8),
        row.columnString(9) };
}

int64_t fileBytes(const QString &path)
{
    return QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size();
}

} // namespace

Result<std::vector<LoggedChange>> CacheDb::history(const HistoryQuery &query)
{
    if (!d)
        return fail(cacheNotOpen());
    std::string sql
        = "SELECT " + std::string(kChangeColumns) + " FROM changes WHERE rev > ?1 AND at >= ?2";
    if (!query.cluster.empty())
        sql += " AND cluster = ?3";
    if (!query.kind.empty())
        sql += " AND grp = ?4 AND kind = ?5";
    if (query.ns)
        sql += " AND ns = ?6";
    if (!query.name.empty())
        sql += " AND name = ?7";
    if (query.untilMs > 0)
        sql += " AND at <= ?8";
    sql += " ORDER BY rev LIMIT ?9";
    Result<Statement> select = d->file.db.prepare(sql);
    if (!select)
        return fail(select.error());
    select->bind(1, query.afterRev);
    select->bind(2, query.sinceMs);
    if (!query.cluster.empty())
        select->bind(3, query.cluster);
    if (!query.kind.empty()) {
        select->bind(4, query.group);
        select->bind(5, query.kind);
    }
    if (query.ns)
        select->bind(6, *query.ns);
    if (!query.name.empty())
        select->bind(7, query.name);
    if (query.untilMs > 0)
        select->bind(8, query.untilMs);
    select->bind(9, query.limit);
    return collectRows<LoggedChange>(*select, readChange);
}

Result<std::optional<LoggedChange>> CacheDb::changeAt(
    std::string_view cluster, const common::ObjectKey &key, int64_t atMs)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select = d->file.db.prepare("SELECT " + std::string(kChangeColumns)
        + " FROM changes WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND name = ?5 "
          "AND at <= ?6 "
          "ORDER BY rev DESC LIMIT 1");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    select->bind(2, key.group);
    select->bind(3, key.kind);
    select->bind(4, key.ns);
    select->bind(5, key.name);
    select->bind(6, atMs);
    Result<std::vector<LoggedChange>> rows = collectRows<LoggedChange>(*select, readChange);
    if (!rows)
        return fail(rows.error());
    if (rows->empty())
        return std::optional<LoggedChange>();
    return std::optional<LoggedChange>(std::move(rows->front()));
}

Result<std::vector<model::StreamRecord>> CacheDb::streams(std::string_view cluster)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select
        = d->file.db.prepare("SELECT grp, kind, ns, state, reason, api_version, resource_version, "
                             "since, updated_at FROM streams "
                             "WHERE cluster = ?1 ORDER BY grp, kind, ns");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    return collectRows<model::StreamRecord>(*select, [](const Statement &row) {
        return model::StreamRecord { row.columnString(0), row.columnString(1), row.columnString(2),
            row.columnString(3), row.columnString(4), row.columnString(5), row.columnString(6),
            row.columnInt(7), row.columnInt(8) };
    });
}

Result<std::pair<int64_t, int64_t>> CacheDb::oldestChange()
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select
        = d->file.db.prepare("SELECT at, rev FROM changes ORDER BY rev LIMIT 1");
    if (!select)
        return fail(select.error());
    Result<std::vector<std::pair<int64_t, int64_t>>> rows
        = collectRows<std::pair<int64_t, int64_t>>(*select, [](const Statement &row) {
              return std::pair { row.columnInt(0), row.columnInt(1) };
          });
    if (!rows)
        return fail(rows.error());
    return rows->empty() ? std::pair<int64_t, int64_t> { 0, 0 } : rows->front();
}

Result<void> CacheDb::rollBackTo(int64_t rev)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    sqlite::Database &db = d->file.db;
    Result<sqlite::Transaction> transaction
        = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
    if (!transaction)
        return fail(transaction.error());
    const Result<int64_t> oldest = db.queryInt("SELECT coalesce(min(rev), 0) FROM changes");
    if (!oldest)
        return fail(oldest.error());
    if (*oldest > 1)
        return fail(common::Error::Code::Invalid,
            QStringLiteral("%1: the change log was trimmed (it starts at revision %2), so the "
                           "state at revision %3 is not known")
                .arg(path())
                .arg(*oldest)
                .arg(rev));
    // Each object changed after `rev`, with its last logged state up to `rev` (none: it did not
    // exist then).
    using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
    std::map<Key, std::optional<LoggedChange>> touched;
    {
        Result<Statement> later = db.prepare(
            "SELECT DISTINCT cluster, grp, kind, ns, name FROM changes WHERE rev > ?1");
        if (!later)
            return fail(later.error());
        later->bind(1, rev);
        Result<std::vector<Key>> keys = collectRows<Key>(*later, [](const Statement &row) {
            return Key { row.columnString(0), row.columnString(1), row.columnString(2),
                row.columnString(3), row.columnString(4) };
        });
        if (!keys)
            return fail(keys.error());
        for (const Key &key : *keys) {
            Result<Statement> before = db.prepare("SELECT " + std::string(kChangeColumns)
                + " FROM changes WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND "
                  "name = ?5 AND rev <= ?6 ORDER BY rev DESC LIMIT 1");
            if (!before)
                return fail(before.error());
            before->bind(1, std::get<0>(key));
            before->bind(2, std::get<1>(key));
            before->bind(3, std::get<2>(key));
            before->bind(4, std::get<3>(key));
            before->bind(5, std::get<4>(key));
            before->bind(6, rev);
            Result<std::vector<LoggedChange>> last = collectRows<LoggedChange>(*before, readChange);
            if (!last)
                return fail(last.error());
            touched[key] = last->empty() || last->front().type == model::ChangeType::Deleted
                ? std::nullopt
                : std::optional<LoggedChange>(std::move(last->front()));
        }
    }
    for (const auto &[key, state] : touched) {
        for (const char *sql :
            { "DELETE FROM devices WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND "
              "slice = ?5",
                "DELETE FROM objects WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND "
                "name = ?5" }) {
            Result<Statement> remove = db.prepare(sql);
            if (!remove)
                return fail(remove.error());
            remove->bind(1, std::get<0>(key));
            remove->bind(2, std::get<1>(key));
            remove->bind(3, std::get<2>(key));
            remove->bind(4, std::get<3>(key));
            remove->bind(5, std::get<4>(key));
            if (Result<void> done = remove->exec(); !done)
                return done;
        }
        if (!state)
            continue;
        Result<nlohmann::json> json = common::parseJson(state->json, QStringLiteral("change log"));
        if (!json)
            return fail(json.error());
        Result<model::Object> object = model::decodeObject(std::move(*json));
        if (!object)
            return fail(object.error());
        const model::ObjectRecord record = model::toRecord(*object);
        Result<Statement> insert
            = db.prepare("INSERT INTO objects (cluster, grp, kind, ns, name, api_version, uid, "
                         "resource_version, generation, created, json, updated_at, rev) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
        if (!insert)
            return fail(insert.error());
        insert->bind(1, std::get<0>(key));
        insert->bind(2, std::get<1>(key));
        insert->bind(3, std::get<2>(key));
        insert->bind(4, std::get<3>(key));
        insert->bind(5, std::get<4>(key));
        insert->bind(6, record.apiVersion);
        insert->bind(7, record.uid);
        insert->bind(8, record.resourceVersion);
        insert->bind(9, record.generation);
        insert->bind(10, record.creationTimestamp);
        insert->bind(11, state->json);
        insert->bind(12, state->at);
        insert->bind(13, state->rev);
        if (Result<void> done = insert->exec(); !done)
            return done;
        for (const model::DeviceRow &row : record.devices) {
            Result<Statement> device = db.prepare(
                "INSERT OR REPLACE INTO devices (cluster, grp, kind, ns, slice, name, driver, "
                "pool, node, attributes, capacity) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
            if (!device)
                return fail(device.error());
            device->bind(1, std::get<0>(key));
            device->bind(2, std::get<1>(key));
            device->bind(3, std::get<2>(key));
            device->bind(4, std::get<3>(key));
            device->bind(5, std::get<4>(key));
            device->bind(6, row.name);
            device->bind(7, row.driver);
            device->bind(8, row.pool);
            device->bind(9, row.node);
            device->bind(10, row.attributesJson);
            device->bind(11, row.capacityJson);
            if (Result<void> done = device->exec(); !done)
                return done;
        }
    }
    // The later history is gone and its revisions are issued again, as resourceVersions are
    // after an etcd restore.
    for (const char *sql : { "DELETE FROM changes WHERE rev > ?1",
             "UPDATE sqlite_sequence SET seq = ?1 WHERE name = 'changes'" }) {
        Result<Statement> statement = db.prepare(sql);
        if (!statement)
            return fail(statement.error());
        statement->bind(1, rev);
        if (Result<void> done = statement->exec(); !done)
            return done;
    }
    return transaction->commit();
}

Result<RetentionSummary> CacheDb::applyRetention(const RetentionPolicy &policy, int64_t nowMs)
{
    if (Result<void> writable = requireWriter(); !writable)
        return fail(writable.error());
    sqlite::Database &db = d->file.db;
    RetentionSummary summary;
    summary.bytesBefore = fileBytes(path());
    {
        Result<sqlite::Transaction> transaction
            = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
        if (!transaction)
            return fail(transaction.error());
        const Result<int64_t> before = db.queryInt("SELECT count(*) FROM changes");
        if (!before)
            return fail(before.error());
        if (policy.maxAgeMs > 0) {
            Result<Statement> trim = db.prepare("DELETE FROM changes WHERE at < ?1");
            if (!trim)
                return fail(trim.error());
            trim->bind(1, nowMs - policy.maxAgeMs);
            if (Result<void> done = trim->exec(); !done)
                return fail(done.error());
        }
        if (policy.maxBytes > 0) {
            // The newest rows whose running total of JSON fits stay; the boundary is found in one
            // pass over the log, newest first.
            Result<Statement> trim = db.prepare("DELETE FROM changes WHERE rev <= coalesce((SELECT "
                                                "rev FROM (SELECT rev, sum(length(json) + 64) "
                                                "OVER (ORDER BY rev DESC) AS total FROM changes) "
                                                "WHERE total > ?1 ORDER BY rev DESC LIMIT 1), 0)");
            if (!trim)
                return fail(trim.error());
            trim->bind(1, policy.maxBytes);
            if (Result<void> done = trim->exec(); !done)
                return fail(done.error());
        }
        const Result<int64_t> after = db.queryInt("SELECT count(*) FROM changes");
        if (!after)
            return fail(after.error());
        summary.deletedChanges = *before - *after;
        summary.keptChanges = *after;
        if (Result<void> committed = transaction->commit(); !committed)
            return fail(committed.error());
    }
    if (policy.vacuum && summary.deletedChanges > 0) {
        // VACUUM rewrites the file through the WAL; the checkpoint gives the space back.
        if (Result<void> vacuumed = db.exec("VACUUM"); !vacuumed)
            return fail(vacuumed.error());
        if (Result<int64_t> checkpointed = db.queryInt("PRAGMA wal_checkpoint(TRUNCATE)");
            !checkpointed)
            return fail(checkpointed.error());
    }
    summary.bytesAfter = fileBytes(path());
    return summary;
}

} // namespace dra::store
