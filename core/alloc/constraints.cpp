// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/constraints.h"

namespace dra::alloc {

namespace {

using model::DeviceAttribute;

bool scalar(const DeviceAttribute &attribute)
{
    switch (attribute.type) {
    case DeviceAttribute::Type::Int:
    case DeviceAttribute::Type::Bool:
    case DeviceAttribute::Type::String:
    case DeviceAttribute::Type::Version:
        return true;
    default:
        return false;
    }
}

// Same type and value; versions compare as text, which semver's minimal form makes exact.
bool sameValue(const DeviceAttribute &a, const DeviceAttribute &b)
{
    if (a.type != b.type)
        return false;
    switch (a.type) {
    case DeviceAttribute::Type::Int:
        return a.intValue == b.intValue;
    case DeviceAttribute::Type::Bool:
        return a.boolValue == b.boolValue;
    case DeviceAttribute::Type::String:
    case DeviceAttribute::Type::Version:
        return a.stringValue == b.stringValue;
    default:
        return false;
    }
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
        if (m_count == 0) {
            m_first = attribute;
            m_count = 1;
            return true;
        }
        if (!scalar(*attribute) || !sameValue(*attribute, *m_first))
            return false;
        ++m_count;
        return true;
    }
    void remove(
        const std::string &request, const std::string &subRequest, const Cluster &, int) override
    {
        if (m_filter.applies(request, subRequest))
            --m_count;
    }

private:
    RequestFilter m_filter;
    std::string m_name;
    const DeviceAttribute *m_first = nullptr;
    int m_count = 0;
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
        for (const DeviceAttribute *existing : m_seen)
            if (!scalar(*attribute) || sameValue(*attribute, *existing))
                return false;
        m_seen.push_back(attribute);
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
    std::vector<const DeviceAttribute *> m_seen;
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
