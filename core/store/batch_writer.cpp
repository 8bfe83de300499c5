// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/batch_writer.h"

#include <functional>
#include <unordered_set>
#include <utility>

#include "core/common/json_text.h"

namespace dra::store {

namespace {

using common::Error;
using sqlite::Statement;
using sqlite::StatementScope;

void bindKey(Statement &statement, std::string_view cluster, const common::ObjectKey &key)
{
    statement.bind(1, cluster);
    statement.bind(2, key.group);
    statement.bind(3, key.kind);
    statement.bind(4, key.ns);
    statement.bind(5, key.name);
}

struct NsNameHash
{
    size_t operator()(const std::pair<std::string_view, std::string_view> &key) const noexcept
    {
        const std::hash<std::string_view> h;
        return h(key.first) * 31 + h(key.second);
    }
};

// Applies one batch inside the caller's transaction.
class BatchWriter
{
public:
    BatchWriter(sqlite::Database &db, WriterStatements &s, const model::WatchBatch &batch,
        int64_t now, std::vector<Applied> *applied)
        : m_db(db)
        , m_s(s)
        , m_batch(batch)
        , m_now(now)
        , m_applied(applied)
    {
    }

    Result<model::BatchSummary> run()
    {
        m_s.touchCluster.bind(1, m_batch.cluster);
        m_s.touchCluster.bind(2, m_now);
        if (Result<void> touched = m_s.touchCluster.exec(); !touched)
            return fail(touched.error());
        if (!m_batch.archiveHistoryAs.empty()) {
            if (Result<void> archived = startAfresh(); !archived)
                return fail(archived.error());
        }
        for (size_t i = 0; i < m_batch.changes.size(); ++i) {
            const model::Change &change = m_batch.changes[i];
            const Result<void> done = change.type == model::ChangeType::Deleted
                ? remove(change.object, int(i))
                : write(change.object, int(i));
            if (!done) {
                return fail(
                    done.error().withContext(QStringLiteral("cannot store %1 of cluster %2")
                                                 .arg(common::qs(change.object.key.display()),
                                                     common::qs(m_batch.cluster))));
            }
        }
        for (const auto &[group, kind] : m_batch.replaceKinds) {
            if (Result<void> replaced = removeUnmentioned(group, kind, nullptr); !replaced)
                return fail(replaced.error());
        }
        for (const auto &[group, kind, ns] : m_batch.replaceNamespaces) {
            if (Result<void> replaced = removeUnmentioned(group, kind, &ns); !replaced)
                return fail(replaced.error());
        }
        for (const model::StreamRecord &stream : m_batch.streams) {
            if (Result<void> stored = writeStream(stream); !stored)
                return fail(stored.error());
        }
        if (!m_batch.server.empty() || !m_batch.serverVersion.empty() || !m_batch.clusterUid.empty()
            || m_batch.bookmarkGapMs > 0) {
            Statement &update = m_s.setClusterServer;
            update.bind(1, m_batch.cluster);
            update.bind(2, m_batch.server);
            update.bind(3, m_batch.serverVersion);
            update.bind(4, m_batch.clusterUid);
            update.bind(5, m_batch.bookmarkGapMs);
            if (Result<void> stored = update.exec(); !stored)
                return fail(stored.error());
        }
        for (const auto &[group, kind, version] : m_batch.listVersions) {
            Statement &upsert = m_s.upsertListVersion;
            upsert.bind(1, m_batch.cluster);
            upsert.bind(2, group);
            upsert.bind(3, kind);
            upsert.bind(4, version);
            upsert.bind(5, m_now);
            if (Result<void> stored = upsert.exec(); !stored)
                return fail(stored.error());
        }
        return m_summary;
    }

private:
    Result<int64_t> logChange(const common::ObjectKey &key, model::ChangeType type,
        std::string_view resourceVersion, std::string_view json)
    {
        Statement &insert = m_s.insertChange;
        bindKey(insert, m_batch.cluster, key);
        insert.bind(6, changeTypeName(type));
        insert.bind(7, resourceVersion);
        insert.bind(8, m_now);
        insert.bind(9, json);
        if (Result<void> logged = insert.exec(); !logged)
            return fail(logged.error());
        const int64_t rev = m_db.lastInsertRowid();
        if (m_summary.firstRev == 0)
            m_summary.firstRev = rev;
        m_summary.lastRev = rev;
        switch (type) {
        case model::ChangeType::Added:
            ++m_summary.added;
            break;
        case model::ChangeType::Modified:
            ++m_summary.modified;
            break;
        case model::ChangeType::Deleted:
            ++m_summary.deleted;
            break;
        }
        return rev;
    }

