// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/dra_selector.h"

#include <algorithm>
#include <array>

namespace dra::cel {

namespace {

constexpr size_t kMaxExpressionBytes = 10 * 1024;
constexpr uint64_t kCostLimit = 1000000;

Value attributeValue(const DeviceAttributeValue &v)
{
    switch (v.type) {
    case DeviceAttributeValue::Type::Int: return Value::integer(v.intValue);
    case DeviceAttributeValue::Type::Bool: return Value::boolean(v.boolValue);
    case DeviceAttributeValue::Type::String: return Value::borrowedString(v.stringValue);
    case DeviceAttributeValue::Type::Version:
        // TODO(#3): a semver value once dra::model::Version is available.
        return Value::borrowedString(v.stringValue);
    }
    return Value();
}

// device.attributes["domain"]: the attributes of one domain. A domain the device does not
// publish is an empty map (data == nullptr), as in Kubernetes.
class DomainMapType final : public HostType
{
public:
    std::string_view typeName() const override { return "map"; }

    Value lookup(const Value &self, std::string_view name, bool test) const
    {
        const auto *domain = static_cast<const DeviceView::Domain *>(self.hostData());
        if (domain) {
            const auto &attrs = domain->attributes;
            const auto it = std::lower_bound(attrs.begin(), attrs.end(), name,
                                             [](const DeviceView::Attribute &a, std::string_view n) {
                                                 return a.name < n;
                                             });
            if (it != attrs.end() && it->name == name)
                return test ? Value::boolean(true) : attributeValue(it->value);
        }
        if (test)
            return Value::boolean(false);
        return Value::error("no such key: " + std::string(name)
                            + " (the device has no attribute \"" + std::string(name)
                            + "\" in domain \"" + std::string(self.asString())
                            + "\"; guard with has() or use optional chaining with .? and orValue())");
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
};

const DomainMapType kDomainMap;

// device.attributes: domain -> attributes.
class AttributesType final : public HostType
{
public:
    std::string_view typeName() const override { return "map"; }
    Value domain(const Value &self, std::string_view name) const
    {
        const auto *view = static_cast<const DeviceView *>(self.hostData());
        return Value::host(&kDomainMap, view->findDomain(name), name);
    }
    Value select(const Value &self, std::string_view field) const override { return domain(self, field); }
    Value hasField(const Value &, std::string_view) const override { return Value::boolean(true); }
    Value index(const Value &self, const Value &key) const override
    {
        if (key.kind() != Kind::String)
            return noSuchKey(key);
        return domain(self, key.asString());
    }
};

const AttributesType kAttributes;

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
        if (field == "allowMultipleAllocations")
            return Value::boolean(view->allowMultipleAllocations);
        return HostType::select(self, field);
    }
    Value hasField(const Value &, std::string_view field) const override
    {
        return Value::boolean(field == "driver" || field == "attributes"
                              || field == "allowMultipleAllocations");
    }
};

const DeviceType kDevice;

} // namespace

void DeviceView::addAttribute(std::string_view qualifiedName, DeviceAttributeValue value)
{
    const size_t slash = qualifiedName.find('/');
    const std::string domainName = slash == std::string_view::npos
                                       ? driver
                                       : std::string(qualifiedName.substr(0, slash));
    const std::string name(slash == std::string_view::npos ? qualifiedName
                                                           : qualifiedName.substr(slash + 1));
    auto d = std::lower_bound(m_attributes.begin(), m_attributes.end(), domainName,
                              [](const Domain &x, const std::string &n) { return x.name < n; });
    if (d == m_attributes.end() || d->name != domainName)
        d = m_attributes.insert(d, Domain{domainName, {}});
    auto a = std::lower_bound(d->attributes.begin(), d->attributes.end(), name,
                              [](const Attribute &x, const std::string &n) { return x.name < n; });
    if (a != d->attributes.end() && a->name == name)
        a->value = std::move(value);
    else
        d->attributes.insert(a, Attribute{name, std::move(value)});
}

const DeviceView::Domain *DeviceView::findDomain(std::string_view domain) const
{
    const auto it = std::lower_bound(m_attributes.begin(), m_attributes.end(), domain,
                                     [](const Domain &x, std::string_view n) { return x.name < n; });
    return it != m_attributes.end() && it->name == domain ? &*it : nullptr;
}

Result<CompiledSelector> compileSelector(std::string_view expression,
                                         std::vector<Diagnostic> *diagnostics)
{
    static const Environment env = [] {
        Environment e = Environment::standard();
        e.addVariable("device");
        return e;
    }();
    CompileOptions options;
    options.parse.maxExpressionBytes = kMaxExpressionBytes;
    auto program = compile(env, expression, options, diagnostics);
    if (!program)
        return fail(program.error());
    CompiledSelector selector;
    selector.m_program = std::move(*program);
    return selector;
}

SelectorResult evaluate(const CompiledSelector &selector, const DeviceView &device)
{
    const std::array<Value, 1> variables{Value::host(&kDevice, &device)};
    const Value v = selector.m_program.evaluate(variables, &device, kCostLimit);
    if (v.kind() == Kind::Bool)
        return {v.asBool() ? SelectorResult::Outcome::Match : SelectorResult::Outcome::NoMatch, {}};
    if (v.isError())
        return {SelectorResult::Outcome::Error, std::string(v.asString())};
    return {SelectorResult::Outcome::Error,
            "the selector must evaluate to bool, not " + std::string(v.typeName())};
}

} // namespace dra::cel
