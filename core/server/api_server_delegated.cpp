// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// ApiServer with each caller's own identity (--authn=cluster): the cluster the mirror follows
// says who a token is and what its holder may read; writes go to that cluster as the caller.
#include <QPointer>

#include "core/server/api_server.h"
#include "core/server/console_api.h"
#include "core/server/kube_status.h"
#include "core/server/request_attributes.h"
#include "core/server/websocket_gateway.h"

namespace dra::server {

namespace {

// Writes to the Kubernetes API (the review kinds included, which the cluster answers for the
// caller): they go to the cluster, where RBAC and admission decide, and come back by the watch.
// So do the OpenAPI schemas, which say what those writes take (kubectl validates with them).
bool passesThrough(const Request &request)
{
    const bool read = request.method == "GET" || request.method == "HEAD";
    if (read)
        return request.path == "/openapi/v2" || request.path == "/openapi/v3"
            || request.path.starts_with("/openapi/v3/");
    return request.path.starts_with("/api/") || request.path.starts_with("/apis/");
}

} // namespace

void ApiServer::handleDelegated(Request &request, HttpConnection &connection)
{
    // A client certificate signed by our own CA names its holder here; the cluster cannot be
    // asked about it, and it cannot be passed on.
    if (identifyByCertificate(request)) {
        authorizeDelegated(request, connection, std::nullopt);
        return;
    }
    std::optional<std::string> token = bearerToken(request.header("authorization"));
    if (!token && isWebSocketUpgrade(request)) // a browser cannot set headers on a WebSocket
        token = bearerTokenFromProtocols(request);
    if (!token) {
        connection.respond(status::unauthorized());
        return;
    }
    // The request is the connection's own and lives until it is answered; the callbacks are
    // dropped with the connection.
    QPointer<ApiServer> self(this);
    Request *pending = &request;
    m_options.delegated->authenticate(*token, &connection,
        [self, pending, &connection, token](
            const Result<std::optional<model::UserIdentity>> &user) {
            if (!self)
                return;
            if (!user) {
                connection.respond(
                    status::serviceUnavailable("the cluster could not review the token: "
                        + user.error().message.toStdString()));
                return;
            }
            if (!*user) {
                connection.respond(status::unauthorized());
                return;
            }
            pending->user = QString::fromStdString((*user)->name);
            pending->groups.clear();
            for (const std::string &group : (*user)->groups)
                pending->groups << QString::fromStdString(group);
            self->authorizeDelegated(*pending, connection, token);
        });
}

void ApiServer::authorizeDelegated(
    Request &request, HttpConnection &connection, std::optional<std::string> token)
{
    if (passesThrough(request)) {
        if (!token) {
            connection.respond(status::forbidden(
                "writes go to the cluster with the caller's own bearer token; a client "
                "certificate of this server cannot be passed on"));
            return;
        }
        m_options.delegated->forward(request, *token, &connection,
            [&connection](const Response &answer) { connection.respond(answer); });
        return;
    }
    // The console's computed views need only authentication: they show what the user may list.
    if (console::filtersPerUser(request.path)) {
        route(request, connection);
        return;
    }
    QPointer<ApiServer> self(this);
    Request *pending = &request;
    const model::AccessAttributes attributes = requestAttributes(request);
    m_options.delegated->authorize(identityOf(request), attributes, &connection,
        [self, pending, &connection, attributes](const Result<model::AccessDecision> &decision) {
            if (!self)
                return;
            if (!decision) {
                connection.respond(
                    status::serviceUnavailable("the cluster could not review access: "
                        + decision.error().message.toStdString()));
                return;
            }
            if (!decision->allowed) {
                connection.respond(forbiddenResponse(attributes, pending->user.toStdString()));
                return;
            }
            self->route(*pending, connection);
        });
}

} // namespace dra::server
