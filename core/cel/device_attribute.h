// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cel/value.h"
#include "core/model/version.h"

namespace dra::model {
struct DeviceAttribute;
}

namespace dra::cel {

// Kubernetes' limits on one device's attributes (resource.k8s.io validation).
// ResourceSliceMaxAttributeValuesPerDevice: values of all attributes, a list counting its length.
inline constexpr size_t kDeviceAttributeMaxValues = 48;
// DeviceAttributeMaxValueLength: characters of one string or version.
inline constexpr size_t kDeviceAttributeMaxValueLength = 64;

// The elements of a list-typed attribute, immutable once built and shared by the copies of
// the value, so that scalars (nearly every attribute) pay one pointer for lists.
struct DeviceAttributeList
{
    std::vector<int64_t> ints; // Ints
    std::vector<bool> bools; // Bools
    std::vector<std::string> texts; // Strings, or the version texts of Versions
    ListData values; // as selectors see them (versions parsed)
    std::string error; // instead of values: a version that is not semver
};

// One attribute value of a device, as ResourceSlice publishes it: a scalar, or (KEP-5491,
// DRAListTypeAttributes) a list of one scalar type. A plain value.
struct DeviceAttributeValue
{
    enum class Type : uint8_t { Int, Bool, String, Version, Ints, Bools, Strings, Versions };
    Type type = Type::String;
    int64_t intValue = 0;
    bool boolValue = false;
    std::string stringValue; // string, or the version text
    // The parsed version (set by DeviceView::addAttribute); null when the text is not semver,
    // which makes reading the attribute an error, as in Kubernetes. Behind a pointer because
    // few attributes are versions and a snapshot holds hundreds of thousands of values.
    std::shared_ptr<const model::Version> version;
    // The elements of a list type (set by the factories below); null for a scalar.
    std::shared_ptr<const DeviceAttributeList> list;

    static DeviceAttributeValue ints(std::vector<int64_t> values);
    static DeviceAttributeValue bools(std::vector<bool> values);
    static DeviceAttributeValue strings(std::vector<std::string> values);
    static DeviceAttributeValue versions(std::vector<std::string> values);

    bool isList() const { return type >= Type::Ints; }
    // How many values the attribute holds: 1 for a scalar, the length of a list.
    size_t valueCount() const;
};

// Parses the version of a Version attribute. DeviceView::addAttribute calls it; idempotent.
void prepareDeviceAttribute(DeviceAttributeValue &value);

// The attribute as ResourceSlice's model holds it.
DeviceAttributeValue deviceAttributeFromModel(const model::DeviceAttribute &attribute);

// The CEL value of an attribute: an int, bool, string or semver, or a list of them; an error
// when a version is not semver, as in Kubernetes. Borrows from `value`.
Value deviceAttributeValue(const DeviceAttributeValue &value);

// The value as tables print it: `80`, `true`, `H100`, `1.2.3`, `[a, b]`.
std::string deviceAttributeText(const DeviceAttributeValue &value);

// Same type and same values.
bool sameDeviceAttribute(const DeviceAttributeValue &a, const DeviceAttributeValue &b);

} // namespace dra::cel
