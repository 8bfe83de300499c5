// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

// The fields of `device` a selector reads with constant keys, compiled into direct accessors.
// Internal to the module: used by compileSelector() and SelectorEvaluator.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/ast.h"
#include "core/cel/program.h"

namespace dra::model {
class Quantity;
}

namespace dra::cel {

class DeviceView;
struct DeviceAttributeValue;
struct DeviceLookupHint;

// What a selector reads of `device`. Usually one leaf named with constant keys:
// `device.driver`, `device.allowMultipleAllocations`, `device.attributes["d"].n` (or
// `["d"]["n"]`) and `device.capacity["d"].n`; its value on a device is all a read of it can
// depend on. A key computed at run time (`device.attributes[device.driver].type`) or a map
// used whole (iterated, sized, compared) reads a set of leaves instead: every domain or every
// name of an attribute or capacity path. And a read that only asks which entries exist
// (`"n" in device.attributes["d"]`, has(), iterating a map's keys, size()) depends on their
// presence, not on their values.
struct DevicePath
{
    enum class Kind : uint8_t { Driver, AllowMultipleAllocations, Attribute, Capacity };
    Kind kind = Kind::Driver;
    std::string domain; // Attribute and Capacity
    std::string name;
    bool anyDomain = false; // every domain, not `domain`
    bool anyName = false; // every name in the domain(s), not `name`
    bool presenceOnly = false;

    // Whether this names one leaf (perhaps only its presence), not a set of them.
    bool isLeaf() const { return !anyDomain && !anyName; }
    // Whether the leaf `domain`/`name` of `kind` is among those this path reads.
    bool covers(Kind leafKind, std::string_view leafDomain, std::string_view leafName) const
    {
        return leafKind == kind && (anyDomain || leafDomain == domain)
            && (anyName || leafName == name);
    }

    bool operator==(const DevicePath &) const = default;
};

// Plans leaf paths of `device` as accessors that find the entry in the device view directly,
// with no intermediate map values. The planner asks it for every select and index.
class DevicePathCompiler final : public PathCompiler
{
public:
    std::unique_ptr<Node> compilePath(const Expr &e, std::unique_ptr<Node> generic) const override;
    // `"n" in device.attributes["d"]` as has(device.attributes["d"].n).
    std::unique_ptr<Node> compileKeyTest(
        const Expr &e, std::unique_ptr<Node> generic) const override;
};

// The leaf path `e` reads (not a has() test), if it is one.
std::optional<DevicePath> devicePathOf(const Expr &e);

// Collects the paths `root` reads (without duplicates) and returns true when those are its
// only reads of `device`: then the result is a function of what they cover on a device. False
// when it uses `device` itself as a value or binds a local `device`.
bool collectDevicePaths(const Expr &root, std::vector<DevicePath> &paths);

// Appends an exact encoding of what `path` reads on `device` (absent included) to `key`:
// equal encodings mean equal values (or presence), to every function a selector can apply.
// `hint` is a leaf path's position on the previous device (see DeviceLookupHint).
void appendDevicePathKey(
    const DevicePath &path, const DeviceView &device, std::string &key, DeviceLookupHint &hint);

// The encodings appendDevicePathKey() uses for one value (nullptr: absent), for callers that
// already hold the value, such as DeviceTable.
void appendAttributeKey(const DeviceAttributeValue *value, std::string &key);
void appendCapacityKey(const model::Quantity *value, std::string &key);
void appendDriverKey(std::string_view driver, std::string &key);

// The "no such key" error of a missing attribute or capacity (`what`), with Kubernetes' hint.
Value missingDeviceEntry(std::string_view what, std::string_view domain, std::string_view name);

} // namespace dra::cel
