// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/audit_log.h"

#include <algorithm>

#include <openssl/evp.h>

#include "core/common/json_text.h"

namespace dra::rollout {

namespace {

using store::sqlite::Statement;
using store::sqlite::Transaction;

constexpr std::string_view kColumns
    = "seq, at, actor, action, target, result, details_json, prev_hash, hash";

Result<AuditEntry> readEntry(Statement &select)
{
    AuditEntry entry;
    entry.seq = select.columnInt(0);
    entry.at = select.columnInt(1);
    entry.actor = select.columnString(2);
    entry.action = select.columnString(3);
    entry.target = select.columnString(4);
    entry.result = select.columnString(5);
    // A details column that no longer parses is kept as its text: verify() must still hash it.
    const std::string details = select.columnString(6);
    entry.details = nlohmann::json::parse(details, nullptr, false);
    if (entry.details.is_discarded())
        entry.details = details;
    entry.prevHash = select.columnString(7);
    entry.hash = select.columnString(8);
    return entry;
}

} // namespace

std::string canonicalAuditEntry(const AuditEntry &entry)
{
    const nlohmann::json canonical = nlohmann::json::array({ entry.seq, entry.at, entry.actor,
        entry.action, entry.target, entry.result, entry.details });
    return common::compactJson(canonical);
}

std::string auditHash(std::string_view prevHash, std::string_view canonical)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    EVP_DigestInit_ex(context, EVP_sha256(), nullptr);
    EVP_DigestUpdate(context, prevHash.data(), prevHash.size());
    EVP_DigestUpdate(context, "\n", 1);
    EVP_DigestUpdate(context, canonical.data(), canonical.size());
    EVP_DigestFinal_ex(context, digest, &length);
    EVP_MD_CTX_free(context);
    static const char hex[] = "0123456789abcdef";
    std::string text;
    text.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
        text.push_back(hex[digest[i] >> 4]);
        text.push_back(hex[digest[i] & 15]);
    }
    return text;
}

Result<AuditEntry> AuditLog::append(AuditEntry entry)
{
    std::optional<Transaction> transaction;
    if (!m_db.inTransaction()) {
        Result<Transaction> begun = Transaction::begin(m_db, Transaction::Kind::Immediate);
        if (!begun)
            return fail(begun.error());
        transaction.emplace(std::move(*begun));
    }
    Result<Statement> last
        = m_db.prepare("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1");
    if (!last)
        return fail(last.error());
    const Result<bool> row = last->step();
    if (!row)
        return fail(row.error());
    entry.prevHash = *row ? last->columnString(1) : std::string(kAuditGenesis);
    // AUTOINCREMENT never reuses a number, so the next seq is max(seq, sqlite_sequence) + 1.
    const Result<int64_t> sequence = m_db.queryInt(
        "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'), 0)");
    if (!sequence)
        return fail(sequence.error());
    entry.seq = std::max(*row ? last->columnInt(0) : 0, *sequence) + 1;
    last->reset();
    if (!entry.details.is_object() && !entry.details.is_array())
        entry.details = nlohmann::json::object();
    entry.hash = auditHash(entry.prevHash, canonicalAuditEntry(entry));

    Result<Statement> insert = m_db.prepare("INSERT INTO audit_log (seq, at, actor, action, "
                                            "target, result, details_json, prev_hash, hash) "
                                            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    if (!insert)
        return fail(insert.error());
    const std::string details = common::compactJson(entry.details);
    insert->bind(1, entry.seq);
    insert->bind(2, entry.at);
    insert->bind(3, entry.actor);
    insert->bind(4, entry.action);
    insert->bind(5, entry.target);
    insert->bind(6, entry.result);
    insert->bind(7, details);
    insert->bind(8, entry.prevHash);
    insert->bind(9, entry.hash);
    if (Result<void> done = insert->exec(); !done)
        return fail(done.error());
    if (transaction)
        if (Result<void> committed = transaction->commit(); !committed)
            return fail(committed.error());
    return entry;
}

Result<std::vector<AuditEntry>> AuditLog::entries(const std::optional<std::string> &target)
{
    const std::string sql = "SELECT " + std::string(kColumns) + " FROM audit_log"
        + (target ? " WHERE target = ?1" : "") + " ORDER BY seq";
    Result<Statement> select = m_db.prepare(sql);
    if (!select)
        return fail(select.error());
    if (target)
        select->bind(1, *target);
    std::vector<AuditEntry> list;
    while (true) {
        const Result<bool> row = select->step();
        if (!row)
            return fail(row.error());
        if (!*row)
            return list;
        Result<AuditEntry> entry = readEntry(*select);
        if (!entry)
            return fail(entry.error());
        list.push_back(std::move(*entry));
    }
}

Result<AuditVerification> AuditLog::verify()
{
    Result<std::vector<AuditEntry>> all = entries();
    if (!all)
        return fail(all.error());
    return verifyChain(*all);
}

Result<AuditLog::TargetAudit> AuditLog::entriesVerified(const std::string &target)
{
    Result<std::vector<AuditEntry>> all = entries();
    if (!all)
        return fail(all.error());
    TargetAudit audit;
    audit.verification = verifyChain(*all);
    std::erase_if(*all, [&target](const AuditEntry &entry) { return entry.target != target; });
    audit.entries = std::move(*all);
    return audit;
}

AuditVerification AuditLog::verifyChain(const std::vector<AuditEntry> &all)
{
    AuditVerification verification;
    std::string previous(kAuditGenesis);
    for (const AuditEntry &entry : all) {
        ++verification.entries;
        if (!verification.intact)
            continue;
        const auto broken = [&](std::string why) {
            verification.intact = false;
            verification.firstBrokenSeq = entry.seq;
            verification.reason = "entry " + std::to_string(entry.seq) + " " + why;
        };
        if (entry.prevHash != previous)
            broken(verification.entries == 1
                    ? "does not start the chain (entries before it were removed)"
                    : "does not follow the entry before it (an entry was removed, inserted or "
                      "reordered)");
        else if (auditHash(entry.prevHash, canonicalAuditEntry(entry)) != entry.hash)
            broken("does not match its hash (it was edited)");
        previous = entry.hash;
    }
    verification.headHash = all.empty() ? std::string(kAuditGenesis) : all.back().hash;
    return verification;
}

nlohmann::json auditEntryJson(const AuditEntry &entry)
{
    return { { "seq", entry.seq }, { "at", entry.at }, { "actor", entry.actor },
        { "action", entry.action }, { "target", entry.target }, { "result", entry.result },
        { "details", entry.details }, { "prevHash", entry.prevHash }, { "hash", entry.hash } };
}

} // namespace dra::rollout
