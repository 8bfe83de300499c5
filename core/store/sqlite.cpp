// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/sqlite.h"

#include <utility>

#include <QDir>

#include <sqlite3.h>

#include "core/common/json_text.h"

namespace dra::store::sqlite {

common::Error::Code codeFor(int sqliteResult)
{
    switch (sqliteResult & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return common::Error::Code::Busy;
    case SQLITE_CANTOPEN:
        return common::Error::Code::NotFound;
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return common::Error::Code::Forbidden;
    default:
        return common::Error::Code::Database;
    }
}

common::Error errorFor(sqlite3 *db, const QString &what, int sqliteResult)
{
    // The handle's message describes its last failure; use the generic text for the code when
    // the handle has moved on (a bind error found only at step time).
    const char *message = db && sqlite3_extended_errcode(db) == sqliteResult
        ? sqlite3_errmsg(db)
        : sqlite3_errstr(sqliteResult);
    const char *file = db ? sqlite3_db_filename(db, "main") : nullptr;
    const QString name
        = file && *file ? QDir::toNativeSeparators(common::qs(file)) : QStringLiteral("database");
    return common::Error { codeFor(sqliteResult),
        name + QStringLiteral(": ") + what + QStringLiteral(": ") + common::qs(message) };
}

// --- Statement ---------------------------------------------------------------------------

Statement::Statement(Statement &&other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_bindError(std::exchange(other.m_bindError, 0))
{
}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_bindError = std::exchange(other.m_bindError, 0);
    }
    return *this;
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

void Statement::noteBindResult(int rc)
{
    if (rc != SQLITE_OK && m_bindError == 0)
        m_bindError = rc;
}

void Statement::bind(int index, std::string_view text)
{
    // An empty view may carry a null pointer, which SQLite would store as NULL, not ''.
    const char *data = text.data() ? text.data() : "";
    noteBindResult(
        sqlite3_bind_text64(m_stmt, index, data, text.size(), SQLITE_STATIC, SQLITE_UTF8));
}

void Statement::bindCopy(int index, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    noteBindResult(sqlite3_bind_text64(m_stmt, index, utf8.constData(), sqlite3_uint64(utf8.size()),
        SQLITE_TRANSIENT, SQLITE_UTF8));
}

void Statement::bind(int index, int64_t value)
{
    noteBindResult(sqlite3_bind_int64(m_stmt, index, value));
}

void Statement::bindNull(int index)
{
    noteBindResult(sqlite3_bind_null(m_stmt, index));
}

Result<bool> Statement::step()
{
    if (m_bindError != 0)
        return fail(errorFor(
            sqlite3_db_handle(m_stmt), QStringLiteral("cannot bind a value"), m_bindError));
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    common::Error error
        = errorFor(sqlite3_db_handle(m_stmt), QStringLiteral("statement failed"), rc);
    // The statement is unusable until reset; reset here so a cached one stays reusable.
    sqlite3_reset(m_stmt);
    return fail(std::move(error));
}

Result<void> Statement::exec()
{
    const Result<bool> stepped = step();
    reset();
    if (!stepped)
        return fail(stepped.error());
    return {};
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    m_bindError = 0;
}

int64_t Statement::columnInt(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

std::string_view Statement::columnText(int column) const
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    if (!text)
        return {};
    return { text, size_t(sqlite3_column_bytes(m_stmt, column)) };
}

bool Statement::columnIsNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

// --- Database ----------------------------------------------------------------------------

Database::Database(Database &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
{
}

Database &Database::operator=(Database &&other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Database::~Database()
{
    close();
}

void Database::close()
{
    // close_v2 defers the close until every statement is finalized, so member order in owners
    // does not matter.
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

Result<Database> Database::open(const QString &path, Access access)
{
    const int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
        | (access == Access::ReadOnly ? SQLITE_OPEN_READONLY
                                      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3 *handle = nullptr;
    const int rc = sqlite3_open_v2(path.toUtf8().constData(), &handle, flags, nullptr);
    Database db(handle, path);
    if (rc != SQLITE_OK) {
        if (!handle)
            return fail(common::Error::Code::Database,
                QDir::toNativeSeparators(path) + QStringLiteral(": cannot open: out of memory"));
        return fail(errorFor(handle, QStringLiteral("cannot open"), rc));
    }
    sqlite3_extended_result_codes(handle, 1);
    return db;
}

Result<void> Database::exec(std::string_view sql)
{
    const std::string text(sql); // sqlite3_exec needs a terminated string
    const int rc = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        return fail(errorFor(m_db, QStringLiteral("statement failed"), rc));
    return {};
}

Result<Statement> Database::prepare(std::string_view sql)
{
    sqlite3_stmt *stmt = nullptr;
    const int rc = sqlite3_prepare_v3(
        m_db, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK)
        return fail(errorFor(m_db, QStringLiteral("cannot prepare a statement"), rc));
    return Statement(stmt);
}

Result<int64_t> Database::queryInt(std::string_view sql)
{
    Result<Statement> statement = prepare(sql);
    if (!statement)
        return fail(statement.error());
    const Result<bool> row = statement->step();
    if (!row)
        return fail(row.error());
    return *row ? statement->columnInt(0) : 0;
}

common::Error Database::error(const QString &what) const
{
    return errorFor(m_db, what, sqlite3_extended_errcode(m_db));
}

int64_t Database::lastInsertRowid() const
{
    return sqlite3_last_insert_rowid(m_db);
}

int Database::lastErrorCode() const
{
    return sqlite3_errcode(m_db);
}

bool Database::inTransaction() const
{
    return sqlite3_get_autocommit(m_db) == 0;
}

// --- Transaction -------------------------------------------------------------------------

Transaction::Transaction(Transaction &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
{
}

Transaction::~Transaction()
{
    rollback();
}

Result<Transaction> Transaction::begin(Database &db, Kind kind)
{
    const Result<void> begun
        = db.exec(kind == Kind::Immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
    if (!begun)
        return fail(begun.error());
    return Transaction(&db);
}

Result<void> Transaction::commit()
{
    if (!m_db)
        return fail(common::Error::Code::Internal, QStringLiteral("transaction already finished"));
    const Result<void> committed = m_db->exec("COMMIT");
    if (!committed)
        return committed; // still open: the destructor rolls it back
    m_db = nullptr;
    return {};
}

void Transaction::rollback()
{
    // SQLite may already have rolled back on its own (disk full, I/O error); only act if open.
    if (m_db && m_db->inTransaction())
        (void)m_db->exec("ROLLBACK");
    m_db = nullptr;
}

} // namespace dra::store::sqlite
