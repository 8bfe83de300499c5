// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/cache_db.h"

#include <array>
#include <utility>

#include <QDateTime>

#include "core/common/json_text.h"
#include "core/store/cache_db_p.h"

namespace dra::store {

namespace {

using common::Error;
using sqlite::Statement;

// Version 1. Timestamps are ms since the epoch (UTC). Device rows carry their slice's full key;
// the declared foreign key documents the link, but the writer drops a slice's devices itself
// (see open()).
constexpr std::string_view kCacheSchemaV1 = R"sql(
CREATE TABLE clusters (
    name TEXT PRIMARY KEY NOT NULL CHECK (name <> ''),
    server TEXT NOT NULL DEFAULT '',
    version TEXT NOT NULL DEFAULT '',
    last_sync INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE objects (
    cluster TEXT NOT NULL,
    grp TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind <> ''),
    ns TEXT NOT NULL,
    name TEXT NOT NULL CHECK (name <> ''),
    api_version TEXT NOT NULL,
    uid TEXT NOT NULL,
    resource_version TEXT NOT NULL,
    generation INTEGER NOT NULL,
    created TEXT NOT NULL,
    json TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    rev INTEGER NOT NULL,
    PRIMARY KEY (cluster, grp, kind, ns, name)
);
CREATE TABLE devices (
    cluster TEXT NOT NULL,
    grp TEXT NOT NULL,
    kind TEXT NOT NULL,
    ns TEXT NOT NULL,
    slice TEXT NOT NULL,
    name TEXT NOT NULL,
    driver TEXT NOT NULL,
    pool TEXT NOT NULL,
    node TEXT NOT NULL,
    attributes TEXT NOT NULL,
    capacity TEXT NOT NULL,
    PRIMARY KEY (cluster, grp, kind, ns, slice, name),
    FOREIGN KEY (cluster, grp, kind, ns, slice)
        REFERENCES objects (cluster, grp, kind, ns, name) ON DELETE CASCADE
);
CREATE INDEX devices_by_node ON devices (cluster, node);
CREATE INDEX devices_by_driver ON devices (cluster, driver);
CREATE INDEX devices_by_pool ON devices (cluster, pool);
CREATE TABLE list_versions (
    cluster TEXT NOT NULL,
    grp TEXT NOT NULL,
    kind TEXT NOT NULL,
    resource_version TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (cluster, grp, kind)
);
CREATE TABLE streams (
    cluster TEXT NOT NULL,
    grp TEXT NOT NULL,
    kind TEXT NOT NULL,
    ns TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (cluster, grp, kind, ns)
);
CREATE TABLE changes (
    rev INTEGER PRIMARY KEY AUTOINCREMENT,
    cluster TEXT NOT NULL,
    grp TEXT NOT NULL,
    kind TEXT NOT NULL,
    ns TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('added', 'modified', 'deleted')),
    resource_version TEXT NOT NULL,
    at INTEGER NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX changes_by_object ON changes (cluster, grp, kind, ns, name, rev);
)sql";

// Version 2: what a live mirror records per stream (the version it reads, where it got to and
// since when it is in its state), and an index for trimming the change log by age.
constexpr std::string_view kCacheSchemaV2 = R"sql(
ALTER TABLE streams ADD COLUMN since INTEGER NOT NULL DEFAULT 0;
ALTER TABLE streams ADD COLUMN api_version TEXT NOT NULL DEFAULT '';
ALTER TABLE streams ADD COLUMN resource_version TEXT NOT NULL DEFAULT '';
CREATE INDEX changes_by_time ON changes (at);
)sql";

// Version 3: which cluster a name reaches (its kube-system namespace's UID), so a context that
// now reaches another cluster is noticed, and how often its server was seen sending bookmarks,
// so a watch that stays silent much longer is known to be suspect.
constexpr std::string_view kCacheSchemaV3 = R"sql(
ALTER TABLE clusters ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE clusters ADD COLUMN bookmark_gap_ms INTEGER NOT NULL DEFAULT 0;
)sql";

constexpr std::array<std::string_view, 3> kCacheMigrations { kCacheSchemaV1, kCacheSchemaV2,
    kCacheSchemaV3 };

constexpr uint32_t kCacheApplicationId = 0x44524143; // "DRAC"

} // namespace

CacheDb::CacheDb() = default;
CacheDb::CacheDb(std::unique_ptr<Impl> impl)
    : d(std::move(impl))
{
}
CacheDb::CacheDb(CacheDb &&other) noexcept = default;
CacheDb &CacheDb::operator=(CacheDb &&other) noexcept = default;
CacheDb::~CacheDb() = default;

