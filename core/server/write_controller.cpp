// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/write_controller.h"

#include <algorithm>

#include <QDateTime>
#include <QRandomGenerator>
#include <QUuid>

#include "core/common/json_text.h"
#include "core/model/conversion.h"
#include "core/model/object.h"
#include "core/model/yaml_codec.h"
#include "core/server/allocation_warnings.h"
#include "core/server/field_manager.h"
#include "core/server/kube_status.h"
#include "core/server/object_source.h"
#include "core/server/object_validation.h"
#include "core/server/patches.h"
#include "core/server/resource_controller.h"

namespace dra::server {

namespace {

using common::Error;
using common::qs;
using nlohmann::json;

// Objects are stored (and validated, and their fields tracked) in this version.
std::string storageApiVersion(const model::KindInfo &kind)
{
    return apiVersionOf(kind, kind.preferredVersion);
}

const model::SchemaNode *storageSchema(const model::KindInfo &kind)
{
    return model::schemaFor(storageApiVersion(kind), kind.name);
}

Result<json> toStorage(const json &object, const model::KindInfo &kind)
{
    const std::string target = storageApiVersion(kind);
    if (kind.group.empty() || object.value("apiVersion", "") == target)
        return object;
    return model::convertResourceObject(object, target);
}

Result<json> toServed(const json &stored, int64_t rev, const std::string &apiVersion)
{
    Result<model::Object> object = model::decodeObject(stored);
    if (!object)
        return dra::fail(object.error());
    return ObjectSource::wireJson(*object, rev, apiVersion);
}

std::string nowText()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

std::string newUid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
}

// Kubernetes' generateName suffix: five characters without vowels.
std::string nameSuffix()
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string suffix;
    for (int i = 0; i < 5; ++i)
        suffix.push_back(alphabet[QRandomGenerator::global()->bounded(int(sizeof(alphabet) - 1))]);
    return suffix;
}

std::string textAt(const json &object, const char *section, const char *field)
{
    if (!object.is_object() || !object.contains(section) || !object[section].is_object())
        return {};
    const json &value = object[section].value(field, json());
    return value.is_string() ? value.get<std::string>() : std::string();
}

// Whether anything but metadata (and a status the main resource does not own) changed.
bool specChanged(const json &before, const json &after, const model::KindInfo &kind)
{
    json a = before, b = after;
    for (json *object : { &a, &b }) {
        object->erase("metadata");
        object->erase("apiVersion");
        object->erase("kind");
        if (hasStatusSubresource(kind))
            object->erase("status");
    }
    return a != b;
}

// managedFields with their timestamps blanked: a write that changes nothing else is a no-op.
json withoutManagedTimes(json object)
{
    if (object.contains("metadata") && object["metadata"].contains("managedFields")
        && object["metadata"]["managedFields"].is_array()) {
        for (json &entry : object["metadata"]["managedFields"])
            entry.erase("time");
    }
    return object;
}

Response bodyError(const Error &error)
{
    if (error.code == Error::Code::Unsupported)
        return status::unsupportedMediaType(error.message.toStdString());
    if (error.code == Error::Code::Invalid)
        return status::unprocessable(error.message.toStdString());
    return status::badRequest(error.message.toStdString());
}

std::string cannotHandle(const model::KindInfo &kind, const std::string &apiVersion)
{
    return std::string(kind.name) + " in version \""
        + std::string(model::splitApiVersion(apiVersion).second) + "\" cannot be handled as a "
        + std::string(kind.name) + ": ";
}

void addWarnings(Response &response, const std::vector<std::string> &warnings)
{
    for (const std::string &warning : warnings) {
        std::string quoted;
        for (char c : warning) {
            if (c == '"' || c == '\\')
                quoted.push_back('\\');
            quoted.push_back(c == '\n' ? ' ' : c);
        }
        response.headers.push_back({ "warning", "299 - \"" + quoted + "\"" });
    }
}

// Prunes unknown fields as fieldValidation says: Strict refuses them, Warn reports them.
std::optional<Response> checkUnknownFields(json &object, const model::KindInfo &kind,
    const std::string &apiVersion, FieldValidation validation, std::vector<std::string> &warnings)
{
    const std::vector<std::string> unknown = pruneUnknownFields(object, storageSchema(kind));
    if (unknown.empty() || validation == FieldValidation::Ignore)
        return std::nullopt;
    if (validation == FieldValidation::Strict) {
        std::string list;
        for (const std::string &field : unknown)
            list += (list.empty() ? "" : ", ") + std::string("unknown field \"") + field + "\"";
        return status::badRequest(
            cannotHandle(kind, apiVersion) + "strict decoding error: " + list);
    }
    for (const std::string &field : unknown)
        warnings.push_back("unknown field \"" + field + "\"");
    return std::nullopt;
}

