// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/snapshot_builder.h"

#include <algorithm>
#include <set>
#include <thread>

#include "core/common/json_text.h"
#include "core/inventory/layers.h"
#include "core/inventory/slice_reader.h"
#include "core/store/record_codec.h"

namespace dra::inventory {

using namespace detail;

namespace {

bool isSlice(const common::ObjectKey &key)
{
    return key.group == model::kResourceGroup && key.kind == "ResourceSlice";
}

// The kind table index of a key, or -1 for kinds the snapshot does not keep.
int kindIndex(const common::ObjectKey &key)
{
    for (const model::KindInfo &info : model::allKinds())
        if (info.group == key.group && info.name == key.kind)
            return info.kind == model::Kind::ResourceSlice ? -1 : int(info.kind);
    return -1;
}

bool keyLess(const std::shared_ptr<const model::Object> &a, const std::shared_ptr<const model::Object> &b)
{
    return std::tie(a->meta.ns, a->meta.name) < std::tie(b->meta.ns, b->meta.name);
}

std::string problemText(const common::Error &error)
{
    return error.message.toStdString();
}

// A decoded object, or the problem that keeps it out.
std::shared_ptr<const model::Object> decodeRecord(const store::ObjectRecord &record, std::string *problem)
{
    Result<model::Object> object = store::fromRecord(record);
    if (!object) {
        *problem = problemText(object.error());
        return nullptr;
    }
    return std::make_shared<const model::Object>(std::move(*object));
}

using SliceMap = std::map<std::string, SlicePtr, std::less<>>;

// One record read for a snapshot: a slice, an object of a kind the snapshot keeps, or the
// reason it was skipped.
struct ReadRecord
{
    common::ObjectKey key;
    SlicePtr slice;
    std::shared_ptr<const model::Object> object;
    int kind = -1;
    std::string problem;
};

ReadRecord readRecord(store::ObjectRecord &&record)
{
    ReadRecord read;
    read.key = record.key;
    if (isSlice(record.key)) {
        Result<SlicePtr> slice = readSlice(std::move(record));
        if (slice)
            read.slice = std::move(*slice);
        else
            read.problem = problemText(slice.error());
        return read;
    }
    read.kind = kindIndex(record.key);
    if (read.kind >= 0)
        read.object = decodeRecord(record, &read.problem);
    return read;
}

// Below this many records a load is quick enough on one thread.
constexpr size_t kParallelRecords = 1000;

// Reads every record, spread over the machine's cores: decoding is most of the cost of a large
// load and records do not depend on each other. The order of `records` is kept.
std::vector<ReadRecord> readRecords(std::vector<store::ObjectRecord> &records)
{
    std::vector<ReadRecord> read(records.size());
    const size_t threads = records.size() < kParallelRecords
        ? 1
        : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
    // Interleaved, so that slices and nodes (each stored together) spread evenly.
    const auto work = [&](size_t first) {
        for (size_t i = first; i < records.size(); i += threads)
            read[i] = readRecord(std::move(records[i]));
    };
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; ++t)
        workers.emplace_back(work, t);
    work(0);
    for (std::thread &worker : workers)
        worker.join();
    return read;
}

const KindTable &claimTable(const ObjectLayer &objects)
{
    return *objects.kinds[size_t(model::Kind::ResourceClaim)];
}

// Merges changed objects (nullptr: deleted) into a sorted table.
std::shared_ptr<const KindTable> mergeTable(
    const KindTable &base,
    const std::map<std::pair<std::string, std::string>, std::shared_ptr<const model::Object>> &changes)
{
    auto table = std::make_shared<KindTable>();
    table->objects.reserve(base.objects.size() + changes.size());
    auto change = changes.begin();
    const auto emitChange = [&] {
        if (change->second)
            table->objects.push_back(change->second);
        ++change;
    };
    for (const auto &object : base.objects) {
        const std::pair<std::string, std::string> key{object->meta.ns, object->meta.name};
        while (change != changes.end() && change->first < key)
            emitChange();
        if (change != changes.end() && change->first == key)
            emitChange(); // replaced or deleted
        else
            table->objects.push_back(object);
    }
    while (change != changes.end())
        emitChange();
    return table;
}

// Devices that differ between two device layers, limited to the pools in `pools`.
void diffDevices(const DeviceLayer &before, const DeviceLayer &after, const std::set<PoolId> &pools,
                 ChangeSet &changes)
{
    for (const PoolId &pool : pools) {
        const auto oldList = before.byPool.find(pool);
        const auto newList = after.byPool.find(pool);
        if (oldList != before.byPool.end()) {
            for (const Device *device : oldList->second) {
                const auto now = after.byKey.find(viewOf(device->key));
                if (now == after.byKey.end())
                    changes.devicesRemoved.push_back(device->key);
                else if (now->second != device && !(*now->second == *device))
                    changes.devicesChanged.push_back(device->key);
            }
        }
        if (newList != after.byPool.end())
            for (const Device *device : newList->second)
                if (!before.byKey.contains(viewOf(device->key)))
                    changes.devicesAdded.push_back(device->key);
    }
}

} // namespace

