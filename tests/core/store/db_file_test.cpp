// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/db_file.h"

#include <array>

#include <QTemporaryDir>

#include <gtest/gtest.h>

using dra::Result;
using dra::common::Error;
using namespace dra::store;

namespace {

// A schema history like the cache's will grow: a table, then a column, then another table.
constexpr std::array<std::string_view, 3> kHistory {
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);",
    "ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT 'unknown';",
    "CREATE TABLE tags (note INTEGER REFERENCES notes (id), tag TEXT NOT NULL);",
};

SchemaSpec specUpTo(size_t version)
{
    return SchemaSpec { 0x54455354, QStringLiteral("test file"), QStringLiteral("use --reset"),
        std::span<const std::string_view>(kHistory).first(version) };
}

} // namespace

TEST(DbFileTest, MigratesAnOlderFileStepByStepKeepingItsRows)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.db"));
    {
        Result<DbFile> v1 = openDbFile(path, OpenMode::ReadWrite, {}, specUpTo(1));
        ASSERT_TRUE(v1.has_value()) << v1.error().message.toStdString();
        EXPECT_EQ(v1->schemaVersion, 1);
        ASSERT_TRUE(v1->db.exec("INSERT INTO notes (text) VALUES ('kept')").has_value());
    }
    Result<DbFile> v3 = openDbFile(path, OpenMode::ReadWrite, {}, specUpTo(3));
    ASSERT_TRUE(v3.has_value()) << v3.error().message.toStdString();
    EXPECT_EQ(v3->schemaVersion, 3);
    EXPECT_EQ(v3->db.queryInt("PRAGMA user_version"), int64_t(3));
    EXPECT_EQ(
        v3->db.queryInt("SELECT count(*) FROM notes WHERE text = 'kept' AND author = 'unknown'"),
        int64_t(1));
    EXPECT_TRUE(v3->db.exec("INSERT INTO tags VALUES (1, 'x')").has_value());
}

TEST(DbFileTest, FailedMigrationLeavesTheFileAtItsOldVersion)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.db"));
    ASSERT_TRUE(openDbFile(path, OpenMode::ReadWrite, {}, specUpTo(1)).has_value());

    // Version 2 succeeds, version 3 fails: neither may stick.
    constexpr std::array<std::string_view, 3> broken { kHistory[0], kHistory[1],
        "CREATE TABLE notes (x);" };
    const SchemaSpec brokenSpec { 0x54455354, QStringLiteral("test file"),
        QStringLiteral("use --reset"), broken };
    const Result<DbFile> failed = openDbFile(path, OpenMode::ReadWrite, {}, brokenSpec);
    ASSERT_FALSE(failed.has_value());
    EXPECT_TRUE(failed.error().message.contains(QStringLiteral("migrating to schema version 3")))
        << failed.error().message.toStdString();

    Result<DbFile> again = openDbFile(path, OpenMode::ReadOnly, {}, specUpTo(1));
    ASSERT_TRUE(again.has_value()) << again.error().message.toStdString();
    EXPECT_EQ(again->db.queryInt("PRAGMA user_version"), int64_t(1));
    EXPECT_FALSE(again->db.prepare("SELECT author FROM notes").has_value());
}

TEST(DbFileTest, NewerFileIsRefusedAndOutdatedFileNeedsAWriter)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.db"));
    ASSERT_TRUE(openDbFile(path, OpenMode::ReadWrite, {}, specUpTo(2)).has_value());

    const Result<DbFile> older = openDbFile(path, OpenMode::ReadWrite, {}, specUpTo(1));
    ASSERT_FALSE(older.has_value());
    EXPECT_EQ(older.error().code, Error::Code::Unsupported);
    EXPECT_TRUE(older.error().message.contains(
        QStringLiteral("newer DRA Console (schema version 2, this build knows up to 1)")))
        << older.error().message.toStdString();

    const Result<DbFile> reader = openDbFile(path, OpenMode::ReadOnly, {}, specUpTo(3));
    ASSERT_FALSE(reader.has_value());
    EXPECT_TRUE(
        reader.error().message.contains(QStringLiteral("open it once for writing to upgrade it")))
        << reader.error().message.toStdString();
}

TEST(DbFileTest, WriterUsesWriteAheadLogging)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.db"));
    Result<DbFile> file = openDbFile(path, OpenMode::ReadWrite, {}, specUpTo(1));
    ASSERT_TRUE(file.has_value());
    Result<sqlite::Statement> mode = file->db.prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.has_value());
    ASSERT_EQ(mode->step(), true);
    EXPECT_EQ(mode->columnText(0), "wal");
    EXPECT_EQ(file->db.queryInt("PRAGMA foreign_keys"), int64_t(1));
    EXPECT_EQ(file->db.queryInt("PRAGMA application_id"), int64_t(0x54455354));
}
