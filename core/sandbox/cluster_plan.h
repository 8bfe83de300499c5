// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/sandbox/gpu_models.h"

namespace dra::sandbox {

// The hardware of one kind of GPU server: how many GPUs, how they hang off PCIe roots and NUMA
// nodes, whether each GPU has a NIC beside it, and whether the driver partitions it (MIG).
struct NodeShape
{
    const GpuModel *model = nullptr;
    int gpus = 0;
    int pcieRoots = 0;
    int numaNodes = 0;
    bool nicPerGpu = false;
    bool mig = false;
    std::string_view instanceType;
    int cpus = 0;
    std::string_view memory; // node memory capacity as the kubelet reports it
};

// Who manages a node's GPUs: the DRA driver (slices) or the classic device plugin (a count).
enum class GpuStack { Dra, DevicePlugin };

// One node of the generated cluster, decided before any object is written so that slices,
// claims and pods all agree on names.
struct NodePlan
{
    std::string name;
    const NodeShape *shape = nullptr;
    GpuStack stack = GpuStack::Dra;
    int ordinal = 0; // position in the whole cluster, drives IPs and zones
};

// PCIe placement of GPU `minor` (and of its NIC) on a node of `shape`.
struct PciePlacement
{
    std::string pcieRoot; // "pci0000:15"
    std::string gpuBusId; // "0000:18:00.0"
    std::string nicBusId; // "0000:17:00.0"
    int nicBus = 0;
    int numaNode = 0;
};
PciePlacement pciePlacement(const NodeShape &shape, int minor);

// The InternalIP of the node at `ordinal`; pods on it get addresses from its podCIDR.
std::string nodeInternalIp(int ordinal);
// A node's pod network, a /24 of the carrier-grade NAT range 100.64.0.0/10 as "100.X.Y" (one per
// node for 16,384 nodes, then reused); its pods' addresses are within it.
std::string podSubnetPrefix(int nodeOrdinal);
std::string podIp(int nodeOrdinal, int podIndex);

const NodeShape &h100Shape();
const NodeShape &a100MigShape();
const NodeShape &l40sShape();

// A whole generated cluster's nodes, in output order.
using ClusterPlan = std::vector<NodePlan>;

} // namespace dra::sandbox
