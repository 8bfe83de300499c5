// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_browser.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/inventory/device_category.h"
#include "core/inventory/snapshot_builder.h"
#include "views/common/selector_runner.h"
#include "views/common/table_layout.h"
#include "views/editor/cel_editor.h"
#include "views/inventory/device_details.h"
#include "views/inventory/device_filter_model.h"
#include "views/inventory/device_table_model.h"

namespace dra::views {
namespace {

enum FilterMode { TextMode = 0, SelectorMode = 1 };
constexpr int AllKinds = 100; // the other kind buttons' ids are inventory::DeviceCategory values

QStringList toQStringList(const std::vector<std::string> &words)
{
    QStringList list;
    list.reserve(qsizetype(words.size()));
    for (const auto &word : words)
        list << QString::fromStdString(word);
    return list;
}

} // namespace

DeviceBrowser::DeviceBrowser(QWidget *parent)
    : QWidget(parent)
    , m_model(new DeviceTableModel(this))
    , m_filter(new DeviceFilterModel(this))
    , m_runner(new SelectorRunner(this))
    , m_mode(new QComboBox(this))
    , m_text(new QLineEdit(this))
    , m_selector(new CelEditor(this))
    , m_status(new QLabel(this))
    , m_table(new QTableView(this))
    , m_details(new QTextBrowser(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_kinds(new QButtonGroup(this))
{
    m_status->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    m_filter->setSourceModel(m_model);
    m_mode->addItem(QStringLiteral("Text"));
    m_mode->addItem(QStringLiteral("CEL selector"));
    m_mode->setToolTip(
        QStringLiteral("Filter by words in any column, or by a DRA device selector"));
    m_text->setPlaceholderText(
        QStringLiteral("Filter devices: words in any column (\"h100 free\")"));
    m_text->setClearButtonEnabled(true);
    m_selector->setFixedHeight(m_selector->fontMetrics().lineSpacing() * 3 + 10);
    m_selector->hide();

    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // inventory order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights and no per-row size measuring keep 100,000 rows instant.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_layout = new TableLayout(m_table, QStringLiteral("devices"), DeviceTableModel::Name);
    m_details->setOpenLinks(false);

    // One click narrows the table to a kind of device.
    m_kinds->setExclusive(true);
    const auto addKind = [this](const QString &title, int id) {
        auto *button = new QToolButton(this);
        button->setText(title);
        button->setCheckable(true);
        button->setAutoRaise(true);
        m_kinds->addButton(button, id);
        return button;
    };
    auto *kindBar = new QHBoxLayout;
    kindBar->setSpacing(2);
    kindBar->addWidget(addKind(QStringLiteral("All"), AllKinds));
    for (auto category : { inventory::DeviceCategory::Gpu, inventory::DeviceCategory::Partition,
             inventory::DeviceCategory::Nic, inventory::DeviceCategory::Other })
        kindBar->addWidget(addKind(QString::fromUtf8(inventory::categoryTitle(category).data(),
                                       qsizetype(inventory::categoryTitle(category).size())),
            int(category)));
    kindBar->addStretch(1);
    m_kinds->button(AllKinds)->setChecked(true);
    connect(m_kinds, &QButtonGroup::idClicked, this, [this](int id) {
        m_filter->setCategory(
            id == AllKinds ? std::nullopt : std::optional(inventory::DeviceCategory(id)));
        updateStatus();
    });

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_mode);
    bar->addWidget(m_text, 1);
    bar->addWidget(m_selector, 1);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    collapseDetailsUntilSelection(m_splitter, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(kindBar);
    layout->addWidget(m_status);
    layout->addWidget(m_splitter, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, &DeviceBrowser::setMode);
    connect(m_text, &QLineEdit::textChanged, m_filter, &DeviceFilterModel::setText);
    connect(m_text, &QLineEdit::textChanged, this, &DeviceBrowser::updateStatus);
    connect(m_selector, &CelEditor::expressionChanged, m_runner, &SelectorRunner::setExpression);
    connect(m_runner, &SelectorRunner::cleared, this, [this] {
        m_selector->setDiagnostics({});
        m_filter->setSelectorMatches(std::nullopt);
        m_selectorStatus.clear();
        updateStatus();
    });
    connect(m_runner, &SelectorRunner::finished, this,
        [this](const std::shared_ptr<const inventory::SelectorSweep> &sweep, const QString &) {
            m_selector->setDiagnostics(sweep->diagnostics);
            if (!sweep->valid) {
                m_selectorStatus
                    = QStringLiteral("The selector does not compile: %1")
                          .arg(sweep->diagnostics.empty()
                                  ? QString()
                                  : QString::fromStdString(sweep->diagnostics.front().message));
                updateStatus();
                return;
            }
            std::unordered_set<inventory::DeviceKey> keys;
            for (const inventory::Device *device : sweep->matches)
                keys.insert(device->key);
            m_filter->setSelectorMatches(std::move(keys));
            m_selectorStatus = QStringLiteral("Selector matches %1 of %2 devices on %3 nodes")
                                   .arg(sweep->matches.size())
                                   .arg(sweep->evaluated)
                                   .arg(sweep->matchesByNode.size());
            if (sweep->runtimeErrors > 0)
                m_selectorStatus += QStringLiteral("; it failed on %1 (first: %2)")
                                        .arg(sweep->runtimeErrors)
                                        .arg(QString::fromStdString(sweep->firstRuntimeError));
            updateStatus();
        });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &DeviceBrowser::showSelection);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &DeviceBrowser::updateStatus);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &DeviceBrowser::updateStatus);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &DeviceBrowser::updateStatus);
    updateStatus();
}

