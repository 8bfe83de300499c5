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
        return reportFailure(cache.error());
    Result<std::vector<store::ClusterInfo>> clusters = cache->clusters();
    Result<int64_t> rev = cache->currentRev();
    if (!clusters || !rev)
        return reportFailure(!clusters ? clusters.error() : rev.error());
    nlohmann::json document = { { "path", path.toStdString() }, { "bytes", QFileInfo(path).size() },
        { "revision", *rev }, { "clusters", nlohmann::json::array() } };
    for (const store::ClusterInfo &cluster : *clusters) {
        Result<std::vector<store::KindCount>> counts = cache->kindCounts(cluster.name);
        if (!counts)
            return reportFailure(counts.error());
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
            return reportFailure(QStringLiteral("cache rebuild: cannot move %1 aside").arg(path));
        for (const QString &suffix : { QStringLiteral("-wal"), QStringLiteral("-shm") })
            QFile::remove(path + suffix);
        out(QStringLiteral("moved the old cache to %1\n").arg(aside));
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    if (!cache)
        return reportFailure(cache.error());
    out(QStringLiteral(
        "created an empty cache at %1; fill it with `dractl import` or `dractl sync`\n")
            .arg(path));
    return Ok;
}

// The parser of every cache subcommand: --cache, and -o when `output` is true.
bool parseCacheOptions(const QStringList &arguments, const QString &description, bool output,
    QCommandLineParser &parser, int *exitCode)
{
    parser.addOption(cacheOption());
    if (output)
        parser.addOption(outputOption(QStringLiteral("text")));
    return parseOrExit(parser, arguments, description, exitCode);
}

int runCacheInfo(const QStringList &arguments)
{
    QCommandLineParser parser;
    int exitCode = Ok;
    if (!parseCacheOptions(arguments,
            QStringLiteral("What the cache holds: its size, revision and, per cluster, the "
                           "objects of each kind and when they were last written."),
            true, parser, &exitCode))
        return exitCode;
    return info(cachePath(parser), parser.value(QStringLiteral("output")));
}

int runCacheCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    int exitCode = Ok;
    if (!parseCacheOptions(arguments, QStringLiteral("Verify the cache file's integrity."), false,
            parser, &exitCode))
        return exitCode;
    const QString path = cachePath(parser);
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!cache)
        return reportFailure(cache.error());
    if (Result<void> checked = cache->quickCheck(); !checked)
        return reportFailure(checked.error());
    out(QStringLiteral("%1: ok\n").arg(path));
    return Ok;
}

int runCacheRebuild(const QStringList &arguments)
{
    QCommandLineParser parser;
    int exitCode = Ok;
    if (!parseCacheOptions(arguments,
            QStringLiteral("Move the cache aside and start an empty one (a cache is a mirror, "
                           "rebuilt from the cluster)."),
            false, parser, &exitCode))
        return exitCode;
    return rebuild(cachePath(parser));
}

int runCacheReset(const QStringList &arguments)
{
    QCommandLineParser parser;
    int exitCode = Ok;
    if (!parseCacheOptions(arguments, QStringLiteral("Delete the cache and start an empty one."),
            false, parser, &exitCode))
        return exitCode;
    const QString path = cachePath(parser);
    store::OpenOptions options;
    options.reset = true;
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite, options);
    if (!cache)
        return reportFailure(cache.error());
    out(QStringLiteral("%1: reset to an empty cache\n").arg(path));
    return Ok;
}

const CommandRegistration cacheRegistration(
    { .path = "cache", .summary = "Inspect, check, rebuild or reset the cache", .order = 80 });
const CommandRegistration cacheInfoRegistration(
    { .path = "cache info", .summary = "what the cache holds", .run = runCacheInfo, .order = 10 });
const CommandRegistration cacheCheckRegistration({ .path = "cache check",
    .summary = "verify its integrity",
    .run = runCacheCheck,
    .order = 20 });
const CommandRegistration cacheRebuildRegistration({ .path = "cache rebuild",
    .summary = "move it aside and start an empty one",
    .run = runCacheRebuild,
    .order = 30 });
const CommandRegistration cacheResetRegistration({ .path = "cache reset",
    .summary = "delete it and start an empty one",
    .run = runCacheReset,
    .order = 40 });

} // namespace

} // namespace dra::cli
