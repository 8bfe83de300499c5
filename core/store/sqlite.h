// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "core/common/result.h"

struct sqlite3;
struct sqlite3_stmt;

// A thin RAII layer over the sqlite3 C API. Every error names the database file and carries
// sqlite's own message. Objects here belong to one thread at a time (connections are opened
// without SQLite's internal mutex).
namespace dra::store::sqlite {

class Database;

// A prepared statement. Text bound with bind() is not copied: it must stay alive until the
// statement is stepped, which is why temporaries are refused at compile time.
class Statement final
{
public:
    Statement() = default;
    Statement(Statement &&other) noexcept;
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    ~Statement();

    // Binding never fails on its own; a bad index or an oversized value is reported by step().
    void bind(int index, std::string_view text);
    void bind(int index, std::string &&text) = delete;
    void bind(int index, const char *text) { bind(index, std::string_view(text)); }
    void bindCopy(int index, const QString &text); // copied, so a temporary is fine
    void bind(int index, int64_t value);
    void bind(int index, int value) { bind(index, int64_t(value)); }
    void bindNull(int index);

    // Advances one row: true when a row is available, false when the statement is done.
    [[nodiscard]] Result<bool> step();
    // Runs a statement that returns no rows, then resets it for reuse.
    [[nodiscard]] Result<void> exec();
    // Makes the statement reusable and releases its read snapshot; bindings are cleared.
    void reset();

    int64_t columnInt(int column) const;
    std::string_view columnText(int column) const; // valid until the next step() or reset()
    std::string columnString(int column) const { return std::string(columnText(column)); }
    bool columnIsNull(int column) const;

    bool isValid() const { return m_stmt != nullptr; }

private:
    friend class Database;
    explicit Statement(sqlite3_stmt *stmt)
        : m_stmt(stmt)
    {
    }
    void noteBindResult(int rc);

    sqlite3_stmt *m_stmt = nullptr;
    int m_bindError = 0;
};

// Resets a statement when leaving scope, so a cached statement never pins a read snapshot.
class StatementScope final
{
public:
    explicit StatementScope(Statement &statement)
        : m_statement(statement)
    {
    }
    ~StatementScope() { m_statement.reset(); }
    StatementScope(const StatementScope &) = delete;
    StatementScope &operator=(const StatementScope &) = delete;

private:
    Statement &m_statement;
};

// Runs a prepared statement to the end, turning each row into a T with `read`; the statement is
// reset afterwards, also when a step fails.
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

// One connection to one database file.
class Database final
{
public:
    enum class Access { ReadWriteCreate, ReadOnly };

    Database() = default;
    Database(Database &&other) noexcept;
    Database &operator=(Database &&other) noexcept;
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;
    ~Database();

    // Opens (and with ReadWriteCreate, creates) the file. SQLite opens lazily: a file that is not
    // a database is reported by the first statement, not here.
    [[nodiscard]] static Result<Database> open(const QString &path, Access access);

    // Runs one or more statements without results (schema scripts, pragmas).
    [[nodiscard]] Result<void> exec(std::string_view sql);
    [[nodiscard]] Result<Statement> prepare(std::string_view sql);
    // Runs a query whose first column of the first row is an integer (pragmas, counts).
    [[nodiscard]] Result<int64_t> queryInt(std::string_view sql);

    // An error naming the file, what failed and sqlite's message for the last failure.
    common::Error error(const QString &what) const;
    int64_t lastInsertRowid() const;
    int lastErrorCode() const; // primary SQLite result code of the last failed call
    bool inTransaction() const;

    const QString &path() const { return m_path; }
    sqlite3 *handle() const { return m_db; }

private:
    Database(sqlite3 *db, QString path)
        : m_db(db)
        , m_path(std::move(path))
    {
    }
    void close();

    sqlite3 *m_db = nullptr;
    QString m_path;
};

// A transaction that rolls back unless committed. Immediate takes the write lock up front, so a
// writer never fails halfway on a lock upgrade; Deferred is for readers that want one snapshot
// across several statements.
class Transaction final
{
public:
    enum class Kind { Deferred, Immediate };

    Transaction(Transaction &&other) noexcept;
    Transaction &operator=(Transaction &&) = delete;
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    ~Transaction();

    [[nodiscard]] static Result<Transaction> begin(Database &db, Kind kind);
    [[nodiscard]] Result<void> commit();
    void rollback();

private:
    explicit Transaction(Database *db)
        : m_db(db)
    {
    }
    Database *m_db = nullptr;
};

// The Error::Code for an SQLite result code (busy, permission, anything else is Database).
common::Error::Code codeFor(int sqliteResult);

// An error for a failed call on `db`: "FILE: WHAT: sqlite's message".
common::Error errorFor(sqlite3 *db, const QString &what, int sqliteResult);

} // namespace dra::store::sqlite
