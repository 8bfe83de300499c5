// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/demo_cluster.h"

#include <QUuid>

#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/sandbox/demo_ages.h"
#include "core/sandbox/object_factory.h"

namespace dra::sandbox {

Result<void> seedDemoCache(store::CacheDb &writer, const std::string &cluster,
    const PresetOptions &preset, std::optional<int64_t> datedFromMs)
{
    Result<std::string> kubernetesVersion = presetKubernetesVersion(preset);
    if (!kubernetesVersion)
        return dra::fail(kubernetesVersion.error());
    Result<std::vector<store::ClusterInfo>> clusters = writer.clusters();
    if (!clusters)
        return dra::fail(clusters.error());
    for (store::ClusterInfo info : *clusters) {
        if (info.name != cluster)
            continue;
        // A kept cache goes on as it was, in the release asked for this time, if any.
        if (preset.kubernetesVersion.empty() || info.version == *kubernetesVersion)
            return {};
        info.version = *kubernetesVersion;
        return writer.setClusterInfo(info);
    }
    Result<nlohmann::json> inventory = generateInventory(preset);
    if (!inventory)
        return dra::fail(inventory.error());
    // A cluster that has been running, not one whose every object is as old as the preset's
    // fixed timestamp.
    if (datedFromMs)
        dateDemoObjects((*inventory)["items"], *datedFromMs);
    model::WatchBatch batch;
    batch.cluster = cluster;
    for (nlohmann::json &item : (*inventory)["items"]) {
        Result<model::Object> object = model::decodeObject(std::move(item));
        if (!object)
            return dra::fail(object.error());
        batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*object) });
    }
    // Like a real cluster, each demo cluster has a kube-system namespace whose UID is its
    // identity: made anew with each cluster (the rest of the preset is the same every time), so
    // a mirror told to follow another demo cluster under the same context knows it.
    nlohmann::json kubeSystem = ObjectFactory(preset.seed).namespaceObject("kube-system");
    kubeSystem["metadata"]["uid"]
        = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    Result<model::Object> namespaceObject = model::decodeObject(std::move(kubeSystem));
    if (!namespaceObject)
        return dra::fail(namespaceObject.error());
    batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*namespaceObject) });
    // The other namespaces every cluster has, which manifests and tools expect to find.
    for (const char *name : { "kube-public", "kube-node-lease" }) {
        Result<model::Object> other
            = model::decodeObject(ObjectFactory(preset.seed).namespaceObject(name));
        if (!other)
            return dra::fail(other.error());
        batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*other) });
    }
    if (Result<model::BatchSummary> applied = writer.apply(batch); !applied)
        return dra::fail(applied.error());
    return writer.setClusterInfo({ cluster, "sandbox:" + preset.preset, *kubernetesVersion, 0 });
}

} // namespace dra::sandbox
