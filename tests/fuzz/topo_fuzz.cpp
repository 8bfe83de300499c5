// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for the `nvidia-smi topo -m` parser (core/topology/topo_matrix_parser.h) and the
// `nvidia-smi --query-gpu` parser (core/topology/gpu_map.h), with the mapping of one onto the
// other. The input is command output; both parsers read it. The driver: fuzz_driver.h.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <QString>

#include "core/topology/gpu_map.h"
#include "core/topology/topo_matrix_parser.h"
#include "tests/fuzz/fuzz_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString source = QStringLiteral("fuzz.txt");
    const auto matrix = dra::topology::parseTopoMatrix(text, source);
    const auto query = dra::topology::parseGpuQuery(text, source);
    if (matrix) {
        for (const dra::topology::TopoDevice &device : matrix->devices) {
            (void)matrix->device(device.name);
            (void)matrix->nicInterface(device.name);
        }
        for (const dra::topology::TopoLink &link : matrix->links)
            (void)matrix->link(link.to, link.from);
        static const std::vector<dra::topology::GpuCandidate> candidates = {
            { QStringLiteral("gpu-0"), QStringLiteral("0000:1a:00.0"),
                QStringLiteral("GPU-12345678-abcd-ef01-2345-6789abcdef01"), 0 },
            { QStringLiteral("gpu-1"), QStringLiteral("00000000:1B:00.0"), {}, 1 },
            { QStringLiteral("gpu-2"), {}, {}, std::nullopt },
        };
        (void)dra::topology::mapGpus(*matrix, query ? &*query : nullptr, candidates);
        (void)dra::topology::mapGpus(*matrix, nullptr, candidates);
    }
    if (query) {
        for (const dra::topology::GpuIdentity &gpu : *query)
            (void)dra::topology::normalizePciBusId(gpu.pciBusId);
    }
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(argc, argv,
        { "topo_fuzz", &LLVMFuzzerTestOneInput,
            { "\t", " ", "  ", "\n", "\r\n", "GPU0", "GPU1", "GPU7", "GPU12", "NIC0", "NIC1",
                "mlx5_0", "mlx5_3", " X ", "X", "SYS", "SOC", "NODE", "PHB", "PXB", "PIX", "NV1",
                "NV4", "NV12", "NV18", "N/A", "CPU Affinity", "NUMA Affinity", "GPU NUMA ID",
                "0-15", "0-7,16-23", "0", "1", "\x1b[4m", "\x1b[0m", "\x1b[",
                "Legend:", "NIC Legend:", "  NIC0: mlx5_0", "$ nvidia-smi topo -m", "index",
                "pci.bus_id", "uuid", "index, pci.bus_id, uuid", "00000000:1A:00.0", "0000:1a:00.0",
                "00000000:FF:1F.7", "GPU-12345678-abcd-ef01-2345-6789abcdef01", ", ", ",", "\"",
                "\xc3\xa9", "\xff" } });
}
#endif
