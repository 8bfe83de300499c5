// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/overview_summary.h"

#include <QGridLayout>
#include <QToolButton>

#include "views/common/table_layout.h"

namespace dra::views {
namespace {

constexpr int kColumns = 4;
// Pixels a line may take: four tiles, the sidebar (240) and the margins fit a 1280-pixel screen.
constexpr int kLineWidth = 240;
constexpr int kProfilesPerLine = 2; // "1g.10gb 93 free · 1g.20gb 53 free" fits kLineWidth

} // namespace

std::vector<SummaryTile> summaryTiles(
    const inventory::ClusterOverview &overview, const QString &streams)
{
    std::vector<SummaryTile> tiles;
    const inventory::FreeCapacity &gpus = overview.totals.gpus;
    QString gpuFigure = QStringLiteral("%1 total · %2 free · %3 allocated")
                            .arg(gpus.wholeTotal)
                            .arg(gpus.wholeFree)
                            .arg(gpus.allocated);
    if (gpus.tainted > 0)
        gpuFigure += QStringLiteral(" · %1 tainted").arg(gpus.tainted);
    tiles.push_back({ QStringLiteral("GPUs"), gpuFigure, QStringLiteral("devices:gpu") });

    if (!overview.totals.profiles.empty()) {
        // A few profiles a line, so the summary fits beside the sidebar at 1280 pixels.
        QString figure;
        int onLine = 0;
        for (const inventory::ProfileCapacity &profile : overview.totals.profiles) {
            if (!figure.isEmpty())
                figure += onLine == kProfilesPerLine ? QStringLiteral("\n") : QStringLiteral(" · ");
            if (onLine == kProfilesPerLine)
                onLine = 0;
            figure += QStringLiteral("%1 %2 free")
                          .arg(QString::fromStdString(profile.profile))
                          .arg(profile.free);
            ++onLine;
        }
        tiles.push_back(
            { QStringLiteral("MIG partitions"), figure, QStringLiteral("devices:mig") });
    }
    if (overview.devicePluginOnlyNodes > 0)
        tiles.push_back({ QStringLiteral("Device plugin only"),
            QStringLiteral("%1 GPUs on %2 nodes")
                .arg(overview.devicePluginGpus)
                .arg(overview.devicePluginOnlyNodes),
            QStringLiteral("free") });
    if (overview.totals.nics.devices > 0 || overview.totals.other.devices > 0)
        tiles.push_back({ QStringLiteral("Other devices"),
            QStringLiteral("%1 NICs · %2 free · %3 other")
                .arg(overview.totals.nics.devices)
                .arg(overview.totals.nics.free)
                .arg(overview.totals.other.devices),
            QStringLiteral("devices:nic") });
    tiles.push_back({ QStringLiteral("Claims"),
        QStringLiteral("%1 pending of %2").arg(overview.pendingClaims).arg(overview.claims),
        QStringLiteral("claims:pending") });
    const int findings = overview.lintErrors + overview.lintWarnings + overview.lintInfo;
    tiles.push_back({ QStringLiteral("Lint"),
        findings == 0 ? QStringLiteral("no findings")
                      : QStringLiteral("%1 findings · %2 errors · %3 warnings")
                            .arg(findings)
                            .arg(overview.lintErrors)
                            .arg(overview.lintWarnings),
        QStringLiteral("lint") });
    if (!streams.isEmpty())
        tiles.push_back({ QStringLiteral("Streams"), streams, QStringLiteral("streams") });
    return tiles;
}

OverviewSummary::OverviewSummary(QWidget *parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
{
    m_grid->setContentsMargins(4, 4, 4, 4);
    m_grid->setSpacing(4);
}

void OverviewSummary::setOverview(const inventory::ClusterOverview &overview)
{
    m_overview = overview;
    m_hasOverview = true;
    rebuild();
}

void OverviewSummary::setStreams(const QString &streams)
{
    if (streams == m_streams)
        return;
    m_streams = streams;
    if (m_hasOverview)
        rebuild();
}

QToolButton *OverviewSummary::button(const QString &target) const
{
    for (size_t i = 0; i < m_tiles.size() && i < m_buttons.size(); ++i)
        if (m_tiles[i].target == target)
            return m_buttons[i];
    return nullptr;
}

void OverviewSummary::rebuild()
{
    m_tiles = summaryTiles(m_overview, m_streams);
    // Buttons are reused: the summary refreshes with every change of the cluster.
    while (m_buttons.size() < m_tiles.size()) {
        auto *button = new QToolButton(this);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAutoRaise(true);
        button->setCursor(Qt::PointingHandCursor);
        const size_t index = m_buttons.size();
        connect(button, &QToolButton::clicked, this, [this, index] {
            if (index < m_tiles.size())
                Q_EMIT targetActivated(m_tiles[index].target);
        });
        // Rows of four, so the summary never makes the window wider than the screen.
        m_grid->addWidget(button, int(index) / kColumns, int(index) % kColumns);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        m_buttons.push_back(button);
    }
    for (size_t i = 0; i < m_buttons.size(); ++i) {
        const bool used = i < m_tiles.size();
        m_buttons[i]->setVisible(used);
        if (!used)
            continue;
        // A button draws its text as it is: no markup is read in profile or stream names. Long
        // lines (the streams' state while they list) are cut, so the summary never widens the
        // window; the tooltip has them whole.
        QStringList lines = m_tiles[i].figure.split(QLatin1Char('\n'));
        lines.prepend(m_tiles[i].title);
        for (QString &line : lines)
            line = m_buttons[i]->fontMetrics().elidedText(line, Qt::ElideRight, kLineWidth);
        m_buttons[i]->setText(lines.join(QLatin1Char('\n')));
        m_buttons[i]->setToolTip(plainToolTip(
            m_tiles[i].figure + QStringLiteral("\nClick to open ") + m_tiles[i].title));
    }
}

} // namespace dra::views
