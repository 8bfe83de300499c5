// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/store/sqlite.h"

namespace dra::rollout {

// One audit entry: who did what to which target, when, with what result. Append-only; each
// entry's hash is SHA-256 over the previous entry's hash and its own canonical form, so an
// edited, removed or reordered entry breaks the chain from there on.
struct AuditEntry
{
    int64_t seq = 0; // assigned by append()
    int64_t at = 0; // ms since the epoch
    std::string actor, action, target, result;
    nlohmann::json details = nlohmann::json::object();
    std::string prevHash, hash; // lower-case hex, assigned by append()
};

// What verify() found: intact, or the first entry where the chain breaks and why.
struct AuditVerification
{
    bool intact = true;
    int64_t entries = 0;
    std::optional<int64_t> firstBrokenSeq;
    std::string reason; // "entry 3 does not match its hash (edited)"
    std::string headHash; // the last entry's hash: note it elsewhere to detect truncation
};

// The hash before the first entry.
inline constexpr std::string_view kAuditGenesis
    = "0000000000000000000000000000000000000000000000000000000000000000";

// The bytes an entry's hash covers besides the previous hash: compact JSON of
// [seq, at, actor, action, target, result, details] (object keys sorted).
std::string canonicalAuditEntry(const AuditEntry &entry);
// Hex SHA-256 of prevHash + "\n" + canonical.
std::string auditHash(std::string_view prevHash, std::string_view canonical);

// The audit_log table of the state file. Uses the connection it is given (the state file's
// writer for append); the caller's thread only.
class AuditLog final
{
public:
    explicit AuditLog(store::sqlite::Database &db)
        : m_db(db)
    {
    }

    // Appends `entry` (seq, prevHash and hash are filled in) inside the caller's transaction,
    // or its own when there is none.
    [[nodiscard]] Result<AuditEntry> append(AuditEntry entry);
    // Entries in order; only those of `target` when given.
    [[nodiscard]] Result<std::vector<AuditEntry>> entries(
        const std::optional<std::string> &target = {});
    // Walks the whole chain.
    [[nodiscard]] Result<AuditVerification> verify();
    // The entries of `target` and the verification of the whole chain, from one read of the log.
    struct TargetAudit
    {
        std::vector<AuditEntry> entries;
        AuditVerification verification;
    };
    [[nodiscard]] Result<TargetAudit> entriesVerified(const std::string &target);

private:
    static AuditVerification verifyChain(const std::vector<AuditEntry> &all);

    store::sqlite::Database &m_db;
};

nlohmann::json auditEntryJson(const AuditEntry &entry);

} // namespace dra::rollout