SnapshotPtr emptySnapshot(const std::string &cluster)
{
    SnapshotSource source;
    source.cluster = cluster;
    return buildSnapshot(std::move(source));
}

SnapshotPtr buildSnapshot(SnapshotSource source)
{
    auto objects = std::make_shared<ObjectLayer>();
    std::array<std::shared_ptr<KindTable>, kKindCount> tables;
    for (auto &table : tables)
        table = std::make_shared<KindTable>();
    SliceMap slices;
    for (ReadRecord &read : readRecords(source.objects)) {
        if (read.slice)
            slices.emplace(read.key.name, std::move(read.slice));
        else if (read.object)
            tables[size_t(read.kind)]->objects.push_back(std::move(read.object));
        else if (!read.problem.empty())
            objects->problems.emplace(std::move(read.key), std::move(read.problem));
    }
    for (size_t kind = 0; kind < kKindCount; ++kind) {
        std::ranges::sort(tables[kind]->objects, keyLess);
        objects->kinds[kind] = std::move(tables[kind]);
    }
    auto devices = deriveDeviceLayer(std::move(slices));
    auto holds = deriveHoldLayer(*devices, claimTable(*objects));
    return SnapshotAssembler::make(std::move(source.cluster), source.rev, std::move(devices), std::move(holds),
                                   std::move(objects));
}

