// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <unordered_set>

#include <QSortFilterProxyModel>

#include "core/inventory/device.h"

namespace dra::views {

// Filters the device table by plain text (any column) or by the set of devices a CEL selector
// matched, and sorts numbers and quantities by value.
class DeviceFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit DeviceFilterModel(QObject *parent = nullptr);

    void setText(const QString &text);
    // Shows only these devices; std::nullopt shows all again.
    void setSelectorMatches(std::optional<std::unordered_set<inventory::DeviceKey>> matches);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    std::optional<std::unordered_set<inventory::DeviceKey>> m_matches;
};

} // namespace dra::views
