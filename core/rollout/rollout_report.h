// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The evidence bundle of one rollout: its plan, the stages as a timeline, each gate with the
// evidence that decided it, every mutation with its preview, and the audit log with the
// verification of its hash chain. As JSON for tools, as one self-contained HTML page for people.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rollout/audit_log.h"
#include "core/rollout/rollout_store.h"

namespace dra::rollout {

struct RolloutReportInput
{
    RolloutRecord record;
    std::vector<AuditEntry> audit; // the rollout's entries, in order
    AuditVerification verification; // of the whole log
    int64_t generatedAt = 0;
};

// {"apiVersion","kind":"RolloutReport","rollout","plan","timeline","gates","gateHistory",
//  "mutations","audit":{"entries","verification"},"generatedAt"}.
nlohmann::json rolloutReportJson(const RolloutReportInput &input);

// The same as one HTML document with its styles inline and no external resources.
std::string rolloutReportHtml(const RolloutReportInput &input);

} // namespace dra::rollout
