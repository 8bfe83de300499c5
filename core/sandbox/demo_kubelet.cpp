// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/demo_kubelet.h"

#include <map>

#include <QDateTime>
#include <QHashFunctions>
#include <QHostAddress>
#include <QRandomGenerator>

#include "core/model/kubelet_plugin.h"
#include "core/sandbox/controller_support.h"
#include "core/sandbox/pod_claims.h"
#include "core/sandbox/pod_exec.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

constexpr const char *kKubelet = "kubelet";

int64_t kubeTimeMs(const std::string &text)
{
    const QDateTime time = QDateTime::fromString(QString::fromStdString(text), Qt::ISODate);
    return time.isValid() ? time.toMSecsSinceEpoch() : 0;
}

// A pod of a DRA driver's kubelet plugin: its controller is a DaemonSet named as the drivers
// name theirs.
bool isDriverPluginPod(const json &pod)
{
    const json *owner = controllerOf(pod);
    return owner && owner->value("kind", "") == "DaemonSet"
        && model::isKubeletPluginName(owner->value("name", ""));
}

// When the pod was bound: PodScheduled's transition, else its creation.
int64_t boundAtMs(const json &pod)
{
    if (const json *condition = findCondition(pod, "PodScheduled"))
        if (const int64_t at = kubeTimeMs(condition->value("lastTransitionTime", "")); at > 0)
            return at;
    return kubeTimeMs(metaText(pod, "creationTimestamp"));
}

std::string nodeAddress(const ControlPass &pass, const std::string &node)
{
    const json *object = pass.view.find(model::Kind::Node, {}, node);
    if (!object)
        return {};
    for (const json &address : object->value("/status/addresses"_json_pointer, json::array())) {
        if (address.value("type", "") == "InternalIP")
            return address.value("address", "");
    }
    return {};
}

// The uuid attribute of a device as its ResourceSlice publishes it; with `other`, the uuid of
// some other device of the same driver (what a driver handing out the wrong device reports).
std::string deviceUuid(const ControlPass &pass, const std::string &driver, const std::string &pool,
    const std::string &device, bool other)
{
    std::string fallback;
    for (const json &slice : pass.view.all(model::Kind::ResourceSlice)) {
        if (textAt(slice, "/spec/driver") != driver)
            continue;
        const bool samePool = textAt(slice, "/spec/pool/name") == pool;
        for (const json &entry : slice.value("/spec/devices"_json_pointer, json::array())) {
            const bool same = samePool && entry.value("name", "") == device;
            std::string uuid = textAt(entry, "/attributes/uuid/string");
            // A MIG device gets its UUID when the driver creates it on the parent GPU.
            if (const std::string parent = textAt(entry, "/attributes/parentUUID/string");
                uuid.empty() && same && !parent.empty())
                uuid = migDeviceUuid(parent, device);
            if (uuid.empty())
                continue;
            if (same && !other)
                return uuid;
            if (!same && other && fallback.empty())
                fallback = uuid;
        }
    }
    return other ? (fallback.empty() ? "GPU-00000000-0000-0000-0000-000000000000" : fallback)
                 : std::string();
}

bool containersReady(const json &pod)
{
    return conditionTrue(pod, "ContainersReady");
}

} // namespace

bool isDemoPodIp(const std::string &ip)
{
    return ip.starts_with("127.");
}

std::string podLoopbackAddress(const std::string &ip)
{
    if (isDemoPodIp(ip))
        return ip;
    const QHostAddress address(QString::fromStdString(ip));
    bool ok = false;
    const quint32 v4 = address.toIPv4Address(&ok);
    const quint32 second = (v4 >> 16) & 0xff;
    if (!ok || (v4 >> 24) != 100 || second < 64 || second > 127)
        return {};
    // Every demo cluster on the machine seeds the same preset addresses, so the twin is spread
    // by a salt of this process over 127.16-127.x.y, below the kubelet's blocks (128-249).
    static const quint32 salt = QRandomGenerator::global()->generate();
    const quint32 h = qHash(v4, salt);
    return "127." + std::to_string(16 + h % 112) + '.' + std::to_string((h >> 8) & 0xff) + '.'
        + std::to_string(1 + (h >> 16) % 254);
}

