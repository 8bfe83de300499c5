// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CacheDb's change-log side: history queries, stream states, and the retention policy.
#include "core/store/cache_db.h"

#include <QFileInfo>

#include "core/store/batch_writer.h"
#include "core/store/cache_db_p.h"

namespace dra::store {

namespace {

using sqlite::Statement;
using sqlite::StatementScope;

constexpr std::string_view kChangeColumns
    = "rev, cluster, grp, kind, ns, name, type, resource_version, at, json";

LoggedChange readChange(const Statement &row)
{
    return LoggedChange { row.columnInt(0), row.columnString(1),
        { row.columnString(2), row.columnString(3), row.columnString(4), row.columnString(5) },
        changeTypeFromName(row.columnText(6)), row.columnString(7), row.columnInt(8),
        row.columnString(9) };
}

template <typename T, typename Read>
Result<std::vector<T>> collectRows(Statement &statement, Read read)
{
    StatementScope scope(statement);
    std::vector<T> rows;
    while (true) {
        const Result<bool> row = statement.step();
        if (!row)
            return fail(row.error());
        if (!*row)
            return rows;
        rows.push_back(read(statement));
    }
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
