// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/sqlite.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

using dra::Result;
using namespace dra::store::sqlite;

namespace {

Database openIn(const QTemporaryDir &dir)
{
    Result<Database> db
        = Database::open(dir.filePath(QStringLiteral("t.db")), Database::Access::ReadWriteCreate);
    EXPECT_TRUE(db.has_value());
    return std::move(*db);
}

} // namespace

TEST(SqliteTest, EmptyTextStaysEmptyNotNull)
{
    QTemporaryDir dir;
    Database db = openIn(dir);
    ASSERT_TRUE(db.exec("CREATE TABLE t (a TEXT NOT NULL, b INTEGER)").has_value());
    Result<Statement> insert = db.prepare("INSERT INTO t (a, b) VALUES (?1, ?2)");
    ASSERT_TRUE(insert.has_value());
    const std::string empty;
    insert->bind(1, std::string_view(empty));
    insert->bind(2, int64_t(1) << 40);
    ASSERT_TRUE(insert->exec().has_value());

    Result<Statement> select = db.prepare("SELECT a, b FROM t");
    ASSERT_TRUE(select.has_value());
    ASSERT_EQ(select->step(), true);
    EXPECT_FALSE(select->columnIsNull(0));
    EXPECT_EQ(select->columnText(0), "");
    EXPECT_EQ(select->columnInt(1), int64_t(1) << 40);
    EXPECT_EQ(select->step(), false);
}

TEST(SqliteTest, TransactionRollsBackUnlessCommitted)
{
    QTemporaryDir dir;
    Database db = openIn(dir);
    ASSERT_TRUE(db.exec("CREATE TABLE t (a INTEGER)").has_value());
    {
        Result<Transaction> transaction = Transaction::begin(db, Transaction::Kind::Immediate);
        ASSERT_TRUE(transaction.has_value());
        ASSERT_TRUE(db.exec("INSERT INTO t VALUES (1)").has_value());
    }
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM t"), int64_t(0));
    {
        Result<Transaction> transaction = Transaction::begin(db, Transaction::Kind::Immediate);
        ASSERT_TRUE(transaction.has_value());
        ASSERT_TRUE(db.exec("INSERT INTO t VALUES (1)").has_value());
        ASSERT_TRUE(transaction->commit().has_value());
    }
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM t"), int64_t(1));
    EXPECT_FALSE(db.inTransaction());
}

TEST(SqliteTest, ErrorsNameTheFileAndCarrySqlitesMessage)
{
    QTemporaryDir dir;
    Database db = openIn(dir);
    const Result<Statement> bad = db.prepare("SELEKT 1");
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().code, dra::common::Error::Code::Database);
    EXPECT_TRUE(bad.error().message.contains(dir.filePath(QStringLiteral("t.db"))))
        << bad.error().message.toStdString();
    EXPECT_TRUE(bad.error().message.contains(QStringLiteral("syntax error")))
        << bad.error().message.toStdString();

    ASSERT_TRUE(db.exec("CREATE TABLE t (a TEXT NOT NULL)").has_value());
    Result<Statement> insert = db.prepare("INSERT INTO t (a) VALUES (?1)");
    ASSERT_TRUE(insert.has_value());
    insert->bindNull(1);
    const Result<void> failed = insert->exec();
    ASSERT_FALSE(failed.has_value());
    EXPECT_TRUE(failed.error().message.contains(QStringLiteral("NOT NULL constraint failed: t.a")))
        << failed.error().message.toStdString();
    // The failed statement was reset and can run again.
    insert->bind(1, "x");
    EXPECT_TRUE(insert->exec().has_value());
}
