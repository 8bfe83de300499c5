// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The inventory `dractl simulate` and `dractl explain` work on: a file (--inventory) or the
// cache, indexed for the allocator, with the feature gates of its Kubernetes version.
#pragma once

#include <memory>
#include <string>

#include <QCommandLineParser>

#include "core/alloc/cluster.h"
#include "core/release/feature_gates.h"
#include "core/common/result.h"

namespace dra::cli {

QCommandLineOption inventoryOption(); // --inventory FILE
QCommandLineOption featureGatesOption(); // --feature-gates G=true,...

// --feature-gates, --inventory, --cache and --cluster: what loadSimulationInventory() reads.
void addSimulationInventoryOptions(QCommandLineParser &parser);

struct SimulationInventory
{
    std::shared_ptr<const alloc::Cluster> cluster;
    release::FeatureGates gates;
    int minor = 0; // the Kubernetes 1.<minor> whose defaults the gates start from
    std::string versionFrom; // "the cache", "the newest release", ...
};

// Loads the inventory (--inventory, else the cache with --cache/--cluster) and resolves the
// feature gates: the defaults of the cluster's version when the cache knows it, else of the
// newest release, then --feature-gates.
[[nodiscard]] Result<SimulationInventory> loadSimulationInventory(const QCommandLineParser &parser);

} // namespace dra::cli
