// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench alloc: allocation simulation throughput on a large inventory (the 5,000-node
// `scale` preset unless --inventory names one): single-GPU claims allocated one after another,
// then claims for 4 GPUs that must share an attribute. Prints one JSON line.
#include <chrono>

#include <nlohmann/json.hpp>

#include "app/dractl/commands/bench_timing.h"
#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/simulation_inventory.h"
#include "core/alloc/simulator.h"
#include "core/sandbox/presets.h"

namespace dra::cli {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

alloc::ClaimToAllocate gpuClaim(
    const std::string &name, int count, const std::string &matchAttribute)
{
    alloc::ClaimToAllocate claim { "bench", name, {} };
    model::DeviceRequest request;
    request.name = "gpu";
    model::DeviceRequestSpec spec;
    spec.name = "gpu";
    spec.deviceClassName = "gpu.nvidia.com";
    spec.count = count;
    request.exactly = spec;
    claim.spec.requests.push_back(request);
    if (!matchAttribute.empty())
        claim.spec.constraints.push_back({ {}, matchAttribute, {} });
    return claim;
}

// Allocates `claims` claims one after another, each on the first node (by name) where it fits.
json run(const alloc::Cluster &cluster, const release::KubernetesRelease &release, int claims,
    int gpus, const std::string &matchAttribute, bool fullScan)
{
    alloc::Simulator simulator(cluster, release, alloc::AllocatedState::fromClaims(cluster));
    alloc::SimulationOptions options;
    options.explain = false;
    options.skipKnownFullNodes = !fullScan;
    int allocated = 0;
    int64_t steps = 0, nodes = 0;
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < claims; ++i) {
        const alloc::Placement placement = simulator.place(
            { gpuClaim("claim-" + std::to_string(i), gpus, matchAttribute) }, options);
        allocated += placement.allocated ? 1 : 0;
        steps += placement.steps;
        nodes += placement.nodesConsidered;
    }
    const double seconds = secondsSince(start);
    return { { "claims", claims }, { "gpus_per_claim", gpus }, { "allocated", allocated },
        { "seconds", seconds }, { "claims_per_s", seconds > 0 ? claims / seconds : 0.0 },
        { "nodes_tried", nodes }, { "placements_tried", steps } };
}

} // namespace

int runBenchAlloc(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(inventoryOption());
    parser.addOption({ QStringLiteral("nodes"),
        QStringLiteral("Nodes of the generated scale preset (default 5000)."), QStringLiteral("n"),
        QStringLiteral("5000") });
    parser.addOption(
        { QStringLiteral("claims"), QStringLiteral("Single-GPU claims to allocate (default 1000)."),
            QStringLiteral("n"), QStringLiteral("1000") });
    parser.addOption({ QStringLiteral("constrained"),
        QStringLiteral("4-GPU claims with a matchAttribute constraint to allocate (default 100)."),
        QStringLiteral("n"), QStringLiteral("100") });
    parser.addOption({ QStringLiteral("match-attribute"),
        QStringLiteral(
            "The attribute the 4 GPUs must share (default resource.kubernetes.io/numaNode)."),
        QStringLiteral("name"), QStringLiteral("resource.kubernetes.io/numaNode") });
    parser.addOption({ QStringLiteral("full-scan"),
        QStringLiteral("Search every node from the first for each claim, without skipping nodes "
                       "known to be full (shows the per-node search cost).") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Benchmark allocation simulation: claims allocated one after another on a large "
                "inventory; prints one JSON line."),
            &exitCode))
        return exitCode;

    const Clock::time_point loadStart = Clock::now();
    std::vector<model::Object> objects;
    std::shared_ptr<const alloc::Cluster> cluster;
    // The inventory's release (or the one asked for); the newest one for the generated cluster.
    release::KubernetesRelease simulated = release::KubernetesRelease::newest();
    if (parser.isSet(QStringLiteral("inventory"))) {
        Result<alloc::SimulationCluster> inventory = loadSimulationInventory(parser);
        if (!inventory)
            return reportFailure(inventory.error());
        cluster = inventory->cluster;
        simulated = inventory->release;
    } else {
        Result<json> list = sandbox::generateInventory(
            { "scale", parser.value(QStringLiteral("nodes")).toInt(), 1 });
        if (!list)
            return reportFailure(list.error());
        for (json &item : (*list)["items"]) {
            Result<model::Object> object = model::decodeObject(std::move(item));
            if (!object)
                return reportFailure(object.error());
            objects.push_back(std::move(*object));
        }
    }
    const double loadSeconds = secondsSince(loadStart);
    const Clock::time_point indexStart = Clock::now();
    if (!cluster) {
        Result<alloc::Cluster> built = alloc::Cluster::build(std::move(objects));
        if (!built)
            return reportFailure(built.error());
        cluster = std::make_shared<const alloc::Cluster>(std::move(*built));
    }
    const double indexSeconds = secondsSince(indexStart);

    const bool fullScan = parser.isSet(QStringLiteral("full-scan"));
    const json single
        = run(*cluster, simulated, parser.value(QStringLiteral("claims")).toInt(), 1, {}, fullScan);
    const json constrained
        = run(*cluster, simulated, parser.value(QStringLiteral("constrained")).toInt(), 4,
            parser.value(QStringLiteral("match-attribute")).toStdString(), fullScan);
    const json document = { { "bench", "alloc" }, { "nodes", cluster->nodes().size() },
        { "devices", cluster->devices().size() }, { "load_s", loadSeconds },
        { "index_s", indexSeconds }, { "full_scan", fullScan }, { "single_gpu", single },
        { "match_attribute_4_gpus", constrained } };
    out(QString::fromStdString(document.dump()) + QLatin1Char('\n'));
    return single["allocated"] == single["claims"]
            && constrained["allocated"] == constrained["claims"]
        ? Ok
        : Failed;
}

namespace {
const CommandRegistration benchAllocRegistration({ .path = "bench alloc",
    .summary = "claims allocated one after another on the 5,000-node scale inventory",
    .run = runBenchAlloc,
    .order = 40 });
} // namespace

} // namespace dra::cli
