// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/kube_options.h"

#include <unistd.h>

#include "app/dractl/cli.h"
#include "core/kube/mirror.h"

namespace dra::cli {

QCommandLineOption kubeconfigOption()
{
    return { QStringLiteral("kubeconfig"),
        QStringLiteral("The kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."),
        QStringLiteral("file") };
}

QCommandLineOption contextOption()
{
    return { QStringLiteral("context"),
        QStringLiteral("The kubeconfig context (default: its current-context)."),
        QStringLiteral("name") };
}

QCommandLineOption workloadNamespacesOption()
{
    return { QStringLiteral("workload-namespaces"),
        QStringLiteral(
            "Also mirror Deployments, ReplicaSets, DaemonSets, Services and HTTPRoutes of these "
            "namespaces (comma-separated; * for all), for rollouts."),
        QStringLiteral("list") };
}

std::vector<std::string> workloadNamespacesFrom(const QCommandLineParser &parser)
{
    return kube::parseNamespaceList(parser.value(QStringLiteral("workload-namespaces")));
}

QList<QCommandLineOption> impersonationOptions()
{
    return {
        { QStringLiteral("as"),
            QStringLiteral("Act as this user; the cluster checks that you may impersonate them."),
            QStringLiteral("user") },
        { QStringLiteral("as-group"),
            QStringLiteral("Act as a member of this group too (repeat for several; needs --as)."),
            QStringLiteral("group") },
        { QStringLiteral("as-uid"), QStringLiteral("Act as this user UID (needs --as)."),
            QStringLiteral("uid") },
    };
}

namespace {

// The impersonation flags given on the command line, if any, over the context's own.
Result<void> applyImpersonationFlags(const QCommandLineParser &parser, kube::ClientConfig &client)
{
    // optionNames() lists what was given, so commands without these options never see them.
    const QStringList given = parser.optionNames();
    const bool user = given.contains(QStringLiteral("as"));
    if (!user && !given.contains(QStringLiteral("as-group"))
        && !given.contains(QStringLiteral("as-uid")))
        return {};
    if (!user || parser.value(QStringLiteral("as")).isEmpty())
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("--as-group and --as-uid need --as USER: Kubernetes impersonates "
                           "groups and a UID only together with a user"));
    client.impersonateUser = parser.value(QStringLiteral("as"));
    client.impersonateGroups = parser.values(QStringLiteral("as-group"));
    client.impersonateUid = parser.value(QStringLiteral("as-uid"));
    client.impersonateExtra.clear();
    return {};
}

} // namespace

Result<kube::Kubeconfig> loadKubeconfigFor(const QCommandLineParser &parser)
{
    return kube::loadKubeconfig(
        kube::KubeconfigSource::fromEnvironment(parser.value(QStringLiteral("kubeconfig"))));
}

Result<kube::ClientConfig> clientConfigFor(const QCommandLineParser &parser)
{
    Result<kube::Kubeconfig> config = loadKubeconfigFor(parser);
    if (!config)
        return dra::fail(config.error());
    Result<kube::ClientConfig> client
        = kube::resolveContext(*config, parser.value(QStringLiteral("context")));
    if (!client)
        return client;
    if (Result<void> flags = applyImpersonationFlags(parser, *client); !flags)
        return dra::fail(flags.error());
    for (const QString &warning : client->warnings)
        err(QStringLiteral("WARNING: ") + warning + QLatin1Char('\n'));
    return client;
}

kube::ExecOptions execOptionsForTerminal()
{
    kube::ExecOptions options;
    options.terminalAvailable = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
    if (!options.terminalAvailable)
        options.onMessage = [](const QString &line) {
            err(QStringLiteral("exec plugin: ") + line + QLatin1Char('\n'));
        };
    return options;
}

kube::RestOptions commandRestOptions()
{
    kube::RestOptions options;
    options.userAgent = "dractl/" DRA_VERSION " (linux) draconsole";
    options.exec = execOptionsForTerminal();
    return options;
}

void addAskClusterOptions(QCommandLineParser &parser)
{
    parser.addOption(kubeconfigOption());
    parser.addOption(contextOption());
    parser.addOptions(impersonationOptions());
}

bool namesCluster(const QCommandLineParser &parser)
{
    return parser.isSet(QStringLiteral("context")) || parser.isSet(QStringLiteral("kubeconfig"));
}

} // namespace dra::cli
