// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/audit_log.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/store/state_db.h"

using namespace dra::rollout;
using dra::Result;
using dra::store::OpenMode;
using dra::store::StateDb;

namespace {

class AuditLogTest : public testing::Test
{
protected:
    void SetUp() override
    {
        Result<StateDb> state = StateDb::open(path(), OpenMode::ReadWrite);
        ASSERT_TRUE(state.has_value()) << state.error().message.toStdString();
        m_state = std::move(*state);
        AuditLog log(m_state.database());
        for (int i = 1; i <= 4; ++i) {
            Result<AuditEntry> appended = log.append(AuditEntry { 0, 1000 * i, "alice", "promote",
                "llm", "ok " + std::to_string(i), { { "step", i } } });
            ASSERT_TRUE(appended.has_value()) << appended.error().message.toStdString();
        }
    }

    QString path() const { return m_dir.filePath(QStringLiteral("state.db")); }

    // What someone editing the file with sqlite3 would do: drop the guard, change a row.
    void tamper(const std::string &sql)
    {
        ASSERT_TRUE(m_state.database()
                        .exec("DROP TRIGGER IF EXISTS audit_log_no_update; "
                              "DROP TRIGGER IF EXISTS audit_log_no_delete; "
                            + sql)
                        .has_value());
    }

    QTemporaryDir m_dir;
    StateDb m_state;
};

} // namespace

TEST_F(AuditLogTest, ChainsEveryEntryToThePreviousOne)
{
    AuditLog log(m_state.database());
    const std::vector<AuditEntry> entries = log.entries().value();
    ASSERT_EQ(entries.size(), 4u);
    EXPECT_EQ(entries[0].prevHash, kAuditGenesis);
    EXPECT_EQ(entries[1].prevHash, entries[0].hash);
    EXPECT_EQ(entries[0].hash, auditHash(kAuditGenesis, canonicalAuditEntry(entries[0])));
    EXPECT_EQ(
        canonicalAuditEntry(entries[0]), R"([1,1000,"alice","promote","llm","ok 1",{"step":1}])");
    const AuditVerification verification = log.verify().value();
    EXPECT_TRUE(verification.intact) << verification.reason;
    EXPECT_EQ(verification.entries, 4);
    EXPECT_EQ(verification.headHash, entries[3].hash);
}

TEST_F(AuditLogTest, TheStateFileRefusesEditsAndDeletes)
{
    EXPECT_FALSE(
        m_state.database().exec("UPDATE audit_log SET result = 'x' WHERE seq = 2").has_value());
    EXPECT_FALSE(m_state.database().exec("DELETE FROM audit_log WHERE seq = 2").has_value());
    EXPECT_TRUE(AuditLog(m_state.database()).verify().value().intact);
}

TEST_F(AuditLogTest, VerifyFindsAnEditedEntry)
{
    tamper("UPDATE audit_log SET result = 'ok (quietly changed)' WHERE seq = 2");
    const AuditVerification verification = AuditLog(m_state.database()).verify().value();
    EXPECT_FALSE(verification.intact);
    EXPECT_EQ(verification.firstBrokenSeq, 2);
    EXPECT_EQ(verification.reason, "entry 2 does not match its hash (it was edited)");
}

TEST_F(AuditLogTest, VerifyFindsAnEditedDetailsColumn)
{
    tamper(R"(UPDATE audit_log SET details_json = '{"step":30}' WHERE seq = 3)");
    EXPECT_EQ(AuditLog(m_state.database()).verify().value().firstBrokenSeq, 3);
}

TEST_F(AuditLogTest, VerifyFindsARemovedEntry)
{
    tamper("DELETE FROM audit_log WHERE seq = 3");
    const AuditVerification verification = AuditLog(m_state.database()).verify().value();
    EXPECT_FALSE(verification.intact);
    EXPECT_EQ(verification.firstBrokenSeq, 4);
    EXPECT_NE(verification.reason.find("an entry was removed"), std::string::npos);
}

TEST_F(AuditLogTest, RehashingOneRowStillBreaksTheNext)
{
    AuditLog log(m_state.database());
    AuditEntry forged = log.entries().value()[1];
    forged.result = "forged";
    forged.hash = auditHash(forged.prevHash, canonicalAuditEntry(forged));
    tamper("UPDATE audit_log SET result = 'forged', hash = '" + forged.hash + "' WHERE seq = 2");
    const AuditVerification verification = log.verify().value();
    EXPECT_EQ(verification.firstBrokenSeq, 3);
}

TEST_F(AuditLogTest, SequenceContinuesAfterReopening)
{
    m_state = StateDb();
    Result<StateDb> state = StateDb::open(path(), OpenMode::ReadWrite);
    ASSERT_TRUE(state.has_value());
    AuditLog log(state->database());
    const AuditEntry fifth
        = log.append(AuditEntry { 0, 5000, "bob", "abort", "llm", "ok" }).value();
    EXPECT_EQ(fifth.seq, 5);
    EXPECT_TRUE(log.verify().value().intact);
    EXPECT_EQ(log.entries(std::string("other")).value().size(), 0u);
}
