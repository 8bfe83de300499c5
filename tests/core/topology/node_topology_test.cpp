// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/node_topology.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/sandbox/presets.h"
#include "tests/core/topology/topology_fixtures.h"
#include "tests/support/upstream.h"

using namespace dra;
using namespace dra::topology;

namespace {

const MigDevice *findMig(const GpuNode &gpu, const char *name)
{
    for (const MigDevice &mig : gpu.migs)
        if (mig.device == QString::fromLatin1(name))
            return &mig;
    return nullptr;
}

size_t countLinks(const NodeTopology &t, LinkSource source, LinkKind kind)
{
    return size_t(std::ranges::count_if(
        t.links, [&](const Link &l) { return l.source == source && l.kind == kind; }));
}

} // namespace

TEST(NodeTopologyTest, H100FromAttributesInfersNvSwitchAndMarksIt)
{
    const std::vector<model::Object> objects = test::demoObjects("h100-sxm");
    const NodeTopology t = buildNodeTopology(QStringLiteral("h100-000"), objects);
    ASSERT_EQ(t.gpus.size(), 8u);
    EXPECT_EQ(t.nics.size(), 8u);
    EXPECT_EQ(t.pcieRoots.size(), 4u);
    EXPECT_EQ(t.numa.size(), 2u);
    EXPECT_FALSE(t.imported);
    const GpuNode *gpu0 = t.gpu(u"gpu-0");
    ASSERT_NE(gpu0, nullptr);
    EXPECT_EQ(gpu0->model, QStringLiteral("NVIDIA H100 80GB HBM3"));
    EXPECT_EQ(gpu0->memory, QStringLiteral("81559Mi"));
    EXPECT_EQ(gpu0->pcieRoot, QStringLiteral("pci0000:15"));
    EXPECT_EQ(gpu0->numa, 0);
    EXPECT_TRUE(gpu0->uuid.startsWith(u"GPU-"));
    EXPECT_EQ(gpu0->holder.claim.section(u'/', 0, 0), QStringLiteral("inference"));
    EXPECT_EQ(countLinks(t, LinkSource::Inferred, LinkKind::NV), 28u);
    EXPECT_EQ(countLinks(t, LinkSource::Imported, LinkKind::NV), 0u);
    // Two GPUs and two NICs per root: six same-root pairs on each of four roots.
    EXPECT_EQ(countLinks(t, LinkSource::Attribute, LinkKind::PXB), 24u);
    for (const Link &link : t.links) {
        if (link.source == LinkSource::Inferred) {
            EXPECT_EQ(link.count, 18);
        }
    }
    EXPECT_TRUE(t.notes.join(u' ').contains(u"inferred from the product name"));
}

TEST(NodeTopologyTest, SkipsOtherNodes)
{
    const std::vector<model::Object> objects = test::demoObjects("h100-sxm", 2);
    const NodeTopology t = buildNodeTopology(QStringLiteral("h100-001"), objects);
    EXPECT_EQ(t.gpus.size(), 8u);
    const NodeTopology none = buildNodeTopology(QStringLiteral("nope"), objects);
    EXPECT_TRUE(none.gpus.empty());
    EXPECT_TRUE(none.notes.join(u' ').contains(u"no GPUs published for node nope"));
}

