// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/selector_runner.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace dra::views {

SelectorRunner::SelectorRunner(QObject *parent, int debounceMs)
    : QObject(parent)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(debounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &SelectorRunner::launch);
}

SelectorRunner::~SelectorRunner()
{
    if (m_cancel)
        m_cancel->store(true); // a sweep still running stops at its next check
}

void SelectorRunner::setSnapshot(inventory::SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    if (!m_expression.trimmed().isEmpty())
        m_debounce.start(); // the inventory moved: the matches may have too
}

void SelectorRunner::setExpression(const QString &expression)
{
    m_expression = expression;
    if (m_cancel)
        m_cancel->store(true);
    if (expression.trimmed().isEmpty()) {
        m_debounce.stop();
        Q_EMIT cleared();
        return;
    }
    m_debounce.start();
}

void SelectorRunner::runNow()
{
    m_debounce.stop();
    launch();
}

void SelectorRunner::launch()
{
    if (!m_snapshot || m_expression.trimmed().isEmpty())
        return;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const std::string expression = m_expression.toStdString();
    // The watcher is parented to this runner: once the runner (and its view) is gone, no
    // callback arrives.
    auto *watcher = new QFutureWatcher<std::shared_ptr<const inventory::SelectorSweep>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, text = m_expression] {
        --m_running;
        watcher->deleteLater();
        const auto sweep = watcher->result();
        if (sweep->cancelled || text != m_expression)
            return;
        Q_EMIT finished(sweep, text);
    });
    ++m_running;
    watcher->setFuture(QtConcurrent::run([snapshot = m_snapshot, expression, cancel = m_cancel] {
        return std::make_shared<const inventory::SelectorSweep>(
            inventory::sweepSelector(*snapshot, expression, cancel.get()));
    }));
}

} // namespace dra::views
