// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/demo_cluster.h"

#include "core/model/object.h"
#include "core/model/record_codec.h"

namespace dra::sandbox {

Result<void> seedDemoCache(
    store::CacheDb &writer, const std::string &cluster, const PresetOptions &preset)
{
    Result<std::vector<store::ClusterInfo>> clusters = writer.clusters();
    if (!clusters)
        return dra::fail(clusters.error());
    for (const store::ClusterInfo &info : *clusters) {
        if (info.name == cluster)
            return {};
    }
    Result<nlohmann::json> inventory = generateInventory(preset);
    if (!inventory)
        return dra::fail(inventory.error());
    model::WatchBatch batch;
    batch.cluster = cluster;
    for (nlohmann::json &item : (*inventory)["items"]) {
        Result<model::Object> object = model::decodeObject(std::move(item));
        if (!object)
            return dra::fail(object.error());
        batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*object) });
    }
    if (Result<model::BatchSummary> applied = writer.apply(batch); !applied)
        return dra::fail(applied.error());
    return writer.setClusterInfo(
        { cluster, "sandbox:" + preset.preset, std::string(kDemoKubernetesVersion), 0 });
}

} // namespace dra::sandbox
