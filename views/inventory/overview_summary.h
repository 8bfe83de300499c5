// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QString>
#include <QWidget>

#include "core/inventory/overview.h"

class QGridLayout;
class QToolButton;

namespace dra::views {

// One figure of the overview's summary and the page it opens: "devices:gpu", "devices:mig",
// "devices:nic", "claims:pending", "lint", "free", "streams".
struct SummaryTile
{
    QString title; // "GPUs"
    QString figure; // "64 total · 20 free · 44 allocated"
    QString target;
};

// The summary's tiles for `overview` (inventory::clusterOverview) and the streams' one-line state
// (empty: not followed live).
std::vector<SummaryTile> summaryTiles(
    const inventory::ClusterOverview &overview, const QString &streams);

// The cluster in one row above the node tiles: GPUs total / free / allocated, MIG partitions free
// by profile, NICs and other devices, pending claims, lint findings and the streams' freshness,
// each a button that opens the page it summarizes. Plain text throughout (profile names are
// cluster data). GUI thread; the overview is computed elsewhere.
class OverviewSummary final : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewSummary(QWidget *parent = nullptr);

    void setOverview(const inventory::ClusterOverview &overview);
    void setStreams(const QString &streams);
    const std::vector<SummaryTile> &tiles() const { return m_tiles; }
    QToolButton *button(const QString &target) const;

Q_SIGNALS:
    void targetActivated(const QString &target);

private:
    void rebuild();

    inventory::ClusterOverview m_overview;
    bool m_hasOverview = false;
    QString m_streams;
    std::vector<SummaryTile> m_tiles;
    std::vector<QToolButton *> m_buttons;
    QGridLayout *m_grid;
};

} // namespace dra::views