DemoKubelet::DemoKubelet(int64_t startDelayMs)
    : m_startDelayMs(startDelayMs)
    , m_ipBlock(QRandomGenerator::global()->bounded(128, 250))
{
}

std::string DemoKubelet::nextPodIp()
{
    ++m_ipCount;
    return "127." + std::to_string(m_ipBlock) + '.' + std::to_string(m_ipCount / 250 % 250) + '.'
        + std::to_string(m_ipCount % 250 + 1);
}

void DemoKubelet::reconcile(ControlPass &pass)
{
    for (json &pod : pass.view.all(model::Kind::Pod)) {
        if (textAt(pod, "/spec/nodeName").empty()
            || !textAt(pod, "/metadata/deletionTimestamp").empty())
            continue;
        const std::string phase = textAt(pod, "/status/phase");
        if (phase == "Running" && isDemoPodIp(textAt(pod, "/status/podIP"))) {
            setReadiness(pass, pod);
            reportHealth(pass, pod);
            continue;
        }
        if (!phase.empty() && phase != "Pending")
            continue;
        const int64_t due = boundAtMs(pod) + m_startDelayMs;
        if (pass.nowMs < due) {
            pass.wakeAt(due);
            continue;
        }
        start(pass, pod);
    }
}

void DemoKubelet::start(ControlPass &pass, json &pod)
{
    const std::vector<json> claims = existingPodClaims(pass.view, pod);
    if (!claims.empty() && pass.faultHits(FaultKind::DriverPrepareFails, pod)) {
        failPrepare(pass, pod, claims);
        return;
    }
    for (const json &claim : claims)
        publishDevices(pass, pod, claim);
    const std::string now = pass.now();
    const std::string node = textAt(pod, "/spec/nodeName");
    const std::string ip = nextPodIp();
    json &status = pod["status"];
    status["phase"] = "Running";
    status["podIP"] = ip;
    status["podIPs"] = json::array({ { { "ip", ip } } });
    if (const std::string host = nodeAddress(pass, node); !host.empty()) {
        status["hostIP"] = host;
        status["hostIPs"] = json::array({ { { "ip", host } } });
    }
    status["startTime"] = now;
    json containerStatuses = json::array();
    for (const json &container : pod.value("/spec/containers"_json_pointer, json::array())) {
        const std::string name = container.value("name", "");
        containerStatuses.push_back({ { "name", name }, { "image", container.value("image", "") },
            { "imageID", container.value("image", "") },
            { "containerID", "containerd://" + stableNameSuffix(metaText(pod, "uid") + name, 32) },
            { "ready", false }, { "started", true }, { "restartCount", 0 },
            { "state", { { "running", { { "startedAt", now } } } } } });
        pass.recordEvent(pod, false, "Started", "Started container " + name, kKubelet, node);
    }
    status["containerStatuses"] = std::move(containerStatuses);
    setCondition(status, "PodReadyToStartContainers", true, {}, {}, now);
    setCondition(status, "Initialized", true, {}, {}, now);
    setReadiness(pass, pod);
    reportHealth(pass, pod);
    pass.view.put(pod);
}