void DeviceBrowser::reset(inventory::SnapshotPtr snapshot)
{
    m_runner->setSnapshot(snapshot);
    if (snapshot) {
        // The vocabulary reads every device's attributes: built off the GUI thread, and kept
        // only while it is still of the newest snapshot.
        const int generation = ++m_vocabularyGeneration;
        auto *watcher = new QFutureWatcher<QStringList>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
            watcher->deleteLater();
            if (generation == m_vocabularyGeneration)
                m_selector->setCompletions(watcher->result());
        });
        watcher->setFuture(QtConcurrent::run(
            [snapshot] { return toQStringList(inventory::selectorVocabulary(*snapshot)); }));
    }
    m_model->reset(snapshot);
    m_filter->prepareSearch(std::move(snapshot));
    m_layout->fitToContentsOnce();
    updateStatus();
}

void DeviceBrowser::applyChanges(const inventory::ChangeSet &changes)
{
    m_model->applyChanges(changes);
    m_layout->fitToContentsOnce(); // a live cluster's first rows often come as changes
    m_runner->setSnapshot(changes.snapshot);
    showSelection();
}

void DeviceBrowser::setMode(int mode)
{
    const bool selector = mode == SelectorMode;
    m_text->setVisible(!selector);
    m_selector->setVisible(selector);
    if (selector) {
        m_filter->setText({});
        m_runner->setExpression(m_selector->expression());
        m_selector->setFocus();
    } else {
        m_runner->setExpression({});
        m_filter->setText(m_text->text());
        m_text->setFocus();
    }
    updateStatus();
}

void DeviceBrowser::setSelectorFilter(const QString &expression)
{
    m_mode->setCurrentIndex(SelectorMode);
    m_selector->setPlainText(expression);
}

bool DeviceBrowser::selectDevice(const inventory::DeviceKey &key)
{
    int row = m_model->rowOf(key);
    if (row < 0)
        return false;
    QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) { // filtered out: show everything so the device can be seen
        m_text->clear();
        m_mode->setCurrentIndex(TextMode);
        index = m_filter->mapFromSource(m_model->index(row, 0));
    }
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

void DeviceBrowser::showSelection()
{
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    const inventory::Device *device
        = current.isValid() ? m_model->deviceAt(current.row()) : nullptr;
    if (!device) {
        m_details->setHtml(
            QStringLiteral("<p>Select a device to see its attributes, capacity and holders.</p>"));
        return;
    }
    openDetails(m_splitter, 1);
    m_details->setHtml(deviceDetailsHtml(*m_model->snapshot(), *device));
    Q_EMIT deviceSelected(device->key);
}

void DeviceBrowser::setKindFilter(std::optional<inventory::DeviceCategory> category)
{
    m_kinds->button(category ? int(*category) : AllKinds)->click();
}

QAbstractButton *DeviceBrowser::kindButton(std::optional<inventory::DeviceCategory> category) const
{
    return m_kinds->button(category ? int(*category) : AllKinds);
}

QString DeviceBrowser::statusText() const
{
    return m_status->text();
}

void DeviceBrowser::updateStatus()
{
    QString text = QStringLiteral("%1 of %2 devices shown")
                       .arg(m_filter->rowCount())
                       .arg(m_model->rowCount());
    if (m_mode->currentIndex() == SelectorMode && !m_selectorStatus.isEmpty())
        text = m_selectorStatus + QStringLiteral(" · ") + text;
    m_status->setText(text);
}

} // namespace dra::views
