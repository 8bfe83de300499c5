// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The DRA readiness report as a page: inventory::readiness(), what `dractl readiness` prints
// and the web console's Readiness page shows. The overall verdict and the cluster's release
// above; then each check in order with its verdict, title and reason, and below it the next
// step and the facts behind it. It only presents: every verdict and sentence comes from core.
#pragma once

#include <QWidget>

#include "core/inventory/readiness.h"

class QLabel;
class QTreeWidget;

namespace dra::views {

class ReadinessView final : public QWidget
{
    Q_OBJECT
public:
    explicit ReadinessView(QWidget *parent = nullptr);

    void setReadiness(const inventory::Readiness &readiness);

    // "Warning — Kubernetes v1.36.0, cluster demo at revision 812": what the page says first.
    QString headline() const;
    // One top-level row per check, in the report's order (columns: Check, Verdict, Reason).
    QTreeWidget *checks() const { return m_checks; }

    // "Ready", "Unknown", "Warning", "Not ready".
    static QString verdictText(inventory::Verdict verdict);

private:
    QLabel *m_headline;
    QTreeWidget *m_checks;
};

} // namespace dra::views
