// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/dra_environment.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/cel/device_attribute.h"

namespace dra::cel {

namespace {

// resource.k8s.io validation limits.
constexpr uint64_t kMaxAttributesAndCapacities
    = 32; // ResourceSliceMaxAttributesAndCapacitiesPerDevice
constexpr uint64_t kMaxDomainLength = 63; // DeviceMaxDomainLength
constexpr uint64_t kMaxIdLength = 32; // DeviceMaxIDLength
constexpr uint64_t kMaxAttributeValueLength = 64; // DeviceAttributeMaxValueLength
constexpr uint64_t kMaxDriverNameLength = 63; // DriverNameMaxLength

// One node of the declared shape of `device`, as Kubernetes' declaration types describe it:
// a maximum size, and the element, key and fields reachable from it.
struct Shape
{
    uint64_t maxElements = 0;
    const Shape *element = nullptr;
    const Shape *key = nullptr;
    std::map<std::string, const Shape *, std::less<>> fields;
};

struct DeviceShapes
{
    Shape driver { kMaxDriverNameLength };
    Shape domain { kMaxDomainLength };
    Shape id { kMaxIdLength };
    // A string or version of at most 64 characters, or a list of at most 48 values: the
    // larger bound covers both.
    Shape attribute { std::max<uint64_t>(kMaxAttributeValueLength, kDeviceAttributeMaxValues) };
    Shape quantity { 0 };
    // A bool compares like a scalar literal (size 1): Kubernetes publishes 3 for
    // `device.allowMultipleAllocations == true`, where a size of 0 would make it 2.
    Shape flag { 1 };
    Shape innerAttributes { kMaxAttributesAndCapacities, &attribute, &id };
    Shape outerAttributes { kMaxAttributesAndCapacities, &innerAttributes, &domain };
    Shape innerCapacity { kMaxAttributesAndCapacities, &quantity, &id };
    Shape outerCapacity { kMaxAttributesAndCapacities, &innerCapacity, &domain };
    Shape device { 0 };