// The namespace of a body must be the one of the URL; cluster-scoped kinds have none.
std::optional<Response> settleNamespace(json &object, const ResourcePath &path)
{
    json &meta = object["metadata"];
    if (!path.kind->namespaced) {
        meta.erase("namespace");
        return std::nullopt;
    }
    const std::string given = meta.value("namespace", "");
    if (given.empty())
        meta["namespace"] = path.ns;
    else if (given != path.ns)
        return status::badRequest("the namespace of the provided object does not match the "
                                  "namespace sent on the request");
    return std::nullopt;
}

std::optional<Response> settleName(json &object, const ResourcePath &path)
{
    json &meta = object["metadata"];
    const std::string given = meta.value("name", "");
    if (given.empty())
        meta["name"] = path.name;
    else if (given != path.name)
        return status::badRequest("the name of the object (" + given
            + ") does not match the name on the URL (" + path.name + ")");
    return std::nullopt;
}

} // namespace

WriteController::WriteController(
    ObjectWriter &writer, const ServedApi &api, std::function<void()> committed)
    : m_writer(writer)
    , m_api(api)
    , m_committed(std::move(committed))
{
}

release::KubernetesRelease WriteController::servedRelease() const
{
    // A release outside those modelled (older than 1.31, newer than the development tree) is
    // checked as the nearest one modelled.
    const int minor = std::clamp(
        m_api.minor(), release::kOldestModelledMinor, release::developmentReleaseMinor());
    return release::KubernetesRelease::withDefaults(minor);
}

std::variant<WriteController::Live, Response> WriteController::load(const ResourcePath &path)
{
    Result<std::optional<ObjectWriter::Stored>> stored
        = m_writer.get(*path.kind, path.ns, path.name);
    if (!stored)
        return status::fromError(stored.error());
    if (!*stored)
        return status::notFound(*path.kind, path.name);
    Result<json> storage = toStorage((*stored)->json, *path.kind);
    if (!storage)
        return status::internalError(storage.error().message.toStdString());
    return Live { std::move(*storage), (*stored)->rev };
}

Response WriteController::create(const Request &request, const ResourcePath &path)
{
    if (!path.isCollection() || (path.kind->namespaced && path.ns.empty()))
        return status::methodNotAllowed();
    Result<WriteOptions> options = parseWriteOptions(request);
    if (!options)
        return status::badRequest(options.error().message.toStdString());
    Result<json> body = readObjectBody(request, *path.kind, path.apiVersion);
    if (!body)
        return bodyError(body.error());
    if (auto refused = settleNamespace(*body, path))
        return *refused;
    if (!textAt(*body, "metadata", "resourceVersion").empty())
        return status::badRequest("resourceVersion should not be set on objects to be created");
    Result<json> storage = toStorage(*body, *path.kind);
    if (!storage)
        return status::badRequest(
            cannotHandle(*path.kind, path.apiVersion) + storage.error().message.toStdString());
    return finishCreate(request, path, *options, std::move(*storage), false, {});
}

