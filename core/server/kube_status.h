// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/common/error.h"
#include "core/model/kind.h"
#include "core/server/http_message.h"

namespace dra::server {

// Kubernetes `Status` failures, worded exactly as kube-apiserver words them (kubectl prints
// the message after "Error from server (<reason>): "). Pure functions, any thread.
namespace status {

// 404 `<plural>.<group> "<name>" not found` (core kinds have no group suffix).
Response notFound(const model::KindInfo &kind, std::string_view name);
// 404 for a path the server does not serve.
Response unknownPath();
// 405 for writes to a read-only server.
Response methodNotAllowed();
Response unauthorized();
// 400 with `message` (a bad query parameter, a malformed continue token).
Response badRequest(const std::string &message);
// 410 Expired, with a fresh continue token when one lets the client carry on inconsistently.
Response expired(const std::string &message, const std::string &continueToken = {});
Response internalError(const std::string &message);
// The HTTP status and reason for an internal Error, in one place.
Response fromError(const common::Error &error);

// The Status object itself, for watch ERROR events.
nlohmann::json object(int code, std::string_view reason, const std::string &message);

} // namespace status

// A JSON response with `Content-Type` (application/json unless given).
Response jsonResponse(
    int status, const nlohmann::json &body, std::string contentType = "application/json");

// Go's strconv.ParseBool, which kube-apiserver uses for query parameters: 1 t T TRUE true True
// and 0 f F FALSE false False. nullopt for anything else.
std::optional<bool> parseGoBool(std::string_view text);

} // namespace dra::server
