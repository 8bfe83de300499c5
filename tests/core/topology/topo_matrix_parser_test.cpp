// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/topo_matrix_parser.h"

#include <gtest/gtest.h>

#include "tests/support/upstream.h"

using namespace dra;
using namespace dra::topology;

namespace {

QString load(const std::filesystem::path &path)
{
    return QString::fromStdString(test::readFile(path));
}

TopoMatrix parseOk(const QString &text, const QString &source = QStringLiteral("topo.txt"))
{
    const Result<TopoMatrix> parsed = parseTopoMatrix(text, source);
    EXPECT_TRUE(parsed.has_value())
        << (parsed ? std::string() : parsed.error().message.toStdString());
    return parsed ? *parsed : TopoMatrix {};
}

std::string linkText(const TopoMatrix &matrix, const char *a, const char *b)
{
    const TopoLink *link = matrix.link(QString::fromLatin1(a), QString::fromLatin1(b));
    if (!link)
        return "none";
    const QString text
        = linkKindName(link->kind) + (link->count ? QString::number(link->count) : QString());
    return text.toStdString();
}

// Checks the facts every rendering of the HGX H100 sample must keep, whatever its whitespace.
void expectHgxSample(const TopoMatrix &matrix)
{
    ASSERT_EQ(matrix.devices.size(), 18u);
    EXPECT_EQ(matrix.links.size(), 18u * 17u / 2u);
    EXPECT_EQ(matrix.devices[7].name, QStringLiteral("GPU7"));
    EXPECT_EQ(matrix.devices[7].kind, TopoDevice::Kind::Gpu);
    EXPECT_EQ(matrix.devices[8].name, QStringLiteral("NIC0"));
    EXPECT_EQ(matrix.devices[8].kind, TopoDevice::Kind::Nic);
    EXPECT_EQ(linkText(matrix, "GPU0", "GPU7"), "NV18");
    EXPECT_EQ(linkText(matrix, "GPU0", "NIC0"), "PIX");
    EXPECT_EQ(linkText(matrix, "NIC5", "GPU3"), "PIX");
    EXPECT_EQ(linkText(matrix, "GPU3", "NIC3"), "SYS");
    EXPECT_EQ(linkText(matrix, "NIC0", "NIC9"), "SYS");
    EXPECT_EQ(matrix.devices[0].cpuAffinity, QStringLiteral("0-55,112-167"));
    EXPECT_EQ(matrix.devices[0].numaNode, 0);
    EXPECT_EQ(matrix.devices[4].cpuAffinity, QStringLiteral("56-111,168-223"));
    EXPECT_EQ(matrix.devices[4].numaNode, 1);
    EXPECT_FALSE(matrix.devices[4].gpuNumaId.has_value());
    EXPECT_TRUE(matrix.devices[8].cpuAffinity.isEmpty());
    EXPECT_FALSE(matrix.devices[8].numaNode.has_value());
    EXPECT_TRUE(matrix.warnings.isEmpty()) << matrix.warnings.join(u'\n').toStdString();
}

QString expandTabs(const QString &text)
{
    QString out;
    int column = 0;
    for (const QChar c : text) {
        if (c == u'\n') {
            out += c;
            column = 0;
        } else if (c == u'\t') {
            do {
                out += u' ';
                ++column;
            } while (column % 8 != 0);
        } else {
            out += c;
            ++column;
        }
    }
    return out;
}

} // namespace

TEST(TopoMatrixParserTest, ParsesUpstreamHgxSample)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    const TopoMatrix matrix = parseOk(load(path));
    expectHgxSample(matrix);
    EXPECT_EQ(matrix.devices[0].line, 2);
    EXPECT_EQ(matrix.devices[17].line, 19);
}

// The same capture as people paste it: copied from a terminal (spaces), from Windows (CRLF),
// or with colour escapes.
struct SampleVariant
{
    const char *name;
    QString (*transform)(const QString &);
};

class TopoMatrixSampleVariantTest : public testing::TestWithParam<SampleVariant>
{
};

TEST_P(TopoMatrixSampleVariantTest, KeepsEveryLink)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    expectHgxSample(parseOk(GetParam().transform(load(path))));
}

