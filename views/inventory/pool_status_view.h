// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A driver's pools with their device totals beside the cluster's own answer to a
// ResourcePoolStatusRequest: inventory::comparePools(), what `dractl pools` prints and the web
// console's Free view shows. It only presents: the console asks the cluster and hands over the
// comparison; every cell and sentence comes from core.
#pragma once

#include <QWidget>

#include "core/inventory/pool_status.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace dra::views {

class PoolStatusView final : public QWidget
{
    Q_OBJECT
public:
    explicit PoolStatusView(QWidget *parent = nullptr);

    // Fills the driver field when the user has not typed one.
    void suggestDriver(const QString &driver);
    QString driver() const;

    // The question is out: the button waits.
    void setAsking();
    void setComparison(const inventory::PoolComparison &comparison);
    void setError(const QString &message);

    QString summary() const;
    QTreeWidget *pools() const { return m_pools; }
    QPushButton *askButton() const { return m_ask; }

Q_SIGNALS:
    // The user asked for `driver`'s pools.
    void askRequested(const QString &driver);

private:
    QLineEdit *m_driver;
    QPushButton *m_ask;
    QLabel *m_summary;
    QTreeWidget *m_pools;
};

} // namespace dra::views
