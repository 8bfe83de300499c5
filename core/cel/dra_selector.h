// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/cost_estimator.h"
#include "core/cel/device_attribute.h"
#include "core/cel/device_paths.h"
#include "core/cel/diagnostic.h"
#include "core/cel/dra_environment.h"
#include "core/cel/program.h"
#include "core/common/result.h"
#include "core/model/quantity.h"
#include "core/model/version.h"

namespace dra::cel {

// Where an attribute or capacity was found (or would be inserted) on the last device looked
// at: devices of one driver share a layout, so the next device usually has it at the same
// position, and checking that position costs two name comparisons instead of a search.
struct DeviceLookupHint
{
    uint32_t domain = 0;
    uint32_t entry = 0;
};

// The device a selector sees: what Kubernetes exposes as `device`. Build one per device when
// the inventory changes and reuse it for every evaluation; lookups during evaluation borrow
// from it and allocate nothing.
class DeviceView final
{
public:
    std::string driver;
    bool allowMultipleAllocations = false;

    // Adds an attribute by qualified name; a name without "domain/" belongs to the driver's
    // domain, as in Kubernetes. Set `driver` first. Parses a version (prepareDeviceAttribute).
    void addAttribute(std::string_view qualifiedName, DeviceAttributeValue value);
    // Adds a capacity by qualified name, with the same domain rule.
    void addCapacity(std::string_view qualifiedName, model::Quantity value);

    // A value under its qualified name, for the bulk setters below. The name is borrowed.
    template <typename T> struct Named
    {
        std::string_view qualifiedName;
        T value;
    };
    // Replace all attributes (or capacities) at once, in any order: what adding each would give,
    // a later duplicate name winning, with one allocation per domain instead of a sorted insert
    // per value. Values are moved out of `values`. Set `driver` first.
    void setAttributes(std::vector<Named<DeviceAttributeValue>> &values);
    void setCapacities(std::vector<Named<model::Quantity>> &values);

    template <typename T> struct Entry
    {
        std::string name;
        T value;
    };
    template <typename T> struct Domain
    {
        std::string name;
        std::vector<Entry<T>> entries; // sorted by name
    };
    using AttributeDomain = Domain<DeviceAttributeValue>;
    using CapacityDomain = Domain<model::Quantity>;

    // Domains sorted by name.
    const std::vector<AttributeDomain> &attributeDomains() const { return m_attributes; }
    const std::vector<CapacityDomain> &capacityDomains() const { return m_capacity; }
    const AttributeDomain *findAttributeDomain(std::string_view domain) const;
    const CapacityDomain *findCapacityDomain(std::string_view domain) const;
    // One attribute or capacity by domain and name, or nullptr.
    const DeviceAttributeValue *findAttribute(std::string_view domain, std::string_view name) const;
    const model::Quantity *findCapacity(std::string_view domain, std::string_view name) const;
    // The same, starting at `hint` and leaving there the positions of this device.
    const DeviceAttributeValue *findAttribute(
        std::string_view domain, std::string_view name, DeviceLookupHint &hint) const;
    const model::Quantity *findCapacity(
        std::string_view domain, std::string_view name, DeviceLookupHint &hint) const;

private:
    std::vector<AttributeDomain> m_attributes;
    std::vector<CapacityDomain> m_capacity;
};

// The outcome of a selector on one device.
struct SelectorResult
{
    enum class Outcome : uint8_t { Match, NoMatch, Error };
    Outcome outcome = Outcome::Error;
    std::string error; // set when outcome is Error
};

// A selector compiled against the DRA environment, ready to evaluate over many devices.
class CompiledSelector final
{
public:
    // False when the expression had errors (see the diagnostics of compileSelector()).
    bool isValid() const { return m_program.isValid(); }
    // The compiled program, for callers that evaluate with their own variables.
    const Program &program() const { return m_program; }
    // The checked result type ("bool", or the attribute type, google.protobuf.Any or dyn, when it
    // depends on attribute values); empty when the expression did not get as far as type
    // checking.
    const std::string &outputType() const { return m_outputType; }
    // The static cost estimate Kubernetes compares with kSelectorMaxCost (for a new selector).
    CostEstimate cost() const { return m_cost; }
    // The release and kind of expression it was compiled for.
    const SelectorOptions &options() const { return m_options; }
    // What that environment declares (device fields, functions, cost rules).
    const SelectorFeatures &features() const { return m_features; }
    // The paths of `device` the selector reads: leaves with constant keys, or every domain or
    // name of a map (see DevicePath).
    const std::vector<DevicePath> &devicePaths() const { return m_paths; }
    // True when those paths are all it reads of a device, so that devices with equal values
    // on them get equal results (value or error, message included).
    bool readsOnlyDevicePaths() const { return m_readsOnlyDevicePaths; }

private:
    friend Result<CompiledSelector> compileSelector(std::string_view expression,
        const SelectorOptions &options, std::vector<Diagnostic> *diagnostics);
    Program m_program;
    SelectorOptions m_options;
    SelectorFeatures m_features;
    std::string m_outputType;
    CostEstimate m_cost;
    std::vector<DevicePath> m_paths;
    bool m_readsOnlyDevicePaths = false;
};

// Compiles a DRA device selector as Kubernetes does for `options` (a release; a new or a stored
// expression): parse (at most 10 KiB), resolve names, type-check against that release's
// `device` declarations and functions, require a bool (or attribute-typed) result, estimate the
// cost and, for a new selector, reject it above 1,000,000 (a stored one is only limited at run
// time, and gets a warning). Mistakes in the expression land in `diagnostics` with cel-go's and
// kube-apiserver's words and give an invalid selector; warnings (a quantity compared as a
// string) do not invalidate it. The Result fails only on engine faults.
[[nodiscard]] Result<CompiledSelector> compileSelector(std::string_view expression,
    const SelectorOptions &options, std::vector<Diagnostic> *diagnostics);

// The same for a new selector in the newest release with its default gates.
[[nodiscard]] Result<CompiledSelector> compileSelector(
    std::string_view expression, std::vector<Diagnostic> *diagnostics);

// Evaluates a compiled selector on one device. Thread-safe; no allocation on the common path.
// To sweep many devices, SelectorEvaluator is faster.
SelectorResult evaluate(const CompiledSelector &selector, const DeviceView &device);

// Evaluates a compiled selector on one device into `result`, reusing its error's storage.
void evaluateInto(
    const CompiledSelector &selector, const DeviceView &device, SelectorResult &result);

} // namespace dra::cel
