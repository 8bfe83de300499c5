// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Small derived facts about model types, shared by every table and view.
#include "core/model/core_types.h"
#include "core/model/resource_types.h"

namespace dra::model {

namespace {

template <typename T, typename F>
std::string joinList(const std::vector<T> &values, F &&toText)
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

} // namespace

std::string DeviceAttribute::display() const
{
    switch (type) {
    case Type::Int: return std::to_string(intValue);
    case Type::Bool: return boolValue ? "true" : "false";
    case Type::String:
    case Type::Version: return stringValue;
    case Type::Ints: return joinList(intValues, [](int64_t v) { return std::to_string(v); });
    case Type::Bools: return joinList(boolValues, [](bool v) { return std::string(v ? "true" : "false"); });
    case Type::Strings:
    case Type::Versions: return joinList(stringValues, [](const std::string &v) { return v; });
    }
    return {};
}

const DeviceAttribute *Device::attribute(std::string_view name) const
{
    for (const auto &[key, value] : attributes)
        if (key == name)
            return &value;
    return nullptr;
}

const DeviceCapacity *Device::capacityOf(std::string_view name) const
{
    for (const auto &[key, value] : capacity)
        if (key == name)
            return &value;
    return nullptr;
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
            out = condition.status == "True" ? "Ready" : condition.status == "False" ? "NotReady" : "Unknown";
    if (unschedulable)
        out += ",SchedulingDisabled";
    return out;
}

int64_t Node::devicePluginGpus() const
{
    return gpusIn(capacity);
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
