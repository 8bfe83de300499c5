// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/template_check.h"

#include "core/inventory/device_quota.h"

#include <chrono>
#include <optional>
#include <unordered_set>

#include "core/alloc/allocated_state.h"
#include "core/alloc/simulator.h"
#include "core/cel/dra_selector.h"
#include "core/cel/selector_evaluator.h"
#include "core/inventory/device_quota.h"
#include "core/model/manifest_reader.h"

namespace dra::alloc {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Counts the devices request `spec` matches, its selectors compiled as kube-apiserver compiles
// those of a new object in `release`.
void checkRequest(const inventory::Snapshot &snapshot, const release::KubernetesRelease &release,
    const model::DeviceRequestSpec &spec, std::string name, TemplateCheck &check)
{
    TemplateCheck::Request request;
    request.name = std::move(name);
    request.deviceClass = spec.deviceClassName;
    const auto match = snapshot.classMatch(spec.deviceClassName);
    request.classExists = match && match->classExists;
    if (match)
        request.ofClass = int(match->devices.size());
    std::vector<cel::CompiledSelector> selectors;
    for (size_t i = 0; i < spec.selectors.size(); ++i) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> compiled
            = cel::compileSelector(spec.selectors[i].celExpression,
                cel::SelectorOptions { release, /*stored=*/false }, &diagnostics);
        if (!compiled || !compiled->isValid()) {
            const std::string message = !compiled ? compiled.error().message.toStdString()
                : diagnostics.empty()             ? "does not compile"
                                                  : diagnostics.front().message;
            request.selectorErrors.push_back("selectors[" + std::to_string(i) + "]: " + message);
            continue;
        }
        selectors.push_back(std::move(*compiled));
    }
    std::unordered_set<std::string_view> nodes;
    if (match && request.selectorErrors.empty()) {
        // Read by column, devices with the same values on what a selector reads sharing one
        // evaluation, as the Devices page sweeps: this runs on every keystroke.
        std::vector<cel::SelectorEvaluator> evaluators;
        evaluators.reserve(selectors.size());
        for (const auto &selector : selectors)
            evaluators.emplace_back(selector);
        const cel::DeviceTable &table = snapshot.deviceTable();
        const std::vector<const inventory::Device *> &all = snapshot.devices();
        size_t index = 0; // of `device` in the table: the class's devices keep its order
        for (const inventory::Device *device : match->devices) {
            while (index < all.size() && all[index] != device)
                ++index;
            bool matches = true;
            for (auto &evaluator : evaluators) {
                const cel::SelectorResult &result = index < all.size()
                    ? evaluator.evaluate(table, index)
                    : evaluator.evaluate(device->view);
                if (result.outcome != cel::SelectorResult::Outcome::Match) {
                    matches = false;
                    break;
                }
            }
            if (matches) {
                ++request.matching;
                nodes.insert(device->node);
            }
        }
    }
    request.nodes = int(nodes.size());
    check.requests.push_back(std::move(request));
}

const model::ResourceClaimSpec &claimSpec(const model::Object &object)
{
    if (const auto *tmpl = object.as<model::ResourceClaimTemplate>())
        return tmpl->spec;
    return object.as<model::ResourceClaim>()->spec;
}

// The object the text holds, or the reason in check.error.
std::optional<model::Object> readClaim(std::string_view text, TemplateCheck &check)
{
    const model::ManifestSet manifests = model::readManifestText(text, QStringLiteral("editor"));
    if (!manifests.problems.empty()) {
        check.error = manifests.problems.front().message().toStdString();
        return std::nullopt;
    }
    if (manifests.documents.empty()) {
        check.error = "the editor holds no object yet";
        return std::nullopt;
    }
    Result<model::Object> object = model::decodeObject(manifests.documents.front().object);
    if (!object) {
        check.error = object.error().message.toStdString();
        return std::nullopt;
    }
    return std::move(*object);
}

// Counts matches of `object` in `release` into `check` (timed); false, with check.error, when
// the object is not a claim.
bool matchObject(const inventory::Snapshot &snapshot, const release::KubernetesRelease &release,
    const model::Object &object, TemplateCheck &check)
{
    const Clock::time_point start = Clock::now();
    if (!object.as<model::ResourceClaimTemplate>() && !object.as<model::ResourceClaim>()) {
        check.error = "expected a ResourceClaimTemplate or a ResourceClaim, not a "
            + std::string(object.info().name);
        return false;
    }
    check.kind = object.info().name;
    check.ns = object.meta.ns.empty() ? "default" : object.meta.ns;
    check.name = object.meta.name;
    for (const auto &request : claimSpec(object).requests) {
        if (request.exactly)
            checkRequest(snapshot, release, *request.exactly, request.name, check);
        for (const auto &sub : request.firstAvailable)
            checkRequest(snapshot, release, sub, request.name + "/" + sub.name, check);
    }
    for (const inventory::QuotaExcess &excess : inventory::quotaExcess(
             snapshot, check.ns, inventory::claimQuotaUsage(claimSpec(object), snapshot)))
        check.overQuota.push_back(excess.message);
    check.matchMs += msSince(start);
    return true;
}

