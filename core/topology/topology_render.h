// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include <nlohmann/json_fwd.hpp>

#include "core/topology/node_topology.h"

namespace dra::topology {

// The `dractl topology NODE -o json` document: `devices` (GPUs with the DRA device each maps
// to, MIG devices and holders), `numa`, `pcieRoots`, `nics`, `links` as
// {"from","to","kind","count","source"} with endpoint names as the imported text names them,
// and `notes`. Pure function, any thread.
nlohmann::json toJson(const NodeTopology &topology);

// Graphviz text: NUMA nodes and PCIe roots as clusters, links solid (imported), dotted
// (attribute) or dashed (inferred). Pure function, any thread.
QString toDot(const NodeTopology &topology);

// A plain-text tree for terminals: NUMA > PCIe root > GPU > MIG, NICs, links, notes.
QString toText(const NodeTopology &topology);

// A standalone SVG document written as text (no Qt Gui): toSvg() of layoutTopology(), the
// drawing the console shows and exports. Pure function, any thread.
QString toSvg(const NodeTopology &topology);

} // namespace dra::topology
