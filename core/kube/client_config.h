// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <optional>

#include <QByteArray>
#include <QList>
#include <QNetworkProxy>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>
#include <QStringList>
#include <QUrl>

#include "core/common/result.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/proxy.h"

namespace dra::kube {

// Everything needed to talk to one cluster as one user: a kubeconfig context resolved and its
// files read. Credentials are in memory only. Plain value, any thread.
struct ClientConfig
{
    QString context; // the context name, used in every error message
    QString cluster; // its cluster and user names
    QString user;
    QString origin; // the kubeconfig file that defined the context
    QString ns = QStringLiteral("default"); // the context's namespace
    QUrl server;

    // TLS. An empty caCertificates means the system's roots.
    QList<QSslCertificate> caCertificates;
    QByteArray caPem; // as read, for exec plugins' cluster info
    bool insecureSkipTlsVerify = false;
    QString tlsServerName;
    QNetworkProxy proxy { QNetworkProxy::NoProxy };
    QString proxyUrl; // as configured (for exec plugins' cluster info)
    bool disableCompression = false;

    // Static credentials; an exec plugin may add a token or a client certificate at run time.
    QList<QSslCertificate> clientCertificateChain;
    std::optional<QSslKey> clientKey;
    QString token;
    QString tokenFile; // read when a request needs it, again whenever the file changes
    QString username, password;
    QString impersonateUser, impersonateUid;
    QStringList impersonateGroups;
    std::map<QString, QStringList> impersonateExtra;
    std::optional<ExecConfig> exec;
    nlohmann::json execExtension;

    // Things the user must be told loudly (insecure-skip-tls-verify, credentials withheld
    // over plain http).
    QStringList warnings;

    // "context \"prod\" (https://10.0.0.1:6443)": the prefix of every error about this cluster.
    QString describe() const;
    // Forgets who this config authenticates as (client certificate, token and token file,
    // basic auth, exec plugin); the address, TLS trust and impersonation stay.
    void dropCredentials();
};

// Resolves `contextName` (empty: current-context) of `config` into a ClientConfig, reading the
// files it names and checking what kubectl checks: a known cluster and user, a server URL,
// readable CA and client certificate files, a key matching the certificate, at most one
// authentication method, no CA together with insecure-skip-tls-verify. Errors name the
// kubeconfig file, the context and the field.
[[nodiscard]] Result<ClientConfig> resolveContext(const Kubeconfig &config,
    const QString &contextName,
    const ProxyEnvironment &proxyEnvironment = ProxyEnvironment::fromProcess());

} // namespace dra::kube
