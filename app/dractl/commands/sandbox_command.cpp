// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl sandbox fault add|list|clear: the demo cluster's fault injection, through the
// kubeconfig like every other command that talks to a server.
#include <optional>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/kube_options.h"
#include "core/common/json_text.h"
#include "core/kube/rest_client.h"
#include "core/sandbox/fault_endpoint.h"
#include "core/sandbox/sandbox_faults.h"

namespace dra::cli {

namespace {

using common::Error;
using common::qs;
using nlohmann::json;

// Sends one request and waits for its answer.
Result<kube::RestResponse> sendAndWait(kube::RestClient &client, kube::RestRequest request)
{
    std::optional<Result<kube::RestResponse>> answer;
    QObject context;
    client.send(std::move(request), &context,
        [&answer](const Result<kube::RestResponse> &response) { answer = response; });
    QElapsedTimer waited;
    waited.start();
    while (!answer && waited.elapsed() < 120 * 1000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!answer)
        return dra::fail(Error::Code::Network, QStringLiteral("the server did not answer"));
    return *answer;
}

QString faultLine(const json &fault)
{
    const std::string target = fault.contains("deployment")
        ? fault.value("namespace", "") + "/" + fault.value("deployment", "")
        : std::string("every workload");
    return QStringLiteral("%1  %2\n").arg(qs(fault.value("kind", "")), -22).arg(qs(target));
}

// The options of every fault command: how to reach the cluster, and -o.
void addFaultOptions(QCommandLineParser &parser)
{
    parser.addOption(kubeconfigOption());
    parser.addOption(contextOption());
    parser.addOptions(impersonationOptions());
    parser.addOption(outputOption(QStringLiteral("table")));
}

bool checkFaultOutput(const QCommandLineParser &parser)
{
    return checkOutputFormat(parser.value(QStringLiteral("output")),
        { QStringLiteral("table"), QStringLiteral("json") }, QStringLiteral("sandbox fault"));
}

// Sends `request` to the demo cluster's fault endpoint, through the kubeconfig like every other
// command that talks to a server, and prints the answer as JSON (-o json) or with `printTable`.
int sendFaultRequest(const QCommandLineParser &parser, kube::RestRequest request,
    void (*printTable)(const json &answer))
{
    request.path = qs(sandbox::kFaultsPath);
    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return reportFailure(config.error());
    kube::RestOptions options;
    options.userAgent = "dractl/" DRA_VERSION " (linux) draconsole sandbox";
    options.exec = execOptionsForTerminal();
    auto client = std::make_unique<kube::RestClient>(*config, options);
    Result<kube::RestResponse> response = sendAndWait(*client, std::move(request));
    client.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    if (!response) {
        if (response.error().code == Error::Code::NotFound)
            return reportFailure(QStringLiteral(
                "%1 is not a demo cluster (no %2); start one with `dractl serve --demo`")
                                     .arg(config->describe(), qs(sandbox::kFaultsPath)));
        return reportFailure(response.error());
    }
    const json answer = json::parse(response->body.begin(), response->body.end(), nullptr, false);
    if (parser.value(QStringLiteral("output")) == QLatin1String("json"))
        out(answer.dump(2) + "\n");
    else
        printTable(answer);
    return Ok;
}

int runFaultAdd(const QStringList &arguments)
{
    QCommandLineParser parser;
    addFaultOptions(parser);
    parser.addOption({ QStringLiteral("deployment"),
        QStringLiteral("The Deployment the fault targets (default: every workload)."),
        QStringLiteral("name") });
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("The Deployment's namespace (default: default)."), QStringLiteral("ns"),
        QStringLiteral("default") });
    parser.addPositionalArgument(QStringLiteral("KIND"), QStringLiteral("The fault."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Inject a fault into a demo cluster (`dractl serve --demo`), so a "
                           "rollout's gates can be shown to catch it. Without --deployment it "
                           "hits every workload. Kinds: %1")
                .arg(qs(sandbox::faultKindNames())),
            &exitCode))
        return exitCode;
    if (!checkFaultOutput(parser))
        return Usage;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return reportFailure(
            QStringLiteral("fault add needs one KIND (%1)").arg(qs(sandbox::faultKindNames())));
    json body = { { "kind", positional[0].toStdString() } };
    if (parser.isSet(QStringLiteral("deployment")))
        body.update({ { "deployment", parser.value(QStringLiteral("deployment")).toStdString() },
            { "namespace", parser.value(QStringLiteral("namespace")).toStdString() } });
    // Checked here too, so a typo is named before any connection is made.
    if (Result<sandbox::Fault> fault = sandbox::Fault::fromJson(body); !fault)
        return reportFailure(fault.error());
    kube::RestRequest request;
    request.method = "POST";
    request.body = QByteArray::fromStdString(body.dump());
    return sendFaultRequest(parser, std::move(request),
        [](const json &added) { out(QStringLiteral("added ") + faultLine(added)); });
}

