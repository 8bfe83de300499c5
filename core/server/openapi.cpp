// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/openapi.h"

#include <map>
#include <mutex>

#include <QCryptographicHash>

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/model/schema.h"
#include "core/server/kube_status.h"

namespace dra::server::openapi {

namespace {

using model::SchemaNode;
using nlohmann::json;

constexpr std::string_view kMetaPrefix = "io.k8s.apimachinery.pkg.apis.meta.v1.";

std::string schemaRef(std::string_view component)
{
    return "#/components/schemas/" + std::string(component);
}

// "io.k8s.api.resource.v1" / "io.k8s.api.core.v1": the package upstream names schemas after.
std::string package(std::string_view group, std::string_view version)
{
    if (group.empty())
        return "io.k8s.api.core." + std::string(version);
    const std::string_view short_ = group.substr(0, group.find('.'));
    return "io.k8s.api." + std::string(short_) + "." + std::string(version);
}

class Renderer
{
public:
    Renderer(const SchemaNode *objectMeta, const SchemaNode *listMeta)
        : m_objectMeta(objectMeta)
        , m_listMeta(listMeta)
    {
    }

    json render(const SchemaNode *node) const
    {
        if (!node)
            return { { "type", "object" }, { "x-kubernetes-preserve-unknown-fields", true } };
        if (node == m_objectMeta)
            return described(std::string(kMetaPrefix) + "ObjectMeta", node->description);
        if (node == m_listMeta)
            return described(std::string(kMetaPrefix) + "ListMeta", node->description);
        json out = json::object();
        if (!node->description.empty())
            out["description"] = node->description;
        switch (node->type) {
        case SchemaNode::Type::Object: {
            out["type"] = "object";
            json properties = json::object();
            for (const auto &[name, child] : node->properties)
                properties[name] = render(child);
            if (!properties.empty())
                out["properties"] = std::move(properties);
            if (!node->required.empty())
                out["required"] = node->required;
            if (node->preserveUnknown)
                out["x-kubernetes-preserve-unknown-fields"] = true;
            break;
        }
        case SchemaNode::Type::Array:
            out["type"] = "array";
            out["items"] = render(node->items);
            switch (node->listType) {
            case SchemaNode::ListType::Atomic:
                out["x-kubernetes-list-type"] = "atomic";
                break;
            case SchemaNode::ListType::Set:
                out["x-kubernetes-list-type"] = "set";
                out["x-kubernetes-patch-strategy"] = "merge";
                break;
            case SchemaNode::ListType::Map:
                out["x-kubernetes-list-type"] = "map";
                out["x-kubernetes-list-map-keys"] = node->listMapKeys;
                if (!node->listMapKeys.empty()) {
                    out["x-kubernetes-patch-strategy"] = "merge";
                    out["x-kubernetes-patch-merge-key"] = node->listMapKeys.front();
                }
                break;
            }
            break;
        case SchemaNode::Type::Map:
            out["type"] = "object";
            out["additionalProperties"] = render(node->values);
            break;
        case SchemaNode::Type::String:
            out["type"] = "string";
            if (!node->format.empty())
                out["format"] = node->format;
            if (!node->enumValues.empty())
                out["enum"] = node->enumValues;
            break;
        case SchemaNode::Type::Integer:
            out["type"] = "integer";
            out["format"] = node->format.empty() ? "int64" : node->format;
            break;
        case SchemaNode::Type::Number:
            out["type"] = "number";
            out["format"] = "double";
            break;
        case SchemaNode::Type::Boolean:
            out["type"] = "boolean";
            break;
        case SchemaNode::Type::Quantity:
            out["type"] = "string";
            out["format"] = "quantity";
            out["x-kubernetes-int-or-string"] = true;
            break;
        case SchemaNode::Type::IntOrString:
            out["type"] = "string";
            out["format"] = "int-or-string";
            out["x-kubernetes-int-or-string"] = true;
            break;
        case SchemaNode::Type::Any:
            out["type"] = "object";
            out["x-kubernetes-preserve-unknown-fields"] = true;
            break;
        }
        return out;
    }

private:
    static json described(const std::string &component, const std::string &description)
    {
        json out = { { "allOf", { { { "$ref", schemaRef(component) } } } },
            { "default", json::object() } };
        if (!description.empty())
            out["description"] = description;
        return out;
    }

