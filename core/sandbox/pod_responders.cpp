// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/pod_responders.h"

#include <set>

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

#include "core/common/logging.h"
#include "core/sandbox/control_pass.h"
#include "core/sandbox/controller_support.h"
#include "core/sandbox/demo_kubelet.h"
#include "core/sandbox/pod_claims.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

constexpr int kDefaultPodPort = 8080;

int firstContainerPort(const json &pod)
{
    for (const json &container : pod.value("/spec/containers"_json_pointer, json::array())) {
        for (const json &port : container.value("ports", json::array())) {
            if (port.contains("containerPort") && port["containerPort"].is_number_integer())
                return port["containerPort"].get<int>();
        }
    }
    return kDefaultPodPort;
}

json responderBody(const ObjectView &view, const json &pod)
{
    json devices = json::array();
    for (const json &claim : existingPodClaims(view, pod)) {
        for (const json &device : claim.value("/status/devices"_json_pointer, json::array())) {
            if (const std::string uuid = textAt(device, "/data/uuid"); !uuid.empty())
                devices.push_back(uuid);
        }
    }
    return { { "pod", metaText(pod, "name") }, { "namespace", metaText(pod, "namespace") },
        { "node", textAt(pod, "/spec/nodeName") }, { "devices", std::move(devices) } };
}

bool isPrometheus(const json &pod)
{
    return textAt(pod, "/metadata/labels/app.kubernetes.io~1name") == "prometheus"
        || textAt(pod, "/metadata/labels/app") == "prometheus";
}

// "HTTP/1.1 200 OK" and the headers of an answer that closes the connection.
std::string responseHead(int status, size_t length)
{
    const char *reason = status == 200 ? "OK"
        : status == 400                ? "Bad Request"
        : status == 404                ? "Not Found"
                                       : "Internal Server Error";
    return "HTTP/1.1 " + std::to_string(status) + ' ' + reason
        + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
        + std::to_string(length) + "\r\n\r\n";
}

} // namespace

struct PodResponders::Responder
{
    std::unique_ptr<QTcpServer> server;
    std::string ns, deployment, ip;
    int port = 0;
    bool prometheus = false;
    json body;
};

PodResponders::PodResponders(const FaultSet &faults, QObject *parent)
    : QObject(parent)
    , m_faults(faults)
{
}

PodResponders::~PodResponders() = default;

void PodResponders::sync(const ObjectView &view)
{
    std::set<std::string> running;
    for (const json &pod : view.all(model::Kind::Pod)) {
        const std::string ip = podLoopbackAddress(textAt(pod, "/status/podIP"));
        if (textAt(pod, "/status/phase") != "Running" || ip.empty())
            continue;
        const std::string uid = metaText(pod, "uid");
        running.insert(uid);
        std::unique_ptr<Responder> &responder = m_responders[uid];
        if (!responder) {
            responder = std::make_unique<Responder>();
            responder->server = std::make_unique<QTcpServer>();
            responder->ip = ip;
            responder->port = firstContainerPort(pod);
            Responder *raw = responder.get();
            connect(raw->server.get(), &QTcpServer::newConnection, this, [this, raw] {
                while (QTcpSocket *socket = raw->server->nextPendingConnection())
                    answer(*raw, socket);
            });
            if (!raw->server->listen(QHostAddress(QString::fromStdString(ip)), quint16(raw->port)))
                qCWarning(lcSandbox, "pod %s/%s cannot answer on %s:%d: %s",
                    metaText(pod, "namespace").c_str(), metaText(pod, "name").c_str(), ip.c_str(),
                    raw->port, qPrintable(raw->server->errorString()));
        }
        responder->ns = metaText(pod, "namespace");
        responder->prometheus = isPrometheus(pod);
        responder->deployment = deploymentOfPod(view, pod);
        responder->body = responderBody(view, pod);
    }
    std::erase_if(m_responders, [&](const auto &entry) { return !running.contains(entry.first); });
}

void PodResponders::answer(Responder &responder, QTcpSocket *socket)
{
    socket->setParent(this);
    const bool fail = m_faults.applies(FaultKind::Http500, responder.ns, responder.deployment);
    const bool metrics = responder.prometheus && m_metricsHandler;
    const json body = responder.body;
    auto reply = [this, socket, fail, metrics, body] {
        const QByteArray request = socket->peek(65536);
        if (!request.contains("\r\n\r\n"))
            return; // the request is not complete yet
        socket->readAll();
        int status = fail ? 500 : 200;
        std::string text = fail
            ? json { { "error", "injected fault http-500" }, { "pod", body["pod"] } }.dump()
            : body.dump();
        if (metrics && !fail) {
            // "GET /api/v1/query?query=... HTTP/1.1": the target is the second word.
            const QList<QByteArray> words = request.left(request.indexOf("\r\n")).split(' ');
            std::tie(status, text)
                = m_metricsHandler(words.size() > 1 ? words[1].toStdString() : std::string("/"));
        }
        socket->write(QByteArray::fromStdString(responseHead(status, text.size()) + text));
        socket->disconnectFromHost();
    };
    connect(socket, &QTcpSocket::readyRead, socket, reply);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    reply();
}

} // namespace dra::sandbox
