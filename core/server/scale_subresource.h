// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/server/http_message.h"
#include "core/server/object_writer.h"

namespace dra::server {

// The scale subresource of apps/v1 Deployments and ReplicaSets, as `kubectl scale` uses it:
// GET answers an autoscaling/v1 Scale; PATCH (merge, strategic merge or JSON patch of
// /spec/replicas) and PUT of a Scale set the parent's spec.replicas. Thread of the writer.
struct ScaleTarget
{
    const model::KindInfo *kind = nullptr;
    std::string ns, name;
};

// The target when `segments` name
// ".../apis/apps/v1/namespaces/NS/{deployments|replicasets}/NAME/scale".
std::optional<ScaleTarget> scaleTargetOf(const std::vector<std::string> &segments);

// Answers a request for `target`. `writer` is null on a read-only server (writes answer 405);
// `reader` reads the object for GET.
Response serveScale(
    const Request &request, const ScaleTarget &target, ObjectWriter *writer, ObjectWriter &reader);

} // namespace dra::server
