// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/fault_endpoint.h"

#include <nlohmann/json.hpp>

#include "core/sandbox/control_plane.h"
#include "core/server/kube_status.h"

namespace dra::sandbox {

using nlohmann::json;

bool handleFaultRequest(
    ControlPlane &plane, server::Request &request, server::HttpConnection &connection)
{
    if (request.path != kFaultsPath)
        return false;
    FaultSet &faults = plane.faults();
    if (request.method == "GET") {
        connection.respond(server::jsonResponse(200, faults.toJson()));
        return true;
    }
    if (request.method == "POST") {
        const json body = json::parse(request.body.begin(), request.body.end(), nullptr, false);
        Result<Fault> fault = Fault::fromJson(body);
        if (!fault) {
            connection.respond(server::status::badRequest(fault.error().message.toStdString()));
            return true;
        }
        faults.add(*fault);
        plane.faultsChanged();
        connection.respond(server::jsonResponse(201, fault->toJson()));
        return true;
    }
    if (request.method == "DELETE") {
        std::optional<FaultKind> kind;
        if (auto text = request.query.value("kind"); text && !text->empty()) {
            kind = parseFaultKind(*text);
            if (!kind) {
                connection.respond(server::status::badRequest(
                    "kind: Invalid value: \"" + *text + "\": known kinds are " + faultKindNames()));
                return true;
            }
        }
        const int removed = faults.clear(kind);
        plane.faultsChanged();
        connection.respond(server::jsonResponse(200, { { "removed", removed } }));
        return true;
    }
    connection.respond(server::status::methodNotAllowed());
    return true;
}

} // namespace dra::sandbox
