// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/topology_render.h"

#include <optional>
#include <set>

#include <QXmlStreamReader>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/core/topology/topology_fixtures.h"
#include "tests/support/upstream.h"

using namespace dra;
using namespace dra::topology;

namespace {

NodeTopology h100()
{
    return buildNodeTopology(QStringLiteral("h100-000"), test::demoObjects("h100-sxm"));
}

struct SvgCounts
{
    int gpus = 0, nics = 0, migs = 0, heldMigs = 0, fabricDrops = 0, arcs = 0, pcieLines = 0;
    int solid = 0, dashed = 0, dotted = 0; // links by their dash
};

// Parses the SVG with Qt Core's XML reader (well-formedness) and counts what it drew.
SvgCounts readSvg(const QString &svg)
{
    SvgCounts counts;
    QXmlStreamReader xml(svg);
    bool root = true;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto attrs = xml.attributes();
        if (root) {
            EXPECT_EQ(xml.name(), QStringLiteral("svg"));
            EXPECT_EQ(xml.namespaceUri(), QStringLiteral("http://www.w3.org/2000/svg"));
            root = false;
        }
        const QStringList classes
            = attrs.value(QStringLiteral("class")).toString().split(u' ', Qt::SkipEmptyParts);
        if (xml.name() == u"g" && classes.contains(u"gpu"))
            ++counts.gpus;
        if (xml.name() == u"g" && classes.contains(u"nic"))
            ++counts.nics;
        if (xml.name() == u"rect" && classes.contains(u"mig")) {
            ++counts.migs;
            counts.heldMigs += attrs.value(QStringLiteral("fill")) == u"#e76f51";
        }
        if (!classes.contains(u"link"))
            continue;
        counts.fabricDrops += classes.contains(u"fabric-drop");
        counts.arcs += xml.name() == u"path";
        counts.pcieLines += classes.contains(u"pix") || classes.contains(u"pxb");
        const QString dash = attrs.value(QStringLiteral("stroke-dasharray")).toString();
        (dash.isEmpty() ? counts.solid : dash == u"8 5" ? counts.dashed : counts.dotted)++;
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString() << " at line "
                                 << xml.lineNumber();
    return counts;
}

// GPU-to-NIC links through a PCIe switch: the ones the drawing shows besides NVLink.
int gpuNicSwitchLinks(const NodeTopology &t, std::optional<LinkSource> source = std::nullopt)
{
    int count = 0;
    for (const Link &link : t.links) {
        const bool gpuFrom = t.gpu(link.from) != nullptr, gpuTo = t.gpu(link.to) != nullptr;
        if (gpuFrom != gpuTo && (link.kind == LinkKind::PIX || link.kind == LinkKind::PXB)
            && (!source || link.source == *source))
            ++count;
    }
    return count;
}

} // namespace

TEST(TopologyJsonTest, IssueShape)
{
    const nlohmann::json doc = toJson(h100());
    for (const char *key : { "devices", "numa", "pcieRoots", "nics", "links" })
        EXPECT_TRUE(doc.contains(key)) << key;
    ASSERT_EQ(doc["devices"].size(), 8u);
    const nlohmann::json &gpu0 = doc["devices"][0];
    EXPECT_EQ(gpu0["name"], "gpu-0");
    EXPECT_EQ(gpu0["device"], "gpu-0");
    EXPECT_EQ(gpu0["pcieRoot"], "pci0000:15");
    EXPECT_EQ(gpu0["numa"], 0);
    EXPECT_TRUE(gpu0["allocatedTo"]["claim"].get<std::string>().starts_with("inference/"));
    EXPECT_EQ(doc["numa"].size(), 2u);
    EXPECT_EQ(doc["pcieRoots"].size(), 4u);
    EXPECT_EQ(doc["nics"].size(), 8u);
    std::set<std::string> sources;
    for (const nlohmann::json &link : doc["links"]) {
        std::set<std::string> keys;
        for (const auto &[key, value] : link.items())
            keys.insert(key);
        EXPECT_EQ(keys, (std::set<std::string> { "from", "to", "kind", "count", "source" }));
        sources.insert(link["source"].get<std::string>());
    }
    EXPECT_EQ(sources, (std::set<std::string> { "attribute", "inferred" }));
    EXPECT_EQ(doc["links"][0],
        nlohmann::json::parse(
            R"({"from":"gpu-0","to":"gpu-1","kind":"NV","count":18,"source":"inferred"})"));
}

TEST(TopologyJsonTest, ImportedEndpointNamesAsTheTextNamesThem)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    const auto matrix
        = parseTopoMatrix(QString::fromStdString(test::readFile(path)), QStringLiteral("hgx.txt"));
    ASSERT_TRUE(matrix.has_value());
    const nlohmann::json doc = toJson(buildNodeTopology(
        QStringLiteral("h100-000"), test::demoObjects("h100-sxm"), { &*matrix, nullptr }));
    const auto &links = doc["links"];
    const auto found = std::ranges::find_if(
        links, [](const nlohmann::json &l) { return l["from"] == "GPU3" && l["to"] == "NIC5"; });
    ASSERT_NE(found, links.end());
    EXPECT_EQ(*found,
        nlohmann::json::parse(
            R"({"from":"GPU3","to":"NIC5","kind":"PIX","count":0,"source":"imported"})"));
    const auto gpu3 = std::ranges::find_if(
        doc["devices"], [](const nlohmann::json &d) { return d["name"] == "GPU3"; });
    ASSERT_NE(gpu3, doc["devices"].end());
    EXPECT_TRUE((*gpu3)["device"].is_null());
    EXPECT_EQ((*gpu3)["mapping"], "unmapped");
}

