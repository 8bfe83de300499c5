// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/topology_render.h"

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
    int gpus = 0, nics = 0, migs = 0, heldMigs = 0, solidLinks = 0, dashedLinks = 0,
        dottedLinks = 0;
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
        const QString cls = attrs.value(QStringLiteral("class")).toString();
        if (xml.name() == u"g" && cls == u"gpu")
            ++counts.gpus;
        if (xml.name() == u"g" && cls == u"nic")
            ++counts.nics;
        if (xml.name() == u"rect" && cls == u"mig") {
            ++counts.migs;
            counts.heldMigs += attrs.value(QStringLiteral("fill")) == u"#e76f51";
        }
        if (xml.name() == u"line") {
            const QString dash = attrs.value(QStringLiteral("stroke-dasharray")).toString();
            if (dash.isEmpty())
                ++counts.solidLinks;
            else if (dash == u"8 5")
                ++counts.dashedLinks;
            else
                ++counts.dottedLinks;
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString() << " at line "
                                 << xml.lineNumber();
    return counts;
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

TEST(TopologySvgTest, H100IsValidXmlWithDashedInferredLinks)
{
    const NodeTopology t = h100();
    const SvgCounts counts = readSvg(toSvg(t));
    EXPECT_EQ(counts.gpus, 8);
    EXPECT_EQ(counts.nics, 8);
    EXPECT_EQ(counts.migs, 0);
    EXPECT_EQ(counts.dashedLinks, 28);
    EXPECT_EQ(counts.dottedLinks, 24);
    EXPECT_EQ(counts.solidLinks, 0);
}

TEST(TopologySvgTest, A100MigBoxesInsideTheirGpu)
{
    const NodeTopology t
        = buildNodeTopology(QStringLiteral("a100-mig-000"), test::demoObjects("a100-mig"));
    const SvgCounts counts = readSvg(toSvg(t));
    EXPECT_EQ(counts.gpus, 8);
    EXPECT_EQ(counts.migs, 8 * 18);
    EXPECT_EQ(counts.heldMigs, 7); // five 1g.10gb and two 3g.40gb claims in the preset
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
    const SvgCounts counts = readSvg(toSvg(t));
    EXPECT_EQ(counts.gpus, 16);
    EXPECT_EQ(counts.solidLinks, 28 + 8); // NV between GPUs and PIX to each NIC; NODE/SYS not drawn
    EXPECT_EQ(counts.dashedLinks, 0);
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
