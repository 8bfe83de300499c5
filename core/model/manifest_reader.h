// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>
#include <vector>

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace dra::model {

// One Kubernetes object read from a manifest.
struct ManifestDocument
{
    nlohmann::json object;
    QString origin; // "file:line" where the object starts
};

// Something in the manifests that could not be used, with where it is.
struct ManifestProblem
{
    QString origin; // "file:line", or the path alone for unreadable files and missing paths
    QString reason;

    // "origin: reason", one line for a CLI or a status bar.
    QString message() const { return origin + QStringLiteral(": ") + reason; }
};

// Everything read: valid objects in file order and the problems met on the way.
struct ManifestSet
{
    std::vector<ManifestDocument> documents;
    std::vector<ManifestProblem> problems;
};

// Reads what `dractl import` and `dractl apply -f` take: files, and directories searched
// recursively for *.json, *.yaml and *.yml (sorted by path). Each file is JSON (one value or a
// stream of values) or multi-document YAML, told apart by content. `List` and `*List` objects
// are expanded into their items (an item lacking kind or apiVersion gets them from the list).
// Empty documents are skipped; anything that is not an object with apiVersion, kind and
// metadata.name is a problem while the valid objects are kept. Missing paths and unreadable
// files are problems too. Blocking file I/O: call it off the GUI thread.
ManifestSet readManifests(const QStringList &paths);

// The same for text already in memory; `origin` names it in every origin ("stdin", a path).
ManifestSet readManifestText(std::string_view text, const QString &origin);

} // namespace dra::model
