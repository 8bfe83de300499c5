// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The reading half of CacheDb: every query is one statement, so it sees one committed state.
#include "core/store/cache_db.h"

#include "core/model/kind.h"
#include "core/store/cache_db_p.h"

namespace dra::store {

namespace {

using sqlite::collectRows;
using sqlite::Statement;
using sqlite::StatementScope;

// The one row of a query by primary key, or nothing when there is none.
template <typename T> Result<std::optional<T>> firstRow(Result<std::vector<T>> rows)
{
    if (!rows)
        return fail(rows.error());
    if (rows->empty())
        return std::optional<T>();
    return std::optional<T>(std::move(rows->front()));
}

// Columns: ns, name, then kObjectColumns.
std::string objectSelect()
{
    return "SELECT ns, name, " + std::string(kObjectColumns) + " FROM objects ";
}

model::ObjectRecord readObject(const Statement &row, std::string_view group, std::string_view kind)
{
    return storedRecord(row, 2,
        { std::string(group), std::string(kind), row.columnString(0), row.columnString(1) });
}

} // namespace

Result<sqlite::Transaction> CacheDb::beginRead()
{
    if (!d)
        return fail(cacheNotOpen());
    Result<sqlite::Transaction> transaction
        = sqlite::Transaction::begin(d->file.db, sqlite::Transaction::Kind::Deferred);
    if (!transaction)
        return transaction;
    // A deferred transaction takes its snapshot at the first read, so read now: later commits
    // by the writer stay invisible until the transaction ends.
    if (Result<int64_t> pinned = d->file.db.queryInt("SELECT count(*) FROM clusters"); !pinned)
        return fail(pinned.error());
    return transaction;
}

Result<std::vector<model::ObjectRecord>> CacheDb::objects(std::string_view cluster,
    std::string_view group, std::string_view kind, std::optional<std::string_view> ns)
{
    if (!d)
        return fail(cacheNotOpen());
    std::string sql = objectSelect();
    sql += ns ? "WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 ORDER BY name"
              : "WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 ORDER BY ns, name";
    Result<Statement> select = d->file.db.prepare(sql);
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    select->bind(2, group);
    select->bind(3, kind);
    if (ns)
        select->bind(4, *ns);
    return collectRows<model::ObjectRecord>(
        *select, [&](const Statement &row) { return readObject(row, group, kind); });
}

Result<std::optional<model::ObjectRecord>> CacheDb::object(
    std::string_view cluster, const common::ObjectKey &key)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select = d->file.db.prepare(
        objectSelect() + "WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND name = ?5");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    select->bind(2, key.group);
    select->bind(3, key.kind);
    select->bind(4, key.ns);
    select->bind(5, key.name);
    return firstRow(collectRows<model::ObjectRecord>(
        *select, [&](const Statement &row) { return readObject(row, key.group, key.kind); }));
}

Result<std::vector<SliceDevice>> CacheDb::devices(
    std::string_view cluster, std::optional<std::string_view> node)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select = d->file.db.prepare(node
            ? "SELECT slice, name, driver, pool, node, attributes, capacity FROM devices "
              "WHERE cluster = ?1 AND node = ?2 ORDER BY slice, name"
            : "SELECT slice, name, driver, pool, node, attributes, capacity FROM devices "
              "WHERE cluster = ?1 ORDER BY slice, name");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    if (node)
        select->bind(2, *node);
    return collectRows<SliceDevice>(*select, [](const Statement &row) {
        return SliceDevice { row.columnString(0),
            model::DeviceRow { row.columnString(1), row.columnString(2), row.columnString(3),
                row.columnString(4), row.columnString(5), row.columnString(6) } };
    });
}

