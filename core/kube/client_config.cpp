// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/client_config.h"

#include <QFile>

#include "core/kube/tls_material.h"

namespace dra::kube {

namespace {

using common::Error;

Result<QByteArray> readMaterial(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(Error::Code::NotFound,
            QStringLiteral("%1: cannot read %2: %3").arg(what, path, file.errorString()));
    return file.readAll();
}

// Data wins over a file, as in client-go; kubectl rejects having both for client credentials.
Result<QByteArray> dataOrFile(const QByteArray &data, const QString &path, const QString &what)
{
    if (!data.isEmpty())
        return data;
    if (path.isEmpty())
        return QByteArray();
    return readMaterial(path, what);
}

} // namespace

QString ClientConfig::describe() const
{
    return QStringLiteral("context \"%1\" (%2)")
        .arg(context, server.toDisplayString(QUrl::RemoveUserInfo));
}

Result<ClientConfig> resolveContext(
    const Kubeconfig &config, const QString &contextName, const ProxyEnvironment &proxyEnvironment)
{
    Result<QString> name = config.chooseContext(contextName);
    if (!name)
        return fail(name.error());
    const KubeContext &context = config.contexts.at(*name);
    const QString contextField = QStringLiteral("%1: contexts[\"%2\"]").arg(context.origin, *name);
    auto invalid = [](const QString &field, const QString &reason) {
        return fail(Error::Code::Invalid, field + QStringLiteral(": ") + reason);
    };

    ClientConfig out;
    out.context = *name;
    out.origin = context.origin;
    out.cluster = context.cluster;
    out.user = context.user;
    if (!context.ns.isEmpty())
        out.ns = context.ns;

    if (context.cluster.isEmpty())
        return invalid(contextField + QStringLiteral(".cluster"), QStringLiteral("missing"));
    const auto clusterIt = config.clusters.find(context.cluster);
    if (clusterIt == config.clusters.end())
        return invalid(contextField + QStringLiteral(".cluster"),
            QStringLiteral("cluster \"%1\" is not defined in %2")
                .arg(context.cluster, config.filesText()));
    const KubeCluster &cluster = clusterIt->second;
    const QString clusterField
        = QStringLiteral("%1: clusters[\"%2\"]").arg(cluster.origin, context.cluster);

    if (cluster.server.isEmpty())
        return invalid(clusterField + QStringLiteral(".server"), QStringLiteral("missing"));
    QString serverText = cluster.server;
    if (!serverText.contains(QStringLiteral("://")))
        serverText.prepend(QStringLiteral("https://")); // kubectl's default scheme
    out.server = QUrl(serverText, QUrl::StrictMode);
    if (!out.server.isValid() || out.server.host().isEmpty()
        || (out.server.scheme() != QLatin1String("https")
            && out.server.scheme() != QLatin1String("http")))
        return invalid(clusterField + QStringLiteral(".server"),
            QStringLiteral("\"%1\" is not an http(s) URL").arg(cluster.server));

    out.insecureSkipTlsVerify = cluster.insecureSkipTlsVerify;
    out.tlsServerName = cluster.tlsServerName;
    out.disableCompression = cluster.disableCompression;
    out.execExtension = cluster.execExtension;
    out.proxyUrl = cluster.proxyUrl;
    const bool hasCa
        = !cluster.certificateAuthorityData.isEmpty() || !cluster.certificateAuthority.isEmpty();
    if (hasCa && cluster.insecureSkipTlsVerify)
        return invalid(clusterField,
            QStringLiteral(
                "certificate-authority and insecure-skip-tls-verify exclude each other"));
    if (hasCa) {
        const QString caField = clusterField
            + (cluster.certificateAuthorityData.isEmpty()
                    ? QStringLiteral(".certificate-authority")
                    : QStringLiteral(".certificate-authority-data"));
        Result<QByteArray> pem
            = dataOrFile(cluster.certificateAuthorityData, cluster.certificateAuthority, caField);
        if (!pem)
            return fail(pem.error());
        Result<QList<QSslCertificate>> certificates = parseCertificates(*pem, caField);
        if (!certificates)
            return fail(certificates.error());
        out.caCertificates = *certificates;
        out.caPem = *pem;
    }
    if (cluster.insecureSkipTlsVerify)
        out.warnings.append(
            QStringLiteral("%1: insecure-skip-tls-verify is set: the server's certificate is NOT "
                           "checked, so anyone on the network path can read and change this "
                           "connection, credentials included")
                .arg(clusterField));
    Result<QNetworkProxy> proxy = proxyFor(out.server, cluster.proxyUrl, proxyEnvironment,
        clusterField + QStringLiteral(".proxy-url"));
    if (!proxy)
        return fail(proxy.error());
    out.proxy = *proxy;

    if (context.user.isEmpty())
        return out; // anonymous
    const auto userIt = config.users.find(context.user);
    if (userIt == config.users.end())
        return invalid(contextField + QStringLiteral(".user"),
            QStringLiteral("user \"%1\" is not defined in %2")
                .arg(context.user, config.filesText()));
    const KubeUser &user = userIt->second;
    const QString userField = QStringLiteral("%1: users[\"%2\"]").arg(user.origin, context.user);

    if (!user.authProvider.isEmpty())
        return fail(Error::Code::Unsupported,
            userField
                + QStringLiteral(
                    ".auth-provider: the legacy \"%1\" auth provider is not supported; "
                    "use the provider's exec credential plugin instead")
                      .arg(user.authProvider));
    if (!user.clientCertificateData.isEmpty() && !user.clientCertificate.isEmpty())
        return invalid(userField,
            QStringLiteral("client-certificate-data and client-certificate are both set"));
    if (!user.clientKeyData.isEmpty() && !user.clientKey.isEmpty())
        return invalid(userField, QStringLiteral("client-key-data and client-key are both set"));
    QStringList methods;
    if (!user.token.isEmpty() || !user.tokenFile.isEmpty())
        methods.append(QStringLiteral("token"));
    if (!user.username.isEmpty() || !user.password.isEmpty())
        methods.append(QStringLiteral("username/password"));
    if (user.exec)
        methods.append(QStringLiteral("exec"));
    if (methods.size() > 1)
        return invalid(userField,
            QStringLiteral("more than one authentication method (%1); only one is allowed")
                .arg(methods.join(QStringLiteral(", "))));

    const bool hasCert = !user.clientCertificateData.isEmpty() || !user.clientCertificate.isEmpty();
    const bool hasKey = !user.clientKeyData.isEmpty() || !user.clientKey.isEmpty();
    if (hasCert != hasKey)
        return invalid(userField,
            hasCert ? QStringLiteral("client-certificate is set without client-key")
                    : QStringLiteral("client-key is set without client-certificate"));
    if (hasCert) {
        const QString certField = userField
            + (user.clientCertificateData.isEmpty() ? QStringLiteral(".client-certificate")
                                                    : QStringLiteral(".client-certificate-data"));
        const QString keyField = userField
            + (user.clientKeyData.isEmpty() ? QStringLiteral(".client-key")
                                            : QStringLiteral(".client-key-data"));
        Result<QByteArray> certPem
            = dataOrFile(user.clientCertificateData, user.clientCertificate, certField);
        if (!certPem)
            return fail(certPem.error());
        Result<QByteArray> keyPem = dataOrFile(user.clientKeyData, user.clientKey, keyField);
        if (!keyPem)
            return fail(keyPem.error());
        Result<QList<QSslCertificate>> chain = parseCertificates(*certPem, certField);
        if (!chain)
            return fail(chain.error());
        Result<QSslKey> key = parsePrivateKey(*keyPem, keyField);
        if (!key)
            return fail(key.error());
        if (Result<void> match = checkKeyMatchesCertificate(*certPem, *keyPem, keyField); !match)
            return fail(match.error());
        out.clientCertificateChain = *chain;
        out.clientKey = *key;
    }
    out.token = user.token;
    out.tokenFile
        = user.token.isEmpty() ? user.tokenFile : QString(); // a token wins over tokenFile
    out.username = user.username;
    out.password = user.password;
    out.impersonateUser = user.impersonate;
    out.impersonateUid = user.impersonateUid;
    out.impersonateGroups = user.impersonateGroups;
    out.impersonateExtra = user.impersonateExtra;
    out.exec = user.exec;
    if (!out.impersonateGroups.isEmpty() && out.impersonateUser.isEmpty())
        return invalid(userField + QStringLiteral(".as-groups"),
            QStringLiteral("set without as (the user to impersonate)"));
    // kubectl sends no credentials to an http:// server (client-go reads them only for TLS).
    if (out.server.scheme() == QLatin1String("http") && (!methods.isEmpty() || hasCert)) {
        out.warnings.append(
            QStringLiteral("%1: the server is plain http://, so the credentials of user \"%2\" are "
                           "not sent (as kubectl does)")
                .arg(out.describe(), context.user));
        out.dropCredentials();
    }
    return out;
}

void ClientConfig::dropCredentials()
{
    clientCertificateChain.clear();
    clientKey.reset();
    token.clear();
    tokenFile.clear();
    username.clear();
    password.clear();
    exec.reset();
}

} // namespace dra::kube
