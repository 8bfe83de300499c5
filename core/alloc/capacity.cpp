// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/capacity.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"

namespace dra::alloc {

namespace {

using common::Error;
using nlohmann::json;

// A capacity's requestPolicy, parsed once per check; missing parts stay empty.
struct Policy
{
    bool present = false;
    std::optional<model::Quantity> defaultValue;
    std::vector<model::Quantity> validValues;
    bool hasRange = false;
    std::optional<model::Quantity> min, max, step;
};

std::optional<model::Quantity> quantityField(const json &object, const char *name)
{
    const auto it = object.find(name);
    if (it == object.end() || !it->is_string())
        return std::nullopt;
    Result<model::Quantity> q = model::Quantity::parse(it->get<std::string>());
    return q ? std::optional<model::Quantity>(*q) : std::nullopt;
}

Policy parsePolicy(const json &policy)
{
    Policy out;
    if (!policy.is_object())
        return out;
    out.present = true;
    out.defaultValue = quantityField(policy, "default");
    if (const auto it = policy.find("validValues"); it != policy.end() && it->is_array())
        for (const json &value : *it)
            if (value.is_string())
                if (Result<model::Quantity> q = model::Quantity::parse(value.get<std::string>()))
                    out.validValues.push_back(*q);
    if (const auto it = policy.find("validRange"); it != policy.end() && it->is_object()) {
        out.hasRange = true;
        out.min = quantityField(*it, "min");
        out.max = quantityField(*it, "max");
        out.step = quantityField(*it, "step");
    }
    return out;
}

Nano nanoOfInt(int64_t value)
{
    return Nano(value) * Nano(1'000'000'000);
}

// The amount a request consumes of one capacity, rounded up as the policy demands.
Nano charged(
    const model::Quantity *requested, const model::DeviceCapacity &capacity, const Policy &policy)
{
    if (!requested)
        return policy.defaultValue ? policy.defaultValue->nanoUnits() : capacity.value.nanoUnits();
    if (!policy.present)
        return requested->nanoUnits();
    if (policy.hasRange && policy.min) {
        if (*requested < *policy.min)
            return policy.min->nanoUnits();
        if (!policy.step)
            return requested->nanoUnits();
        const int64_t step = policy.step->value();
        const int64_t min = policy.min->value();
        if (step <= 0)
            return requested->nanoUnits();
        const int64_t added = requested->value() - min;
        int64_t n = added / step;
        if (added % step != 0)
            ++n;
        return nanoOfInt(min + step * n);
    }
    if (!policy.validValues.empty()) {
        for (const model::Quantity &valid : policy.validValues)
            if (requested->nanoUnits() <= valid.nanoUnits())
                return valid.nanoUnits();
    }
    return requested->nanoUnits();
}

bool violatesPolicy(Nano consumed, const Policy &policy)
{
    if (!policy.present)
        return false;
    if (policy.defaultValue && consumed == policy.defaultValue->nanoUnits())
        return false;
    if (policy.hasRange) {
        if (policy.max && consumed > policy.max->nanoUnits())
            return true;
        if (policy.step && policy.min) {
            const int64_t step = policy.step->value();
            if (step > 0) {
                // Kubernetes compares whole units (Quantity.Value() rounds up).
                const Nano whole
                    = consumed / Nano(1'000'000'000) + (consumed % Nano(1'000'000'000) > 0 ? 1 : 0);
                if ((int64_t(whole) - policy.min->value()) % step != 0)
                    return true;
            }
        }
        return false;
    }
    if (!policy.validValues.empty()) {
        for (const model::Quantity &valid : policy.validValues)
            if (valid.nanoUnits() == consumed)
                return false;
        return true;
    }
    return false;
}

const model::Quantity *requestFor(const CapacityRequests &requests, const std::string &name)
{
    for (const auto &[n, q] : requests.requests)
        if (n == name)
            return &q;
    return nullptr;
}

} // namespace

void addCapacity(ConsumedCapacity &to, const ConsumedCapacity &amount)
{
    for (const auto &[name, value] : amount)
        to[name] += value;
}

void subtractCapacity(ConsumedCapacity &from, const ConsumedCapacity &amount)
{
    for (const auto &[name, value] : amount)
        if (auto it = from.find(name); it != from.end())
            it->second -= value;
}

Result<CapacityRequests> parseCapacityRequests(const json &capacity)
{
    CapacityRequests out;
    if (capacity.is_null())
        return out;
    out.present = true;
    const auto requests = capacity.find("requests");
    if (requests == capacity.end() || !requests->is_object())
        return out;
    for (const auto &[name, value] : requests->items()) {
        if (!value.is_string())
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("capacity.requests.%1: expected a quantity").arg(common::qs(name)));
        Result<model::Quantity> q = model::Quantity::parse(value.get<std::string>());
        if (!q)
            return dra::fail(q.error().withContext(
                QStringLiteral("capacity.requests.%1").arg(common::qs(name))));
        out.requests.emplace_back(name, *q);
    }
    return out;
}

CapacityVerdict checkCapacity(
    const std::vector<std::pair<std::string, model::DeviceCapacity>> &capacity,
    const CapacityRequests &requests, const ConsumedCapacity *allocated,
    const ConsumedCapacity *allocating)
{
    for (const auto &[name, q] : requests.requests) {
        bool defined = false;
        for (const auto &[capName, cap] : capacity)
            defined = defined || capName == name;
        if (!defined)
            return CapacityVerdict::UndefinedCapacity;
    }
    for (const auto &[name, cap] : capacity) {
        const Policy policy = parsePolicy(cap.requestPolicy);
        const Nano consumed = charged(requestFor(requests, name), cap, policy);
        if (violatesPolicy(consumed, policy))
            return CapacityVerdict::ViolatesPolicy;
        Nano total = consumed;
        if (allocated)
            if (const auto it = allocated->find(name); it != allocated->end())
                total += it->second;
        if (allocating)
            if (const auto it = allocating->find(name); it != allocating->end())
                total += it->second;
        if (total > cap.value.nanoUnits())
            return CapacityVerdict::Exhausted;
    }
    return CapacityVerdict::Fits;
}

ConsumedCapacity consumedCapacity(
    const std::vector<std::pair<std::string, model::DeviceCapacity>> &capacity,
    const CapacityRequests &requests)
{
    ConsumedCapacity out;
    for (const auto &[name, cap] : capacity)
        out[name] = charged(requestFor(requests, name), cap, parsePolicy(cap.requestPolicy));
    return out;
}

ConsumedCapacity parseConsumedCapacity(const json &consumed)
{
    ConsumedCapacity out;
    if (!consumed.is_object())
        return out;
    for (const auto &[name, value] : consumed.items())
        if (value.is_string())
            if (Result<model::Quantity> q = model::Quantity::parse(value.get<std::string>()))
                out[name] += q->nanoUnits();
    return out;
}

} // namespace dra::alloc
