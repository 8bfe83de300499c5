// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <QObject>

#include <nlohmann/json.hpp>

#include "core/common/clock.h"
#include "core/rollout/cluster_port.h"
#include "core/rollout/mutation.h"
#include "core/rollout/rollout_plan.h"

namespace dra::rollout {

// What carrying out one mutation came to.
struct MutationOutcome
{
    enum class Result {
        Applied, // the cluster changed
        Unchanged, // it already was as the mutation wants (a replay, or nothing to delete)
        Denied, // the access review said no; nothing was sent
        Failed, // the server refused, the object to change is missing, or a wait timed out
    };
    Mutation mutation;
    Result result = Result::Failed;
    std::string diff; // the preview: live object against the server's dry-run result
    std::string error; // for Denied and Failed: which object and why
    int64_t startedAt = 0, finishedAt = 0;

    bool ok() const { return result == Result::Applied || result == Result::Unchanged; }
};

const char *outcomeName(
    MutationOutcome::Result result); // "applied", "unchanged", "denied", "failed"
nlohmann::json mutationOutcomeJson(const MutationOutcome &outcome);

struct ExecutorOptions
{
    int64_t readyTimeoutMs = 5 * 60'000; // a scaled Deployment must be Ready within this
    int64_t readyPollMs = 2'000;
    int httpTimeoutMs = 5'000;
};

// Carries out one rollout::Mutation against the cluster, the same way every time: build the
// object from the plan and the live objects, a SelfSubjectAccessReview for the verb it needs,
// a server-side dry run and its diff against the live object (the preview), then the real
// request, unless the dry run changes nothing (so replaying a mutation is a no-op). After a
// scale it waits for the Deployment to settle, within the timeout. Thread of its parent; the
// plan, cluster and clock must outlive it.
class MutationExecutor final : public QObject
{
    Q_OBJECT
public:
    MutationExecutor(const RolloutPlan &plan, ClusterPort &cluster, common::Clock &clock,
        ExecutorOptions options = {}, QObject *parent = nullptr);

    using Done = std::function<void(MutationOutcome)>;
    // Runs `mutation`; `done` gets its outcome (possibly before run() returns). Not called back
    // once the executor is destroyed.
    void run(const Mutation &mutation, Done done);

private:
    struct Run;
    void applyObject(std::shared_ptr<Run> run, model::Kind kind, nlohmann::json desired);
    void scale(std::shared_ptr<Run> run);
    void removeObject(std::shared_ptr<Run> run, model::Kind kind);
    void changeRoute(std::shared_ptr<Run> run);
    void createCanary(std::shared_ptr<Run> run);
    void createCanaryService(std::shared_ptr<Run> run);
    void waitSettled(std::shared_ptr<Run> run, int64_t deadline);
    void finish(std::shared_ptr<Run> run, MutationOutcome::Result result, std::string error = {});

    const RolloutPlan &m_plan;
    ClusterPort &m_cluster;
    common::Clock &m_clock;
    ExecutorOptions m_options;
};

} // namespace dra::rollout