const SchemaSpec &CacheDb::schema()
{
    static const SchemaSpec spec { kCacheApplicationId, QStringLiteral("DRA Console cache"),
        QStringLiteral("use `dractl cache rebuild` or --reset"), kCacheMigrations };
    return spec;
}

Result<CacheDb> CacheDb::open(const QString &path, OpenMode mode, const OpenOptions &options)
{
    Result<DbFile> file = openDbFile(path, mode, options, schema());
    if (!file)
        return fail(file.error());
    // The single writer removes a slice's devices itself before the slice, so the declared
    // foreign key needs no enforcement; checking it per device row doubled the cost of bulk loads.
    if (Result<void> unchecked = file->db.exec("PRAGMA foreign_keys = OFF"); !unchecked)
        return fail(unchecked.error());
    auto impl = std::make_unique<Impl>();
    impl->file = std::move(*file);
    impl->writer = mode == OpenMode::ReadWrite;
    return CacheDb(std::move(impl));
}

QString CacheDb::path() const
{
    return d ? d->file.db.path() : QString();
}

bool CacheDb::isWriter() const
{
    return d && d->writer;
}

Result<void> CacheDb::requireWriter() const
{
    if (!d)
        return fail(cacheNotOpen());
    if (!d->writer)
        return fail(Error::Code::Invalid, QStringLiteral("the cache was opened read-only"));
    return {};
}

Result<sqlite::Transaction> CacheDb::beginWrite()
{
    if (Result<void> writable = requireWriter(); !writable)
        return fail(writable.error());
    if (!d->statements) {
        Result<std::unique_ptr<WriterStatements>> prepared = prepareWriterStatements(d->file.db);
        if (!prepared)
            return fail(prepared.error());
        d->statements = std::move(*prepared);
    }
    return sqlite::Transaction::begin(d->file.db, sqlite::Transaction::Kind::Immediate);
}

Result<model::BatchSummary> CacheDb::apply(const model::WatchBatch &batch)
{
    Result<sqlite::Transaction> transaction = beginWrite();
    if (!transaction)
        return fail(transaction.error());
    const Result<model::BatchSummary> summary = writeBatch(
        d->file.db, *d->statements, batch, QDateTime::currentMSecsSinceEpoch(), nullptr);
    if (!summary)
        return summary; // the transaction rolls back as it goes out of scope
    if (Result<void> committed = transaction->commit(); !committed)
        return fail(committed.error());
    return summary;
}

Result<std::vector<model::CommittedBatch>> CacheDb::applyAll(
    std::vector<model::WatchBatch> &&batches)
{
    Result<sqlite::Transaction> transaction = beginWrite();
    if (!transaction)
        return fail(transaction.error());
    const int64_t now = QDateTime::currentMSecsSinceEpoch();
    std::vector<std::vector<Applied>> applied(batches.size());
    std::vector<model::BatchSummary> summaries;
    summaries.reserve(batches.size());
    for (size_t i = 0; i < batches.size(); ++i) {
        Result<model::BatchSummary> summary
            = writeBatch(d->file.db, *d->statements, batches[i], now, &applied[i]);
        if (!summary)
            return fail(summary.error());
        summaries.push_back(*summary);
    }
    if (Result<void> committed = transaction->commit(); !committed)
        return fail(committed.error());

    std::vector<model::CommittedBatch> result(batches.size());
    for (size_t i = 0; i < batches.size(); ++i) {
        model::CommittedBatch &out = result[i];
        out.cluster = std::move(batches[i].cluster);
        out.summary = summaries[i];
        out.serverVersion = std::move(batches[i].serverVersion);
        out.changes.reserve(applied[i].size());
        for (Applied &one : applied[i]) {
            model::ObjectRecord object = one.changeIndex >= 0
                ? std::move(batches[i].changes[size_t(one.changeIndex)].object)
                : std::move(one.stored);
            object.rev = one.rev;
            out.changes.push_back(model::CommittedChange { one.type, one.rev, std::move(object) });
        }
    }
    return result;
}

Result<void> CacheDb::setClusterInfo(const ClusterInfo &info)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> upsert = d->file.db.prepare(
        "INSERT INTO clusters (name, server, version, uid) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (name) DO UPDATE SET server = excluded.server, version = excluded.version, "
        "uid = CASE WHEN excluded.uid <> '' THEN excluded.uid ELSE clusters.uid END");
    if (!upsert)
        return fail(upsert.error());
    upsert->bind(1, info.name);
    upsert->bind(2, info.server);
    upsert->bind(3, info.version);
    upsert->bind(4, info.uid);
    return upsert->exec();
}

} // namespace dra::store
