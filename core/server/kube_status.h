// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/common/error.h"
#include "core/model/kind.h"
#include "core/server/field_errors.h"
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
// A list or watch for a resourceVersion newer than the server's, once it has waited for it in
// vain: 504 Timeout "Too large resource version: X, current: Y" with a cause of type
// ResourceVersionTooLarge and a Retry-After of kTooLargeRetryAfterSeconds, as kube-apiserver
// answers; the Status alone is what a watch's ERROR event carries.
inline constexpr int kTooLargeRetryAfterSeconds = 1;
Response tooLargeResourceVersion(int64_t requested, int64_t current);
nlohmann::json tooLargeResourceVersionObject(int64_t requested, int64_t current);
// 409 AlreadyExists for a create of a name that is taken.
Response alreadyExists(const model::KindInfo &kind, std::string_view name);
// 409 Conflict: a stale resourceVersion (or a failed precondition, with `detail`).
Response conflict(const model::KindInfo &kind, std::string_view name,
    std::string_view detail = "the object has been modified; please apply your changes to the "
                              "latest version and try again");
// 409 Conflict of server-side apply, one cause per contested field.
Response applyConflict(const std::string &message, const nlohmann::json &causes);
// 422 Invalid with one cause per field error, worded as apimachinery's NewInvalid.
Response invalid(const model::KindInfo &kind, std::string_view name, const FieldErrors &errors);
// 422 for a patch that cannot be applied (a failing JSON patch `test`, a bad path).
Response unprocessable(const std::string &message);
// 415 for a body or patch type the server does not take.
Response unsupportedMediaType(const std::string &message);
Response forbidden(const std::string &message);
// 503 ServiceUnavailable: something the answer depends on (the cluster) did not answer.
Response serviceUnavailable(const std::string &message);
// 404 for a namespace a namespaced object is created in that does not exist.
Response namespaceNotFound(std::string_view ns);
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
