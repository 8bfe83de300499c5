// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/alloc/cluster.h"

namespace dra::alloc {

// A claim constraint during the search. Kubernetes assumes constraints are monotonic: once
// adding a device fails, adding more devices will not make it pass.
class Constraint
{
public:
    virtual ~Constraint() = default;
    // Called when `device` is about to be picked for request `request` (the parent request of a
    // subrequest) and subrequest `subRequest` (empty for a plain request). False rejects it.
    virtual bool add(const std::string &request, const std::string &subRequest,
        const Cluster &cluster, int device)
        = 0;
    // Undoes the matching successful add().
    virtual void remove(const std::string &request, const std::string &subRequest,
        const Cluster &cluster, int device)
        = 0;
};

// matchAttribute (the devices' values of the attribute share at least one value) or
// distinctAttribute (no two devices share a value); a scalar is a set of one value, a list
// attribute the set of its elements, and a device without the attribute fails either. nullptr
// for a constraint of a kind this build does not know (Kubernetes then refuses the claim).
std::unique_ptr<Constraint> makeConstraint(const model::DeviceConstraint &constraint);

// The attribute `name` ("domain/id") of a device, as Kubernetes looks it up for constraints: the
// name as published, or the id alone when the domain is the driver's. nullptr when absent.
const model::DeviceAttribute *constraintAttribute(
    const Cluster &cluster, int device, const std::string &name);

} // namespace dra::alloc
