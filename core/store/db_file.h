// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <QString>

#include "core/common/result.h"
#include "core/store/sqlite.h"
#include "core/store/writer_lock.h"

namespace dra::store {

enum class OpenMode { ReadWrite, ReadOnly };

struct OpenOptions
{
    bool reset = false; // writers only: delete the file (and its WAL) first and start empty
    // Readers only: skip quick_check, which reads the whole file, so that a reader who must
    // show data fast can check once the data is shown (CacheDb::quickCheck). Identity and
    // schema version are still checked, and damage met while reading is still an error.
    bool deferQuickCheck = false;
};

// What makes a file one of ours, and how its schema grew: migrations[i] takes a file from
// user_version i to i + 1, so the current version is migrations.size().
struct SchemaSpec
{
    uint32_t applicationId = 0;
    QString description; // "DRA Console cache", used in "FILE is not a DRA Console cache (...)"
    QString remedy; // what the user can do about a foreign or damaged file
    std::span<const std::string_view> migrations;
};

// An open, checked database: its connection and, for writers, the writer lock.
struct DbFile
{
    sqlite::Database db;
    std::optional<WriterLock> lock;
    int schemaVersion = 0;
};

// Opens a cache or state file the same way for both: a writer takes the lock, optionally resets,
// enables WAL, checks identity and integrity (quick_check) and migrates in one transaction;
// a reader only checks and never changes the file. A foreign, newer, damaged or non-SQLite file
// is a clear error naming the file and `spec.remedy`, never a crash. Any thread; the result
// belongs to the calling thread until moved.
[[nodiscard]] Result<DbFile> openDbFile(
    const QString &path, OpenMode mode, const OpenOptions &options, const SchemaSpec &spec);

// Runs PRAGMA quick_check on an open database: Ok, or an error quoting the first problem.
[[nodiscard]] Result<void> quickCheck(sqlite::Database &db, const SchemaSpec &spec);

} // namespace dra::store
