// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/pool_status.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/model/device_taints.h"

namespace dra::inventory {

using nlohmann::json;

namespace {

constexpr int kMaxLimit = 1000;

PoolTotals countPool(const Snapshot &snapshot, const Pool &pool, TaintCounting taints)
{
    PoolTotals totals { pool.driver, pool.name, pool.node, pool.generation };
    if (!pool.complete()) {
        // The cluster does not count a pool it has not seen whole.
        totals.validationError = "PoolIncomplete: pool " + pool.driver + "/" + pool.name
            + " is incomplete: observed " + std::to_string(pool.slices.size()) + "/"
            + std::to_string(pool.resourceSliceCount) + " slices at generation "
            + std::to_string(pool.generation);
        return totals;
    }
    int64_t total = 0, allocated = 0, unavailable = 0;
    for (const Device *device : snapshot.devicesInPool(pool.driver, pool.name)) {
        ++total;
        const std::span<const DeviceHold> holds = snapshot.holds(device->key);
        if (std::ranges::any_of(holds, [](const DeviceHold &h) { return !h.adminAccess; })) {
            ++allocated;
            continue;
        }
        if (taints == TaintCounting::Counted
            && std::ranges::any_of(snapshot.effectiveTaints(*device), model::taintBlocksAllocation))
            ++unavailable;
    }
    totals.resourceSliceCount = int64_t(pool.slices.size());
    totals.total = total;
    totals.allocated = allocated;
    totals.unavailable = unavailable;
    totals.available = total - allocated - unavailable;
    return totals;
}

json totalsJson(const PoolTotals &t)
{
    json pool { { "driver", t.driver }, { "poolName", t.pool }, { "generation", t.generation } };
    if (!t.node.empty())
        pool["nodeName"] = t.node;
    if (!t.validationError.empty()) {
        pool["validationError"] = t.validationError;
        return pool;
    }
    const auto set = [&](const char *key, const std::optional<int64_t> &value) {
        if (value)
            pool[key] = *value;
    };
    set("resourceSliceCount", t.resourceSliceCount);
    set("totalDevices", t.total);
    set("allocatedDevices", t.allocated);
    set("availableDevices", t.available);
    set("unavailableDevices", t.unavailable);
    return pool;
}

std::optional<int64_t> optionalCount(const json &pool, const char *key)
{
    const auto it = pool.find(key);
    if (it == pool.end() || it->is_null())
        return std::nullopt;
    if (!it->is_number_integer())
        throw std::invalid_argument(std::string(key) + " is not an integer");
    return it->get<int64_t>();
}

std::string countText(const std::optional<int64_t> &value)
{
    return value ? std::to_string(*value) : std::string("unset");
}

void compareTotals(PoolComparisonRow &row)
{
    const PoolTotals &ours = *row.ours;
    const PoolTotals &theirs = *row.cluster;
    std::vector<std::string> &d = row.differences;
    if (ours.generation != theirs.generation)
        d.push_back("generation: cluster " + std::to_string(theirs.generation) + ", ours "
            + std::to_string(ours.generation) + " (the mirror may lag the cluster)");
    if (ours.validationError != theirs.validationError)
        d.push_back("validationError: cluster \"" + theirs.validationError + "\", ours \""
            + ours.validationError + "\"");
    if (ours.node != theirs.node)
        d.push_back("nodeName: cluster \"" + theirs.node + "\", ours \"" + ours.node + "\"");
    const std::pair<const char *, std::optional<int64_t> PoolTotals::*> fields[] = {
        { "resourceSliceCount", &PoolTotals::resourceSliceCount },
        { "totalDevices", &PoolTotals::total },
        { "allocatedDevices", &PoolTotals::allocated },
        { "availableDevices", &PoolTotals::available },
        { "unavailableDevices", &PoolTotals::unavailable },
    };
    for (const auto &[name, field] : fields) {
        const std::optional<int64_t> &a = theirs.*field, &b = ours.*field;
        if (a == b)
            continue;
        std::string text
            = std::string(name) + ": cluster " + countText(a) + ", ours " + countText(b);
        if (field == &PoolTotals::unavailable && a == 0)
            text += " (Kubernetes 1.36 reports 0 here: it does not count tainted devices yet)";
        d.push_back(std::move(text));
    }
}

} // namespace

std::vector<std::string> poolQueryErrors(const PoolQuery &query)
{
    std::vector<std::string> errors;
    if (query.driver.empty())
        errors.push_back("driver is required: the request asks about one driver's pools");
    if (query.limit < 1 || query.limit > kMaxLimit)
        errors.push_back(
            "limit must be between 1 and 1000 (is " + std::to_string(query.limit) + ")");
    return errors;
}

PoolCount countPools(const Snapshot &snapshot, const PoolQuery &query, TaintCounting taints)
{
    PoolCount count;
    for (const Pool &pool : snapshot.pools()) { // sorted by driver, then name
        if (pool.driver != query.driver || (!query.pool.empty() && pool.name != query.pool))
            continue;
        ++count.poolCount;
        if (int64_t(count.pools.size()) < query.limit)
            count.pools.push_back(countPool(snapshot, pool, taints));
    }
    return count;
}

json poolStatusJson(const PoolCount &count, const std::string &now)
{
    json pools = json::array();
    size_t incomplete = 0;
    for (const PoolTotals &pool : count.pools) {
        pools.push_back(totalsJson(pool));
        incomplete += pool.validationError.empty() ? 0 : 1;
    }
    const std::string message = "Calculated status for " + std::to_string(count.pools.size())
        + " pools (" + std::to_string(incomplete) + " incomplete)";
    return { { "poolCount", count.poolCount }, { "pools", std::move(pools) },
        { "conditions",
            json::array({ { { "type", "Complete" }, { "status", "True" },
                { "reason", "CalculationComplete" }, { "message", message },
                { "lastTransitionTime", now } } }) } };
}

Result<PoolCount> poolCountFromStatus(const json &status)
{
    if (!status.is_object() || !status.contains("poolCount"))
        return fail(common::Error::Code::Invalid,
            QStringLiteral("the ResourcePoolStatusRequest has no status.poolCount yet"));
    PoolCount count;
    try {
        count.poolCount = status.at("poolCount").get<int64_t>();
        const json pools = status.value("pools", json::array());
        for (size_t i = 0; i < pools.size(); ++i) {
            const json &pool = pools.at(i);
            PoolTotals t;
            t.driver = pool.at("driver").get<std::string>();
            t.pool = pool.at("poolName").get<std::string>();
            t.node = pool.value("nodeName", std::string());
            t.generation = pool.value("generation", int64_t(0));
            t.validationError = pool.value("validationError", std::string());
            t.resourceSliceCount = optionalCount(pool, "resourceSliceCount");
            t.total = optionalCount(pool, "totalDevices");
            t.allocated = optionalCount(pool, "allocatedDevices");
            t.available = optionalCount(pool, "availableDevices");
            t.unavailable = optionalCount(pool, "unavailableDevices");
            count.pools.push_back(std::move(t));
        }
    } catch (const std::exception &e) {
        return fail(common::Error::Code::Invalid,
            QStringLiteral("the cluster's ResourcePoolStatusRequest status: %1")
                .arg(QString::fromUtf8(e.what())));
    }
    return count;
}

json poolStatusRequest(const PoolQuery &query)
{
    json spec { { "driver", query.driver }, { "limit", query.limit } };
    if (!query.pool.empty())
        spec["poolName"] = query.pool;
    return { { "apiVersion", "resource.k8s.io/v1alpha3" }, { "kind", "ResourcePoolStatusRequest" },
        { "metadata", { { "generateName", "draconsole-pools-" } } }, { "spec", std::move(spec) } };
}

PoolComparison comparePools(const PoolQuery &query, const PoolCount &ours,
    const std::optional<PoolCount> &cluster, const std::string &whyOursAlone)
{
    PoolComparison comparison { query, cluster ? "cluster" : "ours",
        cluster ? std::string() : whyOursAlone, ours.poolCount };
    std::map<std::pair<std::string, std::string>, PoolComparisonRow> rows;
    for (const PoolTotals &t : ours.pools)
        rows[{ t.driver, t.pool }].ours = t;
    if (cluster) {
        comparison.clusterPoolCount = cluster->poolCount;
        for (const PoolTotals &t : cluster->pools)
            rows[{ t.driver, t.pool }].cluster = t;
        if (cluster->poolCount != ours.poolCount)
            comparison.note = "the cluster matched " + std::to_string(cluster->poolCount)
                + " pools, ours " + std::to_string(ours.poolCount);
    }
    for (auto &[key, row] : rows) {
        row.driver = key.first;
        row.pool = key.second;
        if (cluster) {
            if (row.ours && row.cluster)
                compareTotals(row);
            else if (row.ours)
                row.differences.push_back("not in the cluster's answer");
            else
                row.differences.push_back("not in ours (the mirror may lag the cluster)");
        }
        comparison.differing += row.differences.empty() ? 0 : 1;
        comparison.rows.push_back(std::move(row));
    }
    return comparison;
}

namespace {

std::string cellCount(const std::optional<PoolTotals> &t, std::optional<int64_t> PoolTotals::*field)
{
    if (!t)
        return "-";
    if (!t->validationError.empty())
        return "?";
    const std::optional<int64_t> &value = (*t).*field;
    return value ? std::to_string(*value) : std::string("-");
}

} // namespace

std::vector<std::string> poolComparisonHeaders(const PoolComparison &c)
{
    const bool both = c.source == "cluster";
    return { "pool", "node", both ? "total (cluster / ours)" : "total", "allocated", "available",
        "unavailable", both ? "differences" : "note" };
}

std::vector<std::string> poolComparisonCells(const PoolComparison &c, const PoolComparisonRow &row)
{
    const bool both = c.source == "cluster";
    const auto side = [&](std::optional<int64_t> PoolTotals::*field) {
        return both ? cellCount(row.cluster, field) + " / " + cellCount(row.ours, field)
                    : cellCount(row.ours, field);
    };
    std::string note;
    for (const std::string &d : row.differences)
        note += (note.empty() ? "" : "; ") + d;
    const PoolTotals &any = row.ours ? *row.ours : *row.cluster;
    if (note.empty())
        note = any.validationError;
    return { row.pool, any.node, side(&PoolTotals::total), side(&PoolTotals::allocated),
        side(&PoolTotals::available), side(&PoolTotals::unavailable), note };
}

std::string poolComparisonSummary(const PoolComparison &c)
{
    const std::string pools = std::to_string(c.ourPoolCount) + " pools";
    if (c.source != "cluster")
        return pools + ", ours alone: " + c.note;
    std::string text = pools + ": the cluster's answer and ours "
        + (c.differing == 0 ? std::string("agree")
                            : "differ in " + std::to_string(c.differing) + " pools")
        + ".";
    if (!c.note.empty())
        text += " (" + c.note + ")";
    return text;
}

json poolComparisonJson(const PoolComparison &comparison)
{
    json rows = json::array();
    for (const PoolComparisonRow &row : comparison.rows)
        rows.push_back({ { "driver", row.driver }, { "pool", row.pool },
            { "ours", row.ours ? totalsJson(*row.ours) : json() },
            { "cluster", row.cluster ? totalsJson(*row.cluster) : json() },
            { "differences", row.differences },
            { "cells", poolComparisonCells(comparison, row) } });
    json query { { "driver", comparison.query.driver }, { "limit", comparison.query.limit } };
    if (!comparison.query.pool.empty())
        query["poolName"] = comparison.query.pool;
    return { { "query", std::move(query) }, { "source", comparison.source },
        { "note", comparison.note }, { "summary", poolComparisonSummary(comparison) },
        { "ourPoolCount", comparison.ourPoolCount },
        { "clusterPoolCount",
            comparison.clusterPoolCount ? json(*comparison.clusterPoolCount) : json() },
        { "differing", comparison.differing }, { "headers", poolComparisonHeaders(comparison) },
        { "pools", std::move(rows) } };
}

} // namespace dra::inventory
