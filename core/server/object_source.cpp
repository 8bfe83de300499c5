// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Which resourceVersion the mirror serves: the cache's own change-log revision (`rev`), for
// every object, list and watch event. The cluster's resourceVersion is opaque and differs per
// cluster and per relist, while `rev` is monotonic across every kind and survives restarts of
// the server, so a client's list at rev R followed by a watch from R sees each later change
// exactly once, and a watch resumed after a restart replays from the change log. The cluster's
// own resourceVersion stays in the cache row (ObjectRecord::resourceVersion), where the
// reflector uses it to resume its own watch; it is not served.
#include "core/server/object_source.h"

#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/model/record_codec.h"

namespace dra::server {

using common::Error;

const std::string &ServedObject::compactText() const
{
    if (!compactCache)
        compactCache = common::compactJson(json);
    return *compactCache;
}

Result<ServedObject> ObjectSource::servedFromEncoded(const EncodedObjects::Item &item)
{
    Result<nlohmann::json> json = common::parseJson(item.json,
        QStringLiteral("the kept encoding of %1/%2")
            .arg(common::qs(item.meta.ns), common::qs(item.meta.name)));
    if (!json)
        return dra::fail(json.error());
    Result<model::Object> object = model::decodeObject(*json);
    if (!object)
        return dra::fail(object.error());
    return ServedObject { std::move(*object), std::move(*json), item.rev };
}

std::string apiVersionOf(const model::KindInfo &kind, std::string_view version)
{
    if (kind.group.empty())
        return std::string(version);
    return std::string(kind.group) + "/" + std::string(version);
}

ObjectSource::ObjectSource(store::CacheDb &cache, std::string cluster)
    : m_cache(cache)
    , m_cluster(std::move(cluster))
{
}

Result<nlohmann::json> ObjectSource::wireJson(
    const model::Object &object, int64_t rev, const std::string &apiVersion)
{
    Result<nlohmann::json> json = model::encodeObject(object, apiVersion);
    if (!json)
        return json;
    (*json)["apiVersion"] = apiVersion;
    (*json)["kind"] = std::string(object.info().name);
    (*json)["metadata"]["resourceVersion"] = std::to_string(rev);
    return json;
}

Result<ObjectSource::Listing> ObjectSource::list(
    const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion)
{
    Result<store::sqlite::Transaction> read = m_cache.beginRead();
    if (!read)
        return dra::fail(read.error());
    Listing listing;
    Result<int64_t> rev = m_cache.currentRev();
    if (!rev)
        return dra::fail(rev.error());
    listing.rev = *rev;
    Result<std::vector<model::ObjectRecord>> records = m_cache.objects(m_cluster, kind.group,
        kind.name, ns.empty() ? std::nullopt : std::optional<std::string_view>(ns));
    if (!records)
        return dra::fail(records.error());
    listing.items.reserve(records->size());
    for (const model::ObjectRecord &record : *records) {
        Result<model::Object> object = model::fromRecord(record);
        Result<nlohmann::json> json = object ? wireJson(*object, record.rev, apiVersion)
                                             : Result<nlohmann::json>(dra::fail(object.error()));
        if (!json) {
            qCWarning(lcServer, "skipping a cached object that cannot be served: %s",
                qPrintable(json.error().message));
            continue;
        }
        listing.items.push_back({ std::move(*object), std::move(*json), record.rev });
    }
    return listing;
}

Result<std::optional<ServedObject>> ObjectSource::get(const model::KindInfo &kind,
    const std::string &ns, const std::string &name, const std::string &apiVersion)
{
    const common::ObjectKey key { std::string(kind.group), std::string(kind.name), ns, name };
    Result<std::optional<model::ObjectRecord>> record = m_cache.object(m_cluster, key);
    if (!record)
        return dra::fail(record.error());
    if (!*record)
        return std::optional<ServedObject>();
    Result<model::Object> object = model::fromRecord(**record);
    if (!object)
        return dra::fail(object.error());
    Result<nlohmann::json> json = wireJson(*object, (*record)->rev, apiVersion);
    if (!json)
        return dra::fail(json.error());
    return std::optional<ServedObject>(
        ServedObject { std::move(*object), std::move(*json), (*record)->rev });
}

Result<model::Object> ObjectSource::decodeChange(const store::LoggedChange &change) const
{
    Result<nlohmann::json> parsed
        = common::parseJson(change.json, QStringLiteral("change %1").arg(change.rev));
    if (!parsed)
        return dra::fail(parsed.error());
    return model::decodeObject(std::move(*parsed));
}

} // namespace dra::server
