// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/dra_selector.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <tuple>

#include "core/cel/dra_environment.h"
#include "core/cel/kubernetes_types.h"

namespace dra::cel {

namespace {

Value toValue(const DeviceAttributeValue &v)
{
    return deviceAttributeValue(v);
}

Value toValue(const model::Quantity &q)
{
    return borrowedQuantityValue(q);
}

std::pair<std::string, std::string> split(std::string_view qualifiedName, const std::string &driver)
{
    const size_t slash = qualifiedName.find('/');
    if (slash == std::string_view::npos)
        return { driver, std::string(qualifiedName) };
    return { std::string(qualifiedName.substr(0, slash)),
        std::string(qualifiedName.substr(slash + 1)) };
}

template <typename T>
void insert(
    std::vector<DeviceView::Domain<T>> &domains, std::string domainName, std::string name, T value)
{
    auto d = std::lower_bound(domains.begin(), domains.end(), domainName,
        [](const auto &x, const std::string &n) { return x.name < n; });
    if (d == domains.end() || d->name != domainName)
        d = domains.insert(d, DeviceView::Domain<T> { domainName, {} });
    auto e = std::lower_bound(d->entries.begin(), d->entries.end(), name,
        [](const auto &x, const std::string &n) { return x.name < n; });
    if (e != d->entries.end() && e->name == name)
        e->value = std::move(value);
    else
        d->entries.insert(e, DeviceView::Entry<T> { std::move(name), std::move(value) });
}

// The domains of `values`, built at once: sorted by domain and name (a stable sort, so that of
// equal names the last one given stays), each domain's entries allocated once.
template <typename T>
void assignDomains(std::vector<DeviceView::Domain<T>> &domains,
    std::vector<DeviceView::Named<T>> &values, std::string_view driver)
{
    struct Split
    {
        std::string_view domain, name;
        T *value;
    };
    std::vector<Split> split;
    split.reserve(values.size());
    for (auto &[qualified, value] : values) {
        const size_t slash = qualified.find('/');
        if (slash == std::string_view::npos)
            split.push_back({ driver, qualified, &value });
        else
            split.push_back({ qualified.substr(0, slash), qualified.substr(slash + 1), &value });
    }
    std::stable_sort(split.begin(), split.end(), [](const Split &a, const Split &b) {
        return std::tie(a.domain, a.name) < std::tie(b.domain, b.name);
    });
    size_t domainCount = 0;
    for (size_t i = 0; i < split.size(); ++i)
        domainCount += i == 0 || split[i].domain != split[i - 1].domain;
    domains.clear();
    domains.reserve(domainCount);
    for (size_t first = 0; first < split.size();) {
        size_t end = first;
        while (end < split.size() && split[end].domain == split[first].domain)
            ++end;
        DeviceView::Domain<T> &domain = domains.emplace_back();
        domain.name = split[first].domain;
        domain.entries.reserve(end - first);
        for (size_t i = first; i < end; ++i) {
            if (i + 1 < end && split[i + 1].name == split[i].name)
                continue; // a later value of the same name replaces this one
            domain.entries.push_back({ std::string(split[i].name), std::move(*split[i].value) });
        }
        first = end;
    }
}

// The element named `name`, or nullptr. A device has at most 32 domains and 32 names per
// domain, mostly of different lengths: a scan that rejects on length first is faster on the
// hot path than a binary search of string comparisons.
template <typename Item>
const Item *findByName(const std::vector<Item> &items, std::string_view name)
{
    for (const Item &item : items) {
        if (item.name.size() == name.size()
            && std::memcmp(item.name.data(), name.data(), name.size()) == 0)
            return &item;
    }
    return nullptr;
}

// The element named `name` in `items` sorted by name, or nullptr. `hint` is where the last
// search ended; when the name belongs there (found, or between its neighbours) no search is
// needed. Left at the position of `name` for the next device.
template <typename Item>
const Item *findSorted(const std::vector<Item> &items, std::string_view name, uint32_t &hint)
{
    const size_t n = items.size();
    size_t at = hint;
    const bool placed = at <= n && (at == n || !(std::string_view(items[at].name) < name))
        && (at == 0 || std::string_view(items[at - 1].name) < name);
    if (!placed) {
        at = static_cast<size_t>(
            std::lower_bound(items.begin(), items.end(), name,
                [](const Item &x, std::string_view key) { return std::string_view(x.name) < key; })
            - items.begin());
        hint = static_cast<uint32_t>(at);
    }
    return at < n && std::string_view(items[at].name) == name ? &items[at] : nullptr;
}

template <typename T>
const T *findHinted(const std::vector<DeviceView::Domain<T>> &domains, std::string_view domain,
    std::string_view name, DeviceLookupHint &hint)
{
    const auto *d = findSorted(domains, domain, hint.domain);
    const auto *entry = d ? findSorted(d->entries, name, hint.entry) : nullptr;
    return entry ? &entry->value : nullptr;
}

template <typename T>
const DeviceView::Domain<T> *find(
    const std::vector<DeviceView::Domain<T>> &domains, std::string_view name)
{
    return findByName(domains, name);
}

// device.attributes["domain"] and device.capacity["domain"]: the entries of one domain. A
// domain the device does not publish is an empty map, as in Kubernetes.
template <typename T> class DomainMapType final : public HostType
{
public:
    explicit DomainMapType(const char *what)
        : m_what(what)
    {
    }

    // A published domain borrows the device view, its name included; one the device does not
    // publish keeps its own copy of the name (the key asked for may be gone by the time a
    // lookup in it needs the name for its message).
    Value of(const DeviceView::Domain<T> *domain, std::string_view name) const
    {
        if (domain)
            return Value::host(this, domain, domain->name);
        auto kept = std::make_shared<const std::string>(name);
        const void *data = kept.get();
        return Value::host(this, data, {}, std::move(kept));
    }
    std::string_view typeName() const override { return "map"; }

    Value lookup(const Value &self, std::string_view name, bool test) const
    {
        if (const auto *domain = published(self)) {
            if (const auto *entry = findByName(domain->entries, name))
                return test ? Value::boolean(true) : toValue(entry->value);
        }
        if (test)
            return Value::boolean(false);
        return missingDeviceEntry(m_what, domainName(self), name);
    }
    Value select(const Value &self, std::string_view field) const override
    {
        return lookup(self, field, false);
    }
    Value hasField(const Value &self, std::string_view field) const override
    {
        return lookup(self, field, true);
    }
    Value index(const Value &self, const Value &key) const override
    {
        if (key.kind() != Kind::String)
            return noSuchKey(key);
        return lookup(self, key.asString(), false);
    }
    bool equals(const Value &self, const Value &other) const override
    {
        return other.kind() == Kind::Host && other.hostType() == this
            && published(self) == published(other) && domainName(self) == domainName(other);
    }
    std::string debugString(const Value &self) const override
    {
        return std::string(m_what) + "s of domain " + std::string(domainName(self));
    }
    Value size(const Value &self) const override
    {
        const auto *domain = published(self);
        return Value::integer(domain ? static_cast<int64_t>(domain->entries.size()) : 0);
    }
    Value keys(const Value &self) const override
    {
        std::vector<Value> out;
        if (const auto *domain = published(self)) {
            for (const auto &e : domain->entries)
                out.push_back(Value::borrowedString(e.name));
        }
        return Value::list(std::move(out));
    }
    Value visitEntries(const Value &self, bool withValues, EntryVisitor &visitor) const override
    {
        if (const auto *domain = published(self)) {
            for (const auto &e : domain->entries) {
                const Value value = withValues ? toValue(e.value) : Value();
                if (!visitor.visit(Value::borrowedString(e.name), withValues ? &value : nullptr))
                    break;
            }
        }
        return Value::null();
    }

private:
    static const DeviceView::Domain<T> *published(const Value &self)
    {
        return self.owner() ? nullptr : static_cast<const DeviceView::Domain<T> *>(self.hostData());
    }
    static std::string_view domainName(const Value &self)
    {
        return self.owner() ? std::string_view(*static_cast<const std::string *>(self.hostData()))
                            : self.asString();
    }

    std::string m_what;
};

const DomainMapType<DeviceAttributeValue> kAttributeDomain("attribute");
const DomainMapType<model::Quantity> kCapacityDomain("capacity");

// device.attributes and device.capacity: domain -> entries.
class DomainsType final : public HostType
{
public:
    explicit DomainsType(bool capacity)
        : m_capacity(capacity)
    {
    }
    std::string_view typeName() const override { return "map"; }
    Value domain(const Value &self, std::string_view name) const
    {
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        if (m_capacity)
            return kCapacityDomain.of(view->findCapacityDomain(name), name);
        return kAttributeDomain.of(view->findAttributeDomain(name), name);
    }
    Value select(const Value &self, std::string_view field) const override
    {
        return domain(self, field);
    }
    // has(device.attributes.d) is true for every domain, as the lookup of Kubernetes' map with a
    // default value finds an empty map for a domain the device does not publish.
    Value hasField(const Value &, std::string_view) const override { return Value::boolean(true); }
    // `"d" in device.attributes` asks the map itself, which holds only the published domains.
    Value contains(const Value &self, const Value &key) const override
    {
        if (key.kind() != Kind::String)
            return Value::boolean(false);
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        const std::string_view name = key.asString();
        return Value::boolean(m_capacity ? view->findCapacityDomain(name) != nullptr
                                         : view->findAttributeDomain(name) != nullptr);
    }
    Value index(const Value &self, const Value &key) const override
    {
        if (key.kind() != Kind::String)
            return noSuchKey(key);
        return domain(self, key.asString());
    }
    Value size(const Value &self) const override
    {
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        return Value::integer(static_cast<int64_t>(
            m_capacity ? view->capacityDomains().size() : view->attributeDomains().size()));
    }
    Value keys(const Value &self) const override
    {
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        std::vector<Value> out;
        if (m_capacity) {
            for (const auto &d : view->capacityDomains())
                out.push_back(Value::borrowedString(d.name));
        } else {
            for (const auto &d : view->attributeDomains())
                out.push_back(Value::borrowedString(d.name));
        }
        return Value::list(std::move(out));
    }
    Value visitEntries(const Value &self, bool withValues, EntryVisitor &visitor) const override
    {
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        const auto visitAll = [&](const auto &domains, const auto &domainType) {
            for (const auto &d : domains) {
                const Value value = withValues ? domainType.of(&d, d.name) : Value();
                if (!visitor.visit(Value::borrowedString(d.name), withValues ? &value : nullptr))
                    break;
            }
        };
        if (m_capacity)
            visitAll(view->capacityDomains(), kCapacityDomain);
        else
            visitAll(view->attributeDomains(), kAttributeDomain);
        return Value::null();
    }

private:
    bool m_capacity;
};

const DomainsType kAttributes(false);
const DomainsType kCapacity(true);

class DeviceType final : public HostType
{
public:
    std::string_view typeName() const override { return "kubernetes.DRADevice"; }
    Value select(const Value &self, std::string_view field) const override
    {
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        if (field == "driver")
            return Value::borrowedString(view->driver);
        if (field == "attributes")
            return Value::host(&kAttributes, view);
        if (field == "capacity")
            return Value::host(&kCapacity, view);
        if (field == "allowMultipleAllocations")
            return Value::boolean(view->allowMultipleAllocations);
        return HostType::select(self, field);
    }
    Value hasField(const Value &, std::string_view field) const override
    {
        return Value::boolean(field == "driver" || field == "attributes" || field == "capacity"
            || field == "allowMultipleAllocations");
    }
};

const DeviceType kDevice;

} // namespace

void DeviceView::addAttribute(std::string_view qualifiedName, DeviceAttributeValue value)
{
    prepareDeviceAttribute(value);
    auto [domain, name] = split(qualifiedName, driver);
    insert(m_attributes, std::move(domain), std::move(name), std::move(value));
}

void DeviceView::addCapacity(std::string_view qualifiedName, model::Quantity value)
{
    auto [domain, name] = split(qualifiedName, driver);
    insert(m_capacity, std::move(domain), std::move(name), std::move(value));
}

void DeviceView::setAttributes(std::vector<Named<DeviceAttributeValue>> &values)
{
    for (Named<DeviceAttributeValue> &named : values)
        prepareDeviceAttribute(named.value);
    assignDomains(m_attributes, values, driver);
}

void DeviceView::setCapacities(std::vector<Named<model::Quantity>> &values)
{
    assignDomains(m_capacity, values, driver);
}

const DeviceView::AttributeDomain *DeviceView::findAttributeDomain(std::string_view domain) const
{
    return find(m_attributes, domain);
}

const DeviceView::CapacityDomain *DeviceView::findCapacityDomain(std::string_view domain) const
{
    return find(m_capacity, domain);
}

const DeviceAttributeValue *DeviceView::findAttribute(
    std::string_view domain, std::string_view name) const
{
    const AttributeDomain *d = find(m_attributes, domain);
    const auto *entry = d ? findByName(d->entries, name) : nullptr;
    return entry ? &entry->value : nullptr;
}

const DeviceAttributeValue *DeviceView::findAttribute(
    std::string_view domain, std::string_view name, DeviceLookupHint &hint) const
{
    return findHinted(m_attributes, domain, name, hint);
}

const model::Quantity *DeviceView::findCapacity(
    std::string_view domain, std::string_view name, DeviceLookupHint &hint) const
{
    return findHinted(m_capacity, domain, name, hint);
}

const model::Quantity *DeviceView::findCapacity(
    std::string_view domain, std::string_view name) const
{
    const CapacityDomain *d = find(m_capacity, domain);
    const auto *entry = d ? findByName(d->entries, name) : nullptr;
    return entry ? &entry->value : nullptr;
}

void evaluateInto(
    const CompiledSelector &selector, const DeviceView &device, SelectorResult &result)
{
    const std::array<Value, 1> variables { Value::host(&kDevice, &device) };
    const Value v = selector.program().evaluate(variables, &device, kSelectorMaxCost);
    if (v.kind() == Kind::Bool) {
        result.outcome
            = v.asBool() ? SelectorResult::Outcome::Match : SelectorResult::Outcome::NoMatch;
        result.error.clear();
        return;
    }
    result.outcome = SelectorResult::Outcome::Error;
    if (v.isError())
        result.error.assign(v.asString());
    else
        result.error = "the selector must evaluate to bool, not " + std::string(v.typeName());
}

SelectorResult evaluate(const CompiledSelector &selector, const DeviceView &device)
{
    SelectorResult result;
    evaluateInto(selector, device, result);
    return result;
}

} // namespace dra::cel
