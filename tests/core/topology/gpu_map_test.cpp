// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/gpu_map.h"

#include <gtest/gtest.h>

using namespace dra;
using namespace dra::topology;

namespace {

TopoMatrix twoGpus()
{
    const Result<TopoMatrix> parsed = parseTopoMatrix(
        QStringLiteral("\tGPU0\tGPU1\tNIC0\nGPU0\t X \tNV4\tPIX\nGPU1\tNV4\t X \tSYS\n"),
        QStringLiteral("t"));
    EXPECT_TRUE(parsed.has_value());
    return parsed ? *parsed : TopoMatrix {};
}

std::vector<GpuIdentity> queryOk(const char *text)
{
    const Result<std::vector<GpuIdentity>> parsed
        = parseGpuQuery(QString::fromUtf8(text), QStringLiteral("gpus.csv"));
    EXPECT_TRUE(parsed.has_value())
        << (parsed ? std::string() : parsed.error().message.toStdString());
    return parsed ? *parsed : std::vector<GpuIdentity> {};
}

} // namespace

struct BusIdCase
{
    const char *in, *out;
};
class PciBusIdTest : public testing::TestWithParam<BusIdCase>
{
};

TEST_P(PciBusIdTest, Normalises)
{
    EXPECT_EQ(normalizePciBusId(QString::fromUtf8(GetParam().in)).toStdString(), GetParam().out);
}

INSTANTIATE_TEST_SUITE_P(Forms, PciBusIdTest,
    testing::Values(BusIdCase { "00000000:15:00.0", "0000:15:00.0" },
        BusIdCase { "0000:15:00.0", "0000:15:00.0" },
        BusIdCase { "00000000:1A:00.0", "0000:1a:00.0" },
        BusIdCase { " 0000:1a:00.0 ", "0000:1a:00.0" }, BusIdCase { "15:00.0", "0000:15:00.0" },
        BusIdCase { "00000001:C8:00.0", "0001:c8:00.0" }, BusIdCase { "garbage", "garbage" }));

TEST(GpuQueryTest, WithHeader)
{
    const auto gpus = queryOk(
        "index, pci.bus_id, uuid\n0, 00000000:18:00.0, GPU-aaa\n1, 00000000:2A:00.0, GPU-bbb\n");
    ASSERT_EQ(gpus.size(), 2u);
    EXPECT_EQ(gpus[1].index, 1);
    EXPECT_EQ(gpus[1].pciBusId, QStringLiteral("0000:2a:00.0"));
    EXPECT_EQ(gpus[1].uuid, QStringLiteral("GPU-bbb"));
}

TEST(GpuQueryTest, NoHeaderCrlf)
{
    const auto gpus = queryOk("0, 00000000:18:00.0, GPU-aaa\r\n1, 00000000:2A:00.0, GPU-bbb\r\n");
    ASSERT_EQ(gpus.size(), 2u);
    EXPECT_EQ(gpus[0].pciBusId, QStringLiteral("0000:18:00.0"));
}

TEST(GpuQueryTest, ReorderedColumnsWithUnits)
{
    const auto gpus = queryOk("uuid, index, memory.total [MiB]\nGPU-aaa, 3, 81559 MiB\n");
    ASSERT_EQ(gpus.size(), 1u);
    EXPECT_EQ(gpus[0].index, 3);
    EXPECT_EQ(gpus[0].uuid, QStringLiteral("GPU-aaa"));
    EXPECT_TRUE(gpus[0].pciBusId.isEmpty());
}

struct QueryErrorCase
{
    const char *name, *text, *message;
};
class GpuQueryErrorTest : public testing::TestWithParam<QueryErrorCase>
{
};

