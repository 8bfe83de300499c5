// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Private to core/store: the state behind CacheDb, shared by its writer and reader halves.
#pragma once

#include <memory>

#include "core/store/cache_db.h"
#include "core/store/batch_writer.h"
#include "core/store/db_file.h"

namespace dra::store {

struct CacheDb::Impl
{
    DbFile file;
    bool writer = false;
    std::unique_ptr<WriterStatements> statements; // prepared on the first apply, then reused
};

// The error for a CacheDb that is not open (default-constructed or moved from).
inline common::Error cacheNotOpen()
{
    return common::Error { common::Error::Code::Internal, QStringLiteral("the cache is not open") };
}

} // namespace dra::store