// Where copies of the matched `object` fit in `cluster`, into `check` (timed).
void simulate(const model::Object &object, const SimulationCluster &cluster, int maxCopies,
    TemplateCheck &check)
{
    const Clock::time_point start = Clock::now();
    const AllocatedState state = AllocatedState::fromClaims(*cluster.cluster);
    const ClaimToAllocate claim { check.ns, check.name.empty() ? "claim" : check.name,
        claimSpec(object) };
    SimulationOptions options;
    options.maxExplainedNodes = 8;
    const FitAnalysis fit
        = analyzeFit(*cluster.cluster, cluster.release, state, claim, maxCopies, options);
    check.simulated = true;
    check.kubernetesMinor = cluster.release.minor;
    check.release = cluster.release.text();
    check.nodesWhereOneFits = fit.nodesWhereOneFits;
    check.copiesThatFit = fit.copiesThatFit;
    check.capped = fit.capped;
    for (const auto &[node, copies] : fit.copiesPerNode)
        if (check.firstPlacementNode.empty() && copies > 0)
            check.firstPlacementNode = node;
    check.blocked = !fit.nextCopy.error.empty() ? fit.nextCopy.error : fit.nextCopy.summary;
    if (fit.copiesThatFit == 0 && !fit.nextCopy.error.empty()) {
        // Not even one copy: the refusal of the claim itself, worded as `dractl simulate` words
        // it (naming the claim, not its first copy).
        SimulationOptions quiet = options;
        quiet.explain = false;
        Simulator simulator(*cluster.cluster, cluster.release, state);
        const Placement alone = simulator.place({ claim }, quiet);
        if (!alone.allocated && !alone.error.empty())
            check.blocked = alone.error;
    }
    for (const auto &node : fit.nextCopy.explanation)
        check.explanation.push_back(node.node + ": " + node.reason);
    check.simulationMs = msSince(start);
}

} // namespace

std::vector<std::string> TemplateCheck::findings() const
{
    std::vector<std::string> out;
    if (!error.empty())
        return out;
    for (const Request &request : requests) {
        if (!request.classExists)
            out.push_back("request " + request.name + ": DeviceClass " + request.deviceClass
                + " does not exist");
        for (const std::string &selectorError : request.selectorErrors)
            out.push_back("request " + request.name + ": " + selectorError);
    }
    out.insert(out.end(), overQuota.begin(), overQuota.end());
    if (simulated && copiesThatFit == 0)
        out.push_back("cannot be allocated: " + blocked);
    else if (!simulated && !blocked.empty())
        out.push_back("not simulated: " + blocked);
    return out;
}

TemplateCheck matchTemplate(const inventory::Snapshot &snapshot, std::string_view text,
    const release::ChosenRelease &release)
{
    TemplateCheck check;
    const Clock::time_point start = Clock::now();
    if (const std::optional<model::Object> object = readClaim(text, check)) {
        if (matchObject(snapshot, release, *object, check)) {
            check.kubernetesMinor = release.minor;
            check.release = release.text();
        }
    }
    check.matchMs = msSince(start);
    return check;
}

TemplateCheck matchTemplate(const inventory::Snapshot &snapshot, std::string_view text)
{
    return matchTemplate(snapshot, text, release::recordedRelease(snapshot.kubernetesVersion()));
}

TemplateCheck checkTemplate(const inventory::SnapshotPtr &snapshot, std::string_view text,
    SimulationClusterCache &clusters, const release::ChosenRelease &release, int maxCopies)
{
    TemplateCheck check;
    const Clock::time_point start = Clock::now();
    const std::optional<model::Object> object = readClaim(text, check);
    if (!object || !matchObject(*snapshot, release, *object, check))
        return check;
    check.kubernetesMinor = release.minor;
    check.release = release.text();
    check.matchMs = msSince(start);
    Result<SimulationCluster> cluster = clusters.of(snapshot, release);
    if (!cluster) {
        check.blocked = cluster.error().message.toStdString();
        return check;
    }
    simulate(*object, *cluster, maxCopies, check);
    return check;
}

TemplateCheck checkClaimObject(const inventory::Snapshot &snapshot, const model::Object &object,
    const SimulationCluster &cluster, int maxCopies)
{
    TemplateCheck check;
    if (matchObject(snapshot, cluster.release, object, check))
        simulate(object, cluster, maxCopies, check);
    return check;
}

} // namespace dra::alloc
