// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/kube_status.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"

namespace dra::server {

namespace {

Response failure(
    int code, std::string_view reason, const std::string &message, nlohmann::json details = nullptr)
{
    nlohmann::json body = status::object(code, reason, message);
    if (!details.is_null())
        body["details"] = std::move(details);
    return jsonResponse(code, body);
}

// "resourceclaims.resource.k8s.io"; core kinds have no group suffix.
std::string qualifiedResource(const model::KindInfo &kind)
{
    std::string resource(kind.plural);
    if (!kind.group.empty())
        resource += "." + std::string(kind.group);
    return resource;
}

// details.kind is the resource (plural), as the errors built from a GroupResource fill it.
nlohmann::json resourceDetails(const model::KindInfo &kind, std::string_view name)
{
    nlohmann::json details
        = { { "name", std::string(name) }, { "kind", std::string(kind.plural) } };
    if (!kind.group.empty())
        details["group"] = std::string(kind.group);
    return details;
}

} // namespace

namespace status {

nlohmann::json object(int code, std::string_view reason, const std::string &message)
{
    nlohmann::json body = { { "kind", "Status" }, { "apiVersion", "v1" },
        { "metadata", nlohmann::json::object() }, { "status", "Failure" }, { "message", message } };
    if (!reason.empty())
        body["reason"] = std::string(reason);
    body["code"] = code;
    return body;
}

Response notFound(const model::KindInfo &kind, std::string_view name)
{
    return failure(404, "NotFound",
        qualifiedResource(kind) + " \"" + std::string(name) + "\" not found",
        resourceDetails(kind, name));
}

Response namespaceNotFound(std::string_view ns)
{
    return failure(404, "NotFound", "namespaces \"" + std::string(ns) + "\" not found",
        { { "name", std::string(ns) }, { "kind", "namespaces" } });
}

Response alreadyExists(const model::KindInfo &kind, std::string_view name)
{
    return failure(409, "AlreadyExists",
        qualifiedResource(kind) + " \"" + std::string(name) + "\" already exists",
        resourceDetails(kind, name));
}

Response conflict(const model::KindInfo &kind, std::string_view name, std::string_view detail)
{
    return failure(409, "Conflict",
        "Operation cannot be fulfilled on " + qualifiedResource(kind) + " \"" + std::string(name)
            + "\": " + std::string(detail),
        resourceDetails(kind, name));
}

Response applyConflict(const std::string &message, const nlohmann::json &causes)
{
    return failure(409, "Conflict", message, { { "causes", causes } });
}

Response invalid(const model::KindInfo &kind, std::string_view name, const FieldErrors &errors)
{
    std::string qualifiedKind(kind.name);
    if (!kind.group.empty())
        qualifiedKind += "." + std::string(kind.group);
    nlohmann::json causes = nlohmann::json::array();
    std::string aggregate;
    for (const FieldError &error : errors) {
        causes.push_back({ { "reason", error.causeType() }, { "message", error.body() },
            { "field", error.field } });
        aggregate += (aggregate.empty() ? "" : ", ") + error.message();
    }
    if (errors.size() > 1)
        aggregate = "[" + aggregate + "]";
    std::string message = qualifiedKind + " \"" + std::string(name) + "\" is invalid";
    if (!aggregate.empty())
        message += ": " + aggregate;
    nlohmann::json details = { { "name", std::string(name) }, { "kind", std::string(kind.name) },
        { "causes", std::move(causes) } };
    if (!kind.group.empty())
        details["group"] = std::string(kind.group);
    return failure(422, "Invalid", message, std::move(details));
}

Response unprocessable(const std::string &message)
{
    return failure(422, "Invalid", message);
}

Response unsupportedMediaType(const std::string &message)
{
    return failure(415, "UnsupportedMediaType", message);
}

Response forbidden(const std::string &message)
{
    return failure(403, "Forbidden", message);
}

Response serviceUnavailable(const std::string &message)
{
    return failure(503, "ServiceUnavailable", message);
}

Response unknownPath()
{
    return failure(404, "NotFound", "the server could not find the requested resource");
}

Response methodNotAllowed()
{
    return failure(
        405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
}

Response unauthorized()
{
    return failure(401, "Unauthorized", "Unauthorized");
}

Response badRequest(const std::string &message)
{
    return failure(400, "BadRequest", message);
}

Response expired(const std::string &message, const std::string &continueToken)
{
    nlohmann::json body = status::object(410, "Expired", message);
    if (!continueToken.empty())
        body["metadata"]["continue"] = continueToken;
    return jsonResponse(410, body);
}

nlohmann::json tooLargeResourceVersionObject(int64_t requested, int64_t current)
{
    // As storage.NewTooLargeResourceVersionError words it: a Timeout whose cause says why.
    nlohmann::json body = status::object(504, "Timeout",
        "Timeout: Too large resource version: " + std::to_string(requested)
            + ", current: " + std::to_string(current));
    body["details"] = { { "causes",
                            nlohmann::json::array({ { { "reason", "ResourceVersionTooLarge" },
                                { "message", "Too large resource version" } } }) },
        { "retryAfterSeconds", kTooLargeRetryAfterSeconds } };
    return body;
}

Response tooLargeResourceVersion(int64_t requested, int64_t current)
{
    Response response = jsonResponse(504, tooLargeResourceVersionObject(requested, current));
    // kube-apiserver puts retryAfterSeconds in a Retry-After header too; clients honour that.
    response.headers.push_back({ "retry-after", std::to_string(kTooLargeRetryAfterSeconds) });
    return response;
}

Response internalError(const std::string &message)
{
    return failure(500, "InternalError", "Internal error occurred: " + message);
}

Response fromError(const common::Error &error)
{
    const std::string message = error.message.toStdString();
    using Code = common::Error::Code;
    switch (error.code) {
    case Code::NotFound:
        return failure(404, "NotFound", message);
    case Code::Unauthorized:
        return failure(401, "Unauthorized", message);
    case Code::Forbidden:
        return failure(403, "Forbidden", message);
    case Code::Conflict:
        return failure(409, "Conflict", message);
    case Code::Gone:
        return failure(410, "Expired", message);
    case Code::Parse:
    case Code::Invalid:
        return failure(400, "BadRequest", message);
    case Code::Unsupported:
        return failure(415, "UnsupportedMediaType", message);
    case Code::Busy:
        return failure(429, "TooManyRequests", message);
    case Code::Network:
    case Code::Database:
    case Code::Internal:
        break;
    }
    return internalError(message);
}

} // namespace status

Response jsonResponse(int status, const nlohmann::json &body, std::string contentType)
{
    Response response;
    response.status = status;
    response.contentType = std::move(contentType);
    response.body = QByteArray::fromStdString(common::compactJson(body));
    return response;
}

std::optional<bool> parseGoBool(std::string_view text)
{
    if (text == "1" || text == "t" || text == "T" || text == "TRUE" || text == "true"
        || text == "True")
        return true;
    if (text == "0" || text == "f" || text == "F" || text == "FALSE" || text == "false"
        || text == "False")
        return false;
    return std::nullopt;
}

} // namespace dra::server