Result<void> CacheDb::forEachSlice(std::string_view cluster, std::string_view from,
    std::string_view to, const std::function<void(model::ObjectRecord &)> &visit)
{
    if (!d)
        return fail(cacheNotOpen());
    // Separate texts with and without an upper bound: an OR in the bound would keep SQLite from
    // ending the index range there.
    const std::string upper = to.empty() ? std::string() : std::string(" AND name < ?5");
    Result<Statement> slices = d->file.db.prepare(objectSelect()
        + "WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = '' AND name >= ?4" + upper
        + " ORDER BY name");
    if (!slices)
        return fail(slices.error());
    const std::string sliceUpper = to.empty() ? std::string() : std::string(" AND slice < ?5");
    Result<Statement> devices = d->file.db.prepare(
        "SELECT slice, name, driver, pool, node, attributes, capacity FROM devices "
        "WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = '' AND slice >= ?4"
        + sliceUpper + " ORDER BY slice, name");
    if (!devices)
        return fail(devices.error());
    const std::string_view group = model::kResourceGroup;
    const std::string_view kind = model::kindInfo(model::Kind::ResourceSlice).name;
    for (Statement *statement : { &*slices, &*devices }) {
        statement->bind(1, cluster);
        statement->bind(2, group);
        statement->bind(3, kind);
        statement->bind(4, from);
        if (!to.empty())
            statement->bind(5, to);
    }
    StatementScope sliceScope(*slices), deviceScope(*devices);
    Result<bool> device = devices->step();
    model::ObjectRecord record;
    while (true) {
        const Result<bool> slice = slices->step();
        if (!slice)
            return fail(slice.error());
        if (!*slice)
            return {};
        record.key.group = group;
        record.key.kind = kind;
        record.key.ns.clear();
        record.key.name = slices->columnText(1);
        record.apiVersion = slices->columnText(2);
        record.uid = slices->columnText(3);
        record.resourceVersion = slices->columnText(4);
        record.generation = slices->columnInt(5);
        record.creationTimestamp = slices->columnText(6);
        record.json = slices->columnText(7);
        record.rev = slices->columnInt(8);
        size_t rows = 0;
        for (; device && *device; device = devices->step()) {
            const std::string_view owner = devices->columnText(0);
            if (owner > record.key.name)
                break;
            if (owner < record.key.name)
                continue; // rows of a slice the range does not hold (none in a sound cache)
            if (rows == record.devices.size())
                record.devices.emplace_back();
            model::DeviceRow &row = record.devices[rows++];
            row.name = devices->columnText(1);
            row.driver = devices->columnText(2);
            row.pool = devices->columnText(3);
            row.node = devices->columnText(4);
            row.attributesJson = devices->columnText(5);
            row.capacityJson = devices->columnText(6);
        }
        if (!device)
            return fail(device.error());
        record.devices.resize(rows);
        visit(record);
    }
}

Result<std::vector<std::string>> CacheDb::objectNames(
    std::string_view cluster, std::string_view group, std::string_view kind)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select
        = d->file.db.prepare("SELECT name FROM objects WHERE cluster = ?1 AND grp = ?2 AND kind = "
                             "?3 AND ns = '' ORDER BY name");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    select->bind(2, group);
    select->bind(3, kind);
    return collectRows<std::string>(
        *select, [](const Statement &row) { return row.columnString(0); });
}

Result<std::vector<ClusterInfo>> CacheDb::clusters()
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select
        = d->file.db.prepare("SELECT name, server, version, last_sync, uid, bookmark_gap_ms "
                             "FROM clusters ORDER BY name");
    if (!select)
        return fail(select.error());
    return collectRows<ClusterInfo>(*select, [](const Statement &row) {
        return ClusterInfo { row.columnString(0), row.columnString(1), row.columnString(2),
            row.columnInt(3), row.columnString(4), row.columnInt(5) };
    });
}

Result<std::optional<std::string>> CacheDb::listVersion(
    std::string_view cluster, std::string_view group, std::string_view kind)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select = d->file.db.prepare(
        "SELECT resource_version FROM list_versions WHERE cluster = ?1 AND grp = ?2 AND kind = ?3");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    select->bind(2, group);
    select->bind(3, kind);
    return firstRow(collectRows<std::string>(
        *select, [](const Statement &row) { return row.columnString(0); }));
}

Result<std::vector<LoggedChange>> CacheDb::changesSince(int64_t afterRev, int limit)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select = d->file.db.prepare(
        "SELECT rev, cluster, grp, kind, ns, name, type, resource_version, at, json FROM changes "
        "WHERE rev > ?1 ORDER BY rev LIMIT ?2");
    if (!select)
        return fail(select.error());
    select->bind(1, afterRev);
    select->bind(2, limit);
    return collectRows<LoggedChange>(*select, [](const Statement &row) {
        return LoggedChange { row.columnInt(0), row.columnString(1),
            { row.columnString(2), row.columnString(3), row.columnString(4), row.columnString(5) },
            changeTypeFromName(row.columnText(6)), row.columnString(7), row.columnInt(8),
            row.columnString(9) };
    });
}

Result<int64_t> CacheDb::currentRev()
{
    if (!d)
        return fail(cacheNotOpen());
    // sqlite_sequence remembers the highest rev even after the log is trimmed.
    return d->file.db.queryInt(
        "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)");
}

Result<std::vector<KindCount>> CacheDb::kindCounts(std::string_view cluster)
{
    if (!d)
        return fail(cacheNotOpen());
    Result<Statement> select
        = d->file.db.prepare("SELECT grp, kind, count(*) FROM objects WHERE cluster = ?1 GROUP BY "
                             "grp, kind ORDER BY grp, kind");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    return collectRows<KindCount>(*select, [](const Statement &row) {
        return KindCount { row.columnString(0), row.columnString(1), row.columnInt(2) };
    });
}

Result<int64_t> CacheDb::dataVersion()
{
    if (!d)
        return fail(cacheNotOpen());
    return d->file.db.queryInt("PRAGMA data_version");
}

Result<void> CacheDb::quickCheck()
{
    if (!d)
        return fail(cacheNotOpen());
    return store::quickCheck(d->file.db, schema());
}

} // namespace dra::store
