// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The documents of the console API (/console/v1/), computed from one snapshot by the core's
// functions. `dractl` prints the same documents: `lint -o json`, `free -o json`, `cel check|eval
// -o json` call these functions, and `dractl console-api PATH` answers any path as the server
// does, so the web page and the command line cannot disagree.
#pragma once

#include <optional>

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cel/diagnostic.h"
#include "core/cel/dra_environment.h"
#include "core/alloc/simulation_cluster.h"
#include "core/common/result.h"
#include "core/inventory/device_access.h"
#include "core/inventory/device_category.h"
#include "core/inventory/free_capacity.h"
#include "core/inventory/snapshot.h"
#include "core/model/object_record.h"
#include "core/release/release_choice.h"

namespace dra::server::console {

// What the console API answers from: one cluster's snapshot, the states of its mirrored
// streams, and the release it runs. Plain value; the snapshot is shared.
struct ConsoleState
{
    inventory::SnapshotPtr snapshot;
    std::vector<model::StreamRecord> streams;
    std::string kubernetesVersion; // "v1.36.0", or empty when the cache does not know
    bool writable = false;
    // The asking user's own rules, given to the access view when they may not read the RBAC
    // objects (as a SelfSubjectRulesReview would answer them); unset otherwise.
    std::optional<inventory::SelfRules> self;
    std::string selfRulesError; // why the user's own rules could not be had, when asked
};

// [{severity, line, column, message}], as `dractl cel` prints diagnostics.
nlohmann::json diagnosticsJson(const std::vector<cel::Diagnostic> &diagnostics);

// What a selector is checked as: a release (with its gates), new or stored, and where the
// release came from (release::ChosenRelease::from).
struct CelTarget
{
    cel::SelectorOptions options;
    std::string from = release::recordedRelease({}).from;
};
CelTarget celTarget(const release::ChosenRelease &release, bool stored = false);
// A new selector in the release of a cluster that reports `kubernetesVersion` ("v1.34.2"; ""
// when not known), as release::recordedRelease() chooses it.
CelTarget clusterCelTarget(const std::string &kubernetesVersion);
// {kubernetesVersion, from, featureGates{name: on}, stored}.
nlohmann::json celTargetJson(const CelTarget &target);

// `dractl cel check -o json`: {ok, type, cost{min,max}, release, diagnostics}.
nlohmann::json celCheckDocument(std::string_view expression, const CelTarget &target = {});
// `dractl cel eval -o json`: {ok, matches, errors,
// devices[{node,driver,pool,device,result,error?}], release, diagnostics} on every device of the
// snapshot; `ok` is false when the expression does not compile (then nothing is evaluated).
nlohmann::json celEvalDocument(
    const inventory::Snapshot &snapshot, std::string_view expression, const CelTarget &target = {});
bool celCompiles(const nlohmann::json &checkOrEval);

// `dractl template check -o json`'s item for `text` (one ResourceClaimTemplate or
// ResourceClaim) without the file: match counts, the allocation simulation and findings, in the
// release chooseRelease() picks from the version the server reports and `choice`; with `rev`.
// Fails on a bad choice.
[[nodiscard]] Result<nlohmann::json> templateCheckDocument(const ConsoleState &state,
    std::string_view text, const release::ReleaseChoice &choice,
    alloc::SimulationClusterCache &clusters);
// Its quick half, what the editor asks on every keystroke: the same document without the
// allocation simulation (match counts, selector errors, findings).
[[nodiscard]] Result<nlohmann::json> templateMatchDocument(
    const ConsoleState &state, std::string_view text, const release::ReleaseChoice &choice);

// `dractl topology NODE -o layout-json` from the cache (no imported `nvidia-smi topo -m`): the
// drawing the desktop and the web console show, boxes and links with coordinates. NotFound when
// the snapshot has no device of `node`.
[[nodiscard]] Result<nlohmann::json> topologyLayoutDocument(
    const inventory::Snapshot &snapshot, const std::string &node);

// `dractl lint -o json`: {cluster, rev, findings, summary{error,warning,info}}.
nlohmann::json lintDocument(const inventory::Snapshot &snapshot);
// `dractl free -o json`: {cluster, by, groups, total?}.
nlohmann::json freeDocument(const inventory::Snapshot &snapshot, inventory::FreeGrouping grouping);

// Which of the four the overview counts a device as (the device table orders by it too).
using inventory::categoryOf;
using inventory::DeviceCategory;

// Per node GPUs, MIG partitions (placements that still fit), NICs and other devices counted
// apart, device-plugin-only nodes marked, cluster totals (with claims pending and lint findings),
// and the streams that are not current (stale, forbidden, error) with their reason: the JSON of
// inventory::clusterOverview(), which the desktop's overview shows too.
nlohmann::json overviewDocument(const ConsoleState &state);
// The cluster, its revision, release and streams: what the page's header shows.
nlohmann::json infoDocument(const ConsoleState &state);
// DeviceClasses: selectors, config, extendedResourceName, devices matched (free of them),
// claims and templates that request each.
nlohmann::json classesDocument(const inventory::Snapshot &snapshot);
// ResourceClaims: state, requests, allocation, reserving pods (and those the cache lacks).
nlohmann::json claimsDocument(const inventory::Snapshot &snapshot);
// ResourceClaimTemplates with their requests.
nlohmann::json templatesDocument(const inventory::Snapshot &snapshot);
// The Pending diagnosis of pod or claim `ns/name`, as `dractl explain pod|claim NS/NAME -o json`
// prints it, with the feature gates of the cluster's release; an error when there is no such
// object.
[[nodiscard]] Result<nlohmann::json> explainDocument(
    const ConsoleState &state, model::Kind kind, const std::string &ns, const std::string &name);

// One claim or template in full: the above, its Events, and for a claim the Pending diagnosis
// chain (claim created -> allocated -> pod bound -> running -> ready, with owners) as `dractl
// explain claim NS/NAME -o json` prints it. Null when there is no such object.
nlohmann::json claimDetailsDocument(
    const ConsoleState &state, model::Kind kind, const std::string &ns, const std::string &name);

} // namespace dra::server::console
