// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/db_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sqlite3.h>

#include "core/common/json_text.h"
#include "core/common/logging.h"

namespace dra::store {

namespace {

using common::Error;

QString shown(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

Error notOurs(const QString &path, const SchemaSpec &spec, const QString &why)
{
    return Error { Error::Code::Invalid,
        shown(path) + QStringLiteral(" is not a ") + spec.description + QStringLiteral(" (") + why
            + QStringLiteral("); ") + spec.remedy };
}

Error damaged(const QString &path, const SchemaSpec &spec, const QString &why)
{
    return Error { Error::Code::Database,
        shown(path) + QStringLiteral(" is damaged (") + why + QStringLiteral("); ") + spec.remedy };
}

// Turns a failure of the first reads into the message a user can act on: SQLite reports a
// non-database file and a mangled header only once something is read.
Error explainReadFailure(const sqlite::Database &db, const SchemaSpec &spec, const Error &error)
{
    switch (db.lastErrorCode()) {
    case SQLITE_NOTADB:
        return notOurs(db.path(), spec, QStringLiteral("not an SQLite database"));
    case SQLITE_CORRUPT:
        return damaged(db.path(), spec, common::qs(sqlite3_errmsg(db.handle())));
    default:
        return error;
    }
}

Result<void> removeDatabaseFiles(const QString &path)
{
    const QStringList files { path, path + QStringLiteral("-wal"), path + QStringLiteral("-shm"),
        path + QStringLiteral("-journal") };
    for (const QString &file : files) {
        if (QFileInfo::exists(file) && !QFile::remove(file)) {
            return fail(Error::Code::Database,
                shown(file) + QStringLiteral(": cannot delete it for --reset"));
        }
    }
    return {};
}

Result<void> migrate(sqlite::Database &db, int from, const SchemaSpec &spec)
{
    const int to = int(spec.migrations.size());
    Result<sqlite::Transaction> transaction
        = sqlite::Transaction::begin(db, sqlite::Transaction::Kind::Immediate);
    if (!transaction)
        return fail(transaction.error());
    for (int version = from; version < to; ++version) {
        if (Result<void> step = db.exec(spec.migrations[size_t(version)]); !step) {
            return fail(step.error().withContext(
                QStringLiteral("migrating to schema version %1").arg(version + 1)));
        }
    }
    // Both pragmas write the file header, inside the transaction: a crash leaves the old
    // version with the old tables.
    const std::string pragmas = "PRAGMA user_version = " + std::to_string(to)
        + "; PRAGMA application_id = " + std::to_string(int32_t(spec.applicationId)) + ";";
    if (Result<void> stamped = db.exec(pragmas); !stamped)
        return stamped;
    if (from != to)
        qCInfo(lcStore) << "migrated" << db.path() << "from schema version" << from << "to" << to;
    return transaction->commit();
}

} // namespace

Result<void> quickCheck(sqlite::Database &db, const SchemaSpec &spec)
{
    Result<sqlite::Statement> check = db.prepare("PRAGMA quick_check(5)");
    if (!check)
        return fail(explainReadFailure(db, spec, check.error()));
    QStringList problems;
    while (true) {
        const Result<bool> row = check->step();
        if (!row)
            return fail(explainReadFailure(db, spec, row.error()));
        if (!*row)
            break;
        const QString line = common::qs(check->columnText(0));
        if (line != QLatin1String("ok"))
            problems << line;
    }
    if (!problems.isEmpty())
        return fail(damaged(db.path(), spec,
            QStringLiteral("quick_check: ") + problems.join(QStringLiteral("; "))));
    return {};
}

Result<DbFile> openDbFile(
    const QString &path, OpenMode mode, const OpenOptions &options, const SchemaSpec &spec)
{
    DbFile file;
    const bool writer = mode == OpenMode::ReadWrite;
    if (!writer) {
        if (options.reset)
            return fail(
                Error::Code::Invalid, shown(path) + QStringLiteral(": --reset needs write access"));
        if (!QFileInfo::exists(path))
            return fail(Error::Code::NotFound, shown(path) + QStringLiteral(" does not exist"));
    } else {
        const QString folder = QFileInfo(path).absolutePath();
        if (!QDir().mkpath(folder))
            return fail(Error::Code::Database,
                shown(folder) + QStringLiteral(": cannot create the folder"));
        Result<WriterLock> lock = WriterLock::acquire(path);
        if (!lock)
            return fail(lock.error());
        file.lock = std::move(*lock);
        if (options.reset) {
            if (Result<void> removed = removeDatabaseFiles(path); !removed)
                return fail(removed.error());
        }
    }

    Result<sqlite::Database> opened = sqlite::Database::open(path,
        writer ? sqlite::Database::Access::ReadWriteCreate : sqlite::Database::Access::ReadOnly);
    if (!opened)
        return fail(opened.error());
    sqlite::Database &db = *opened;
    // Readers and the writer meet only at checkpoints and the brief WAL index lock.
    if (Result<void> timeout = db.exec("PRAGMA busy_timeout = 5000"); !timeout)
        return fail(timeout.error());

    const Result<int64_t> applicationId = db.queryInt("PRAGMA application_id");
    if (!applicationId)
        return fail(explainReadFailure(db, spec, applicationId.error()));
    const Result<int64_t> userVersion = db.queryInt("PRAGMA user_version");
    if (!userVersion)
        return fail(explainReadFailure(db, spec, userVersion.error()));
    bool fresh = false;
    if (uint32_t(*applicationId) != spec.applicationId) {
        if (*applicationId != 0 || *userVersion != 0)
            return fail(notOurs(path, spec,
                QStringLiteral("application_id 0x%1")
                    .arg(uint32_t(*applicationId), 8, 16, QLatin1Char('0'))));
        const Result<int64_t> tables = db.queryInt("SELECT count(*) FROM sqlite_schema");
        if (!tables)
            return fail(explainReadFailure(db, spec, tables.error()));
        if (*tables != 0)
            return fail(
                notOurs(path, spec, QStringLiteral("an SQLite database of another application")));
        fresh = true;
    }

    const int current = int(spec.migrations.size());
    if (*userVersion > current) {
        return fail(Error::Code::Unsupported,
            shown(path)
                + QStringLiteral(" was written by a newer DRA Console (schema version %1, this "
                                 "build knows up to %2); ")
                      .arg(*userVersion)
                      .arg(current)
                + spec.remedy);
    }
    if (!fresh && !(options.deferQuickCheck && !writer)) {
        if (Result<void> checked = quickCheck(db, spec); !checked)
            return fail(checked.error());
    }

    if (!writer) {
        if (fresh)
            return fail(Error::Code::NotFound,
                shown(path) + QStringLiteral(" is empty; no writer has created it yet"));
        if (*userVersion < current) {
            return fail(Error::Code::Unsupported,
                shown(path)
                    + QStringLiteral(" has schema version %1 and this build needs %2; open it once "
                                     "for writing to upgrade it")
                          .arg(*userVersion)
                          .arg(current));
        }
        // Reads straight from the mapped file: no read() call and no copy per page, which is
        // most of a cold load of a large cache. Readers never write through the map.
        if (Result<void> mapped = db.exec("PRAGMA mmap_size = 1073741824"); !mapped)
            return fail(explainReadFailure(db, spec, mapped.error()));
    } else {
        // WAL: readers keep their snapshot while the writer commits; NORMAL: a power cut may
        // lose the last commits but never corrupts, and the cache is rebuilt from the cluster.
        // A page cache big enough for a full relist keeps the transaction from spilling pages
        // into the WAL and rewriting them, which dominated bulk loads.
        // 16 KiB pages: objects are kilobytes of JSON, and a bulk load writes every page twice
        // (WAL, then checkpoint), so fewer, larger pages mean far fewer write calls. Only takes
        // effect on a new file, before WAL is on.
        if (fresh) {
            if (Result<void> pageSize = db.exec("PRAGMA page_size = 16384"); !pageSize)
                return fail(pageSize.error());
        }
        if (Result<void> pragmas
            = db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
                      "PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536; PRAGMA temp_store = "
                      "MEMORY;");
            !pragmas) {
            return fail(explainReadFailure(db, spec, pragmas.error()));
        }
        if (*userVersion < current) {
            if (Result<void> migrated = migrate(db, int(*userVersion), spec); !migrated)
                return fail(migrated.error());
        }
    }
    file.schemaVersion = current;
    file.db = std::move(db);
    return file;
}

} // namespace dra::store
