// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/simulation_cluster.h"

#include "core/common/json_text.h"

namespace dra::alloc {

namespace {

// The kinds the allocator and the Pending diagnosis read, besides the slices.
constexpr model::Kind kKinds[] = { model::Kind::Node, model::Kind::DeviceClass,
    model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate, model::Kind::DeviceTaintRule,
    model::Kind::Pod, model::Kind::Event };

} // namespace

Result<SimulationCluster> simulationCluster(
    const inventory::Snapshot &snapshot, const release::ReleaseChoice &choice)
{
    Result<release::ChosenRelease> chosen
        = release::chooseRelease(snapshot.kubernetesVersion(), choice);
    if (!chosen)
        return fail(chosen.error());
    return simulationCluster(snapshot, std::move(*chosen));
}

Result<SimulationCluster> simulationCluster(
    const inventory::Snapshot &snapshot, release::ChosenRelease release)
{
    return simulationCluster(snapshot, std::move(release), {});
}

Result<SimulationCluster> simulationCluster(const inventory::Snapshot &snapshot,
    release::ChosenRelease release, std::vector<model::Object> extra)
{
    std::vector<std::shared_ptr<const model::Object>> objects;
    for (model::Object &object : extra)
        objects.push_back(std::make_shared<const model::Object>(std::move(object)));
    for (const model::Kind kind : kKinds)
        for (const std::shared_ptr<const model::Object> &object : snapshot.objects(kind))
            objects.push_back(object);
    for (const inventory::SliceInfo &slice : snapshot.slices()) {
        Result<model::Object> object = snapshot.sliceObject(slice.name);
        if (!object)
            return fail(object.error());
        objects.push_back(std::make_shared<const model::Object>(std::move(*object)));
    }
    Result<Cluster> cluster = Cluster::build(std::move(objects));
    if (!cluster)
        return fail(cluster.error());
    cluster->setKubernetesVersion(snapshot.kubernetesVersion());
    return SimulationCluster { std::make_shared<const Cluster>(std::move(*cluster)),
        std::move(release) };
}

Result<SimulationCluster> SimulationClusterCache::of(
    const inventory::SnapshotPtr &snapshot, const release::ChosenRelease &release)
{
    std::lock_guard lock(m_mutex);
    if (m_built && m_rev == snapshot->rev() && m_cluster == snapshot->cluster()
        && m_version == snapshot->kubernetesVersion() && m_built->release == release)
        return *m_built;
    Result<SimulationCluster> built = simulationCluster(*snapshot, release);
    if (!built)
        return fail(built.error());
    m_built = *built;
    m_rev = snapshot->rev();
    m_cluster = snapshot->cluster();
    m_version = snapshot->kubernetesVersion();
    return built;
}

Result<SimulationCluster> SimulationClusterCache::of(
    const inventory::SnapshotPtr &snapshot, const release::ReleaseChoice &choice)
{
    Result<release::ChosenRelease> chosen
        = release::chooseRelease(snapshot->kubernetesVersion(), choice);
    if (!chosen)
        return fail(chosen.error());
    return of(snapshot, *chosen);
}

} // namespace dra::alloc
