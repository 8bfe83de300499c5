// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl export: cached objects as one List, in a chosen resource.k8s.io version.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/model/conversion.h"

namespace dra::cli {

using common::qs;

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("yaml")));
    parser.addOption({ QStringLiteral("kind"),
        QStringLiteral("Export only this kind (repeatable; default: every resource.k8s.io kind)."),
        QStringLiteral("kind") });
    parser.addOption({ QStringLiteral("api-version"),
        QStringLiteral(
            "Write resource.k8s.io objects in this version: resource.k8s.io/v1, v1beta2, "
            "v1beta1 or v1alpha3 (default: each as it was received)."),
        QStringLiteral("version") });
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("Only namespaced objects of this namespace (default: all)."),
        QStringLiteral("ns") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Write cached objects as a List that `kubectl apply -f` accepts. An object that "
                "cannot be expressed in the requested version is an error naming the field."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!isStructured(format))
        return reportFailure(
            QStringLiteral("export: unknown output format '%1' (json, yaml)").arg(format));

    std::string target = parser.value(QStringLiteral("api-version")).toStdString();
    if (!target.empty() && target.find('/') == std::string::npos)
        target = std::string(model::kResourceGroup) + "/" + target;
    if (!target.empty()) {
        const auto [group, version] = model::splitApiVersion(target);
        if (group != model::kResourceGroup || !model::isKnownResourceVersion(version))
            return reportFailure(QStringLiteral(
                "export: --api-version must be resource.k8s.io/v1, v1beta2, v1beta1 or v1alpha3, "
                "not %1")
                                     .arg(qs(target)));
    }

    std::vector<const model::KindInfo *> kinds;
    for (const QString &name : parser.values(QStringLiteral("kind"))) {
        const model::KindInfo *kind = model::findKind(name.toStdString());
        if (!kind)
            return reportFailure(QStringLiteral("export: unknown kind \"%1\"").arg(name));
        kinds.push_back(kind);
    }
    if (kinds.empty())
        for (const model::KindInfo &kind : model::allKinds())
            if (kind.group == model::kResourceGroup)
                kinds.push_back(&kind);

    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return reportFailure(opened.error());
    store::CacheDb &cache = opened->cache;
    const std::string &cluster = opened->cluster;

    nlohmann::json items = nlohmann::json::array();
    int problems = 0;
    const std::string ns = parser.value(QStringLiteral("namespace")).toStdString();
    for (const model::KindInfo *kind : kinds) {
        Result<std::vector<model::Object>> objects
            = loadObjects(cache, cluster, *kind, kind->namespaced ? ns : std::string());
        if (!objects)
            return reportFailure(objects.error());
        for (const model::Object &object : *objects) {
            const bool convert = !target.empty() && kind->group == model::kResourceGroup;
            Result<nlohmann::json> json
                = model::encodeObject(object, convert ? target : std::string());
            if (!json) {
                err(QStringLiteral("dractl: export: %1\n").arg(json.error().message));
                ++problems;
                continue;
            }
            items.push_back(std::move(*json));
        }
    }
    if (problems)
        return reportFailure(
            QStringLiteral("export: %1 object(s) cannot be written as %2; nothing was written")
                .arg(problems)
                .arg(qs(target)));
    const nlohmann::json list = { { "apiVersion", "v1" }, { "kind", "List" },
        { "metadata", { { "resourceVersion", "" } } }, { "items", std::move(items) } };
    format == QLatin1String("json") ? printJson(list) : printYaml(list);
    return Ok;
}

namespace {
const CommandRegistration exportRegistration(
    { "export", "Write cached objects as a List in a chosen API version", runExport, 30 });
} // namespace

} // namespace dra::cli
