// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/pod_exec.h"

#include <QPointer>
#include <QTimer>
#include <QWebSocket>

#include "core/sandbox/control_plane.h"
#include "core/sandbox/controller_support.h"
#include "core/sandbox/object_view.h"
#include "core/sandbox/pod_claims.h"
#include "core/server/kube_status.h"
#include "core/server/websocket_gateway.h"

namespace dra::sandbox {

namespace {

using nlohmann::json;

constexpr std::string_view kGpuDriver = "gpu.nvidia.com";

// A device of a slice, by driver, pool and name; nullptr when none.
const json *sliceDevice(const ObjectView &view, const std::string &driver, const std::string &pool,
    const std::string &name, std::vector<json> &slices)
{
    if (slices.empty())
        slices = view.all(model::Kind::ResourceSlice);
    for (const json &slice : slices) {
        if (textAt(slice, "/spec/driver") != driver || textAt(slice, "/spec/pool/name") != pool)
            continue;
        // Pointers into the slice itself: value() would hand out a copy.
        const auto spec = slice.find("spec");
        const auto devices = spec == slice.end() ? slice.end() : spec->find("devices");
        if (spec == slice.end() || devices == spec->end() || !devices->is_array())
            continue;
        for (const json &device : *devices)
            if (device.value("name", "") == name)
                return &device;
    }
    return nullptr;
}

std::string attribute(const json &device, const char *name)
{
    const json *value = device.contains("attributes") && device["attributes"].contains(name)
        ? &device["attributes"][name]
        : nullptr;
    return value && value->contains("string") ? (*value)["string"].get<std::string>()
                                              : std::string();
}

// nvidia-smi's lines for one GPU and the MIG devices of it the container holds.
struct GpuLines
{
    std::string uuid, product;
    std::vector<std::pair<std::string, std::string>> migs; // profile, MIG UUID
};

GpuLines &gpuEntry(std::vector<GpuLines> &gpus, const std::string &uuid, const std::string &product)
{
    for (GpuLines &gpu : gpus)
        if (gpu.uuid == uuid)
            return gpu;
    gpus.push_back({ uuid, product, {} });
    return gpus.back();
}

// The UUID the claim's status gives the device (the driver's data), or empty.
std::string statusUuid(const json &claim, const json &result)
{
    for (const json &entry : claim.value("/status/devices"_json_pointer, json::array()))
        if (entry.value("driver", "") == result.value("driver", "")
            && entry.value("pool", "") == result.value("pool", "")
            && entry.value("device", "") == result.value("device", ""))
            return textAt(entry, "/data/uuid");
    return {};
}

std::string listing(const std::vector<GpuLines> &gpus)
{
    std::string out;
    for (size_t i = 0; i < gpus.size(); ++i) {
        out += "GPU " + std::to_string(i) + ": " + gpus[i].product + " (UUID: " + gpus[i].uuid
            + ")\n";
        for (size_t m = 0; m < gpus[i].migs.size(); ++m) {
            std::string profile = gpus[i].migs[m].first;
            profile.resize(std::max<size_t>(profile.size(), 9), ' ');
            out += "  MIG " + profile + " Device " + (m < 10 ? " " : "") + std::to_string(m)
                + ": (UUID: " + gpus[i].migs[m].second + ")\n";
        }
    }
    return out;
}

// A GPU of the same node that `gpus` does not list: what a container of a misconfigured node
// would see besides its own.
std::optional<GpuLines> neighbour(const ObjectView &view, const json &pod,
    const std::vector<GpuLines> &gpus, std::vector<json> &slices)
{
    if (slices.empty())
        slices = view.all(model::Kind::ResourceSlice);
    const std::string node = textAt(pod, "/spec/nodeName");
    for (const json &slice : slices) {
        if (textAt(slice, "/spec/nodeName") != node || textAt(slice, "/spec/driver") != kGpuDriver)
            continue;
        for (const json &device : slice.value("/spec/devices"_json_pointer, json::array())) {
            const std::string uuid = attribute(device, "uuid");
            if (uuid.empty() || attribute(device, "type") != "gpu")
                continue;
            if (std::ranges::none_of(gpus, [&](const GpuLines &gpu) { return gpu.uuid == uuid; }))
                return GpuLines { uuid, attribute(device, "productName"), {} };
        }
    }
    return std::nullopt;
}

// FNV-1a, 64 bits: a stable hash (std::hash may differ between builds).
uint64_t stableHash(std::string_view text, uint64_t seed)
{
    uint64_t hash = 1469598103934665603ULL ^ seed;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

} // namespace

std::string migDeviceUuid(std::string_view parentUuid, std::string_view device)
{
    const std::string key = std::string(parentUuid) + "/" + std::string(device);
    char hex[33];
    std::snprintf(hex, sizeof hex, "%016llx%016llx",
        static_cast<unsigned long long>(stableHash(key, 0)),
        static_cast<unsigned long long>(stableHash(key, 0x9e3779b97f4a7c15ULL)));
    const std::string h(hex, 32);
    return "MIG-" + h.substr(0, 8) + "-" + h.substr(8, 4) + "-4" + h.substr(13, 3) + "-a"
        + h.substr(17, 3) + "-" + h.substr(20, 12);
}

ExecOutcome demoExec(const ObjectView &view, const json &pod, const std::string &container,
    const std::vector<std::string> &command, bool wrongDevice)
{
    if (command != std::vector<std::string> { "nvidia-smi", "-L" })
        return { {},
            "exec: \"" + (command.empty() ? std::string() : command.front())
                + "\": executable file not found in $PATH\n",
            127 };
    std::vector<GpuLines> gpus;
    std::vector<json> slices;
    for (const json &claim : existingPodClaims(view, pod, container))
        for (const json &result :
            claim.value("/status/allocation/devices/results"_json_pointer, json::array())) {
            if (result.value("driver", "") != kGpuDriver)
                continue;
            const json *device = sliceDevice(view, result.value("driver", ""),
                result.value("pool", ""), result.value("device", ""), slices);
            if (!device)
                continue;
            const std::string product = attribute(*device, "productName");
            if (attribute(*device, "type") == "mig") {
                const std::string parent = attribute(*device, "parentUUID");
                std::string uuid = statusUuid(claim, result);
                if (uuid.empty())
                    uuid = migDeviceUuid(parent, result.value("device", ""));
                gpuEntry(gpus, parent, product)
                    .migs.emplace_back(attribute(*device, "profile"), uuid);
            } else if (const std::string uuid = attribute(*device, "uuid"); !uuid.empty()) {
                gpuEntry(gpus, uuid, product);
            }
        }
    if (wrongDevice)
        if (std::optional<GpuLines> other = neighbour(view, pod, gpus, slices))
            gpus.push_back(std::move(*other));
    if (gpus.empty())
        // The NVIDIA container toolkit puts nvidia-smi only in containers that get a GPU.
        return { {}, "exec: \"nvidia-smi\": executable file not found in $PATH\n", 127 };
    return { listing(gpus), {}, 0 };
}

// How long the demo's containers take to start an exec'd command.
constexpr int kProcessStartMs = 100;

QByteArray channelMessage(ExecChannel channel, std::string_view data)
{
    QByteArray message;
    message.reserve(qsizetype(data.size() + 1));
    message.append(char(channel));
    message.append(data.data(), qsizetype(data.size()));
    return message;
}

json execStatus(const ExecOutcome &outcome, const std::vector<std::string> &command)
{
    if (outcome.exitCode == 0)
        return { { "metadata", json::object() }, { "status", "Success" } };
    std::string words;
    for (const std::string &word : command)
        words += (words.empty() ? "" : " ") + word;
    const std::string code = std::to_string(outcome.exitCode);
    return {
        { "metadata", json::object() }, { "status", "Failure" },
        { "message",
            "command terminated with non-zero exit code: error executing command [" + words
                + "], exit code " + code },
        { "reason", "NonZeroExitCode" },
        { "details",
            { { "causes", json::array({ { { "reason", "ExitCode" }, { "message", code } } }) } } }
    };
}

std::optional<PodExecTarget> podExecTarget(const std::string &path)
{
    // /api/v1/namespaces/NS/pods/NAME/exec
    constexpr std::string_view prefix = "/api/v1/namespaces/";
    if (!path.starts_with(prefix))
        return std::nullopt;
    std::vector<std::string> parts;
    size_t start = prefix.size();
    while (start <= path.size()) {
        const size_t slash = path.find('/', start);
        parts.push_back(
            path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        if (slash == std::string::npos)
            break;
        start = slash + 1;
    }
    if (parts.size() != 4 || parts[1] != "pods" || parts[3] != "exec" || parts[0].empty()
        || parts[2].empty())
        return std::nullopt;
    return PodExecTarget { parts[0], parts[2] };
}

PodExecEndpoint::PodExecEndpoint(ControlPlane &plane, QObject *parent)
    : QObject(parent)
    , m_plane(plane)
    , m_gateway(new server::WebSocketGateway(
          { QStringLiteral("v5.channel.k8s.io"), QStringLiteral("v4.channel.k8s.io") }, this))
{
}

bool PodExecEndpoint::handle(server::Request &request, server::HttpConnection &connection)
{
    const std::optional<PodExecTarget> target = podExecTarget(request.path);
    if (!target)
        return false;
    if (!server::isWebSocketUpgrade(request)) {
        // kubectl before 1.30 (or with websockets turned off) asks with a SPDY POST.
        connection.respond(server::status::badRequest(
            "Upgrade request required: this cluster serves exec over WebSocket "
            "(v5.channel.k8s.io, v4.channel.k8s.io), not SPDY"));
        return true;
    }
    const std::vector<std::string> command = request.query.values("command");
    if (command.empty()) {
        connection.respond(server::status::badRequest("you must specify at least 1 command"));
        return true;
    }
    // Refusals come before the switch of protocols, as ordinary Status answers.
    const Result<ExecOutcome> ran = m_plane.execInPod(
        target->ns, target->pod, request.query.value("container").value_or(""), command);
    if (!ran) {
        connection.respond(ran.error().code == common::Error::Code::NotFound
                ? server::status::notFound(model::kindInfo(model::Kind::Pod), target->pod)
                : server::status::badRequest(ran.error().message.toStdString()));
        return true;
    }
    const ExecOutcome outcome = *ran;
    const json status = execStatus(outcome, command);
    m_gateway->accept(connection, [outcome, status](QWebSocket *socket) {
        QObject::connect(socket, &QWebSocket::disconnected, socket, &QObject::deleteLater);
        // As a process in a container takes a moment to start: client-go sets up its stream
        // readers only after the handshake and drops what arrives before ("Unknown stream
        // id"), so output sent at once can be lost and kubectl fails "closed all streams".
        QTimer::singleShot(kProcessStartMs, socket, [socket, outcome, status] {
            if (!outcome.out.empty())
                socket->sendBinaryMessage(channelMessage(ExecChannel::Stdout, outcome.out));
            if (!outcome.err.empty())
                socket->sendBinaryMessage(channelMessage(ExecChannel::Stderr, outcome.err));
            socket->sendBinaryMessage(channelMessage(ExecChannel::Error, status.dump()));
            socket->close(QWebSocketProtocol::CloseCodeNormal);
        });
    });
    return true;
}

} // namespace dra::sandbox
