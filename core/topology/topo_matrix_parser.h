// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <QString>
#include <QStringList>
#include <QStringView>

#include "core/common/result.h"

namespace dra::topology {

// How two endpoints of `nvidia-smi topo -m` are connected, nearest first. Old drivers print
// SOC for what newer ones call SYS; both parse to Sys.
enum class LinkKind { NV, PIX, PXB, PHB, Node, Sys };

// "NV", "PIX", "PXB", "PHB", "NODE" or "SYS", as nvidia-smi prints the kind.
QString linkKindName(LinkKind kind);

// One row or column of the matrix.
struct TopoDevice
{
    enum class Kind { Gpu, Nic };
    QString name; // "GPU0", "NIC3", or "mlx5_0" on older drivers
    Kind kind = Kind::Gpu;
    QString cpuAffinity; // "0-55,112-167"; empty when absent, empty or N/A
    QString numaAffinity; // as printed ("0", "0-1"); empty when absent, empty or N/A
    std::optional<int> numaNode; // numaAffinity when it is a single node
    std::optional<int> gpuNumaId; // the GPU NUMA ID column (HBM exposed as a node), when numeric
    int line = 0; // 1-based line of the row; 0 when the matrix has no row for it
};

// The connection between two devices as the matrix prints it; `count` is the number of bonded
// NVLinks for NV and 0 otherwise. `from` precedes `to` in column order.
struct TopoLink
{
    QString from, to;
    LinkKind kind = LinkKind::Sys;
    int count = 0;
};

// A parsed `nvidia-smi topo -m`: devices in column order, one link per unordered pair, the
// NIC legend (NIC0 -> mlx5_0) and warnings about tolerated irregularities. A plain value.
struct TopoMatrix
{
    std::vector<TopoDevice> devices;
    std::vector<TopoLink> links;
    std::vector<std::pair<QString, QString>> nicLegend;
    QStringList warnings;

    const TopoDevice *device(QStringView name) const;
    const TopoLink *link(QStringView a, QStringView b) const;
    // The interface name the NIC legend gives `nic` ("mlx5_0"), or empty.
    QString nicInterface(QStringView nic) const;
};

// Parses `nvidia-smi topo -m` output as real captures have it: tab-separated or space-aligned,
// with ANSI colour escapes, leading shell lines, the legend, the NIC legend, old-driver columns
// (no NUMA columns, mlx5_N NIC columns, SOC) and empty or N/A affinity. Errors name `source`,
// the line and the reason (ragged row, unknown cell). Pure function, any thread.
[[nodiscard]] Result<TopoMatrix> parseTopoMatrix(QStringView text, const QString &source);

} // namespace dra::topology
