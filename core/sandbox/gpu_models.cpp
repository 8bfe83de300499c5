// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/gpu_models.h"

#include <cctype>

namespace dra::sandbox {

namespace {

// A100-SXM4-80GB: 7 compute slices over 8 memory slices. The 1g.10gb+me variant is left out
// because we do not know for sure how the driver spells '+' in a device name.
constexpr int kStarts1Slice[] = { 0, 1, 2, 3, 4, 5, 6 };
constexpr int kStarts2Slices[] = { 0, 2, 4, 6 };
constexpr int kStarts2g[] = { 0, 2, 4 };
constexpr int kStarts4Slices[] = { 0, 4 };
constexpr int kStartsZero[] = { 0 };

constexpr MigProfile kA100Profiles[] = {
    { "1g.10gb", 19, 14, 1, 0, 0, 0, 0, 9728, 1, kStarts1Slice },
    { "1g.20gb", 15, 14, 1, 1, 0, 0, 0, 19968, 2, kStarts2Slices },
    { "2g.20gb", 14, 28, 2, 1, 0, 0, 0, 19968, 2, kStarts2g },
    { "3g.40gb", 9, 42, 3, 2, 0, 0, 0, 40192, 4, kStarts4Slices },
    { "4g.40gb", 5, 56, 4, 2, 0, 0, 0, 40192, 4, kStartsZero },
    { "7g.80gb", 0, 98, 7, 5, 0, 1, 1, 81152, 8, kStartsZero },
};

} // namespace

const GpuModel &h100Sxm()
{
    static const GpuModel model { "NVIDIA H100 80GB HBM3", "Hopper", "9.0.0", 81559, 0, {},
        "NVIDIA-H100-80GB-HBM3" };
    return model;
}

const GpuModel &a100Sxm80()
{
    static const GpuModel model { "NVIDIA A100-SXM4-80GB", "Ampere", "8.0.0", 81920, 8,
        kA100Profiles, "NVIDIA-A100-SXM4-80GB" };
    return model;
}

const GpuModel &l40sPcie()
{
    static const GpuModel model { "NVIDIA L40S", "Ada Lovelace", "8.9.0", 46068, 0, {},
        "NVIDIA-L40S" };
    return model;
}

std::string mebibytes(int64_t mib)
{
    if (mib % 1024 == 0)
        return std::to_string(mib / 1024) + "Gi";
    return std::to_string(mib) + "Mi";
}

std::string migDeviceName(int minor, const MigProfile &profile, int placementStart)
{
    std::string compact;
    for (const char c : profile.name) {
        if (c != '.')
            compact += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return "gpu-" + std::to_string(minor) + "-mig-" + compact + '-'
        + std::to_string(profile.giProfileId) + '-' + std::to_string(placementStart);
}

} // namespace dra::sandbox
