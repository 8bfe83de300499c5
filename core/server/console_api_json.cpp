// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_json.h"

#include <map>
#include <set>

#include "core/alloc/diagnosis.h"
#include "core/alloc/simulation_cluster.h"
#include "core/alloc/template_check.h"
#include "core/cel/dra_selector.h"
#include "core/cel/selector_evaluator.h"
#include "core/inventory/device_health.h"
#include "core/inventory/claim_specs.h"
#include "core/inventory/device_quota.h"
#include "core/inventory/lint.h"
#include "core/inventory/overview.h"
#include "core/inventory/selector_sweep.h"
#include "core/inventory/summaries.h"
#include "core/release/feature_gates.h"
#include "core/topology/node_topology.h"
#include "core/topology/topology_layout.h"

namespace dra::server::console {

namespace {

using nlohmann::json;

bool hasErrors(const std::vector<cel::Diagnostic> &diagnostics)
{
    for (const cel::Diagnostic &d : diagnostics)
        if (d.severity == cel::Diagnostic::Severity::Error)
            return true;
    return false;
}

const char *outcomeName(cel::SelectorResult::Outcome outcome)
{
    switch (outcome) {
    case cel::SelectorResult::Outcome::Match:
        return "match";
    case cel::SelectorResult::Outcome::NoMatch:
        return "nomatch";
    case cel::SelectorResult::Outcome::Error:
        return "error";
    }
    return "error";
}

json capacityCounts(const inventory::FreeCapacity &capacity)
{
    return { { "total", capacity.wholeTotal }, { "free", capacity.wholeFree },
        { "allocated", capacity.allocated }, { "blocked", capacity.blocked },
        { "tainted", capacity.tainted } };
}

json categoryJson(const inventory::CategoryCapacity &capacity)
{
    json profiles = json::array();
    for (const inventory::ProfileCapacity &profile : capacity.profiles)
        profiles.push_back({ { "profile", profile.profile }, { "total", profile.total },
            { "free", profile.free }, { "fit", profile.fit } });
    return { { "gpus", capacityCounts(capacity.gpus) },
        { "partitions",
            { { "placements", capacity.partitionPlacements }, { "fit", capacity.partitionsFit },
                { "profiles", profiles } } },
        { "nics", capacityCounts(capacity.nics) }, { "other", capacityCounts(capacity.other) },
        { "devices", capacity.all.devices }, { "models", capacity.models } };
}

json streamsJson(const std::vector<model::StreamRecord> &streams, bool onlyUnhealthy)
{
    json out = json::array();
    for (const model::StreamRecord &stream : streams) {
        const bool healthy
            = stream.state == "watching" || stream.state == "synced" || stream.state == "listing";
        if (onlyUnhealthy && healthy)
            continue;
        out.push_back({ { "group", stream.group }, { "kind", stream.kind },
            { "namespace", stream.ns }, { "state", stream.state }, { "reason", stream.reason },
            { "since", stream.since } });
    }
    return out;
}

json selectorsJson(const std::vector<model::DeviceSelector> &selectors)
{
    json out = json::array();
    for (const model::DeviceSelector &selector : selectors)
        out.push_back(selector.celExpression);
    return out;
}

json requestSpecJson(const model::DeviceRequestSpec &spec)
{
    json out = { { "name", spec.name }, { "deviceClassName", spec.deviceClassName },
        { "allocationMode", spec.allocationMode }, { "count", spec.count },
        { "adminAccess", spec.adminAccess }, { "selectors", selectorsJson(spec.selectors) } };
    if (!spec.capacity.is_null())
        out["capacity"] = spec.capacity;
    if (!spec.tolerations.is_null())
        out["tolerations"] = spec.tolerations;
    return out;
}

json requestsJson(const model::ResourceClaimSpec &spec)
{
    json out = json::array();
    for (const model::DeviceRequest &request : spec.requests) {
        json item = { { "name", request.name } };
        if (request.exactly)
            item["exactly"] = requestSpecJson(*request.exactly);
        json alternatives = json::array();
        for (const model::DeviceRequestSpec &alternative : request.firstAvailable)
            alternatives.push_back(requestSpecJson(alternative));
        if (!alternatives.empty())
            item["firstAvailable"] = std::move(alternatives);
        out.push_back(std::move(item));
    }
    return out;
}

json constraintsJson(const model::ResourceClaimSpec &spec)
{
    json out = json::array();
    for (const model::DeviceConstraint &constraint : spec.constraints)
        out.push_back(
            { { "requests", constraint.requests }, { "matchAttribute", constraint.matchAttribute },
                { "distinctAttribute", constraint.distinctAttribute } });
    return out;
}

json claimSummaryJson(const inventory::ClaimSummary &summary)
{
    const model::Object &object = *summary.claim;
    const model::ResourceClaim *claim = object.as<model::ResourceClaim>();
    json allocation = json::array();
    if (claim && claim->allocation)
        for (const model::DeviceRequestAllocationResult &result : claim->allocation->results)
            allocation.push_back({ { "request", result.request }, { "driver", result.driver },
                { "pool", result.pool }, { "device", result.device },
                { "adminAccess", result.adminAccess } });
    return { { "namespace", object.meta.ns }, { "name", object.meta.name },
        { "state", summary.state }, { "node", summary.node },
        { "requests", claim ? requestsJson(claim->spec) : json::array() },
        { "allocation", std::move(allocation) }, { "reservedFor", summary.pods },
        { "missingPods", summary.missingPods }, { "createdAt", object.meta.creationTimestamp },
        { "deleting", !object.meta.deletionTimestamp.empty() } };
}

json eventsAbout(const inventory::Snapshot &snapshot, std::string_view kind, const std::string &ns,
    const std::string &name)
{
    json out = json::array();
    for (const auto &object : snapshot.objects(model::Kind::Event)) {
        const model::Event *event = object->as<model::Event>();
        if (!event || event->involvedObject.kind != kind || event->involvedObject.name != name
            || event->involvedObject.ns != ns)
            continue;
        out.push_back({ { "type", event->type }, { "reason", event->reason },
            { "message", event->message }, { "count", event->count },
            { "lastTimestamp",
                event->lastTimestamp.empty() ? event->eventTime : event->lastTimestamp } });
    }
    return out;
}

} // namespace

json diagnosticsJson(const std::vector<cel::Diagnostic> &diagnostics)
{
    json out = json::array();
    for (const cel::Diagnostic &d : diagnostics)
        out.push_back(
            { { "severity", d.severity == cel::Diagnostic::Severity::Error ? "error" : "warning" },
                { "line", d.line }, { "column", d.column }, { "message", d.message } });
    return out;
}

CelTarget celTarget(const release::ChosenRelease &release, bool stored)
{
    return { { release, stored }, release.from };
}

CelTarget clusterCelTarget(const std::string &kubernetesVersion)
{
    return celTarget(release::recordedRelease(kubernetesVersion));
}

json celTargetJson(const CelTarget &target)
{
    const cel::SelectorOptions &o = target.options;
    json gates = json::object();
    const std::string text = o.release.gates.toString();
    for (size_t start = 0; start < text.size();) {
        const size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        gates[item.substr(0, item.find('='))] = item.ends_with("=true");
        start = end + 1;
    }
    return { { "kubernetesVersion", o.release.version() }, { "from", target.from },
        { "featureGates", std::move(gates) }, { "stored", o.stored } };
}

json celCheckDocument(std::string_view expression, const CelTarget &target)
{
    std::vector<cel::Diagnostic> diagnostics;
    Result<cel::CompiledSelector> selector
        = cel::compileSelector(std::string(expression), target.options, &diagnostics);
    if (!selector)
        return { { "ok", false }, { "type", nullptr }, { "cost", { { "min", 0 }, { "max", 0 } } },
            { "release", celTargetJson(target) },
            { "diagnostics",
                diagnosticsJson({ { cel::Diagnostic::Severity::Error, 1, 1,
                    selector.error().message.toStdString() } }) } };
    const bool ok = selector->isValid() && !hasErrors(diagnostics);
    const cel::CostEstimate cost = selector->cost();
    json doc { { "ok", ok }, { "type", selector->outputType() },
        { "cost", { { "min", cost.min }, { "max", cost.max } } },
        { "release", celTargetJson(target) }, { "diagnostics", diagnosticsJson(diagnostics) } };
    if (selector->outputType().empty())
        doc["type"] = nullptr;
    return doc;
}

bool celCompiles(const json &document)
{
    for (const json &d : document.value("diagnostics", json::array()))
        if (d.value("severity", "") == "error")
            return false;
    return document.value("ok", true);
}

json celEvalDocument(
    const inventory::Snapshot &snapshot, std::string_view expression, const CelTarget &target)
{
    std::vector<cel::Diagnostic> diagnostics;
    Result<cel::CompiledSelector> selector
        = cel::compileSelector(std::string(expression), target.options, &diagnostics);
    if (!selector || !selector->isValid() || hasErrors(diagnostics)) {
        if (!selector)
            diagnostics.push_back(
                { cel::Diagnostic::Severity::Error, 1, 1, selector.error().message.toStdString() });
        return { { "ok", false }, { "matches", 0 }, { "errors", 0 }, { "devices", json::array() },
            { "release", celTargetJson(target) }, { "diagnostics", diagnosticsJson(diagnostics) } };
    }
    // Names the inventory does not publish ("did you mean"), after the compiler's warnings.
    for (cel::Diagnostic &w : inventory::inventoryWarnings(snapshot, expression))
        diagnostics.push_back(std::move(w));
    int matches = 0, errors = 0;
    json devices = json::array();
    cel::SelectorEvaluator evaluator(*selector);
    for (const inventory::Device *device : snapshot.devices()) {
        const cel::SelectorResult &r = evaluator.evaluate(device->view);
        matches += r.outcome == cel::SelectorResult::Outcome::Match ? 1 : 0;
        errors += r.outcome == cel::SelectorResult::Outcome::Error ? 1 : 0;
        json row { { "node", device->node }, { "driver", device->key.driver },
            { "pool", device->key.pool }, { "device", device->key.device },
            { "result", outcomeName(r.outcome) } };
        if (r.outcome == cel::SelectorResult::Outcome::Error)
            row["error"] = r.error;
        devices.push_back(std::move(row));
    }
    return { { "ok", true }, { "matches", matches }, { "errors", errors },
        { "devices", std::move(devices) }, { "release", celTargetJson(target) },
        { "diagnostics", diagnosticsJson(diagnostics) } };
}

json lintDocument(const inventory::Snapshot &snapshot)
{
    const std::vector<inventory::Finding> findings = inventory::lint(snapshot);
    int counts[3] = { 0, 0, 0 };
    json list = json::array();
    for (const inventory::Finding &finding : findings) {
        ++counts[int(finding.severity)];
        list.push_back(inventory::toJson(finding));
    }
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "findings", std::move(list) },
        { "summary",
            { { "error", counts[int(inventory::Severity::Error)] },
                { "warning", counts[int(inventory::Severity::Warning)] },
                { "info", counts[int(inventory::Severity::Info)] } } } };
}

