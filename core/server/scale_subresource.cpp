// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/scale_subresource.h"

#include <nlohmann/json.hpp>

#include "core/server/kube_status.h"

namespace dra::server {

using nlohmann::json;

namespace {

// "app=web,tier=gpu": the selector's matchLabels as kubectl prints a label selector.
std::string selectorText(const json &object)
{
    std::string out;
    const json labels = object.value("/spec/selector/matchLabels"_json_pointer, json::object());
    for (const auto &[key, value] : labels.items())
        out += (out.empty() ? "" : ",") + key + "="
            + (value.is_string() ? value.get<std::string>() : value.dump());
    return out;
}

json scaleOf(const json &object, int64_t rev)
{
    const json meta = object.value("metadata", json::object());
    return { { "kind", "Scale" }, { "apiVersion", "autoscaling/v1" },
        { "metadata",
            { { "name", meta.value("name", "") }, { "namespace", meta.value("namespace", "") },
                { "uid", meta.value("uid", "") }, { "resourceVersion", std::to_string(rev) },
                { "creationTimestamp", meta.value("creationTimestamp", json()) } } },
        { "spec", { { "replicas", object.value("/spec/replicas"_json_pointer, 1) } } },
        { "status",
            { { "replicas", object.value("/status/replicas"_json_pointer, 0) },
                { "selector", selectorText(object) } } } };
}

// The replicas a PATCH or PUT body asks for, or nullopt when it names none.
std::optional<int64_t> requestedReplicas(const json &body)
{
    if (body.is_array()) { // JSON patch
        for (const json &op : body) {
            if (op.is_object() && op.value("path", "") == "/spec/replicas" && op.contains("value")
                && op["value"].is_number_integer())
                return op["value"].get<int64_t>();
        }
        return std::nullopt;
    }
    if (body.is_object() && body.contains("/spec/replicas"_json_pointer)
        && body["/spec/replicas"_json_pointer].is_number_integer())
        return body["/spec/replicas"_json_pointer].get<int64_t>();
    return std::nullopt;
}

} // namespace

std::optional<ScaleTarget> scaleTargetOf(const std::vector<std::string> &segments)
{
    if (segments.size() != 8 || segments[0] != "apis" || segments[1] != "apps"
        || segments[2] != "v1" || segments[3] != "namespaces" || segments[7] != "scale")
        return std::nullopt;
    ScaleTarget target;
    if (segments[5] == "deployments")
        target.kind = &model::kindInfo(model::Kind::Deployment);
    else if (segments[5] == "replicasets")
        target.kind = &model::kindInfo(model::Kind::ReplicaSet);
    else
        return std::nullopt;
    target.ns = segments[4];
    target.name = segments[6];
    return target;
}

Response serveScale(
    const Request &request, const ScaleTarget &target, ObjectWriter *writer, ObjectWriter &reader)
{
    const bool read = request.method == "GET" || request.method == "HEAD";
    if (!read && request.method != "PATCH" && request.method != "PUT")
        return status::methodNotAllowed();
    if (!read && !writer)
        return status::methodNotAllowed();
    Result<std::optional<ObjectWriter::Stored>> live
        = (read ? reader : *writer).get(*target.kind, target.ns, target.name);
    if (!live)
        return status::fromError(live.error());
    if (!*live)
        return status::notFound(*target.kind, target.name);
    if (read)
        return jsonResponse(200, scaleOf((*live)->json, (*live)->rev));
    const json body = json::parse(request.body.begin(), request.body.end(), nullptr, false);
    const std::optional<int64_t> replicas = requestedReplicas(body);
    if (!replicas || *replicas < 0)
        return status::badRequest("Scale " + target.name
            + ": spec.replicas: Required value: a non-negative integer is needed");
    json object = (*live)->json;
    if (object.value("/spec/replicas"_json_pointer, int64_t(1)) != *replicas) {
        object["spec"]["replicas"] = *replicas;
        object["metadata"]["generation"] = object["metadata"].value("generation", int64_t(1)) + 1;
    }
    Result<std::vector<int64_t>> committed
        = writer->commit({ { model::ChangeType::Modified, object } });
    if (!committed)
        return status::fromError(committed.error());
    const int64_t rev = committed->front() != 0 ? committed->front() : (*live)->rev;
    return jsonResponse(200, scaleOf(object, rev));
}

} // namespace dra::server
