// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl access: who may use which DeviceClass in which namespace (RBAC to create claims, the
// namespace's quota, the admin-access label), who may write the inventory, and what in the
// cluster's RBAC deserves a second look.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/output.h"
#include "core/inventory/device_access.h"
#include "core/inventory/snapshot_builder.h"
#include "core/kube/self_rules_request.h"

namespace dra::cli {

namespace {

void printText(const inventory::AccessReport &report)
{
    out(report.sourceNote + "\n\n");
    std::vector<std::vector<std::string>> rows;
    for (const inventory::NamespaceAccess &ns : report.namespaces)
        for (const inventory::ClassAccess &access : ns.classes)
            rows.push_back({ ns.ns, access.className, inventory::nonAdminSubjects(ns.claimAuthors),
                access.hard ? std::to_string(*access.used) + "/" + std::to_string(*access.hard)
                            : std::string("-"),
                access.adminAccess ? "yes" : "no",
                access.blocked      ? "blocked by quota"
                    : access.usable ? "usable"
                                    : "no claim authors" });
    printTable(
        { "namespace", "class", "claim authors", "quota used/hard", "admin access", "verdict" },
        rows, QStringLiteral("No namespaces or no DeviceClasses in the cache."));
    out(std::string_view("\n"));
    rows.clear();
    for (const inventory::InventoryWriters &writers : report.writers)
        rows.push_back({ writers.resource, inventory::nonAdminSubjects(writers.grants) });
    printTable({ "resource", "writers besides admins" }, rows);
    out(std::string_view("\n"));
    rows.clear();
    for (const inventory::AccessFinding &finding : report.findings)
        rows.push_back(
            { finding.severity == inventory::AccessSeverity::Warning ? "warning" : "info",
                finding.code, finding.message });
    printTable({ "severity", "finding", "message" }, rows, QStringLiteral("No access findings."));
}

// The user's rules in `namespaces`, as the cluster answers SelfSubjectRulesReviews.
Result<inventory::SelfRules> askSelfRules(
    const QCommandLineParser &parser, std::vector<std::string> namespaces)
{
    Result<kube::SelfRulesAnswer> answer = askCluster<kube::SelfRulesAnswer>(
        parser, [&](kube::RestClient &client, QObject *context, auto done) {
            kube::requestSelfRules(client, std::move(namespaces), context, std::move(done));
        });
    if (!answer)
        return dra::fail(answer.error());
    return inventory::SelfRules { { "User", answer->username, "" },
        std::move(answer->rulesByNamespace) };
}

int runAccess(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ QStringLiteral("class"), QStringLiteral("Only this DeviceClass."),
        QStringLiteral("name") });
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("Only this namespace."), QStringLiteral("ns") });
    addAskClusterOptions(parser);
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Access per DeviceClass: Kubernetes has no RBAC per class, so for each "
                "namespace and class this shows who may create ResourceClaims and templates "
                "there (from the cache's Roles, ClusterRoles and bindings), what the namespace's "
                "quota allows of the class (a hard limit of 0 keeps it out) and whether claims "
                "may ask for admin access (the namespace's resource.kubernetes.io/admin-access "
                "label). It lists who may write DeviceClasses, ResourceSlices, DeviceTaintRules "
                "and claim status, and flags non-admins who may write the inventory, wildcard "
                "grants on resource.k8s.io and claim status writers. When the cache holds no "
                "Roles or bindings (you may not read them) and a cluster is named with "
                "--context or --kubeconfig, your own rules are asked instead "
                "(SelfSubjectRulesReview per namespace), and the report says so."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("access")))
        return Failed;
    Result<inventory::SnapshotPtr> snapshot = loadCachedSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    const inventory::AccessQuery query { parser.value(QStringLiteral("class")).toStdString(),
        parser.value(QStringLiteral("namespace")).toStdString() };
    inventory::AccessReport report = inventory::deviceAccess(**snapshot, query);
    // The Roles and bindings are not readable: what the cluster says this user may do.
    if (report.source == inventory::AccessSource::None && namesCluster(parser)) {
        std::vector<std::string> namespaces;
        for (const inventory::NamespaceAccess &ns : report.namespaces)
            namespaces.push_back(ns.ns);
        Result<inventory::SelfRules> self = askSelfRules(parser, std::move(namespaces));
        if (self)
            report = inventory::deviceAccess(**snapshot, query, &*self);
        else
            inventory::noteSelfRulesUnavailable(report, self.error().message.toStdString());
    }
    if (format == QLatin1String("json")) {
        // The web console's /console/v1/access answers the same document.
        printJson(inventory::accessJson(**snapshot, report));
        return Ok;
    }
    printText(report);
    return Ok;
}

const CommandRegistration accessRegistration(
    { "access", "Show who may use which DeviceClass where", runAccess, 54 });

} // namespace

} // namespace dra::cli