json freeDocument(const inventory::Snapshot &snapshot, inventory::FreeGrouping grouping)
{
    json list = json::array();
    for (const inventory::FreeCapacity &group : inventory::freeCapacity(snapshot, grouping))
        list.push_back(inventory::toJson(group));
    json document = { { "cluster", snapshot.cluster() },
        { "by", inventory::groupingName(grouping) }, { "groups", std::move(list) } };
    // Classes overlap, so only the other groupings add up to a total.
    if (grouping != inventory::FreeGrouping::Class)
        document["total"]
            = inventory::toJson(inventory::freeCapacityOf(snapshot, "TOTAL", snapshot.devices()));
    return document;
}

json overviewDocument(const ConsoleState &state)
{
    const inventory::Snapshot &snapshot = *state.snapshot;
    const inventory::ClusterOverview overview = inventory::clusterOverview(snapshot);
    json nodes = json::array();
    for (const inventory::NodeOverview &entry : overview.nodes) {
        const inventory::NodeSummary &summary = entry.summary;
        json node = categoryJson(entry.capacity);
        node["name"] = summary.name;
        node["status"] = summary.status;
        node["hasNode"] = summary.node != nullptr;
        node["drivers"] = summary.drivers;
        node["pods"] = summary.pods;
        node["devicePluginGpus"] = summary.devicePluginGpus;
        node["devicePluginOnly"] = entry.devicePluginOnly;
        node["unhealthyDevices"] = entry.unhealthyDevices;
        nodes.push_back(std::move(node));
    }
    json totals = categoryJson(overview.totals);
    totals["nodes"] = nodes.size();
    totals["devicePluginOnlyNodes"] = overview.devicePluginOnlyNodes;
    totals["devicePluginGpus"] = overview.devicePluginGpus;
    totals["claims"] = { { "total", overview.claims }, { "pending", overview.pendingClaims } };
    totals["lint"] = { { "error", overview.lintErrors }, { "warning", overview.lintWarnings },
        { "info", overview.lintInfo } };
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "nodes", std::move(nodes) }, { "totals", std::move(totals) },
        { "streams", streamsJson(state.streams, true) } };
}