int runFaultList(const QStringList &arguments)
{
    QCommandLineParser parser;
    addFaultOptions(parser);
    int exitCode = Ok;
    if (!parseOrExit(
            parser, arguments, QStringLiteral("The faults a demo cluster injects now."), &exitCode))
        return exitCode;
    if (!checkFaultOutput(parser))
        return Usage;
    if (!parser.positionalArguments().isEmpty())
        return reportFailure(QStringLiteral("fault list takes no arguments"));
    return sendFaultRequest(parser, kube::RestRequest {}, [](const json &answer) {
        const json items = answer.value("items", json::array());
        if (items.empty())
            out(QStringLiteral("no faults\n"));
        for (const json &fault : items)
            out(faultLine(fault));
    });
}

int runFaultClear(const QStringList &arguments)
{
    QCommandLineParser parser;
    addFaultOptions(parser);
    parser.addPositionalArgument(QStringLiteral("KIND"),
        QStringLiteral("Only faults of this kind (default: all)."), QStringLiteral("[KIND]"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Remove a demo cluster's faults, all or those of one kind."), &exitCode))
        return exitCode;
    if (!checkFaultOutput(parser))
        return Usage;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return reportFailure(QStringLiteral("fault clear takes at most one KIND"));
    kube::RestRequest request;
    request.method = "DELETE";
    if (!positional.isEmpty()) {
        if (!sandbox::parseFaultKind(positional[0].toStdString()))
            return reportFailure(QStringLiteral("fault kind \"%1\": not known; known kinds: %2")
                                     .arg(positional[0], qs(sandbox::faultKindNames())));
        request.query.addQueryItem(QStringLiteral("kind"), positional[0]);
    }
    return sendFaultRequest(parser, std::move(request), [](const json &answer) {
        out(QStringLiteral("removed %1 fault(s)\n").arg(answer.value("removed", 0)));
    });
}

const CommandRegistration sandboxRegistration({ .path = "sandbox",
    .summary = "Inject faults into a demo cluster (dractl serve --demo)",
    .order = 75,
    .details = "The demo cluster is reached through the kubeconfig (--kubeconfig, --context)." });
const CommandRegistration sandboxFaultRegistration({ .path = "sandbox fault",
    .summary = "add, list or clear the faults a rollout's gates should catch",
    .order = 10 });
const CommandRegistration sandboxFaultAddRegistration({ .path = "sandbox fault add",
    .summary = "inject a fault into every workload, or one Deployment (--deployment, -n)",
    .run = runFaultAdd,
    .order = 10,
    .synopsis = "KIND" });
const CommandRegistration sandboxFaultListRegistration({ .path = "sandbox fault list",
    .summary = "the faults injected now",
    .run = runFaultList,
    .order = 20 });
const CommandRegistration sandboxFaultClearRegistration({ .path = "sandbox fault clear",
    .summary = "remove them, all or those of one kind",
    .run = runFaultClear,
    .order = 30,
    .synopsis = "[KIND]" });

} // namespace

} // namespace dra::cli