    // Drops the device rows of the slice at `key`. Foreign keys are off (see CacheDb::open), so
    // every path that rewrites or removes a stored object calls this rather than the cascade.
    Result<void> clearDevices(const common::ObjectKey &key)
    {
        bindKey(m_s.deleteDevices, m_batch.cluster, key);
        return m_s.deleteDevices.exec();
    }

    Result<void> write(const model::ObjectRecord &record, int changeIndex)
    {
        Statement &select = m_s.selectObject;
        bool exists = false;
        {
            StatementScope scope(select);
            bindKey(select, m_batch.cluster, record.key);
            const Result<bool> row = select.step();
            if (!row)
                return fail(row.error());
            exists = *row;
            // Byte-identical means nothing changed: a re-import or a resent watch event.
            if (exists && select.columnText(5) == record.json) {
                ++m_summary.unchanged;
                return {};
            }
        }
        const model::ChangeType type
            = exists ? model::ChangeType::Modified : model::ChangeType::Added;
        const Result<int64_t> rev
            = logChange(record.key, type, record.resourceVersion, record.json);
        if (!rev)
            return fail(rev.error());

        Statement &upsert = m_s.upsertObject;
        bindKey(upsert, m_batch.cluster, record.key);
        upsert.bind(6, record.apiVersion);
        upsert.bind(7, record.uid);
        upsert.bind(8, record.resourceVersion);
        upsert.bind(9, record.generation);
        upsert.bind(10, record.creationTimestamp);
        upsert.bind(11, record.json);
        upsert.bind(12, m_now);
        upsert.bind(13, *rev);
        if (Result<void> stored = upsert.exec(); !stored)
            return stored;

        if (exists) {
            if (Result<void> cleared = clearDevices(record.key); !cleared)
                return cleared;
        }
        Statement &device = m_s.insertDevice;
        for (const model::DeviceRow &row : record.devices) {
            bindKey(device, m_batch.cluster, record.key);
            device.bind(6, row.name);
            device.bind(7, row.driver);
            device.bind(8, row.pool);
            device.bind(9, row.node);
            device.bind(10, row.attributesJson);
            device.bind(11, row.capacityJson);
            if (Result<void> stored = device.exec(); !stored)
                return stored;
        }
        if (m_applied)
            m_applied->push_back(Applied { type, *rev, changeIndex, {} });
        return {};
    }

    // Logs the deletion with the last known state and drops the row and its devices.
    Result<void> deleteStored(const model::ObjectRecord &last, std::string_view resourceVersion,
        std::string_view json, int changeIndex, bool keepStored)
    {
        const Result<int64_t> rev
            = logChange(last.key, model::ChangeType::Deleted, resourceVersion, json);
        if (!rev)
            return fail(rev.error());
        if (Result<void> cleared = clearDevices(last.key); !cleared)
            return cleared;
        bindKey(m_s.deleteObject, m_batch.cluster, last.key);
        if (Result<void> deleted = m_s.deleteObject.exec(); !deleted)
            return deleted;
        if (m_applied)
            m_applied->push_back(Applied { model::ChangeType::Deleted, *rev, changeIndex,
                keepStored ? last : model::ObjectRecord {} });
        return {};
    }

    Result<void> remove(const model::ObjectRecord &record, int changeIndex)
    {
        Statement &select = m_s.selectObject;
        model::ObjectRecord last;
        {
            StatementScope scope(select);
            bindKey(select, m_batch.cluster, record.key);
            const Result<bool> row = select.step();
            if (!row)
                return fail(row.error());
            if (!*row) {
                ++m_summary.unchanged; // already gone: a replayed or late deletion
                return {};
            }
            last = storedRecord(select, 0, record.key);
        }
        // The watch event's final state is newer than ours when it carries one.
        const bool eventHasState = !record.json.empty();
        return deleteStored(last, eventHasState ? record.resourceVersion : last.resourceVersion,
            eventHasState ? record.json : last.json, eventHasState ? changeIndex : -1,
            !eventHasState);
    }

    // Records a stream's state; `since` moves only when the state itself changes.
    Result<void> writeStream(const model::StreamRecord &stream)
    {
        Statement &upsert = m_s.upsertStream;
        upsert.bind(1, m_batch.cluster);
        upsert.bind(2, stream.group);
        upsert.bind(3, stream.kind);
        upsert.bind(4, stream.ns);
        upsert.bind(5, stream.state);
        upsert.bind(6, stream.reason);
        upsert.bind(7, m_now);
        upsert.bind(8, stream.apiVersion);
        upsert.bind(9, stream.resourceVersion);
        return upsert.exec();
    }