TEST(NodeTopologyTest, ImportedMatrixMapsByBusIdAndReplacesInference)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    const auto matrix
        = parseTopoMatrix(QString::fromStdString(test::readFile(path)), QStringLiteral("hgx.txt"));
    ASSERT_TRUE(matrix.has_value());
    const std::vector<model::Object> objects = test::demoObjects("h100-sxm");
    NodeTopology fromSlices = buildNodeTopology(QStringLiteral("h100-000"), objects);
    // nvidia-smi numbers the GPUs in reverse of their minors on this imagined host.
    QString csv = QStringLiteral("index, pci.bus_id, uuid\n");
    for (int i = 0; i < 8; ++i) {
        const GpuNode *gpu = fromSlices.gpu(QStringLiteral("gpu-%1").arg(7 - i));
        csv += QStringLiteral("%1, 0000%2, %3\n")
                   .arg(i)
                   .arg(gpu->pciBusId.toUpper(), i == 3 ? gpu->uuid : QStringLiteral("GPU-x"));
    }
    const auto query = parseGpuQuery(csv, QStringLiteral("gpus.csv"));
    ASSERT_TRUE(query.has_value()) << query.error().message.toStdString();
    const NodeTopology t
        = buildNodeTopology(QStringLiteral("h100-000"), objects, { &*matrix, &*query });
    EXPECT_TRUE(t.imported);
    ASSERT_EQ(t.gpus.size(), 8u);
    const GpuNode *gpu0 = t.gpu(u"GPU0");
    ASSERT_NE(gpu0, nullptr);
    EXPECT_EQ(gpu0->device, QStringLiteral("gpu-7"));
    EXPECT_EQ(gpu0->mapping, MapMethod::PciBusId);
    EXPECT_EQ(gpu0->cpuAffinity, QStringLiteral("0-55,112-167"));
    EXPECT_EQ(countLinks(t, LinkSource::Inferred, LinkKind::NV), 0u);
    EXPECT_EQ(countLinks(t, LinkSource::Imported, LinkKind::NV), 28u);
    EXPECT_EQ(std::ranges::count(t.links, LinkSource::Imported, &Link::source), 153);
    const auto nic0 = std::ranges::find(t.nics, QStringLiteral("NIC0"), &NicNode::name);
    ASSERT_NE(nic0, t.nics.end());
    EXPECT_TRUE(nic0->device.isEmpty());
    // The DRA NICs keep their own names and attribute links to the imported GPU names.
    EXPECT_EQ(t.nics.size(), 18u);
    EXPECT_TRUE(std::ranges::any_of(t.links, [](const Link &l) {
        return l.source == LinkSource::Attribute && l.from == u"GPU0" && l.to.startsWith(u"ibp");
    }));
}

TEST(NodeTopologyTest, ImportedMatrixWithoutGpuListingStaysUnmapped)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    const auto matrix
        = parseTopoMatrix(QString::fromStdString(test::readFile(path)), QStringLiteral("hgx.txt"));
    ASSERT_TRUE(matrix.has_value());
    const NodeTopology t = buildNodeTopology(
        QStringLiteral("h100-000"), test::demoObjects("h100-sxm"), { &*matrix, nullptr });
    ASSERT_EQ(t.gpus.size(), 16u); // 8 DRA devices and 8 imported GPUs nobody can tie together
    const GpuNode *gpu3 = t.gpu(u"GPU3");
    ASSERT_NE(gpu3, nullptr);
    EXPECT_TRUE(gpu3->device.isEmpty());
    EXPECT_EQ(gpu3->numa, 0);
    EXPECT_TRUE(gpu3->mappingNote.contains(u"not the device minor"));
    EXPECT_TRUE(t.notes.join(u' ').contains(u"GPU3 is unmapped"));
}

