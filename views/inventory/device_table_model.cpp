// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_table_model.h"

#include <algorithm>
#include <set>

#include <QColor>

#include "core/inventory/device_category.h"
#include "core/inventory/snapshot_builder.h"
#include "views/common/theme.h"
#include "core/common/json_text.h"

namespace dra::views {
namespace {

using common::qs;

// The memory a device offers: its `memory` capacity in the driver's domain, as published.
const model::Quantity *memoryOf(const inventory::Device &device)
{
    return device.capacity("memory");
}

// What tells NICs apart, where a GPU shows its model: "eth1 · pci0000:8a · RDMA".
QString nicFacts(const inventory::Device &device)
{
    QStringList facts;
    if (const std::string name = device.attributeText("ifName"); !name.empty())
        facts << qs(name);
    if (const std::string root = device.attributeText("resource.kubernetes.io/pcieRoot");
        !root.empty())
        facts << qs(root);
    if (device.attributeText("rdma") == "true")
        facts << QStringLiteral("RDMA");
    if (facts.isEmpty())
        return qs(device.productName());
    return facts.join(QStringLiteral(" · "));
}

} // namespace

DeviceTableModel::DeviceTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DeviceTableModel::reset(inventory::SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    if (m_snapshot) {
        m_rows.reserve(m_snapshot->devices().size());
        for (const inventory::Device *device : inventory::devicesInBrowseOrder(*m_snapshot))
            m_rows.push_back(device->key);
    }
    rebuildIndex();
    endResetModel();
}

void DeviceTableModel::rebuildIndex()
{
    m_rowOf.clear();
    m_rowOf.reserve(m_rows.size());
    for (int row = 0; row < int(m_rows.size()); ++row)
        m_rowOf.emplace(m_rows[size_t(row)], row);
}

void DeviceTableModel::applyChanges(const inventory::ChangeSet &changes)
{
    if (!changes.snapshot)
        return;
    m_snapshot = changes.snapshot;

    // Removals: contiguous runs from the bottom up, so earlier row numbers stay valid.
    std::vector<int> removed;
    for (const auto &key : changes.devicesRemoved)
        if (auto it = m_rowOf.find(key); it != m_rowOf.end())
            removed.push_back(it->second);
    std::ranges::sort(removed, std::greater<>());
    for (size_t i = 0; i < removed.size();) {
        size_t j = i;
        while (j + 1 < removed.size() && removed[j + 1] == removed[j] - 1)
            ++j;
        const int first = removed[j], last = removed[i];
        beginRemoveRows({}, first, last);
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        endRemoveRows();
        i = j + 1;
    }
    if (!removed.empty())
        rebuildIndex();

    // New devices take their place in the browse order (by node, then kind), one at a time:
    // a live cluster adds a slice or two per batch.
    bool added = false;
    for (const auto &key : changes.devicesAdded) {
        const inventory::Device *device = m_snapshot->device(key);
        if (m_rowOf.contains(key) || !device)
            continue;
        const auto at = std::upper_bound(m_rows.begin(), m_rows.end(), *device,
            [this](const inventory::Device &a, const inventory::DeviceKey &b) {
                const inventory::Device *other = m_snapshot->device(b);
                return other && inventory::browsesBefore(a, *other);
            });
        const int row = int(at - m_rows.begin());
        beginInsertRows({}, row, row);
        m_rows.insert(at, key);
        m_rowOf.emplace(key, row); // corrected below, once all are in
        endInsertRows();
        added = true;
    }
    if (added)
        rebuildIndex();

    if (changes.allocationsChanged && !m_rows.empty()) {
        // Who holds what can move for any device; the cells are computed on demand, so one
        // signal over the allocation columns is cheaper than finding the rows.
        Q_EMIT dataChanged(index(0, State), index(int(m_rows.size()) - 1, Pods));
    }
    for (const auto &key : changes.devicesChanged)
        if (auto it = m_rowOf.find(key); it != m_rowOf.end())
            Q_EMIT dataChanged(index(it->second, 0), index(it->second, ColumnCount - 1));
}

const inventory::Device *DeviceTableModel::deviceAt(int row) const
{
    if (!m_snapshot || row < 0 || row >= int(m_rows.size()))
        return nullptr;
    return m_snapshot->device(m_rows[size_t(row)]);
}

int DeviceTableModel::rowOf(const inventory::DeviceKey &key) const
{
    const auto it = m_rowOf.find(key);
    return it == m_rowOf.end() ? -1 : it->second;
}

int DeviceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant DeviceTableModel::cell(const inventory::Snapshot &snapshot,
    const inventory::Device &device, std::span<const inventory::DeviceHold> holds, int column,
    int role)
{
    switch (Column(column)) {
    case Name:
        return qs(device.key.device);
    case Node:
        return device.node.empty() ? QStringLiteral("(network)") : qs(device.node);
    case Driver:
        return qs(device.key.driver);
    case Pool:
        return qs(device.key.pool);
    case Type: {
        const std::string type = device.type();
        if (type.empty() && inventory::categoryOf(device) == inventory::DeviceCategory::Nic)
            return QStringLiteral("nic");
        return qs(type);
    }
    case Product: {
        if (inventory::categoryOf(device) == inventory::DeviceCategory::Nic)
            return nicFacts(device);
        const std::string profile = device.profile();
        return profile.empty() ? qs(device.productName()) : qs(profile);
    }
    case Memory: {
        const model::Quantity *memory = memoryOf(device);
        if (!memory)
            return {};
        if (role == SortRole)
            return memory->asApproximateDouble();
        return qs(memory->toString());
    }
    case State:
        return qs(inventory::deviceStateName(snapshot.state(device)));
    case Holder: {
        QStringList claims;
        for (const auto &hold : holds)
            claims << qs(hold.claim.ns + "/" + hold.claim.name)
                    + (hold.adminAccess ? QStringLiteral(" (admin)") : QString());
        return claims.join(QStringLiteral(", "));
    }
    case Pods: {
        QStringList pods;
        for (const auto &hold : holds)
            for (const auto &pod : hold.pods)
                pods << qs(pod);
        return pods.join(QStringLiteral(", "));
    }
    case ColumnCount:
        break;
    }
    return {};
}

QString DeviceTableModel::searchText(
    const inventory::Snapshot &snapshot, const inventory::Device &device)
{
    const auto holds = snapshot.holds(device.key);
    QString text;
    for (int column = 0; column < ColumnCount; ++column) {
        text += cell(snapshot, device, holds, column, Qt::DisplayRole).toString();
        text += QLatin1Char('\n');
    }
    return text;
}

QString DeviceTableModel::searchText(int row) const
{
    const inventory::Device *device = deviceAt(row);
    return device ? searchText(*m_snapshot, *device) : QString();
}

QVariant DeviceTableModel::sortValue(int row, int column) const
{
    const inventory::Device *device = deviceAt(row);
    if (!device || column < 0 || column >= ColumnCount)
        return {};
    return cell(*m_snapshot, *device, m_snapshot->holds(device->key), column, SortRole);
}

QVariant DeviceTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const inventory::Device *device = deviceAt(index.row());
    if (!device)
        return {};
    const auto holds = m_snapshot->holds(device->key);
    if (role == DeviceKeyRole)
        return QStringList { qs(device->key.driver), qs(device->key.pool), qs(device->key.device) };
    if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
        return cell(*m_snapshot, *device, holds, index.column(), role);
    if (role == Qt::ForegroundRole && index.column() == State) {
        switch (m_snapshot->state(*device)) {
        case inventory::DeviceState::Free:
            return themeColors().okText;
        case inventory::DeviceState::Allocated:
            return {};
        case inventory::DeviceState::Blocked:
        case inventory::DeviceState::Tainted:
            return themeColors().warningText;
        }
    }
    if (role == Qt::DecorationRole && index.column() == Holder && !holds.empty())
        return holderColor(qs(holds.front().claim.ns + "/" + holds.front().claim.name));
    if (role == Qt::TextAlignmentRole && index.column() == Memory)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DeviceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = { "Device", "Node", "Driver", "Pool", "Type",
        "Model / profile / NIC", "Memory", "State", "Claim", "Pods" };
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace dra::views
