// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/kind.h"
#include "core/model/schema.h"
#include "core/server/http_message.h"

namespace dra::server {

// How unknown fields in a body are treated (the fieldValidation query parameter).
enum class FieldValidation { Ignore, Warn, Strict };

// The query parameters (and DeleteOptions body fields) every write takes, validated.
struct WriteOptions
{
    bool dryRun = false;
    std::string fieldManager; // empty: derived from the User-Agent
    FieldValidation fieldValidation = FieldValidation::Warn;
    bool force = false; // server-side apply only
    bool forceGiven = false;
    // DeleteOptions.preconditions
    std::string uidPrecondition, resourceVersionPrecondition;
};

// Parses dryRun, fieldManager, fieldValidation and force; 400-worthy Invalid errors otherwise.
[[nodiscard]] Result<WriteOptions> parseWriteOptions(const Request &request);
// Adds what a DELETE body (DeleteOptions) says: dryRun and preconditions.
[[nodiscard]] Result<void> readDeleteOptions(const Request &request, WriteOptions &options);

// The manager a write is recorded under: fieldManager, else the User-Agent's program name
// ("kubectl/v1.32.4 (linux/amd64)" -> "kubectl"), as kube-apiserver derives it.
std::string managerOf(const Request &request, const WriteOptions &options);

// The body of a create or update as JSON (JSON, or YAML by Content-Type), with apiVersion and
// kind filled in from the URL when absent. Errors are Parse (400) with kube-apiserver's wording
// for a wrong apiVersion or kind, Unsupported (415) for a media type it does not take.
[[nodiscard]] Result<nlohmann::json> readObjectBody(
    const Request &request, const model::KindInfo &kind, const std::string &apiVersion);

// Fields of `object` the schema does not know ("spec.devices.requests[0].colour"), removed from
// it as decoding into kube-apiserver's types drops them.
std::vector<std::string> pruneUnknownFields(
    nlohmann::json &object, const model::SchemaNode *schema);

} // namespace dra::server
