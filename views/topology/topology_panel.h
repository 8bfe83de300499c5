// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QWidget>

#include "core/inventory/snapshot.h"

class QComboBox;
class QLabel;

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

class TopologyScene;
class TopologyView;

// One node's topology with a node picker, zoom, and export to PNG / SVG. The picture is built
// from the snapshot off nothing but the node's own slices, so switching nodes is instant.
class TopologyPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit TopologyPanel(QWidget *parent = nullptr);

    void reset(inventory::SnapshotPtr snapshot);
    void applyChanges(const inventory::ChangeSet &changes);

    // Shows `node`; false when the inventory has no devices there.
    bool showNode(const QString &node);
    QString currentNode() const;
    // Selects a device of the shown node (after showing its node).
    bool selectDevice(const QString &node, const QString &device);

    TopologyScene *scene() const { return m_scene; }
    TopologyView *view() const { return m_view; }

Q_SIGNALS:
    // The user picked a device in the drawing.
    void deviceSelected(const QString &node, const QString &device);

private:
    void rebuild();
    void exportTo();

    inventory::SnapshotPtr m_snapshot;
    QComboBox *m_nodes;
    QLabel *m_notes;
    TopologyScene *m_scene;
    TopologyView *m_view;
};

} // namespace dra::views
