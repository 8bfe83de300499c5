// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/access_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "views/common/table_layout.h"
#include "views/common/theme.h"

namespace dra::views {
namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QTreeWidget *newTree(QWidget *parent, const QStringList &headers)
{
    auto *tree = new QTreeWidget(parent);
    tree->setColumnCount(int(headers.size()));
    tree->setHeaderLabels(headers);
    tree->setAlternatingRowColors(true);
    tree->setWordWrap(true);
    tree->setUniformRowHeights(false);
    tree->header()->setStretchLastSection(true);
    return tree;
}

QColor verdictColor(const inventory::ClassAccess &access)
{
    const ThemeColors &colors = themeColors();
    if (access.blocked)
        return colors.errorText;
    return access.usable ? colors.okText : colors.warningText;
}

} // namespace

AccessView::AccessView(QWidget *parent)
    : QWidget(parent)
    , m_source(new QLabel(this))
    , m_namespaces(newTree(this,
          { QStringLiteral("Namespace / class"), QStringLiteral("Who may claim"),
              QStringLiteral("Quota used/hard"), QStringLiteral("Admin access"),
              QStringLiteral("Verdict") }))
    , m_writers(
          newTree(this, { QStringLiteral("Resource"), QStringLiteral("Writers besides admins") }))
    , m_findings(newTree(this,
          { QStringLiteral("Severity"), QStringLiteral("Finding"), QStringLiteral("Message") }))
{
    m_source->setTextFormat(Qt::PlainText); // names roles and bindings
    m_source->setWordWrap(true);
    m_source->setText(QStringLiteral("Reading the cluster…"));
    m_namespaces->setColumnWidth(NameColumn, 260);
    m_namespaces->setColumnWidth(WhoColumn, 260);
    m_writers->setRootIsDecorated(false);
    m_writers->setColumnWidth(0, 200);
    m_findings->setRootIsDecorated(false);
    m_findings->setColumnWidth(0, 80);
    m_findings->setColumnWidth(1, 190);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_namespaces);
    splitter->addWidget(m_writers);
    splitter->addWidget(m_findings);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_source);
    layout->addWidget(splitter, 1);
}

void AccessView::setReport(const inventory::AccessReport &report)
{
    m_source->setText(text(report.sourceNote));
    // Keep which namespaces the user opened across updates.
    QSet<QString> expanded;
    for (int i = 0; i < m_namespaces->topLevelItemCount(); ++i)
        if (m_namespaces->topLevelItem(i)->isExpanded())
            expanded << m_namespaces->topLevelItem(i)->text(NameColumn);
    m_namespaces->clear();
    for (const inventory::NamespaceAccess &ns : report.namespaces) {
        auto *item = new QTreeWidgetItem(m_namespaces);
        item->setText(NameColumn, text(ns.ns));
        item->setText(WhoColumn, text(inventory::nonAdminSubjects(ns.claimAuthors)));
        item->setToolTip(WhoColumn,
            plainToolTip(QStringLiteral("Templates: ")
                + text(inventory::nonAdminSubjects(ns.templateAuthors))));
        item->setText(AdminAccessColumn,
            ns.adminAccessLabel ? QStringLiteral("labelled") : QStringLiteral("no"));
        int usable = 0;
        for (const inventory::ClassAccess &access : ns.classes) {
            auto *row = new QTreeWidgetItem(item);
            row->setText(NameColumn, text(access.className));
            row->setText(QuotaColumn,
                access.hard ? QStringLiteral("%1/%2").arg(*access.used).arg(*access.hard)
                            : QStringLiteral("—"));
            row->setText(AdminAccessColumn,
                access.adminAccess ? QStringLiteral("yes") : QStringLiteral("no"));
            row->setText(VerdictColumn, text(inventory::verdictText(access)));
            row->setForeground(VerdictColumn, verdictColor(access));
            row->setToolTip(VerdictColumn, plainToolTip(text(access.why)));
            usable += access.usable;
        }
        item->setText(VerdictColumn,
            QStringLiteral("%1 of %2 classes usable").arg(usable).arg(ns.classes.size()));
        item->setExpanded(expanded.contains(item->text(NameColumn)));
    }
    m_writers->clear();
    for (const inventory::InventoryWriters &writers : report.writers) {
        auto *item = new QTreeWidgetItem(m_writers);
        item->setText(0, text(writers.resource));
        item->setText(1, text(inventory::nonAdminSubjects(writers.grants)));
    }
    m_findings->clear();
    const ThemeColors &colors = themeColors();
    for (const inventory::AccessFinding &finding : report.findings) {
        auto *item = new QTreeWidgetItem(m_findings);
        const bool warning = finding.severity == inventory::AccessSeverity::Warning;
        item->setText(0, warning ? QStringLiteral("warning") : QStringLiteral("info"));
        item->setForeground(0, warning ? colors.warningText : colors.mutedText);
        item->setText(1, text(finding.code));
        item->setText(2, text(finding.message));
        item->setToolTip(2, plainToolTip(text(finding.message)));
    }
}

QString AccessView::sourceNote() const
{
    return m_source->text();
}

} // namespace dra::views
