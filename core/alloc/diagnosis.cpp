// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/diagnosis.h"

#include <set>

#include "core/alloc/simulation_json.h"
#include "core/common/json_text.h"

namespace dra::alloc {

namespace {

using common::Error;
using common::qs;
using Status = DiagnosisStep::Status;

const char *kClaimCreator = "resource claim controller (kube-controller-manager) and admission";
const char *kScheduler
    = "kube-scheduler (DRA allocation: DeviceClasses, ResourceSlices, selectors)";
const char *kKubelet = "kubelet and the DRA driver (NodePrepareResources, CDI)";
const char *kApplication = "the application (containers and readiness probes)";

std::vector<std::string> eventsAbout(
    const Cluster &cluster, const std::string &kind, const std::string &ns, const std::string &name)
{
    std::vector<std::string> out;
    for (const model::Object *object : cluster.objectsOf(model::Kind::Event)) {
        const auto *event = object->as<model::Event>();
        if (!event || event->involvedObject.kind != kind || event->involvedObject.name != name)
            continue;
        if (!event->involvedObject.ns.empty() && event->involvedObject.ns != ns)
            continue;
        std::string line = event->reason + ": " + event->message;
        if (event->count > 1)
            line += " (x" + std::to_string(event->count) + ")";
        out.push_back(std::move(line));
    }
    return out;
}

const model::ResourceClaim *claimAt(
    const Cluster &cluster, const std::string &ns, const std::string &name)
{
    const model::Object *object = cluster.findObject(model::Kind::ResourceClaim, ns, name);
    return object ? object->as<model::ResourceClaim>() : nullptr;
}

// The node an allocation's node selector names, when it names exactly one.
std::string allocatedNode(const model::AllocationResult &allocation)
{
    const nlohmann::json &selector = allocation.nodeSelector;
    if (!selector.is_object())
        return {};
    const auto terms = selector.find("nodeSelectorTerms");
    if (terms == selector.end() || !terms->is_array() || terms->size() != 1)
        return {};
    const nlohmann::json &fields = (*terms)[0].value("matchFields", nlohmann::json::array());
    if (fields.size() == 1 && fields[0].value("key", "") == "metadata.name"
        && fields[0].contains("values") && fields[0]["values"].size() == 1)
        return fields[0]["values"][0].get<std::string>();
    return {};
}

std::string joined(const std::vector<std::string> &items)
{
    std::string out;
    for (const std::string &item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

// Simulates allocating `claims` (not allocated yet) together, as the scheduler will try.
DiagnosisStep allocationStep(const Cluster &cluster, const release::KubernetesRelease &release,
    const std::vector<ClaimToAllocate> &claims, const std::vector<nlohmann::json> &pinned,
    const SimulationOptions &options, std::optional<Placement> *simulation)
{
    DiagnosisStep step { "claims allocated", Status::Failed, kScheduler, {}, {} };
    std::set<std::string> exclude;
    std::vector<std::string> names;
    for (const ClaimToAllocate &claim : claims) {
        exclude.insert(claim.ref());
        names.push_back(claim.ref());
    }
    Simulator simulator(cluster, release, AllocatedState::fromClaims(cluster, exclude));
    SimulationOptions simulate = options;
    simulate.requiredNodeSelectors = pinned;
    Placement placement = simulator.place(claims, simulate);
    if (placement.allocated) {
        step.status = Status::Waiting;
        step.detail = "not allocated yet (" + joined(names)
            + "); the simulation finds they fit on node "
            + cluster.nodes()[size_t(placement.node)].name
            + ", so kube-scheduler should allocate them on its next attempt";
    } else if (!placement.error.empty()) {
        step.detail = "not allocated (" + joined(names)
            + "): Kubernetes' allocator reports an error: " + placement.error;
    } else {
        step.detail = "not allocated (" + joined(names) + "): " + placement.summary;
        if (!placement.explanation.empty())
            step.detail += " Closest: " + placement.explanation.front().node + ": "
                + placement.explanation.front().reason + ".";
    }
    *simulation = std::move(placement);
    return step;
}

void finish(Diagnosis &diagnosis)
{
    for (const DiagnosisStep &step : diagnosis.steps)
        if (step.status == Status::Failed || step.status == Status::Waiting) {
            diagnosis.verdict
                = "Stuck at \"" + step.name + "\" (owner: " + step.owner + "): " + step.detail;
            return;
        }
    if (diagnosis.verdict.empty())
        diagnosis.verdict = "Nothing is stuck.";
}

} // namespace

const char *statusName(Status status)
{
    switch (status) {
    case Status::Ok:
        return "ok";
    case Status::Failed:
        return "failed";
    case Status::Waiting:
        return "waiting";
    case Status::Skipped:
        return "skipped";
    }
    return "";
}

Result<Diagnosis> diagnosePod(const Cluster &cluster, const release::KubernetesRelease &release,
    const std::string &ns, const std::string &name, const SimulationOptions &options)
{
    const model::Object *object = cluster.findObject(model::Kind::Pod, ns, name);
    if (!object)
        return dra::fail(
            Error::Code::NotFound, QStringLiteral("pod %1/%2 not found").arg(qs(ns), qs(name)));
    const model::Pod &pod = *object->as<model::Pod>();
    Diagnosis d;
    d.subject = "Pod " + objectRef(ns, name);
    const std::vector<std::string> podEvents = eventsAbout(cluster, "Pod", ns, name);

    // 1. Claims created.
    DiagnosisStep created { "claims created", Status::Ok, kClaimCreator, {}, {} };
    std::vector<std::pair<std::string, const model::ResourceClaim *>> claims;
    std::vector<std::string> problems;
    for (const model::PodResourceClaim &ref : pod.resourceClaims) {
        std::string claimName = ref.resourceClaimName;
        if (claimName.empty()) {
            for (const model::PodResourceClaimStatus &status : pod.resourceClaimStatuses)
                if (status.name == ref.name)
                    claimName = status.resourceClaimName;
            if (claimName.empty()) {
                if (!cluster.findObject(
                        model::Kind::ResourceClaimTemplate, ns, ref.resourceClaimTemplateName))
                    problems.push_back("ResourceClaimTemplate "
                        + objectRef(ns, ref.resourceClaimTemplateName)
                        + " does not exist, so no claim \"" + ref.name + "\" can be created");
                else
                    problems.push_back("the claim \"" + ref.name + "\" from template "
                        + ref.resourceClaimTemplateName + " has not been created yet");
                continue;
            }
        }
        const model::ResourceClaim *claim = claimAt(cluster, ns, claimName);
        if (!claim) {
            problems.push_back("ResourceClaim " + objectRef(ns, claimName) + " does not exist"
                + (ref.resourceClaimName.empty()
                        ? ""
                        : " (a claim named by the pod is created by its user)"));
            continue;
        }
        claims.emplace_back(claimName, claim);
    }
    for (const std::string &event : podEvents)
        if (event.find("ResourceClaim") != std::string::npos
            && event.find("FailedScheduling") == std::string::npos)
            created.events.push_back(event);
    if (pod.resourceClaims.empty()) {
        created.status = Status::Skipped;
        created.detail = "the pod uses no resource claims";
    } else if (!problems.empty()) {
        created.status = Status::Failed;
        created.detail = joined(problems);
    } else {
        created.detail = "all " + std::to_string(claims.size()) + " claims exist";
    }
    d.steps.push_back(created);

    // 2. Claims allocated.
    const bool claimsExist = created.status != Status::Failed;
    if (!claimsExist) {
        d.steps.push_back({ "claims allocated", Status::Skipped, kScheduler,
            "waits for the claims to exist", {} });
    } else if (!claims.empty()) {
        std::vector<ClaimToAllocate> pending;
        std::vector<nlohmann::json> pinned;
        std::vector<std::string> nodes;
        for (const auto &[claimName, claim] : claims) {
            if (claim->allocation) {
                pinned.push_back(claim->allocation->nodeSelector);
                if (const std::string node = allocatedNode(*claim->allocation); !node.empty())
                    nodes.push_back(node);
            } else {
                pending.push_back({ ns, claimName, claim->spec });
            }
        }
        if (pending.empty()) {
            d.steps.push_back({ "claims allocated", Status::Ok, kScheduler,
                "all claims are allocated"
                    + (nodes.empty() ? std::string() : " (node " + joined(nodes) + ")"),
                {} });
        } else {
            DiagnosisStep step
                = allocationStep(cluster, release, pending, pinned, options, &d.simulation);
            for (const std::string &event : podEvents)
                if (event.rfind("FailedScheduling", 0) == 0)
                    step.events.push_back(event);
            d.steps.push_back(std::move(step));
        }
    }

    // 3. Bound to a node.
    DiagnosisStep bound { "pod bound", Status::Ok, "kube-scheduler", {}, {} };
    if (pod.nodeName.empty()) {
        const bool blockedEarlier = d.steps.back().status == Status::Failed
            || d.steps.back().status == Status::Waiting || created.status == Status::Failed;
        bound.status = blockedEarlier ? Status::Skipped : Status::Failed;
        for (const model::NodeCondition &condition : pod.conditions)
            if (condition.type == "PodScheduled" && condition.status == "False")
                bound.detail = "not scheduled: "
                    + (condition.message.empty() ? condition.reason : condition.message);
        if (bound.detail.empty())
            bound.detail = "not bound to a node yet";
        if (blockedEarlier)
            bound.detail += " (waits for the claims)";
        for (const std::string &event : podEvents)
            if (event.rfind("FailedScheduling", 0) == 0)
                bound.events.push_back(event);
    } else {
        bound.detail = "bound to node " + pod.nodeName;
    }
    d.steps.push_back(bound);

    // 4. Running.
    DiagnosisStep running { "pod running", Status::Ok, kKubelet, {}, {} };
    if (pod.nodeName.empty()) {
        running.status = Status::Skipped;
        running.detail = "not on a node yet";
    } else if (pod.phase == "Running" || pod.phase == "Succeeded") {
        running.detail = "phase " + pod.phase;
    } else {
        running.status = pod.phase == "Failed" ? Status::Failed : Status::Waiting;
        if (pod.phase == "Failed")
            running.owner = kApplication;
        running.detail = "phase " + (pod.phase.empty() ? std::string("unknown") : pod.phase)
            + " on node " + pod.nodeName
            + "; the kubelet asks the DRA drivers to prepare the devices before starting "
              "containers";
        for (const std::string &event : podEvents)
            if (event.rfind("FailedScheduling", 0) != 0)
                running.events.push_back(event);
    }
    d.steps.push_back(running);

    // 5. Ready.
    DiagnosisStep ready { "pod ready", Status::Ok, kApplication, {}, {} };
    if (running.status != Status::Ok) {
        ready.status = Status::Skipped;
        ready.detail = "not running";
    } else if (!pod.ready()) {
        ready.status = Status::Failed;
        ready.detail = "running but not ready: the containers or their readiness probes";
    } else {
        ready.detail = "ready";
    }
    d.steps.push_back(ready);
    finish(d);
    if (d.verdict == "Nothing is stuck.")
        d.verdict = "Running and ready on node " + pod.nodeName + ".";
    return d;
}

Result<Diagnosis> diagnoseClaim(const Cluster &cluster, const release::KubernetesRelease &release,
    const std::string &ns, const std::string &name, const SimulationOptions &options)
{
    const model::Object *object = cluster.findObject(model::Kind::ResourceClaim, ns, name);
    if (!object)
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("resourceclaim %1/%2 not found").arg(qs(ns), qs(name)));
    const model::ResourceClaim &claim = *object->as<model::ResourceClaim>();
    Diagnosis d;
    d.subject = "ResourceClaim " + objectRef(ns, name);
    std::string creator = "created by its user";
    for (const model::OwnerReference &owner : object->meta.ownerReferences)
        if (owner.controller)
            creator = "created for " + owner.kind + " " + owner.name + " from a template";
    d.steps.push_back({ "claim created", Status::Ok, kClaimCreator, creator, {} });

    if (claim.allocation) {
        const std::string node = allocatedNode(*claim.allocation);
        d.steps.push_back({ "claim allocated", Status::Ok, kScheduler,
            "allocated " + std::to_string(claim.allocation->results.size()) + " device(s)"
                + (node.empty() ? std::string() : " on node " + node),
            eventsAbout(cluster, "ResourceClaim", ns, name) });
    } else {
        DiagnosisStep step = allocationStep(
            cluster, release, { { ns, name, claim.spec } }, {}, options, &d.simulation);
        step.name = "claim allocated";
        step.events = eventsAbout(cluster, "ResourceClaim", ns, name);
        d.steps.push_back(std::move(step));
    }

    // Which pods use the claim, and how they are doing.
    std::vector<std::string> users;
    for (const model::Object *podObject : cluster.objectsOf(model::Kind::Pod)) {
        if (podObject->meta.ns != ns)
            continue;
        const model::Pod &pod = *podObject->as<model::Pod>();
        bool uses = false;
        for (const model::PodResourceClaim &ref : pod.resourceClaims)
            uses = uses || ref.resourceClaimName == name;
        for (const model::PodResourceClaimStatus &status : pod.resourceClaimStatuses)
            uses = uses || status.resourceClaimName == name;
        if (!uses)
            continue;
        std::string state
            = pod.nodeName.empty() ? "Pending, not bound" : pod.phase + " on " + pod.nodeName;
        if (pod.phase == "Running")
            state += pod.ready() ? ", ready" : ", not ready";
        users.push_back(podObject->meta.name + " (" + state + ")");
    }
    DiagnosisStep reserved { "reserved for pods", Status::Ok,
        "kube-scheduler (reservedFor) and the claim's users", {}, {} };
    std::vector<std::string> reservedFor;
    for (const model::ResourceClaimConsumerReference &consumer : claim.reservedFor)
        reservedFor.push_back(consumer.resource + "/" + consumer.name);
    if (!claim.allocation) {
        reserved.status = Status::Skipped;
        reserved.detail = users.empty() ? "no pod uses the claim"
                                        : "used by " + joined(users) + "; waits for the allocation";
    } else if (reservedFor.empty()) {
        reserved.status = users.empty() ? Status::Failed : Status::Waiting;
        reserved.detail = users.empty()
            ? "allocated but reserved for no pod and used by none: its devices are held for nothing"
            : "allocated, not reserved yet; used by " + joined(users);
    } else {
        reserved.detail = "reserved for " + joined(reservedFor)
            + (users.empty() ? "" : "; pods: " + joined(users));
    }
    d.steps.push_back(reserved);
    finish(d);
    return d;
}

nlohmann::json diagnosisJson(const Diagnosis &diagnosis)
{
    nlohmann::json steps = nlohmann::json::array();
    for (const DiagnosisStep &step : diagnosis.steps) {
        nlohmann::json entry = { { "step", step.name }, { "status", statusName(step.status) },
            { "owner", step.owner }, { "detail", step.detail } };
        if (!step.events.empty())
            entry["events"] = step.events;
        steps.push_back(std::move(entry));
    }
    nlohmann::json out = { { "subject", diagnosis.subject }, { "verdict", diagnosis.verdict },
        { "steps", steps } };
    if (diagnosis.simulation) {
        const Placement &p = *diagnosis.simulation;
        nlohmann::json simulation = { { "allocated", p.allocated } };
        if (!p.error.empty())
            simulation["error"] = p.error;
        if (!p.summary.empty())
            simulation["summary"] = p.summary;
        nlohmann::json explanation = nlohmann::json::array();
        for (const NodeExplanation &e : p.explanation)
            explanation.push_back(explanationJson(e));
        if (!explanation.empty())
            simulation["explanation"] = explanation;
        out["simulation"] = simulation;
    }
    return out;
}

} // namespace dra::alloc
