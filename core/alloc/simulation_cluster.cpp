// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/simulation_cluster.h"

#include "core/common/json_text.h"

namespace dra::alloc {

namespace {

using common::Error;

// The kinds the allocator and the Pending diagnosis read, besides the slices.
constexpr model::Kind kKinds[] = { model::Kind::Node, model::Kind::DeviceClass,
    model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate, model::Kind::DeviceTaintRule,
    model::Kind::Pod, model::Kind::Event };

} // namespace

Result<SimulationRelease> simulationRelease(
    std::string_view recordedVersion, const ReleaseChoice &choice)
{
    SimulationRelease out;
    if (!choice.kubernetesVersion.empty()) {
        Result<release::KubernetesRelease> asked
            = release::KubernetesRelease::parse(choice.kubernetesVersion, choice.featureGates);
        if (!asked)
            return fail(asked.error());
        static_cast<release::KubernetesRelease &>(out) = std::move(*asked);
        out.from = "Kubernetes " + out.version() + " (as asked)";
        return out;
    }
    // The cluster's own release is simulated even outside the modelled range: it is what runs.
    if (const std::optional<int> minor = release::minorVersionOf(recordedVersion)) {
        static_cast<release::KubernetesRelease &>(out)
            = release::KubernetesRelease::withDefaults(*minor);
        out.from = "Kubernetes " + std::string(recordedVersion);
    } else {
        static_cast<release::KubernetesRelease &>(out) = release::KubernetesRelease::newest();
        out.from = "the newest release, Kubernetes " + out.version();
    }
    if (!choice.featureGates.empty())
        if (Result<void> applied = out.gates.apply(choice.featureGates, out.minor); !applied)
            return fail(applied.error());
    return out;
}

Result<SimulationCluster> simulationCluster(
    const inventory::Snapshot &snapshot, const ReleaseChoice &choice)
{
    Result<SimulationRelease> release = simulationRelease(snapshot.kubernetesVersion(), choice);
    if (!release)
        return fail(release.error());
    std::vector<std::shared_ptr<const model::Object>> objects;
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
        std::move(*release) };
}

Result<SimulationCluster> SimulationClusterCache::of(
    const inventory::SnapshotPtr &snapshot, const ReleaseChoice &choice)
{
    std::lock_guard lock(m_mutex);
    if (m_built && m_rev == snapshot->rev() && m_cluster == snapshot->cluster()
        && m_version == snapshot->kubernetesVersion() && m_choice == choice)
        return *m_built;
    Result<SimulationCluster> built = simulationCluster(*snapshot, choice);
    if (!built)
        return fail(built.error());
    m_built = *built;
    m_rev = snapshot->rev();
    m_cluster = snapshot->cluster();
    m_version = snapshot->kubernetesVersion();
    m_choice = choice;
    return built;
}

} // namespace dra::alloc
