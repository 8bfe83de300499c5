// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Is this cluster ready for DRA, and what is to be done where it is not? The checks a platform
// admin walks through, in the order the DRA guides give them (the release first, then the API
// and the kubelets, then drivers, then classes, then claims), each with a verdict, the reason
// and the next step. `dractl readiness` and the console's Readiness page show this one answer.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/inventory/snapshot.h"
#include "core/model/object_record.h"

namespace dra::inventory {

// Worst last: overall() is the greatest verdict of the checks.
enum class Verdict { Ready, Unknown, Warning, NotReady };

// "ready", "unknown", "warning", "not-ready".
std::string_view verdictName(Verdict verdict);

struct ReadinessCheck
{
    std::string id; // stable: release, api, kubelets, drivers, device-plugin, admin-access, ...
    std::string title; // "Kubernetes release"
    Verdict verdict = Verdict::Unknown;
    std::string reason; // one or two sentences: why this verdict, naming the objects
    std::string action; // what to do next; empty when ready
    nlohmann::json details = nlohmann::json::object(); // the facts behind it (per node, ...)
};

struct Readiness
{
    std::string cluster;
    int64_t rev = 0;
    std::string kubernetesVersion; // as the cluster reported it; "" when not known
    std::vector<ReadinessCheck> checks;

    Verdict overall() const;
};

// The checks on what the cache holds of the cluster and on the states of its mirrored
// `streams` (empty for an inventory imported from files: what only the streams tell is then
// "unknown"). Any thread.
Readiness readiness(const Snapshot &snapshot, std::span<const model::StreamRecord> streams);

// {cluster, rev, kubernetesVersion, verdict, checks[{id, title, verdict, reason, action,
// details}]}: `dractl readiness -o json` and the console API's `readiness`.
nlohmann::json toJson(const Readiness &readiness);

// The report as `dractl readiness` prints it: one block per check.
std::string toText(const Readiness &readiness);

// The report as one self-contained HTML page (`dractl readiness -o html`), to attach to a
// change ticket or send to a team: the overall verdict, then each check with its verdict,
// reason, next step and the facts behind it. Everything from the cluster is escaped.
std::string toHtml(const Readiness &readiness);

} // namespace dra::inventory
