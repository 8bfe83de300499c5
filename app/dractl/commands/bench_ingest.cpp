// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench ingest: how fast an inventory goes from bytes in memory to a committed cache,
// against a floor measured in the same run: the same file parsed with the same JSON library
// and its slice and device rows inserted with prepared statements in one transaction.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "app/dractl/commands/bench_timing.h"
#include "app/dractl/cli.h"
#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/store/cache_db.h"
#include "core/model/record_codec.h"

namespace dra::cli {

namespace {

using Clock = std::chrono::steady_clock;

bool readWhole(const QString &path, std::string *text)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    if (!in)
        return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    *text = std::move(buffer).str();
    return true;
}

void removeDb(const QString &path)
{
    for (const QString &suffix :
        { QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral(".lock") })
        QFile::remove(path + suffix);
}

// Parsed, decoded records of the ResourceSlices of a List (other kinds are skipped, as the
// floor skips them); counts devices.
Result<model::WatchBatch> decodeList(
    const std::string &text, const QString &origin, model::ChangeType type, int64_t *devices)
{
    Result<nlohmann::json> json = common::parseJson(text, origin);
    if (!json)
        return dra::fail(json.error());
    if (!json->is_object() || !json->contains("items") || !(*json)["items"].is_array())
        return dra::fail(
            common::Error::Code::Invalid, origin + QStringLiteral(": expected a List with items"));
    model::WatchBatch batch;
    batch.cluster = "bench";
    nlohmann::json &items = (*json)["items"];
    batch.changes.reserve(items.size());
    for (nlohmann::json &item : items) {
        if (item.value("kind", "") != "ResourceSlice")
            continue;
        Result<model::Object> object = model::decodeObject(std::move(item));
        if (!object)
            return dra::fail(object.error().withContext(origin));
        model::ObjectRecord record = model::toRecord(*object);
        *devices += int64_t(record.devices.size());
        batch.changes.push_back({ type, std::move(record) });
    }
    return batch;
}

// The floor: parse, then plain inserts of slice rows and device rows, one transaction.
Result<double> measureFloor(const std::string &text, const QString &path)
{
    removeDb(path);
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK)
        return dra::fail(
            common::Error::Code::Database, QStringLiteral("floor: cannot open %1").arg(path));
    const auto exec = [db](const char *sql) {
        return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    };
    exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
         "CREATE TABLE slices(name TEXT PRIMARY KEY, driver TEXT, pool TEXT, node TEXT, json TEXT);"
         "CREATE TABLE devices(slice TEXT, name TEXT, driver TEXT, pool TEXT, node TEXT, "
         "attributes TEXT, capacity TEXT,"
         " PRIMARY KEY(slice, name));");
    sqlite3_stmt *insertSlice = nullptr;
    sqlite3_stmt *insertDevice = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO slices VALUES(?1,?2,?3,?4,?5)", -1, &insertSlice, nullptr);
    sqlite3_prepare_v2(
        db, "INSERT INTO devices VALUES(?1,?2,?3,?4,?5,?6,?7)", -1, &insertDevice, nullptr);
    const auto bind = [](sqlite3_stmt *statement, int index, const std::string &value) {
        sqlite3_bind_text(statement, index, value.data(), int(value.size()), SQLITE_TRANSIENT);
    };

    const Clock::time_point start = Clock::now();
    const nlohmann::json list = nlohmann::json::parse(text);
    exec("BEGIN");
    for (const nlohmann::json &item : list["items"]) {
        if (item.value("kind", "") != "ResourceSlice")
            continue;
        const nlohmann::json &spec = item["spec"];
        const std::string name = item["metadata"].value("name", "");
        const std::string driver = spec.value("driver", "");
        const std::string pool
            = spec.contains("pool") ? spec["pool"].value("name", "") : std::string();
        const std::string node = spec.value("nodeName", "");
        bind(insertSlice, 1, name);
        bind(insertSlice, 2, driver);
        bind(insertSlice, 3, pool);
        bind(insertSlice, 4, node);
        bind(insertSlice, 5, item.dump());
        sqlite3_step(insertSlice);
        sqlite3_reset(insertSlice);
        if (!spec.contains("devices"))
            continue;
        for (const nlohmann::json &device : spec["devices"]) {
            bind(insertDevice, 1, name);
            bind(insertDevice, 2, device.value("name", ""));
            bind(insertDevice, 3, driver);
            bind(insertDevice, 4, pool);
            bind(insertDevice, 5, node);
            bind(insertDevice, 6,
                device.contains("attributes") ? device["attributes"].dump() : "{}");
            bind(insertDevice, 7, device.contains("capacity") ? device["capacity"].dump() : "{}");
            sqlite3_step(insertDevice);
            sqlite3_reset(insertDevice);
        }
    }
    exec("COMMIT");
    const double seconds = secondsSince(start);
    sqlite3_finalize(insertSlice);
    sqlite3_finalize(insertDevice);
    sqlite3_close(db);
    removeDb(path);
    return seconds;
}

// Changes derived from the inventory when no --changes file is given: every tenth slice gets
// a new pool generation, as a driver restart would publish.
std::string deriveChanges(const std::string &inventory)
{
    nlohmann::json list = nlohmann::json::parse(inventory);
    nlohmann::json changed = nlohmann::json::array();
    size_t index = 0;
    for (nlohmann::json &item : list["items"]) {
        if (item.value("kind", "") != "ResourceSlice" || index++ % 10 != 0)
            continue;
        item["spec"]["pool"]["generation"] = item["spec"]["pool"].value("generation", 0) + 1;
        changed.push_back(std::move(item));
    }
    return nlohmann::json {
        { "apiVersion", "v1" }, { "kind", "List" }, { "items", std::move(changed) }
    }.dump();
}

} // namespace