INSTANTIATE_TEST_SUITE_P(Upstream, TopoMatrixSampleVariantTest,
    testing::Values(
        SampleVariant { "SpaceAligned", [](const QString &t) -> QString { return expandTabs(t); } },
        SampleVariant { "Crlf",
            [](const QString &t) -> QString {
                QString copy = t;
                return copy.replace(QStringLiteral("\n"), QStringLiteral("\r\n"));
            } },
        SampleVariant { "AnsiColoured",
            [](const QString &t) -> QString {
                QString copy = t;
                copy.replace(QStringLiteral("\tGPU0\tGPU1"), QStringLiteral("\x1b[4m\tGPU0\tGPU1"));
                copy.replace(
                    QStringLiteral("GPU NUMA ID\n"), QStringLiteral("GPU NUMA ID\x1b[0m\n"));
                return copy.replace(QStringLiteral("NV18"), QStringLiteral("\x1b[32mNV18\x1b[0m"));
            } },
        SampleVariant { "PromptRightAfterTheMatrix",
            [](const QString &t) -> QString {
                const qsizetype legend = t.indexOf(QStringLiteral("\n\nLegend"));
                return t.left(legend) + QStringLiteral("\nuser@hgx:~$ nvidia-smi -L\n");
            } },
        SampleVariant { "ShellPromptAbove",
            [](const QString &t) -> QString {
                return QStringLiteral("$ nvidia-smi topo -m\n") + t;
            } }),
    [](const testing::TestParamInfo<SampleVariant> &info) { return std::string(info.param.name); });

// Captures often carry only the GPU rows; GPU-NIC links come from the columns, NIC-NIC ones are
// simply unknown.
TEST(TopoMatrixParserTest, GpuRowsOnly)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    QStringList lines = load(path).split(u'\n');
    lines.erase(std::remove_if(lines.begin(), lines.end(),
                    [](const QString &l) { return l.startsWith(u"NIC"); }),
        lines.end());
    const TopoMatrix matrix = parseOk(lines.join(u'\n'));
    ASSERT_EQ(matrix.devices.size(), 18u);
    EXPECT_EQ(matrix.links.size(), 8u * 7u / 2u + 8u * 10u);
    EXPECT_EQ(linkText(matrix, "NIC9", "GPU7"), "PIX");
    EXPECT_EQ(linkText(matrix, "NIC0", "NIC9"), "none");
    EXPECT_EQ(matrix.devices[8].line, 0);
}

TEST(TopoMatrixParserTest, OldDriverColumnsSocAndMlxNames)
{
    const TopoMatrix matrix = parseOk(load(test::testDataPath("topology/old_driver_4gpu_mlx.txt")));
    ASSERT_EQ(matrix.devices.size(), 6u);
    EXPECT_EQ(matrix.devices[4].name, QStringLiteral("mlx5_0"));
    EXPECT_EQ(matrix.devices[4].kind, TopoDevice::Kind::Nic);
    EXPECT_EQ(linkText(matrix, "GPU0", "GPU3"), "SYS"); // SOC on old drivers
    EXPECT_EQ(linkText(matrix, "GPU0", "GPU1"), "NV2");
    EXPECT_EQ(linkText(matrix, "mlx5_1", "GPU3"), "PIX");
    EXPECT_EQ(matrix.devices[2].cpuAffinity, QStringLiteral("12-23,36-47"));
    EXPECT_FALSE(matrix.devices[2].numaNode.has_value()); // no NUMA column on old drivers
    EXPECT_TRUE(matrix.devices[4].cpuAffinity.isEmpty());
    EXPECT_EQ(matrix.links.size(), 15u);
}

TEST(TopoMatrixParserTest, EmptyAndNotApplicableAffinity)
{
    const TopoMatrix matrix
        = parseOk(load(test::testDataPath("topology/pcie_2gpu_empty_affinity.txt")));
    ASSERT_EQ(matrix.devices.size(), 2u);
    EXPECT_TRUE(matrix.devices[0].cpuAffinity.isEmpty());
    EXPECT_TRUE(matrix.devices[0].numaAffinity.isEmpty());
    EXPECT_FALSE(matrix.devices[0].numaNode.has_value());
    EXPECT_EQ(matrix.devices[1].cpuAffinity, QStringLiteral("0-15"));
    EXPECT_EQ(matrix.devices[1].numaNode, 0);
    EXPECT_EQ(linkText(matrix, "GPU0", "GPU1"), "PHB");
}

TEST(TopoMatrixParserTest, AnsiEscapesExtraNicColumnsAndNicLegend)
{
    const TopoMatrix matrix = parseOk(load(test::testDataPath("topology/ansi_2gpu_4nic.txt")));
    ASSERT_EQ(matrix.devices.size(), 6u);
    EXPECT_EQ(linkText(matrix, "GPU0", "GPU1"), "NV4");
    EXPECT_EQ(linkText(matrix, "GPU1", "NIC3"), "PXB");
    EXPECT_EQ(linkText(matrix, "NIC2", "NIC3"), "PIX");
    EXPECT_EQ(linkText(matrix, "GPU0", "NIC2"), "NODE");
    EXPECT_EQ(matrix.devices[1].cpuAffinity, QStringLiteral("0-31"));
    EXPECT_EQ(matrix.devices[1].numaNode, 0);
    ASSERT_EQ(matrix.nicLegend.size(), 4u);
    EXPECT_EQ(matrix.nicInterface(u"NIC3"), QStringLiteral("mlx5_3"));
    EXPECT_EQ(matrix.devices[0].line, 3);
}

