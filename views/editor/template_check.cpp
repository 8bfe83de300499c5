// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_check.h"

#include <chrono>
#include <optional>
#include <set>

#include <QString>

#include "core/alloc/allocated_state.h"
#include "core/release/feature_gates.h"
#include "core/alloc/simulator.h"
#include "core/cel/dra_selector.h"
#include "core/model/manifest_reader.h"
#include "core/model/object.h"
#include "views/common/html_text.h"

namespace dra::views {
namespace {

void checkRequest(const inventory::Snapshot &snapshot, const model::DeviceRequestSpec &spec,
    std::string name, TemplateCheck &check)
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
            = cel::compileSelector(spec.selectors[i].celExpression, &diagnostics);
        if (!compiled || !compiled->isValid()) {
            const std::string message = !compiled ? compiled.error().message.toStdString()
                : diagnostics.empty()             ? "does not compile"
                                                  : diagnostics.front().message;
            request.selectorErrors.push_back("selectors[" + std::to_string(i) + "]: " + message);
            continue;
        }
        selectors.push_back(std::move(*compiled));
    }
    std::set<std::string> nodes;
    if (match && request.selectorErrors.empty()) {
        for (const inventory::Device *device : match->devices) {
            bool all = true;
            for (const auto &selector : selectors)
                all = all
                    && cel::evaluate(selector, device->view).outcome
                        == cel::SelectorResult::Outcome::Match;
            if (all) {
                ++request.matching;
                nodes.insert(device->node);
            }
        }
    }
    request.nodes = int(nodes.size());
    check.requests.push_back(std::move(request));
}

} // namespace

Result<std::shared_ptr<const alloc::Cluster>> ClusterIndexCache::clusterOf(
    const inventory::SnapshotPtr &snapshot)
{
    std::lock_guard lock(m_mutex);
    if (m_index && m_rev == snapshot->rev() && m_cluster == snapshot->cluster())
        return m_index;
    std::vector<model::Object> objects;
    for (model::Kind kind : { model::Kind::DeviceClass, model::Kind::Node,
             model::Kind::ResourceClaim, model::Kind::DeviceTaintRule })
        for (const auto &object : snapshot->objects(kind))
            objects.push_back(*object);
    for (const inventory::SliceInfo &slice : snapshot->slices()) {
        Result<model::Object> object = snapshot->sliceObject(slice.name);
        if (!object)
            return fail(object.error());
        objects.push_back(std::move(*object));
    }
    Result<alloc::Cluster> cluster = alloc::Cluster::build(std::move(objects));
    if (!cluster)
        return fail(cluster.error());
    m_index = std::make_shared<const alloc::Cluster>(std::move(*cluster));
    m_rev = snapshot->rev();
    m_cluster = snapshot->cluster();
    return m_index;
}

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The object the text holds and its claim spec, or the reason in check.error.
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
    if (!object->as<model::ResourceClaimTemplate>() && !object->as<model::ResourceClaim>()) {
        check.error = "expected a ResourceClaimTemplate or a ResourceClaim, not a "
            + std::string(object->info().name);
        return std::nullopt;
    }
    return std::move(*object);
}

const model::ResourceClaimSpec &claimSpec(const model::Object &object)
{
    if (const auto *tmpl = object.as<model::ResourceClaimTemplate>())
        return tmpl->spec;
    return object.as<model::ResourceClaim>()->spec;
}

void matchRequests(
    const inventory::Snapshot &snapshot, const model::Object &object, TemplateCheck &check)
{
    check.kind = object.info().name;
    check.ns = object.meta.ns.empty() ? "default" : object.meta.ns;
    check.name = object.meta.name;
    for (const auto &request : claimSpec(object).requests) {
        if (request.exactly)
            checkRequest(snapshot, *request.exactly, request.name, check);
        for (const auto &sub : request.firstAvailable)
            checkRequest(snapshot, sub, request.name + "/" + sub.name, check);
    }
}

// Reads the text and counts matches into `check` (timed); the object, for the simulation.
std::optional<model::Object> readAndMatch(
    const inventory::Snapshot &snapshot, std::string_view text, TemplateCheck &check)
{
    const Clock::time_point start = Clock::now();
    std::optional<model::Object> object = readClaim(text, check);
    if (object)
        matchRequests(snapshot, *object, check);
    check.matchMs = msSince(start);
    return object;
}

} // namespace

TemplateCheck matchTemplate(const inventory::SnapshotPtr &snapshot, std::string_view text)
{
    TemplateCheck check;
    readAndMatch(*snapshot, text, check);
    return check;
}

