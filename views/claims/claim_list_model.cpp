// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/claims/claim_list_model.h"

#include <set>

#include <QDateTime>

#include "core/inventory/age.h"
#include "core/inventory/snapshot_builder.h"
#include "core/common/json_text.h"

namespace dra::views {
namespace {

using common::qs;

const model::ResourceClaimSpec *specOf(const model::Object &object)
{
    if (const auto *claim = object.as<model::ResourceClaim>())
        return &claim->spec;
    if (const auto *tmpl = object.as<model::ResourceClaimTemplate>())
        return &tmpl->spec;
    return nullptr;
}

QString requestsText(const model::ResourceClaimSpec &spec)
{
    QStringList parts;
    for (const auto &request : spec.requests) {
        if (request.exactly) {
            const auto &exactly = *request.exactly;
            const QString count = exactly.allocationMode == "All" ? QStringLiteral("all")
                                                                  : QString::number(exactly.count);
            parts << QStringLiteral("%1: %2× %3")
                         .arg(qs(request.name), count, qs(exactly.deviceClassName));
        } else {
            QStringList options;
            for (const auto &sub : request.firstAvailable)
                options << qs(sub.deviceClassName);
            parts << QStringLiteral("%1: first of %2")
                         .arg(qs(request.name), options.join(QStringLiteral(" | ")));
        }
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace

QString claimPhaseName(ClaimPhase phase)
{
    switch (phase) {
    case ClaimPhase::Pending:
        return QStringLiteral("pending");
    case ClaimPhase::Allocated:
        return QStringLiteral("allocated");
    case ClaimPhase::Reserved:
        return QStringLiteral("reserved");
    case ClaimPhase::InUse:
        return QStringLiteral("in use");
    }
    return {};
}

ClaimPhase claimPhase(const inventory::Snapshot &snapshot, const model::Object &object)
{
    const auto *claim = object.as<model::ResourceClaim>();
    if (!claim || !claim->allocation)
        return ClaimPhase::Pending;
    if (claim->reservedFor.empty())
        return ClaimPhase::Allocated;
    for (const auto &consumer : claim->reservedFor) {
        if (consumer.resource != "pods")
            continue;
        const model::Object *pod = snapshot.object(model::Kind::Pod, object.meta.ns, consumer.name);
        if (pod && pod->as<model::Pod>() && pod->as<model::Pod>()->phase == "Running")
            return ClaimPhase::InUse;
    }
    return ClaimPhase::Reserved;
}

ClaimListModel::ClaimListModel(model::Kind kind, QObject *parent)
    : QAbstractTableModel(parent)
    , m_kind(kind)
{
}

void ClaimListModel::reset(inventory::SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows.clear();
    if (m_snapshot)
        for (const auto &object : m_snapshot->objects(m_kind))
            m_rows.push_back(object);
    endResetModel();
}

void ClaimListModel::applyChanges(const inventory::ChangeSet &changes)
{
    if (!changes.snapshot)
        return;
    const std::string_view kind = model::kindInfo(m_kind).name;
    bool touched = changes.allocationsChanged;
    for (const auto &key : changes.objects)
        touched = touched || key.kind == kind || key.kind == "Pod";
    m_snapshot = changes.snapshot;
    if (!touched)
        return;

    // Remove rows whose object is gone, then refresh or append the rest in snapshot order.
    const auto fresh = m_snapshot->objects(m_kind);
    std::set<std::pair<std::string, std::string>> present;
    for (const auto &object : fresh)
        present.emplace(object->meta.ns, object->meta.name);
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        const auto &meta = m_rows[size_t(row)]->meta;
        if (!present.contains({ meta.ns, meta.name })) {
            beginRemoveRows({}, row, row);
            m_rows.erase(m_rows.begin() + row);
            endRemoveRows();
        }
    }
    for (const auto &object : fresh) {
        const int row = rowOf(qs(object->meta.ns), qs(object->meta.name));
        if (row >= 0) {
            m_rows[size_t(row)] = object;
            continue;
        }
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows.push_back(object);
        endInsertRows();
    }
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

const model::Object *ClaimListModel::objectAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? m_rows[size_t(row)].get() : nullptr;
}

int ClaimListModel::rowOf(const QString &ns, const QString &name) const
{
    const std::string n = ns.toStdString(), nm = name.toStdString();
    for (int row = 0; row < int(m_rows.size()); ++row)
        if (m_rows[size_t(row)]->meta.ns == n && m_rows[size_t(row)]->meta.name == nm)
            return row;
    return -1;
}

int ClaimListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ClaimListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const model::Object &object = *m_rows[size_t(index.row())];
    if (role == ObjectKeyRole)
        return QStringList { qs(object.meta.ns), qs(object.meta.name) };
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const auto *claim = object.as<model::ResourceClaim>();
    switch (Column(index.column())) {
    case Namespace:
        return qs(object.meta.ns);
    case Name:
        return qs(object.meta.name);
    case Phase:
        if (m_kind != model::Kind::ResourceClaim)
            return {};
        return claimPhaseName(claimPhase(*m_snapshot, object));
    case Requests:
        if (const auto *spec = specOf(object))
            return requestsText(*spec);
        return {};
    case Devices: {
        if (!claim || !claim->allocation)
            return {};
        QStringList devices;
        for (const auto &result : claim->allocation->results)
            devices << qs(result.device);
        return devices.join(QStringLiteral(", "));
    }
    case Node: {
        if (!claim || !claim->allocation)
            return {};
        // Node-local devices tell the node; the allocation's node selector says it otherwise.
        for (const auto &result : claim->allocation->results)
            if (const auto *device
                = m_snapshot->device({ result.driver, result.pool, result.device }))
                if (!device->node.empty())
                    return qs(device->node);
        return {};
    }
    case Pods: {
        if (!claim)
            return {};
        QStringList pods;
        for (const auto &consumer : claim->reservedFor)
            pods << qs(consumer.name);
        return pods.join(QStringLiteral(", "));
    }
    case Age:
        if (role == SortRole)
            return qlonglong(inventory::parseTimestamp(object.meta.creationTimestamp));
        return qs(
            inventory::humanAge(object.meta.creationTimestamp, QDateTime::currentSecsSinceEpoch()));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ClaimListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount]
        = { "Namespace", "Name", "State", "Requests", "Devices", "Node", "Reserved for", "Age" };
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace dra::views
