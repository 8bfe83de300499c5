// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dra::sandbox {

// One MIG GPU-instance profile as NVML reports it for a GPU model: the engines and memory one
// instance gets, its GPU-instance profile id (part of the driver's device name) and where it may
// start within the GPU's memory slices.
struct MigProfile
{
    std::string_view name; // "1g.10gb"
    int giProfileId = 0;
    int multiprocessors = 0;
    int copyEngines = 0;
    int decoders = 0;
    int encoders = 0;
    int jpegEngines = 0;
    int ofaEngines = 0;
    int64_t memoryMiB = 0;
    int memorySliceCount = 0; // memory slices one placement covers
    std::span<const int> placementStarts;
};

// A GPU model with the values NVML gives the driver (total memory in MiB as NVML reports it,
// not the marketing size) and, for MIG-capable models the presets partition, its profiles.
struct GpuModel
{
    std::string_view productName;
    std::string_view architecture;
    std::string_view cudaComputeCapability; // semver, as the driver publishes it
    int64_t memoryMiB = 0;
    int memorySlices = 0; // MIG memory slices; 0 when the preset does not partition it
    std::span<const MigProfile> migProfiles;
    std::string_view gfdProduct; // GPU feature discovery's nvidia.com/gpu.product label
};

const GpuModel &h100Sxm();
const GpuModel &a100Sxm80();
const GpuModel &l40sPcie();

// Driver and CUDA versions every generated node runs; one place so a demo upgrade is one edit.
inline constexpr std::string_view kDriverVersion = "580.126.20";
inline constexpr std::string_view kCudaDriverVersion = "13.0.0";

// "81559Mi" or "80Gi": the BinarySI form Kubernetes prints for a byte count given in MiB.
std::string mebibytes(int64_t mib);

// The driver's MIG device name: gpu-<minor>-mig-<profile without dots>-<giProfileId>-<start>.
std::string migDeviceName(int minor, const MigProfile &profile, int placementStart);

} // namespace dra::sandbox