    DeviceShapes()
    {
        device.fields = { { "driver", &driver }, { "attributes", &outerAttributes },
            { "capacity", &outerCapacity }, { "allowMultipleAllocations", &flag } };
    }
};

class DeviceSizeEstimator final : public SizeEstimator
{
public:
    std::optional<SizeEstimate> estimateSize(std::span<const std::string> path) const override
    {
        if (path.empty() || path[0] != "device")
            return std::nullopt;
        const Shape *node = &m_shapes.device;
        for (const std::string &step : path.subspan(1)) {
            if (step == "@items" || step == "@values") {
                node = node->element;
            } else if (step == "@keys") {
                node = node->key;
            } else if (const auto f = node->fields.find(step); f != node->fields.end()) {
                node = f->second;
            } else if (node->element == &m_shapes.attribute) {
                // `attrs.name`: every attribute of a domain has the same bound, whatever its name.
                node = &m_shapes.attribute;
            } else {
                return std::nullopt;
            }
            if (!node)
                return std::nullopt;
        }
        return SizeEstimate { 0, node->maxElements };
    }

private:
    DeviceShapes m_shapes;
};

// `target.includes(arg)` (KEP-5491): whether a list attribute holds `arg`, or a scalar one
// equals it, so one selector serves drivers that publish a value and drivers that publish
// several. Lists are searched up to the per-device value limit, which also bounds the cost.
Value includes(std::span<const Value> args, EvalFrame &)
{
    const Value &target = args[0];
    const Value &wanted = args[1];
    if (target.kind() != Kind::List)
        return Value::boolean(valuesEqual(target, wanted));
    const ListData &elements = target.asList();
    for (size_t i = 0; i < elements.size(); ++i) {
        if (i >= kDeviceAttributeMaxValues)
            return Value::error("'includes' function cannot be applied to lists longer than "
                + std::to_string(kDeviceAttributeMaxValues) + " values");
        if (valuesEqual(elements[i], wanted))
            return Value::boolean(true);
    }
    return Value::boolean(false);
}

// One environment and its declarations, built for a set of features.
struct SelectorEnvironmentEntry
{
    SelectorFeatures features;
    Environment environment;
    Declarations declarations;
};

LibrarySet selectorLibraries(const SelectorFeatures &features)
{
    LibrarySet libraries = LibrarySet::kubernetesSelectors();
    libraries.twoVarComprehensions = features.twoVarComprehensions;
    libraries.semverNormalize = features.semverNormalize;
    libraries.celLists = features.celLists;
    return libraries;
}

std::unique_ptr<SelectorEnvironmentEntry> buildEnvironment(const SelectorFeatures &features)
{
    auto entry = std::make_unique<SelectorEnvironmentEntry>();
    entry->features = features;
    const LibrarySet libraries = selectorLibraries(features);
    Environment &e = entry->environment;
    e = Environment::standard(libraries);
    e.addVariable("device");
    if (features.includes)
        e.mutableFunctions().add(
            "includes", "dra_includes_dyn_dyn", true, { Kind::Dyn, Kind::Dyn }, includes);

    Declarations &d = entry->declarations;
    d = Declarations::forLibraries(libraries);
    const CelType str = CelType::simple(CelType::Kind::String);
    std::map<std::string, CelType, std::less<>> fields = { { "driver", str },
        { "attributes", CelType::map(str, CelType::map(str, selectorAttributeType(features))) },
        { "capacity",
            CelType::map(
                str, CelType::map(str, CelType::opaque(std::string(kQuantityTypeName)))) } };
    if (features.allowMultipleAllocations)
        fields.emplace("allowMultipleAllocations", CelType::simple(CelType::Kind::Bool));
    d.addObjectType("kubernetes.DRADevice", std::move(fields));
    d.addVariable("device", CelType::object("kubernetes.DRADevice"));
    if (features.includes)
        d.addFunction(".includes(dyn, dyn) -> bool");
    return entry;
}

// The environment of `features`, built on first use and kept: there are only a few distinct
// feature sets across the releases and gates.
const SelectorEnvironmentEntry &environmentFor(const SelectorFeatures &features)
{
    static std::mutex mutex;
    static std::vector<std::unique_ptr<SelectorEnvironmentEntry>> entries;
    const std::lock_guard lock(mutex);
    for (const auto &entry : entries) {
        if (entry->features == features)
            return *entry;
    }
    entries.push_back(buildEnvironment(features));
    return *entries.back();
}

} // namespace

SelectorFeatures selectorFeatures(const SelectorOptions &options)
{
    const int minor = options.release.minor;
    const release::FeatureGates &gates = options.release.gates;
    const bool stored = options.stored;
    // kube-apiserver compiles new expressions with the base libraries of its compatibility
    // version, the previous minor release, so that a rollback can still read them.
    const int baseMinor = stored ? minor : minor - 1;
    SelectorFeatures f;
    f.twoVarComprehensions = baseMinor >= 32;
    f.semverNormalize = baseMinor >= 33;
    f.celLists = baseMinor >= 34;
    // A gated declaration is offered to new expressions when its gate is on, and to stored ones
    // from the release that introduced it on, whatever the gate.
    f.allowMultipleAllocations = minor >= 34 && (stored || gates.consumableCapacity);
    f.includes = minor >= 36 && (stored || gates.listTypeAttributes);
    // 1.36 types attributes by the gate alone; 1.37 types stored expressions' attributes as
    // lists whatever the gate.
    f.listAttributes = minor >= 36 && ((stored && minor >= 37) || gates.listTypeAttributes);
    f.estimatedCostLimit = !stored && minor >= 32;
    f.deviceSizeBounds = minor >= 33;
    return f;
}

CelType selectorAttributeType(const SelectorFeatures &features)
{
    return CelType::simple(features.listAttributes ? CelType::Kind::Dyn : CelType::Kind::Any);
}

const Environment &selectorEnvironment(const SelectorOptions &options)
{
    return environmentFor(selectorFeatures(options)).environment;
}

const Declarations &selectorDeclarations(const SelectorOptions &options)
{
    return environmentFor(selectorFeatures(options)).declarations;
}

const SizeEstimator &selectorSizeEstimator()
{
    static const DeviceSizeEstimator estimator;
    return estimator;
}

} // namespace dra::cel
