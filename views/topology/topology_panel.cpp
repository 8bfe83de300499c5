// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/inventory/snapshot_builder.h"
#include "core/topology/node_topology.h"
#include "views/topology/topology_scene.h"
#include "views/topology/topology_view.h"

namespace dra::views {

TopologyPanel::TopologyPanel(QWidget *parent)
    : QWidget(parent)
    , m_nodes(new QComboBox(this))
    , m_notes(new QLabel(this))
    , m_scene(new TopologyScene(this))
    , m_view(new TopologyView(m_scene, this))
{
    m_notes->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    m_nodes->setEditable(true); // type to find one node of thousands
    m_nodes->setInsertPolicy(QComboBox::NoInsert);
    m_nodes->setMinimumContentsLength(24);
    m_notes->setWordWrap(true);

    auto button = [this](const QString &text, const QString &tip, auto slot) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Node"), this));
    bar->addWidget(m_nodes);
    bar->addWidget(button(QStringLiteral("−"), QStringLiteral("Zoom out (Ctrl+wheel)"),
        [this] { m_view->zoomBy(1 / 1.25); }));
    bar->addWidget(button(QStringLiteral("+"), QStringLiteral("Zoom in (Ctrl+wheel)"),
        [this] { m_view->zoomBy(1.25); }));
    bar->addWidget(button(QStringLiteral("Fit"), QStringLiteral("Fit the drawing to the window"),
        [this] { m_view->fitAll(); }));
    bar->addWidget(button(
        QStringLiteral("Export…"), QStringLiteral("Save as PNG or SVG"), [this] { exportTo(); }));
    bar->addStretch(1);
    // On a line of its own and wrapping, so it never sets the window's width; in the text
    // colour, since greyed-out (disabled) text is too faint to read.
    auto *legend
        = new QLabel(QStringLiteral("Solid links: imported or published · dashed: inferred · "
                                    "green: free · coloured: held by a claim"),
            this);
    legend->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(legend);
    layout->addWidget(m_notes);
    layout->addWidget(m_view, 1);

    connect(m_nodes, &QComboBox::currentTextChanged, this, &TopologyPanel::rebuild);
    connect(m_scene, &TopologyScene::deviceSelected, this,
        [this](const QString &device) { Q_EMIT deviceSelected(currentNode(), device); });
}

void TopologyPanel::reset(inventory::SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    const QString current = currentNode();
    QSignalBlocker block(m_nodes);
    m_nodes->clear();
    if (m_snapshot)
        for (const std::string &node : m_snapshot->deviceNodes())
            m_nodes->addItem(QString::fromStdString(node));
    const int index = m_nodes->findText(current);
    m_nodes->setCurrentIndex(index >= 0 ? index : 0);
    block.unblock();
    rebuild();
    m_view->fitAll();
}

void TopologyPanel::applyChanges(const inventory::ChangeSet &changes)
{
    if (!changes.snapshot)
        return;
    const bool nodesMoved = !changes.devicesAdded.empty() || !changes.devicesRemoved.empty();
    if (nodesMoved) {
        reset(changes.snapshot);
        return;
    }
    m_snapshot = changes.snapshot;
    if (changes.allocationsChanged || !changes.devicesChanged.empty())
        rebuild(); // the overlay follows allocations live
}

bool TopologyPanel::showNode(const QString &node)
{
    const int index = m_nodes->findText(node);
    if (index < 0)
        return false;
    m_nodes->setCurrentIndex(index);
    return true;
}

QString TopologyPanel::currentNode() const
{
    return m_nodes->currentText();
}

bool TopologyPanel::selectDevice(const QString &node, const QString &device)
{
    return showNode(node) && m_scene->selectDevice(device);
}

void TopologyPanel::rebuild()
{
    if (!m_snapshot || currentNode().isEmpty()) {
        m_scene->setTopology({});
        m_notes->clear();
        return;
    }
    // As `dractl topology NODE` builds it from the same snapshot, so an export of this node is
    // the drawing dractl prints.
    Result<topology::NodeTopology> built = topology::buildNodeTopology(currentNode(), *m_snapshot);
    if (!built) {
        m_notes->setText(built.error().message);
        m_scene->setTopology({});
        return;
    }
    topology::NodeTopology topology = std::move(*built);
    m_notes->setText(topology.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!topology.notes.isEmpty());
    m_scene->setTopology(std::move(topology));
}

void TopologyPanel::exportTo()
{
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export topology"),
        currentNode() + QStringLiteral(".svg"), QStringLiteral("SVG (*.svg);;PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (Result<void> written = exportScene(*m_scene, path); !written)
        QMessageBox::warning(this, QStringLiteral("Export topology"), written.error().message);
}

} // namespace dra::views
