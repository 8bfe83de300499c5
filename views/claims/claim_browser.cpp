// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/claims/claim_browser.h"

#include <QFutureWatcher>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/inventory/snapshot_builder.h"
#include "views/claims/claim_details.h"
#include "views/claims/claim_diagnosis.h"
#include "views/claims/claim_list_model.h"
#include "views/common/table_layout.h"

namespace dra::views {

ClaimBrowser::ClaimBrowser(model::Kind kind, QWidget *parent)
    : QWidget(parent)
    , m_model(new ClaimListModel(kind, this))
    , m_filter(new QSortFilterProxyModel(this))
    , m_search(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_inspector(new QTextBrowser(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_clusters(std::make_shared<alloc::SimulationClusterCache>())
    , m_rediagnose(new QTimer(this))
{
    m_rediagnose->setSingleShot(true);
    m_rediagnose->setInterval(500);
    connect(m_rediagnose, &QTimer::timeout, this, &ClaimBrowser::diagnose);
    m_filter->setSourceModel(m_model);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setSortRole(ClaimListModel::SortRole);
    m_search->setPlaceholderText(
        QStringLiteral("Filter by namespace, name, state, device, node or pod"));
    m_search->setClearButtonEnabled(true);
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_layout = new TableLayout(m_table,
        kind == model::Kind::ResourceClaim ? QStringLiteral("claims") : QStringLiteral("templates"),
        ClaimListModel::Name);

    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_inspector);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    collapseDetailsUntilSelection(m_splitter, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_splitter, 1);

    connect(
        m_search, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ClaimBrowser::showSelection);
}

void ClaimBrowser::reset(inventory::SnapshotPtr snapshot)
{
    m_snapshot = snapshot;
    m_model->reset(std::move(snapshot));
    m_layout->fitToContentsOnce();
    showSelection();
}

void ClaimBrowser::applyChanges(const inventory::ChangeSet &changes)
{
    m_snapshot = changes.snapshot;
    m_model->applyChanges(changes);
    m_layout->fitToContentsOnce(); // a live cluster's first rows often come as changes
    showSelection();
}

bool ClaimBrowser::selectClaim(const QString &ns, const QString &name)
{
    const int row = m_model->rowOf(ns, name);
    if (row < 0)
        return false;
    m_search->clear();
    const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    return true;
}

void ClaimBrowser::setFilterText(const QString &text)
{
    m_search->setText(text);
}

QString ClaimBrowser::inspectorHtml() const
{
    return m_inspector->toHtml();
}

void ClaimBrowser::showSelection()
{
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    const model::Object *object = current.isValid() ? m_model->objectAt(current.row()) : nullptr;
    if (!object || !m_snapshot) {
        m_diagnosed = {};
        m_inspector->setHtml(QStringLiteral(
            "<p>Select a claim to see its requests, allocation, pods and events.</p>"));
        return;
    }
    const std::pair<std::string, std::string> key { object->meta.ns, object->meta.name };
    const bool sameClaim = object->kind == model::Kind::ResourceClaim && key == m_diagnosed;
    openDetails(m_splitter, 1);
    m_details = claimDetailsHtml(*m_snapshot, *object);
    // The same claim after a change keeps its last diagnosis on screen until the new one is in.
    m_inspector->setHtml(sameClaim ? m_details + m_diagnosis : m_details);
    Q_EMIT claimSelected(
        QString::fromStdString(object->meta.ns), QString::fromStdString(object->meta.name));
    if (object->kind != model::Kind::ResourceClaim) {
        m_diagnosed = {};
        return;
    }
    m_diagnosed = key;
    if (sameClaim)
        m_rediagnose->start(); // a burst of changes is diagnosed once, after it
    else
        diagnose();
}

void ClaimBrowser::diagnose()
{
    // The allocation simulation can take a while on a large cluster: off the GUI thread, and
    // only the answer for the latest selection and snapshot is shown.
    m_rediagnose->stop();
    const int generation = ++m_diagnosisGeneration;
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_diagnosisGeneration)
            return;
        m_diagnosis = watcher->result();
        const int scroll = m_inspector->verticalScrollBar()->value();
        m_inspector->setHtml(m_details + m_diagnosis);
        m_inspector->verticalScrollBar()->setValue(scroll);
        Q_EMIT diagnosisShown();
    });
    watcher->setFuture(
        QtConcurrent::run([snapshot = m_snapshot, clusters = m_clusters, key = m_diagnosed] {
            Result<alloc::Diagnosis> diagnosis
                = diagnoseClaimIn(snapshot, key.first, key.second, *clusters);
            return diagnosis ? diagnosisHtml(*diagnosis)
                             : QStringLiteral("<h4>Diagnosis</h4><p>%1</p>")
                                   .arg(diagnosis.error().message.toHtmlEscaped());
        }));
}

} // namespace dra::views