Response WriteController::finishCreate(const Request &request, const ResourcePath &path,
    const WriteOptions &options, json object, bool applied, std::vector<std::string> warnings)
{
    const model::KindInfo &kind = *path.kind;
    json &meta = object["metadata"];
    const std::string ns = meta.value("namespace", "");
    if (kind.namespaced) {
        static const model::KindInfo &namespaces = model::kindInfo(model::Kind::Namespace);
        Result<std::optional<ObjectWriter::Stored>> owner = m_writer.get(namespaces, "", ns);
        if (!owner)
            return status::fromError(owner.error());
        if (!*owner)
            return status::namespaceNotFound(ns);
        if (!textAt((*owner)->json, "metadata", "deletionTimestamp").empty())
            return status::forbidden("unable to create new content in namespace " + ns
                + " because it is being terminated");
    }
    if (meta.value("name", "").empty() && !meta.value("generateName", "").empty()) {
        for (int attempt = 0; attempt < 8; ++attempt) {
            const std::string candidate = meta["generateName"].get<std::string>() + nameSuffix();
            Result<std::optional<ObjectWriter::Stored>> taken = m_writer.get(kind, ns, candidate);
            if (taken && !*taken) {
                meta["name"] = candidate;
                break;
            }
        }
    }
    const std::string name = meta.value("name", "");
    if (!name.empty()) {
        Result<std::optional<ObjectWriter::Stored>> existing = m_writer.get(kind, ns, name);
        if (!existing)
            return status::fromError(existing.error());
        if (*existing)
            return status::alreadyExists(kind, name);
    }

    const std::string now = nowText();
    meta["uid"] = newUid();
    meta["creationTimestamp"] = now;
    meta["generation"] = 1;
    for (const char *field :
        { "resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink" })
        meta.erase(field);
    if (!applied)
        meta.erase("managedFields"); // recorded below; an apply has recorded its own
    if (kind.kind == model::Kind::Namespace) {
        object["status"] = { { "phase", "Active" } };
        if (!object.contains("spec"))
            object["spec"] = { { "finalizers", { "kubernetes" } } };
    } else if (hasStatusSubresource(kind)) {
        object.erase("status"); // status is written through its subresource only
    }
    applyDefaults(object, kind);
    if (auto refused
        = checkUnknownFields(object, kind, path.apiVersion, options.fieldValidation, warnings))
        return *refused;
    if (Result<model::Object> decoded = model::decodeObject(object); !decoded)
        return status::badRequest(
            cannotHandle(kind, path.apiVersion) + decoded.error().message.toStdString());
    if (FieldErrors errors = validateCreate(object, kind, servedRelease()); !errors.empty())
        return status::invalid(kind, name, errors);
    if (!applied) {
        const FieldManagerContext context { managerOf(request, options), storageApiVersion(kind),
            path.subresource, hasStatusSubresource(kind), now, storageSchema(kind) };
        trackUpdate(nullptr, object, context);
    }
    for (std::string &warning :
        allocationWarnings(object, kind, m_writer.cache(), m_writer.cluster(), servedRelease()))
        warnings.push_back(std::move(warning));
    return commitAndRespond(path, options, model::ChangeType::Added, object, 201, 0, warnings);
}

Response WriteController::update(const Request &request, const ResourcePath &path)
{
    if (path.isCollection())
        return status::methodNotAllowed();
    Result<WriteOptions> options = parseWriteOptions(request);
    if (!options)
        return status::badRequest(options.error().message.toStdString());
    Result<json> body = readObjectBody(request, *path.kind, path.apiVersion);
    if (!body)
        return bodyError(body.error());
    if (auto refused = settleNamespace(*body, path))
        return *refused;
    if (auto refused = settleName(*body, path))
        return *refused;
    auto loaded = load(path);
    if (Response *failed = std::get_if<Response>(&loaded))
        return *failed;
    Result<json> desired = toStorage(*body, *path.kind);
    if (!desired)
        return status::badRequest(
            cannotHandle(*path.kind, path.apiVersion) + desired.error().message.toStdString());
    return finishUpdate(
        request, path, *options, std::get<Live>(loaded), std::move(*desired), false, {});
}

Response WriteController::patch(const Request &request, const ResourcePath &path)
{
    if (path.isCollection())
        return status::methodNotAllowed();
    Result<WriteOptions> options = parseWriteOptions(request);
    if (!options)
        return status::badRequest(options.error().message.toStdString());
    const std::optional<PatchType> type = patchTypeOf(request.header("content-type"));
    if (!type)
        return status::unsupportedMediaType(
            "the body of the request was in an unknown format - accepted media types include: "
            "application/json-patch+json, application/merge-patch+json, "
            "application/apply-patch+yaml, application/strategic-merge-patch+json");
    if (*type == PatchType::Apply)
        return apply(request, path, *options);
    if (options->forceGiven)
        return status::badRequest("force: Forbidden: may not be specified for non-apply patch");

    auto loaded = load(path);
    if (Response *failed = std::get_if<Response>(&loaded))
        return *failed;
    const Live &live = std::get<Live>(loaded);
    // Patches are written against the version the client asked for.
    Result<json> current = toServed(live.object, live.rev, path.apiVersion);
    if (!current)
        return status::internalError(current.error().message.toStdString());
    Result<json> patchDocument
        = common::parseJson(request.body.toStdString(), QStringLiteral("patch"));
    if (!patchDocument)
        return status::badRequest(patchDocument.error().message.toStdString());
    Result<json> patched = json();
    switch (*type) {
    case PatchType::Json:
        patched = applyJsonPatch(*current, *patchDocument);
        break;
    case PatchType::Merge:
        patched = applyMergePatch(*current, *patchDocument);
        break;
    case PatchType::Strategic:
        patched = applyStrategicPatch(
            *current, *patchDocument, model::schemaFor(path.apiVersion, path.kind->name));
        break;
    case PatchType::Apply:
        break;
    }
    if (!patched)
        return bodyError(patched.error());
    if (!patched->is_object() || !(*patched)["metadata"].is_object())
        return status::unprocessable("the patched object is not a Kubernetes object");
    if (patched->value("apiVersion", "") != path.apiVersion
        || patched->value("kind", "") != path.kind->name)
        return status::badRequest("a patch may not change apiVersion or kind");
    if (auto refused = settleName(*patched, path))
        return *refused;
    if (auto refused = settleNamespace(*patched, path))
        return *refused;
    Result<json> desired = toStorage(*patched, *path.kind);
    if (!desired)
        return status::unprocessable(desired.error().message.toStdString());
    return finishUpdate(request, path, *options, live, std::move(*desired), false, {});
}

