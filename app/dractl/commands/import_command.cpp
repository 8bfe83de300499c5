// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl import: manifests and cluster dumps into the cache.
#include <map>
#include <set>

#include <QDir>
#include <QFileInfo>

#include "app/dractl/cli.h"
#include "core/common/json_text.h"
#include "core/model/manifest_reader.h"
#include "core/model/object.h"
#include "core/store/cache_db.h"
#include "core/model/record_codec.h"

namespace dra::cli {

int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption({ QStringLiteral("cluster"),
        QStringLiteral("The cluster the objects belong to (default: imported)."),
        QStringLiteral("name"), QStringLiteral("imported") });
    parser.addOption({ QStringLiteral("replace"),
        QStringLiteral(
            "Treat the input as the complete set of every kind it holds: cached objects of "
            "those kinds that it does not mention are deleted.") });
    parser.addPositionalArgument(QStringLiteral("path"),
        QStringLiteral("Files or directories (JSON or YAML)."), QStringLiteral("PATH..."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Load JSON or YAML objects (single objects, Lists, multi-document YAML, "
                "directories) into the cache. Invalid documents are reported as file:line and "
                "skipped; the valid ones are kept. Exit status 1 when anything was rejected."),
            &exitCode))
        return exitCode;
    const QStringList paths = parser.positionalArguments();
    if (paths.isEmpty())
        return reportFailure(QStringLiteral("import: name at least one file or directory"));

    const model::ManifestSet manifests = model::readManifests(paths);
    int rejected = 0;
    for (const model::ManifestProblem &problem : manifests.problems) {
        err(problem.message() + QLatin1Char('\n'));
        ++rejected;
    }

    model::WatchBatch batch;
    batch.cluster = parser.value(QStringLiteral("cluster")).toStdString();
    std::map<std::string, int> perKind;
    std::set<std::pair<std::string, std::string>> kindsSeen;
    for (const model::ManifestDocument &document : manifests.documents) {
        Result<model::Object> object = model::decodeObject(document.object);
        if (!object) {
            err(document.origin + QStringLiteral(": ") + object.error().message
                + QLatin1Char('\n'));
            ++rejected;
            continue;
        }
        const model::KindInfo &info = object->info();
        ++perKind[std::string(info.name)];
        kindsSeen.emplace(std::string(info.group), std::string(info.name));
        batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*object) });
    }
    if (parser.isSet(QStringLiteral("replace")))
        batch.replaceKinds.assign(kindsSeen.begin(), kindsSeen.end());

    const QString cacheFile = cachePath(parser);
    QDir().mkpath(QFileInfo(cacheFile).absolutePath());
    Result<store::CacheDb> cache = store::CacheDb::open(cacheFile, store::OpenMode::ReadWrite);
    if (!cache)
        return reportFailure(cache.error());
    Result<model::BatchSummary> summary = cache->apply(batch);
    if (!summary)
        return reportFailure(summary.error());

    QString line;
    for (const auto &[kind, count] : perKind)
        line += QStringLiteral("%1%2 %3")
                    .arg(line.isEmpty() ? QString() : QStringLiteral(", "))
                    .arg(count)
                    .arg(common::qs(kind));
    out(QStringLiteral("imported into %1 (cluster %2): %3\n")
            .arg(cacheFile, common::qs(batch.cluster),
                line.isEmpty() ? QStringLiteral("nothing") : line));
    out(QStringLiteral("  %1 added, %2 modified, %3 unchanged, %4 deleted%5\n")
            .arg(summary->added)
            .arg(summary->modified)
            .arg(summary->unchanged)
            .arg(summary->deleted)
            .arg(rejected ? QStringLiteral(", %1 rejected").arg(rejected) : QString()));
    return rejected ? Failed : Ok;
}

namespace {
const CommandRegistration importRegistration(
    { "import", "Load JSON/YAML manifests or dumps into the cache", runImport, 10 });
} // namespace

} // namespace dra::cli
