// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_check.h"

#include "views/common/html_text.h"
#include "views/common/theme.h"

namespace dra::views {

namespace {

// A paragraph or cell in the theme's colour for a verdict.
QString coloured(const QColor &color, const QString &html)
{
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(color.name(), html);
}

} // namespace

QString templateCheckHtml(const alloc::TemplateCheck &check)
{
    const ThemeColors &colors = themeColors();
    if (!check.error.empty())
        return QStringLiteral("<p>%1</p>")
            .arg(coloured(colors.errorText,
                QStringLiteral("<b>Not checked:</b> ") + escapedHtml(check.error)));
    QString html = QStringLiteral(
        "<h3>%1 %2/%3</h3><h4>Requests</h4><table cellpadding=3>"
        "<tr><th align=left>Request</th><th align=left>Class</th>"
        "<th align=right>Of class</th><th align=right>Matching</th><th align=right>Nodes</th></tr>")
                       .arg(
                           escapedHtml(check.kind), escapedHtml(check.ns), escapedHtml(check.name));
    for (const auto &request : check.requests) {
        const QString klass = request.classExists
            ? escapedHtml(request.deviceClass)
            : coloured(colors.errorText,
                escapedHtml(request.deviceClass) + QStringLiteral(" (no such DeviceClass)"));
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3</td><td "
                               "align=right><b>%4</b></td><td align=right>%5</td></tr>")
                    .arg(escapedHtml(request.name), klass)
                    .arg(request.ofClass)
                    .arg(request.matching)
                    .arg(request.nodes);
        for (const auto &error : request.selectorErrors)
            html += QStringLiteral("<tr><td></td><td colspan=4>%1</td></tr>")
                        .arg(coloured(colors.errorText, escapedHtml(error)));
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
    html += QStringLiteral(
        "<h4>Allocation</h4><p><small>Under the scheduler rules of %1.</small></p>")
                .arg(escapedHtml(check.release));
    if (check.copiesThatFit == 0) {
        html += QStringLiteral("<p>%1</p>")
                    .arg(coloured(colors.errorText,
                        QStringLiteral("<b>Cannot be allocated now.</b> ")
                            + escapedHtml(check.blocked)));
    } else {
        html += QStringLiteral(
            "<p><span style='color:%5'><b>Fits.</b> The first copy goes to <b>%1</b>; "
            "one copy alone fits on %2 node(s); %3%4 copies fit at once.</span></p>")
                    .arg(escapedHtml(check.firstPlacementNode))
                    .arg(check.nodesWhereOneFits.size())
                    .arg(check.capped ? QStringLiteral("at least ") : QString())
                    .arg(check.copiesThatFit)
                    .arg(colors.okText.name());
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