TemplateCheck checkTemplate(const inventory::SnapshotPtr &snapshot, std::string_view text,
    ClusterIndexCache &clusters, int maxCopies)
{
    TemplateCheck check;
    const std::optional<model::Object> object = readAndMatch(*snapshot, text, check);
    if (!object)
        return check;

    const Clock::time_point start = Clock::now();
    Result<std::shared_ptr<const alloc::Cluster>> cluster = clusters.clusterOf(snapshot);
    if (!cluster) {
        check.blocked = cluster.error().message.toStdString();
        return check;
    }
    const alloc::AllocatedState state = alloc::AllocatedState::fromClaims(**cluster);
    const alloc::ClaimToAllocate claim { check.ns, check.name.empty() ? "claim" : check.name,
        claimSpec(*object) };
    alloc::SimulationOptions options;
    options.maxExplainedNodes = 8;
    const alloc::FitAnalysis fit = alloc::analyzeFit(
        **cluster, release::FeatureGates::newestRelease(), state, claim, maxCopies, options);
    check.simulated = true;
    check.nodesWhereOneFits = fit.nodesWhereOneFits;
    check.copiesThatFit = fit.copiesThatFit;
    check.capped = fit.capped;
    for (const auto &[node, copies] : fit.copiesPerNode)
        if (check.firstPlacementNode.empty() && copies > 0)
            check.firstPlacementNode = node;
    check.blocked = !fit.nextCopy.error.empty() ? fit.nextCopy.error : fit.nextCopy.summary;
    for (const auto &node : fit.nextCopy.explanation)
        check.explanation.push_back(node.node + ": " + node.reason);
    check.simulationMs = msSince(start);
    return check;
}

QString templateCheckHtml(const TemplateCheck &check)
{
    if (!check.error.empty())
        return QStringLiteral("<p style='color:#d03030'><b>Not readable:</b> %1</p>")
            .arg(escapedHtml(check.error));
    QString html = QStringLiteral(
        "<h3>%1 %2/%3</h3><h4>Requests</h4><table cellpadding=3>"
        "<tr><th align=left>Request</th><th align=left>Class</th>"
        "<th align=right>Of class</th><th align=right>Matching</th><th align=right>Nodes</th></tr>")
                       .arg(
                           escapedHtml(check.kind), escapedHtml(check.ns), escapedHtml(check.name));
    for (const auto &request : check.requests) {
        const QString klass = request.classExists
            ? escapedHtml(request.deviceClass)
            : QStringLiteral("<span style='color:#d03030'>%1 (no such DeviceClass)</span>")
                  .arg(escapedHtml(request.deviceClass));
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3</td><td "
                               "align=right><b>%4</b></td><td align=right>%5</td></tr>")
                    .arg(escapedHtml(request.name), klass)
                    .arg(request.ofClass)
                    .arg(request.matching)
                    .arg(request.nodes);
        for (const auto &error : request.selectorErrors)
            html += QStringLiteral("<tr><td></td><td colspan=4 style='color:#d03030'>%1</td></tr>")
                        .arg(escapedHtml(error));
    }
    html += QStringLiteral("</table>");
    if (!check.simulated) {
        if (!check.blocked.empty())
            html += QStringLiteral("<p>Simulation unavailable: %1</p>")
                        .arg(escapedHtml(check.blocked));
        else
            html += QStringLiteral("<h4>Allocation</h4><p><i>Simulating…</i></p>");
        return html;
    }
    html += QStringLiteral("<h4>Allocation</h4>");
    if (check.copiesThatFit == 0) {
        html += QStringLiteral("<p style='color:#d03030'><b>Cannot be allocated now.</b> %1</p>")
                    .arg(escapedHtml(check.blocked));
    } else {
        html += QStringLiteral(
            "<p style='color:#2e9e4f'><b>Fits.</b> The first copy goes to <b>%1</b>; "
            "one copy alone fits on %2 node(s); %3%4 copies fit at once.</p>")
                    .arg(escapedHtml(check.firstPlacementNode))
                    .arg(check.nodesWhereOneFits.size())
                    .arg(check.capped ? QStringLiteral("at least ") : QString())
                    .arg(check.copiesThatFit);
        if (!check.capped && !check.blocked.empty())
            html += QStringLiteral("<p>The next copy does not fit: %1</p>")
                        .arg(escapedHtml(check.blocked));
    }
    if (!check.explanation.empty()) {
        html += QStringLiteral("<ul>");
        for (const auto &line : check.explanation)
            html += QStringLiteral("<li>%1</li>").arg(escapedHtml(line));
        html += QStringLiteral("</ul>");
    }
    return html;
}

} // namespace dra::views
