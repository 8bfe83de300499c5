// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl serve`'s secrets stay secret: with a known token and its own TLS key, verbose Qt
// logging on, and requests with the right and wrong tokens (reads, a write, the console API, a
// WebSocket, /metrics), neither the token nor the private key shows up in what the server
// prints (beyond the one console link it prints for the user to open), in the cache it serves
// or in the rollouts' state file.
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSslError>
#include <QSslKey>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"
#include "tests/support/tls_request.h"

namespace dra::test {
namespace {

constexpr const char *kToken = "tok-5e1f9c2a7b3d4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d";

using Answer = TlsReply;

Answer call(QNetworkAccessManager &network, const QUrl &url, const QByteArray &token,
    const QByteArray &verb = "GET", const QByteArray &body = {}, const QByteArray &contentType = {})
{
    QNetworkRequest request(url);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token);
    if (!contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    return sendOverTls(network, request, verb, body);
}

// The first line the server answers a WebSocket handshake with, and the rest of its head.
QByteArray handshake(const QUrl &base, const QByteArray &path, const QByteArray &protocols)
{
    QSslSocket socket;
    socket.setPeerVerifyMode(QSslSocket::VerifyNone);
    socket.connectToHostEncrypted(base.host(), quint16(base.port()));
    if (!socket.waitForEncrypted(10'000))
        return {};
    socket.write("GET " + path + " HTTP/1.1\r\nHost: " + base.host().toUtf8() + ":"
        + QByteArray::number(base.port())
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: "
        + protocols + "\r\n\r\n");
    QByteArray head;
    while (!head.contains("\r\n\r\n") && socket.waitForReadyRead(10'000))
        head += socket.readAll();
    return head;
}

QByteArray bearerProtocol(const QByteArray &token)
{
    return "base64url.bearer.authorization.k8s.io."
        + token.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

// Every form of the private key a leak could take: each line of its PEM body, and its DER.
std::vector<QByteArray> keyForms(const QByteArray &pem)
{
    std::vector<QByteArray> forms;
    for (const QByteArray &line : pem.split('\n')) {
        if (!line.trimmed().isEmpty() && !line.startsWith("-----"))
            forms.push_back(line.trimmed());
    }
    const QSslKey key(pem, QSsl::Ec, QSsl::Pem);
    const QSslKey rsa(pem, QSsl::Rsa, QSsl::Pem);
    const QByteArray der = !key.isNull() ? key.toDer() : rsa.toDer();
    if (!der.isEmpty())
        forms.push_back(der);
    return forms;
}

TEST(ServeSecretsTest, TheTokenAndTheKeyAppearInNoLogCacheOrStateFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ignoreOpenSslThreadLeaks(dir.path());
    const QString config = dir.filePath(QStringLiteral("config"));
    const QString tokenFile
        = writeTestFile(dir.filePath(QStringLiteral("token")), std::string(kToken) + "\n");
    const QString cache = dir.filePath(QStringLiteral("served.db"));
    const QString state = dir.filePath(QStringLiteral("state.db"));

    QProcess server;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    // As verbose as the server gets: every Qt logging category, debug included.
    environment.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("*.debug=true"));
    server.setProcessEnvironment(environment);
    server.start(QStringLiteral(DRACTL_PATH),
        { QStringLiteral("serve"), QStringLiteral("--demo"), QStringLiteral("--listen"),
            QStringLiteral("127.0.0.1:0"), QStringLiteral("--cache"), cache,
            QStringLiteral("--state"), state, QStringLiteral("--token-file"), tokenFile,
            QStringLiteral("--test-hooks") });
    QByteArray out, err;
    while (!out.contains("rollouts:") && server.state() != QProcess::NotRunning
        && server.waitForReadyRead(120'000)) {
        out += server.readAllStandardOutput();
        err += server.readAllStandardError();
    }
    ASSERT_TRUE(out.contains("rollouts:")) << out.constData() << err.constData();
    const QRegularExpressionMatch at
        = QRegularExpression(QStringLiteral("Serving .* at (https://\\S+)\\n"))
              .match(QString::fromUtf8(out));
    ASSERT_TRUE(at.hasMatch()) << out.constData();
    const QUrl base(at.captured(1));

    QNetworkAccessManager network;
    const auto url = [&](const QString &path) { return QUrl(base.toString() + path); };
    const QByteArray token(kToken);
    const QString slices = QStringLiteral("/apis/resource.k8s.io/v1/resourceslices");
    EXPECT_EQ(call(network, url(slices), "wrong-" + token).status, 401);
    EXPECT_EQ(call(network, url(slices), token.left(20)).status, 401);
    EXPECT_EQ(call(network, url(slices), {}).status, 401);
    const Answer list = call(network, url(slices), token);
    ASSERT_EQ(list.status, 200);
    const QString first = QString::fromStdString(
        nlohmann::json::parse(list.body.toStdString())["items"][0]["metadata"]["name"]);
    // A write, so the cache holds a change the token made (its field manager, its history).
    EXPECT_EQ(call(network, url(slices + QLatin1Char('/') + first), token, "PATCH",
                  R"({"metadata":{"labels":{"checked":"yes"}}})", "application/merge-patch+json")
                  .status,
        200);
    EXPECT_EQ(call(network, url(QStringLiteral("/console/v1/overview")), token).status, 200);
    EXPECT_EQ(call(network, url(QStringLiteral("/console/v1/rollouts")), token).status, 200);
    EXPECT_EQ(call(network, url(QStringLiteral("/draconsole/test/expire-continue")), token, "POST")
                  .status,
        200);
    // A rollout started from the console: its controllers, in the server, call the server with
    // the token, and its state goes to the state file.
    QFile plan(QStringLiteral(DRA_SOURCE_DIR "/resources/rollouts/demo-llm-server.yaml"));
    ASSERT_TRUE(plan.open(QIODevice::ReadOnly));
    const Answer started = call(network, url(QStringLiteral("/console/v1/rollouts")), token, "POST",
        plan.readAll(), "application/yaml");
    EXPECT_LT(started.status, 300) << started.body.constData();
    for (int i = 0; i < 100 && !QFile::exists(state); ++i)
        QThread::msleep(100);
    QThread::sleep(3); // the controllers' first ticks
    const Answer metrics = call(network, url(QStringLiteral("/metrics")), token);
    const QByteArray accepted
        = handshake(base, "/apis/resource.k8s.io/v1/resourceslices?watch=1&timeoutSeconds=1",
            "base64.binary.k8s.io, " + bearerProtocol(token));
    EXPECT_TRUE(accepted.startsWith("HTTP/1.1 101")) << accepted.constData();
    const QByteArray refused
        = handshake(base, "/console/v1/ws", "draconsole.console.v1, " + bearerProtocol("wrong"));
    EXPECT_TRUE(refused.startsWith("HTTP/1.1 401")) << refused.constData();

    server.terminate();
    ASSERT_TRUE(server.waitForFinished(60'000));
    out += server.readAllStandardOutput();
    err += server.readAllStandardError();
    EXPECT_TRUE(out.contains("Stopped.")) << out.constData() << err.constData();

    QFile keyFile(config + QStringLiteral("/draconsole/serve/serve.key"));
    ASSERT_TRUE(keyFile.open(QIODevice::ReadOnly)) << keyFile.fileName().toStdString();
    const QByteArray keyPem = keyFile.readAll();
    ASSERT_TRUE(keyPem.contains("PRIVATE KEY"));
    const std::vector<QByteArray> key = keyForms(keyPem);
    ASSERT_GE(key.size(), 2u);

    // The one place the token is printed: the console link the user opens.
    QByteArray printed;
    int links = 0;
    for (const QByteArray &line : out.split('\n')) {
        if (line.startsWith("web console: ")
            && line.endsWith(QByteArray(QByteArray("?token=") + token)))
            ++links;
        else
            printed += line + '\n';
    }
    EXPECT_EQ(links, 1) << out.constData();
    std::vector<std::pair<QString, QByteArray>> places
        = { { QStringLiteral("stdout"), printed }, { QStringLiteral("stderr"), err },
              { QStringLiteral("the answer of /metrics"), metrics.body },
              { QStringLiteral("the WebSocket handshake"), accepted + refused } };
    // The cache and the state file with their journals.
    for (QDirIterator files(dir.path(),
             { QStringLiteral("served.db*"), QStringLiteral("state.db*") }, QDir::Files);
         files.hasNext();) {
        QFile file(files.next());
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        places.emplace_back(file.fileName(), file.readAll());
    }
    int stateFiles = 0;
    for (const auto &[where, text] : places)
        stateFiles += where.startsWith(state) ? 1 : 0;
    ASSERT_GT(stateFiles, 0) << "the state file was written";
    ASSERT_GT(places.size(), 4u + stateFiles) << "the cache was written";
    EXPECT_GT(err.size(), 0) << "verbose logging printed nothing: the check would prove little";
    for (const auto &[where, text] : places) {
        EXPECT_FALSE(text.contains(token)) << where.toStdString() << " holds the token";
        EXPECT_FALSE(text.contains(token.toBase64())) << where.toStdString();
        EXPECT_FALSE(text.contains(
            token.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)))
            << where.toStdString() << " holds the token as a WebSocket subprotocol";
        for (const QByteArray &form : key)
            EXPECT_FALSE(text.contains(form)) << where.toStdString() << " holds the private key";
    }
}

} // namespace
} // namespace dra::test
