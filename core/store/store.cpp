// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/store.h"

#include <utility>

#include <QDateTime>
#include <QMetaObject>

#include "core/common/logging.h"

namespace dra::store {

void registerStoreMetaTypes()
{
    qRegisterMetaType<dra::model::WatchBatch>();
    qRegisterMetaType<dra::model::CommittedBatch>();
    qRegisterMetaType<dra::common::Error>();
    qRegisterMetaType<dra::store::RetentionPolicy>();
    qRegisterMetaType<dra::store::RetentionSummary>();
}

Store::Store(CacheDb cache, QObject *parent)
    : QObject(parent)
    , m_cache(std::move(cache))
{
    registerStoreMetaTypes();
}

Store::~Store() = default;

void Store::enqueue(model::WatchBatch batch)
{
    m_pending.push_back(std::move(batch));
    if (m_flushQueued)
        return;
    // Posted behind the batches already queued to us, so a burst lands in one transaction.
    m_flushQueued = true;
    QMetaObject::invokeMethod(this, &Store::flush, Qt::QueuedConnection);
}

void Store::applyRetention(RetentionPolicy policy)
{
    flush(); // batches queued before the request are stored first
    Result<RetentionSummary> summary
        = m_cache.applyRetention(policy, QDateTime::currentMSecsSinceEpoch());
    if (!summary) {
        Q_EMIT failed(summary.error());
        return;
    }
    Q_EMIT retentionApplied(*summary);
}

void Store::flush()
{
    m_flushQueued = false;
    std::vector<model::WatchBatch> batches = std::exchange(m_pending, {});
    if (batches.empty())
        return;
    if (batches.size() > 1) {
        Result<std::vector<model::CommittedBatch>> committed = m_cache.applyAll(std::move(batches));
        if (committed) {
            for (const model::CommittedBatch &batch : *committed)
                Q_EMIT this->committed(batch);
            return;
        }
        // One bad batch must not cost the others: the failed call left them intact.
        qCWarning(lcStore) << "coalesced transaction failed, retrying batch by batch:"
                           << committed.error().message;
        applyEach(std::move(batches));
        return;
    }
    applyEach(std::move(batches));
}

void Store::applyEach(std::vector<model::WatchBatch> batches)
{
    for (model::WatchBatch &batch : batches) {
        std::vector<model::WatchBatch> one;
        one.push_back(std::move(batch));
        Result<std::vector<model::CommittedBatch>> committed = m_cache.applyAll(std::move(one));
        if (!committed) {
            Q_EMIT failed(committed.error());
            continue;
        }
        Q_EMIT this->committed(committed->front());
    }
}

} // namespace dra::store
