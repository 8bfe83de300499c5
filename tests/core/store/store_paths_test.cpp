// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/store_paths.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace dra::store;

TEST(StorePathsTest, FollowTheXdgVariablesAndCreateTheFolders)
{
    QTemporaryDir dir;
    const QByteArray oldCache = qgetenv("XDG_CACHE_HOME");
    const QByteArray oldData = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_CACHE_HOME", QFile::encodeName(dir.filePath(QStringLiteral("cache"))));
    qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath(QStringLiteral("data"))));

    const dra::Result<QString> cache = defaultCachePath();
    const dra::Result<QString> state = defaultStatePath();

    for (const auto &[name, old] :
        { std::pair { "XDG_CACHE_HOME", oldCache }, std::pair { "XDG_DATA_HOME", oldData } }) {
        if (old.isNull())
            qunsetenv(name);
        else
            qputenv(name, old);
    }
    ASSERT_TRUE(cache.has_value());
    ASSERT_TRUE(state.has_value());
    EXPECT_EQ(*cache, dir.filePath(QStringLiteral("cache/draconsole/cache.db")));
    EXPECT_EQ(*state, dir.filePath(QStringLiteral("data/draconsole/state.db")));
    EXPECT_TRUE(QFileInfo(dir.filePath(QStringLiteral("cache/draconsole"))).isDir());
    EXPECT_TRUE(QFileInfo(dir.filePath(QStringLiteral("data/draconsole"))).isDir());
}
