// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/claim_placement.h"

#include "core/alloc/allocated_state.h"
#include "core/alloc/cluster.h"
#include "core/alloc/node_selector.h"
#include "core/alloc/simulation_cluster.h"
#include "core/alloc/simulation_json.h"
#include "core/alloc/simulator.h"
#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/decode_resource.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

bool claimIsAllocated(const json &claim)
{
    return claim.contains("/status/allocation"_json_pointer)
        && claim["/status/allocation"_json_pointer].is_object();
}

} // namespace

ClaimPlacement::ClaimPlacement(const ObjectView &view)
    : m_view(view)
{
}

ClaimPlacement::~ClaimPlacement() = default;

Result<void> ClaimPlacement::build()
{
    if (m_simulator)
        return {};
    if (!m_buildError.empty())
        return dra::fail(common::Error::Code::Invalid, common::qs(m_buildError));
    // The objects of this pass (writes of earlier controllers included), as a snapshot of the
    // version the demo serves: the allocator then reads them as the console and dractl do.
    inventory::SnapshotSource source;
    source.cluster = "demo";
    source.kubernetesVersion = m_view.kubernetesVersion();
    for (model::Kind kind : { model::Kind::DeviceClass, model::Kind::ResourceSlice,
             model::Kind::ResourceClaim, model::Kind::Node, model::Kind::DeviceTaintRule }) {
        for (const json &object : m_view.all(kind)) {
            Result<model::Object> decoded = model::decodeObject(object);
            if (decoded)
                source.objects.push_back(model::toRecord(*decoded));
            else
                qCWarning(
                    lcSandbox, "demo scheduler skips %s", qPrintable(decoded.error().message));
        }
    }
    Result<alloc::SimulationCluster> cluster
        = alloc::simulationCluster(*inventory::buildSnapshot(std::move(source)));
    if (!cluster) {
        m_buildError = cluster.error().message.toStdString();
        return dra::fail(cluster.error());
    }
    m_cluster = std::move(cluster->cluster);
    m_simulator = std::make_unique<alloc::Simulator>(
        *m_cluster, cluster->release, alloc::AllocatedState::fromClaims(*m_cluster));
    return {};
}

ClaimPlacement::Outcome ClaimPlacement::place(
    const std::vector<json> &claims, const std::vector<std::string> &nodes)
{
    Outcome out;
    out.allocations.resize(claims.size());
    std::vector<alloc::ClaimToAllocate> wanted;
    std::vector<size_t> wantedIndex;
    std::vector<json> requiredSelectors;
    for (size_t i = 0; i < claims.size(); ++i) {
        if (claimIsAllocated(claims[i])) {
            const json selector
                = claims[i].value("/status/allocation/nodeSelector"_json_pointer, json());
            if (selector.is_object())
                requiredSelectors.push_back(selector);
            continue;
        }
        wanted.push_back({ metaText(claims[i], "namespace"), metaText(claims[i], "name"),
            model::detail::decodeClaimSpec(claims[i].value("spec", json::object())) });
        wantedIndex.push_back(i);
    }
    if (Result<void> built = build(); !built) {
        out.message = "cannot build the inventory: " + built.error().message.toStdString();
        return out;
    }
    for (const std::string &node : nodes) {
        const int index = m_cluster->findNode(node);
        if (index < 0)
            continue;
        bool selected = true;
        for (const json &selector : requiredSelectors) {
            Result<bool> matches
                = alloc::nodeSelectorMatches(selector, m_cluster->nodes()[size_t(index)]);
            selected = selected && matches && *matches;
        }
        if (!selected)
            continue;
        if (wanted.empty()) {
            out.placed = true;
            out.node = node;
            return out;
        }
        alloc::SimulationOptions options;
        options.node = node;
        options.explain = false;
        const alloc::Placement placement = m_simulator->place(wanted, options);
        if (!placement.error.empty()) {
            out.message = placement.error;
            return out;
        }
        if (!placement.allocated)
            continue;
        for (size_t i = 0; i < wanted.size(); ++i) {
            const alloc::ClaimResult &result = placement.claims[i];
            json results = json::array();
            for (const alloc::DeviceResult &device : result.devices) {
                json entry = alloc::deviceResultJson(*m_cluster, device);
                if (!device.adminAccess)
                    entry.erase("adminAccess");
                results.push_back(std::move(entry));
            }
            json allocation = { { "devices", { { "results", std::move(results) } } } };
            if (!result.nodeSelector.is_null())
                allocation["nodeSelector"] = result.nodeSelector;
            out.allocations[wantedIndex[i]] = std::move(allocation);
        }
        out.placed = true;
        out.node = node;
        return out;
    }
    std::string summary;
    if (!wanted.empty())
        m_simulator->explain(wanted, alloc::SimulationOptions {}, &summary);
    out.message = summary.empty() ? "0/" + std::to_string(m_view.all(model::Kind::Node).size())
            + " nodes are available: cannot allocate all claims."
                                  : summary;
    return out;
}

} // namespace dra::sandbox
