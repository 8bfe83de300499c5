// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/alloc/cluster.h"
#include "core/inventory/snapshot.h"

namespace dra::views {

// What the template editor shows for the text being typed: where it fails to parse, and per
// request which devices match on how many nodes; then whether and where copies can be
// allocated, or why not. The same answers `dractl simulate --claim FILE` gives.
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
    std::vector<std::string> nodesWhereOneFits;
    int copiesThatFit = 0;
    bool capped = false;
    std::string firstPlacementNode; // where the first copy goes
    std::string blocked; // why the next copy does not fit (error or summary)
    std::vector<std::string> explanation; // per node, the closest first

    double matchMs = 0; // time spent reading the text and matching devices
    double simulationMs = 0; // time spent in the allocation simulation
};

// The allocator's view of a snapshot, built once per snapshot revision and shared by the
// checks of every keystroke. Thread-safe.
class ClusterIndexCache final
{
public:
    [[nodiscard]] Result<std::shared_ptr<const alloc::Cluster>> clusterOf(
        const inventory::SnapshotPtr &snapshot);

private:
    std::mutex m_mutex;
    int64_t m_rev = -1;
    std::string m_cluster;
    std::shared_ptr<const alloc::Cluster> m_index;
};

// The quick half of a check, run on every keystroke: reads one ResourceClaimTemplate or
// ResourceClaim (YAML or JSON text) and counts, per request, the devices of its class and
// those its selectors match. No simulation. Any thread.
TemplateCheck matchTemplate(const inventory::SnapshotPtr &snapshot, std::string_view text);

// The whole check: matchTemplate() and then the allocation simulation (where copies fit, or
// why not); `maxCopies` bounds the fit analysis. Any thread.
TemplateCheck checkTemplate(const inventory::SnapshotPtr &snapshot, std::string_view text,
    ClusterIndexCache &clusters, int maxCopies = 64);

// The check as HTML for the result panel.
QString templateCheckHtml(const TemplateCheck &check);

} // namespace dra::views
