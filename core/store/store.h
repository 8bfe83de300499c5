// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QObject>

#include "core/common/error.h"
#include "core/store/cache_db.h"
#include "core/model/object_record.h"

namespace dra::store {

// The single writer of the cache, living on its own thread: batches arrive by queued calls to
// enqueue(), and the ones that arrive while a transaction is pending are applied together in one
// transaction. Each batch is then announced by committed(), in order, or by failed().
// Construct with an open writer CacheDb, then moveToThread(); all slots run on that thread.
class Store final : public QObject
{
    Q_OBJECT
public:
    explicit Store(CacheDb cache, QObject *parent = nullptr);
    ~Store() override;

public Q_SLOTS:
    // Queues a batch for the next transaction. Store thread.
    void enqueue(dra::model::WatchBatch batch);
    // Trims the change log to `policy` after the pending batches, then announces the outcome by
    // retentionApplied() or failed(). Store thread.
    void applyRetention(dra::store::RetentionPolicy policy);

Q_SIGNALS:
    // A batch is durable and visible to readers; changes carry their revisions.
    void committed(const dra::model::CommittedBatch &batch);
    // A batch could not be stored; none of it is in the cache.
    void failed(const dra::common::Error &error);
    // The change log was trimmed.
    void retentionApplied(const dra::store::RetentionSummary &summary);

private:
    void flush();
    void applyEach(std::vector<model::WatchBatch> batches);

    CacheDb m_cache;
    std::vector<model::WatchBatch> m_pending;
    bool m_flushQueued = false;
};

// Registers the store's signal argument types for queued connections; idempotent, any thread.
void registerStoreMetaTypes();

} // namespace dra::store

Q_DECLARE_METATYPE(dra::store::RetentionPolicy)
Q_DECLARE_METATYPE(dra::store::RetentionSummary)