int runBenchIngest(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("inventory"),
        QStringLiteral(
            "A ResourceSliceList (or any List: only its ResourceSlices count) JSON file."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("changes"),
        QStringLiteral(
            "A List of changed objects to upsert (default: every tenth slice with a new pool "
            "generation)."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("cache"),
        QStringLiteral("The cache file to build (overwritten)."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("runs"),
        QStringLiteral("Runs of floor and ingest; medians are reported (default 3)."),
        QStringLiteral("n"), QStringLiteral("3") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Ingest an inventory into a fresh cache and compare with a bare SQLite floor."),
            &exitCode))
        return exitCode;
    if (!parser.isSet(QStringLiteral("inventory")) || !parser.isSet(QStringLiteral("cache")))
        return reportFailure(QStringLiteral("bench ingest: --inventory and --cache are required"));
    const QString inventoryPath = parser.value(QStringLiteral("inventory"));
    const QString cachePath = parser.value(QStringLiteral("cache"));

    std::string inventory;
    if (!readWhole(inventoryPath, &inventory))
        return reportFailure(QStringLiteral("bench ingest: cannot read %1").arg(inventoryPath));
    std::string changes;
    const bool derived = !parser.isSet(QStringLiteral("changes"));
    if (derived)
        changes = deriveChanges(inventory);
    else if (!readWhole(parser.value(QStringLiteral("changes")), &changes))
        return reportFailure(QStringLiteral("bench ingest: cannot read %1")
                                 .arg(parser.value(QStringLiteral("changes"))));

    // Floor and ingest alternate, each run from a fresh file; medians damp a busy machine.
    const int runs = std::max(1, parser.value(QStringLiteral("runs")).toInt());
    std::vector<double> floors, ingests;
    int64_t devices = 0;
    int64_t objects = 0;
    Result<store::CacheDb> cache
        = dra::fail(common::Error::Code::Internal, QStringLiteral("not opened"));
    for (int run = 0; run < runs; ++run) {
        const Result<double> floor = measureFloor(inventory, cachePath + QStringLiteral(".floor"));
        if (!floor)
            return reportFailure(floor.error());
        floors.push_back(*floor);

        store::OpenOptions reset;
        reset.reset = true;
        cache = store::CacheDb(); // release the writer lock before reopening
        cache = store::CacheDb::open(cachePath, store::OpenMode::ReadWrite, reset);
        if (!cache)
            return reportFailure(cache.error());
        devices = 0;
        const Clock::time_point ingestStart = Clock::now();
        Result<model::WatchBatch> batch
            = decodeList(inventory, inventoryPath, model::ChangeType::Added, &devices);
        if (!batch)
            return reportFailure(batch.error());
        objects = int64_t(batch->changes.size());
        Result<model::BatchSummary> applied = cache->apply(*batch);
        if (!applied)
            return reportFailure(applied.error());
        ingests.push_back(secondsSince(ingestStart));
    }
    const double endToEnd = medianOf(ingests);
    const Result<double> floor = medianOf(floors);

    int64_t changeDevices = 0;
    const Clock::time_point upsertStart = Clock::now();
    Result<model::WatchBatch> changeBatch = decodeList(changes,
        derived ? QStringLiteral("derived changes") : parser.value(QStringLiteral("changes")),
        model::ChangeType::Modified, &changeDevices);
    if (!changeBatch)
        return reportFailure(changeBatch.error());
    Result<model::BatchSummary> upserted = cache->apply(*changeBatch);
    if (!upserted)
        return reportFailure(upserted.error());
    const double upsert = secondsSince(upsertStart);
    *cache = store::CacheDb(); // close the writer before reading cold

    const Clock::time_point readStart = Clock::now();
    Result<store::CacheDb> reader = store::CacheDb::open(cachePath, store::OpenMode::ReadOnly);
    if (!reader)
        return reportFailure(reader.error());
    int64_t rowsRead = 0;
    for (const model::KindInfo &kind : model::allKinds()) {
        Result<std::vector<model::ObjectRecord>> records
            = reader->objects("bench", kind.group, kind.name);
        if (!records)
            return reportFailure(records.error());
        rowsRead += int64_t(records->size());
    }
    Result<std::vector<store::SliceDevice>> deviceRows = reader->devices("bench");
    if (!deviceRows)
        return reportFailure(deviceRows.error());
    rowsRead += int64_t(deviceRows->size());
    const double coldRead = secondsSince(readStart);

    const nlohmann::json report = {
        { "benchmark", "ingest" },
        { "inventory", inventoryPath.toStdString() },
        { "bytes", inventory.size() },
        { "slices", objects },
        { "devices", devices },
        { "rows", objects + devices },
        { "runs", runs },
        { "end_to_end_s", endToEnd },
        { "floor_s", *floor },
        { "ratio_to_floor", *floor > 0 ? endToEnd / *floor : 0.0 },
        { "upsert_s", upsert },
        { "upserted_objects", changeBatch->changes.size() },
        { "upsert_modified", upserted->modified },
        { "changes", derived ? "derived: every tenth slice, new pool generation" : "file" },
        { "cold_read_s", coldRead },
        { "rows_read", rowsRead },
        { "target", "end_to_end_s <= 2 x floor_s" },
        { "met", *floor > 0 && endToEnd <= 2 * *floor },
    };
    out(report.dump() + "\n");
    return Ok;
}

namespace {
const CommandRegistration benchIngestRegistration({ .path = "bench ingest",
    .summary = "cache ingest of an inventory vs a bare SQLite floor",
    .run = runBenchIngest,
    .order = 10 });
} // namespace

} // namespace dra::cli
