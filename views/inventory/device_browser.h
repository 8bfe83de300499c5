// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>

#include <QWidget>

#include "core/inventory/device_category.h"
#include "core/inventory/snapshot.h"

class QAbstractButton;
class QButtonGroup;
class QComboBox;
class QSplitter;
class QLabel;
class QLineEdit;
class QTableView;
class QTextBrowser;

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

class CelEditor;
class DeviceFilterModel;
class DeviceTableModel;
class SelectorRunner;
class TableLayout;

// The flat device table with its filter bar (plain text, or a CEL selector evaluated live
// against every device), one-click kind filters, and the details of the selected device (a
// pane that opens at the first selection).
class DeviceBrowser final : public QWidget
{
    Q_OBJECT
public:
    explicit DeviceBrowser(QWidget *parent = nullptr);

    void reset(inventory::SnapshotPtr snapshot);
    void applyChanges(const inventory::ChangeSet &changes);

    // Selects and shows a device; false when the inventory has no such device.
    bool selectDevice(const inventory::DeviceKey &key);
    // Filters by a CEL selector, as if typed in CEL mode.
    void setSelectorFilter(const QString &expression);

    DeviceTableModel *tableModel() const { return m_model; }
    DeviceFilterModel *filterModel() const { return m_filter; }
    QTableView *table() const { return m_table; }
    CelEditor *selectorEditor() const { return m_selector; }
    SelectorRunner *selectorRunner() const { return m_runner; }
    QString statusText() const;
    // Shows only one kind of device (all with std::nullopt), as a click on its button does.
    void setKindFilter(std::optional<inventory::DeviceCategory> category);
    QAbstractButton *kindButton(std::optional<inventory::DeviceCategory> category) const;
    QSplitter *splitter() const { return m_splitter; }
    TableLayout *tableLayout() const { return m_layout; }

Q_SIGNALS:
    void deviceSelected(const dra::inventory::DeviceKey &key);

private:
    void setMode(int mode);
    void showSelection();
    void updateStatus();

    DeviceTableModel *m_model;
    DeviceFilterModel *m_filter;
    SelectorRunner *m_runner;
    QComboBox *m_mode;
    QLineEdit *m_text;
    CelEditor *m_selector;
    QLabel *m_status;
    QTableView *m_table;
    QTextBrowser *m_details;
    QSplitter *m_splitter;
    QButtonGroup *m_kinds;
    TableLayout *m_layout = nullptr;
    QString m_selectorStatus;
    int m_vocabularyGeneration = 0;
};

} // namespace dra::views
