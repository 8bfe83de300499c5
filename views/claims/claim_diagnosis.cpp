// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/claims/claim_diagnosis.h"

#include "views/common/html_text.h"

namespace dra::views {
namespace {

// A mark per status that reads without colour too.
QString statusMark(alloc::DiagnosisStep::Status status)
{
    switch (status) {
    case alloc::DiagnosisStep::Status::Ok:
        return QStringLiteral("✔");
    case alloc::DiagnosisStep::Status::Failed:
        return QStringLiteral("✘");
    case alloc::DiagnosisStep::Status::Waiting:
        return QStringLiteral("…");
    case alloc::DiagnosisStep::Status::Skipped:
        return QStringLiteral("–");
    }
    return {};
}

} // namespace

Result<alloc::Diagnosis> diagnoseClaimIn(const inventory::SnapshotPtr &snapshot,
    const std::string &ns, const std::string &name, alloc::SimulationClusterCache &clusters)
{
    Result<alloc::SimulationCluster> cluster = clusters.of(snapshot);
    if (!cluster)
        return fail(cluster.error());
    alloc::SimulationOptions options;
    options.maxExplainedNodes = 8;
    return alloc::diagnoseClaim(*cluster->cluster, cluster->release, ns, name, options);
}

QString diagnosisHtml(const alloc::Diagnosis &diagnosis)
{
    QString html = QStringLiteral("<h4>Diagnosis</h4><table cellspacing=\"4\">");
    for (const alloc::DiagnosisStep &step : diagnosis.steps) {
        html += QStringLiteral("<tr><td>%1</td><td><b>%2</b> <i>(%3)</i><br>%4")
                    .arg(statusMark(step.status), escapedHtml(step.name),
                        escapedHtml(alloc::statusName(step.status)), escapedHtml(step.detail));
        if (!step.owner.empty())
            html += QStringLiteral("<br>owner: %1").arg(escapedHtml(step.owner));
        for (const std::string &event : step.events)
            html += QStringLiteral("<br><small>event: %1</small>").arg(escapedHtml(event));
        html += QStringLiteral("</td></tr>");
    }
    html += QStringLiteral("</table>");
    if (diagnosis.simulation && !diagnosis.simulation->explanation.empty()) {
        html += QStringLiteral("<p>Why not, node by node (closest first):</p><ul>");
        for (const alloc::NodeExplanation &node : diagnosis.simulation->explanation)
            html += QStringLiteral("<li><b>%1</b>: %2</li>")
                        .arg(escapedHtml(node.node), escapedHtml(node.reason));
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<p><b>Verdict:</b> %1</p>").arg(escapedHtml(diagnosis.verdict));
    return html;
}

} // namespace dra::views
