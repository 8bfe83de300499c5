// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/in_cluster_config.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>

#include "core/kube/tls_material.h"

namespace dra::kube {

namespace {

Result<QByteArray> readFile(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("in-cluster configuration: cannot read the service account's %1 %2: %3")
                .arg(what, path, file.errorString()));
    return file.readAll();
}

} // namespace

Result<ClientConfig> inClusterConfig(const QString &dir, const QProcessEnvironment &environment)
{
    const QString host = environment.value(QStringLiteral("KUBERNETES_SERVICE_HOST"));
    const QString port = environment.value(QStringLiteral("KUBERNETES_SERVICE_PORT"));
    if (host.isEmpty() || port.isEmpty())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("unable to load in-cluster configuration: KUBERNETES_SERVICE_HOST and "
                           "KUBERNETES_SERVICE_PORT must be defined (are we running in a pod?)"));
    bool portOk = false;
    const int portNumber = port.toInt(&portOk);
    if (!portOk || portNumber < 1 || portNumber > 65535)
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("in-cluster configuration: KUBERNETES_SERVICE_PORT=%1 is not a port")
                .arg(port));
    ClientConfig config;
    config.context = QStringLiteral("in-cluster");
    config.cluster = config.context;
    config.user = QStringLiteral("service-account");
    config.origin = dir;
    // An IPv6 address goes in brackets, as net.JoinHostPort writes it.
    const bool ipv6 = QHostAddress(host).protocol() == QAbstractSocket::IPv6Protocol;
    config.server = QUrl(QStringLiteral("https://%1:%2")
                             .arg(ipv6 ? QLatin1Char('[') + host + QLatin1Char(']') : host)
                             .arg(portNumber));
    if (!config.server.isValid())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("in-cluster configuration: KUBERNETES_SERVICE_HOST=%1 is not a host")
                .arg(host));

    const QString caPath = QDir(dir).filePath(QStringLiteral("ca.crt"));
    Result<QByteArray> ca = readFile(caPath, QStringLiteral("CA bundle"));
    if (!ca)
        return dra::fail(ca.error());
    Result<QList<QSslCertificate>> certificates = parseCertificates(*ca, caPath);
    if (!certificates)
        return dra::fail(certificates.error());
    config.caCertificates = *certificates;
    config.caPem = *ca;

    // Read now, so a pod without a token fails at start; then again whenever it changes.
    const QString tokenPath = QDir(dir).filePath(QStringLiteral("token"));
    Result<QByteArray> token = readFile(tokenPath, QStringLiteral("token"));
    if (!token)
        return dra::fail(token.error());
    if (token->trimmed().isEmpty())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("in-cluster configuration: the service account's token %1 is empty")
                .arg(tokenPath));
    config.tokenFile = tokenPath;

    const QString nsPath = QDir(dir).filePath(QStringLiteral("namespace"));
    if (QFile::exists(nsPath)) {
        Result<QByteArray> ns = readFile(nsPath, QStringLiteral("namespace"));
        if (!ns)
            return dra::fail(ns.error());
        if (!ns->trimmed().isEmpty())
            config.ns = QString::fromUtf8(ns->trimmed());
    }
    return config;
}

} // namespace dra::kube