Response WriteController::apply(
    const Request &request, const ResourcePath &path, const WriteOptions &options)
{
    if (options.fieldManager.empty())
        return status::badRequest(
            "PATCH requests of type apply require the fieldManager query parameter");
    Result<json> config
        = model::parseYaml(request.body.toStdString(), QStringLiteral("apply configuration"));
    if (!config)
        return status::badRequest("error decoding YAML: " + config.error().message.toStdString());
    if (!config->is_object() || !config->contains("apiVersion") || !config->contains("kind"))
        return status::badRequest(
            "the applied configuration must be an object with apiVersion and kind");
    if (config->value("apiVersion", "") != path.apiVersion)
        return status::badRequest("the API version in the data (" + config->value("apiVersion", "")
            + ") does not match the expected API version (" + path.apiVersion + ")");
    if (config->value("kind", "") != path.kind->name)
        return status::badRequest(cannotHandle(*path.kind, path.apiVersion) + "no kind \""
            + config->value("kind", "") + "\" is registered for version \"" + path.apiVersion
            + "\" in scheme");
    if (!config->contains("metadata") || !(*config)["metadata"].is_object())
        (*config)["metadata"] = json::object();
    if (auto refused = settleName(*config, path))
        return *refused;
    if (auto refused = settleNamespace(*config, path))
        return *refused;
    Result<json> storage = toStorage(*config, *path.kind);
    if (!storage)
        return status::badRequest(
            cannotHandle(*path.kind, path.apiVersion) + storage.error().message.toStdString());
    std::vector<std::string> warnings;
    if (auto refused = checkUnknownFields(
            *storage, *path.kind, path.apiVersion, options.fieldValidation, warnings))
        return *refused;
    // Defaulted like the live object, so a configuration that leaves a default out does not
    // look like a change of it.
    applyDefaults(*storage, *path.kind);

    Result<std::optional<ObjectWriter::Stored>> stored
        = m_writer.get(*path.kind, path.ns, path.name);
    if (!stored)
        return status::fromError(stored.error());
    std::optional<Live> live;
    if (*stored) {
        Result<json> liveStorage = toStorage((*stored)->json, *path.kind);
        if (!liveStorage)
            return status::internalError(liveStorage.error().message.toStdString());
        live = Live { std::move(*liveStorage), (*stored)->rev };
    } else if (!path.subresource.empty()) {
        return status::notFound(*path.kind, path.name);
    }
    const FieldManagerContext context { options.fieldManager, storageApiVersion(*path.kind),
        path.subresource, hasStatusSubresource(*path.kind), nowText(), storageSchema(*path.kind) };
    ApplyOutcome outcome
        = serverSideApply(live ? &live->object : nullptr, *storage, context, options.force);
    if (!outcome.conflicts.empty())
        return status::applyConflict(
            applyConflictMessage(outcome.conflicts), applyConflictCauses(outcome.conflicts));
    if (!live)
        return finishCreate(request, path, options, std::move(outcome.object), true, warnings);
    return finishUpdate(request, path, options, *live, std::move(outcome.object), true, warnings);
}

