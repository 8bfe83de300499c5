// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/state_db.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/store/cache_db.h"

using dra::Result;
using dra::common::Error;
using namespace dra::store;

TEST(StateDbTest, SettingsAndTemplatesSurviveReopening)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.db"));
    {
        Result<StateDb> state = StateDb::open(path, OpenMode::ReadWrite);
        ASSERT_TRUE(state.has_value()) << state.error().message.toStdString();
        ASSERT_TRUE(state->setSetting(QStringLiteral("theme"), QStringLiteral("dark")).has_value());
        ASSERT_TRUE(
            state->setSetting(QStringLiteral("theme"), QStringLiteral("light")).has_value());
        ASSERT_TRUE(state->setSetting(QStringLiteral("gone"), QStringLiteral("x")).has_value());
        ASSERT_TRUE(state->removeSetting(QStringLiteral("gone")).has_value());
        ASSERT_TRUE(state->saveTemplate(QStringLiteral("two-gpus"), "kind: ResourceClaimTemplate\n")
                        .has_value());
        ASSERT_TRUE(
            state->saveTemplate(QStringLiteral("a100"), "kind: ResourceClaimTemplate # a100\n")
                .has_value());
        ASSERT_TRUE(state->saveTemplate(QStringLiteral("scratch"), "x").has_value());
        ASSERT_TRUE(state->removeTemplate(QStringLiteral("scratch")).has_value());
    }
    Result<StateDb> state = StateDb::open(path, OpenMode::ReadOnly);
    ASSERT_TRUE(state.has_value()) << state.error().message.toStdString();
    EXPECT_EQ(state->setting(QStringLiteral("theme")).value(),
        std::optional<QString>(QStringLiteral("light")));
    EXPECT_EQ(state->setting(QStringLiteral("gone")).value(), std::nullopt);
    const std::vector<SavedTemplate> templates = state->savedTemplates().value();
    ASSERT_EQ(templates.size(), 2u);
    EXPECT_EQ(templates[0].name, QStringLiteral("a100"));
    EXPECT_EQ(templates[1].yaml, "kind: ResourceClaimTemplate\n");
    EXPECT_GT(templates[1].updatedAt, 0);
    EXPECT_EQ(state->savedTemplate(QStringLiteral("a100")).value()->yaml,
        "kind: ResourceClaimTemplate # a100\n");
    EXPECT_FALSE(state->saveTemplate(QStringLiteral("b"), "y").has_value()); // read-only
}

TEST(StateDbTest, HoldsTheTablesLaterWorkFills)
{
    QTemporaryDir dir;
    Result<StateDb> state
        = StateDb::open(dir.filePath(QStringLiteral("state.db")), OpenMode::ReadWrite);
    ASSERT_TRUE(state.has_value());
    EXPECT_EQ(state->database().queryInt(
                  "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
                  "('settings', 'saved_templates', 'imported_topology', 'rollouts', 'audit_log')"),
        int64_t(5));
}

TEST(StateDbTest, CacheIsNotAStateFileAndTheHintDoesNotSuggestARebuild)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    ASSERT_TRUE(CacheDb::open(path, OpenMode::ReadWrite).has_value());
    const Result<StateDb> state = StateDb::open(path, OpenMode::ReadWrite);
    ASSERT_FALSE(state.has_value());
    EXPECT_TRUE(state.error().message.startsWith(path
        + QStringLiteral(" is not a DRA Console state file (application_id 0x44524143); restore it "
                         "from a backup")))
        << state.error().message.toStdString();
}

TEST(StateDbTest, OneWriterAtATime)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.db"));
    Result<StateDb> first = StateDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(first.has_value());
    const Result<StateDb> second = StateDb::open(path, OpenMode::ReadWrite);
    ASSERT_FALSE(second.has_value());
    EXPECT_EQ(second.error().code, Error::Code::Busy);
}

TEST(StateDbTest, MigratesAVersionOneFileKeepingItsRows)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.db"));
    {
        // A state file as version 1 wrote it, with a rollout and an audit entry.
        Result<sqlite::Database> db
            = sqlite::Database::open(path, sqlite::Database::Access::ReadWriteCreate);
        ASSERT_TRUE(db.has_value());
        ASSERT_TRUE(db->exec(std::string(StateDb::schema().migrations[0])).has_value());
        ASSERT_TRUE(
            db->exec("PRAGMA application_id = 1146241363; PRAGMA user_version = 1;"
                     "INSERT INTO rollouts (id, plan_yaml, state_json, updated_at) VALUES ('r', "
                     "'p', '{}', 5);"
                     "INSERT INTO audit_log (at, actor, action, target, result, prev_hash, hash) "
                     "VALUES (1, 'a', 'create', 'r', 'ok', 'x', 'y');")
                .has_value());
    }
    Result<StateDb> state = StateDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(state.has_value()) << state.error().message.toStdString();
    EXPECT_EQ(state->database().queryInt("PRAGMA user_version"),
        int64_t(StateDb::schema().migrations.size()));
    EXPECT_EQ(state->database().queryInt("SELECT count(*) FROM rollouts WHERE id = 'r' AND stage = "
                                         "'Baseline' AND workload = ''"),
        int64_t(1));
    EXPECT_EQ(state->database().queryInt("SELECT count(*) FROM rejected_variants"), int64_t(0));
    EXPECT_FALSE(state->database().exec("DELETE FROM audit_log").has_value())
        << "the audit log is append-only from v2";
    EXPECT_FALSE(state->database().exec("UPDATE audit_log SET result = 'changed'").has_value());
}
