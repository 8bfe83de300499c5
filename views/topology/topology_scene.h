// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QGraphicsScene>
#include <QString>

#include "core/topology/node_topology.h"

namespace dra::views {

// One node's GPU topology drawn as items: NUMA nodes containing PCIe roots containing GPUs
// (MIG devices inside their parent at their memory-slice placement) and NICs; NVLink drawn as
// an NVSwitch fabric when every GPU pair is linked alike, else pair by pair, with link counts;
// imported links solid, inferred ones dashed; fill colours tell free from held (by which claim).
// Every device item is selectable and carries its DRA device name. GUI thread only.
class TopologyScene final : public QGraphicsScene
{
    Q_OBJECT
public:
    // What an item shows, in QGraphicsItem::data(ItemKindKey).
    enum ItemKind { GpuItem = 1, MigItem, NicItem, LinkItem, GroupItem, FabricItem };
    enum DataKey { ItemKindKey = 0, DeviceKey = 1, EndpointKey = 2, LinkSourceKey = 3 };

    explicit TopologyScene(QObject *parent = nullptr);
    ~TopologyScene() override;

    // Replaces the picture; keeps the selected device selected when it is still there.
    void setTopology(topology::NodeTopology topology);
    const topology::NodeTopology &topology() const { return m_topology; }

    // Selects the item showing DRA device `device` (from another view); false when this node
    // has no such device. Emits deviceSelected only for selections the user makes here.
    bool selectDevice(const QString &device);
    QString selectedDevice() const;

Q_SIGNALS:
    // The user selected a device item ("" when the selection was cleared).
    void deviceSelected(const QString &device);

private:
    void rebuild();
    void onSelectionChanged();

    topology::NodeTopology m_topology;
    bool m_selectingProgrammatically = false;
};

} // namespace dra::views