Response WriteController::finishUpdate(const Request &request, const ResourcePath &path,
    const WriteOptions &options, const Live &live, json desired, bool applied,
    std::vector<std::string> warnings)
{
    const model::KindInfo &kind = *path.kind;
    const json &liveMeta = live.object["metadata"];
    json &meta = desired["metadata"];
    const std::string name = liveMeta.value("name", "");
    const std::string wantedVersion = meta.value("resourceVersion", "");
    if (!wantedVersion.empty() && wantedVersion != std::to_string(live.rev))
        return status::conflict(kind, name);
    const std::string wantedUid = meta.value("uid", "");
    if (!wantedUid.empty() && wantedUid != liveMeta.value("uid", ""))
        return status::conflict(kind, name,
            "Precondition failed: UID in precondition: " + wantedUid
                + ", UID in object meta: " + liveMeta.value("uid", ""));

    if (path.subresource == "status") {
        // Only the status changes through the status subresource.
        json status = desired.value("status", json());
        json managed = meta.value("managedFields", json());
        desired = live.object;
        if (status.is_null())
            desired.erase("status");
        else
            desired["status"] = std::move(status);
        if (!managed.is_null())
            desired["metadata"]["managedFields"] = std::move(managed);
    } else if (hasStatusSubresource(kind)) {
        if (live.object.contains("status"))
            desired["status"] = live.object["status"];
        else
            desired.erase("status");
    }
    json &settled = desired["metadata"];
    for (const char *field : { "uid", "creationTimestamp", "name", "namespace", "deletionTimestamp",
             "deletionGracePeriodSeconds" }) {
        if (liveMeta.contains(field))
            settled[field] = liveMeta[field];
        else
            settled.erase(field);
    }
    settled.erase("resourceVersion");
    settled.erase("selfLink");
    const int64_t generation = liveMeta.value("generation", int64_t(1));
    settled["generation"] = generation + (specChanged(live.object, desired, kind) ? 1 : 0);
    applyDefaults(desired, kind);
    if (auto refused
        = checkUnknownFields(desired, kind, path.apiVersion, options.fieldValidation, warnings))
        return *refused;
    if (Result<model::Object> decoded = model::decodeObject(desired); !decoded)
        return status::badRequest(
            cannotHandle(kind, path.apiVersion) + decoded.error().message.toStdString());
    if (FieldErrors errors = validateUpdate(desired, live.object, kind, servedRelease());
        !errors.empty())
        return status::invalid(kind, name, errors);
    if (!applied) {
        const FieldManagerContext context { managerOf(request, options), storageApiVersion(kind),
            path.subresource, hasStatusSubresource(kind), nowText(), storageSchema(kind) };
        trackUpdate(&live.object, desired, context);
    }
    if (withoutManagedTimes(desired) == withoutManagedTimes(live.object)) {
        // Nothing changes: no new revision, no event, as kube-apiserver skips no-op updates.
        WriteOptions unchanged = options;
        unchanged.dryRun = true;
        return commitAndRespond(
            path, unchanged, model::ChangeType::Modified, live.object, 200, live.rev, warnings);
    }
    // Checking a claim against every device is costly; a write that leaves the spec as it was
    // (labels, status) has nothing new to warn about.
    if (desired.value("spec", json()) != live.object.value("spec", json())) {
        for (std::string &warning : allocationWarnings(
                 desired, kind, m_writer.cache(), m_writer.cluster(), servedRelease()))
            warnings.push_back(std::move(warning));
    }
    return commitAndRespond(
        path, options, model::ChangeType::Modified, desired, 200, live.rev, warnings);
}

Response WriteController::commitAndRespond(const ResourcePath &path, const WriteOptions &options,
    model::ChangeType type, const json &object, int code, int64_t unchangedRev,
    const std::vector<std::string> &warnings)
{
    int64_t rev = unchangedRev;
    if (!options.dryRun) {
        Result<std::vector<int64_t>> revs = m_writer.commit({ { type, object } });
        if (!revs)
            return status::fromError(revs.error());
        if (revs->front() != 0)
            rev = revs->front();
        m_committed();
    }
    Result<json> served = toServed(object, rev, path.apiVersion);
    if (!served)
        return status::internalError(served.error().message.toStdString());
    if (rev == 0)
        (*served)["metadata"].erase("resourceVersion"); // a dry-run create got none
    Response response = jsonResponse(code, *served);
    addWarnings(response, warnings);
    return response;
}

