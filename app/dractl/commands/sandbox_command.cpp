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

QString describeSandbox()
{
    return QStringLiteral(
        "Inject faults into a demo cluster (`dractl serve --demo`), reached through the\n"
        "kubeconfig (--kubeconfig, --context), so a rollout's gates can be shown to catch them.\n\n"
        "  dractl sandbox fault add KIND [--deployment NAME [-n NAMESPACE]]\n"
        "  dractl sandbox fault list [-o table|json]\n"
        "  dractl sandbox fault clear [KIND]\n\n"
        "Without --deployment a fault hits every workload. Kinds: %1")
        .arg(qs(sandbox::faultKindNames()));
}

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

} // namespace

int runSandbox(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("fault"), QStringLiteral("fault add|list|clear"));
    parser.addOption(kubeconfigOption());
    parser.addOption(contextOption());
    parser.addOption({ QStringLiteral("deployment"),
        QStringLiteral("add: the Deployment the fault targets (default: every workload)."),
        QStringLiteral("name") });
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("add: the Deployment's namespace (default: default)."), QStringLiteral("ns"),
        QStringLiteral("default") });
    parser.addOption(outputOption(QStringLiteral("table")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments, describeSandbox(), &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() < 2 || positional[0] != QLatin1String("fault"))
        return fail(Error { Error::Code::Invalid,
            QStringLiteral("expected `dractl sandbox fault add|list|clear ...`; see --help") });
    const QString verb = positional[1];
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format, { QStringLiteral("table"), QStringLiteral("json") },
            QStringLiteral("sandbox fault")))
        return Usage;

    kube::RestRequest request;
    request.path = qs(sandbox::kFaultsPath);
    if (verb == QLatin1String("add")) {
        if (positional.size() != 3)
            return fail(Error { Error::Code::Invalid,
                QStringLiteral("fault add needs one KIND (%1)")
                    .arg(qs(sandbox::faultKindNames())) });
        json body = { { "kind", positional[2].toStdString() } };
        if (parser.isSet(QStringLiteral("deployment")))
            body.update(
                { { "deployment", parser.value(QStringLiteral("deployment")).toStdString() },
                    { "namespace", parser.value(QStringLiteral("namespace")).toStdString() } });
        // Checked here too, so a typo is named before any connection is made.
        if (Result<sandbox::Fault> fault = sandbox::Fault::fromJson(body); !fault)
            return fail(fault.error());
        request.method = "POST";
        request.body = QByteArray::fromStdString(body.dump());
    } else if (verb == QLatin1String("clear")) {
        if (positional.size() > 3)
            return fail(Error {
                Error::Code::Invalid, QStringLiteral("fault clear takes at most one KIND") });
        request.method = "DELETE";
        if (positional.size() == 3) {
            if (!sandbox::parseFaultKind(positional[2].toStdString()))
                return fail(Error { Error::Code::Invalid,
                    QStringLiteral("fault kind \"%1\": not known; known kinds: %2")
                        .arg(positional[2], qs(sandbox::faultKindNames())) });
            request.query.addQueryItem(QStringLiteral("kind"), positional[2]);
        }
    } else if (verb != QLatin1String("list") || positional.size() != 2) {
        return fail(Error { Error::Code::Invalid,
            QStringLiteral("unknown `fault %1`: expected add KIND, list or clear [KIND]")
                .arg(verb) });
    }

    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return fail(config.error());
    kube::RestOptions options;
    options.userAgent = "dractl/" DRA_VERSION " (linux) draconsole sandbox";
    options.exec = execOptionsForTerminal();
    auto client = std::make_unique<kube::RestClient>(*config, options);
    Result<kube::RestResponse> response = sendAndWait(*client, request);
    client.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    if (!response) {
        if (response.error().code == Error::Code::NotFound)
            return fail(QStringLiteral(
                "%1 is not a demo cluster (no %2); start one with `dractl serve --demo`")
                            .arg(config->describe(), qs(sandbox::kFaultsPath)));
        return fail(response.error());
    }
    const json answer = json::parse(response->body.begin(), response->body.end(), nullptr, false);
    if (format == QLatin1String("json")) {
        out(answer.dump(2) + "\n");
        return Ok;
    }
    if (verb == QLatin1String("add")) {
        out(QStringLiteral("added ") + faultLine(answer));
    } else if (verb == QLatin1String("clear")) {
        out(QStringLiteral("removed %1 fault(s)\n").arg(answer.value("removed", 0)));
    } else {
        const json items = answer.value("items", json::array());
        if (items.empty())
            out(QStringLiteral("no faults\n"));
        for (const json &fault : items)
            out(faultLine(fault));
    }
    return Ok;
}

namespace {
const CommandRegistration sandboxRegistration(
    { "sandbox", "Inject faults into a demo cluster (dractl serve --demo)", runSandbox, 75 });
} // namespace

} // namespace dra::cli
