// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/service_proxy.h"

#include <memory>

#include <QHostAddress>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

#include "core/sandbox/control_plane.h"
#include "core/server/kube_status.h"

namespace dra::sandbox {

namespace {

constexpr int kProxyTimeoutMs = 10'000;

server::Response unavailable(const std::string &message)
{
    return server::jsonResponse(503, server::status::object(503, "ServiceUnavailable", message));
}

// Splits an HTTP/1.1 answer (head and the body up to the close) into a Response.
std::optional<server::Response> parseAnswer(const QByteArray &answer)
{
    const qsizetype headEnd = answer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return std::nullopt;
    const QList<QByteArray> lines = answer.left(headEnd).split('\n');
    const QList<QByteArray> statusLine = lines.front().trimmed().split(' ');
    bool ok = false;
    const int status = statusLine.size() > 1 ? statusLine[1].toInt(&ok) : 0;
    if (!ok)
        return std::nullopt;
    server::Response response;
    response.status = status;
    response.contentType = "text/plain";
    for (const QByteArray &line : lines.mid(1)) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == "content-type")
            response.contentType = line.mid(colon + 1).trimmed().toStdString();
    }
    response.body = answer.mid(headEnd + 4);
    return response;
}

} // namespace

std::optional<ServiceProxyTarget> serviceProxyTarget(const std::string &path)
{
    if (!path.starts_with(kNamespacedCorePrefix))
        return std::nullopt;
    // NS/services/NAME/proxy[/PATH]
    const std::string rest = path.substr(kNamespacedCorePrefix.size());
    const size_t nsEnd = rest.find('/');
    if (nsEnd == std::string::npos || rest.compare(nsEnd, 10, "/services/") != 0)
        return std::nullopt;
    const size_t nameStart = nsEnd + 10;
    const size_t nameEnd = rest.find('/', nameStart);
    if (nameEnd == std::string::npos || rest.compare(nameEnd, 6, "/proxy") != 0
        || (rest.size() > nameEnd + 6 && rest[nameEnd + 6] != '/'))
        return std::nullopt;
    ServiceProxyTarget target;
    target.ns = rest.substr(0, nsEnd);
    // [scheme:]name[:port], as kube-apiserver splits it.
    std::string name = rest.substr(nameStart, nameEnd - nameStart);
    if (name.starts_with("http:") || name.starts_with("https:"))
        name = name.substr(name.find(':') + 1);
    if (const size_t colon = name.find(':'); colon != std::string::npos) {
        target.port = name.substr(colon + 1);
        name.resize(colon);
    }
    target.service = name;
    if (target.ns.empty() || target.service.empty())
        return std::nullopt;
    if (rest.size() > nameEnd + 6)
        target.path = rest.substr(nameEnd + 6);
    return target;
}

bool handleServiceProxy(
    ControlPlane &plane, server::Request &request, server::HttpConnection &connection)
{
    std::optional<ServiceProxyTarget> target = serviceProxyTarget(request.path);
    if (!target)
        return false;
    const std::optional<std::vector<ServiceEndpoint>> endpoints
        = plane.serviceEndpoints(target->ns, target->service, target->port);
    if (!endpoints) {
        connection.respond(
            server::status::notFound(model::kindInfo(model::Kind::Service), target->service));
        return true;
    }
    if (endpoints->empty()) {
        connection.respond(
            unavailable("no endpoints available for service \"" + target->service + "\""));
        return true;
    }
    const ServiceEndpoint &endpoint = (*endpoints)[plane.nextProxyPick() % endpoints->size()];
    const size_t query = request.target.find('?');
    const std::string pathAndQuery = target->path
        + (query == std::string::npos ? std::string() : request.target.substr(query));
    QByteArray forward
        = QByteArray::fromStdString(request.method + ' ' + pathAndQuery + " HTTP/1.1\r\nHost: "
            + endpoint.ip + ':' + std::to_string(endpoint.port) + "\r\nConnection: close\r\n");
    if (const std::string type = request.header("content-type"); !type.empty())
        forward += QByteArray::fromStdString("Content-Type: " + type + "\r\n");
    forward
        += "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n\r\n" + request.body;

    QPointer<server::HttpConnection> client(&connection);
    auto *socket = new QTcpSocket(&plane);
    auto answered = std::make_shared<bool>(false);
    auto reply = [client, socket, answered](const server::Response &response) {
        if (*answered)
            return;
        *answered = true;
        if (client)
            client->respond(response);
        socket->abort();
        socket->deleteLater();
    };
    const std::string where
        = "pod " + endpoint.pod + " (" + endpoint.ip + ':' + std::to_string(endpoint.port) + ')';
    QObject::connect(
        socket, &QTcpSocket::connected, socket, [socket, forward] { socket->write(forward); });
    QObject::connect(socket, &QTcpSocket::disconnected, socket, [socket, reply, where] {
        std::optional<server::Response> answer = parseAnswer(socket->readAll());
        reply(answer
                ? *answer
                : unavailable("error trying to reach service: " + where + " sent no HTTP answer"));
    });
    QObject::connect(socket, &QTcpSocket::errorOccurred, socket, [socket, reply, where] {
        if (socket->error() == QAbstractSocket::RemoteHostClosedError)
            return; // the answer ends with the close; disconnected() takes it
        reply(unavailable("error trying to reach service: " + where + ": "
            + socket->errorString().toStdString()));
    });
    QTimer::singleShot(kProxyTimeoutMs, socket, [reply, where] {
        reply(unavailable("error trying to reach service: " + where + " did not answer in time"));
    });
    socket->connectToHost(
        QHostAddress(QString::fromStdString(endpoint.ip)), quint16(endpoint.port));
    return true;
}

} // namespace dra::sandbox
