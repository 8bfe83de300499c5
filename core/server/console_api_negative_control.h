// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// POST /console/v1/templates/negative-control: the editor's "Negative control", the document
// `dractl negative-control FILE -o json` prints for the same text, from the same core function.
#pragma once

#include <string_view>

#include "core/alloc/simulation_cluster.h"
#include "core/server/console_api.h"

namespace dra::server::console {

// The negative control of `body` (one ResourceClaimTemplate or ResourceClaim, YAML or JSON) on
// the state's snapshot, in the release chooseRelease() picks from the version the server
// reports and ?kubernetesVersion=&featureGates=. 400 with {error} when the text does not read
// or is not such a claim. Any thread.
Answer negativeControlAnswer(const ConsoleState &state, const QueryParams &query,
    alloc::SimulationClusterCache &clusters, std::string_view body);

} // namespace dra::server::console