TEST(TopoMatrixParserTest, AsymmetricCellsKeepTheFirstAndWarn)
{
    const TopoMatrix matrix
        = parseOk(QStringLiteral("\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV2\t X \n"));
    EXPECT_EQ(linkText(matrix, "GPU0", "GPU1"), "NV4");
    ASSERT_EQ(matrix.warnings.size(), 1);
    EXPECT_TRUE(matrix.warnings[0].contains(QStringLiteral("topo.txt:3")))
        << matrix.warnings[0].toStdString();
}

struct MalformedCase
{
    const char *name;
    const char *text;
    const char *message; // a part of the error
};

class TopoMatrixMalformedTest : public testing::TestWithParam<MalformedCase>
{
};

TEST_P(TopoMatrixMalformedTest, FailsNamingTheLine)
{
    const Result<TopoMatrix> parsed
        = parseTopoMatrix(QString::fromUtf8(GetParam().text), QStringLiteral("node-a.txt"));
    ASSERT_FALSE(parsed.has_value());
    EXPECT_EQ(parsed.error().code, common::Error::Code::Parse);
    EXPECT_TRUE(parsed.error().message.contains(QString::fromUtf8(GetParam().message)))
        << parsed.error().message.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Cases, TopoMatrixMalformedTest,
    testing::Values(
        MalformedCase { "NoHeader", "hello\nworld\n", "node-a.txt: no topology matrix" },
        MalformedCase { "RaggedRow", "\tGPU0\tGPU1\tGPU2\nGPU0\t X \tNV4\tNV4\nGPU1\tNV4\t X \n",
            "node-a.txt:3: row GPU1 has 2 cells but the header has 3 device columns" },
        MalformedCase { "UnknownCell", "\tGPU0\tGPU1\nGPU0\t X \tNVL\nGPU1\tNV4\t X \n",
            "node-a.txt:2: row GPU0, column GPU1: unknown cell \"NVL\"" },
        MalformedCase { "ZeroLinks", "\tGPU0\tGPU1\nGPU0\t X \tNV0\n", "unknown cell \"NV0\"" },
        MalformedCase { "SelfOffDiagonal", "\tGPU0\tGPU1\nGPU0\t X \t X \n",
            "node-a.txt:2: row GPU0, column GPU1: X" },
        MalformedCase { "MissingSelf", "\tGPU0\tGPU1\nGPU0\tPIX\tPIX\n", "expected X (self)" },
        MalformedCase { "UnknownRow", "\tGPU0\tGPU1\nGPU0\t X \tPIX\nGPU9\tPIX\t X \n",
            "node-a.txt:3: row \"GPU9\" is not one of the header's columns" },
        MalformedCase { "DuplicateRow", "\tGPU0\tGPU1\nGPU0\t X \tPIX\nGPU0\t X \tPIX\n",
            "node-a.txt:3: row GPU0 appears twice (first on line 2)" },
        MalformedCase { "TooManyValues", "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tPIX\t0-3\t0\n",
            "node-a.txt:2: row GPU0 has 2 values after its cells but the header has 1 affinity "
            "columns" },
        MalformedCase {
            "NoRows", "\tGPU0\tGPU1\n\nLegend:\n", "node-a.txt:1: the header is not followed" }),
    [](const testing::TestParamInfo<MalformedCase> &info) { return std::string(info.param.name); });

// Grace Hopper style output: the GPU memory is its own NUMA node, printed as GPU NUMA ID.
TEST(TopoMatrixParserTest, NumericGpuNumaId)
{
    const TopoMatrix matrix
        = parseOk(QStringLiteral("\tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                                 "GPU0\t X \tSYS\t0-71\t0\t\t1\n"
                                 "NIC0\tSYS\t X \t\t\t\t\n"));
    ASSERT_EQ(matrix.devices.size(), 2u);
    EXPECT_EQ(matrix.devices[0].cpuAffinity, QStringLiteral("0-71"));
    EXPECT_EQ(matrix.devices[0].numaNode, 0);
    EXPECT_EQ(matrix.devices[0].gpuNumaId, 1);
}

// A terminal copy whose header lost its leading indentation still lines values up by column.
TEST(TopoMatrixParserTest, HeaderWithoutIndentation)
{
    const TopoMatrix matrix
        = parseOk(QStringLiteral("GPU0    GPU1    CPU Affinity    NUMA Affinity\n"
                                 "GPU0     X      NV12                    1\n"
                                 "GPU1    NV12     X      0-7             0\n"));
    ASSERT_EQ(matrix.devices.size(), 2u);
    EXPECT_TRUE(matrix.devices[0].cpuAffinity.isEmpty());
    EXPECT_EQ(matrix.devices[0].numaNode, 1);
    EXPECT_EQ(matrix.devices[1].cpuAffinity, QStringLiteral("0-7"));
    EXPECT_EQ(matrix.devices[1].numaNode, 0);
    EXPECT_EQ(linkText(matrix, "GPU1", "GPU0"), "NV12");
}
