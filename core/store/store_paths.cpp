// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/store_paths.h"

#include <QDir>
#include <QStandardPaths>

namespace dra::store {

namespace {

// Generic locations, not the app-specific ones: those would depend on QCoreApplication's
// organization and name, which differ between draconsole and dractl.
Result<QString> pathIn(QStandardPaths::StandardLocation location, const QString &fileName)
{
    const QString base = QStandardPaths::writableLocation(location);
    if (base.isEmpty())
        return fail(
            common::Error::Code::Database, QStringLiteral("no writable location for ") + fileName);
    const QString folder = base + QStringLiteral("/draconsole");
    if (!QDir().mkpath(folder)) {
        return fail(common::Error::Code::Database,
            QDir::toNativeSeparators(folder) + QStringLiteral(": cannot create the folder"));
    }
    return folder + QLatin1Char('/') + fileName;
}

} // namespace

Result<QString> defaultCachePath()
{
    return pathIn(QStandardPaths::GenericCacheLocation, QStringLiteral("cache.db"));
}

Result<QString> defaultStatePath()
{
    return pathIn(QStandardPaths::GenericDataLocation, QStringLiteral("state.db"));
}

} // namespace dra::store
