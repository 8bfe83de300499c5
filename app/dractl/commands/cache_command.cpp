// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl cache: look after the cache file itself.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/store/cache_db.h"

namespace dra::cli {

namespace {

using common::qs;

int info(const QString &path, const QString &format)
{
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!cache)
        return fail(cache.error());
    Result<std::vector<store::ClusterInfo>> clusters = cache->clusters();
    Result<int64_t> rev = cache->currentRev();
    if (!clusters || !rev)
        return fail(!clusters ? clusters.error() : rev.error());
    nlohmann::json document = { { "path", path.toStdString() }, { "bytes", QFileInfo(path).size() },
        { "revision", *rev }, { "clusters", nlohmann::json::array() } };
    for (const store::ClusterInfo &cluster : *clusters) {
        Result<std::vector<store::KindCount>> counts = cache->kindCounts(cluster.name);
        if (!counts)
            return fail(counts.error());
        nlohmann::json kinds = nlohmann::json::object();
        for (const store::KindCount &count : *counts)
            kinds[count.kind] = count.count;
        document["clusters"].push_back({ { "name", cluster.name }, { "server", cluster.server },
            { "version", cluster.version },
            { "lastSync",
                QDateTime::fromMSecsSinceEpoch(cluster.lastSync, Qt::UTC)
                    .toString(Qt::ISODate)
                    .toStdString() },
            { "objects", kinds } });
    }
    if (isStructured(format)) {
        format == QLatin1String("json") ? printJson(document) : printYaml(document);
        return Ok;
    }
    out(QStringLiteral("cache %1 (%2 KiB, revision %3)\n")
            .arg(path)
            .arg(QFileInfo(path).size() / 1024)
            .arg(*rev));
    for (const auto &cluster : document["clusters"]) {
        out(QStringLiteral("cluster %1, last written %2\n")
                .arg(qs(cluster["name"].get<std::string>()),
                    qs(cluster["lastSync"].get<std::string>())));
        for (const auto &[kind, count] : cluster["objects"].items())
            out(QStringLiteral("  %1 %2\n")
                    .arg(qs(kind).leftJustified(24))
                    .arg(count.get<int64_t>()));
    }
    return Ok;
}

// A cache is a mirror: rebuilding starts it empty. The old file is moved aside rather than
// deleted, since a file that fails to open may not be ours at all.
int rebuild(const QString &path)
{
    if (QFileInfo::exists(path)) {
        const QString aside = path + QStringLiteral(".old-")
            + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddHHmmss"));
        if (!QFile::rename(path, aside))
            return fail(QStringLiteral("cache rebuild: cannot move %1 aside").arg(path));
        for (const QString &suffix : { QStringLiteral("-wal"), QStringLiteral("-shm") })
            QFile::remove(path + suffix);
        out(QStringLiteral("moved the old cache to %1\n").arg(aside));
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    if (!cache)
        return fail(cache.error());
    out(QStringLiteral(
        "created an empty cache at %1; fill it with `dractl import` or `dractl sync`\n")
            .arg(path));
    return Ok;
}

} // namespace

int runCache(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addPositionalArgument(QStringLiteral("action"),
        QStringLiteral("info: what the cache holds; check: verify its integrity; rebuild: "
                       "move it aside and start an empty one; reset: delete it and start "
                       "an empty one."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Inspect, check, rebuild or reset the cache."), &exitCode))
        return exitCode;
    const QString action = parser.positionalArguments().value(0);
    const QString path = cachePath(parser);
    if (action == QLatin1String("info"))
        return info(path, parser.value(QStringLiteral("output")));
    if (action == QLatin1String("check")) {
        Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadOnly);
        if (!cache)
            return fail(cache.error());
        if (Result<void> checked = cache->quickCheck(); !checked)
            return fail(checked.error());
        out(QStringLiteral("%1: ok\n").arg(path));
        return Ok;
    }
    if (action == QLatin1String("rebuild"))
        return rebuild(path);
    if (action == QLatin1String("reset")) {
        store::OpenOptions options;
        options.reset = true;
        Result<store::CacheDb> cache
            = store::CacheDb::open(path, store::OpenMode::ReadWrite, options);
        if (!cache)
            return fail(cache.error());
        out(QStringLiteral("%1: reset to an empty cache\n").arg(path));
        return Ok;
    }
    return fail(QStringLiteral("cache: say info, check, rebuild or reset"));
}

namespace {
const CommandRegistration cacheRegistration(
    { "cache", "Inspect, check, rebuild or reset the cache", runCache, 80 });
} // namespace

} // namespace dra::cli
