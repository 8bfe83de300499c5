// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/readiness_view.h"

#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "views/common/table_layout.h"
#include "views/common/theme.h"

namespace dra::views {
namespace {

enum Column { CheckColumn, VerdictColumn, ReasonColumn, ColumnCount };

// Arrays longer than this show their first items and how many more there are: a 5,000-node
// cluster's per-node facts belong in `dractl readiness -o json`, not in a tree.
constexpr size_t kShownItems = 50;

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

QColor verdictColor(inventory::Verdict verdict)
{
    const ThemeColors &colors = themeColors();
    switch (verdict) {
    case inventory::Verdict::Ready:
        return colors.okText;
    case inventory::Verdict::Warning:
        return colors.warningText;
    case inventory::Verdict::NotReady:
        return colors.errorText;
    case inventory::Verdict::Unknown:
        break;
    }
    return colors.mutedText;
}

// A value of the facts on one line: strings as they are, the rest as compact JSON.
QString valueText(const nlohmann::json &value)
{
    return value.is_string() ? text(value.get<std::string>()) : text(value.dump());
}

// `value` under `parent` as `name`: scalars and lists of scalars on one line, objects and
// lists of objects as children.
void addFacts(QTreeWidgetItem *parent, const QString &name, const nlohmann::json &value)
{
    const bool scalarList = value.is_array()
        && std::all_of(
            value.begin(), value.end(), [](const nlohmann::json &v) { return v.is_primitive(); });
    if (value.is_primitive() || (scalarList && value.size() <= kShownItems)) {
        QStringList parts;
        if (value.is_array()) {
            for (const nlohmann::json &v : value)
                parts << valueText(v);
        } else {
            parts << valueText(value);
        }
        auto *item = new QTreeWidgetItem(parent);
        item->setText(CheckColumn, name);
        item->setText(ReasonColumn,
            parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", ")));
        item->setToolTip(ReasonColumn, plainToolTip(item->text(ReasonColumn)));
        return;
    }
    auto *group = new QTreeWidgetItem(parent);
    group->setText(CheckColumn, name);
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            addFacts(group, text(it.key()), it.value());
        return;
    }
    group->setText(ReasonColumn, QStringLiteral("%1 items").arg(value.size()));
    size_t index = 0;
    for (const nlohmann::json &element : value) {
        if (index == kShownItems) {
            auto *more = new QTreeWidgetItem(group);
            more->setText(ReasonColumn,
                QStringLiteral("… and %1 more (dractl readiness -o json lists them all)")
                    .arg(value.size() - kShownItems));
            break;
        }
        addFacts(group, QString::number(index++), element);
    }
}

} // namespace

ReadinessView::ReadinessView(QWidget *parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_checks(new QTreeWidget(this))
{
    m_headline->setTextFormat(Qt::PlainText); // names the cluster
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_checks->setColumnCount(ColumnCount);
    m_checks->setHeaderLabels(
        { QStringLiteral("Check"), QStringLiteral("Verdict"), QStringLiteral("Reason") });
    m_checks->setWordWrap(true);
    m_checks->setUniformRowHeights(false);
    m_checks->setAlternatingRowColors(true);
    m_checks->header()->setStretchLastSection(true);
    m_checks->setColumnWidth(CheckColumn, 220);
    m_checks->setColumnWidth(VerdictColumn, 90);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_checks, 1);
    m_headline->setText(QStringLiteral("Reading the cluster…"));
}

QString ReadinessView::verdictText(inventory::Verdict verdict)
{
    switch (verdict) {
    case inventory::Verdict::Ready:
        return QStringLiteral("Ready");
    case inventory::Verdict::Warning:
        return QStringLiteral("Warning");
    case inventory::Verdict::NotReady:
        return QStringLiteral("Not ready");
    case inventory::Verdict::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

void ReadinessView::setReadiness(const inventory::Readiness &readiness)
{
    m_headline->setText(
        QStringLiteral("%1 — Kubernetes %2, cluster %3 at revision %4")
            .arg(verdictText(readiness.overall()),
                readiness.kubernetesVersion.empty() ? QStringLiteral("(version not known)")
                                                    : text(readiness.kubernetesVersion),
                readiness.cluster.empty() ? QStringLiteral("(unnamed)") : text(readiness.cluster))
            .arg(readiness.rev));
    // Keep which checks the user opened across updates of the same report.
    QSet<QString> expanded;
    for (int i = 0; i < m_checks->topLevelItemCount(); ++i)
        if (m_checks->topLevelItem(i)->isExpanded())
            expanded << m_checks->topLevelItem(i)->data(CheckColumn, Qt::UserRole).toString();
    m_checks->clear();
    for (const inventory::ReadinessCheck &check : readiness.checks) {
        auto *item = new QTreeWidgetItem(m_checks);
        item->setData(CheckColumn, Qt::UserRole, text(check.id));
        item->setText(CheckColumn, text(check.title));
        item->setText(VerdictColumn, verdictText(check.verdict));
        item->setForeground(VerdictColumn, verdictColor(check.verdict));
        item->setText(ReasonColumn, text(check.reason));
        item->setToolTip(ReasonColumn, plainToolTip(text(check.reason)));
        if (!check.action.empty()) {
            auto *next = new QTreeWidgetItem(item);
            next->setText(CheckColumn, QStringLiteral("Next step"));
            next->setText(ReasonColumn, text(check.action));
            next->setToolTip(ReasonColumn, plainToolTip(text(check.action)));
        }
        for (auto it = check.details.begin(); it != check.details.end(); ++it)
            addFacts(item, text(it.key()), it.value());
        item->setExpanded(expanded.contains(text(check.id)));
    }
}

QString ReadinessView::headline() const
{
    return m_headline->text();
}

} // namespace dra::views
