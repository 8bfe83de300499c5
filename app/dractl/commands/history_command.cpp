// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl history: the cache's change log, per kind or object, and its retention.
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/history_support.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/option_values.h"
#include "core/common/json_text.h"
#include "core/store/cache_db.h"

namespace dra::cli {

namespace {

using common::Error;
using common::qs;

std::string_view typeName(model::ChangeType type)
{
    switch (type) {
    case model::ChangeType::Added:
        return "ADDED";
    case model::ChangeType::Modified:
        return "MODIFIED";
    case model::ChangeType::Deleted:
        return "DELETED";
    }
    return "MODIFIED";
}

int runPrune(const QCommandLineParser &parser)
{
    store::RetentionPolicy policy;
    if (parser.isSet(QStringLiteral("max-age"))) {
        Result<int64_t> age = durationOption(parser, QStringLiteral("max-age"));
        if (!age)
            return reportFailure(age.error());
        policy.maxAgeMs = *age;
    }
    if (parser.isSet(QStringLiteral("max-size"))) {
        Result<int64_t> bytes = sizeOption(parser, QStringLiteral("max-size"));
        if (!bytes)
            return reportFailure(bytes.error());
        policy.maxBytes = *bytes;
    }
    if (policy.maxAgeMs == 0 && policy.maxBytes == 0)
        return reportFailure(QStringLiteral("history prune: give --max-age, --max-size or both"));
    const QString file = cachePath(parser);
    if (!QFileInfo::exists(file))
        return reportFailure(QStringLiteral("%1 does not exist").arg(file));
    Result<store::CacheDb> cache = store::CacheDb::open(file, store::OpenMode::ReadWrite);
    if (!cache)
        return reportFailure(cache.error());
    Result<store::RetentionSummary> summary
        = cache->applyRetention(policy, QDateTime::currentMSecsSinceEpoch());
    if (!summary)
        return reportFailure(summary.error());
    out(QStringLiteral("%1: %2 changes removed, %3 kept; %4 -> %5 bytes\n")
            .arg(file)
            .arg(summary->deletedChanges)
            .arg(summary->keptChanges)
            .arg(summary->bytesBefore)
            .arg(summary->bytesAfter));
    return Ok;
}

} // namespace

int runHistory(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("table")));
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("Only this namespace (default: all)."), QStringLiteral("ns") });
    parser.addOption({ QStringLiteral("since"),
        QStringLiteral("Only changes at or after this time (10m, 2h, 3d, "
                       "2026-11-30T10:00:00Z)."),
        QStringLiteral("time") });
    parser.addOption({ QStringLiteral("until"),
        QStringLiteral("Only changes at or before this time."), QStringLiteral("time") });
    parser.addOption(
        { QStringLiteral("limit"), QStringLiteral("At most this many changes (default 1000)."),
            QStringLiteral("n"), QStringLiteral("1000") });
    parser.addOption({ QStringLiteral("max-age"),
        QStringLiteral("prune: drop changes older than this (e.g. 7d)."), QStringLiteral("age") });
    parser.addOption({ QStringLiteral("max-size"),
        QStringLiteral("prune: keep at most this much history (e.g. 500MB)."),
        QStringLiteral("size") });
    parser.addPositionalArgument(QStringLiteral("kind"),
        QStringLiteral("A kind (resourceslices, claim, pod, ...), or "
                       "`prune` to apply a retention policy."),
        QStringLiteral("[KIND [NAME] | prune]"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Show the cache's change log: every change the mirror, an import or the demo "
                "cluster made, oldest first, with the console's revision and the cluster's "
                "resourceVersion. `history prune --max-age 7d --max-size 500MB` trims it and "
                "compacts the file."),
            &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.value(0) == QLatin1String("prune"))
        return runPrune(parser);
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("table") && !isStructured(format))
        return reportFailure(QStringLiteral("-o %1: expected table, json or yaml").arg(format));

    const int64_t now = QDateTime::currentMSecsSinceEpoch();
    store::HistoryQuery query;
    if (!positional.isEmpty()) {
        const model::KindInfo *kind = model::findKind(positional[0].toStdString());
        if (!kind)
            return reportFailure(QStringLiteral("unknown kind \"%1\"").arg(positional[0]));
        query.group = std::string(kind->group);
        query.kind = std::string(kind->name);
        query.name = positional.value(1).toStdString();
    }
    if (parser.isSet(QStringLiteral("namespace")))
        query.ns = parser.value(QStringLiteral("namespace")).toStdString();
    for (auto [option, target] :
        { std::pair { "since", &query.sinceMs }, std::pair { "until", &query.untilMs } }) {
        if (!parser.isSet(QLatin1String(option)))
            continue;
        Result<int64_t> point = parseTimePoint(
            parser.value(QLatin1String(option)), QStringLiteral("--") + QLatin1String(option), now);
        if (!point)
            return reportFailure(point.error());
        *target = *point;
    }
    bool limitOk = false;
    query.limit = parser.value(QStringLiteral("limit")).toInt(&limitOk);
    if (!limitOk || query.limit <= 0)
        return reportFailure(QStringLiteral("--limit: expected a positive number"));

    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return reportFailure(opened.error());
    query.cluster = opened->cluster;
    Result<std::vector<store::LoggedChange>> changes = opened->cache.history(query);
    if (!changes)
        return reportFailure(changes.error());

    if (isStructured(format)) {
        nlohmann::json list = nlohmann::json::array();
        for (const store::LoggedChange &change : *changes) {
            nlohmann::json item = { { "rev", change.rev },
                { "time",
                    QDateTime::fromMSecsSinceEpoch(change.at, Qt::UTC)
                        .toString(Qt::ISODateWithMs)
                        .toStdString() },
                { "type", typeName(change.type) }, { "kind", change.key.kind },
                { "name", change.key.name }, { "resourceVersion", change.resourceVersion } };
            if (!change.key.group.empty())
                item["group"] = change.key.group;
            if (!change.key.ns.empty())
                item["namespace"] = change.key.ns;
            if (!query.name.empty()) // one object: its states too
                item["object"] = nlohmann::json::parse(change.json, nullptr, false);
            list.push_back(std::move(item));
        }
        if (format == QLatin1String("json"))
            printJson(list);
        else
            printYaml(list);
        return Ok;
    }
    std::vector<std::vector<std::string>> rows;
    for (const store::LoggedChange &change : *changes) {
        rows.push_back({ std::to_string(change.rev), formatTime(change.at).toStdString(),
            std::string(typeName(change.type)), change.key.kind,
            change.key.ns.empty() ? change.key.name : change.key.ns + "/" + change.key.name,
            change.resourceVersion });
    }
    Result<std::pair<int64_t, int64_t>> oldest = opened->cache.oldestChange();
    printTable({ "REV", "TIME", "CHANGE", "KIND", "NAME", "RESOURCEVERSION" }, rows,
        oldest && oldest->second > 0 ? QStringLiteral("No changes found (the log goes back to %1).")
                                           .arg(formatTime(oldest->first))
                                     : QStringLiteral("No changes found."));
    if (int64_t(changes->size()) == query.limit)
        err(QStringLiteral("(first %1 changes shown; use --limit or --since for more)\n")
                .arg(query.limit));
    return Ok;
}

namespace {
const CommandRegistration historyRegistration(
    { "history", "Show the change log of the cache (what changed, when)", runHistory, 35 });
} // namespace

} // namespace dra::cli
