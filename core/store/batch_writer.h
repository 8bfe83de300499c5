// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Private to core/store: how CacheDb turns one WatchBatch into rows, inside a transaction the
// caller owns.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/model/object_record.h"
#include "core/store/sqlite.h"

namespace dra::store {

// The columns of an object's stored state, in the order storedRecord() reads them.
inline constexpr std::string_view kObjectColumns
    = "api_version, uid, resource_version, generation, created, json, rev";

// The stored state of `key` from a row holding kObjectColumns from column `first` on.
model::ObjectRecord storedRecord(const sqlite::Statement &row, int first, common::ObjectKey key);

// The writer's statements, prepared once: bulk loads run them tens of thousands of times.
struct WriterStatements
{
    sqlite::Statement selectObject, upsertObject, deleteObject, deleteDevices, insertDevice,
        insertChange, selectKind, upsertListVersion, touchCluster, selectKindInNamespace,
        upsertStream, setClusterServer;
};

[[nodiscard]] Result<std::unique_ptr<WriterStatements>> prepareWriterStatements(
    sqlite::Database &db);

// What one logged change did, kept until commit so the committed batch can be built from it.
struct Applied
{
    model::ChangeType type;
    int64_t rev = 0;
    int changeIndex = -1; // the batch change holding the object, or -1: use `stored`
    model::ObjectRecord stored;
};

// Applies one batch inside the caller's open write transaction; on failure the caller must roll
// back. `now` stamps every row (ms since the epoch); `applied`, when given, receives one entry
// per logged change in revision order.
[[nodiscard]] Result<model::BatchSummary> writeBatch(sqlite::Database &db,
    WriterStatements &statements, const model::WatchBatch &batch, int64_t now,
    std::vector<Applied> *applied);

// The stored form of ChangeType in the change log.
std::string_view changeTypeName(model::ChangeType type);
model::ChangeType changeTypeFromName(std::string_view name);

} // namespace dra::store
