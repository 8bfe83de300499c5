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

} // namespace

struct PodResponders::Responder
{
    std::unique_ptr<QTcpServer> server;
    std::string ns, deployment, ip;
    int port = 0;
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
        const std::string ip = textAt(pod, "/status/podIP");
        if (textAt(pod, "/status/phase") != "Running" || !isDemoPodIp(ip))
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
        responder->deployment = deploymentOfPod(view, pod);
        responder->body = responderBody(view, pod);
    }
    std::erase_if(m_responders, [&](const auto &entry) { return !running.contains(entry.first); });
}

void PodResponders::answer(Responder &responder, QTcpSocket *socket)
{
    socket->setParent(this);
    const bool fail = m_faults.applies(FaultKind::Http500, responder.ns, responder.deployment);
    const std::string body = fail
        ? json { { "error", "injected fault http-500" }, { "pod", responder.body["pod"] } }.dump()
        : responder.body.dump();
    auto reply = [socket, fail, body] {
        if (!socket->peek(65536).contains("\r\n\r\n"))
            return; // the request is not complete yet
        socket->readAll();
        const std::string head = std::string("HTTP/1.1 ")
            + (fail ? "500 Internal Server Error" : "200 OK")
            + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
            + std::to_string(body.size()) + "\r\n\r\n";
        socket->write(QByteArray::fromStdString(head + body));
        socket->disconnectFromHost();
    };
    connect(socket, &QTcpSocket::readyRead, socket, reply);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    reply();
}

} // namespace dra::sandbox
