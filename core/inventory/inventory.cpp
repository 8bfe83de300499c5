// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/inventory.h"

namespace dra::inventory {

Inventory::Inventory(SnapshotPtr initial, QObject *parent)
    : QObject(parent)
    , m_snapshot(std::move(initial))
{
}

void Inventory::apply(const dra::model::CommittedBatch &batch)
{
    ChangeSet changes;
    SnapshotPtr next = applyBatch(m_snapshot, batch, &changes);
    if (next == m_snapshot)
        return;
    m_snapshot = std::move(next);
    Q_EMIT changed(changes);
}

void Inventory::reset(dra::inventory::SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    Q_EMIT wasReset(m_snapshot);
}

void registerInventoryMetaTypes()
{
    qRegisterMetaType<dra::inventory::ChangeSet>();
    qRegisterMetaType<dra::inventory::SnapshotPtr>();
}

} // namespace dra::inventory
