// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The core/v1 objects the console needs around DRA: what a node offers, which pod uses
// which claim, and the events that explain a Pending pod.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/object_meta.h"

namespace dra::model {

struct NodeCondition
{
    std::string type, status, reason, message;
};

struct Node
{
    StringPairs capacity; // resource name -> quantity text ("nvidia.com/gpu": "8")
    StringPairs allocatable;
    std::vector<NodeCondition> conditions;
    bool unschedulable = false;
    std::string kubeletVersion, osImage, containerRuntimeVersion, architecture;

    // "Ready", "NotReady", "Unknown", plus ",SchedulingDisabled" as kubectl prints it.
    std::string status() const;
    // The device-plugin GPUs this node advertises (`nvidia.com/gpu` capacity), 0 if none.
    int64_t devicePluginGpus() const;
};

struct PodResourceClaim
{
    std::string name, resourceClaimName, resourceClaimTemplateName;
};

struct PodResourceClaimStatus
{
    std::string name, resourceClaimName;
};

struct PodContainer
{
    std::string name, image;
    StringPairs requests, limits;
    std::vector<std::string> claims; // resources.claims[].name
};

struct Pod
{
    std::string nodeName;
    StringPairs nodeSelector;
    std::string phase;
    std::vector<PodContainer> containers;
    std::vector<PodResourceClaim> resourceClaims;
    std::vector<PodResourceClaimStatus> resourceClaimStatuses;
    std::vector<NodeCondition> conditions;

    bool ready() const;
    // Sum of `nvidia.com/gpu` limits over containers: what the device plugin hands out.
    int64_t devicePluginGpus() const;
};

struct Namespace
{
    std::string phase;
};

struct EventSource
{
    std::string kind, ns, name, uid, apiVersion;
};

struct Event
{
    EventSource involvedObject;
    std::string reason, message, type, reportingController;
    int64_t count = 0;
    std::string firstTimestamp, lastTimestamp, eventTime;
};

} // namespace dra::model
