// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/encoded_objects.h"

#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/model/record_codec.h"
#include "core/server/object_source.h"

namespace dra::server {

namespace {

// Change-log rows read per query while catching up.
constexpr int kChangesPerRead = 1000;

bool isOfKind(
    const store::LoggedChange &change, const std::string &cluster, const model::KindInfo &kind)
{
    return change.cluster == cluster && change.key.group == kind.group
        && change.key.kind == kind.name;
}

} // namespace

Result<EncodedObjects::Shared> EncodedObjects::encode(
    const model::Object &object, int64_t rev, const std::string &apiVersion)
{
    Result<nlohmann::json> json = ObjectSource::wireJson(object, rev, apiVersion);
    if (!json)
        return dra::fail(json.error());
    auto item = std::make_shared<Item>();
    item->meta.name = object.meta.name;
    item->meta.ns = object.meta.ns;
    item->meta.labels = object.meta.labels;
    item->rev = rev;
    item->json = common::compactJson(*json);
    ++m_encoded;
    return Shared(std::move(item));
}

Result<void> EncodedObjects::rebuild(View &view, store::CacheDb &cache, const std::string &cluster,
    const model::KindInfo &kind, const std::string &apiVersion, int64_t rev)
{
    Result<std::vector<model::ObjectRecord>> records
        = cache.objects(cluster, kind.group, kind.name);
    if (!records)
        return dra::fail(records.error());
    std::map<NsName, Shared> items;
    for (model::ObjectRecord &record : *records) {
        NsName key { record.key.ns, record.key.name };
        if (auto kept = view.items.find(key);
            kept != view.items.end() && kept->second->rev == record.rev) {
            items.emplace(std::move(key), kept->second);
            continue;
        }
        const int64_t recordRev = record.rev;
        Result<model::Object> object = model::fromRecord(std::move(record), model::KeepRaw::Parsed);
        Result<Shared> item = object ? encode(*object, recordRev, apiVersion)
                                     : Result<Shared>(dra::fail(object.error()));
        if (!item) {
            qCWarning(lcServer, "skipping a cached %s %s/%s that cannot be served: %s",
                std::string(kind.name).c_str(), key.first.c_str(), key.second.c_str(),
                qPrintable(item.error().message));
            continue;
        }
        items.emplace(std::move(key), std::move(*item));
    }
    view.items = std::move(items);
    view.rev = rev;
    return {};
}

Result<bool> EncodedObjects::catchUp(View &view, store::CacheDb &cache, const std::string &cluster,
    const model::KindInfo &kind, const std::string &apiVersion, int64_t rev)
{
    Result<std::pair<int64_t, int64_t>> oldest = cache.oldestChange();
    if (!oldest)
        return dra::fail(oldest.error());
    // The log must still hold the change right after the view's revision.
    if (oldest->second == 0 || oldest->second > view.rev + 1)
        return false;
    int64_t after = view.rev;
    while (after < rev) {
        Result<std::vector<store::LoggedChange>> changes
            = cache.changesSince(after, kChangesPerRead);
        if (!changes)
            return dra::fail(changes.error());
        if (changes->empty() || changes->front().rev != after + 1)
            return false;
        for (const store::LoggedChange &change : *changes) {
            if (change.rev > rev)
                break;
            after = change.rev;
            if (!isOfKind(change, cluster, kind))
                continue;
            NsName key { change.key.ns, change.key.name };
            if (change.type == model::ChangeType::Deleted) {
                view.items.erase(key);
                continue;
            }
            Result<nlohmann::json> parsed
                = common::parseJson(change.json, QStringLiteral("change %1").arg(change.rev));
            Result<model::Object> object = parsed
                ? model::decodeObject(std::move(*parsed))
                : Result<model::Object>(dra::fail(parsed.error()));
            Result<Shared> item = object ? encode(*object, change.rev, apiVersion)
                                         : Result<Shared>(dra::fail(object.error()));
            if (!item) {
                qCWarning(lcServer, "skipping a change to %s %s/%s that cannot be served: %s",
                    std::string(kind.name).c_str(), key.first.c_str(), key.second.c_str(),
                    qPrintable(item.error().message));
                view.items.erase(key);
                continue;
            }
            view.items.insert_or_assign(std::move(key), std::move(*item));
        }
        if (changes->back().rev >= rev)
            break;
    }
    view.rev = rev;
    return true;
}

Result<EncodedObjects::Listing> EncodedObjects::list(store::CacheDb &cache,
    const std::string &cluster, const model::KindInfo &kind, const std::string &ns,
    const std::string &apiVersion)
{
    // One read transaction: the revision and the objects (or changes) agree.
    Result<store::sqlite::Transaction> read = cache.beginRead();
    if (!read)
        return dra::fail(read.error());
    Result<int64_t> rev = cache.currentRev();
    if (!rev)
        return dra::fail(rev.error());
    View &view = m_views[apiVersion + ' ' + std::string(kind.name)];
    if (view.rev != *rev) {
        bool current = false;
        if (view.rev >= 0 && view.rev < *rev) {
            Result<bool> caughtUp = catchUp(view, cache, cluster, kind, apiVersion, *rev);
            if (!caughtUp)
                return dra::fail(caughtUp.error());
            current = *caughtUp;
        }
        if (!current) {
            if (Result<void> built = rebuild(view, cache, cluster, kind, apiVersion, *rev); !built)
                return dra::fail(built.error());
        }
    }
    Listing listing;
    listing.rev = *rev;
    auto it = ns.empty() ? view.items.begin() : view.items.lower_bound(NsName { ns, {} });
    for (; it != view.items.end() && (ns.empty() || it->first.first == ns); ++it)
        listing.items.push_back(it->second);
    return listing;
}

void EncodedObjects::keepSnapshot(
    const model::KindInfo &kind, const std::string &apiVersion, int64_t rev)
{
    const auto found = m_views.find(apiVersion + ' ' + std::string(kind.name));
    if (found == m_views.end() || found->second.rev != rev)
        return; // the view has moved on: there is nothing of `rev` left to keep
    View &view = found->second;
    const auto now = std::chrono::steady_clock::now();
    std::erase_if(view.snapshots,
        [&](const auto &entry) { return now - entry.second.keptAt > kSnapshotLifetime; });
    if (view.snapshots.contains(rev))
        return;
    while (int(view.snapshots.size()) >= kSnapshotsPerView)
        view.snapshots.erase(view.snapshots.begin());
    auto items = std::make_shared<std::vector<Shared>>();
    items->reserve(view.items.size());
    for (const auto &[key, item] : view.items)
        items->push_back(item);
    view.snapshots.emplace(rev, Snapshot { std::move(items), now });
}

std::optional<EncodedObjects::Listing> EncodedObjects::snapshot(
    const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion, int64_t rev)
{
    const auto found = m_views.find(apiVersion + ' ' + std::string(kind.name));
    if (found == m_views.end())
        return std::nullopt;
    const auto kept = found->second.snapshots.find(rev);
    if (kept == found->second.snapshots.end()
        || std::chrono::steady_clock::now() - kept->second.keptAt > kSnapshotLifetime)
        return std::nullopt;
    Listing listing;
    listing.rev = rev;
    for (const Shared &item : *kept->second.items) {
        if (ns.empty() || item->meta.ns == ns)
            listing.items.push_back(item);
    }
    return listing;
}

} // namespace dra::server
