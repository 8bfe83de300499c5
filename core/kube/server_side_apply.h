// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/kind.h"
#include "core/model/manifest_reader.h"

namespace dra::kube {

class RestClient;

// Where one manifest object is applied: its kind, namespace, name and REST path in the version
// the manifest names (server-side apply must be sent in the object's own apiVersion).
struct ApplyTarget
{
    const model::KindInfo *kind = nullptr;
    std::string apiVersion, ns, name;
    QString path; // "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaimtemplates/gpu"

    // "resourceclaimtemplate.resource.k8s.io/gpu", as kubectl names an object it applied.
    std::string label() const;
};

// The target of `object`; a namespaced object without metadata.namespace goes to
// `defaultNamespace` (the context's), as kubectl does. Kinds DRA Console does not know are an
// error naming the kind, since their scope and plural cannot be told without guessing.
[[nodiscard]] Result<ApplyTarget> applyTargetOf(
    const nlohmann::json &object, const std::string &defaultNamespace);

struct ApplyOptions
{
    bool dryRunOnly = false; // stop after the dry run: `apply --dry-run` and `diff`
    bool forceConflicts = false; // take over fields another manager owns
    std::string fieldManager = "dractl";
    std::string defaultNamespace = "default";
};

// What happened to one object.
struct ApplyOutcome
{
    enum class Result { Created, Configured, Unchanged, Error };
    Result result = Result::Error;
    std::string kind, ns, name;
    QString origin; // "file:line" of the manifest document
    std::string label; // "resourceclaimtemplate.resource.k8s.io/gpu"
    std::string diff; // the live object against the dry-run result, unified; empty when unchanged
    QString error; // for Error: the server's Status message, with the request it answered
    bool applied = false; // the real (non-dry-run) apply was sent and accepted

    bool changes() const { return result == Result::Created || result == Result::Configured; }
};

// "created", "configured", "unchanged", "error".
const char *resultName(ApplyOutcome::Result result);

// "resourceclaimtemplate.resource.k8s.io/gpu configured (server dry run)", or the label and the
// error: one line per object, as kubectl prints them.
QString outcomeLine(const ApplyOutcome &outcome, bool dryRun);

// Applies `documents` one after another with server-side apply: GET the live object, PATCH with
// dryRun=All to learn what the server would store, diff the two (volatile metadata ignored),
// then — unless options.dryRunOnly or nothing changes — PATCH for real. One object's failure is
// its outcome and the next object still runs. `done` gets every outcome in document order; it is
// not called once `context` is gone. Thread of the client.
void serverSideApply(RestClient &client, std::vector<model::ManifestDocument> documents,
    ApplyOptions options, QObject *context, std::function<void(std::vector<ApplyOutcome>)> done);

// {"objects":[{"kind","namespace","name","result","diff","error"}]}, the -o json of dractl apply.
nlohmann::json applyOutcomesJson(const std::vector<ApplyOutcome> &outcomes);

} // namespace dra::kube