    // The cluster name reaches another cluster: its change log so far goes under the archive
    // name, and everything stored of it goes, each object's deletion logged under the cluster
    // (so whoever follows the log drops it too) and after the archived rows (so the archive is
    // the old cluster's log alone).
    Result<void> startAfresh()
    {
        const std::string &cluster = m_batch.cluster;
        Result<Statement> relabel
            = m_db.prepare("UPDATE changes SET cluster = ?2 WHERE cluster = ?1");
        if (!relabel)
            return fail(relabel.error());
        relabel->bind(1, cluster);
        relabel->bind(2, m_batch.archiveHistoryAs);
        if (Result<void> done = relabel->exec(); !done)
            return done;
        std::vector<model::ObjectRecord> stored;
        {
            Result<Statement> select = m_db.prepare("SELECT grp, kind, ns, name, "
                + std::string(kObjectColumns) + " FROM objects WHERE cluster = ?1");
            if (!select)
                return fail(select.error());
            select->bind(1, cluster);
            while (true) {
                const Result<bool> row = select->step();
                if (!row)
                    return fail(row.error());
                if (!*row)
                    break;
                stored.push_back(storedRecord(*select, 4,
                    { select->columnString(0), select->columnString(1), select->columnString(2),
                        select->columnString(3) }));
            }
        }
        for (const model::ObjectRecord &last : stored) {
            if (Result<void> removed
                = deleteStored(last, last.resourceVersion, last.json, -1, true);
                !removed)
                return removed;
        }
        for (const char *sql : { "DELETE FROM streams WHERE cluster = ?1",
                 "DELETE FROM list_versions WHERE cluster = ?1",
                 "UPDATE clusters SET uid = '', bookmark_gap_ms = 0 WHERE name = ?1" }) {
            Result<Statement> clear = m_db.prepare(sql);
            if (!clear)
                return fail(clear.error());
            clear->bind(1, cluster);
            if (Result<void> done = clear->exec(); !done)
                return done;
        }
        return {};
    }

    // Deletes stored objects of (group, kind) — in namespace `*ns` only, when given — that the
    // batch does not mention, logging each deletion.
    Result<void> removeUnmentioned(
        const std::string &group, const std::string &kind, const std::string *ns)
    {
        std::unordered_set<std::pair<std::string_view, std::string_view>, NsNameHash> mentioned;
        for (const model::Change &change : m_batch.changes) {
            const common::ObjectKey &key = change.object.key;
            if (change.type != model::ChangeType::Deleted && key.group == group && key.kind == kind)
                mentioned.emplace(key.ns, key.name);
        }
        std::vector<model::ObjectRecord> stale;
        {
            Statement &select = ns ? m_s.selectKindInNamespace : m_s.selectKind;
            StatementScope scope(select);
            select.bind(1, m_batch.cluster);
            select.bind(2, group);
            select.bind(3, kind);
            if (ns)
                select.bind(4, *ns);
            while (true) {
                const Result<bool> row = select.step();
                if (!row)
                    return fail(row.error());
                if (!*row)
                    break;
                if (!mentioned.contains({ select.columnText(0), select.columnText(1) }))
                    stale.push_back(storedRecord(select, 2,
                        { group, kind, select.columnString(0), select.columnString(1) }));
            }
        }
        for (const model::ObjectRecord &last : stale) {
            if (Result<void> removed
                = deleteStored(last, last.resourceVersion, last.json, -1, true);
                !removed)
                return removed;
        }
        return {};
    }