void DemoKubelet::reportHealth(ControlPass &pass, json &pod)
{
    json &statuses = pod["status"]["containerStatuses"];
    if (!statuses.is_array())
        return;
    const std::string health
        = pass.faultHits(FaultKind::UnhealthyDevice, pod) ? "Unhealthy" : "Healthy";
    bool changed = false;
    for (json &status : statuses) {
        // One entry per claim and request the container uses, as the kubelet names them.
        json entries = json::array();
        for (const json &claim : existingPodClaims(pass.view, pod, status.value("name", ""))) {
            std::map<std::string, json> byRequest;
            for (const json &result :
                claim.value("/status/allocation/devices/results"_json_pointer, json::array()))
                byRequest[result.value("request", "")].push_back(
                    { { "resourceID",
                          result.value("driver", "") + "/" + result.value("pool", "") + "/"
                              + result.value("device", "") },
                        { "health", health } });
            for (auto &[request, resources] : byRequest)
                entries.push_back({ { "name", "claim:" + metaText(claim, "name") + "/" + request },
                    { "resources", std::move(resources) } });
        }
        const json before = status.value("allocatedResourcesStatus", json::array());
        if (before == entries)
            continue;
        changed = true;
        if (entries.empty())
            status.erase("allocatedResourcesStatus");
        else
            status["allocatedResourcesStatus"] = std::move(entries);
    }
    if (changed)
        pass.view.put(pod);
}

void DemoKubelet::setReadiness(ControlPass &pass, json &pod)
{
    const bool ready = !pass.faultHits(FaultKind::NeverReady, pod)
        && !(isDriverPluginPod(pod) && pass.faultHits(FaultKind::DriverNotReady, pod));
    if (containersReady(pod) == ready && findCondition(pod, "Ready"))
        return;
    json &status = pod["status"];
    std::string unready;
    for (json &container : status["containerStatuses"]) {
        container["ready"] = ready;
        unready += (unready.empty() ? "" : " ") + container.value("name", "");
    }
    const std::string now = pass.now();
    const std::string message = ready ? "" : "containers with unready status: [" + unready + "]";
    const std::string reason = ready ? "" : "ContainersNotReady";
    setCondition(status, "ContainersReady", ready, reason, message, now);
    setCondition(status, "Ready", ready, reason, message, now);
    pass.view.put(pod);
}

void DemoKubelet::failPrepare(ControlPass &pass, json &pod, const std::vector<json> &claims)
{
    json &status = pod["status"];
    json containerStatuses = json::array();
    for (const json &container : pod.value("/spec/containers"_json_pointer, json::array()))
        containerStatuses.push_back(
            { { "name", container.value("name", "") }, { "image", container.value("image", "") },
                { "ready", false }, { "started", false }, { "restartCount", 0 },
                { "state", { { "waiting", { { "reason", "ContainerCreating" } } } } } });
    status["containerStatuses"] = std::move(containerStatuses);
    setCondition(status, "PodReadyToStartContainers", false, {}, {}, pass.now());
    pass.view.put(pod);
    if (!m_prepareFailedReported.insert(metaText(pod, "uid")).second)
        return;
    const json &claim = claims.front();
    pass.recordEvent(pod, true, "FailedPrepareDynamicResources",
        "Failed to prepare dynamic resources: NodePrepareResources failed for ResourceClaim "
            + metaText(claim, "namespace") + '/' + metaText(claim, "name")
            + ": prepare devices: injected fault driver-prepare-fails: the driver could not "
              "prepare the devices",
        kKubelet, textAt(pod, "/spec/nodeName"));
}

void DemoKubelet::publishDevices(ControlPass &pass, const json &pod, json claim)
{
    const bool wrong = pass.faultHits(FaultKind::WrongDevice, pod);
    json devices = json::array();
    for (const json &result :
        claim.value("/status/allocation/devices/results"_json_pointer, json::array())) {
        const std::string driver = result.value("driver", ""), pool = result.value("pool", ""),
                          device = result.value("device", "");
        json entry = { { "driver", driver }, { "pool", pool }, { "device", device } };
        if (const std::string uuid = deviceUuid(pass, driver, pool, device, wrong); !uuid.empty())
            entry["data"] = { { "uuid", uuid } };
        devices.push_back(std::move(entry));
    }
    if (devices.empty())
        return;
    claim["status"]["devices"] = std::move(devices);
    pass.view.put(claim);
}

} // namespace dra::sandbox
