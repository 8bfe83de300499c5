// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/command_palette.h"

#include <algorithm>

#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QVBoxLayout>

namespace dra::views {

PaletteModel::PaletteModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void PaletteModel::setEntries(std::vector<PaletteEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    m_query.clear();
    m_visible.clear();
    for (int i = 0; i < int(m_entries.size()); ++i)
        m_visible.push_back(i);
    endResetModel();
}

void PaletteModel::setQuery(const QString &query)
{
    beginResetModel();
    m_query = query.trimmed();
    refilter();
    endResetModel();
}

void PaletteModel::refilter()
{
    m_visible.clear();
    const QStringList words = m_query.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    std::vector<std::pair<int, int>> ranked; // (rank, index): 0 prefix match, 1 other match
    for (int i = 0; i < int(m_entries.size()); ++i) {
        const QString haystack = m_entries[i].title + QLatin1Char(' ') + m_entries[i].detail;
        const bool all = std::ranges::all_of(words,
            [&](const QString &word) { return haystack.contains(word, Qt::CaseInsensitive); });
        if (all)
            ranked.emplace_back(
                m_entries[i].title.startsWith(m_query, Qt::CaseInsensitive) ? 0 : 1, i);
    }
    std::ranges::stable_sort(ranked, {}, &std::pair<int, int>::first);
    for (const auto &[rank, index] : ranked)
        m_visible.push_back(index);
}

const PaletteEntry *PaletteModel::entryAt(int row) const
{
    return row >= 0 && row < int(m_visible.size()) ? &m_entries[size_t(m_visible[size_t(row)])]
                                                   : nullptr;
}

int PaletteModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_visible.size());
}

QVariant PaletteModel::data(const QModelIndex &index, int role) const
{
    const PaletteEntry *entry
        = checkIndex(index, CheckIndexOption::IndexIsValid) ? entryAt(index.row()) : nullptr;
    if (!entry)
        return {};
    if (role == Qt::DisplayRole)
        return entry->detail.isEmpty() ? entry->title
                                       : entry->title + QStringLiteral("    — ") + entry->detail;
    if (role == Qt::ToolTipRole)
        return entry->detail;
    return {};
}

CommandPalette::CommandPalette(QWidget *parent)
    : QDialog(parent, Qt::Popup | Qt::FramelessWindowHint)
    , m_model(new PaletteModel(this))
    , m_query(new QLineEdit(this))
    , m_list(new QListView(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    m_query->setPlaceholderText(QStringLiteral("Go to a view, a node, a claim, a device…"));
    m_query->setClearButtonEnabled(true);
    m_list->setModel(m_model);
    m_list->setUniformItemSizes(true); // thousands of objects stay instant
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_query);
    layout->addWidget(m_list);
    resize(560, 380);

    m_query->installEventFilter(this);
    connect(m_query, &QLineEdit::textChanged, m_model, &PaletteModel::setQuery);
    connect(m_model, &QAbstractItemModel::modelReset, this,
        [this] { m_list->setCurrentIndex(m_model->index(0, 0)); });
    connect(m_list, &QListView::activated, this,
        [this](const QModelIndex &index) { runRow(index.row()); });
}

void CommandPalette::open(std::vector<PaletteEntry> entries)
{
    m_model->setEntries(std::move(entries));
    m_query->clear();
    m_list->setCurrentIndex(m_model->index(0, 0));
    if (parentWidget()) {
        const QRect area = parentWidget()->window()->geometry();
        move(area.center().x() - width() / 2, area.top() + 80);
    }
    show();
    m_query->setFocus();
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_query && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        const int row = m_list->currentIndex().row();
        switch (key->key()) {
        case Qt::Key_Down:
            m_list->setCurrentIndex(m_model->index(std::min(row + 1, m_model->rowCount() - 1), 0));
            return true;
        case Qt::Key_Up:
            m_list->setCurrentIndex(m_model->index(std::max(row - 1, 0), 0));
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            runRow(row);
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void CommandPalette::runRow(int row)
{
    const PaletteEntry *entry = m_model->entryAt(row);
    if (!entry)
        return;
    const std::function<void()> run = entry->run; // the entries may be replaced by what it runs
    hide();
    if (run)
        run();
}

} // namespace dra::views