TEST(NodeTopologyTest, A100MigPlacementsAndAllocationOverlay)
{
    const NodeTopology t
        = buildNodeTopology(QStringLiteral("a100-mig-000"), test::demoObjects("a100-mig", 1));
    ASSERT_EQ(t.gpus.size(), 8u);
    const GpuNode *gpu0 = t.gpu(u"gpu-0");
    ASSERT_NE(gpu0, nullptr);
    EXPECT_EQ(gpu0->memorySlices, 8);
    EXPECT_EQ(gpu0->migs.size(), 18u);
    const MigDevice *held = findMig(*gpu0, "gpu-0-mig-1g10gb-19-0");
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(held->sliceStart, 0);
    EXPECT_EQ(held->sliceCount, 1);
    EXPECT_TRUE(held->holder.claim.startsWith(u"batch/batch-job-0-mig-"));
    EXPECT_FALSE(held->free);
    EXPECT_FALSE(findMig(*gpu0, "gpu-0-mig-7g80gb-0-0")->free); // overlaps held slices
    EXPECT_TRUE(findMig(*gpu0, "gpu-0-mig-1g10gb-19-6")->free);
    const MigDevice *half = findMig(*gpu0, "gpu-0-mig-3g40gb-9-4");
    EXPECT_EQ(half->sliceStart, 4);
    EXPECT_EQ(half->sliceCount, 4);
    EXPECT_FALSE(half->free); // slice 4 is held by a 1g.10gb
    const GpuNode *gpu2 = t.gpu(u"gpu-2");
    EXPECT_TRUE(gpu2->holder.isHeld());
    EXPECT_TRUE(std::ranges::none_of(gpu2->migs, &MigDevice::free));
    EXPECT_TRUE(std::ranges::all_of(t.gpu(u"gpu-7")->migs, &MigDevice::free));
    EXPECT_EQ(countLinks(t, LinkSource::Inferred, LinkKind::NV), 28u);
    EXPECT_EQ(std::ranges::find(t.links, LinkSource::Inferred, &Link::source)->count, 12);
}

TEST(NodeTopologyTest, StaticMigByCapacitySlicesParentUuidAndNamePrefix)
{
    const NodeTopology t
        = buildNodeTopology(QStringLiteral("n1"), test::decodeObjects(test::staticMigSlice()));
    ASSERT_EQ(t.gpus.size(), 2u);
    const GpuNode *gpu0 = t.gpu(u"gpu-0");
    ASSERT_EQ(gpu0->migs.size(), 2u);
    EXPECT_EQ(gpu0->migs[0].sliceStart, 2);
    EXPECT_EQ(gpu0->migs[0].sliceCount, 2);
    EXPECT_EQ(gpu0->migs[0].uuid, QStringLiteral("MIG-1"));
    EXPECT_EQ(
        gpu0->migs[1].device, QStringLiteral("gpu-0-mig-1g5gb-19-6")); // by name, no parentUUID
    EXPECT_EQ(gpu0->memorySlices, 7);
    EXPECT_EQ(t.gpu(u"gpu-1")->index, 1);
    EXPECT_EQ(t.gpu(u"gpu-1")->pciBusId, QStringLiteral("0000:b1:00.0"));
    EXPECT_EQ(
        t.gpu(u"gpu-1")->numa, 1); // a one-element list, as DRAListTypeAttributes publishes it
    EXPECT_TRUE(t.notes.join(u' ').contains(u"MIG device gpu-9-mig-x: no parent GPU"));
    EXPECT_EQ(
        countLinks(t, LinkSource::Inferred, LinkKind::NV), 0u); // PCIe cards: nothing inferred
}

TEST(NodeTopologyTest, LegacyIndexAttributeMapsImportedGpus)
{
    const auto matrix = parseTopoMatrix(
        QStringLiteral("\tGPU0\tGPU1\nGPU0\t X \tPHB\nGPU1\tPHB\t X \n"), QStringLiteral("t"));
    ASSERT_TRUE(matrix.has_value());
    const NodeTopology t = buildNodeTopology(
        QStringLiteral("n1"), test::decodeObjects(test::staticMigSlice()), { &*matrix, nullptr });
    const GpuNode *gpu1 = t.gpu(u"GPU1");
    ASSERT_NE(gpu1, nullptr);
    EXPECT_EQ(gpu1->device, QStringLiteral("gpu-1"));
    EXPECT_EQ(gpu1->mapping, MapMethod::IndexAttribute);
    ASSERT_NE(t.gpu(u"GPU0"), nullptr);
    EXPECT_EQ(t.gpu(u"GPU0")->device, QString()); // index 0 is published by no device
    EXPECT_EQ(t.gpus.size(), 3u); // gpu-0 (no index), GPU1 = gpu-1, GPU0 imported only
}
