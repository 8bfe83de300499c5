// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <vector>

#include <QString>
#include <QStringView>

#include "core/common/result.h"
#include "core/topology/topo_matrix_parser.h"

namespace dra::topology {

// One line of `nvidia-smi --query-gpu=index,pci.bus_id,uuid --format=csv`.
struct GpuIdentity
{
    int index = -1;
    QString pciBusId; // normalised: "0000:15:00.0"
    QString uuid; // "GPU-..."
};

// Parses the query output with or without its header line (`--format=csv,noheader`), with or
// without units (`nounits`), columns in any order when the header names them. Errors name
// `source` and the line. Pure function, any thread.
[[nodiscard]] Result<std::vector<GpuIdentity>> parseGpuQuery(
    QStringView text, const QString &source);

// A PCI address in the kernel's form: lower-case, a 4-digit domain ("00000000:1A:00.0" from
// nvidia-smi and "0000:1a:00.0" from sysfs both become "0000:1a:00.0"). Unparsable text is
// returned trimmed and lower-cased.
QString normalizePciBusId(QStringView busId);

// What the mapping knows of one DRA GPU device on the node.
struct GpuCandidate
{
    QString device; // "gpu-3"
    QString pciBusId; // any form; normalised when compared
    QString uuid;
    std::optional<int> index; // the legacy `index` attribute, when published
};

// How a topology GPU was tied to a DRA device.
enum class MapMethod { PciBusId, Uuid, IndexAttribute, Unmapped };

// "pciBusID", "uuid", "index" or "unmapped", for JSON and text output.
QString mapMethodName(MapMethod method);

// The DRA device a `GPU<n>` of the imported matrix is, or why none could be named.
struct GpuMapping
{
    QString topoName; // "GPU0"
    int index = -1; // nvidia-smi index from the name
    QString device; // DRA device name; empty when unmapped
    MapMethod method = MapMethod::Unmapped;
    QString note; // why unmapped, or what was matched
};

// Maps every GPU of `matrix` to a candidate: through `query` by bus ID, then UUID, when given;
// otherwise by a published `index` attribute. nvidia-smi indices are not the device minor in
// `gpu-<minor>`, so nothing is guessed from names. Pure function, any thread.
std::vector<GpuMapping> mapGpus(const TopoMatrix &matrix, const std::vector<GpuIdentity> *query,
    const std::vector<GpuCandidate> &candidates);

} // namespace dra::topology
