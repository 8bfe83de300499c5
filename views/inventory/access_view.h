// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Access per DeviceClass as a page: inventory::deviceAccess(), what `dractl access` prints and
// the web console's Access view shows. Per namespace who may create claims there, and under it
// each class with what the namespace's quota allows of it, whether claims may ask for admin
// access, and the verdict; then who may write the inventory, then the findings. It only
// presents: every verdict and sentence comes from core.
#pragma once

#include <QWidget>

#include "core/inventory/device_access.h"

class QLabel;
class QTreeWidget;

namespace dra::views {

class AccessView final : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        WhoColumn,
        QuotaColumn,
        AdminAccessColumn,
        VerdictColumn,
        ColumnCount
    };

    explicit AccessView(QWidget *parent = nullptr);

    void setReport(const inventory::AccessReport &report);

    // Where the answers come from, as the page says it first.
    QString sourceNote() const;
    // One top-level row per namespace (Who: the claim authors besides admins), one child per
    // class (Quota, Admin access, Verdict with its reason as the tool tip).
    QTreeWidget *namespaces() const { return m_namespaces; }
    // One row per inventory resource: who besides admins may write it.
    QTreeWidget *writers() const { return m_writers; }
    // One row per finding: severity, code, message.
    QTreeWidget *findings() const { return m_findings; }

private:
    QLabel *m_source;
    QTreeWidget *m_namespaces;
    QTreeWidget *m_writers;
    QTreeWidget *m_findings;
};

} // namespace dra::views