TEST(TopologySvgTest, H100IsValidXmlWithTheInferredFabricDashed)
{
    const NodeTopology t = h100();
    const SvgCounts counts = readSvg(toSvg(t));
    EXPECT_EQ(counts.gpus, int(t.gpus.size()));
    EXPECT_EQ(counts.nics, int(t.nics.size()));
    EXPECT_EQ(counts.migs, 0);
    // NV18 between every pair, inferred from the product: one NVSwitch bar, one drop per GPU.
    EXPECT_EQ(counts.fabricDrops, int(t.gpus.size()));
    EXPECT_EQ(counts.arcs, 0);
    EXPECT_EQ(counts.dashed, counts.fabricDrops);
    EXPECT_GT(gpuNicSwitchLinks(t), 0);
    EXPECT_EQ(counts.pcieLines, gpuNicSwitchLinks(t));
    EXPECT_EQ(counts.dotted, gpuNicSwitchLinks(t, LinkSource::Attribute));
    EXPECT_EQ(counts.solid, 0);
}

TEST(TopologySvgTest, A100MigBoxesInsideTheirGpu)
{
    const NodeTopology t
        = buildNodeTopology(QStringLiteral("a100-mig-000"), test::demoObjects("a100-mig"));
    const SvgCounts counts = readSvg(toSvg(t));
    int migs = 0, held = 0;
    for (const GpuNode &gpu : t.gpus)
        for (const MigDevice &mig : gpu.migs) {
            ++migs;
            held += mig.holder.isHeld();
        }
    EXPECT_EQ(counts.gpus, int(t.gpus.size()));
    EXPECT_GT(migs, 0);
    EXPECT_EQ(counts.migs, migs);
    EXPECT_GT(held, 0);
    EXPECT_EQ(counts.heldMigs, held);
}

TEST(TopologySvgTest, ImportedLinksAreSolidAndNamesAreEscaped)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    const auto matrix
        = parseTopoMatrix(QString::fromStdString(test::readFile(path)), QStringLiteral("hgx.txt"));
    ASSERT_TRUE(matrix.has_value());
    NodeTopology t = buildNodeTopology(
        QStringLiteral("h100-000"), test::demoObjects("h100-sxm"), { &*matrix, nullptr });
    t.node = QStringLiteral("node<&>\"'");
    const QString svg = toSvg(t);
    const SvgCounts counts = readSvg(svg);
    EXPECT_EQ(counts.gpus, int(t.gpus.size()));
    EXPECT_TRUE(svg.contains(QStringLiteral("node&lt;&amp;&gt;&quot;&apos;")));
    // NODE and SYS links are what the frames already say: only NVLink and the NIC paths.
    EXPECT_EQ(counts.pcieLines, gpuNicSwitchLinks(t));
    EXPECT_EQ(counts.dashed, 0) << "nothing imported is drawn as a guess";
    EXPECT_EQ(counts.dotted, gpuNicSwitchLinks(t, LinkSource::Attribute));
}

TEST(TopologyDotTest, ClustersAndLinkStyles)
{
    const QString dot = toDot(h100());
    EXPECT_TRUE(dot.startsWith(u"graph \"h100-000\" {"));
    EXPECT_TRUE(dot.contains(u"subgraph \"cluster_numa1\""));
    EXPECT_TRUE(dot.contains(u"subgraph \"cluster_pci0000:15\""));
    EXPECT_TRUE(dot.contains(u"\"gpu-0\" -- \"gpu-1\" [label=\"NV18\", style=dashed];"));
    EXPECT_TRUE(dot.contains(u"style=dotted"));
    EXPECT_TRUE(dot.trimmed().endsWith(u'}'));
}

TEST(TopologyTextTest, TreeWithHoldersAndNotes)
{
    const QString text
        = toText(buildNodeTopology(QStringLiteral("a100-mig-000"), test::demoObjects("a100-mig")));
    EXPECT_TRUE(text.startsWith(u"Node a100-mig-000 (from ResourceSlice attributes)"));
    EXPECT_TRUE(
        text.contains(u"NUMA 0\n  PCIe root pci0000:15\n    gpu-0  NVIDIA A100-SXM4-80GB  80Gi"));
    EXPECT_TRUE(text.contains(
        u"MIG gpu-0-mig-1g10gb-19-0  1g.10gb  slice 0  held by batch/batch-job-0-mig-"));
    EXPECT_TRUE(text.contains(u"MIG gpu-0-mig-3g40gb-9-4  3g.40gb  slices 4-7  blocked"));
    EXPECT_TRUE(text.contains(u"MIG gpu-7-mig-7g80gb-0-0  7g.80gb  slices 0-7  free"));
    EXPECT_TRUE(text.contains(u"gpu-0 -- gpu-1  NV12  inferred"));
    EXPECT_TRUE(text.contains(u"Notes\n"));
}

TEST(TopologyTextTest, NicsUnderTheirRoot)
{
    const QString text = toText(h100());
    EXPECT_TRUE(
        text.contains(u"  PCIe root pci0000:15\n    gpu-0  NVIDIA H100 80GB HBM3  81559Mi  GPU-"));
    EXPECT_TRUE(text.contains(u"    NIC ibp23s0  dra.net\n")) << text.toStdString();
    EXPECT_TRUE(text.contains(u"gpu-0 -- ibp23s0  PXB  attribute"));
}