json infoDocument(const ConsoleState &state)
{
    const inventory::Snapshot &snapshot = *state.snapshot;
    const inventory::SnapshotStats stats = snapshot.stats();
    json problems = json::array();
    for (const inventory::Snapshot::Problem &problem : snapshot.problems())
        problems.push_back(problem.message);
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "kubernetesVersion", state.kubernetesVersion }, { "writable", state.writable },
        { "stats",
            { { "slices", stats.slices }, { "devices", stats.devices }, { "pools", stats.pools },
                { "objects", stats.objects } } },
        { "streams", streamsJson(state.streams, false) }, { "problems", std::move(problems) } };
}

json classesDocument(const inventory::Snapshot &snapshot)
{
    // Which claims and templates ask for each class.
    std::map<std::string, std::vector<std::string>> users;
    inventory::forEachClaimSpec(
        snapshot, [&](const model::Object &object, const model::ResourceClaimSpec &spec) {
            std::set<std::string> classes;
            inventory::forEachRequestSpec(
                spec, [&](const model::DeviceRequest &, const model::DeviceRequestSpec &one) {
                    classes.insert(one.deviceClassName);
                });
            for (const std::string &name : classes)
                users[name].push_back(std::string(object.info().name) + " " + object.meta.ns + "/"
                    + object.meta.name);
        });
    // What each namespace's quotas allow of each class (its devices' limit).
    std::map<std::string, json> quotas;
    for (const inventory::DeviceQuota &quota : inventory::deviceQuotas(snapshot))
        for (const inventory::QuotaLine &line : quota.lines)
            if (line.resource == inventory::classDevicesQuota(line.className))
                quotas[line.className].push_back(
                    { { "namespace", quota.ns }, { "quota", quota.name }, { "hard", line.hard },
                        { "used", line.used }, { "blocked", line.hard == 0 } });
    json list = json::array();
    for (const inventory::ClassSummary &summary : inventory::classSummaries(snapshot)) {
        const model::Object &object = *summary.deviceClass;
        const model::DeviceClass *spec = object.as<model::DeviceClass>();
        const auto match = snapshot.classMatch(object.meta.name);
        json item = { { "name", object.meta.name },
            { "selectors", spec ? selectorsJson(spec->selectors) : json::array() },
            { "config", spec ? spec->config : json() },
            { "extendedResourceName", spec ? spec->extendedResourceName : std::string() },
            { "devices", summary.devices }, { "free", summary.free },
            { "requestedBy", summary.requestedBy }, { "selectorErrors", summary.selectorErrors },
            { "errors", match ? match->errors : std::vector<std::string>() },
            { "users", users[object.meta.name] },
            { "quota",
                quotas.contains(object.meta.name) ? quotas[object.meta.name] : json::array() } };
        list.push_back(std::move(item));
    }
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "classes", std::move(list) } };
}

