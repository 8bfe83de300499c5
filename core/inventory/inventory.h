// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QObject>

#include "core/inventory/snapshot_builder.h"
#include "core/model/object_record.h"

namespace dra::inventory {

// The live inventory of one cluster: applies the batches the store committed, in order, and
// announces each resulting snapshot with what changed. Connect Store::committed to apply() and
// views to changed(). Lives on the GUI thread; snapshots it hands out are read anywhere.
class Inventory final : public QObject
{
    Q_OBJECT
public:
    // Starts from `initial`, typically loadSnapshot() of the cache at launch.
    explicit Inventory(SnapshotPtr initial, QObject *parent = nullptr);

    SnapshotPtr snapshot() const { return m_snapshot; }

public Q_SLOTS:
    // Applies a committed batch; batches of other clusters and empty ones are ignored.
    void apply(const dra::model::CommittedBatch &batch);
    // Replaces the snapshot wholesale (a reload after a relist or a cluster switch); views reset.
    void reset(dra::inventory::SnapshotPtr snapshot);

Q_SIGNALS:
    void changed(const dra::inventory::ChangeSet &changes);
    void wasReset(const dra::inventory::SnapshotPtr &snapshot);

private:
    SnapshotPtr m_snapshot;
};

// Registers ChangeSet and SnapshotPtr for queued connections; idempotent, any thread.
void registerInventoryMetaTypes();

} // namespace dra::inventory

Q_DECLARE_METATYPE(dra::inventory::SnapshotPtr)
