// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/pod_exec_client.h"

#include <memory>

#include <QPointer>
#include <QTimer>
#include <QWebSocket>
#include <QWebSocketHandshakeOptions>

#include <nlohmann/json.hpp>

#include "core/kube/credentials.h"
#include "core/kube/rest_client.h"

namespace dra::kube {

namespace {

constexpr char kStdout = 1, kStderr = 2, kError = 3;

common::Error execError(common::Error::Code code, const QString &message)
{
    return common::Error { code, message };
}

// One exec while it runs: what came on each channel, and whether it is over.
struct Running
{
    ExecResult result;
    std::optional<Result<int>> exit; // from the final Status
    bool finished = false;
    std::function<void(Result<ExecResult>)> done;
};

} // namespace

Result<int> exitCodeOfStatus(const QByteArray &status)
{
    const nlohmann::json parsed = nlohmann::json::parse(status.toStdString(), nullptr, false);
    if (!parsed.is_object())
        return std::unexpected(execError(common::Error::Code::Parse,
            QStringLiteral("the exec's final Status is not JSON: %1")
                .arg(QString::fromUtf8(status))));
    if (parsed.value("status", "") == "Success")
        return 0;
    if (parsed.value("reason", "") == "NonZeroExitCode" && parsed.contains("details"))
        for (const nlohmann::json &cause :
            parsed["details"].value("causes", nlohmann::json::array()))
            if (cause.value("reason", "") == "ExitCode")
                return std::atoi(cause.value("message", "1").c_str());
    return std::unexpected(execError(common::Error::Code::Internal,
        QString::fromStdString(parsed.value("message", std::string("the command failed")))));
}

void execInPod(RestClient &client, const std::string &ns, const std::string &name,
    const std::string &container, const std::vector<std::string> &command, int timeoutMs,
    QObject *context, std::function<void(Result<ExecResult>)> done)
{
    RestRequest request;
    request.path = QStringLiteral("/api/v1/namespaces/%1/pods/%2/exec")
                       .arg(QString::fromStdString(ns), QString::fromStdString(name));
    for (const std::string &word : command)
        request.query.addQueryItem(QStringLiteral("command"), QString::fromStdString(word));
    if (!container.empty())
        request.query.addQueryItem(QStringLiteral("container"), QString::fromStdString(container));
    request.query.addQueryItem(QStringLiteral("stdout"), QStringLiteral("true"));
    request.query.addQueryItem(QStringLiteral("stderr"), QStringLiteral("true"));
    const QString what = client.describe("GET", request.path);
    QPointer<QObject> alive(context);
    QPointer<RestClient> owner(&client);
    client.credentials().get(context,
        [owner, alive, request, what, timeoutMs, done = std::move(done)](
            const Result<AuthMaterial> &auth) mutable {
            if (!owner || !alive)
                return;
            if (!auth)
                return done(std::unexpected(auth.error()));
            QNetworkRequest network = owner->networkRequest(request, *auth);
            QUrl url = network.url();
            url.setScheme(url.scheme() == QLatin1String("http") ? QStringLiteral("ws")
                                                                : QStringLiteral("wss"));
            network.setUrl(url);
            auto *socket = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, alive);
            socket->setSslConfiguration(network.sslConfiguration());
            auto running = std::make_shared<Running>();
            running->done = std::move(done);
            const auto finish = [socket, running, what](std::optional<common::Error> error) {
                if (running->finished)
                    return;
                running->finished = true;
                socket->abort();
                socket->deleteLater();
                if (error)
                    return running->done(std::unexpected(*error));
                if (!running->exit)
                    return running->done(std::unexpected(execError(common::Error::Code::Network,
                        what + QStringLiteral(": the stream ended without the command's status"))));
                if (!*running->exit)
                    return running->done(std::unexpected(running->exit->error()));
                running->result.exitCode = **running->exit;
                running->done(std::move(running->result));
            };
            QObject::connect(socket, &QWebSocket::binaryMessageReceived, socket,
                [running](const QByteArray &message) {
                    if (message.isEmpty())
                        return;
                    const QByteArray data = message.mid(1);
                    if (message[0] == kStdout)
                        running->result.out += data.toStdString();
                    else if (message[0] == kStderr)
                        running->result.err += data.toStdString();
                    else if (message[0] == kError)
                        running->exit = exitCodeOfStatus(data);
                });
            QObject::connect(socket, &QWebSocket::disconnected, socket, [socket, running, finish] {
                // Without a status the stream broke: let an error of the socket (a refused
                // upgrade) be told first.
                if (running->exit)
                    finish(std::nullopt);
                else
                    QTimer::singleShot(0, socket, [finish] { finish(std::nullopt); });
            });
            QObject::connect(socket, qOverload<QAbstractSocket::SocketError>(&QWebSocket::error),
                socket, [socket, finish, what](QAbstractSocket::SocketError) {
                    // A refused upgrade comes as the handshake's HTTP status in the text.
                    const QString text = socket->errorString();
                    const common::Error::Code code = text.contains(QLatin1String("403"))
                        ? common::Error::Code::Forbidden
                        : text.contains(QLatin1String("404")) ? common::Error::Code::NotFound
                                                              : common::Error::Code::Network;
                    finish(execError(code, what + QStringLiteral(": ") + text));
                });
            QTimer::singleShot(timeoutMs, socket, [finish, what, timeoutMs] {
                finish(execError(common::Error::Code::Network,
                    what + QStringLiteral(": no answer within %1 ms").arg(timeoutMs)));
            });
            QWebSocketHandshakeOptions options;
            options.setSubprotocols(
                { QStringLiteral("v5.channel.k8s.io"), QStringLiteral("v4.channel.k8s.io") });
            socket->open(network, options);
        });
}

} // namespace dra::kube
