// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Device totals per resource pool, counted as Kubernetes' resource pool status controller counts
// them for a ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, 1.36, KEP-5677), and ours set
// beside the cluster's own answer, pool by pool, with every difference named. The demo cluster
// answers requests with countPools() too, as 1.36 does (taints not counted).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {

// What a request asks: one driver's pools, or one of them; at most `limit` (1..1000) reported.
struct PoolQuery
{
    std::string driver;
    std::string pool; // empty: every pool of the driver
    int limit = 100;
};

// One pool's totals. When the pool is incomplete (fewer slices than it declares) the counts
// are unset and validationError says why, as the cluster reports it.
struct PoolTotals
{
    std::string driver, pool;
    std::string node; // the node of a node-local pool; empty otherwise
    int64_t generation = 0;
    std::optional<int64_t> resourceSliceCount, total, allocated, available, unavailable;
    std::string validationError; // "PoolIncomplete: ..."
};

// Whether tainted devices count as unavailable: 1.36's controller reports 0 always, 1.37's
// counts NoSchedule/NoExecute taints. Ours counts them.
enum class TaintCounting { Counted, NotCounted };

// Every matching pool (poolCount) and the first `limit` of them, sorted by driver then name.
struct PoolCount
{
    int64_t poolCount = 0;
    std::vector<PoolTotals> pools;
};

// Counts the pools of `snapshot` that `query` names. A device is allocated when a claim holds
// it other than for admin access (a shareable device counts once); unavailable when it is not
// allocated and tainted NoSchedule or NoExecute (published or by a DeviceTaintRule), so that
// available = total - allocated - unavailable is never negative.
PoolCount countPools(const Snapshot &snapshot, const PoolQuery &query, TaintCounting taints);

// A ResourcePoolStatusRequest's status as the cluster writes it (poolCount, pools, a Complete
// condition stamped `now`, RFC 3339), and back. Reading fails on a status of another shape,
// naming the field.
nlohmann::json poolStatusJson(const PoolCount &count, const std::string &now);
Result<PoolCount> poolCountFromStatus(const nlohmann::json &status);

// The query's problems ("driver is required", "limit must be between 1 and 1000"); empty
// when it may be sent.
std::vector<std::string> poolQueryErrors(const PoolQuery &query);
// A request for `query` (generateName draconsole-pools-), ready to POST.
nlohmann::json poolStatusRequest(const PoolQuery &query);

// One pool in ours and the cluster's answer, with what differs ("allocatedDevices: cluster 3,
// ours 2"); a pool only one side has says so.
struct PoolComparisonRow
{
    std::string driver, pool;
    std::optional<PoolTotals> ours, cluster;
    std::vector<std::string> differences;
};

struct PoolComparison
{
    PoolQuery query;
    // "cluster": the cluster answered; "ours": it did not, and `note` says why.
    std::string source;
    std::string note;
    int64_t ourPoolCount = 0;
    std::optional<int64_t> clusterPoolCount;
    std::vector<PoolComparisonRow> rows;
    size_t differing = 0; // rows with a difference
};

// Sets the cluster's answer (nullopt: none, `whyOursAlone` says why) beside ours. A cluster
// that reports 0 unavailable devices where ours counts tainted ones is 1.36's rule, said so in
// the difference.
PoolComparison comparePools(const PoolQuery &query, const PoolCount &ours,
    const std::optional<PoolCount> &cluster, const std::string &whyOursAlone = {});

// The table `dractl pools` prints and the desktop shows: pool, node, then total, allocated,
// available and unavailable as "cluster / ours" (ours alone when the cluster gave no answer;
// "?" for an incomplete pool, "-" for a side without the pool), then the differences (or the
// pool's validation error).
std::vector<std::string> poolComparisonHeaders(const PoolComparison &comparison);
std::vector<std::string> poolComparisonCells(
    const PoolComparison &comparison, const PoolComparisonRow &row);

// One line for people: "12 pools: the cluster's answer and ours agree.", "... differ in 2
// pools.", or "12 pools, ours alone: <why>".
std::string poolComparisonSummary(const PoolComparison &comparison);

// {"query", "source", "note", "summary", "ourPoolCount", "clusterPoolCount", "differing",
//  "headers", "pools": [{"driver", "pool", "ours": {...}|null, "cluster": {...}|null,
//  "differences": [...], "cells": [...]}]}: what `dractl pools -o json` prints and the console
// API answers; headers and cells are the table every face shows.
nlohmann::json poolComparisonJson(const PoolComparison &comparison);

} // namespace dra::inventory
