// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo cluster's `pods/exec`, as kube-apiserver serves it to kubectl 1.30 and later: a
// WebSocket upgrade of GET /api/v1/namespaces/NS/pods/NAME/exec?command=...&container=... with
// the v5.channel.k8s.io (or v4) subprotocol; binary messages prefixed by their channel (1
// stdout, 2 stderr, 3 the final Status); then the server closes. The demo's containers know one
// command, `nvidia-smi -L`, and answer it with the devices their claims hold, so a rollout's
// node gate can check that a container sees exactly its GPU. SPDY (a POST upgrade) gets a plain
// error Status, never a hang.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QByteArray>
#include <QObject>

#include <nlohmann/json.hpp>

#include "core/server/http_connection.h"
#include "core/server/http_message.h"

namespace dra::server {
class WebSocketGateway;
}

namespace dra::sandbox {

class ControlPlane;
class ObjectView;

// The channels of the remotecommand protocol.
enum class ExecChannel : unsigned char {
    Stdin = 0,
    Stdout = 1,
    Stderr = 2,
    Error = 3,
    Resize = 4,
    Close = 255
};

// What a command run in a demo container answered.
struct ExecOutcome
{
    std::string out, err;
    int exitCode = 0;
};

// `command` run in `container` of `pod`. `nvidia-smi -L` lists the GPUs of the container's
// claims in nvidia-smi's format (a MIG device under its parent GPU); with `wrongDevice` (the
// wrong-device fault) a neighbour GPU of the node is listed as well. Any other command is not
// found (exit code 127), as in an image without it.
ExecOutcome demoExec(const ObjectView &view, const nlohmann::json &pod,
    const std::string &container, const std::vector<std::string> &command, bool wrongDevice);

// The UUID a demo MIG device gets when the driver creates it: "MIG-" and a UUID derived from its
// parent GPU's UUID and its device name, the same every time.
std::string migDeviceUuid(std::string_view parentUuid, std::string_view device);

// One message of the protocol: the channel byte, then the data.
QByteArray channelMessage(ExecChannel channel, std::string_view data);
// The final Status on the error channel: Success, or NonZeroExitCode with the exit code.
nlohmann::json execStatus(const ExecOutcome &outcome, const std::vector<std::string> &command);

// The pod a path's exec is for: /api/v1/namespaces/NS/pods/NAME/exec.
struct PodExecTarget
{
    std::string ns, pod;
};
std::optional<PodExecTarget> podExecTarget(const std::string &path);

// Serves pods/exec for the demo cluster's API server (the request has been authenticated and
// authorised as `create pods/exec`). Thread of the control plane.
class PodExecEndpoint final : public QObject
{
    Q_OBJECT
public:
    explicit PodExecEndpoint(ControlPlane &plane, QObject *parent = nullptr);

    // False when `request` is not an exec request.
    bool handle(server::Request &request, server::HttpConnection &connection);

private:
    ControlPlane &m_plane;
    server::WebSocketGateway *m_gateway;
};

} // namespace dra::sandbox
