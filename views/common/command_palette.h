// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <vector>

#include <QAbstractListModel>
#include <QDialog>

class QLineEdit;
class QListView;

namespace dra::views {

// Something the palette can reach: a view, an action, or an object by name.
struct PaletteEntry
{
    QString title; // "Topology: h100-000", "ResourceClaim default/train-0"
    QString detail; // shown dimmed: the kind, the shortcut
    std::function<void()> run;
};

// Entries filtered by a query: every word of the query must occur in the title or detail, in
// any order, case-insensitively; titles that start with the query rank first. GUI thread.
class PaletteModel final : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit PaletteModel(QObject *parent = nullptr);

    void setEntries(std::vector<PaletteEntry> entries);
    void setQuery(const QString &query);
    const PaletteEntry *entryAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    void refilter();

    std::vector<PaletteEntry> m_entries;
    std::vector<int> m_visible; // indexes into m_entries, in display order
    QString m_query;
};

// Ctrl+K: a search box over every view and object; Enter runs the highlighted entry.
class CommandPalette final : public QDialog
{
    Q_OBJECT
public:
    explicit CommandPalette(QWidget *parent = nullptr);

    // Shows the palette with these entries and an empty query.
    void open(std::vector<PaletteEntry> entries);
    PaletteModel &model() { return *m_model; }
    QLineEdit *queryEdit() const { return m_query; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void runRow(int row);

    PaletteModel *m_model;
    QLineEdit *m_query;
    QListView *m_list;
};

} // namespace dra::views
