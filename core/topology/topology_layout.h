// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Where everything of a node's topology goes on a drawing: one layout, drawn by the desktop's
// scene, written as SVG by `dractl topology -o svg` and the console's export, and sent to the
// web console as JSON, so every face shows the same picture.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <QString>

#include <nlohmann/json_fwd.hpp>

#include "core/topology/node_topology.h"

namespace dra::topology {

// Sizes of the drawing, in drawing units (pixels at 100 %).
namespace layout_metrics {
inline constexpr double gpuWidth = 176, gpuHeight = 108, migStripHeight = 28;
inline constexpr double nicWidth = 128, nicHeight = 46;
inline constexpr double gap = 16, groupPadding = 12, groupLabel = 22;
inline constexpr int gpusPerRow = 4;
} // namespace layout_metrics

struct LayoutPoint
{
    double x = 0, y = 0;
    bool operator==(const LayoutPoint &) const = default;
};

struct LayoutRect
{
    double x = 0, y = 0, w = 0, h = 0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
    LayoutPoint topCenter() const { return { x + w / 2, y }; }
    LayoutPoint bottomCenter() const { return { x + w / 2, y + h }; }
    bool contains(const LayoutRect &other) const;
    bool operator==(const LayoutRect &) const = default;
};

// What a device's fill says.
enum class DeviceFill {
    Free,
    Held, // by LayoutDevice::claim
    PartlyHeld, // a GPU whose MIG devices are partly held
    Unmapped, // an imported GPU or NIC no DRA device maps to
    Blocked, // a MIG placement taken by a held sibling or the parent
};

// "free", "held", "partly-held", "unmapped", "blocked".
const char *deviceFillName(DeviceFill fill);

// A NUMA node or PCIe root frame.
struct LayoutFrame
{
    enum class Kind { Numa, PcieRoot };
    Kind kind = Kind::Numa;
    QString label, detail; // "NUMA 0", "CPUs 0-55"; "pci0000:15", ""
    LayoutRect rect;
};

// A GPU, MIG device or NIC box.
struct LayoutDevice
{
    enum class Kind { Gpu, Mig, Nic };
    Kind kind = Kind::Gpu;
    size_t index = 0; // into NodeTopology::gpus or ::nics
    size_t mig = 0; // Mig: into that GPU's migs
    QString endpoint; // GpuNode/NicNode::name, what links name
    QString device; // the DRA device; empty when unmapped
    QString title, subtitle, holder; // the lines drawn in the box
    QString tooltip; // one plain-text line with what the box cannot show
    DeviceFill fill = DeviceFill::Free;
    QString claim; // Held: the claim ("ns/name"), whose colour a drawing may use
    bool selectable = false; // a box the user can pick: it is a DRA device
    LayoutRect rect;
};

// A link drawn: an NVLink arc between two GPUs, a GPU's drop to the NVSwitch fabric, or the
// PCIe path from a GPU down to a NIC on the same switch.
struct LayoutLink
{
    enum class Shape { Line, Arc };
    Shape shape = Shape::Line;
    QString from, to; // endpoints; `to` is "fabric" for a drop to the NVSwitch bar
    LinkKind kind = LinkKind::NV;
    int count = 0;
    LinkSource source = LinkSource::Attribute;
    LayoutPoint start, end, control1, control2; // Arc: a cubic Bézier from start to end
    double width = 1; // stroke width
    QString label; // "NV18" above an arc; empty otherwise
    LayoutPoint labelAt; // top-left of the label
    QString tooltip;
};

// The NVSwitch bar, when every GPU pair is linked alike: one bar and one drop per GPU instead
// of n·(n-1)/2 crossing lines.
struct LayoutFabric
{
    LayoutRect rect;
    int count = 0; // NVLinks per GPU pair
    LinkSource source = LinkSource::Inferred;
    QString label;
};

// The whole drawing of one node. Coordinates are rounded to hundredths, so every face that
// prints them prints the same digits.
struct TopologyLayout
{
    QString node;
    bool imported = false; // links from an imported `nvidia-smi topo -m`
    LayoutRect bounds; // everything drawn, with a margin
    std::vector<LayoutFrame> frames; // NUMA frames, then the PCIe roots inside them
    std::vector<LayoutDevice> devices; // GPUs each followed by its MIG devices, then NICs
    std::optional<LayoutFabric> fabric;
    std::vector<LayoutLink> links; // drops to the fabric, arcs, PCIe lines, in drawing order
    QString emptyText; // set when the node has no device to draw
};

// Lays out `topology`: NUMA nodes as columns, PCIe roots as frames inside them, up to four GPUs
// a row with their MIG devices along the bottom at their memory slices (overlapping dynamic-MIG
// placements in lanes), NICs under the GPUs of their root; NVLink as an NVSwitch bar when every
// GPU pair is linked alike, else as arcs over the boxes with their counts; GPU-to-NIC PCIe
// switches (PIX, PXB) as lines. Devices without NUMA or root information go to "?" frames
// rather than where the data does not say. Pure function, any thread.
TopologyLayout layoutTopology(const NodeTopology &topology);

// The layout as JSON (`dractl topology NODE -o layout-json`): node, imported, bounds, frames,
// devices, fabric, links, with names for kinds, fills, shapes and sources.
nlohmann::json toJson(const TopologyLayout &layout);

// The layout as a standalone SVG document, written as text (no Qt Gui): a title line, the
// drawing (fills by allocation; links solid when imported, dotted from attributes, dashed when
// inferred; each box and link with a <title> tooltip) and a legend. What `dractl topology -o
// svg` prints and the console's export writes, byte for byte. Pure function, any thread.
QString toSvg(const TopologyLayout &layout);

} // namespace dra::topology
