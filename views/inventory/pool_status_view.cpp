// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/pool_status_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "views/common/theme.h"

namespace dra::views {

PoolStatusView::PoolStatusView(QWidget *parent)
    : QWidget(parent)
    , m_driver(new QLineEdit(this))
    , m_ask(new QPushButton(QStringLiteral("Ask the cluster"), this))
    , m_summary(new QLabel(this))
    , m_pools(new QTreeWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *title = new QLabel(QStringLiteral("<b>Pool status</b> — a driver's pools counted from "
                                            "the mirror, beside the cluster's own answer to a "
                                            "ResourcePoolStatusRequest (created with your "
                                            "credentials, deleted afterwards)"),
        this);
    title->setWordWrap(true);
    layout->addWidget(title);
    auto *ask = new QHBoxLayout;
    m_driver->setPlaceholderText(QStringLiteral("driver, e.g. gpu.nvidia.com"));
    m_driver->setObjectName(QStringLiteral("poolDriver"));
    ask->addWidget(m_driver, 1);
    ask->addWidget(m_ask);
    layout->addLayout(ask);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_pools->setRootIsDecorated(false);
    m_pools->setAlternatingRowColors(true);
    m_pools->header()->setStretchLastSection(true);
    layout->addWidget(m_pools, 1);

    const auto askNow = [this] {
        if (!driver().isEmpty())
            Q_EMIT askRequested(driver());
    };
    connect(m_ask, &QPushButton::clicked, this, askNow);
    connect(m_driver, &QLineEdit::returnPressed, this, askNow);
}

void PoolStatusView::suggestDriver(const QString &driver)
{
    if (m_driver->text().isEmpty())
        m_driver->setText(driver);
}

QString PoolStatusView::driver() const
{
    return m_driver->text().trimmed();
}

void PoolStatusView::setAsking()
{
    m_ask->setEnabled(false);
    m_summary->setText(QStringLiteral("Asking the cluster…"));
}

void PoolStatusView::setComparison(const inventory::PoolComparison &comparison)
{
    m_ask->setEnabled(true);
    m_summary->setText(QString::fromStdString(inventory::poolComparisonSummary(comparison)));
    const bool agree = comparison.source == "cluster" && comparison.differing == 0;
    m_summary->setStyleSheet(
        QStringLiteral("color: %1")
            .arg((agree ? themeColors().okText : themeColors().warningText).name()));
    QStringList headers;
    for (const std::string &header : inventory::poolComparisonHeaders(comparison))
        headers << QString::fromStdString(header);
    m_pools->clear();
    m_pools->setHeaderLabels(headers);
    for (const inventory::PoolComparisonRow &row : comparison.rows) {
        QStringList cells;
        for (const std::string &cell : inventory::poolComparisonCells(comparison, row))
            cells << QString::fromStdString(cell);
        auto *item = new QTreeWidgetItem(m_pools, cells);
        if (!row.differences.empty())
            item->setForeground(int(cells.size()) - 1, themeColors().warningText);
    }
    m_pools->resizeColumnToContents(0);
}

void PoolStatusView::setError(const QString &message)
{
    m_ask->setEnabled(true);
    m_summary->setText(message);
    m_summary->setStyleSheet(QStringLiteral("color: %1").arg(themeColors().errorText.name()));
}

QString PoolStatusView::summary() const
{
    return m_summary->text();
}

} // namespace dra::views
