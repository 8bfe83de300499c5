// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_scene.h"

#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextDocument>

#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include "core/topology/topology_render.h"
#include "views/topology/topology_view.h"

namespace dra::views {
namespace {

using topology::LinkKind;
using topology::LinkSource;

topology::GpuNode gpu(const QString &name, int numa, const QString &root)
{
    topology::GpuNode node;
    node.name = name;
    node.device = name;
    node.model = QStringLiteral("NVIDIA H100 80GB HBM3");
    node.memory = QStringLiteral("80Gi");
    node.numa = numa;
    node.pcieRoot = root;
    return node;
}

// Four GPUs on two NUMA nodes, every pair joined by NV18: an NVSwitch baseboard.
topology::NodeTopology fabricNode(LinkSource source)
{
    topology::NodeTopology topo;
    topo.node = QStringLiteral("h100-000");
    topo.gpus = { gpu(QStringLiteral("gpu-0"), 0, QStringLiteral("pci0000:15")),
        gpu(QStringLiteral("gpu-1"), 0, QStringLiteral("pci0000:15")),
        gpu(QStringLiteral("gpu-2"), 1, QStringLiteral("pci0000:9a")),
        gpu(QStringLiteral("gpu-3"), 1, QStringLiteral("pci0000:9a")) };
    for (size_t i = 0; i < topo.gpus.size(); ++i)
        for (size_t j = i + 1; j < topo.gpus.size(); ++j)
            topo.links.push_back(
                { topo.gpus[i].name, topo.gpus[j].name, LinkKind::NV, 18, source });
    return topo;
}

std::vector<QGraphicsItem *> itemsOfKind(const QGraphicsScene &scene, TopologyScene::ItemKind kind)
{
    std::vector<QGraphicsItem *> items;
    for (QGraphicsItem *item : scene.items())
        if (item->data(TopologyScene::ItemKindKey).toInt() == kind)
            items.push_back(item);
    return items;
}

TEST(TopologySceneTest, UniformNvlinkMeshIsDrawnAsOneFabricWithOneLinePerGpu)
{
    TopologyScene scene;
    scene.setTopology(fabricNode(LinkSource::Imported));
    EXPECT_EQ(itemsOfKind(scene, TopologyScene::GpuItem).size(), 4u);
    ASSERT_EQ(itemsOfKind(scene, TopologyScene::FabricItem).size(), 1u);
    EXPECT_EQ(itemsOfKind(scene, TopologyScene::LinkItem).size(), 4u); // not the 6 pairs
    // Two NUMA frames and two PCIe-root frames.
    EXPECT_EQ(itemsOfKind(scene, TopologyScene::GroupItem).size(), 4u);
}

// What a tooltip shows: Qt renders it as rich text when it looks like markup.
QString renderedToolTip(const QString &toolTip)
{
    if (!Qt::mightBeRichText(toolTip))
        return toolTip;
    QTextDocument document;
    document.setHtml(toolTip);
    return document.toPlainText();
}

// Names and attribute values come from ResourceSlices anyone who may publish one writes:
// markup in them is shown as text, never rendered.
TEST(TopologySceneTest, MarkupInNamesAndAttributesIsShownAsText)
{
    const QString name = QStringLiteral("<b>x</b><script>alert(1)</script>");
    topology::NodeTopology topo = fabricNode(LinkSource::Imported);
    topo.links.pop_back(); // pair by pair, so every link has its own tooltip
    for (topology::GpuNode &node : topo.gpus) {
        node.model = QStringLiteral("<i>H100</i>");
        node.uuid = name;
    }
    topo.gpus[0].name = topo.gpus[0].device = name;
    for (topology::Link &link : topo.links) {
        if (link.from == QLatin1String("gpu-0"))
            link.from = name;
    }
    TopologyScene scene;
    scene.setTopology(topo);
    int gpus = 0, links = 0;
    for (QGraphicsItem *item : itemsOfKind(scene, TopologyScene::GpuItem)) {
        ++gpus;
        EXPECT_TRUE(renderedToolTip(item->toolTip()).contains(name))
            << item->toolTip().toStdString();
        EXPECT_TRUE(renderedToolTip(item->toolTip()).contains(QStringLiteral("<i>H100</i>")));
    }
    for (QGraphicsItem *item : itemsOfKind(scene, TopologyScene::LinkItem)) {
        if (!item->toolTip().contains(QStringLiteral("script")))
            continue;
        ++links;
        EXPECT_TRUE(renderedToolTip(item->toolTip()).contains(name))
            << item->toolTip().toStdString();
    }
    EXPECT_EQ(gpus, 4);
    EXPECT_GT(links, 0);
}

TEST(TopologySceneTest, InferredLinksAreMarkedAsInferred)
{
    TopologyScene scene;
    scene.setTopology(fabricNode(LinkSource::Inferred));
    for (QGraphicsItem *item : itemsOfKind(scene, TopologyScene::LinkItem)) {
        EXPECT_EQ(item->data(TopologyScene::LinkSourceKey).toString(), QStringLiteral("inferred"));
        auto *line = dynamic_cast<QGraphicsLineItem *>(item);
        ASSERT_NE(line, nullptr);
        EXPECT_EQ(line->pen().style(), Qt::DashLine);
    }
}

TEST(TopologySceneTest, UnevenLinksAreDrawnPairByPairWithTheirCounts)
{
    topology::NodeTopology topo = fabricNode(LinkSource::Imported);
    topo.links.pop_back(); // gpu-2 ↔ gpu-3 missing: no uniform fabric
    topo.links.front().count = 4;
    TopologyScene scene;
    scene.setTopology(topo);
    EXPECT_TRUE(itemsOfKind(scene, TopologyScene::FabricItem).empty());
    const auto links = itemsOfKind(scene, TopologyScene::LinkItem);
    ASSERT_EQ(links.size(), 5u);
    bool sawFour = false;
    for (QGraphicsItem *link : links)
        sawFour = sawFour || link->toolTip().contains(QStringLiteral("NV4"));
    EXPECT_TRUE(sawFour);
}

TEST(TopologySceneTest, MigDevicesSitInsideTheirParentAtTheirSlices)
{
    topology::NodeTopology topo;
    topo.node = QStringLiteral("a100-000");
    topology::GpuNode parent = gpu(QStringLiteral("gpu-0"), 0, QStringLiteral("pci0000:00"));
    parent.memorySlices = 8;
    topology::MigDevice left { QStringLiteral("gpu-0-mig-1g-0"), QStringLiteral("1g.10gb"), {},
        QStringLiteral("9728Mi"), 0, 1, {}, true };
    topology::MigDevice right { QStringLiteral("gpu-0-mig-3g-4"), QStringLiteral("3g.40gb"), {},
        QStringLiteral("39Gi"), 4, 4, {}, false };
    right.holder.claim = QStringLiteral("ml/train-0");
    parent.migs = { left, right };
    topo.gpus = { parent };
    TopologyScene scene;
    scene.setTopology(topo);
    const auto migs = itemsOfKind(scene, TopologyScene::MigItem);
    ASSERT_EQ(migs.size(), 2u);
    QGraphicsItem *gpuItem = itemsOfKind(scene, TopologyScene::GpuItem).front();
    for (QGraphicsItem *mig : migs) {
        EXPECT_EQ(mig->parentItem(), gpuItem);
        EXPECT_TRUE(gpuItem->sceneBoundingRect().contains(mig->sceneBoundingRect()));
    }
    // The 4-slice device is four times as wide as the 1-slice one and starts at slice 4.
    QGraphicsItem *one
        = migs[0]->data(TopologyScene::DeviceKey).toString().contains(QStringLiteral("1g"))
        ? migs[0]
        : migs[1];
    QGraphicsItem *four = one == migs[0] ? migs[1] : migs[0];
    const QRectF oneRect = dynamic_cast<QGraphicsRectItem *>(one)->rect();
    const QRectF fourRect = dynamic_cast<QGraphicsRectItem *>(four)->rect();
    EXPECT_NEAR(fourRect.width(), 4 * oneRect.width(), 0.01);
    EXPECT_NEAR(fourRect.left() - oneRect.left(), 4 * oneRect.width(), 0.01);
    EXPECT_TRUE(four->toolTip().contains(QStringLiteral("ml/train-0")));
}

TEST(TopologySceneTest, SelectionGoesBothWays)
{
    TopologyScene scene;
    scene.setTopology(fabricNode(LinkSource::Imported));
    QSignalSpy spy(&scene, &TopologyScene::deviceSelected);
    EXPECT_TRUE(scene.selectDevice(QStringLiteral("gpu-2")));
    EXPECT_EQ(scene.selectedDevice(), QStringLiteral("gpu-2"));
    EXPECT_EQ(spy.count(), 0) << "a selection made by another view is not echoed back";
    EXPECT_FALSE(scene.selectDevice(QStringLiteral("gpu-9")));

    QGraphicsItem *gpu1 = nullptr;
    for (QGraphicsItem *item : itemsOfKind(scene, TopologyScene::GpuItem))
        if (item->data(TopologyScene::DeviceKey).toString() == QStringLiteral("gpu-1"))
            gpu1 = item;
    ASSERT_NE(gpu1, nullptr);
    scene.clearSelection();
    gpu1->setSelected(true);
    ASSERT_GE(spy.count(), 1);
    EXPECT_EQ(spy.last().at(0).toString(), QStringLiteral("gpu-1"));
}

TEST(TopologySceneTest, ExportsSvgAndPng)
{
    TopologyScene scene;
    scene.setTopology(fabricNode(LinkSource::Imported));
    QTemporaryDir dir;
    ASSERT_TRUE(exportScene(scene, dir.filePath(QStringLiteral("t.svg"))).has_value());
    QFile svg(dir.filePath(QStringLiteral("t.svg")));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    EXPECT_TRUE(text.contains("<svg"));
    EXPECT_TRUE(text.contains("gpu-3"));
    ASSERT_TRUE(exportScene(scene, dir.filePath(QStringLiteral("t.png"))).has_value());
    const QImage png(dir.filePath(QStringLiteral("t.png")));
    EXPECT_FALSE(png.isNull());
    EXPECT_GT(png.width(), 400);
    EXPECT_FALSE(exportScene(scene, QStringLiteral("/nonexistent-dir/t.png")).has_value());
}

// `dractl topology -o svg` cuts box text to its box: every line of a GPU or NIC box, measured
// in the sans-serif font the SVG asks for, ends inside the box's rectangle.
TEST(TopologySvgTextTest, EveryLineOfABoxFitsInsideIt)
{
    topology::NodeTopology topo = fabricNode(LinkSource::Inferred);
    for (topology::GpuNode &node : topo.gpus) {
        node.memory = QStringLiteral("81559Mi"); // "NVIDIA H100 80GB HBM3 · 81559Mi" overflowed
        node.holder.claim = QStringLiteral("training/finetune-llama-70b-0-devices-6sgg8");
    }
    QXmlStreamReader xml(topology::toSvg(topo));
    double boxRight = -1;
    int lines = 0, cut = 0;
    while (!xml.atEnd()) {
        const QXmlStreamReader::TokenType token = xml.readNext();
        if (token == QXmlStreamReader::EndElement && xml.name() == u"g")
            boxRight = -1;
        if (token != QXmlStreamReader::StartElement)
            continue;
        const auto attrs = xml.attributes();
        if (xml.name() == u"g") {
            const QString kind = attrs.value(QStringLiteral("class")).toString();
            boxRight = kind == u"gpu" || kind == u"nic" ? 0 : -1;
        } else if (xml.name() == u"rect" && boxRight == 0) {
            boxRight = attrs.value(QStringLiteral("x")).toDouble()
                + attrs.value(QStringLiteral("width")).toDouble();
        } else if (xml.name() == u"text" && boxRight > 0) {
            const double x = attrs.value(QStringLiteral("x")).toDouble();
            QFont font(QStringLiteral("sans-serif"));
            font.setPixelSize(12);
            font.setBold(attrs.value(QStringLiteral("font-weight")) == u"bold");
            const QString line = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            ++lines;
            cut += line.endsWith(QChar(0x2026));
            EXPECT_LE(x + QFontMetricsF(font).horizontalAdvance(line), boxRight)
                << line.toStdString();
        }
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_GE(lines, 12) << "title, subtitle and holder of four GPUs";
    EXPECT_GT(cut, 0) << "the long subtitles and holders are cut";
}

} // namespace
} // namespace dra::views
