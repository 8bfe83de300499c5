// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device.h"

#include <algorithm>
#include <functional>
#include <type_traits>

#include "core/inventory/snapshot_parts.h"

namespace dra::inventory {

namespace {

// "productName" -> (driver, "productName"); "a.b/c" -> ("a.b", "c").
std::pair<std::string_view, std::string_view> splitName(
    std::string_view name, std::string_view driver)
{
    const size_t slash = name.find('/');
    if (slash == std::string_view::npos)
        return { driver, name };
    return { name.substr(0, slash), name.substr(slash + 1) };
}

template <typename Domain> const auto *findEntry(const Domain *domain, std::string_view name)
{
    using Entry = typename std::remove_cvref_t<decltype(domain->entries)>::value_type;
    if (!domain)
        return static_cast<const Entry *>(nullptr);
    const auto it = std::lower_bound(domain->entries.begin(), domain->entries.end(), name,
        [](const Entry &e, std::string_view n) { return e.name < n; });
    return it != domain->entries.end() && it->name == name ? &*it
                                                           : static_cast<const Entry *>(nullptr);
}

bool sameAttribute(const cel::DeviceAttributeValue &a, const cel::DeviceAttributeValue &b)
{
    return cel::sameDeviceAttribute(a, b);
}

template <typename Domains, typename Same>
bool sameDomains(const Domains &a, const Domains &b, Same same)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].name != b[i].name || a[i].entries.size() != b[i].entries.size())
            return false;
        for (size_t j = 0; j < a[i].entries.size(); ++j)
            if (a[i].entries[j].name != b[i].entries[j].name
                || !same(a[i].entries[j].value, b[i].entries[j].value))
                return false;
    }
    return true;
}

bool sameCounters(const std::vector<std::pair<std::string, model::Quantity>> &a,
    const std::vector<std::pair<std::string, model::Quantity>> &b)
{
    return a == b;
}

} // namespace

std::string DeviceKey::display() const
{
    return driver + '/' + pool + '/' + device;
}

const cel::DeviceAttributeValue *Device::attribute(std::string_view name) const
{
    const auto [domain, local] = splitName(name, key.driver);
    const auto *entry = findEntry(view.findAttributeDomain(domain), local);
    return entry ? &entry->value : nullptr;
}

std::string Device::attributeText(std::string_view name) const
{
    const cel::DeviceAttributeValue *value = attribute(name);
    if (!value)
        return {};
    return cel::deviceAttributeText(*value);
}

const model::Quantity *Device::capacity(std::string_view name) const
{
    const auto [domain, local] = splitName(name, key.driver);
    const auto *entry = findEntry(view.findCapacityDomain(domain), local);
    return entry ? &entry->value : nullptr;
}

bool Device::isPartition() const
{
    return attribute("profile") != nullptr || type() == "mig";
}

bool Device::operator==(const Device &other) const
{
    if (key != other.key || node != other.node || slice != other.slice
        || view.driver != other.view.driver
        || view.allowMultipleAllocations != other.view.allowMultipleAllocations
        || nodeSelector != other.nodeSelector || allNodes != other.allNodes
        || bindsToNode != other.bindsToNode || bindingConditions != other.bindingConditions
        || bindingFailureConditions != other.bindingFailureConditions
        || consumesCounters.size() != other.consumesCounters.size()
        || taints.size() != other.taints.size())
        return false;
    for (size_t i = 0; i < consumesCounters.size(); ++i)
        if (consumesCounters[i].counterSet != other.consumesCounters[i].counterSet
            || !sameCounters(consumesCounters[i].counters, other.consumesCounters[i].counters))
            return false;
    for (size_t i = 0; i < taints.size(); ++i) {
        const model::DeviceTaint &a = taints[i];
        const model::DeviceTaint &b = other.taints[i];
        if (a.key != b.key || a.value != b.value || a.effect != b.effect
            || a.timeAdded != b.timeAdded)
            return false;
    }
    return sameDomains(view.attributeDomains(), other.view.attributeDomains(), sameAttribute)
        && sameDomains(view.capacityDomains(), other.view.capacityDomains(),
            [](const model::Quantity &a, const model::Quantity &b) { return a == b; });
}

namespace detail {

size_t DeviceKeyViewHash::operator()(const DeviceKeyView &key) const noexcept
{
    const std::hash<std::string_view> hash;
    size_t seed = hash(key.driver);
    seed ^= hash(key.pool) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    seed ^= hash(key.device) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    return seed;
}

bool SliceData::operator==(const SliceData &other) const
{
    const auto sameInfo = [](const SliceInfo &a, const SliceInfo &b) {
        return a.name == b.name && a.driver == b.driver && a.pool == b.pool && a.node == b.node
            && a.generation == b.generation && a.resourceSliceCount == b.resourceSliceCount
            && a.devices == b.devices;
    };
    if (!sameInfo(info, other.info) || devices != other.devices
        || sharedCounters.size() != other.sharedCounters.size())
        return false;
    for (size_t i = 0; i < sharedCounters.size(); ++i)
        if (sharedCounters[i].name != other.sharedCounters[i].name
            || !sameCounters(sharedCounters[i].counters, other.sharedCounters[i].counters))
            return false;
    return true;
}

} // namespace detail

} // namespace dra::inventory

size_t std::hash<dra::inventory::DeviceKey>::operator()(
    const dra::inventory::DeviceKey &key) const noexcept
{
    return dra::inventory::detail::DeviceKeyViewHash()(dra::inventory::detail::viewOf(key));
}
