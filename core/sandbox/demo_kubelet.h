// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// The kubelets of every demo node: a pod bound for `startDelayMs` starts. Its DRA claims get
// status.devices with the device's uuid from the ResourceSlice (as the NVIDIA driver publishes
// it), the pod gets phase Running, a loopback podIP of its own, started and ready containers
// with the health of their devices, Ready conditions and Normal Started Events. Faults
// driver-prepare-fails, wrong-device, unhealthy-device and never-ready act here.
class DemoKubelet final
{
public:
    explicit DemoKubelet(int64_t startDelayMs);

    void reconcile(ControlPass &pass);

private:
    void start(ControlPass &pass, nlohmann::json &pod);
    void failPrepare(
        ControlPass &pass, nlohmann::json &pod, const std::vector<nlohmann::json> &claims);
    void publishDevices(ControlPass &pass, const nlohmann::json &pod, nlohmann::json claim);
    void setReadiness(ControlPass &pass, nlohmann::json &pod);
    // Each container's allocatedResourcesStatus: the health of the devices of its claims, as
    // the kubelet reports what the driver's health service says (Unhealthy under the
    // unhealthy-device fault).
    void reportHealth(ControlPass &pass, nlohmann::json &pod);
    std::string nextPodIp();

    int64_t m_startDelayMs;
    int m_ipBlock; // the second octet of every podIP this instance hands out: 127.<block>.x.y,
                   // above the twins of preset pods (127.16-127.x.y)
    int m_ipCount = 0;
    std::set<std::string> m_prepareFailedReported; // pod uids
};

// Whether `ip` is one of the loopback pod addresses the demo kubelet hands out.
bool isDemoPodIp(const std::string &ip);
// Where a demo pod with address `ip` answers on this machine: the kubelet's loopback addresses
// as they are, and a preset pod's address in its node's podCIDR (100.64.0.0/10) on a loopback
// twin (127.16-127.x.y, fixed for this process); empty for any other address.
std::string podLoopbackAddress(const std::string &ip);

} // namespace dra::sandbox
