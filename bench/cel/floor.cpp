// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The yardstick for `bench/cel`: each selector of selectors.json written by hand as the plain
// C++ predicate an engineer would write, over a table decoded once from the ResourceSliceList.
// Not CEL (a missing attribute is simply false here, where CEL gives an error that does not
// match either): it is the floor an engine's ns per device is divided by. Timed per device,
// median of 5 passes after 3 warm-ups, no sharing of results between devices. Prints
//   {"devices": N, "results": [{"name", "matches", "ns_per_device"}]}
// Usage: dra_cel_floor INVENTORY.json
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

struct Version
{
    long long major = 0, minor = 0, patch = 0;
    auto operator<=>(const Version &) const = default;
};

Version parseVersion(const std::string &text)
{
    Version v;
    std::sscanf(text.c_str(), "%lld.%lld.%lld", &v.major, &v.minor, &v.patch);
    return v;
}

// Whole base units of a quantity, for the suffixes the demo inventories use.
long long parseQuantity(const std::string &text)
{
    size_t end = 0;
    const long long n = std::stoll(text, &end);
    const std::string_view suffix = std::string_view(text).substr(end);
    static const std::array<std::pair<std::string_view, long long>, 8> scales { {
        { "Ki", 1LL << 10 },
        { "Mi", 1LL << 20 },
        { "Gi", 1LL << 30 },
        { "Ti", 1LL << 40 },
        { "k", 1000LL },
        { "M", 1000000LL },
        { "G", 1000000000LL },
        { "T", 1000000000000LL },
    } };
    for (const auto &[name, scale] : scales) {
        if (suffix == name)
            return n * scale;
    }
    return n;
}

// The element of `items` called `name`, or nullptr: domains and attributes are a handful, so a
// scan is what a hand-written predicate would do.
template <typename Items> auto *findNamed(Items &items, std::string_view name)
{
    for (auto &item : items) {
        if (item.name == name)
            return &item;
    }
    return static_cast<decltype(&*items.begin())>(nullptr);
}

struct Attribute
{
    std::string name;
    bool isString = false;
    std::string text;
};

struct Domain
{
    std::string name;
    std::vector<Attribute> attributes;
};

struct Device
{
    std::string driver;
    // The fields the constant-key selectors read, decoded once.
    bool hasType = false, hasProduct = false, hasArchitecture = false, hasProfile = false;
    bool hasPcieRoot = false, hasNuma = false, hasMemory = false, hasMultiprocessors = false;
    bool hasDriverVersion = false, hasComputeCapability = false;
    std::string type, product, architecture, profile, pcieRoot;
    long long numa = 0, memory = 0, multiprocessors = 0;
    Version driverVersion, computeCapability;
    // Every attribute by domain, for the selectors whose keys are not constants.
    std::vector<Domain> domains;
};

std::vector<Device> loadDevices(const char *path)
{
    std::ifstream file(path);
    const nlohmann::json list = nlohmann::json::parse(file);
    std::vector<Device> devices;
    for (const nlohmann::json &slice : list.at("items")) {
        if (slice.value("kind", "") != "ResourceSlice")
            continue;
        const std::string driver = slice.at("spec").at("driver");
        const nlohmann::json sliceDevices
            = slice.at("spec").value("devices", nlohmann::json::array());
        for (const nlohmann::json &d : sliceDevices) {
            Device device;
            device.driver = driver;
            const nlohmann::json attributes = d.value("attributes", nlohmann::json::object());
            for (const auto &[qualified, value] : attributes.items()) {
                const size_t slash = qualified.find('/');
                const std::string domain
                    = slash == std::string::npos ? driver : qualified.substr(0, slash);
                const std::string name
                    = slash == std::string::npos ? qualified : qualified.substr(slash + 1);
                Attribute attribute { name, value.contains("string"), {} };
                if (value.contains("string"))
                    attribute.text = value["string"];
                else if (value.contains("version"))
                    attribute.text = value["version"];
                Domain *found = findNamed(device.domains, domain);
                if (!found)
                    found = &device.domains.emplace_back(Domain { domain, {} });
                found->attributes.push_back(attribute);
                if (domain == "gpu.nvidia.com") {
                    if (name == "type")
                        device.hasType = true, device.type = attribute.text;
                    else if (name == "productName")
                        device.hasProduct = true, device.product = attribute.text;
                    else if (name == "architecture")
                        device.hasArchitecture = true, device.architecture = attribute.text;
                    else if (name == "profile")
                        device.hasProfile = true, device.profile = attribute.text;
                    else if (name == "driverVersion")
                        device.hasDriverVersion = true,
                        device.driverVersion = parseVersion(attribute.text);
                    else if (name == "cudaComputeCapability")
                        device.hasComputeCapability = true,
                        device.computeCapability = parseVersion(attribute.text);
                } else if (domain == "resource.kubernetes.io") {
                    if (name == "pcieRoot")
                        device.hasPcieRoot = true, device.pcieRoot = attribute.text;
                    else if (name == "numaNode" && value.contains("int"))
                        device.hasNuma = true, device.numa = value["int"];
                }
            }
            const nlohmann::json capacity = d.value("capacity", nlohmann::json::object());
            for (const auto &[qualified, value] : capacity.items()) {
                const long long amount = parseQuantity(value.at("value"));
                if (qualified == "memory" || qualified == "gpu.nvidia.com/memory")
                    device.hasMemory = true, device.memory = amount;
                else if (qualified == "multiprocessors"
                    || qualified == "gpu.nvidia.com/multiprocessors")
                    device.hasMultiprocessors = true, device.multiprocessors = amount;
            }
            devices.push_back(std::move(device));
        }
    }
    return devices;
}

