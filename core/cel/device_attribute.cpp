// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/device_attribute.h"

#include <utility>

#include "core/cel/kubernetes_types.h"
#include "core/model/resource_types.h"

namespace dra::cel {

namespace {

using Type = DeviceAttributeValue::Type;

std::string versionError(const std::string &text)
{
    return "parse semantic version: invalid version \"" + text + "\"";
}

// A list attribute of `type` over `list`, whose CEL values are built here once, so that
// evaluations borrow them.
DeviceAttributeValue listValue(Type type, DeviceAttributeList list)
{
    switch (type) {
    case Type::Ints:
        for (int64_t i : list.ints)
            list.values.push_back(Value::integer(i));
        break;
    case Type::Bools:
        for (bool b : list.bools)
            list.values.push_back(Value::boolean(b));
        break;
    case Type::Strings:
        for (const std::string &s : list.texts)
            list.values.push_back(Value::string(s));
        break;
    case Type::Versions:
        for (const std::string &text : list.texts) {
            Result<model::Version> parsed = model::Version::parse(text);
            if (!parsed) {
                list.values.clear();
                list.error = versionError(text);
                break;
            }
            list.values.push_back(semverValue(std::move(*parsed)));
        }
        break;
    default:
        break;
    }
    DeviceAttributeValue value;
    value.type = type;
    value.list = std::make_shared<const DeviceAttributeList>(std::move(list));
    return value;
}

template <typename T, typename Format>
std::string joined(const std::vector<T> &items, Format format)
{
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += ", ";
        out += format(items[i]);
    }
    return out + ']';
}

const DeviceAttributeList &emptyList()
{
    static const DeviceAttributeList empty;
    return empty;
}

// The elements of a list type; empty for a list type built without its elements.
const DeviceAttributeList &elementsOf(const DeviceAttributeValue &value)
{
    return value.list ? *value.list : emptyList();
}

} // namespace

DeviceAttributeValue DeviceAttributeValue::ints(std::vector<int64_t> values)
{
    DeviceAttributeList list;
    list.ints = std::move(values);
    return listValue(Type::Ints, std::move(list));
}

DeviceAttributeValue DeviceAttributeValue::bools(std::vector<bool> values)
{
    DeviceAttributeList list;
    list.bools = std::move(values);
    return listValue(Type::Bools, std::move(list));
}

DeviceAttributeValue DeviceAttributeValue::strings(std::vector<std::string> values)
{
    DeviceAttributeList list;
    list.texts = std::move(values);
    return listValue(Type::Strings, std::move(list));
}

DeviceAttributeValue DeviceAttributeValue::versions(std::vector<std::string> values)
{
    DeviceAttributeList list;
    list.texts = std::move(values);
    return listValue(Type::Versions, std::move(list));
}

size_t DeviceAttributeValue::valueCount() const
{
    switch (type) {
    case Type::Ints:
        return elementsOf(*this).ints.size();
    case Type::Bools:
        return elementsOf(*this).bools.size();
    case Type::Strings:
    case Type::Versions:
        return elementsOf(*this).texts.size();
    default:
        return 1;
    }
}

void prepareDeviceAttribute(DeviceAttributeValue &value)
{
    if (value.type == Type::Version && !value.version) {
        if (Result<model::Version> parsed = model::Version::parse(value.stringValue))
            value.version = std::make_shared<const model::Version>(std::move(*parsed));
    }
}

DeviceAttributeValue deviceAttributeFromModel(const model::DeviceAttribute &attribute)
{
    using M = model::DeviceAttribute::Type;
    switch (attribute.type) {
    case M::Ints:
        return DeviceAttributeValue::ints(attribute.intValues);
    case M::Bools:
        return DeviceAttributeValue::bools(attribute.boolValues);
    case M::Strings:
        return DeviceAttributeValue::strings(attribute.stringValues);
    case M::Versions:
        return DeviceAttributeValue::versions(attribute.stringValues);
    default:
        break;
    }
    DeviceAttributeValue value;
    value.intValue = attribute.intValue;
    value.boolValue = attribute.boolValue;
    value.stringValue = attribute.stringValue;
    switch (attribute.type) {
    case M::Int:
        value.type = Type::Int;
        break;
    case M::Bool:
        value.type = Type::Bool;
        break;
    case M::Version:
        value.type = Type::Version;
        break;
    default:
        value.type = Type::String;
        break;
    }
    return value;
}

Value deviceAttributeValue(const DeviceAttributeValue &value)
{
    switch (value.type) {
    case Type::Int:
        return Value::integer(value.intValue);
    case Type::Bool:
        return Value::boolean(value.boolValue);
    case Type::String:
        return Value::borrowedString(value.stringValue);
    case Type::Version:
        if (!value.version)
            return Value::error(versionError(value.stringValue));
        return borrowedSemverValue(*value.version);
    case Type::Ints:
    case Type::Bools:
    case Type::Strings:
    case Type::Versions: {
        const DeviceAttributeList &list = elementsOf(value);
        if (!list.error.empty())
            return Value::error(list.error);
        return Value::borrowedList(list.values);
    }
    }
    return Value();
}

std::string deviceAttributeText(const DeviceAttributeValue &value)
{
    const DeviceAttributeList &list = elementsOf(value);
    switch (value.type) {
    case Type::Int:
        return std::to_string(value.intValue);
    case Type::Bool:
        return value.boolValue ? "true" : "false";
    case Type::String:
    case Type::Version:
        return value.stringValue;
    case Type::Ints:
        return joined(list.ints, [](int64_t i) { return std::to_string(i); });
    case Type::Bools:
        return joined(list.bools, [](bool b) { return std::string(b ? "true" : "false"); });
    case Type::Strings:
    case Type::Versions:
        return joined(list.texts, [](const std::string &s) { return s; });
    }
    return {};
}

bool sameDeviceAttribute(const DeviceAttributeValue &a, const DeviceAttributeValue &b)
{
    if (a.type != b.type || a.intValue != b.intValue || a.boolValue != b.boolValue
        || a.stringValue != b.stringValue)
        return false;
    const DeviceAttributeList &x = elementsOf(a);
    const DeviceAttributeList &y = elementsOf(b);
    return &x == &y || (x.ints == y.ints && x.bools == y.bools && x.texts == y.texts);
}

} // namespace dra::cel
