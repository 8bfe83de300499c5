// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/snapshot_builder.h"

#include <algorithm>
#include <set>
#include <thread>

#include "core/common/json_text.h"
#include "core/inventory/layers.h"
#include "core/inventory/slice_reader.h"
#include "core/model/record_codec.h"

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

bool keyLess(
    const std::shared_ptr<const model::Object> &a, const std::shared_ptr<const model::Object> &b)
{
    return std::tie(a->meta.ns, a->meta.name) < std::tie(b->meta.ns, b->meta.name);
}

std::string problemText(const common::Error &error)
{
    return error.message.toStdString();
}

// A decoded object, or the problem that keeps it out.
std::shared_ptr<const model::Object> decodeRecord(
    model::ObjectRecord &&record, std::string *problem)
{
    Result<model::Object> object = model::fromRecord(std::move(record), model::KeepRaw::AsText);
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

ReadRecord readRecord(model::ObjectRecord &&record)
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
        read.object = decodeRecord(std::move(record), &read.problem);
    return read;
}

// Below this many records a load is quick enough on one thread.
constexpr size_t kParallelRecords = 1000;

// Reads every record, spread over the machine's cores (at most `maxThreads`): decoding is most
// of the cost of a large load and records do not depend on each other. The order of `records`
// is kept.
std::vector<ReadRecord> readRecords(
    std::vector<model::ObjectRecord> &records, size_t maxThreads = 8)
{
    std::vector<ReadRecord> read(records.size());
    const size_t threads = records.size() < kParallelRecords
        ? 1
        : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, maxThreads);
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
std::shared_ptr<const KindTable> mergeTable(const KindTable &base,
    const std::map<std::pair<std::string, std::string>, std::shared_ptr<const model::Object>>
        &changes)
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
        const std::pair<std::string, std::string> key { object->meta.ns, object->meta.name };
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

namespace {

// The snapshot of the records read for it: slices become the device layer, the other kinds
// sorted tables, and what did not read the problems.
SnapshotPtr assemble(
    std::string cluster, int64_t rev, std::string kubernetesVersion, std::vector<ReadRecord> reads)
{
    auto objects = std::make_shared<ObjectLayer>();
    std::array<std::shared_ptr<KindTable>, kKindCount> tables;
    for (auto &table : tables)
        table = std::make_shared<KindTable>();
    SliceMap slices;
    for (ReadRecord &read : reads) {
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
    return SnapshotAssembler::make(std::move(cluster), rev, std::move(kubernetesVersion),
        std::move(devices), std::move(holds), std::move(objects));
}

} // namespace

SnapshotPtr buildSnapshot(SnapshotSource source)
{
    return assemble(std::move(source.cluster), source.rev, std::move(source.kubernetesVersion),
        readRecords(source.objects));
}

SnapshotPtr applyBatch(
    const SnapshotPtr &base, const model::CommittedBatch &batch, ChangeSet *changes)
{
    ChangeSet local;
    ChangeSet &out = changes ? *changes : local;
    out = ChangeSet {};
    if (!base || batch.cluster != base->cluster()) {
        out.snapshot = base;
        return base;
    }
    const std::string &version
        = batch.serverVersion.empty() ? base->kubernetesVersion() : batch.serverVersion;
    if (batch.changes.empty()) {
        if (version != base->kubernetesVersion()) {
            // Only the cluster's version moved: every layer is shared.
            auto snapshot = SnapshotAssembler::make(base->cluster(), base->rev(), version,
                SnapshotAssembler::devicePtr(*base), SnapshotAssembler::holdPtr(*base),
                SnapshotAssembler::objectPtr(*base));
            SnapshotAssembler::inheritClassMatches(*base, *snapshot);
            out.snapshot = snapshot;
            return snapshot;
        }
        out.snapshot = base;
        return base;
    }

    const DeviceLayer &oldDevices = SnapshotAssembler::devices(*base);
    const ObjectLayer &oldObjects = SnapshotAssembler::objects(*base);
    // Later changes of the same object win, as they would in the cache.
    std::map<common::ObjectKey, const model::CommittedChange *> last;
    for (const model::CommittedChange &change : batch.changes) {
        out.objects.push_back(change.object.key);
        last[change.object.key] = &change;
    }
    std::vector<model::ObjectRecord> states;
    for (const auto &[key, change] : last)
        if (change->type != model::ChangeType::Deleted)
            states.push_back(change->object);

    // New states replace the old ones; nullptr removes (a deletion, or a state that does not
    // read, which the full load would skip as well).
    auto objects = std::make_shared<ObjectLayer>(oldObjects);
    std::map<std::string, SlicePtr> sliceChanges;
    std::array<std::map<std::pair<std::string, std::string>, std::shared_ptr<const model::Object>>,
        kKindCount>
        kindChanges;
    for (const auto &[key, change] : last) {
        objects->problems.erase(key);
        if (isSlice(key))
            sliceChanges[key.name] = nullptr;
        else if (const int kind = kindIndex(key); kind >= 0)
            kindChanges[size_t(kind)][{ key.ns, key.name }] = nullptr;
    }
    for (ReadRecord &read : readRecords(states)) {
        if (!read.problem.empty())
            objects->problems[read.key] = std::move(read.problem);
        if (isSlice(read.key))
            sliceChanges[read.key.name] = std::move(read.slice);
        else if (read.kind >= 0)
            kindChanges[size_t(read.kind)][{ read.key.ns, read.key.name }] = std::move(read.object);
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
                touchedPools.insert({ old->second->info.driver, old->second->info.pool });
                slices.erase(old);
            }
            if (!slice)
                continue;
            touchedPools.insert({ slice->info.driver, slice->info.pool });
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
    auto snapshot = SnapshotAssembler::make(
        base->cluster(), rev, version, devices, holds, std::move(objects));
    if (devices == SnapshotAssembler::devicePtr(*base)
        && SnapshotAssembler::objects(*snapshot).kinds[size_t(model::Kind::DeviceClass)]
            == oldObjects.kinds[size_t(model::Kind::DeviceClass)])
        SnapshotAssembler::inheritClassMatches(*base, *snapshot);
    out.snapshot = snapshot;
    return snapshot;
}

namespace {

// One share of a cluster's slices, [from, to) by name (no bound where empty), decoded as it is
// read.
struct SliceShare
{
    std::string from, to;
    std::vector<ReadRecord> reads;
    bool read = false;
};

Result<void> readShare(store::CacheDb &cache, const std::string &cluster, SliceShare &share)
{
    share.reads.clear();
    Result<void> visited
        = cache.forEachSlice(cluster, share.from, share.to, [&share](model::ObjectRecord &record) {
              share.reads.push_back(readRecord(std::move(record)));
          });
    share.read = visited.has_value();
    return visited;
}

// Reads `share` on a connection of its own, if that connection sees revision `rev`: a writer
// may have committed since the loader's own read began, and then the loader reads the share
// itself. Any failure here is left to that second try, which reports it.
void readShareApart(const QString &path, const std::string &cluster, int64_t rev, SliceShare &share)
{
    store::OpenOptions options;
    options.deferQuickCheck = true; // the loader's own connection stands for the file
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadOnly, options);
    if (!cache)
        return;
    Result<store::sqlite::Transaction> transaction = cache->beginRead();
    Result<int64_t> seen = transaction ? cache->currentRev() : Result<int64_t>(0);
    if (transaction && seen && *seen == rev)
        (void)readShare(*cache, cluster, share);
}

// Shares of about equal numbers of slices, one per core for a large cluster.
std::vector<SliceShare> shareSlices(const std::vector<std::string> &names)
{
    const size_t count = names.size() < kParallelRecords
        ? 1
        : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
    std::vector<SliceShare> shares(count);
    for (size_t i = 1; i < count; ++i) {
        shares[i].from = names[i * names.size() / count];
        shares[i - 1].to = shares[i].from;
    }
    return shares;
}

// The Kubernetes version the cache recorded for `cluster`, empty when none (or unreadable: the
// version only refines what the objects say).
std::string recordedVersion(store::CacheDb &cache, const std::string &cluster)
{
    Result<std::vector<store::ClusterInfo>> clusters = cache.clusters();
    if (clusters)
        for (const store::ClusterInfo &info : *clusters)
            if (info.name == cluster)
                return info.version;
    return {};
}

} // namespace

