// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/simulation_cluster.h"
#include "core/inventory/snapshot.h"
#include "core/model/object.h"

namespace dra::alloc {

// What a ResourceClaimTemplate or ResourceClaim comes to in a cluster: where its text fails to
// read; per request, which devices match on how many nodes; then whether and where copies can
// be allocated under the cluster's release, or why not. The template editor shows it as you
// type, `dractl template check` prints it, the web console shows it. A plain value.
struct TemplateCheck
{
    std::string error; // the YAML or the object does not read; "line N: reason"
    std::string kind, ns, name;

    struct Request
    {
        std::string name; // "gpu", or "gpu/h100" for a firstAvailable subrequest
        std::string deviceClass;
        bool classExists = false;
        int ofClass = 0; // devices the class selects
        int matching = 0; // ... that also match the request's selectors
        int nodes = 0; // nodes with matching devices
        std::vector<std::string> selectorErrors; // "selectors[0]: message"
    };
    std::vector<Request> requests;

    bool simulated = false;
    int kubernetesMinor = 0; // the release checked in: Kubernetes 1.<minor>
    std::string release; // release::ChosenRelease::text(): "Kubernetes 1.34 (the cluster's ...)"
    std::vector<std::string> nodesWhereOneFits;
    int copiesThatFit = 0;
    bool capped = false;
    std::string firstPlacementNode; // where the first copy goes
    std::string blocked; // why the next copy does not fit (error or summary)
    std::vector<std::string> explanation; // per node, the closest first

    // Each ResourceQuota limit of the namespace that a claim of this spec would pass, worded as
    // kube-apiserver refuses the create ("exceeded quota: ..."); for a template, each claim a
    // pod makes from it.
    std::vector<std::string> overQuota;

    double matchMs = 0; // time spent reading the text and matching devices
    double simulationMs = 0; // time spent in the allocation simulation

    // What is wrong with the template in this cluster, one sentence each: a DeviceClass that
    // does not exist, a selector that does not compile, no copy that can be allocated. Empty
    // when all is good (or when it did not read: see `error`).
    std::vector<std::string> findings() const;
};

// The quick half of a check, run on every keystroke: reads one ResourceClaimTemplate or
// ResourceClaim (YAML or JSON text, its first document) and counts, per request, the devices
// of its class and those its selectors match, compiled as new selectors in `release`. No
// simulation. Any thread.
TemplateCheck matchTemplate(const inventory::Snapshot &snapshot, std::string_view text,
    const release::ChosenRelease &release);

// The same in the snapshot's recorded release (release::recordedRelease()).
TemplateCheck matchTemplate(const inventory::Snapshot &snapshot, std::string_view text);

// The whole check of the text in `release` (release::chooseRelease()): the match counts, its
// selectors compiled as new ones, and then the allocation simulation (where copies fit, or why
// not) on `clusters.of(snapshot, release)`; `maxCopies` bounds the fit analysis. Any thread.
TemplateCheck checkTemplate(const inventory::SnapshotPtr &snapshot, std::string_view text,
    SimulationClusterCache &clusters, const release::ChosenRelease &release, int maxCopies = 64);

// The whole check of a decoded ResourceClaimTemplate or ResourceClaim, against `cluster` (the
// simulationCluster() of `snapshot`): for manifests of several documents. Any thread.
TemplateCheck checkClaimObject(const inventory::Snapshot &snapshot, const model::Object &object,
    const SimulationCluster &cluster, int maxCopies = 64);

// The check as JSON, what `dractl template check -o json` prints for each template and the web
// console receives: kind, namespace, name, error (when it did not read), requests, the
// release, allocation and findings. Timings are left out, so the same inputs give the same text.
nlohmann::json toJson(const TemplateCheck &check);

} // namespace dra::alloc
