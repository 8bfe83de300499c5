// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <span>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/common/result.h"
#include "core/model/object.h"
#include "core/topology/gpu_map.h"
#include "core/topology/topo_matrix_parser.h"

namespace dra::inventory {
class Snapshot;
} // namespace dra::inventory

namespace dra::topology {

// Where a link comes from: the imported `nvidia-smi topo -m` (a measurement), device attributes
// (same PCIe root), or an inference from the product (an SXM baseboard has NVSwitch). Output
// always says which, so a guess is never shown as a fact.
enum class LinkSource { Imported, Attribute, Inferred };

// "imported", "attribute" or "inferred".
QString linkSourceName(LinkSource source);

// Who holds a device: the claim ("ns/name") and the pods it is reserved for.
struct Holder
{
    QString claim;
    QStringList pods;
    bool isHeld() const { return !claim.isEmpty(); }
};

// A MIG device (static or a dynamic-MIG placement) inside its parent GPU.
struct MigDevice
{
    QString device; // DRA device name
    QString profile; // "1g.10gb"
    QString uuid; // empty for abstract dynamic-MIG placements
    QString memory; // capacity as a quantity, "9728Mi"
    int sliceStart = -1; // first memory slice; -1 when the slices are not published
    int sliceCount = 0;
    Holder holder;
    bool free = false; // not held, and none of its slices is taken by a held sibling or the parent
};

// A physical GPU: from the node's ResourceSlices, from the imported matrix, or both.
struct GpuNode
{
    QString name; // endpoint name: "GPU0" when tied to the imported matrix, else the DRA device
    QString device; // DRA device; empty for an imported GPU that no DRA device maps to
    QString driver, pool;
    QString model, memory, uuid, pciBusId, pcieRoot;
    std::optional<int> numa;
    std::optional<int> index; // the legacy `index` attribute (driver v25.3), nvidia-smi's numbering
    QString cpuAffinity; // from the imported matrix
    MapMethod mapping = MapMethod::Unmapped;
    QString mappingNote; // why unmapped, or what matched; empty without an import
    int memorySlices = 0; // 0 when unknown
    std::vector<MigDevice> migs;
    Holder holder;
};

// A device of another driver (NICs of dra.net, SR-IOV, ...) or a NIC column of the import.
struct NicNode
{
    QString name; // DRA device, or "NIC0" for an imported column
    QString device; // DRA device; empty for an imported NIC
    QString driver, pool;
    QString interfaceName; // ifName attribute or the NIC legend ("mlx5_0")
    QString pciBusId, pcieRoot;
    std::optional<int> numa;
    Holder holder;
};

// An edge between two endpoint names (GpuNode::name / NicNode::name); count is the number of
// bonded NVLinks for NV, 0 when not known.
struct Link
{
    QString from, to;
    LinkKind kind = LinkKind::Sys;
    int count = 0;
    LinkSource source = LinkSource::Attribute;
};

struct PcieRootNode
{
    QString name; // "pci0000:15"
    std::optional<int> numa;
    QStringList gpus, nics; // endpoint names
};

struct NumaNode
{
    int id = 0;
    QString cpuAffinity; // from the imported matrix, when known
    QStringList pcieRoots, gpus, nics;
};

// The per-node picture: GPUs with their MIG devices, other drivers' devices, PCIe roots, NUMA
// nodes and links, with the allocation overlay and notes on what is missing. A plain value.
struct NodeTopology
{
    QString node;
    bool imported = false;
    std::vector<GpuNode> gpus;
    std::vector<NicNode> nics;
    std::vector<PcieRootNode> pcieRoots;
    std::vector<NumaNode> numa;
    std::vector<Link> links;
    QStringList notes;

    const GpuNode *gpu(QStringView name) const;
};

// What the build may use besides the cluster objects.
struct TopologyInputs
{
    const TopoMatrix *imported = nullptr; // `dractl topology import` text, parsed
    const std::vector<GpuIdentity> *gpuQuery = nullptr; // `--gpus` listing, parsed
};

// Builds the graph of `node` from the ResourceSlices among `objects` (slices of other nodes and
// other kinds are skipped) and overlays the allocations of the ResourceClaims among them. Pure
// function over its inputs, any thread.
NodeTopology buildNodeTopology(
    const QString &node, std::span<const model::Object> objects, const TopologyInputs &inputs = {});

// Marks which claim holds each GPU, MIG device and NIC of `topology`, and which MIG placements
// are still free. Called by buildNodeTopology; public for a live view that re-applies claims.
void overlayAllocations(NodeTopology &topology, std::span<const model::Object> claims);

// The graph of `node` from an inventory snapshot: the node's current ResourceSlices (decoded on
// demand) and the snapshot's holders for the overlay. Fails only when a slice no longer decodes.
// Any thread.
[[nodiscard]] Result<NodeTopology> buildNodeTopology(
    const QString &node, const inventory::Snapshot &snapshot, const TopologyInputs &inputs = {});

// The overlay from the holders of an inventory snapshot, for a view that follows the live
// inventory: the first claim holding a device names it, the pods of all of them are listed.
void overlayAllocations(NodeTopology &topology, const inventory::Snapshot &snapshot);

} // namespace dra::topology
