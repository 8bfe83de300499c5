// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Small derived facts about model types, shared by every table and view.
#include <algorithm>

#include "core/model/core_types.h"
#include "core/model/resource_types.h"
#include "core/model/workload_types.h"

namespace dra::model {

namespace {

template <typename T, typename F> std::string joinList(const std::vector<T> &values, F &&toText)
{
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += ", ";
        out += toText(values[i]);
    }
    return out + "]";
}

int64_t gpusIn(const StringPairs &resources)
{
    for (const auto &[name, value] : resources) {
        if (name == "nvidia.com/gpu") {
            if (const Result<Quantity> q = Quantity::parse(value); q)
                return q->asInt64().value_or(0);
        }
    }
    return 0;
}

// "domain/name" compared with "domain/name", an unqualified side taking `driver` as its domain.
// Compares in place: this runs for every device in tables and topology views.
bool sameQualifiedName(std::string_view a, std::string_view b, std::string_view driver)
{
    const auto split = [driver](std::string_view name) {
        const size_t slash = name.find('/');
        return slash == std::string_view::npos
            ? std::pair { driver, name }
            : std::pair { name.substr(0, slash), name.substr(slash + 1) };
    };
    return split(a) == split(b);
}

template <typename T>
const T *findNamed(const std::vector<std::pair<AttributeName, T>> &entries, std::string_view name,
    std::string_view driver)
{
    for (const auto &[key, value] : entries)
        if (key == name || (!driver.empty() && sameQualifiedName(key, name, driver)))
            return &value;
    return nullptr;
}

} // namespace

std::string DeviceAttribute::display() const
{
    switch (type) {
    case Type::Int:
        return std::to_string(intValue);
    case Type::Bool:
        return boolValue ? "true" : "false";
    case Type::String:
    case Type::Version:
        return stringValue;
    case Type::Ints:
        return joinList(intValues, [](int64_t v) { return std::to_string(v); });
    case Type::Bools:
        return joinList(boolValues, [](bool v) { return std::string(v ? "true" : "false"); });
    case Type::Strings:
    case Type::Versions:
        return joinList(stringValues, [](const std::string &v) { return v; });
    }
    return {};
}

const DeviceAttribute *Device::attribute(std::string_view name, std::string_view driver) const
{
    return findNamed(attributes, name, driver);
}

const DeviceCapacity *Device::capacityOf(std::string_view name, std::string_view driver) const
{
    return findNamed(capacity, name, driver);
}

std::string ResourceClaim::state(bool beingDeleted) const
{
    std::string out;
    if (allocation)
        out = "allocated";
    if (!reservedFor.empty())
        out += out.empty() ? "reserved" : ",reserved";
    if (out.empty())
        out = "pending";
    if (beingDeleted)
        out += ",deleted";
    return out;
}

std::string Node::status() const
{
    std::string out = "Unknown";
    for (const NodeCondition &condition : conditions)
        if (condition.type == "Ready")
            out = condition.status == "True"  ? "Ready"
                : condition.status == "False" ? "NotReady"
                                              : "Unknown";
    if (unschedulable)
        out += ",SchedulingDisabled";
    return out;
}

int64_t Node::devicePluginGpus() const
{
    return gpusIn(capacity);
}

bool LabelSelector::matches(const StringPairs &labels) const
{
    if (matchExpressions > 0)
        return false;
    for (const auto &[key, value] : matchLabels) {
        const bool found = std::any_of(labels.begin(), labels.end(),
            [&](const auto &label) { return label.first == key && label.second == value; });
        if (!found)
            return false;
    }
    return true;
}

bool Pod::ready() const
{
    for (const NodeCondition &condition : conditions)
        if (condition.type == "Ready")
            return condition.status == "True";
    return false;
}

int64_t Pod::devicePluginGpus() const
{
    int64_t total = 0;
    for (const PodContainer &container : containers)
        total += gpusIn(container.limits);
    return total;
}

} // namespace dra::model
