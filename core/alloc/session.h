// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/alloc/capacity.h"
#include "core/alloc/cluster.h"
#include "core/release/kubernetes_release.h"
#include "core/cel/dra_selector.h"

namespace dra::alloc {

// Counter sets of a pool: set name -> counter name -> amount.
using CounterSets = std::map<std::string, std::map<std::string, Nano>>;

// A resource pool as one node sees it, after Kubernetes' GatherPools: the slices of its newest
// generation that target the node, whether it is complete and valid, and its counter sets.
struct NodePool
{
    int pool = -1; // index into Cluster::pools()
    bool incomplete = false;
    bool invalid = false;
    std::string invalidReason;
    std::vector<int> slices; // device slices targeting the node, sorted by name
    std::vector<int> otherSlices; // device slices of the pool that do not target the node
    CounterSets counterSets;
    bool bindingConditions = false; // some device has binding conditions: tried after the others
};

// The pools one node can allocate from, in the allocator's order (driver, pool name; pools with
// binding conditions last). `error` is set when a node selector could not be evaluated.
struct NodePools
{
    std::vector<NodePool> pools;
    std::string error;
};

// The outcome of a list of CEL selectors on one device.
struct SelectorMatch
{
    enum class Outcome : uint8_t { Match, NoMatch, CompileError, RuntimeError };
    Outcome outcome = Outcome::Match;
    int selector = -1; // index of the failing selector
    std::string message; // for errors
};

// Per-thread caches over one Cluster for one Kubernetes release (its minor version decides
// the CEL environment, its gates the rules): compiled selectors, device
// views, which device matches which selector list, each node's pools, effective taints. Not
// thread-safe; the Cluster it reads is.
class Session final
{
public:
    Session(const Cluster &cluster, release::KubernetesRelease release);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    const Cluster &cluster() const { return m_cluster; }
    const release::KubernetesRelease &release() const { return m_release; }
    const release::FeatureGates &gates() const { return m_release.gates; }

    // A compiled CEL selector; `error` is set when the expression does not compile.
    struct Compiled
    {
        cel::CompiledSelector selector;
        std::string error;
    };
    const Compiled &compile(const std::string &expression);
    // The `device` a selector sees for cluster device `device`.
    const cel::DeviceView &view(int device);

    // An id for a list of selectors, so that matches() can cache per list.
    int selectorList(const std::vector<model::DeviceSelector> &selectors);
    // Whether every selector of list `list` matches `device` (first failure reported), cached.
    SelectorMatch matches(int list, int device);

    const NodePools &nodePools(int node);

    // The device's taints plus those DeviceTaintRules add (when DRADeviceTaintRules is on).
    const std::vector<model::DeviceTaint> &taints(int device);

private:
    struct List
    {
        std::vector<model::DeviceSelector> selectors;
        std::vector<int8_t> cache; // by device: -1 unknown, 0 no, 1 yes, 2 error
    };
    NodePools gatherPools(int node);
    void applyTaintRules();

    const Cluster &m_cluster;
    release::KubernetesRelease m_release;
    std::unordered_map<std::string, std::unique_ptr<Compiled>> m_compiled;
    std::vector<std::unique_ptr<cel::DeviceView>> m_views;
    std::vector<List> m_lists;
    std::unordered_map<std::string, int> m_listIndex;
    std::vector<std::unique_ptr<NodePools>> m_nodePools;
    bool m_taintRulesApplied = false;
    std::unordered_map<int, std::vector<model::DeviceTaint>> m_ruleTaints;
};

// The counter sets of a slice, in nano units.
CounterSets counterSetsOf(const model::ResourceSlice &slice);

} // namespace dra::alloc
