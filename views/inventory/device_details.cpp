// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_details.h"

#include "core/inventory/device_health.h"
#include "views/common/html_text.h"
#include "views/common/theme.h"

namespace dra::views {
namespace {

// Versions carry a "v" so that "1.2.3" reads as a version beside plain strings; lists as
// "[a, b]".
QString attributeText(const cel::DeviceAttributeValue &value)
{
    if (value.type == cel::DeviceAttributeValue::Type::Version)
        return QStringLiteral("v") + QString::fromStdString(value.stringValue);
    return QString::fromStdString(cel::deviceAttributeText(value));
}

QString section(const QString &title, const QString &rows)
{
    if (rows.isEmpty())
        return {};
    return QStringLiteral("<h4>%1</h4><table cellspacing=0 cellpadding=2>%2</table>")
        .arg(title, rows);
}

QString detailRow(const QString &name, const QString &value)
{
    return QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td><b>%2</b></td></tr>")
        .arg(name, value);
}

} // namespace

QString deviceDetailsHtml(const inventory::Snapshot &snapshot, const inventory::Device &device)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(escapedHtml(device.key.device));
    html += section(QStringLiteral("Device"),
        detailRow(QStringLiteral("Driver"), escapedHtml(device.key.driver))
            + detailRow(QStringLiteral("Pool"), escapedHtml(device.key.pool))
            + detailRow(QStringLiteral("Node"),
                device.node.empty() ? QStringLiteral("network-attached") : escapedHtml(device.node))
            + detailRow(QStringLiteral("Slice"), escapedHtml(device.slice))
            + detailRow(QStringLiteral("State"),
                escapedHtml(std::string(inventory::deviceStateName(snapshot.state(device))))));

    QString holders;
    for (const auto &hold : snapshot.holds(device.key)) {
        QStringList pods;
        for (const auto &pod : hold.pods)
            pods << QString::fromStdString(pod).toHtmlEscaped();
        QString detail = QStringLiteral("request %1").arg(escapedHtml(hold.request));
        if (hold.adminAccess)
            detail += QStringLiteral(", admin access");
        if (!hold.shareID.empty())
            detail += QStringLiteral(", share %1").arg(escapedHtml(hold.shareID));
        if (!pods.isEmpty())
            detail += QStringLiteral("; pods %1").arg(pods.join(QStringLiteral(", ")));
        holders += detailRow(escapedHtml(hold.claim.ns + "/" + hold.claim.name), detail);
    }
    html += section(QStringLiteral("Held by"), holders);

    // As the kubelet reports it for each container using the device.
    QString health;
    for (const inventory::DeviceHealthReport &report :
        inventory::healthOf(inventory::deviceHealthReports(snapshot), device.key)) {
        const QString value = escapedHtml(report.health);
        health += detailRow(
            escapedHtml(report.pod.ns + "/" + report.pod.name + " " + report.container),
            report.health == "Unhealthy" ? QStringLiteral("<span style='color:%1'>%2</span>")
                                               .arg(themeColors().errorText.name(), value)
                                         : value);
    }
    html += section(QStringLiteral("Health"), health);

    QString attributes;
    for (const auto &domain : device.view.attributeDomains())
        for (const auto &entry : domain.entries)
            attributes += detailRow(escapedHtml(domain.name + "/" + entry.name),
                attributeText(entry.value).toHtmlEscaped());
    html += section(QStringLiteral("Attributes"), attributes);

    QString capacity;
    for (const auto &domain : device.view.capacityDomains())
        for (const auto &entry : domain.entries)
            capacity += detailRow(
                escapedHtml(domain.name + "/" + entry.name), escapedHtml(entry.value.toString()));
    html += section(QStringLiteral("Capacity"), capacity);

    QString counters;
    for (const auto &consumption : device.consumesCounters)
        for (const auto &[name, counter] : consumption.counters)
            counters += detailRow(
                escapedHtml(consumption.counterSet + "/" + name), escapedHtml(counter.toString()));
    html += section(QStringLiteral("Consumes counters"), counters);

    QString taints;
    for (const auto &taint : snapshot.effectiveTaints(device))
        taints += detailRow(escapedHtml(taint.key + (taint.value.empty() ? "" : "=" + taint.value)),
            escapedHtml(taint.effect));
    html += section(QStringLiteral("Taints"), taints);
    return html;
}

} // namespace dra::views
