// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/sandbox/cluster_plan.h"

namespace dra::sandbox {

// Everything in a generated object that would be random in a real cluster (uids, GPU UUIDs,
// generateName suffixes, boot ids) derived from the seed and the object's identity, so one seed
// always gives the same cluster and objects do not depend on generation order.
class ObjectFactory final
{
public:
    explicit ObjectFactory(uint64_t seed);

    // The kubelet version nodes report (default v1.35.2, behind the demo's control plane).
    void setKubeletVersion(std::string version) { m_kubeletVersion = std::move(version); }

    // 64 well-mixed bits for `key` under this seed.
    [[nodiscard]] uint64_t hash(std::string_view key) const;
    // A version-4-shaped UUID derived from `key`, lower-case hex.
    [[nodiscard]] std::string uuid(std::string_view key) const;
    // Kubernetes' generateName suffix alphabet (no vowels), `length` characters.
    [[nodiscard]] std::string nameSuffix(std::string_view key, int length = 5) const;
    // "GPU-xxxxxxxx-xxxx-..." for GPU `minor` of `node`.
    [[nodiscard]] std::string gpuUuid(std::string_view node, int minor) const;

    // The uid object() gives the object of that kind, namespace and name.
    [[nodiscard]] std::string uid(std::string_view kind, const std::string &name,
        const std::string &ns = std::string()) const;

    // {apiVersion, kind, metadata{name, [namespace], uid, resourceVersion, generation,
    // creationTimestamp}}; the uid hashes kind, namespace and name.
    [[nodiscard]] nlohmann::json object(std::string_view apiVersion, std::string_view kind,
        const std::string &name, const std::string &ns = std::string()) const;

    [[nodiscard]] nlohmann::json namespaceObject(const std::string &name) const;
    // A Ready node with full nodeInfo, GPU labels, taint and capacity for its stack. Not const:
    // nodes of one shape are stamped from a cached prototype, which keeps 5,000 nodes cheap.
    [[nodiscard]] nlohmann::json node(const NodePlan &plan);

private:
    [[nodiscard]] nlohmann::json nodePrototype(const NodeShape &shape, GpuStack stack) const;

    uint64_t m_seed;
    std::string m_kubeletVersion { "v1.35.2" };
    std::map<std::pair<const NodeShape *, GpuStack>, nlohmann::json> m_nodePrototypes;
};

// The fixed creation time of every generated object, so output is byte-stable.
inline constexpr std::string_view kCreationTimestamp = "2026-01-15T09:00:00Z";

// Every DeviceClass the NVIDIA driver's Helm chart installs, plus the NIC driver's class when
// `withNics`, as a JSON array of DeviceClass objects.
nlohmann::json deviceClasses(const ObjectFactory &factory, bool withNics);

// The NIC driver our demo clusters run beside the GPU driver (dranet-style).
inline constexpr std::string_view kNicDriver = "dra.net";
inline constexpr std::string_view kNicDeviceClass = "dranet";
inline constexpr std::string_view kGpuDriver = "gpu.nvidia.com";

} // namespace dra::sandbox