    sqlite::Database &m_db;
    WriterStatements &m_s;
    const model::WatchBatch &m_batch;
    const int64_t m_now;
    std::vector<Applied> *m_applied;
    model::BatchSummary m_summary;
};

} // namespace

model::ObjectRecord storedRecord(const Statement &row, int first, common::ObjectKey key)
{
    model::ObjectRecord record;
    record.key = std::move(key);
    record.apiVersion = row.columnString(first);
    record.uid = row.columnString(first + 1);
    record.resourceVersion = row.columnString(first + 2);
    record.generation = row.columnInt(first + 3);
    record.creationTimestamp = row.columnString(first + 4);
    record.json = row.columnString(first + 5);
    record.rev = row.columnInt(first + 6);
    return record;
}

Result<std::unique_ptr<WriterStatements>> prepareWriterStatements(sqlite::Database &db)
{
    auto s = std::make_unique<WriterStatements>();
    const std::string objectColumns(kObjectColumns);
    const std::pair<Statement *, std::string> statements[] = {
        { &s->selectObject,
            "SELECT " + objectColumns
                + " FROM objects WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND "
                  "name = ?5" },
        { &s->upsertObject,
            "INSERT INTO objects (cluster, grp, kind, ns, name, api_version, uid, "
            "resource_version, "
            "generation, created, json, updated_at, rev) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) "
            "ON CONFLICT (cluster, grp, kind, ns, name) DO UPDATE SET api_version = "
            "excluded.api_version, "
            "uid = excluded.uid, resource_version = excluded.resource_version, generation = "
            "excluded.generation, "
            "created = excluded.created, json = excluded.json, updated_at = excluded.updated_at, "
            "rev = excluded.rev" },
        { &s->deleteObject,
            "DELETE FROM objects WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND "
            "name = ?5" },
        { &s->deleteDevices,
            "DELETE FROM devices WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4 AND "
            "slice = ?5" },
        // REPLACE: a slice listing one device name twice is the server's mistake; keep the last.
        { &s->insertDevice,
            "INSERT OR REPLACE INTO devices (cluster, grp, kind, ns, slice, name, driver, pool, "
            "node, "
            "attributes, capacity) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)" },
        { &s->insertChange,
            "INSERT INTO changes (cluster, grp, kind, ns, name, type, resource_version, at, json) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)" },
        { &s->selectKind,
            "SELECT ns, name, " + objectColumns
                + " FROM objects WHERE cluster = ?1 AND grp = ?2 AND kind = ?3" },
        { &s->upsertListVersion,
            "INSERT INTO list_versions (cluster, grp, kind, resource_version, updated_at) VALUES "
            "(?1, ?2, ?3, ?4, ?5) "
            "ON CONFLICT (cluster, grp, kind) DO UPDATE SET resource_version = "
            "excluded.resource_version, "
            "updated_at = excluded.updated_at" },
        { &s->touchCluster,
            "INSERT INTO clusters (name, last_sync) VALUES (?1, ?2) "
            "ON CONFLICT (name) DO UPDATE SET last_sync = excluded.last_sync" },
        { &s->selectKindInNamespace,
            "SELECT ns, name, " + objectColumns
                + " FROM objects WHERE cluster = ?1 AND grp = ?2 AND kind = ?3 AND ns = ?4" },
        { &s->upsertStream,
            "INSERT INTO streams (cluster, grp, kind, ns, state, reason, updated_at, since, "
            "api_version, resource_version) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9) "
            "ON CONFLICT (cluster, grp, kind, ns) DO UPDATE SET "
            "since = CASE WHEN streams.state = excluded.state THEN streams.since ELSE "
            "excluded.since END, "
            "state = excluded.state, reason = excluded.reason, updated_at = excluded.updated_at, "
            "api_version = excluded.api_version, resource_version = excluded.resource_version" },
        { &s->setClusterServer,
            "UPDATE clusters SET server = CASE WHEN ?2 <> '' THEN ?2 ELSE server END, "
            "version = CASE WHEN ?3 <> '' THEN ?3 ELSE version END, "
            "uid = CASE WHEN ?4 <> '' THEN ?4 ELSE uid END, "
            "bookmark_gap_ms = CASE WHEN ?5 > 0 THEN ?5 ELSE bookmark_gap_ms END WHERE name = ?1" },
    };
    for (const auto &[statement, sql] : statements) {
        Result<Statement> prepared = db.prepare(sql);
        if (!prepared)
            return fail(prepared.error());
        *statement = std::move(*prepared);
    }
    return s;
}

Result<model::BatchSummary> writeBatch(sqlite::Database &db, WriterStatements &statements,
    const model::WatchBatch &batch, int64_t now, std::vector<Applied> *applied)
{
    return BatchWriter(db, statements, batch, now, applied).run();
}

std::string_view changeTypeName(model::ChangeType type)
{
    switch (type) {
    case model::ChangeType::Added:
        return "added";
    case model::ChangeType::Modified:
        return "modified";
    case model::ChangeType::Deleted:
        return "deleted";
    }
    return "modified";
}

model::ChangeType changeTypeFromName(std::string_view name)
{
    if (name == "added")
        return model::ChangeType::Added;
    if (name == "deleted")
        return model::ChangeType::Deleted;
    return model::ChangeType::Modified;
}

} // namespace dra::store
