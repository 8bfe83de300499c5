// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The one layout every face draws: where boxes and links go, and its JSON form.
#include "core/topology/topology_layout.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/topology/topology_render.h"
#include "tests/core/topology/topology_fixtures.h"

using namespace dra;
using namespace dra::topology;

namespace {

NodeTopology node(const std::string &preset, const char *name)
{
    return buildNodeTopology(QString::fromLatin1(name), test::demoObjects(preset));
}

bool overlaps(const LayoutRect &a, const LayoutRect &b)
{
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

const LayoutDevice *boxOf(const TopologyLayout &layout, const QString &endpoint)
{
    for (const LayoutDevice &device : layout.devices)
        if (device.kind != LayoutDevice::Kind::Mig && device.endpoint == endpoint)
            return &device;
    return nullptr;
}

const LayoutFrame *frameAround(
    const TopologyLayout &layout, LayoutFrame::Kind kind, const LayoutRect &rect)
{
    for (const LayoutFrame &frame : layout.frames)
        if (frame.kind == kind && frame.rect.contains(rect))
            return &frame;
    return nullptr;
}

} // namespace

// Every device drawn once, inside its PCIe root inside its NUMA node, never on another.
TEST(TopologyLayoutTest, EveryDeviceOnceInsideItsRootAndNumaFrames)
{
    for (const auto &[preset, name] :
        { std::pair { "h100-sxm", "h100-000" }, std::pair { "a100-mig", "a100-mig-000" } }) {
        const NodeTopology t = node(preset, name);
        const TopologyLayout layout = layoutTopology(t);
        size_t gpus = 0, nics = 0, migs = 0;
        for (const LayoutDevice &device : layout.devices) {
            EXPECT_TRUE(layout.bounds.contains(device.rect)) << device.endpoint.toStdString();
            if (device.kind == LayoutDevice::Kind::Mig) {
                ++migs;
                const LayoutDevice *parent = boxOf(layout, t.gpus[device.index].name);
                ASSERT_NE(parent, nullptr);
                EXPECT_TRUE(parent->rect.contains(device.rect)) << device.endpoint.toStdString();
                continue;
            }
            const bool gpu = device.kind == LayoutDevice::Kind::Gpu;
            gpus += gpu;
            nics += !gpu;
            const QString root
                = gpu ? t.gpus[device.index].pcieRoot : t.nics[device.index].pcieRoot;
            const LayoutFrame *rootFrame
                = frameAround(layout, LayoutFrame::Kind::PcieRoot, device.rect);
            ASSERT_NE(rootFrame, nullptr) << device.endpoint.toStdString();
            EXPECT_EQ(rootFrame->label, root.isEmpty() ? QStringLiteral("PCIe root ?") : root);
            EXPECT_NE(frameAround(layout, LayoutFrame::Kind::Numa, rootFrame->rect), nullptr);
            for (const LayoutDevice &other : layout.devices)
                if (&other != &device && other.kind != LayoutDevice::Kind::Mig) {
                    EXPECT_FALSE(overlaps(device.rect, other.rect))
                        << device.endpoint.toStdString() << " / " << other.endpoint.toStdString();
                }
        }
        EXPECT_EQ(gpus, t.gpus.size()) << preset;
        EXPECT_EQ(nics, t.nics.size()) << preset;
        size_t published = 0;
        for (const GpuNode &gpu : t.gpus)
            published += gpu.migs.size();
        EXPECT_EQ(migs, published) << preset;
    }
}

TEST(TopologyLayoutTest, AUniformNvlinkMeshIsOneFabricBarWithOneDropPerGpu)
{
    const NodeTopology t = node("h100-sxm", "h100-000");
    const TopologyLayout layout = layoutTopology(t);
    ASSERT_TRUE(layout.fabric.has_value());
    EXPECT_EQ(layout.fabric->source, LinkSource::Inferred);
    std::set<QString> dropped;
    for (const LayoutLink &link : layout.links) {
        EXPECT_NE(link.shape, LayoutLink::Shape::Arc) << "no pair arcs beside a fabric";
        if (link.to != QStringLiteral("fabric"))
            continue;
        dropped.insert(link.from);
        const LayoutDevice *gpu = boxOf(layout, link.from);
        ASSERT_NE(gpu, nullptr);
        EXPECT_EQ(link.end, gpu->rect.topCenter()) << "the drop ends on its GPU";
        EXPECT_EQ(link.start.y, layout.fabric->rect.bottom()) << "and starts on the bar";
    }
    EXPECT_EQ(dropped.size(), t.gpus.size());
}

TEST(TopologyLayoutTest, UnevenNvlinksArcBetweenTheirGpusWithTheirCounts)
{
    NodeTopology t = node("h100-sxm", "h100-000");
    t.links.erase(t.links.begin()); // one pair unlinked: no uniform fabric
    const TopologyLayout layout = layoutTopology(t);
    EXPECT_FALSE(layout.fabric.has_value());
    int arcs = 0;
    for (const LayoutLink &link : layout.links) {
        if (link.shape != LayoutLink::Shape::Arc)
            continue;
        ++arcs;
        EXPECT_EQ(link.start, boxOf(layout, link.from)->rect.topCenter());
        EXPECT_EQ(link.end, boxOf(layout, link.to)->rect.topCenter());
        EXPECT_LT(link.control1.y, link.start.y) << "arcs rise above the boxes";
        EXPECT_EQ(link.label, QStringLiteral("NV%1").arg(link.count));
        EXPECT_TRUE(layout.bounds.contains({ link.labelAt.x, link.labelAt.y, 1, 1 }));
    }
    int nvPairs = 0;
    for (const Link &link : t.links)
        nvPairs += link.kind == LinkKind::NV && t.gpu(link.from) && t.gpu(link.to);
    EXPECT_EQ(arcs, nvPairs);
}

TEST(TopologyLayoutTest, AnEmptyNodeSaysSo)
{
    NodeTopology empty;
    empty.node = QStringLiteral("cpu-only-1");
    const TopologyLayout layout = layoutTopology(empty);
    EXPECT_TRUE(layout.devices.empty());
    EXPECT_TRUE(layout.emptyText.contains(QStringLiteral("cpu-only-1")));
    EXPECT_EQ(toJson(layout)["empty"], layout.emptyText.toStdString());
}

// What `dractl topology NODE -o layout-json` prints and the web console draws.
TEST(TopologyLayoutJsonTest, BoxesAndLinksWithTheirCoordinatesInHundredths)
{
    const NodeTopology t = node("a100-mig", "a100-mig-000");
    const TopologyLayout layout = layoutTopology(t);
    const nlohmann::json doc = toJson(layout);
    EXPECT_EQ(doc["node"], "a100-mig-000");
    EXPECT_EQ(doc["imported"], false);
    for (const char *key : { "x", "y", "width", "height" })
        EXPECT_TRUE(doc["bounds"].contains(key)) << key;
    ASSERT_EQ(doc["devices"].size(), layout.devices.size());
    ASSERT_EQ(doc["frames"].size(), layout.frames.size());
    ASSERT_EQ(doc["links"].size(), layout.links.size());
    std::set<std::string> kinds, fills;
    for (size_t i = 0; i < layout.devices.size(); ++i) {
        const nlohmann::json &device = doc["devices"][i];
        kinds.insert(device["kind"].get<std::string>());
        fills.insert(device["fill"].get<std::string>());
        EXPECT_EQ(device["rect"]["x"].get<double>(), layout.devices[i].rect.x);
        EXPECT_EQ(device["endpoint"], layout.devices[i].endpoint.toStdString());
        if (layout.devices[i].device.isEmpty())
            EXPECT_TRUE(device["device"].is_null());
        else
            EXPECT_EQ(device["device"], layout.devices[i].device.toStdString());
    }
    EXPECT_TRUE(kinds.contains("gpu") && kinds.contains("mig")) << testing::PrintToString(kinds);
    EXPECT_TRUE(fills.contains("held") && fills.contains("free")) << testing::PrintToString(fills);
    // Every coordinate is in hundredths, so the JSON, the SVG and the scene agree to the digit.
    const auto hundredths = [](const nlohmann::json &value) {
        const double scaled = value.get<double>() * 100;
        return std::abs(scaled - std::round(scaled)) < 1e-6;
    };
    for (const nlohmann::json &device : doc["devices"])
        for (const auto &[key, value] : device["rect"].items())
            EXPECT_TRUE(hundredths(value)) << key << " " << value;
    for (const nlohmann::json &link : doc["links"])
        for (const char *point : { "start", "end" })
            EXPECT_TRUE(hundredths(link[point]["x"]) && hundredths(link[point]["y"]));
    EXPECT_EQ(toJson(layoutTopology(t)), doc) << "the same node lays out the same";
}

TEST(TopologyLayoutTest, TheSvgIsTheLayoutDrawn)
{
    const NodeTopology t = node("h100-sxm", "h100-000");
    const TopologyLayout layout = layoutTopology(t);
    EXPECT_EQ(toSvg(t), toSvg(layout));
    const QString svg = toSvg(layout);
    for (const LayoutDevice &device : layout.devices) {
        if (device.kind == LayoutDevice::Kind::Mig)
            continue;
        // Each box at the layout's coordinates (inside one translated group).
        const QString rect = QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\"")
                                 .arg(device.rect.x, 0, 'g', 10)
                                 .arg(device.rect.y, 0, 'g', 10)
                                 .arg(device.rect.w, 0, 'g', 10)
                                 .arg(device.rect.h, 0, 'g', 10);
        EXPECT_TRUE(svg.contains(rect)) << rect.toStdString();
    }
}
