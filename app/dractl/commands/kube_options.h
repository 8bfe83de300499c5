// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QCommandLineParser>
#include <QEventLoop>

#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/kube/exec_credential.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/rest_client.h"

namespace dra::cli {

// --kubeconfig FILE and --context NAME, as kubectl has them.
QCommandLineOption kubeconfigOption();
QCommandLineOption contextOption();

// kubectl's --as USER, --as-group GROUP (repeated for several) and --as-uid UID: the requests
// act as that user, the cluster checking that the caller may impersonate them. Given, they
// replace the context's own impersonation (its `as`, `as-groups`, `as-uid`, `as-user-extra`).
QList<QCommandLineOption> impersonationOptions();

// --workload-namespaces LIST: where Deployments, ReplicaSets, DaemonSets, Services and
// HTTPRoutes are mirrored ("*" for every namespace), and its parsed value.
QCommandLineOption workloadNamespacesOption();
std::vector<std::string> workloadNamespacesFrom(const QCommandLineParser &parser);

// The kubeconfig kubectl would read for these options ($KUBECONFIG, ~/.kube/config).
[[nodiscard]] Result<kube::Kubeconfig> loadKubeconfigFor(const QCommandLineParser &parser);

// The chosen context resolved, with --as/--as-group/--as-uid applied when the command has them;
// its warnings (insecure-skip-tls-verify, ...) go to stderr.
[[nodiscard]] Result<kube::ClientConfig> clientConfigFor(const QCommandLineParser &parser);

// How exec credential plugins may reach the user from dractl: through the terminal when
// stdin and stderr are one, else their messages are printed on stderr.
kube::ExecOptions execOptionsForTerminal();

// What a command's requests to a cluster carry: dractl's user agent, and exec credential
// plugins reaching the user as execOptionsForTerminal() says.
kube::RestOptions commandRestOptions();

// --kubeconfig, --context and the impersonation options, for a command that reads the cache
// and may also ask a cluster; and whether the command line names one to ask.
void addAskClusterOptions(QCommandLineParser &parser);
bool namesCluster(const QCommandLineParser &parser);

// Asks the parser's cluster one question and waits for the answer in an event loop of its own,
// as a one-shot command does: `send(client, context, done)` sends it.
template <typename T>
Result<T> askCluster(const QCommandLineParser &parser,
    const std::function<void(kube::RestClient &, QObject *, std::function<void(Result<T>)>)> &send)
{
    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return dra::fail(config.error());
    kube::RestClient client(*config, commandRestOptions());
    QEventLoop loop;
    std::optional<Result<T>> answer;
    send(client, &loop, [&](Result<T> got) {
        answer = std::move(got);
        loop.quit();
    });
    if (!answer)
        loop.exec();
    return std::move(*answer);
}

} // namespace dra::cli