    const SchemaNode *m_objectMeta;
    const SchemaNode *m_listMeta;
};

json parameter(
    const char *name, const char *in, const std::string &description, bool required = false)
{
    json out = { { "name", name }, { "in", in }, { "description", description },
        { "schema", { { "type", "string" }, { "uniqueItems", true } } } };
    if (required)
        out["required"] = true;
    return out;
}

const json &writeParameters()
{
    static const json list = {
        parameter("dryRun", "query",
            "When present, indicates that modifications should not be persisted. The only valid "
            "value is All."),
        parameter("fieldManager", "query",
            "A name associated with the actor or entity that is making these changes."),
        parameter("fieldValidation", "query",
            "How the server treats unknown or duplicate fields: Ignore, Warn (the default) or "
            "Strict."),
    };
    return list;
}

json response(const std::string &component, const char *description = "OK")
{
    return {
        { "description", description },
        { "content",
            { { "application/json", { { "schema", { { "$ref", schemaRef(component) } } } } },
                { "application/yaml", { { "schema", { { "$ref", schemaRef(component) } } } } } } }
    };
}

json operation(const std::string &id, const char *action, const json &gvk, json responses,
    json parameters = json::array())
{
    json out = { { "operationId", id }, { "responses", std::move(responses) },
        { "x-kubernetes-action", action }, { "x-kubernetes-group-version-kind", gvk } };
    if (!parameters.empty())
        out["parameters"] = std::move(parameters);
    return out;
}

json body(const std::string &component)
{
    return { { "required", true },
        { "content", { { "*/*", { { "schema", { { "$ref", schemaRef(component) } } } } } } } };
}

// The paths of one kind: its collection (all namespaces too) and its objects.
void addPaths(json &paths, const ServedApi &api, const model::KindInfo &kind,
    const std::string &version, const std::string &component)
{
    const std::string root = kind.group.empty()
        ? "/api/" + version
        : "/apis/" + std::string(kind.group) + "/" + version;
    const std::string scoped = kind.namespaced
        ? root + "/namespaces/{namespace}/" + std::string(kind.plural)
        : root + "/" + std::string(kind.plural);
    const json gvk = { { "group", std::string(kind.group) }, { "version", version },
        { "kind", std::string(kind.name) } };
    const std::string name(kind.name);
    const json scopeParams = kind.namespaced
        ? json::array({ parameter("namespace", "path", "object name and auth scope", true) })
        : json::array();
    const bool writable = api.isWritable(kind);

    json collection = { { "parameters", scopeParams } };
    collection["get"]
        = operation("list" + name, "list", gvk, { { "200", response(component + "List") } });
    if (writable) {
        json create = operation("create" + name, "post", gvk,
            { { "200", response(component) }, { "201", response(component, "Created") } },
            writeParameters());
        create["requestBody"] = body(component);
        collection["post"] = std::move(create);
        if (kind.kind != model::Kind::Namespace)
            collection["delete"] = operation("deleteCollection" + name, "deletecollection", gvk,
                { { "200", response(std::string(kMetaPrefix) + "Status") } });
    }
    paths[scoped] = std::move(collection);
    if (kind.namespaced)
        paths[root + "/" + std::string(kind.plural)] = { { "get",
            operation("list" + name + "ForAllNamespaces", "list", gvk,
                { { "200", response(component + "List") } }) } };

    json objectParams = scopeParams;
    objectParams.push_back(parameter("name", "path", "name of the " + name, true));
    json object = { { "parameters", objectParams } };
    object["get"] = operation("read" + name, "get", gvk, { { "200", response(component) } });
    auto writesOn = [&](json &item, const std::string &suffix) {
        json replace = operation("replace" + name + suffix, "put", gvk,
            { { "200", response(component) }, { "201", response(component, "Created") } },
            writeParameters());
        replace["requestBody"] = body(component);
        item["put"] = std::move(replace);
        json patchParams = writeParameters();
        patchParams.push_back(parameter("force", "query",
            "Force is going to \"force\" Apply requests: it takes over fields other managers "
            "own. Only valid for apply."));
        json patch = operation("patch" + name + suffix, "patch", gvk,
            { { "200", response(component) }, { "201", response(component, "Created") } },
            patchParams);
        const json patchSchema
            = { { "schema", { { "$ref", schemaRef(std::string(kMetaPrefix) + "Patch") } } } };
        patch["requestBody"] = { { "required", true },
            { "content",
                { { "application/apply-patch+yaml", patchSchema },
                    { "application/json-patch+json", patchSchema },
                    { "application/merge-patch+json", patchSchema },
                    { "application/strategic-merge-patch+json", patchSchema } } } };
        item["patch"] = std::move(patch);
    };
    if (writable) {
        writesOn(object, "");
        json remove = operation("delete" + name, "delete", gvk,
            { { "200", response(component) }, { "202", response(component, "Accepted") } },
            json::array({ writeParameters()[0] }));
        remove["requestBody"] = { { "content",
            { { "*/*",
                { { "schema",
                    { { "$ref",
                        schemaRef(std::string(kMetaPrefix) + "DeleteOptions") } } } } } } } };
        object["delete"] = std::move(remove);
    }
    paths[scoped + "/{name}"] = std::move(object);
    for (const std::string &sub : api.subresources(kind)) {
        json item = { { "parameters", objectParams } };
        item["get"]
            = operation("read" + name + "Status", "get", gvk, { { "200", response(component) } });
        if (writable)
            writesOn(item, "Status");
        paths[scoped + "/{name}/" + sub] = std::move(item);
    }
}

void addMetaComponents(json &schemas, const SchemaNode *objectMeta, const SchemaNode *listMeta)
{
    // Rendered without the shortcut that turns them into references.
    const Renderer plain(nullptr, nullptr);
    schemas[std::string(kMetaPrefix) + "ObjectMeta"] = plain.render(objectMeta);
    schemas[std::string(kMetaPrefix) + "ListMeta"] = plain.render(listMeta);
    schemas[std::string(kMetaPrefix) + "Patch"]
        = { { "description", "A patch document; its format is given by the Content-Type." },
              { "type", "object" } };
    schemas[std::string(kMetaPrefix) + "Status"] = {
        { "description", "The outcome of an operation that returns no object." },
        { "type", "object" },
        { "properties",
            { { "apiVersion", { { "type", "string" } } }, { "kind", { { "type", "string" } } },
                { "status", { { "type", "string" } } }, { "message", { { "type", "string" } } },
                { "reason", { { "type", "string" } } },
                { "code", { { "type", "integer" }, { "format", "int32" } } },
                { "details",
                    { { "type", "object" },
                        { "x-kubernetes-preserve-unknown-fields", true } } } } },
        { "x-kubernetes-group-version-kind",
            { { { "group", "" }, { "kind", "Status" }, { "version", "v1" } } } }
    };
    schemas[std::string(kMetaPrefix) + "DeleteOptions"]
        = { { "description", "Options of a delete: dry run, preconditions, propagation." },
              { "type", "object" },
              { "properties",
                  { { "dryRun", { { "type", "array" }, { "items", { { "type", "string" } } } } },
                      { "propagationPolicy", { { "type", "string" } } },
                      { "gracePeriodSeconds", { { "type", "integer" }, { "format", "int64" } } },
                      { "preconditions",
                          { { "type", "object" },
                              { "properties",
                                  { { "uid", { { "type", "string" } } },
                                      { "resourceVersion", { { "type", "string" } } } } } } } } } };
}

struct Cached
{
    std::string hash;
    json document;
};

// Documents are generated once per (release, writability, group version): a kubectl command
// reads the index and one document, and the hash in the index must not change between.
const Cached *cached(const ServedApi &api, const std::string &groupVersionPath)
{
    static std::mutex mutex;
    static std::map<std::string, Cached> cache;
    const std::string key
        = api.gitVersion() + (api.writable() ? "|rw|" : "|ro|") + groupVersionPath;
    std::lock_guard lock(mutex);
    auto it = cache.find(key);
    if (it == cache.end()) {
        json doc = document(api, groupVersionPath);
        if (doc.is_null())
            return nullptr;
        const QByteArray digest = QCryptographicHash::hash(
            QByteArray::fromStdString(common::compactJson(doc)), QCryptographicHash::Sha256);
        it = cache.emplace(key, Cached { digest.toHex().toUpper().toStdString(), std::move(doc) })
                 .first;
    }
    return &it->second;
}

std::vector<std::string> groupVersionPaths(const ServedApi &api)
{
    std::vector<std::string> paths { "api/v1" };
    for (const std::string &group : api.groups()) {
        for (const std::string &version : api.versions(group)) {
            if (!api.kinds(group, version).empty())
                paths.push_back("apis/" + group + "/" + version);
        }
    }
    return paths;
}

} // namespace

json document(const ServedApi &api, const std::string &groupVersionPath)
{
    std::string group, version;
    if (groupVersionPath.starts_with("api/")) {
        version = groupVersionPath.substr(4);
    } else if (groupVersionPath.starts_with("apis/")) {
        const std::string rest = groupVersionPath.substr(5);
        const size_t slash = rest.find('/');
        if (slash == std::string::npos)
            return nullptr;
        group = rest.substr(0, slash);
        version = rest.substr(slash + 1);
    } else {
        return nullptr;
    }
    const std::vector<const model::KindInfo *> kinds = api.kinds(group, version);
    if (kinds.empty())
        return nullptr;
    const std::string apiVersion = group.empty() ? version : group + "/" + version;
    const SchemaNode *objectMeta = model::objectMetaSchema();
    const SchemaNode *listMeta = nullptr;
    json schemas = json::object();
    json paths = json::object();
    std::vector<std::pair<const model::KindInfo *, const SchemaNode *>> roots;
    for (const model::KindInfo *kind : kinds) {
        const SchemaNode *root = model::schemaFor(apiVersion, kind->name);
        const SchemaNode *listRoot = model::schemaFor(apiVersion, std::string(kind->name) + "List");
        if (!root)
            continue;
        if (listRoot && !listMeta)
            listMeta = listRoot->property("metadata");
        roots.emplace_back(kind, root);
    }
    if (roots.empty())
        return nullptr; // a version we have no schemas for (1.31's v1alpha3)
    const Renderer renderer(objectMeta, listMeta);
    for (const auto &[kind, root] : roots) {
        const std::string component = package(group, version) + "." + std::string(kind->name);
        const json gvk = json::array({ { { "group", group }, { "kind", std::string(kind->name) },
            { "version", version } } });
        json rendered = renderer.render(root);
        rendered["x-kubernetes-group-version-kind"] = gvk;
        schemas[component] = std::move(rendered);
        if (const SchemaNode *listRoot
            = model::schemaFor(apiVersion, std::string(kind->name) + "List")) {
            json list = renderer.render(listRoot);
            list["properties"]["items"]["items"] = { { "$ref", schemaRef(component) } };
            list["x-kubernetes-group-version-kind"] = json::array({ { { "group", group },
                { "kind", std::string(kind->name) + "List" }, { "version", version } } });
            schemas[component + "List"] = std::move(list);
        }
        addPaths(paths, api, *kind, version, component);
    }
    addMetaComponents(schemas, objectMeta, listMeta);
    return { { "openapi", "3.0.0" },
        { "info", { { "title", "Kubernetes" }, { "version", api.gitVersion() } } },
        { "paths", std::move(paths) }, { "components", { { "schemas", std::move(schemas) } } } };
}

Response serve(const ServedApi &api, const std::string &path)
{
    if (path == "/openapi/v3" || path == "/openapi/v3/") {
        json index = json::object();
        for (const std::string &gv : groupVersionPaths(api)) {
            if (const Cached *doc = cached(api, gv))
                index[gv] = { { "serverRelativeURL", "/openapi/v3/" + gv + "?hash=" + doc->hash } };
        }
        return jsonResponse(200, { { "paths", std::move(index) } });
    }
    const std::string gv = path.substr(std::string_view("/openapi/v3/").size());
    const Cached *doc = cached(api, gv);
    if (!doc)
        return status::unknownPath();
    Response response = jsonResponse(200, doc->document);
    response.headers.push_back({ "etag", "\"" + doc->hash + "\"" });
    return response;
}

} // namespace dra::server::openapi
