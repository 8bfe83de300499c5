// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/pod_scheduler.h"

#include <algorithm>
#include <chrono>

#include "core/sandbox/claim_placement.h"
#include "core/sandbox/controller_support.h"
#include "core/sandbox/node_fit.h"
#include "core/sandbox/pod_claims.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

constexpr const char *kSchedulerName = "default-scheduler";

bool olderPodFirst(const json &a, const json &b)
{
    const std::string ta = metaText(a, "creationTimestamp"), tb = metaText(b, "creationTimestamp");
    return ta != tb ? ta < tb : metaText(a, "name") < metaText(b, "name");
}

void reserveFor(json &claim, const json &pod)
{
    json &reservedFor = claim["status"]["reservedFor"];
    if (!reservedFor.is_array())
        reservedFor = json::array();
    const std::string uid = metaText(pod, "uid");
    for (const json &entry : reservedFor) {
        if (entry.value("uid", "") == uid)
            return;
    }
    reservedFor.push_back(
        { { "resource", "pods" }, { "name", metaText(pod, "name") }, { "uid", uid } });
}

} // namespace

void PodScheduler::reconcile(ControlPass &pass)
{
    std::vector<json> pending;
    for (json &pod : pass.view.all(model::Kind::Pod)) {
        if (textAt(pod, "/spec/nodeName").empty()
            && textAt(pod, "/metadata/deletionTimestamp").empty()
            && textAt(pod, "/status/phase") != "Succeeded"
            && textAt(pod, "/status/phase") != "Failed")
            pending.push_back(std::move(pod));
    }
    if (pending.empty())
        return;
    std::sort(pending.begin(), pending.end(), olderPodFirst);
    ClaimPlacement placement(pass.view);
    for (json &pod : pending) {
        if (const auto failed = m_backoff.find(metaText(pod, "uid")); failed != m_backoff.end()
            && pass.nowMs - failed->second.lastFailureMs < failed->second.delayMs) {
            pass.wakeAt(failed->second.lastFailureMs + failed->second.delayMs);
            continue;
        }
        const auto attemptStart = std::chrono::steady_clock::now();
        const auto attemptMs = [&] {
            return int64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - attemptStart)
                               .count());
        };
        PodClaims claims = ensurePodClaims(pass, pod);
        pass.view.put(pod); // the claim statuses just recorded
        if (!claims.problem.empty()) {
            unschedulable(pass, pod,
                "0/" + std::to_string(pass.view.all(model::Kind::Node).size())
                    + " nodes are available: " + claims.problem + ".");
            continue;
        }
        if (!claims.claims.empty() && pass.faultHits(FaultKind::AllocationHangs, pod))
            continue; // the driver never answers: nothing is written, nothing reported
        const NodeFit fit = fitNodes(pass.view, pod);
        if (fit.nodes.empty()) {
            unschedulable(pass, pod, fit.summary, attemptMs());
            continue;
        }
        if (!claims.claims.empty() && pass.faultHits(FaultKind::AllocationFails, pod)) {
            unschedulable(pass, pod,
                "0/" + std::to_string(fit.nodeCount)
                    + " nodes are available: " + std::to_string(fit.nodes.size())
                    + " cannot allocate all claims (injected fault allocation-fails: the DRA "
                      "driver rejected the allocation).");
            continue;
        }
        const ClaimPlacement::Outcome outcome = placement.place(claims.claims, fit.nodes);
        if (!outcome.placed) {
            unschedulable(pass, pod, outcome.message, attemptMs());
            continue;
        }
        for (size_t i = 0; i < claims.claims.size(); ++i) {
            json &claim = claims.claims[i];
            if (!outcome.allocations[i].is_null())
                claim["status"]["allocation"] = outcome.allocations[i];
            reserveFor(claim, pod);
            pass.view.put(claim);
        }
        pod["spec"]["nodeName"] = outcome.node;
        setCondition(pod["status"], "PodScheduled", true, {}, {}, pass.now());
        pass.view.put(pod);
        m_lastFailureEventMs.erase(metaText(pod, "uid"));
        m_backoff.erase(metaText(pod, "uid"));
        pass.recordEvent(pod, false, "Scheduled",
            "Successfully assigned " + metaText(pod, "namespace") + '/' + metaText(pod, "name")
                + " to " + outcome.node,
            kSchedulerName);
    }
}

int64_t PodScheduler::retryDelayMs(std::optional<int64_t> previousDelayMs, int64_t attemptMs)
{
    const int64_t backoffMs
        = previousDelayMs ? std::min(*previousDelayMs * 2, kMaxRetryMs) : kRetryMs;
    return std::max(backoffMs, kRetryCostFactor * attemptMs);
}

void PodScheduler::unschedulable(
    ControlPass &pass, json &pod, const std::string &message, int64_t attemptMs)
{
    const json *before = findCondition(pod, "PodScheduled");
    const bool sameMessage = before && before->value("message", "") == message
        && before->value("status", "") == "False";
    setCondition(pod["status"], "PodScheduled", false, "Unschedulable", message, pass.now());
    pass.view.put(pod);
    const std::string uid = metaText(pod, "uid");
    const auto known = m_backoff.find(uid);
    m_backoff[uid] = { pass.nowMs,
        retryDelayMs(
            known == m_backoff.end() ? std::nullopt : std::optional<int64_t>(known->second.delayMs),
            attemptMs) };
    const auto last = m_lastFailureEventMs.find(uid);
    const bool due
        = last == m_lastFailureEventMs.end() || pass.nowMs - last->second >= kEventRepeatMs;
    if (sameMessage && !due)
        return;
    m_lastFailureEventMs[uid] = pass.nowMs;
    pass.recordEvent(pod, true, "FailedScheduling", message, kSchedulerName);
}

} // namespace dra::sandbox
