// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QCommandLineParser>

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

} // namespace dra::cli