json claimsDocument(const inventory::Snapshot &snapshot)
{
    json list = json::array();
    for (const inventory::ClaimSummary &summary : inventory::claimSummaries(snapshot))
        list.push_back(claimSummaryJson(summary));
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "claims", std::move(list) } };
}

json templatesDocument(const inventory::Snapshot &snapshot)
{
    json list = json::array();
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaimTemplate)) {
        const auto *tmpl = object->as<model::ResourceClaimTemplate>();
        list.push_back({ { "namespace", object->meta.ns }, { "name", object->meta.name },
            { "requests", tmpl ? requestsJson(tmpl->spec) : json::array() },
            { "constraints", tmpl ? constraintsJson(tmpl->spec) : json::array() },
            { "createdAt", object->meta.creationTimestamp } });
    }
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "templates", std::move(list) } };
}

Result<json> explainDocument(
    const ConsoleState &state, model::Kind kind, const std::string &ns, const std::string &name)
{
    // As the desktop and `dractl explain` build it, in the release the server reports (which
    // may be another than the cache recorded).
    Result<alloc::SimulationCluster> cluster = alloc::simulationCluster(
        *state.snapshot, release::recordedRelease(state.kubernetesVersion));
    if (!cluster)
        return fail(cluster.error());
    Result<alloc::Diagnosis> diagnosis = kind == model::Kind::Pod
        ? alloc::diagnosePod(*cluster->cluster, cluster->release, ns, name)
        : alloc::diagnoseClaim(*cluster->cluster, cluster->release, ns, name);
    if (!diagnosis)
        return fail(diagnosis.error());
    return alloc::diagnosisJson(*diagnosis);
}

