// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/object_writer.h"

#include <map>

#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"

namespace dra::server {

namespace {

using common::Error;
using nlohmann::json;

Result<ObjectWriter::Stored> storedOf(const model::ObjectRecord &record)
{
    Result<json> parsed = common::parseJson(record.json, common::qs(record.key.display()));
    if (!parsed)
        return dra::fail(parsed.error());
    if (parsed->contains("metadata") && (*parsed)["metadata"].is_object())
        (*parsed)["metadata"].erase("resourceVersion");
    return ObjectWriter::Stored { std::move(*parsed), record.rev };
}

} // namespace

ObjectWriter::ObjectWriter(store::CacheDb &writer, std::string cluster)
    : m_cache(writer)
    , m_cluster(std::move(cluster))
{
}

Result<std::optional<ObjectWriter::Stored>> ObjectWriter::get(
    const model::KindInfo &kind, const std::string &ns, const std::string &name)
{
    Result<std::optional<model::ObjectRecord>> record
        = m_cache.object(m_cluster, { std::string(kind.group), std::string(kind.name), ns, name });
    if (!record)
        return dra::fail(record.error());
    if (!*record)
        return std::optional<Stored>();
    Result<Stored> stored = storedOf(**record);
    if (!stored)
        return dra::fail(stored.error());
    return std::optional<Stored>(std::move(*stored));
}

Result<std::vector<ObjectWriter::Stored>> ObjectWriter::list(
    const model::KindInfo &kind, const std::string &ns)
{
    Result<std::vector<model::ObjectRecord>> records = m_cache.objects(m_cluster, kind.group,
        kind.name, ns.empty() ? std::nullopt : std::optional<std::string_view>(ns));
    if (!records)
        return dra::fail(records.error());
    std::vector<Stored> out;
    for (const model::ObjectRecord &record : *records) {
        if (Result<Stored> stored = storedOf(record))
            out.push_back(std::move(*stored));
    }
    return out;
}

Result<std::vector<int64_t>> ObjectWriter::commit(const std::vector<Write> &writes)
{
    model::WatchBatch batch;
    batch.cluster = m_cluster;
    std::vector<common::ObjectKey> keys;
    for (const Write &write : writes) {
        json object = write.object;
        if (object.contains("metadata") && object["metadata"].is_object())
            object["metadata"].erase("resourceVersion");
        Result<model::Object> decoded = model::decodeObject(std::move(object));
        if (!decoded)
            return dra::fail(decoded.error());
        keys.push_back(decoded->key());
        batch.changes.push_back({ write.type, model::toRecord(*decoded) });
    }
    std::vector<model::WatchBatch> batches;
    batches.push_back(std::move(batch));
    Result<std::vector<model::CommittedBatch>> committed = m_cache.applyAll(std::move(batches));
    if (!committed)
        return dra::fail(committed.error());
    std::map<common::ObjectKey, int64_t> revs;
    for (const model::CommittedChange &change : committed->front().changes)
        revs[change.object.key] = change.rev;
    std::vector<int64_t> out;
    for (const common::ObjectKey &key : keys) {
        const auto it = revs.find(key);
        out.push_back(it == revs.end() ? 0 : it->second);
    }
    return out;
}

} // namespace dra::server
