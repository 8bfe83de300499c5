// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/constraints.h"

#include <algorithm>
#include <iterator>

namespace dra::alloc {

namespace {

using model::DeviceAttribute;

// The values of an attribute as a sorted set of typed keys: a scalar is a set of one, a list
// (DRAListTypeAttributes) the set of its elements. Values of different types never meet;
// versions compare as text, which semver's minimal form makes exact.
using ValueSet = std::vector<std::string>;

ValueSet valueSet(const DeviceAttribute &attribute)
{
    ValueSet out;
    switch (attribute.type) {
    case DeviceAttribute::Type::Int:
        out.push_back("i" + std::to_string(attribute.intValue));
        break;
    case DeviceAttribute::Type::Bool:
        out.push_back(attribute.boolValue ? "b1" : "b0");
        break;
    case DeviceAttribute::Type::String:
        out.push_back("s" + attribute.stringValue);
        break;
    case DeviceAttribute::Type::Version:
        out.push_back("v" + attribute.stringValue);
        break;
    case DeviceAttribute::Type::Ints:
        for (int64_t i : attribute.intValues)
            out.push_back("i" + std::to_string(i));
        break;
    case DeviceAttribute::Type::Bools:
        for (bool b : attribute.boolValues)
            out.push_back(b ? "b1" : "b0");
        break;
    case DeviceAttribute::Type::Strings:
        for (const std::string &text : attribute.stringValues)
            out.push_back("s" + text);
        break;
    case DeviceAttribute::Type::Versions:
        for (const std::string &text : attribute.stringValues)
            out.push_back("v" + text);
        break;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

ValueSet intersection(const ValueSet &a, const ValueSet &b)
{
    ValueSet out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

bool disjoint(const ValueSet &a, const ValueSet &b)
{
    return intersection(a, b).empty();
}

class RequestFilter
{
public:
    explicit RequestFilter(const std::vector<std::string> &requests)
        : m_requests(requests.begin(), requests.end())
    {
    }
    // An empty list applies to every request; a subrequest is covered by its parent's name or
    // by "parent/sub".
    bool applies(const std::string &request, const std::string &subRequest) const
    {
        if (m_requests.empty())
            return true;
        if (m_requests.contains(request))
            return true;
        return !subRequest.empty() && m_requests.contains(request + "/" + subRequest);
    }

private:
    std::set<std::string> m_requests;
};

class MatchAttribute final : public Constraint
{
public:
    explicit MatchAttribute(const model::DeviceConstraint &constraint)
        : m_filter(constraint.requests)
        , m_name(constraint.matchAttribute)
    {
    }
    bool add(const std::string &request, const std::string &subRequest, const Cluster &cluster,
        int device) override
    {
        if (!m_filter.applies(request, subRequest))
            return true;
        const DeviceAttribute *attribute = constraintAttribute(cluster, device, m_name);
        if (!attribute)
            return false;
        ValueSet common = valueSet(*attribute);
        if (!m_common.empty())
            common = intersection(m_common.back(), common);
        if (common.empty())
            return false;
        m_common.push_back(std::move(common));
        return true;
    }
    void remove(
        const std::string &request, const std::string &subRequest, const Cluster &, int) override
    {
        if (m_filter.applies(request, subRequest))
            m_common.pop_back();
    }

private:
    RequestFilter m_filter;
    std::string m_name;
    // The values all devices picked so far share, one entry per device: picking a device
    // narrows the set, and undoing the pick restores the one before.
    std::vector<ValueSet> m_common;
};

class DistinctAttribute final : public Constraint
{
public:
    explicit DistinctAttribute(const model::DeviceConstraint &constraint)
        : m_filter(constraint.requests)
        , m_name(constraint.distinctAttribute)
    {
    }
    bool add(const std::string &request, const std::string &subRequest, const Cluster &cluster,
        int device) override
    {
        if (!m_filter.applies(request, subRequest))
            return true;
        const DeviceAttribute *attribute = constraintAttribute(cluster, device, m_name);
        if (!attribute)
            return false;
        ValueSet values = valueSet(*attribute);
        for (const ValueSet &existing : m_seen)
            if (!disjoint(values, existing))
                return false;
        m_seen.push_back(std::move(values));
        return true;
    }
    void remove(
        const std::string &request, const std::string &subRequest, const Cluster &, int) override
    {
        if (m_filter.applies(request, subRequest))
            m_seen.pop_back();
    }

private:
    RequestFilter m_filter;
    std::string m_name;
    std::vector<ValueSet> m_seen; // the values of each device picked so far
};

} // namespace

const DeviceAttribute *constraintAttribute(
    const Cluster &cluster, int device, const std::string &name)
{
    const model::Device &spec = *cluster.devices()[size_t(device)].spec;
    for (const auto &[key, value] : spec.attributes)
        if (key == name)
            return &value;
    const size_t slash = name.find('/');
    if (slash == std::string::npos
        || std::string_view(name).substr(0, slash) != cluster.driverOf(device))
        return nullptr;
    const std::string_view id = std::string_view(name).substr(slash + 1);
    for (const auto &[key, value] : spec.attributes)
        if (key == id)
            return &value;
    return nullptr;
}

std::unique_ptr<Constraint> makeConstraint(const model::DeviceConstraint &constraint)
{
    if (!constraint.matchAttribute.empty())
        return std::make_unique<MatchAttribute>(constraint);
    if (!constraint.distinctAttribute.empty())
        return std::make_unique<DistinctAttribute>(constraint);
    return nullptr;
}

} // namespace dra::alloc