Response WriteController::remove(const Request &request, const ResourcePath &path)
{
    if (path.isCollection())
        return removeCollection(request, path);
    if (!path.subresource.empty())
        return status::methodNotAllowed();
    Result<WriteOptions> options = parseWriteOptions(request);
    if (!options)
        return status::badRequest(options.error().message.toStdString());
    if (Result<void> read = readDeleteOptions(request, *options); !read)
        return status::badRequest(read.error().message.toStdString());
    auto loaded = load(path);
    if (Response *failed = std::get_if<Response>(&loaded))
        return *failed;
    const Live &live = std::get<Live>(loaded);
    const json &meta = live.object["metadata"];
    if (!options->uidPrecondition.empty() && options->uidPrecondition != meta.value("uid", ""))
        return status::conflict(*path.kind, path.name,
            "Precondition failed: UID in precondition: " + options->uidPrecondition
                + ", UID in object meta: " + meta.value("uid", ""));
    if (!options->resourceVersionPrecondition.empty()
        && options->resourceVersionPrecondition != std::to_string(live.rev))
        return status::conflict(*path.kind, path.name,
            "Precondition failed: ResourceVersion in precondition: "
                + options->resourceVersionPrecondition
                + ", ResourceVersion in object meta: " + std::to_string(live.rev));

    std::vector<ObjectWriter::Write> writes;
    json answer = live.object;
    if (path.kind->kind == model::Kind::Namespace) {
        // The namespace controller's work, done at once: everything in it goes first.
        for (const model::KindInfo &kind : model::allKinds()) {
            if (!kind.namespaced)
                continue;
            Result<std::vector<ObjectWriter::Stored>> contents = m_writer.list(kind, path.name);
            if (!contents)
                return status::fromError(contents.error());
            for (ObjectWriter::Stored &item : *contents)
                writes.push_back({ model::ChangeType::Deleted, std::move(item.json) });
        }
        answer["metadata"]["deletionTimestamp"] = nowText();
        answer["status"]["phase"] = "Terminating";
    }
    writes.push_back({ model::ChangeType::Deleted, live.object });
    int64_t rev = live.rev;
    if (!options->dryRun) {
        Result<std::vector<int64_t>> revs = m_writer.commit(writes);
        if (!revs)
            return status::fromError(revs.error());
        if (revs->back() != 0)
            rev = revs->back();
        m_committed();
    }
    Result<json> served = toServed(answer, rev, path.apiVersion);
    if (!served)
        return status::internalError(served.error().message.toStdString());
    return jsonResponse(200, *served);
}

Response WriteController::removeCollection(const Request &request, const ResourcePath &path)
{
    if (path.kind->kind == model::Kind::Namespace)
        return status::methodNotAllowed();
    Result<WriteOptions> options = parseWriteOptions(request);
    if (!options)
        return status::badRequest(options.error().message.toStdString());
    if (Result<void> read = readDeleteOptions(request, *options); !read)
        return status::badRequest(read.error().message.toStdString());
    Result<ListOptions> selection = parseListOptions(request);
    if (!selection)
        return status::badRequest(selection.error().message.toStdString());
    Result<std::vector<ObjectWriter::Stored>> stored = m_writer.list(*path.kind, path.ns);
    if (!stored)
        return status::fromError(stored.error());
    std::vector<ObjectWriter::Write> writes;
    std::vector<int64_t> liveRevs;
    for (ObjectWriter::Stored &item : *stored) {
        Result<model::Object> decoded = model::decodeObject(item.json);
        if (!decoded || !selection->labels.matches(decoded->meta)
            || !selection->fields.matches(decoded->meta))
            continue;
        writes.push_back({ model::ChangeType::Deleted, std::move(item.json) });
        liveRevs.push_back(item.rev);
    }
    std::vector<int64_t> revs = liveRevs;
    if (!options->dryRun && !writes.empty()) {
        Result<std::vector<int64_t>> committed = m_writer.commit(writes);
        if (!committed)
            return status::fromError(committed.error());
        for (size_t i = 0; i < revs.size(); ++i)
            revs[i] = (*committed)[i] != 0 ? (*committed)[i] : revs[i];
        m_committed();
    }
    json items = json::array();
    for (size_t i = 0; i < writes.size(); ++i) {
        if (Result<json> served = toServed(writes[i].object, revs[i], path.apiVersion))
            items.push_back(std::move(*served));
    }
    return jsonResponse(200,
        { { "kind", std::string(path.kind->name) + "List" }, { "apiVersion", path.apiVersion },
            { "metadata", json::object() }, { "items", std::move(items) } });
}

} // namespace dra::server
