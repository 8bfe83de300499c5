// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The inventory `dractl simulate` and `dractl explain` work on: a file (--inventory) or the
// cache, indexed for the allocator, in its Kubernetes release or the one asked for.
#pragma once

#include <memory>
#include <string>

#include <QCommandLineParser>

#include "core/alloc/simulation_cluster.h"
#include "core/common/result.h"
#include "core/inventory/snapshot.h"

namespace dra::cli {

QCommandLineOption inventoryOption(); // --inventory FILE
// --kubernetes-version, --feature-gates, --inventory, --cache and --cluster: what
// loadSimulationInventory() reads.
void addSimulationInventoryOptions(QCommandLineParser &parser);

// The snapshot of the inventory: --inventory, else the cache with --cache/--cluster (with the
// Kubernetes version the cache recorded for the cluster).
[[nodiscard]] Result<inventory::SnapshotPtr> loadSimulationSnapshot(
    const QCommandLineParser &parser);

// alloc::simulationCluster() of loadSimulationSnapshot() in the release the options choose
// (releaseChoiceOf()): what the desktop's editor and claim inspector build from the same cache.
[[nodiscard]] Result<alloc::SimulationCluster> loadSimulationInventory(
    const QCommandLineParser &parser);

} // namespace dra::cli