Result<json> templateCheckDocument(const ConsoleState &state, std::string_view text,
    const release::ReleaseChoice &choice, alloc::SimulationClusterCache &clusters)
{
    Result<release::ChosenRelease> chosen = release::chooseRelease(state.kubernetesVersion, choice);
    if (!chosen)
        return fail(chosen.error());
    json out = alloc::toJson(alloc::checkTemplate(state.snapshot, text, clusters, *chosen));
    out["rev"] = state.snapshot->rev();
    return out;
}

Result<json> templateMatchDocument(
    const ConsoleState &state, std::string_view text, const release::ReleaseChoice &choice)
{
    Result<release::ChosenRelease> chosen = release::chooseRelease(state.kubernetesVersion, choice);
    if (!chosen)
        return fail(chosen.error());
    json out = alloc::toJson(alloc::matchTemplate(*state.snapshot, text, *chosen));
    out["rev"] = state.snapshot->rev();
    return out;
}

Result<json> topologyLayoutDocument(const inventory::Snapshot &snapshot, const std::string &node)
{
    Result<topology::NodeTopology> graph
        = topology::buildNodeTopology(QString::fromStdString(node), snapshot);
    if (!graph)
        return fail(graph.error());
    if (graph->gpus.empty() && graph->nics.empty())
        return dra::fail(common::Error::Code::NotFound,
            QStringLiteral("no devices of node %1").arg(QString::fromStdString(node)));
    return topology::toJson(topology::layoutTopology(*graph));
}

json claimDetailsDocument(
    const ConsoleState &state, model::Kind kind, const std::string &ns, const std::string &name)
{
    const inventory::Snapshot &snapshot = *state.snapshot;
    const model::Object *object = snapshot.object(kind, ns, name);
    if (!object)
        return nullptr;
    json details;
    if (kind == model::Kind::ResourceClaim) {
        for (const inventory::ClaimSummary &summary : inventory::claimSummaries(snapshot))
            if (summary.claim == object)
                details = claimSummaryJson(summary);
        details["events"] = eventsAbout(snapshot, "ResourceClaim", ns, name);
        if (const auto *claim = object->as<model::ResourceClaim>())
            details["constraints"] = constraintsJson(claim->spec);
        // What the drivers reported of each device, and its health in the pods that use it.
        json statuses = json::array();
        for (const inventory::ClaimDeviceStatus &status : inventory::claimDeviceStatuses(*object))
            statuses.push_back(inventory::toJson(status));
        details["deviceStatus"] = std::move(statuses);
        json health = json::array();
        for (const inventory::DeviceHealthReport &report : inventory::deviceHealthReports(snapshot))
            if (report.pod.ns == ns && report.claim == name)
                health.push_back(inventory::toJson(report));
        details["health"] = std::move(health);
        if (Result<json> diagnosis = explainDocument(state, kind, ns, name))
            details["diagnosis"] = std::move(*diagnosis);
        else
            details["diagnosisError"] = diagnosis.error().message.toStdString();
    } else {
        const auto *tmpl = object->as<model::ResourceClaimTemplate>();
        details = { { "namespace", ns }, { "name", name },
            { "requests", tmpl ? requestsJson(tmpl->spec) : json::array() },
            { "constraints", tmpl ? constraintsJson(tmpl->spec) : json::array() },
            { "events", eventsAbout(snapshot, "ResourceClaimTemplate", ns, name) } };
    }
    details["object"] = object->raw ? *object->raw : json();
    return details;
}

} // namespace dra::server::console
