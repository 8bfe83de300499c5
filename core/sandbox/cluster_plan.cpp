// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/cluster_plan.h"

#include <array>
#include <cstdio>

namespace dra::sandbox {

namespace {

// Root-complex buses of a two-socket server with four host bridges carrying accelerators.
constexpr std::array<int, 4> kRootBuses = { 0x15, 0x48, 0x97, 0xc8 };

std::string busId(int bus)
{
    char text[16];
    std::snprintf(text, sizeof text, "0000:%02x:00.0", bus & 0xff);
    return text;
}

} // namespace

PciePlacement pciePlacement(const NodeShape &shape, int minor)
{
    const int perRoot = shape.gpus / shape.pcieRoots;
    const int root = minor / perRoot;
    const int slot = minor % perRoot;
    const int rootBus = kRootBuses[size_t(root) % kRootBuses.size()];
    char rootText[16];
    std::snprintf(rootText, sizeof rootText, "pci0000:%02x", rootBus);
    // Behind each root a PCIe switch: the NIC and its GPU sit on neighbouring buses.
    return PciePlacement { rootText, busId(rootBus + 3 + 2 * slot), busId(rootBus + 2 + 2 * slot),
        rootBus + 2 + 2 * slot, root * shape.numaNodes / shape.pcieRoots };
}

std::string nodeInternalIp(int ordinal)
{
    return "10.64." + std::to_string(ordinal / 250) + '.' + std::to_string(ordinal % 250 + 4);
}

std::string podSubnetPrefix(int nodeOrdinal)
{
    return "100." + std::to_string(64 + nodeOrdinal / 256 % 64) + '.'
        + std::to_string(nodeOrdinal % 256);
}

std::string podIp(int nodeOrdinal, int podIndex)
{
    return podSubnetPrefix(nodeOrdinal) + '.' + std::to_string(podIndex % 250 + 2);
}

const NodeShape &h100Shape()
{
    static const NodeShape shape { &h100Sxm(), 8, 4, 2, true, false, "p5.48xlarge", 192,
        "2097152Mi" };
    return shape;
}

const NodeShape &a100MigShape()
{
    static const NodeShape shape { &a100Sxm80(), 8, 4, 2, false, true, "p4de.24xlarge", 96,
        "1179648Mi" };
    return shape;
}

const NodeShape &l40sShape()
{
    static const NodeShape shape { &l40sPcie(), 4, 4, 2, false, false, "g6e.12xlarge", 48,
        "393216Mi" };
    return shape;
}

} // namespace dra::sandbox
