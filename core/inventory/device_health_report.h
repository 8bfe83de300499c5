// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>

#include "core/common/object_key.h"
#include "core/inventory/device.h"

namespace dra::inventory {

// A device's health as the kubelet reports it for a container that uses it: pods'
// status.containerStatuses[].allocatedResourcesStatus[] (ResourceHealthStatus), whose entries
// for DRA are named "claim:<claim>/<request>" and list resources as "<driver>/<pool>/<device>".
struct DeviceHealthReport
{
    DeviceKey device;
    std::string health; // Healthy, Unhealthy or Unknown
    common::ObjectKey pod;
    std::string container;
    std::string claim; // the claim's name (in the pod's namespace)
    std::string request;
};

} // namespace dra::inventory
