// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/mutation_executor.h"

#include "core/common/duration.h"
#include "core/kube/apply_diff.h"
#include "core/rollout/deployment_readiness.h"
#include "core/rollout/mutation_manifests.h"

namespace dra::rollout {

using model::Kind;
using nlohmann::json;
using MK = Mutation::Kind;

struct MutationExecutor::Run
{
    MutationOutcome outcome;
    Done done;
    std::string label; // "Deployment inference/llm-server-dra"
};

namespace {

std::string objectLabel(Kind kind, const std::string &ns, const std::string &name)
{
    return std::string(model::kindInfo(kind).name) + " " + (ns.empty() ? name : ns + "/" + name);
}

std::string errorText(const common::Error &error)
{
    return error.message.toStdString();
}

} // namespace

const char *outcomeName(MutationOutcome::Result result)
{
    switch (result) {
    case MutationOutcome::Result::Applied:
        return "applied";
    case MutationOutcome::Result::Unchanged:
        return "unchanged";
    case MutationOutcome::Result::Denied:
        return "denied";
    case MutationOutcome::Result::Failed:
        return "failed";
    }
    return "?";
}

json mutationOutcomeJson(const MutationOutcome &outcome)
{
    json result { { "mutation", mutationJson(outcome.mutation) },
        { "result", outcomeName(outcome.result) }, { "startedAt", outcome.startedAt },
        { "finishedAt", outcome.finishedAt } };
    if (!outcome.diff.empty())
        result["diff"] = outcome.diff;
    if (!outcome.error.empty())
        result["error"] = outcome.error;
    return result;
}

MutationExecutor::MutationExecutor(const RolloutPlan &plan, ClusterPort &cluster,
    common::Clock &clock, ExecutorOptions options, QObject *parent)
    : QObject(parent)
    , m_plan(plan)
    , m_cluster(cluster)
    , m_clock(clock)
    , m_options(options)
{
}

void MutationExecutor::finish(
    std::shared_ptr<Run> run, MutationOutcome::Result result, std::string error)
{
    run->outcome.result = result;
    run->outcome.error = std::move(error);
    run->outcome.finishedAt = m_clock.nowMs();
    Done done = std::move(run->done);
    if (done)
        done(std::move(run->outcome));
}

void MutationExecutor::run(const Mutation &mutation, Done done)
{
    auto run = std::make_shared<Run>();
    run->outcome.mutation = mutation;
    run->outcome.startedAt = m_clock.nowMs();
    run->done = std::move(done);
    switch (mutation.kind) {
    case MK::CreateClaimTemplate:
        return applyObject(run, Kind::ResourceClaimTemplate, claimTemplateManifest(m_plan));
    case MK::CreateCanaryDeployment:
        return createCanary(run);
    case MK::CreateCanaryService:
        return createCanaryService(run);
    case MK::CreateNegativeControlClaim:
        return applyObject(
            run, Kind::ResourceClaim, negativeControlClaimManifest(m_plan, mutation.name));
    case MK::ScaleDeployment:
        return scale(run);
    case MK::SetRouteWeights:
    case MK::SetRequestMirror:
    case MK::RemoveRequestMirror:
        return changeRoute(run);
    case MK::DeleteClaimTemplate:
        return removeObject(run, Kind::ResourceClaimTemplate);
    case MK::DeleteDeployment:
        return removeObject(run, Kind::Deployment);
    case MK::DeleteService:
        return removeObject(run, Kind::Service);
    case MK::DeleteClaim:
        return removeObject(run, Kind::ResourceClaim);
    case MK::MarkVariantRejected:
        // The state file records it with the transition; the cluster has nothing to do.
        return finish(run, MutationOutcome::Result::Unchanged);
    }
    finish(run, MutationOutcome::Result::Failed, "unknown mutation");
}

void MutationExecutor::applyObject(std::shared_ptr<Run> run, Kind kind, json desired)
{
    const std::string ns = desired["metadata"].value("namespace", std::string());
    const std::string name = desired["metadata"].value("name", std::string());
    run->label = objectLabel(kind, ns, name);
    m_cluster.get(
        kind, ns, name, this, [this, run, kind, ns, desired](Result<std::optional<json>> live) {
            if (!live)
                return finish(run, MutationOutcome::Result::Failed, errorText(live.error()));
            const bool exists = live->has_value();
            // Server-side apply needs patch; creating the object needs create as well.
            const std::string verb = exists ? "patch" : "create";
            m_cluster.reviewAccess(verb, kind, ns, this,
                [this, run, desired, live = *live, verb](Result<bool> allowed) {
                    if (!allowed)
                        return finish(
                            run, MutationOutcome::Result::Failed, errorText(allowed.error()));
                    if (!*allowed)
                        return finish(run, MutationOutcome::Result::Denied,
                            "the access review does not allow you to " + verb + " " + run->label);
                    m_cluster.apply(
                        desired, true, this, [this, run, desired, live](Result<json> preview) {
                            if (!preview)
                                return finish(run, MutationOutcome::Result::Failed,
                                    run->label + ": the server's dry run refused it: "
                                        + errorText(preview.error()));
                            run->outcome.diff
                                = kube::objectDiff(live ? *live : json(), *preview, run->label);
                            if (live && run->outcome.diff.empty())
                                return finish(run, MutationOutcome::Result::Unchanged);
                            m_cluster.apply(
                                desired, false, this, [this, run](Result<json> applied) {
                                    if (!applied)
                                        return finish(run, MutationOutcome::Result::Failed,
                                            run->label + ": " + errorText(applied.error()));
                                    finish(run, MutationOutcome::Result::Applied);
                                });
                        });
                });
        });
}

void MutationExecutor::createCanary(std::shared_ptr<Run> run)
{
    const std::string &ns = m_plan.baseline.ns;
    m_cluster.get(Kind::Deployment, ns, m_plan.baseline.deployment, this,
        [this, run](Result<std::optional<json>> baseline) {
            if (!baseline)
                return finish(run, MutationOutcome::Result::Failed, errorText(baseline.error()));
            if (!*baseline)
                return finish(run, MutationOutcome::Result::Failed,
                    "the baseline Deployment " + m_plan.workloadKey()
                        + " does not exist: no pod template to copy");
            Result<json> canary
                = canaryDeploymentManifest(m_plan, **baseline, run->outcome.mutation.replicas);
            if (!canary)
                return finish(run, MutationOutcome::Result::Failed, errorText(canary.error()));
            applyObject(run, Kind::Deployment, std::move(*canary));
        });
}

void MutationExecutor::createCanaryService(std::shared_ptr<Run> run)
{
    const std::string &ns = m_plan.baseline.ns;
    m_cluster.get(Kind::Service, ns, m_plan.traffic.baselineService, this,
        [this, run, ns](Result<std::optional<json>> baseline) {
            if (!baseline)
                return finish(run, MutationOutcome::Result::Failed, errorText(baseline.error()));
            if (!*baseline)
                return finish(run, MutationOutcome::Result::Failed,
                    "the baseline Service " + ns + "/" + m_plan.traffic.baselineService
                        + " does not exist: no ports to copy for the canary's");
            applyObject(run, Kind::Service, canaryServiceManifest(m_plan, **baseline));
        });
}

void MutationExecutor::scale(std::shared_ptr<Run> run)
{
    const Mutation &m = run->outcome.mutation;
    run->label = objectLabel(Kind::Deployment, m.ns, m.name);
    m_cluster.get(
        Kind::Deployment, m.ns, m.name, this, [this, run](Result<std::optional<json>> live) {
            const Mutation &m = run->outcome.mutation;
            if (!live)
                return finish(run, MutationOutcome::Result::Failed, errorText(live.error()));
            if (!*live)
                return finish(run, MutationOutcome::Result::Failed,
                    run->label + " does not exist: nothing to scale");
            if (workloadStatusOf(*live).replicas == m.replicas)
                return waitSettled(
                    run, m_clock.nowMs() + m_options.readyTimeoutMs); // a replay: only wait
            m_cluster.reviewAccess("patch", Kind::Deployment, m.ns, this,
                [this, run, live = **live](Result<bool> allowed) {
                    const Mutation &m = run->outcome.mutation;
                    if (!allowed)
                        return finish(
                            run, MutationOutcome::Result::Failed, errorText(allowed.error()));
                    if (!*allowed)
                        return finish(run, MutationOutcome::Result::Denied,
                            "the access review does not allow you to patch " + run->label);
                    m_cluster.mergePatch(Kind::Deployment, m.ns, m.name, replicasPatch(m.replicas),
                        true, this, [this, run, live](Result<json> preview) {
                            const Mutation &m = run->outcome.mutation;
                            if (!preview)
                                return finish(run, MutationOutcome::Result::Failed,
                                    run->label + ": the server's dry run refused it: "
                                        + errorText(preview.error()));
                            run->outcome.diff = kube::objectDiff(live, *preview, run->label);
                            m_cluster.mergePatch(Kind::Deployment, m.ns, m.name,
                                replicasPatch(m.replicas), false, this,
                                [this, run](Result<json> applied) {
                                    if (!applied)
                                        return finish(run, MutationOutcome::Result::Failed,
                                            run->label + ": " + errorText(applied.error()));
                                    run->outcome.result = MutationOutcome::Result::Applied;
                                    waitSettled(run, m_clock.nowMs() + m_options.readyTimeoutMs);
                                });
                        });
                });
        });
}

void MutationExecutor::waitSettled(std::shared_ptr<Run> run, int64_t deadline)
{
    const Mutation &m = run->outcome.mutation;
    m_cluster.get(Kind::Deployment, m.ns, m.name, this,
        [this, run, deadline](Result<std::optional<json>> live) {
            const Mutation &m = run->outcome.mutation;
            // The result so far: Applied when this run patched, else the replay changed nothing.
            const MutationOutcome::Result sofar
                = run->outcome.result == MutationOutcome::Result::Applied
                ? MutationOutcome::Result::Applied
                : MutationOutcome::Result::Unchanged;
            if (live && *live && deploymentSettled(**live, m.replicas))
                return finish(run, sofar);
            if (m_clock.nowMs() >= deadline) {
                std::string seen = !live ? errorText(live.error())
                    : !*live             ? std::string("it no longer exists")
                                         : deploymentProgressText(**live);
                return finish(run, MutationOutcome::Result::Failed,
                    run->label + " is not Ready at " + std::to_string(m.replicas)
                        + " replica(s) after " + common::formatDuration(m_options.readyTimeoutMs)
                        + " (" + seen + "); the step stops here");
            }
            m_clock.callLater(m_options.readyPollMs, this,
                [this, run, deadline]() { waitSettled(run, deadline); });
        });
}

void MutationExecutor::changeRoute(std::shared_ptr<Run> run)
{
    const Mutation &m = run->outcome.mutation;
    run->label = objectLabel(Kind::HTTPRoute, m.ns, m.name);
    m_cluster.get(
        Kind::HTTPRoute, m.ns, m.name, this, [this, run](Result<std::optional<json>> live) {
            const Mutation &m = run->outcome.mutation;
            if (!live)
                return finish(run, MutationOutcome::Result::Failed, errorText(live.error()));
            if (!*live)
                return finish(run, MutationOutcome::Result::Failed,
                    run->label + " does not exist: no traffic to steer");
            std::optional<int> baseline, canary, mirror;
            bool removeMirror = false;
            if (m.kind == MK::SetRouteWeights) {
                baseline = m.baselineWeight;
                canary = m.canaryWeight;
            } else if (m.kind == MK::SetRequestMirror) {
                mirror = m.mirrorPercent;
            } else {
                removeMirror = true;
            }
            Result<json> desired
                = routeManifest(m_plan, **live, baseline, canary, mirror, removeMirror);
            if (!desired)
                return finish(run, MutationOutcome::Result::Failed, errorText(desired.error()));
            applyObject(run, Kind::HTTPRoute, std::move(*desired));
        });
}

void MutationExecutor::removeObject(std::shared_ptr<Run> run, Kind kind)
{
    const Mutation &m = run->outcome.mutation;
    run->label = objectLabel(kind, m.ns, m.name);
    m_cluster.get(kind, m.ns, m.name, this, [this, run, kind](Result<std::optional<json>> live) {
        const Mutation &m = run->outcome.mutation;
        if (!live)
            return finish(run, MutationOutcome::Result::Failed, errorText(live.error()));
        if (!*live)
            return finish(run, MutationOutcome::Result::Unchanged); // already gone
        m_cluster.reviewAccess(
            "delete", kind, m.ns, this, [this, run, kind, live = **live](Result<bool> allowed) {
                const Mutation &m = run->outcome.mutation;
                if (!allowed)
                    return finish(run, MutationOutcome::Result::Failed, errorText(allowed.error()));
                if (!*allowed)
                    return finish(run, MutationOutcome::Result::Denied,
                        "the access review does not allow you to delete " + run->label);
                m_cluster.remove(
                    kind, m.ns, m.name, true, this, [this, run, kind, live](Result<bool> preview) {
                        const Mutation &m = run->outcome.mutation;
                        if (!preview)
                            return finish(run, MutationOutcome::Result::Failed,
                                run->label + ": the server's dry run refused it: "
                                    + errorText(preview.error()));
                        run->outcome.diff = kube::objectDiff(live, json(), run->label);
                        m_cluster.remove(
                            kind, m.ns, m.name, false, this, [this, run](Result<bool> removed) {
                                if (!removed)
                                    return finish(run, MutationOutcome::Result::Failed,
                                        run->label + ": " + errorText(removed.error()));
                                finish(run,
                                    *removed ? MutationOutcome::Result::Applied
                                             : MutationOutcome::Result::Unchanged);
                            });
                    });
            });
    });
}

} // namespace dra::rollout
