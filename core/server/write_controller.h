// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/release/kubernetes_release.h"
#include "core/server/http_message.h"
#include "core/server/object_writer.h"
#include "core/server/resource_path.h"
#include "core/server/served_api.h"
#include "core/server/write_request.h"

namespace dra::server {

// The write verbs of a writable server, as kube-apiserver answers them: create (POST), update
// (PUT), patch (JSON, merge, strategic merge and server-side apply), delete and deletecollection,
// on the main resource or its status subresource; each honours dryRun=All. It assigns what a
// server assigns (uid, creationTimestamp, generation, resourceVersion, managedFields), defaults
// and validates (422 Invalid with field causes), checks preconditions (409), adds `Warning`
// headers for what can never work, and commits through the cache's single writer, so every
// write reaches watchers in order, once. A failed write stores nothing. Thread of its writer.
class WriteController final
{
public:
    // `committed` runs after each commit (the server fans the changes out to its watchers).
    WriteController(ObjectWriter &writer, const ServedApi &api, std::function<void()> committed);

    Response create(const Request &request, const ResourcePath &path);
    Response update(const Request &request, const ResourcePath &path);
    Response patch(const Request &request, const ResourcePath &path);
    Response remove(const Request &request, const ResourcePath &path);
    Response removeCollection(const Request &request, const ResourcePath &path);

private:
    struct Live
    {
        nlohmann::json object; // storage form
        int64_t rev = 0;
    };
    // The stored object, or a ready 404 (or 500) response.
    std::variant<Live, Response> load(const ResourcePath &path);
    // Finishes an update of `live` to `desired` (both storage form): preconditions, server-set
    // fields, defaults, pruning, validation, managed fields (unless `applied`), warnings,
    // dry-run, commit, response.
    Response finishUpdate(const Request &request, const ResourcePath &path,
        const WriteOptions &options, const Live &live, nlohmann::json desired, bool applied,
        std::vector<std::string> warnings);
    // Finishes a create of `object` (storage form), from POST or from an apply.
    Response finishCreate(const Request &request, const ResourcePath &path,
        const WriteOptions &options, nlohmann::json object, bool applied,
        std::vector<std::string> warnings);
    Response apply(const Request &request, const ResourcePath &path, const WriteOptions &options);
    // Commits and answers with the object as stored, in the request's version.
    Response commitAndRespond(const ResourcePath &path, const WriteOptions &options,
        model::ChangeType type, const nlohmann::json &object, int status, int64_t unchangedRev,
        const std::vector<std::string> &warnings);

    ObjectWriter &m_writer;
    // The release the server serves, with its default gates: what its kube-apiserver would
    // accept is what the writes accept.
    release::KubernetesRelease servedRelease() const;

    const ServedApi &m_api;
    std::function<void()> m_committed;
};

} // namespace dra::server
