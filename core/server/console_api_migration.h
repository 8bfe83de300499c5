// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// GET /console/v1/migration: the web console's Migration page, the document
// `dractl migrate plan -o json` prints for the same cache, from the same core function.
#pragma once

#include "core/alloc/simulation_cluster.h"
#include "core/server/console_api.h"

namespace dra::server::console {

// The migration plan of the state's snapshot (?namespace= narrows it), in the release
// chooseRelease() picks from the version the server reports and ?kubernetesVersion=&featureGates=.
// 400 with {error} on a release Kubernetes would refuse. Any thread.
Answer migrationAnswer(
    const ConsoleState &state, const QueryParams &query, alloc::SimulationClusterCache &clusters);

} // namespace dra::server::console
