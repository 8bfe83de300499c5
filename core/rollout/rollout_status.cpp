// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_status.h"

#include "core/rollout/controller_inbox.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/governance.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/rollout_report.h"

namespace dra::rollout {

using nlohmann::json;

json rolloutStatusJson(const RolloutRecord &record, store::StateDb *state, int64_t now)
{
    json document = stateJson(record.state);
    if (state) {
        // Who drives it and which verbs wait for that controller.
        ControllerInbox inbox(*state);
        if (Result<std::optional<ControllerLease>> lease = inbox.lease(record.state.id);
            lease && *lease)
            document["controller"] = { { "owner", (*lease)->owner }, { "pid", (*lease)->pid },
                { "startedAt", (*lease)->startedAt }, { "heartbeatAt", (*lease)->heartbeatAt },
                { "lease", leaseStateName(leaseState(*lease, now)) } };
        json pending = json::array();
        if (Result<std::vector<QueuedCommand>> queued = inbox.pending(record.state.id))
            for (const QueuedCommand &command : *queued)
                pending.push_back({ { "seq", command.seq }, { "createdAt", command.createdAt },
                    { "command", commandJson(command.command) } });
        document["pendingVerbs"] = std::move(pending);
    }
    document["updatedAt"] = record.updatedAt;
    if (const PlanParse parsed = parsePlan(record.planYaml); parsed.plan)
        if (json governance = governanceJson(*parsed.plan, record.state, now);
            !governance.is_null())
            document["governance"] = std::move(governance);
    json verbs = json::array();
    for (Verb verb : RolloutMachine::userVerbs(record.state.stage))
        verbs.push_back(verbName(verb));
    document["verbs"] = std::move(verbs);
    return document;
}

Result<json> rolloutListJson(store::StateDb *state, int64_t now)
{
    json list = json::array();
    if (state) {
        Result<std::vector<RolloutRecord>> records = RolloutStore(*state).list();
        if (!records)
            return dra::fail(records.error());
        for (const RolloutRecord &record : *records)
            list.push_back(rolloutStatusJson(record, state, now));
    }
    return json { { "rollouts", std::move(list) } };
}

Result<std::optional<json>> rolloutDetailJson(
    store::StateDb &state, const std::string &id, int64_t now)
{
    RolloutStore store(state);
    Result<std::optional<RolloutRecord>> record = store.load(id);
    if (!record)
        return dra::fail(record.error());
    if (!*record)
        return std::optional<json>();
    Result<AuditLog::TargetAudit> audit = store.audit().entriesVerified(id);
    if (!audit)
        return dra::fail(audit.error());
    json document = rolloutStatusJson(**record, &state, now);
    json report = rolloutReportJson(
        { **record, std::move(audit->entries), std::move(audit->verification), now });
    document["stageLabel"] = report["rollout"]["stageLabel"];
    for (const char *key :
        { "timeline", "gateHistory", "mutations", "plan", "audit", "baselineFacts" })
        document[key] = std::move(report[key]);
    return std::optional<json>(std::move(document));
}

json auditVerificationJson(const AuditVerification &verification)
{
    json document { { "intact", verification.intact }, { "entries", verification.entries },
        { "headHash", verification.headHash } };
    if (verification.firstBrokenSeq) {
        document["firstBrokenSeq"] = *verification.firstBrokenSeq;
        document["reason"] = verification.reason;
    }
    return document;
}

} // namespace dra::rollout