SnapshotPtr applyBatch(const SnapshotPtr &base, const store::CommittedBatch &batch, ChangeSet *changes)
{
    ChangeSet local;
    ChangeSet &out = changes ? *changes : local;
    out = ChangeSet{};
    if (!base || batch.cluster != base->cluster() || batch.changes.empty()) {
        out.snapshot = base;
        return base;
    }

    const DeviceLayer &oldDevices = SnapshotAssembler::devices(*base);
    const ObjectLayer &oldObjects = SnapshotAssembler::objects(*base);
    // Later changes of the same object win, as they would in the cache.
    std::map<common::ObjectKey, const store::CommittedChange *> last;
    for (const store::CommittedChange &change : batch.changes) {
        out.objects.push_back(change.object.key);
        last[change.object.key] = &change;
    }
    std::vector<store::ObjectRecord> states;
    for (const auto &[key, change] : last)
        if (change->type != store::ChangeType::Deleted)
            states.push_back(change->object);

    // New states replace the old ones; nullptr removes (a deletion, or a state that does not
    // read, which the full load would skip as well).
    auto objects = std::make_shared<ObjectLayer>(oldObjects);
    std::map<std::string, SlicePtr> sliceChanges;
    std::array<std::map<std::pair<std::string, std::string>, std::shared_ptr<const model::Object>>, kKindCount>
        kindChanges;
    for (const auto &[key, change] : last) {
        objects->problems.erase(key);
        if (isSlice(key))
            sliceChanges[key.name] = nullptr;
        else if (const int kind = kindIndex(key); kind >= 0)
            kindChanges[size_t(kind)][{key.ns, key.name}] = nullptr;
    }
    for (ReadRecord &read : readRecords(states)) {
        if (!read.problem.empty())
            objects->problems[read.key] = std::move(read.problem);
        if (isSlice(read.key))
            sliceChanges[read.key.name] = std::move(read.slice);
        else if (read.kind >= 0)
            kindChanges[size_t(read.kind)][{read.key.ns, read.key.name}] = std::move(read.object);
    }
    for (size_t kind = 0; kind < kKindCount; ++kind)
        if (!kindChanges[kind].empty())
            objects->kinds[kind] = mergeTable(*oldObjects.kinds[kind], kindChanges[kind]);

    std::shared_ptr<const DeviceLayer> devices = SnapshotAssembler::devicePtr(*base);
    std::set<PoolId> touchedPools;
    if (!sliceChanges.empty()) {
        SliceMap slices = oldDevices.slices;
        for (auto &[name, slice] : sliceChanges) {
            if (const auto old = slices.find(name); old != slices.end()) {
                touchedPools.insert({old->second->info.driver, old->second->info.pool});
                slices.erase(old);
            }
            if (!slice)
                continue;
            touchedPools.insert({slice->info.driver, slice->info.pool});
            slices.emplace(name, std::move(slice));
        }
        devices = deriveDeviceLayer(std::move(slices));
        diffDevices(oldDevices, *devices, touchedPools, out);
    }

    const bool claimsChanged = !kindChanges[size_t(model::Kind::ResourceClaim)].empty();
    std::shared_ptr<const HoldLayer> holds = SnapshotAssembler::holdPtr(*base);
    if (claimsChanged || devices != SnapshotAssembler::devicePtr(*base)) {
        holds = deriveHoldLayer(*devices, claimTable(*objects));
        out.allocationsChanged = true;
    }

    const int64_t rev = std::max(base->rev(), batch.summary.lastRev);
    auto snapshot = SnapshotAssembler::make(base->cluster(), rev, devices, holds, std::move(objects));
    if (devices == SnapshotAssembler::devicePtr(*base)
        && SnapshotAssembler::objects(*snapshot).kinds[size_t(model::Kind::DeviceClass)]
               == oldObjects.kinds[size_t(model::Kind::DeviceClass)])
        SnapshotAssembler::inheritClassMatches(*base, *snapshot);
    out.snapshot = snapshot;
    return snapshot;
}

Result<SnapshotPtr> loadSnapshot(store::CacheDb &cache, const std::string &cluster)
{
    Result<store::sqlite::Transaction> read = cache.beginRead();
    if (!read)
        return fail(read.error());
    SnapshotSource source;
    source.cluster = cluster;
    Result<int64_t> rev = cache.currentRev();
    if (!rev)
        return fail(rev.error());
    source.rev = *rev;
    for (const model::KindInfo &kind : model::allKinds()) {
        Result<std::vector<store::ObjectRecord>> records = cache.objects(cluster, kind.group, kind.name);
        if (!records)
            return fail(records.error());
        if (kind.kind == model::Kind::ResourceSlice) {
            // Device rows come ordered by slice name, as the slices do: attach them in one pass.
            Result<std::vector<store::SliceDevice>> rows = cache.devices(cluster);
            if (!rows)
                return fail(rows.error());
            std::ranges::sort(*records, [](const store::ObjectRecord &a, const store::ObjectRecord &b) {
                return a.key.name < b.key.name;
            });
            auto record = records->begin();
            for (store::SliceDevice &row : *rows) {
                while (record != records->end() && record->key.name < row.slice)
                    ++record;
                if (record != records->end() && record->key.name == row.slice)
                    record->devices.push_back(std::move(row.device));
            }
        }
        std::move(records->begin(), records->end(), std::back_inserter(source.objects));
    }
    return buildSnapshot(std::move(source));
}

} // namespace dra::inventory
