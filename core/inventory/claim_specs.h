// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Walking what the cluster's claims ask for: every claim spec (ResourceClaims and
// ResourceClaimTemplates) and every request spec in one (exactly, and each firstAvailable
// subrequest).
#pragma once

#include "core/inventory/snapshot.h"
#include "core/model/resource_types.h"

namespace dra::inventory {

// Calls visit(request, spec) for the request's `exactly` and each of its subrequests.
template <typename F> void forEachRequestSpec(const model::ResourceClaimSpec &spec, F &&visit)
{
    for (const model::DeviceRequest &request : spec.requests) {
        if (request.exactly)
            visit(request, *request.exactly);
        for (const model::DeviceRequestSpec &sub : request.firstAvailable)
            visit(request, sub);
    }
}

// Calls visit(object, spec) for every ResourceClaim, then every ResourceClaimTemplate.
template <typename F> void forEachClaimSpec(const Snapshot &snapshot, F &&visit)
{
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaim))
        if (const auto *claim = object->as<model::ResourceClaim>())
            visit(*object, claim->spec);
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaimTemplate))
        if (const auto *tmpl = object->as<model::ResourceClaimTemplate>())
            visit(*object, tmpl->spec);
}

} // namespace dra::inventory
