// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <atomic>
#include <memory>

#include <QObject>
#include <QString>
#include <QTimer>

#include "core/inventory/selector_sweep.h"

namespace dra::views {

// Evaluates a selector over the inventory off the GUI thread as the user types: each new
// expression restarts a short debounce, cancels the sweep in flight, and only the result of the
// latest expression is delivered. GUI thread.
class SelectorRunner final : public QObject
{
    Q_OBJECT
public:
    explicit SelectorRunner(QObject *parent = nullptr, int debounceMs = 120);
    ~SelectorRunner() override;

    void setSnapshot(inventory::SnapshotPtr snapshot);
    // Schedules a sweep of `expression` after the debounce; an empty expression clears.
    void setExpression(const QString &expression);
    // Sweeps now, skipping the debounce (Enter, tests).
    void runNow();
    bool isRunning() const { return m_running > 0; }

Q_SIGNALS:
    void finished(const std::shared_ptr<const dra::inventory::SelectorSweep> &sweep,
        const QString &expression);
    void cleared();

private:
    void launch();

    inventory::SnapshotPtr m_snapshot;
    QString m_expression;
    QTimer m_debounce;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    int m_running = 0;
};

} // namespace dra::views