using Predicate = bool (*)(const Device &);

// One per selector of selectors.json, by name.
const std::vector<std::pair<std::string, Predicate>> &predicates()
{
    static const std::vector<std::pair<std::string, Predicate>> all {
        { "driver", [](const Device &d) { return d.driver == "gpu.nvidia.com"; } },
        { "type", [](const Device &d) { return d.hasType && d.type == "gpu"; } },
        { "product-prefix",
            [](const Device &d) { return d.hasProduct && d.product.starts_with("NVIDIA H100"); } },
        { "product-in",
            [](const Device &d) {
                return d.hasProduct
                    && (d.product == "NVIDIA H100 80GB HBM3"
                        || d.product == "NVIDIA H200 141GB HBM3e");
            } },
        { "product-regex",
            [](const Device &d) {
                return d.hasProduct
                    && (d.product.find("H100") != std::string::npos
                        || d.product.find("H200") != std::string::npos);
            } },
        { "memory", [](const Device &d) { return d.hasMemory && d.memory >= (40LL << 30); } },
        { "compute-capability",
            [](const Device &d) {
                return d.hasComputeCapability && d.computeCapability > Version { 8, 9, 0 };
            } },
        { "driver-version",
            [](const Device &d) {
                return d.hasDriverVersion && d.driverVersion >= Version { 550, 0, 0 };
            } },
        { "numa", [](const Device &d) { return d.hasNuma && d.numa == 0; } },
        { "bind",
            [](const Device &d) {
                return d.hasType && d.type == "gpu" && d.hasArchitecture
                    && d.architecture == "Hopper";
            } },
        { "mig-profile", [](const Device &d) { return d.hasProfile && d.profile == "1g.10gb"; } },
        { "combined",
            [](const Device &d) {
                return d.driver == "gpu.nvidia.com" && d.hasType && d.type == "gpu"
                    && d.hasMultiprocessors && d.multiprocessors >= 100;
            } },
        { "pcie-root",
            [](const Device &d) { return d.hasPcieRoot && d.pcieRoot == "pci0000:15"; } },
        { "dynamic-key",
            [](const Device &d) {
                const Domain *domain = findNamed(d.domains, d.driver);
                const Attribute *type = domain ? findNamed(domain->attributes, "type") : nullptr;
                return type && type->isString && type->text == "gpu";
            } },
        { "domain-exists",
            [](const Device &d) {
                return std::any_of(d.domains.begin(), d.domains.end(),
                    [](const Domain &x) { return x.name.ends_with(".nvidia.com"); });
            } },
        { "attribute-exists",
            [](const Device &d) {
                const Domain *domain = findNamed(d.domains, "gpu.nvidia.com");
                return domain
                    && std::any_of(domain->attributes.begin(), domain->attributes.end(),
                        [](const Attribute &a) { return a.name.starts_with("cuda"); });
            } },
    };
    return all;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s INVENTORY.json\n", argv[0]);
        return 2;
    }
    const std::vector<Device> devices = loadDevices(argv[1]);
    nlohmann::json results = nlohmann::json::array();
    for (const auto &[name, predicate] : predicates()) {
        std::vector<double> samples;
        size_t matches = 0;
        for (int pass = 0; pass < 8; ++pass) {
            const auto start = std::chrono::steady_clock::now();
            size_t m = 0;
            for (const Device &d : devices)
                m += predicate(d) ? 1 : 0;
            const auto end = std::chrono::steady_clock::now();
            if (pass >= 3 && !devices.empty())
                samples.push_back(std::chrono::duration<double, std::nano>(end - start).count()
                    / static_cast<double>(devices.size()));
            matches = m;
        }
        std::sort(samples.begin(), samples.end());
        results.push_back({ { "name", name }, { "matches", matches },
            { "ns_per_device", samples.empty() ? 0.0 : samples[samples.size() / 2] } });
    }
    const nlohmann::json out { { "devices", devices.size() }, { "results", results } };
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
