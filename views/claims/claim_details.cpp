// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/claims/claim_details.h"

#include "core/inventory/device_health.h"
#include "views/claims/claim_list_model.h"
#include "views/common/html_text.h"
#include "views/common/theme.h"

namespace dra::views {
namespace {

QString requestHtml(const model::DeviceRequestSpec &spec, const QString &title)
{
    QString html = QStringLiteral("<li><b>%1</b>: ").arg(title);
    html += spec.allocationMode == "All" ? QStringLiteral("all devices")
                                         : QStringLiteral("%1 device(s)").arg(spec.count);
    html += QStringLiteral(" of class <code>%1</code>").arg(escapedHtml(spec.deviceClassName));
    if (spec.adminAccess)
        html += QStringLiteral(", admin access");
    for (const auto &selector : spec.selectors)
        html += QStringLiteral("<br>selector: <code>%1</code>")
                    .arg(escapedHtml(selector.celExpression));
    return html + QStringLiteral("</li>");
}

QString specHtml(const model::ResourceClaimSpec &spec)
{
    QString html = QStringLiteral("<h4>Requests</h4><ul>");
    for (const auto &request : spec.requests) {
        if (request.exactly) {
            html += requestHtml(*request.exactly, escapedHtml(request.name));
            continue;
        }
        html += QStringLiteral("<li><b>%1</b>: the first available of<ol>")
                    .arg(escapedHtml(request.name));
        for (const auto &sub : request.firstAvailable)
            html += requestHtml(sub, escapedHtml(sub.name));
        html += QStringLiteral("</ol></li>");
    }
    html += QStringLiteral("</ul>");
    if (!spec.constraints.empty()) {
        html += QStringLiteral("<h4>Constraints</h4><ul>");
        for (const auto &constraint : spec.constraints) {
            QStringList requests;
            for (const auto &request : constraint.requests)
                requests << escapedHtml(request);
            const QString scope = requests.isEmpty() ? QStringLiteral("all requests")
                                                     : requests.join(QStringLiteral(", "));
            if (!constraint.matchAttribute.empty())
                html += QStringLiteral("<li>same <code>%1</code> across %2</li>")
                            .arg(escapedHtml(constraint.matchAttribute), scope);
            if (!constraint.distinctAttribute.empty())
                html += QStringLiteral("<li>distinct <code>%1</code> across %2</li>")
                            .arg(escapedHtml(constraint.distinctAttribute), scope);
        }
        html += QStringLiteral("</ul>");
    }
    return html;
}

// What the drivers reported of each allocated device (status.devices: conditions) and the
// devices' health as the kubelet reports it for the containers using the claim.
QString deviceStatusHtml(const inventory::Snapshot &snapshot, const model::Object &object)
{
    QString html;
    for (const inventory::ClaimDeviceStatus &status : inventory::claimDeviceStatuses(object)) {
        QStringList conditions;
        for (const auto &condition : status.conditions)
            conditions << escapedHtml(condition.value("type", std::string()) + "="
                + condition.value("status", std::string())
                + (condition.value("reason", std::string()).empty()
                        ? std::string()
                        : " (" + condition.value("reason", std::string()) + ")"));
        html += QStringLiteral("<li>%1/%2/%3: %4</li>")
                    .arg(escapedHtml(status.device.driver), escapedHtml(status.device.pool),
                        escapedHtml(status.device.device),
                        conditions.isEmpty() ? QStringLiteral("no conditions")
                                             : conditions.join(QStringLiteral(", ")));
    }
    if (!html.isEmpty())
        html = QStringLiteral("<h4>Device status</h4><ul>") + html + QStringLiteral("</ul>");
    QString health;
    for (const inventory::DeviceHealthReport &report : inventory::deviceHealthReports(snapshot)) {
        if (report.pod.ns != object.meta.ns || report.claim != object.meta.name)
            continue;
        const QString line
            = escapedHtml(report.device.display() + ": " + inventory::healthLine(report));
        health += report.health == "Unhealthy"
            ? QStringLiteral("<li><span style='color:%1'>%2</span></li>")
                  .arg(themeColors().errorText.name(), line)
            : QStringLiteral("<li>%1</li>").arg(line);
    }
    if (!health.isEmpty())
        html += QStringLiteral("<h4>Device health</h4><ul>") + health + QStringLiteral("</ul>");
    return html;
}

} // namespace

QString claimDetailsHtml(const inventory::Snapshot &snapshot, const model::Object &object)
{
    QString html = QStringLiteral("<h3>%1/%2</h3>")
                       .arg(escapedHtml(object.meta.ns), escapedHtml(object.meta.name));
    const auto *claim = object.as<model::ResourceClaim>();
    if (claim)
        html += QStringLiteral("<p>State: <b>%1</b></p>")
                    .arg(claimPhaseName(claimPhase(snapshot, object)));
    if (claim)
        html += specHtml(claim->spec);
    else if (const auto *tmpl = object.as<model::ResourceClaimTemplate>())
        html += specHtml(tmpl->spec);

    if (claim && claim->allocation) {
        html += QStringLiteral(
            "<h4>Allocation</h4><table cellpadding=2><tr><th align=left>Request</th>"
            "<th align=left>Device</th><th align=left>Node</th></tr>");
        for (const auto &result : claim->allocation->results) {
            const auto *device = snapshot.device({ result.driver, result.pool, result.device });
            const QString node = !device ? QStringLiteral("(no longer published)")
                : device->node.empty()   ? QStringLiteral("network-attached")
                                         : escapedHtml(device->node);
            html += QStringLiteral("<tr><td>%1</td><td>%2/%3/%4%5</td><td>%6</td></tr>")
                        .arg(escapedHtml(result.request), escapedHtml(result.driver),
                            escapedHtml(result.pool), escapedHtml(result.device),
                            result.adminAccess ? QStringLiteral(" (admin)") : QString(), node);
        }
        html += QStringLiteral("</table>");
    }
    if (claim)
        html += deviceStatusHtml(snapshot, object);
    if (claim && !claim->reservedFor.empty()) {
        html += QStringLiteral("<h4>Reserved for</h4><ul>");
        for (const auto &consumer : claim->reservedFor) {
            QString state;
            if (consumer.resource == "pods")
                if (const model::Object *pod
                    = snapshot.object(model::Kind::Pod, object.meta.ns, consumer.name))
                    if (const auto *p = pod->as<model::Pod>())
                        state = QStringLiteral(" — %1 on %2%3")
                                    .arg(escapedHtml(p->phase),
                                        p->nodeName.empty() ? QStringLiteral("no node")
                                                            : escapedHtml(p->nodeName),
                                        p->ready() ? QStringLiteral(", ready") : QString());
            html += QStringLiteral("<li>%1 %2%3</li>")
                        .arg(escapedHtml(consumer.resource), escapedHtml(consumer.name), state);
        }
        html += QStringLiteral("</ul>");
    }

    QString events;
    for (const auto &event : snapshot.objects(model::Kind::Event)) {
        const auto *e = event->as<model::Event>();
        if (!e || e->involvedObject.name != object.meta.name
            || e->involvedObject.ns != object.meta.ns
            || e->involvedObject.kind != std::string(object.info().name))
            continue;
        events += QStringLiteral("<li><b>%1</b> %2: %3</li>")
                      .arg(escapedHtml(e->type), escapedHtml(e->reason), escapedHtml(e->message));
    }
    if (!events.isEmpty())
        html += QStringLiteral("<h4>Events</h4><ul>") + events + QStringLiteral("</ul>");
    return html;
}

} // namespace dra::views
