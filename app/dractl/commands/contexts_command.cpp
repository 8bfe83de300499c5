// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl contexts: the kubeconfig's contexts, whether each cluster answers, and which serve the
// web console (a `dractl serve`): the twin of the desktop's Cluster menu and web console button.
#include <memory>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/kube/rest_client.h"
#include "core/kube/web_console_probe.h"

namespace dra::cli {

namespace {

using common::Error;

struct ContextRow
{
    QString name, cluster, server, user, ns;
    bool current = false;
    bool checked = false;
    bool reachable = false;
    QString version; // gitVersion when reachable
    bool probed = false; // asked whether the server serves the web console (or had no answer)
    QUrl webConsole; // the web console's address, when the server is a `dractl serve`
    QString problem; // why not, or what the configuration lacks
};

} // namespace

int runContexts(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(kubeconfigOption());
    parser.addOption(outputOption(QStringLiteral("table")));
    parser.addOption({ QStringLiteral("timeout"),
        QStringLiteral("Seconds to wait for each cluster (default 5)."), QStringLiteral("s"),
        QStringLiteral("5") });
    parser.addOption({ QStringLiteral("no-check"),
        QStringLiteral("Only list the contexts; contact no cluster.") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "List the kubeconfig's contexts (as kubectl reads $KUBECONFIG or "
                "~/.kube/config) and whether each cluster answers with its credentials."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return reportFailure(QStringLiteral("-o %1: expected table or json").arg(format));
    bool timeoutOk = false;
    const int timeoutS = parser.value(QStringLiteral("timeout")).toInt(&timeoutOk);
    if (!timeoutOk || timeoutS <= 0)
        return reportFailure(QStringLiteral("--timeout: expected a number of seconds"));

    Result<kube::Kubeconfig> config = loadKubeconfigFor(parser);
    if (!config)
        return reportFailure(config.error());
    if (config->contexts.empty())
        return reportFailure(QStringLiteral("%1 defines no contexts").arg(config->filesText()));

    std::vector<ContextRow> rows;
    std::vector<std::unique_ptr<kube::RestClient>> clients;
    QObject context;
    for (const auto &[name, entry] : config->contexts) {
        ContextRow row;
        row.name = name;
        row.current = name == config->currentContext;
        row.cluster = entry.cluster;
        row.user = entry.user;
        row.ns = entry.ns.isEmpty() ? QStringLiteral("default") : entry.ns;
        if (const auto cluster = config->clusters.find(entry.cluster);
            cluster != config->clusters.end())
            row.server = cluster->second.server;
        rows.push_back(row);
    }
    if (!parser.isSet(QStringLiteral("no-check"))) {
        for (ContextRow &row : rows) {
            Result<kube::ClientConfig> client = kube::resolveContext(*config, row.name);
            if (!client) {
                row.checked = true;
                row.problem = client.error().message;
                continue;
            }
            kube::RestOptions options;
            options.userAgent = "dractl/" DRA_VERSION " (linux) draconsole";
            options.exec.timeoutMs = timeoutS * 1000 * 4; // a plugin may be slower than the cluster
            options.exec.onMessage = [name = row.name](const QString &line) {
                err(QStringLiteral("%1: exec plugin: %2\n").arg(name, line));
            };
            clients.push_back(std::make_unique<kube::RestClient>(*client, options));
            kube::RestRequest request;
            request.path = QStringLiteral("/version");
            request.timeoutMs = timeoutS * 1000;
            ContextRow *target = &row;
            kube::RestClient *rest = clients.back().get();
            clients.back()->send(request, &context,
                [target, rest, &context](const Result<kube::RestResponse> &response) {
                    target->checked = true;
                    if (response)
                        kube::probeWebConsole(
                            *rest, &context, [target](const std::optional<QUrl> &console) {
                                target->probed = true;
                                target->webConsole = console.value_or(QUrl());
                            });
                    else
                        target->probed = true;
                    if (!response) {
                        // A server that answers "who are you?" is reachable; the credentials are
                        // the issue.
                        target->reachable = response.error().code == Error::Code::Unauthorized
                            || response.error().code == Error::Code::Forbidden;
                        target->problem = response.error().message;
                        return;
                    }
                    const nlohmann::json version = nlohmann::json::parse(
                        response->body.begin(), response->body.end(), nullptr, false);
                    target->reachable = true;
                    if (version.is_object() && version.contains("gitVersion")
                        && version["gitVersion"].is_string())
                        target->version = common::qs(version["gitVersion"].get<std::string>());
                });
        }
        QElapsedTimer waited;
        waited.start();
        while (std::ranges::any_of(rows, [](const ContextRow &row) {
            return !row.checked || !row.probed;
        }) && waited.elapsed() < timeoutS * 1000 * 5)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }

    // Let the clients close their connections before the process ends.
    clients.clear();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();

    const bool checked = !parser.isSet(QStringLiteral("no-check"));
    if (format == QLatin1String("json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const ContextRow &row : rows) {
            nlohmann::json item = { { "name", row.name.toStdString() }, { "current", row.current },
                { "cluster", row.cluster.toStdString() }, { "server", row.server.toStdString() },
                { "user", row.user.toStdString() }, { "namespace", row.ns.toStdString() } };
            if (checked) {
                item["reachable"] = row.reachable;
                if (!row.version.isEmpty())
                    item["version"] = row.version.toStdString();
                if (!row.problem.isEmpty())
                    item["error"] = row.problem.toStdString();
                if (!row.webConsole.isEmpty())
                    item["webConsole"] = row.webConsole.toString().toStdString();
            }
            list.push_back(std::move(item));
        }
        printJson(list);
        return Ok;
    }
    std::vector<std::string> headers { "CURRENT", "NAME", "CLUSTER", "SERVER", "USER",
        "NAMESPACE" };
    if (checked)
        headers.push_back("REACHABLE");
    std::vector<std::vector<std::string>> table;
    QStringList problems;
    for (const ContextRow &row : rows) {
        std::vector<std::string> cells { row.current ? "*" : "", row.name.toStdString(),
            row.cluster.toStdString(), row.server.toStdString(), row.user.toStdString(),
            row.ns.toStdString() };
        if (checked) {
            QString state;
            if (!row.checked)
                state = QStringLiteral("no (no answer)");
            else if (row.reachable && row.problem.isEmpty())
                state = QStringLiteral("yes (%1)")
                            .arg(row.version.isEmpty() ? QStringLiteral("?") : row.version);
            else if (row.reachable)
                state = QStringLiteral("yes, credentials refused");
            else
                state = QStringLiteral("no");
            cells.push_back(state.toStdString());
            if (!row.problem.isEmpty())
                problems.append(QStringLiteral("%1: %2").arg(row.name, row.problem));
        }
        table.push_back(std::move(cells));
    }
    printTable(headers, table);
    for (const ContextRow &row : rows)
        if (!row.webConsole.isEmpty())
            out(QStringLiteral("%1 serves the web console at %2\n")
                    .arg(row.name, row.webConsole.toString()));
    for (const QString &problem : problems)
        err(problem + QLatin1Char('\n'));
    return Ok;
}

namespace {
const CommandRegistration contextsRegistration({ "contexts",
    "List the kubeconfig's contexts and whether each cluster answers", runContexts, 12 });
} // namespace

} // namespace dra::cli
