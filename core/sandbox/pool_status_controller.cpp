// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/pool_status_controller.h"

#include "core/inventory/pool_status.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

inventory::SnapshotPtr inventoryOf(const ObjectView &view)
{
    inventory::SnapshotSource source;
    source.cluster = "demo";
    source.kubernetesVersion = view.kubernetesVersion();
    for (model::Kind kind :
        { model::Kind::ResourceSlice, model::Kind::ResourceClaim, model::Kind::DeviceTaintRule })
        for (const json &object : view.all(kind))
            if (Result<model::Object> decoded = model::decodeObject(object))
                source.objects.push_back(model::toRecord(*decoded));
    return inventory::buildSnapshot(std::move(source));
}

json failedStatus(const std::string &message, const std::string &now)
{
    return { { "conditions",
        json::array({ { { "type", "Failed" }, { "status", "True" }, { "reason", "InvalidSpec" },
            { "message", message }, { "lastTransitionTime", now } } }) } };
}

} // namespace

void PoolStatusController::reconcile(ControlPass &pass)
{
    inventory::SnapshotPtr snapshot; // built once, and only when a request waits
    for (json request : pass.view.all(model::Kind::ResourcePoolStatusRequest)) {
        if (request.contains("status") && request["status"].is_object()
            && !request["status"].empty())
            continue; // answered once; a new question is a new request
        const json spec = request.value("spec", json::object());
        inventory::PoolQuery query;
        query.driver = spec.value("driver", std::string());
        query.pool = spec.value("poolName", std::string());
        query.limit = spec.contains("limit") && spec["limit"].is_number_integer()
            ? spec["limit"].get<int>()
            : 100;
        if (const std::vector<std::string> errors = inventory::poolQueryErrors(query);
            !errors.empty()) {
            request["status"] = failedStatus(errors.front(), pass.now());
        } else {
            if (!snapshot)
                snapshot = inventoryOf(pass.view);
            request["status"] = inventory::poolStatusJson(
                inventory::countPools(*snapshot, query, inventory::TaintCounting::NotCounted),
                pass.now());
        }
        pass.view.put(request);
    }
}

} // namespace dra::sandbox
