// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/common/result.h"
#include "core/model/object_meta.h"

namespace dra::alloc {

// What a node selector can see of a node: its name (the `metadata.name` field) and labels.
struct NodeInfo
{
    std::string name;
    model::StringPairs labels;
    bool known = true; // false: only named by a slice, no Node object in the inventory
};

// Whether a core/v1 NodeSelector (JSON) selects `node`, as Kubernetes' nodeaffinity does: terms
// are ORed, requirements within a term ANDed, an empty term or an empty selector selects nothing.
// Label operators In, NotIn, Exists, DoesNotExist, Gt, Lt; fields only `metadata.name` with
// In / NotIn. A malformed selector is an error naming the problem.
[[nodiscard]] Result<bool> nodeSelectorMatches(
    const nlohmann::json &selector, const NodeInfo &node);

// Kubernetes' node selection of a slice or a device: a node name, all nodes, or a selector.
// Nothing set selects no node.
[[nodiscard]] Result<bool> nodeMatches(const NodeInfo &node, const std::string &nodeName,
    bool allNodes, const nlohmann::json &selector);

// The selector an allocation result carries when it is bound to one node.
nlohmann::json nodeNameSelector(const std::string &nodeName);

// Adds the requirements of `from` (a list of NodeSelectorRequirement) to `to` unless an equal
// one (same key, operator and set of values) is there already, as the allocator merges
// the selectors of network-attached devices.
void addNewRequirements(const nlohmann::json &from, nlohmann::json &to);

} // namespace dra::alloc
