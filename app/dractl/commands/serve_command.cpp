// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl serve: the cache as a read-only Kubernetes API (offline mode), over TLS with a token.
#include <atomic>
#include <csignal>
#include <cstdio>

#include <QCoreApplication>
#include <QDir>
#include <QHostAddress>
#include <QStandardPaths>
#include <QTimer>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "core/common/json_text.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/tls_identity.h"

namespace dra::cli {

namespace {

using common::Error;
using common::qs;

std::atomic<int> g_stopSignal { 0 };

void onStopSignal(int signal)
{
    g_stopSignal.store(signal);
}

QString serveDir()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    return QDir(base).filePath(QStringLiteral("draconsole/serve"));
}

// "127.0.0.1:6443", "[::1]:0", "0.0.0.0:8443".
Result<std::pair<QHostAddress, quint16>> parseListen(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const uint port = colon < 0 ? 0 : text.mid(colon + 1).toUInt(&ok);
    QString host = colon < 0 ? QString() : text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    const QHostAddress address(
        host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host);
    if (!ok || port > 65535 || address.isNull())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral(
                "--listen %1: expected ADDRESS:PORT, e.g. 127.0.0.1:6443 (port 0 picks a free one)")
                .arg(text));
    return std::pair { address, quint16(port) };
}

QString urlHost(const QHostAddress &address)
{
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        return QLatin1Char('[') + address.toString() + QLatin1Char(']');
    return address.toString();
}

} // namespace

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption({ QStringLiteral("listen"),
        QStringLiteral("Address and port (default 127.0.0.1:6443; port 0 picks a free one)."),
        QStringLiteral("addr:port"), QStringLiteral("127.0.0.1:6443") });
    parser.addOption(
        { QStringLiteral("no-auth"), QStringLiteral("Accept requests without a bearer token.") });
    parser.addOption({ QStringLiteral("token-file"),
        QStringLiteral("Read the bearer token from this file."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("tls-cert"),
        QStringLiteral("Serve this PEM certificate (with --tls-key)."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("tls-key"),
        QStringLiteral("The PEM private key of --tls-cert."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("write-kubeconfig"),
        QStringLiteral("Write a kubeconfig for this server to this file."),
        QStringLiteral("file") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Serve the cache as a read-only Kubernetes API that kubectl and client "
                           "libraries can use."),
            &exitCode))
        return exitCode;
    if (parser.isSet(QStringLiteral("no-auth")) && parser.isSet(QStringLiteral("token-file")))
        return fail(Error { Error::Code::Invalid,
            QStringLiteral("--no-auth and --token-file exclude each other") });
    if (parser.isSet(QStringLiteral("tls-cert")) != parser.isSet(QStringLiteral("tls-key")))
        return fail(
            Error { Error::Code::Invalid, QStringLiteral("--tls-cert and --tls-key go together") });

    Result<std::pair<QHostAddress, quint16>> listen
        = parseListen(parser.value(QStringLiteral("listen")));
    if (!listen)
        return fail(listen.error());
    Result<store::CacheDb> cache = openCacheForReading(parser);
    if (!cache)
        return fail(cache.error());
    Result<std::string> cluster = chooseCluster(*cache, parser);
    if (!cluster)
        return fail(cluster.error());

    const QString dir = serveDir();
    Result<server::TlsIdentity> identity = parser.isSet(QStringLiteral("tls-cert"))
        ? server::loadIdentity(
            parser.value(QStringLiteral("tls-cert")), parser.value(QStringLiteral("tls-key")))
        : server::loadOrCreateIdentity(dir,
            { QStringLiteral("127.0.0.1"), QStringLiteral("::1"), QStringLiteral("localhost") });
    if (!identity)
        return fail(identity.error());
    Result<QSslConfiguration> tls = identity->serverConfiguration();
    if (!tls)
        return fail(tls.error());
    std::string token;
    if (!parser.isSet(QStringLiteral("no-auth"))) {
        const bool fromFile = parser.isSet(QStringLiteral("token-file"));
        Result<std::string> loaded = server::loadOrCreateToken(
            fromFile ? parser.value(QStringLiteral("token-file")) : dir + QStringLiteral("/token"),
            !fromFile);
        if (!loaded)
            return fail(loaded.error());
        token = *loaded;
    }

    server::ApiServerOptions options;
    options.cluster = *cluster;
    options.token = token;
    server::ApiServer api(*cache, options);
    server::HttpServer http(api.handler());
    http.setTlsConfiguration(*tls);
    if (Result<void> listening = http.listen(listen->first, listen->second); !listening)
        return fail(listening.error());

    const QString url
        = QStringLiteral("https://%1:%2").arg(urlHost(listen->first)).arg(http.port());
    QString kubeconfigNote;
    if (parser.isSet(QStringLiteral("write-kubeconfig"))) {
        const QString path = parser.value(QStringLiteral("write-kubeconfig"));
        const QByteArray text = server::kubeconfigText(
            url.toStdString(), identity->certificatePem, token, "draconsole");
        if (Result<void> written = server::writePrivateFile(path, text); !written)
            return fail(written.error());
        kubeconfigNote
            = QStringLiteral("kubeconfig: %1 (kubectl --kubeconfig %1 get resourceslices)\n")
                  .arg(path);
    } else {
        kubeconfigNote
            = QStringLiteral("kubeconfig: none written; add --write-kubeconfig FILE to get one\n");
    }
    out(QStringLiteral("Serving %1 (cluster %2) read-only at %3\n")
            .arg(cache->path(), qs(*cluster), url));
    out(QStringLiteral("port: %1\nauth: %2\n%3")
            .arg(http.port())
            .arg(
                token.empty() ? QStringLiteral("none (--no-auth)") : QStringLiteral("bearer token"))
            .arg(kubeconfigNote));
    std::fflush(stdout); // whoever started us (a script, a test) waits for these lines

    // The handler only sets a flag; the event loop notices it, so shutdown runs in normal code.
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    QTimer stopCheck;
    QObject::connect(&stopCheck, &QTimer::timeout, &stopCheck, [] {
        if (g_stopSignal.load() != 0)
            QCoreApplication::quit();
    });
    stopCheck.start(100);
    QCoreApplication::exec();
    http.close();
    out(QStringLiteral("Stopped.\n"));
    return Ok;
}

namespace {
const CommandRegistration registration({"serve", "Serve the cache as a Kubernetes API (kubectl works against it)", runServe, 70});
} // namespace

} // namespace dra::cli
