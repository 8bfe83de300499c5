// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/write_request.h"

#include <algorithm>

#include "core/common/json_text.h"
#include "core/model/yaml_codec.h"
#include "core/server/kube_status.h"
#include "core/server/protobuf_body.h"

namespace dra::server {

namespace {

using common::Error;
using common::qs;
using model::SchemaNode;
using nlohmann::json;

std::string mediaType(const Request &request)
{
    std::string type = request.header("content-type");
    type = type.substr(0, type.find(';'));
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t'))
        type.pop_back();
    std::transform(type.begin(), type.end(), type.begin(),
        [](unsigned char c) { return char(std::tolower(c)); });
    return type;
}

void prune(json &value, const SchemaNode *schema, const std::string &path,
    std::vector<std::string> &unknown)
{
    if (!schema || schema->type == SchemaNode::Type::Any)
        return;
    if (schema->type == SchemaNode::Type::Object && value.is_object()) {
        for (auto it = value.begin(); it != value.end();) {
            const std::string at = path.empty() ? it.key() : path + "." + it.key();
            const SchemaNode *child = schema->property(it.key());
            if (!child) {
                if (schema->preserveUnknown) {
                    ++it;
                    continue;
                }
                unknown.push_back(at);
                it = value.erase(it);
                continue;
            }
            prune(*it, child, at, unknown);
            ++it;
        }
        return;
    }
    if (schema->type == SchemaNode::Type::Map && value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            prune(*it, schema->values, path + "." + it.key(), unknown);
        return;
    }
    if (schema->type == SchemaNode::Type::Array && value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i)
            prune(value[i], schema->items, path + "[" + std::to_string(i) + "]", unknown);
    }
}

} // namespace

Result<WriteOptions> parseWriteOptions(const Request &request)
{
    WriteOptions options;
    for (const std::string &value : request.query.values("dryRun")) {
        if (value != "All")
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("dryRun: Unsupported value: \"%1\": supported values: \"All\"")
                    .arg(qs(value)));
        options.dryRun = true;
    }
    options.fieldManager = request.query.value("fieldManager").value_or(std::string());
    if (options.fieldManager.size() > 128)
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("fieldManager: Too long: may not be more than 128 bytes"));
    if (auto validation = request.query.value("fieldValidation");
        validation && !validation->empty()) {
        if (*validation == "Ignore")
            options.fieldValidation = FieldValidation::Ignore;
        else if (*validation == "Warn")
            options.fieldValidation = FieldValidation::Warn;
        else if (*validation == "Strict")
            options.fieldValidation = FieldValidation::Strict;
        else
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("fieldValidation: Unsupported value: \"%1\": supported values: "
                               "\"Ignore\", \"Strict\", \"Warn\"")
                    .arg(qs(*validation)));
    }
    if (auto force = request.query.value("force"); force && !force->empty()) {
        const std::optional<bool> flag = parseGoBool(*force);
        if (!flag)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("force: Invalid value: \"%1\": not a boolean").arg(qs(*force)));
        options.force = *flag;
        options.forceGiven = true;
    }
    return options;
}

Result<void> readDeleteOptions(const Request &request, WriteOptions &options)
{
    if (request.body.trimmed().isEmpty())
        return {};
    Result<json> body = mediaType(request) == kProtobufType
        ? decodeProtobufBody(request.body)
        : common::parseJson(request.body.toStdString(), QStringLiteral("DeleteOptions"));
    if (!body)
        return dra::fail(Error::Code::Parse, body.error().message);
    if (!body->is_object())
        return dra::fail(Error::Code::Parse, QStringLiteral("DeleteOptions must be a JSON object"));
    if (const auto dryRun = body->find("dryRun"); dryRun != body->end() && dryRun->is_array()) {
        for (const json &value : *dryRun) {
            if (value != "All")
                return dra::fail(Error::Code::Invalid,
                    QStringLiteral("dryRun: Unsupported value: %1: supported values: \"All\"")
                        .arg(qs(common::compactJson(value))));
            options.dryRun = true;
        }
    }
    if (const auto pre = body->find("preconditions"); pre != body->end() && pre->is_object()) {
        options.uidPrecondition = pre->value("uid", "");
        options.resourceVersionPrecondition = pre->value("resourceVersion", "");
    }
    return {};
}

std::string managerOf(const Request &request, const WriteOptions &options)
{
    if (!options.fieldManager.empty())
        return options.fieldManager;
    std::string agent = request.header("user-agent");
    agent = agent.substr(0, agent.find('/'));
    agent = agent.substr(0, agent.find(' '));
    return agent.empty() ? std::string("unknown") : agent;
}

Result<json> readObjectBody(
    const Request &request, const model::KindInfo &kind, const std::string &apiVersion)
{
    const std::string type = mediaType(request);
    const std::string text = request.body.toStdString();
    Result<json> body = json();
    if (type.empty() || type == "application/json" || type == "*/*") {
        body = common::parseJson(text, QStringLiteral("request body"));
    } else if (type == kProtobufType) {
        body = decodeProtobufBody(request.body);
        if (!body && body.error().code == Error::Code::Unsupported)
            return body;
    } else if (type == "application/yaml" || type == "application/x-yaml") {
        body = model::parseYaml(text, QStringLiteral("request body"));
    } else {
        return dra::fail(Error::Code::Unsupported,
            QStringLiteral("the body of the request was in an unknown format - accepted media "
                           "types include: application/json, application/yaml"));
    }
    const QString expected = qs(kind.name);
    if (!body)
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the object provided is unrecognized (must be of type %1): %2")
                .arg(expected, body.error().message));
    if (!body->is_object())
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the object provided is unrecognized (must be of type %1): the body "
                           "is a JSON %2, not an object")
                .arg(expected, QString::fromLatin1(body->type_name())));
    json &object = *body;
    if (!object.contains("apiVersion") || object["apiVersion"] == "")
        object["apiVersion"] = apiVersion;
    if (!object.contains("kind") || object["kind"] == "")
        object["kind"] = std::string(kind.name);
    if (!object["apiVersion"].is_string() || !object["kind"].is_string())
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the object provided is unrecognized (must be of type %1): "
                           "apiVersion and kind must be strings")
                .arg(expected));
    const std::string givenVersion = object["apiVersion"].get<std::string>();
    const std::string givenKind = object["kind"].get<std::string>();
    if (givenVersion != apiVersion)
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the API version in the data (%1) does not match the expected API "
                           "version (%2)")
                .arg(qs(givenVersion), qs(apiVersion)));
    if (givenKind != kind.name)
        return dra::fail(Error::Code::Parse,
            QStringLiteral("%1 in version \"%2\" cannot be handled as a %3: no kind \"%1\" is "
                           "registered for version \"%4\" in scheme")
                .arg(qs(givenKind), qs(model::splitApiVersion(apiVersion).second), expected,
                    qs(apiVersion)));
    if (object.contains("metadata") && !object["metadata"].is_object())
        return dra::fail(Error::Code::Parse,
            QStringLiteral("%1 in version \"%2\" cannot be handled as a %1: metadata must be an "
                           "object")
                .arg(expected, qs(model::splitApiVersion(apiVersion).second)));
    if (!object.contains("metadata"))
        object["metadata"] = json::object();
    return body;
}

std::vector<std::string> pruneUnknownFields(json &object, const SchemaNode *schema)
{
    std::vector<std::string> unknown;
    prune(object, schema, "", unknown);
    return unknown;
}

} // namespace dra::server
