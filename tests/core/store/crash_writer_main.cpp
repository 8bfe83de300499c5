// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A cache writer for the crash test: applies crashBatch(n), n = 1, 2, ... (resuming after the
// last batch the cache holds) until it is killed, announcing each batch on stdout before and
// after its transaction.
#include <cstdio>
#include <string>

#include <QString>

#include "core/store/cache_db.h"
#include "tests/core/store/store_fixtures.h"

using namespace dra::store;
using namespace dra::model;

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CACHE_FILE\n", argv[0]);
        return 2;
    }
    dra::Result<CacheDb> cache
        = CacheDb::open(QString::fromLocal8Bit(argv[1]), OpenMode::ReadWrite);
    if (!cache) {
        std::fprintf(stderr, "%s\n", cache.error().message.toLocal8Bit().constData());
        return 1;
    }
    const dra::Result<std::optional<std::string>> reached
        = cache->listVersion(test::kCrashCluster, test::kResourceGroup, "ResourceSlice");
    if (!reached) {
        std::fprintf(stderr, "%s\n", reached.error().message.toLocal8Bit().constData());
        return 1;
    }
    for (int index = *reached ? std::stoi(**reached) + 1 : 1;; ++index) {
        const WatchBatch batch = test::crashBatch(index);
        std::printf("begin %d\n", index);
        std::fflush(stdout);
        const dra::Result<BatchSummary> applied = cache->apply(batch);
        if (!applied) {
            std::fprintf(stderr, "%s\n", applied.error().message.toLocal8Bit().constData());
            return 1;
        }
        std::printf("committed %d\n", index);
        std::fflush(stdout);
    }
}