TEST_P(GpuQueryErrorTest, NamesFileAndLine)
{
    const auto parsed
        = parseGpuQuery(QString::fromUtf8(GetParam().text), QStringLiteral("gpus.csv"));
    ASSERT_FALSE(parsed.has_value());
    EXPECT_TRUE(parsed.error().message.contains(QString::fromUtf8(GetParam().message)))
        << parsed.error().message.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Cases, GpuQueryErrorTest,
    testing::Values(QueryErrorCase { "Empty", "\n", "gpus.csv: no GPUs listed" },
        QueryErrorCase { "NoIndexColumn", "name, uuid\nH100, GPU-a\n",
            "gpus.csv:1: the header has no index column" },
        QueryErrorCase {
            "BadIndex", "index, uuid\nx, GPU-a\n", "gpus.csv:2: \"x\" is not a GPU index" },
        QueryErrorCase {
            "NoIdentity", "0, H100\n", "gpus.csv:1: expected an index and a PCI bus ID or UUID" },
        QueryErrorCase { "Ragged", "index, pci.bus_id, uuid\n0, 0000:18:00.0\n",
            "gpus.csv:2: 2 values where the header has 3" },
        QueryErrorCase {
            "Duplicate", "0, GPU-a\n0, GPU-b\n", "gpus.csv:2: GPU index 0 appears twice" }),
    [](const testing::TestParamInfo<QueryErrorCase> &info) {
        return std::string(info.param.name);
    });

TEST(GpuMapTest, ByBusIdThenUuid)
{
    const TopoMatrix matrix = twoGpus();
    // nvidia-smi index 0 is the device with minor 1: indices are not minors.
    const auto query = queryOk(
        "index, pci.bus_id, uuid\n0, 00000000:18:00.0, GPU-aaa\n1, 00000000:99:00.0, GPU-bbb\n");
    const std::vector<GpuCandidate> candidates = {
        { QStringLiteral("gpu-0"), QStringLiteral("0000:2a:00.0"), QStringLiteral("GPU-BBB"), {} },
        { QStringLiteral("gpu-1"), QStringLiteral("0000:18:00.0"), QStringLiteral("GPU-zzz"), {} }
    };
    const auto mappings = mapGpus(matrix, &query, candidates);
    ASSERT_EQ(mappings.size(), 2u);
    EXPECT_EQ(mappings[0].device, QStringLiteral("gpu-1"));
    EXPECT_EQ(mappings[0].method, MapMethod::PciBusId);
    EXPECT_EQ(mappings[1].device, QStringLiteral("gpu-0"));
    EXPECT_EQ(mappings[1].method, MapMethod::Uuid);
}

TEST(GpuMapTest, QueryWithoutTheIndexOrMatchIsUnmapped)
{
    const TopoMatrix matrix = twoGpus();
    const auto query = queryOk("0, 00000000:77:00.0, GPU-q\n");
    const std::vector<GpuCandidate> candidates = { { QStringLiteral("gpu-0"),
        QStringLiteral("0000:18:00.0"), QStringLiteral("GPU-a"), 0 } };
    const auto mappings = mapGpus(matrix, &query, candidates);
    ASSERT_EQ(mappings.size(), 2u);
    EXPECT_EQ(mappings[0].method, MapMethod::Unmapped);
    EXPECT_TRUE(mappings[0].note.contains(QStringLiteral("0000:77:00.0")))
        << mappings[0].note.toStdString();
    EXPECT_EQ(mappings[1].method, MapMethod::Unmapped);
    EXPECT_TRUE(mappings[1].note.contains(QStringLiteral("index 1 is not in the --gpus listing")));
}

TEST(GpuMapTest, ByPublishedIndexAttributeOtherwiseUnmapped)
{
    const TopoMatrix matrix = twoGpus();
    const std::vector<GpuCandidate> candidates
        = { { QStringLiteral("gpu-5"), {}, {}, 1 }, { QStringLiteral("gpu-0"), {}, {}, {} } };
    const auto mappings = mapGpus(matrix, nullptr, candidates);
    ASSERT_EQ(mappings.size(), 2u);
    EXPECT_EQ(mappings[0].method, MapMethod::Unmapped);
    EXPECT_TRUE(mappings[0].note.contains(QStringLiteral("not the device minor")))
        << mappings[0].note.toStdString();
    EXPECT_EQ(mappings[1].device, QStringLiteral("gpu-5"));
    EXPECT_EQ(mappings[1].method, MapMethod::IndexAttribute);
}
