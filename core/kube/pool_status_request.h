// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>

#include <QObject>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kube/rest_client.h"

namespace dra::kube {

inline constexpr const char *kPoolStatusRequests
    = "/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests";

// Asks the cluster for its own pool totals: creates `request` (a ResourcePoolStatusRequest),
// reads it until the cluster wrote its status (every 250 ms, at most `timeoutMs`), deletes it
// whatever happened, and hands over the status. Errors say why there is no answer: NotFound
// when the cluster does not serve the kind (before 1.36, or the DRAResourcePoolStatus feature
// off), Forbidden when the user may not create one, Busy when no status came in time, Invalid
// for a Failed condition (its message). `done` runs once, on `context`'s thread.
void requestPoolStatus(RestClient &client, const nlohmann::json &request, int timeoutMs,
    QObject *context, std::function<void(Result<nlohmann::json>)> done);

} // namespace dra::kube
