// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <optional>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::kube {

// When an exec credential plugin may talk to the user (client.authentication.k8s.io).
enum class InteractiveMode { Never, IfAvailable, Always };

// users[].user.exec of a kubeconfig: a program that prints an ExecCredential.
struct ExecConfig
{
    QString command; // relative paths with a separator are resolved against the kubeconfig
    QStringList args;
    std::vector<std::pair<QString, QString>> env;
    QString apiVersion; // client.authentication.k8s.io/v1 or v1beta1
    QString installHint;
    bool provideClusterInfo = false;
    InteractiveMode interactiveMode = InteractiveMode::IfAvailable;
};

// clusters[].cluster. File paths are absolute (resolved against the file that named them).
struct KubeCluster
{
    QString server;
    QString certificateAuthority;
    QByteArray certificateAuthorityData; // decoded
    bool insecureSkipTlsVerify = false;
    QString tlsServerName;
    QString proxyUrl;
    bool disableCompression = false;
    // extensions[name=client.authentication.k8s.io/exec].extension, for exec plugins.
    nlohmann::json execExtension;
    QString origin; // the kubeconfig file it came from
};

// users[].user. Secrets stay in memory: nothing here is ever written anywhere.
struct KubeUser
{
    QString clientCertificate, clientKey;
    QByteArray clientCertificateData, clientKeyData; // decoded
    QString token, tokenFile;
    QString username, password;
    QString impersonate, impersonateUid;
    QStringList impersonateGroups;
    std::map<QString, QStringList> impersonateExtra;
    std::optional<ExecConfig> exec;
    QString authProvider; // the name of a legacy auth-provider, which we do not support
    QString origin;
};

// contexts[].context.
struct KubeContext
{
    QString cluster, user, ns;
    QString origin;
};

// Where to read kubeconfig from, as kubectl decides: --kubeconfig, else $KUBECONFIG (a
// ':'-separated list), else ~/.kube/config.
struct KubeconfigSource
{
    QString explicitPath; // --kubeconfig; must exist
    QString envValue; // $KUBECONFIG as read (the caller passes it, so tests stay hermetic)
    QString homeDir; // for ~/.kube/config

    // The source of this process: $KUBECONFIG and $HOME; `explicitPath` may be empty.
    static KubeconfigSource fromEnvironment(const QString &explicitPath = {});
};

// The merged kubeconfig: per map key, the first file that defines it wins; current-context is
// the first one set. Plain value; credentials in it never leave memory.
struct Kubeconfig
{
    std::map<QString, KubeCluster> clusters;
    std::map<QString, KubeUser> users;
    std::map<QString, KubeContext> contexts;
    QString currentContext;
    QString currentContextOrigin;
    QStringList files; // the files read, in precedence order

    // "prod" from the user's --context, else current-context. Errors name the files read.
    [[nodiscard]] Result<QString> chooseContext(const QString &requested) const;
    // The files read, for messages: "a.yaml, b.yaml" or "(no kubeconfig file)".
    QString filesText() const;
};

// Reads one kubeconfig file. Every error names the file and the field
// ("FILE: users[\"dev\"].client-key-data: not valid base64").
[[nodiscard]] Result<Kubeconfig> readKubeconfigFile(const QString &path);
// Parses kubeconfig text as if read from `path` (relative paths resolve against its folder).
[[nodiscard]] Result<Kubeconfig> parseKubeconfig(const QByteArray &text, const QString &path);

// Reads and merges the files `source` names, with kubectl's rules: files listed in KUBECONFIG
// that do not exist are skipped, an explicit --kubeconfig must exist, and a missing
// ~/.kube/config is an empty configuration.
[[nodiscard]] Result<Kubeconfig> loadKubeconfig(const KubeconfigSource &source);

} // namespace dra::kube