Result<SnapshotPtr> loadSnapshot(store::CacheDb &cache, const std::string &cluster)
{
    Result<store::sqlite::Transaction> read = cache.beginRead();
    if (!read)
        return fail(read.error());
    Result<int64_t> rev = cache.currentRev();
    if (!rev)
        return fail(rev.error());

    // Every kind but the slices first, decoded on a thread of their own (Nodes are thousands of
    // JSON decodes) while the slices are read.
    std::vector<model::ObjectRecord> others;
    for (const model::KindInfo &kind : model::allKinds()) {
        if (kind.kind == model::Kind::ResourceSlice)
            continue;
        Result<std::vector<model::ObjectRecord>> records
            = cache.objects(cluster, kind.group, kind.name);
        if (!records)
            return fail(records.error());
        std::move(records->begin(), records->end(), std::back_inserter(others));
    }
    std::vector<ReadRecord> reads;
    std::jthread decodeOthers([&others, &reads] { reads = readRecords(others, 1); });

    // The slices in shares, each read and decoded on a connection of its own: reading a slice's
    // rows costs about as much as decoding them, and both spread over the cores.
    const std::string_view sliceKind = model::kindInfo(model::Kind::ResourceSlice).name;
    Result<std::vector<std::string>> names
        = cache.objectNames(cluster, model::kResourceGroup, sliceKind);
    if (!names)
        return fail(names.error());
    std::vector<SliceShare> shares = shareSlices(*names);
    {
        std::vector<std::jthread> readers;
        for (size_t i = 1; i < shares.size(); ++i)
            readers.emplace_back(
                readShareApart, cache.path(), std::cref(cluster), *rev, std::ref(shares[i]));
        if (Result<void> own = readShare(cache, cluster, shares.front()); !own)
            return fail(own.error());
    }
    for (SliceShare &share : shares) {
        if (share.read)
            continue;
        if (Result<void> again = readShare(cache, cluster, share); !again)
            return fail(again.error());
    }
    decodeOthers.join();
    for (SliceShare &share : shares)
        std::move(share.reads.begin(), share.reads.end(), std::back_inserter(reads));
    return assemble(cluster, *rev, recordedVersion(cache, cluster), std::move(reads));
}

} // namespace dra::inventory
