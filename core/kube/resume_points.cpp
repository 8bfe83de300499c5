// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/resume_points.h"

namespace dra::kube {

ResumePoints resumePointsOf(store::CacheDb &cache, const std::string &cluster)
{
    ResumePoints points;
    Result<std::vector<model::StreamRecord>> previous = cache.streams(cluster);
    if (!previous)
        return points;
    for (const model::StreamRecord &stream : *previous) {
        const model::KindInfo *kind = model::kindOf(stream.apiVersion, stream.kind);
        if (kind && !stream.resourceVersion.empty() && stream.state != "forbidden")
            points[{ kind->kind, stream.ns }] = { stream.apiVersion, stream.resourceVersion };
    }
    return points;
}

} // namespace dra::kube
