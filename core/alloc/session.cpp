// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/session.h"

#include <algorithm>
#include <set>

#include "core/common/json_text.h"

namespace dra::alloc {

namespace {

std::string validateDeviceNames(const Cluster &cluster, const std::vector<int> &slices)
{
    std::set<std::string_view> names;
    for (const int slice : slices)
        for (const model::Device &device : cluster.slices()[size_t(slice)].spec->devices)
            if (!names.insert(device.name).second)
                return "duplicate device name " + device.name;
    return {};
}

std::string validateConsumption(
    const Cluster &cluster, const CounterSets &sets, const std::vector<int> &slices)
{
    for (const int slice : slices)
        for (const model::Device &device : cluster.slices()[size_t(slice)].spec->devices)
            for (const model::DeviceCounterConsumption &consumption : device.consumesCounters) {
                const auto set = sets.find(consumption.counterSet);
                if (set == sets.end())
                    return "counter set " + consumption.counterSet + " not found";
                for (const auto &[name, value] : consumption.counters)
                    if (!set->second.contains(name))
                        return "counter " + name + " not found in counter set "
                            + consumption.counterSet;
            }
    return {};
}

} // namespace

CounterSets counterSetsOf(const model::ResourceSlice &slice)
{
    CounterSets sets;
    for (const model::CounterSet &set : slice.sharedCounters) {
        auto &counters = sets[set.name];
        for (const auto &[name, value] : set.counters)
            counters[name] = value.nanoUnits();
    }
    return sets;
}

Session::Session(const Cluster &cluster, release::KubernetesRelease release)
    : m_cluster(cluster)
    , m_release(std::move(release))
    , m_views(cluster.devices().size())
    , m_nodePools(cluster.nodes().size())
{
}

Session::~Session() = default;

const Session::Compiled &Session::compile(const std::string &expression)
{
    auto it = m_compiled.find(expression);
    if (it != m_compiled.end())
        return *it->second;
    auto compiled = std::make_unique<Compiled>();
    std::vector<cel::Diagnostic> diagnostics;
    // The scheduler compiles the selectors of stored claims and classes as stored expressions.
    const cel::SelectorOptions options { m_release, true };
    Result<cel::CompiledSelector> selector
        = cel::compileSelector(expression, options, &diagnostics);
    if (!selector) {
        compiled->error = selector.error().message.toStdString();
    } else if (!selector->isValid()) {
        for (const cel::Diagnostic &d : diagnostics) {
            if (d.severity != cel::Diagnostic::Severity::Error)
                continue;
            if (!compiled->error.empty())
                compiled->error += "; ";
            compiled->error += "ERROR: <input>:" + std::to_string(d.line) + ":"
                + std::to_string(d.column) + ": " + d.message;
        }
        if (compiled->error.empty())
            compiled->error = "the expression does not compile";
    } else {
        compiled->selector = std::move(*selector);
    }
    return *m_compiled.emplace(expression, std::move(compiled)).first->second;
}

const cel::DeviceView &Session::view(int device)
{
    std::unique_ptr<cel::DeviceView> &slot = m_views[size_t(device)];
    if (!slot) {
        slot = std::make_unique<cel::DeviceView>();
        const Cluster::Device &entry = m_cluster.devices()[size_t(device)];
        slot->driver = m_cluster.driverOf(device);
        slot->allowMultipleAllocations = entry.spec->allowMultipleAllocations;
        for (const auto &[name, attribute] : entry.spec->attributes)
            slot->addAttribute(name, cel::deviceAttributeFromModel(attribute));
        for (const auto &[name, capacity] : entry.spec->capacity)
            slot->addCapacity(name, capacity.value);
    }
    return *slot;
}

int Session::selectorList(const std::vector<model::DeviceSelector> &selectors)
{
    std::string key;
    for (const model::DeviceSelector &selector : selectors) {
        key += selector.celExpression;
        key += '\x1f';
    }
    const auto [it, added] = m_listIndex.emplace(key, int(m_lists.size()));
    if (added)
        m_lists.push_back({ selectors, std::vector<int8_t>(m_cluster.devices().size(), -1) });
    return it->second;
}

SelectorMatch Session::matches(int list, int device)
{
    List &entry = m_lists[size_t(list)];
    int8_t &cached = entry.cache[size_t(device)];
    if (cached == 0 || cached == 1) {
        SelectorMatch out;
        out.outcome = cached ? SelectorMatch::Outcome::Match : SelectorMatch::Outcome::NoMatch;
        return out;
    }
    for (size_t i = 0; i < entry.selectors.size(); ++i) {
        const Compiled &compiled = compile(entry.selectors[i].celExpression);
        if (!compiled.error.empty())
            return { SelectorMatch::Outcome::CompileError, int(i), compiled.error };
        const cel::SelectorResult result = cel::evaluate(compiled.selector, view(device));
        if (result.outcome == cel::SelectorResult::Outcome::Error)
            return { SelectorMatch::Outcome::RuntimeError, int(i), result.error };
        if (result.outcome == cel::SelectorResult::Outcome::NoMatch) {
            cached = 0;
            return { SelectorMatch::Outcome::NoMatch, int(i), {} };
        }
    }
    cached = 1;
    return {};
}

const NodePools &Session::nodePools(int node)
{
    std::unique_ptr<NodePools> &slot = m_nodePools[size_t(node)];
    if (!slot)
        slot = std::make_unique<NodePools>(gatherPools(node));
    return *slot;
}

NodePools Session::gatherPools(int nodeIndex)
{
    const NodeInfo &node = m_cluster.nodes()[size_t(nodeIndex)];
    const bool partitionable = m_release.gates.partitionableDevices;
    NodePools out;

    // Newest generation of every pool among the slices relevant for the node.
    std::map<int, std::vector<int>> byPool;
    auto consider = [&](int sliceIndex) -> bool {
        const Cluster::Slice &slice = m_cluster.slices()[size_t(sliceIndex)];
        const model::ResourceSlice &spec = *slice.spec;
        if (!partitionable && (spec.perDeviceNodeSelection || !spec.sharedCounters.empty()))
            return true;
        bool relevant = false;
        if (!spec.sharedCounters.empty()) {
            relevant = true; // counter sets are needed to use a pool, wherever its devices are
        } else if (!spec.nodeName.empty() || spec.allNodes || !spec.nodeSelector.is_null()) {
            Result<bool> match = nodeMatches(node, spec.nodeName, spec.allNodes, spec.nodeSelector);
            if (!match) {
                out.error = "failed to perform node selection for slice " + slice.name + ": "
                    + match.error().message.toStdString();
                return false;
            }
            relevant = *match;
        } else if (spec.perDeviceNodeSelection) {
            for (const model::Device &device : spec.devices) {
                Result<bool> match
                    = nodeMatches(node, device.nodeName, device.allNodes, device.nodeSelector);
                if (!match) {
                    out.error = "failed to perform node selection for device " + device.name
                        + " in slice " + slice.name + ": " + match.error().message.toStdString();
                    return false;
                }
                if (*match) {
                    relevant = true;
                    break;
                }
            }
        } else {
            return true; // some future way of selecting nodes: not usable here
        }
        if (!relevant)
            return true;
        std::vector<int> &slices = byPool[slice.pool];
        if (!slices.empty()) {
            const int64_t have = m_cluster.slices()[size_t(slices.front())].spec->pool.generation;
            if (spec.pool.generation < have)
                return true;
            if (spec.pool.generation > have)
                slices.clear();
        }
        slices.push_back(sliceIndex);
        return true;
    };
    for (const int slice : m_cluster.slicesOnNode(node.name))
        if (!consider(slice))
            return out;
    for (const int slice : m_cluster.floatingSlices())
        if (!consider(slice))
            return out;

    auto byName = [&](int a, int b) {
        return m_cluster.slices()[size_t(a)].name < m_cluster.slices()[size_t(b)].name;
    };
    std::vector<NodePool> normal, withBindingConditions;
    for (auto &[poolIndex, slices] : byPool) {
        NodePool pool;
        pool.pool = poolIndex;
        const model::ResourcePool &first = m_cluster.slices()[size_t(slices.front())].spec->pool;
        std::vector<int> all;
        const bool locallyComplete = int64_t(slices.size()) == first.resourceSliceCount;
        if (!locallyComplete) {
            // Look at every slice of the pool: the node may simply not see the other slices, or
            // the driver may be replacing this generation with one the node does not see.
            bool obsolete = false;
            for (const int other : m_cluster.pools()[size_t(poolIndex)].slices) {
                const int64_t generation = m_cluster.slices()[size_t(other)].spec->pool.generation;
                if (generation == first.generation)
                    all.push_back(other);
                else if (generation > first.generation)
                    obsolete = true;
            }
            if (obsolete)
                continue;
            if (int64_t(all.size()) != first.resourceSliceCount) {
                pool.incomplete = true;
                normal.push_back(std::move(pool));
                continue;
            }
        }
        std::sort(slices.begin(), slices.end(), byName);
        std::vector<int> counterSlices;
        for (const int slice : slices) {
            if (partitionable && !m_cluster.slices()[size_t(slice)].spec->sharedCounters.empty())
                counterSlices.push_back(slice);
            else
                pool.slices.push_back(slice);
        }
        std::string reason = validateDeviceNames(m_cluster, pool.slices);
        if (reason.empty() && partitionable) {
            for (const int slice : counterSlices) {
                for (const model::CounterSet &set :
                    m_cluster.slices()[size_t(slice)].spec->sharedCounters) {
                    if (pool.counterSets.contains(set.name)) {
                        reason = "duplicate counter set name " + set.name;
                        break;
                    }
                    auto &counters = pool.counterSets[set.name];
                    for (const auto &[name, value] : set.counters)
                        counters[name] = value.nanoUnits();
                }
                if (!reason.empty())
                    break;
            }
            if (reason.empty())
                reason = validateConsumption(m_cluster, pool.counterSets, slices);
            if (reason.empty() && !all.empty() && all.size() != slices.size()) {
                const std::set<int> local(slices.begin(), slices.end());
                for (const int other : all)
                    if (!local.contains(other))
                        pool.otherSlices.push_back(other);
                reason = validateConsumption(m_cluster, pool.counterSets, pool.otherSlices);
            }
        }
        if (!reason.empty()) {
            NodePool invalid;
            invalid.pool = poolIndex;
            invalid.invalid = true;
            invalid.invalidReason = std::move(reason);
            normal.push_back(std::move(invalid));
            continue;
        }
        for (const int slice : pool.slices)
            for (const model::Device &device : m_cluster.slices()[size_t(slice)].spec->devices)
                pool.bindingConditions
                    = pool.bindingConditions || !device.bindingConditions.empty();
        (pool.bindingConditions ? withBindingConditions : normal).push_back(std::move(pool));
    }
    auto byId = [&](const NodePool &a, const NodePool &b) {
        const Cluster::Pool &pa = m_cluster.pools()[size_t(a.pool)];
        const Cluster::Pool &pb = m_cluster.pools()[size_t(b.pool)];
        return pa.driver != pb.driver ? pa.driver < pb.driver : pa.name < pb.name;
    };
    std::sort(normal.begin(), normal.end(), byId);
    std::sort(withBindingConditions.begin(), withBindingConditions.end(), byId);
    out.pools = std::move(normal);
    for (NodePool &pool : withBindingConditions)
        out.pools.push_back(std::move(pool));
    return out;
}

void Session::applyTaintRules()
{
    m_taintRulesApplied = true;
    if (!m_release.gates.deviceTaintRules)
        return;
    for (const model::Object *object : m_cluster.taintRules()) {
        const auto *rule = object->as<model::DeviceTaintRule>();
        if (!rule)
            continue;
        const model::DeviceTaintSelector &selector = rule->selector;
        int classList = -1;
        if (!selector.deviceClassName.empty()) {
            const Cluster::Class *cls = m_cluster.findClass(selector.deviceClassName);
            if (!cls)
                continue; // a rule for an unknown class selects nothing
            classList = selectorList(cls->spec->selectors);
        }
        const int list = selector.selectors.empty() ? -1 : selectorList(selector.selectors);
        for (size_t d = 0; d < m_cluster.devices().size(); ++d) {
            const int device = int(d);
            const Cluster::Slice &slice = m_cluster.sliceOf(device);
            if (!selector.driver.empty() && slice.spec->driver != selector.driver)
                continue;
            if (!selector.pool.empty() && slice.spec->pool.name != selector.pool)
                continue;
            if (!selector.device.empty() && m_cluster.devices()[d].spec->name != selector.device)
                continue;
            if (classList >= 0
                && matches(classList, device).outcome != SelectorMatch::Outcome::Match)
                continue;
            if (list >= 0 && matches(list, device).outcome != SelectorMatch::Outcome::Match)
                continue;
            m_ruleTaints.try_emplace(device, m_cluster.devices()[d].spec->taints)
                .first->second.push_back(rule->taint);
        }
    }
}

const std::vector<model::DeviceTaint> &Session::taints(int device)
{
    if (!m_taintRulesApplied)
        applyTaintRules();
    const std::vector<model::DeviceTaint> &own = m_cluster.devices()[size_t(device)].spec->taints;
    if (m_ruleTaints.empty())
        return own;
    const auto it = m_ruleTaints.find(device);
    return it == m_ruleTaints.end() ? own : it->second;
}

} // namespace dra::alloc
