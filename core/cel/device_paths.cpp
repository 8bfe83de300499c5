// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `device.attributes["gpu.nvidia.com"].productName` planned generically builds the attribute
// maps' host values step by step and looks each key up by name. Nearly every selector reads
// device fields this way with constant keys, so such leaf paths become one node that finds
// the entry in the device view directly; the generic nodes remain for evaluations without a
// device view.

#include "core/cel/device_paths.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "core/cel/dra_selector.h"
#include "core/cel/interpreter.h"
#include "core/cel/kubernetes_types.h"

namespace dra::cel {

namespace {

bool isDeviceIdent(const Expr &e)
{
    return e.kind == ExprKind::Ident && e.name == "device";
}

// `e` when it is a constant string.
const Expr *constantString(const Expr &e)
{
    return e.kind == ExprKind::Constant && e.constant.kind() == Kind::String ? &e : nullptr;
}

// One step of a path: `x.key` (or `has(x.key)` when `allowTest`) or `x["key"]` with a
// constant string; sets its operand and key. False for any other shape.
bool pathStep(const Expr &e, bool allowTest, const Expr *&operand, std::string &key, bool &test)
{
    if (e.kind == ExprKind::Select && e.target) {
        if (e.testOnly && !allowTest)
            return false;
        test = e.testOnly;
        operand = e.target.get();
        key = e.name;
        return true;
    }
    if (e.kind == ExprKind::Call && !e.target && e.name == "_[_]" && e.args.size() == 2
        && constantString(*e.args[1])) {
        test = false;
        operand = e.args[0].get();
        key = std::string(e.args[1]->constant.asString());
        return true;
    }
    return false;
}

// Locals in scope while walking an expression, innermost last: a `cel.bind` of a domain map
// (a DevicePath with an empty name), or nullopt for any other local, which hides `device` or
// an outer binding of the same name.
using BoundLocals = std::vector<std::pair<std::string, std::optional<DevicePath>>>;

const std::optional<DevicePath> *boundLocal(const BoundLocals *scope, std::string_view name)
{
    if (!scope)
        return nullptr;
    for (auto it = scope->rbegin(); it != scope->rend(); ++it) {
        if (it->first == name)
            return &it->second;
    }
    return nullptr;
}

// The domain map `e` names: `device.attributes["d"]` (or `.d`), `device.capacity["d"]`, or a
// local bound to one; as a DevicePath with an empty name.
std::optional<DevicePath> matchDomain(const Expr &e, const BoundLocals *scope)
{
    if (e.kind == ExprKind::Ident) {
        const std::optional<DevicePath> *local = boundLocal(scope, e.name);
        return local ? *local : std::nullopt;
    }
    const Expr *maps = nullptr;
    std::string domain;
    bool test = false;
    if (!pathStep(e, false, maps, domain, test))
        return std::nullopt;
    if (maps->kind != ExprKind::Select || maps->testOnly || !isDeviceIdent(*maps->target)
        || boundLocal(scope, "device"))
        return std::nullopt;
    if (maps->name == "attributes")
        return DevicePath { DevicePath::Kind::Attribute, std::move(domain), {} };
    if (maps->name == "capacity")
        return DevicePath { DevicePath::Kind::Capacity, std::move(domain), {} };
    return std::nullopt;
}

// The leaf path `e` names, if it is one; `test` tells a has() of it.
std::optional<DevicePath> matchDevicePath(
    const Expr &e, bool &test, const BoundLocals *scope = nullptr)
{
    const Expr *operand = nullptr;
    std::string name;
    if (!pathStep(e, true, operand, name, test))
        return std::nullopt;
    if (isDeviceIdent(*operand)) {
        if (e.kind != ExprKind::Select || boundLocal(scope, "device"))
            return std::nullopt;
        if (name == "driver")
            return DevicePath { DevicePath::Kind::Driver, {}, std::move(name) };
        if (name == "allowMultipleAllocations")
            return DevicePath { DevicePath::Kind::AllowMultipleAllocations, {}, std::move(name) };
        return std::nullopt;
    }
    std::optional<DevicePath> path = matchDomain(*operand, scope);
    if (path)
        path->name = std::move(name);
    return path;
}

// A leaf path read straight from the DeviceView the evaluation runs against (EvalFrame::host).
class DevicePathNode final : public Node
{
public:
    DevicePathNode(DevicePath path, bool test, NodePtr generic)
        : m_path(std::move(path))
        , m_test(test)
        , m_generic(std::move(generic))
    {
    }

    Value eval(EvalFrame &frame) const override
    {
        if (!frame.host)
            return m_generic->eval(frame);
        const auto &device = *static_cast<const DeviceView *>(frame.host);
        switch (m_path.kind) {
        case DevicePath::Kind::Driver:
            return m_test ? Value::boolean(true) : Value::borrowedString(device.driver);
        case DevicePath::Kind::AllowMultipleAllocations:
            return m_test ? Value::boolean(true) : Value::boolean(device.allowMultipleAllocations);
        case DevicePath::Kind::Attribute: {
            const DeviceAttributeValue *value = device.findAttribute(m_path.domain, m_path.name);
            if (m_test)
                return Value::boolean(value != nullptr);
            return value ? deviceAttributeValue(*value)
                         : missingDeviceEntry("attribute", m_path.domain, m_path.name);
        }
        case DevicePath::Kind::Capacity: {
            const model::Quantity *value = device.findCapacity(m_path.domain, m_path.name);
            if (m_test)
                return Value::boolean(value != nullptr);
            return value ? borrowedQuantityValue(*value)
                         : missingDeviceEntry("capacity", m_path.domain, m_path.name);
        }
        }
        return m_generic->eval(frame);
    }

private:
    DevicePath m_path;
    bool m_test;
    NodePtr m_generic;
};

// `cel.bind(v, init, body)` as its macro expands: a fold over an empty list literal, whose
// loop condition and step never run.
bool isBindFold(const Expr &e)
{
    return e.kind == ExprKind::Comprehension && e.iterRange && e.iterRange->kind == ExprKind::List
        && e.iterRange->args.empty() && e.iterVar2.empty();
}

// `device.attributes` or `device.capacity` (with `device` not hidden by a local): the kind of
// path its entries are.
std::optional<DevicePath::Kind> matchDeviceMaps(const Expr &e, const BoundLocals &scope)
{
    if (e.kind != ExprKind::Select || e.testOnly || !e.target || !isDeviceIdent(*e.target)
        || boundLocal(&scope, "device"))
        return std::nullopt;
    if (e.name == "attributes")
        return DevicePath::Kind::Attribute;
    if (e.name == "capacity")
        return DevicePath::Kind::Capacity;
    return std::nullopt;
}

// The set of leaves a map of `device` holds, as a path covering them: a domain map's entries,
// or for `device.attributes` and `device.capacity` every entry of every domain.
std::optional<DevicePath> matchDeviceMap(const Expr &e, const BoundLocals &scope)
{
    if (std::optional<DevicePath> domain = matchDomain(e, &scope)) {
        domain->anyName = true;
        return domain;
    }
    if (std::optional<DevicePath::Kind> kind = matchDeviceMaps(e, scope))
        return DevicePath { *kind, {}, {}, true, true };
    return std::nullopt;
}

class DevicePathWalker
{
public:
    explicit DevicePathWalker(std::vector<DevicePath> &paths)
        : m_paths(paths)
    {
    }

    // False when `e` reads `device` in a way no set of paths describes.
    bool walk(const Expr &e)
    {
        bool test = false;
        if (std::optional<DevicePath> path = matchDevicePath(e, test, &m_scope)) {
            path->presenceOnly = test;
            add(std::move(*path));
            return true;
        }
        if (e.kind == ExprKind::Ident) {
            // A bound domain map used whole, or `device` itself.
            if (const std::optional<DevicePath> *local = boundLocal(&m_scope, e.name)) {
                if (local->has_value()) {
                    DevicePath whole = **local;
                    whole.anyName = true;
                    add(std::move(whole));
                }
                return true;
            }
            return e.name != "device" && e.name != ".device";
        }
        if (std::optional<bool> ok = walkDynamicRead(e))
            return *ok;
        // A map of the device used whole: compared, passed on, converted.
        if (std::optional<DevicePath> whole = matchDeviceMap(e, m_scope)) {
            add(std::move(*whole));
            return true;
        }
        if (e.kind == ExprKind::Comprehension)
            return walkComprehension(e);
        bool ok = true;
        walkChild(e.target.get(), ok);
        for (const ExprPtr &a : e.args)
            walkChild(a.get(), ok);
        for (const ExprEntry &entry : e.entries) {
            walkChild(entry.key.get(), ok);
            walkChild(entry.value.get(), ok);
        }
        return ok;
    }

private:
    void add(DevicePath path)
    {
        if (std::find(m_paths.begin(), m_paths.end(), path) == m_paths.end())
            m_paths.push_back(std::move(path));
    }

    void walkChild(const Expr *child, bool &ok)
    {
        if (child)
            ok = walk(*child) && ok;
    }

    // Reads with a key computed at run time, key tests and sizes of the device's maps; nullopt
    // when `e` is none of those.
    std::optional<bool> walkDynamicRead(const Expr &e)
    {
        const bool call = e.kind == ExprKind::Call;
        bool ok = true;
        // `key in map`: which entries exist.
        if (call && !e.target && e.name == "@in" && e.args.size() == 2) {
            const Expr &key = *e.args[0];
            if (std::optional<DevicePath> map = matchDeviceMap(*e.args[1], m_scope)) {
                const Expr *name = constantString(key);
                if (name && !map->anyDomain) // `"n" in device.attributes["d"]`
                    map->name = std::string(name->constant.asString()), map->anyName = false;
                else if (name) // `"d" in device.attributes`: whether domain d has entries
                    map->domain = std::string(name->constant.asString()), map->anyDomain = false;
                else
                    walkChild(&key, ok);
                map->presenceOnly = true;
                add(std::move(*map));
                return ok;
            }
            return std::nullopt;
        }
        // size(map) and map.size(): how many entries exist.
        if (call && e.name == "size" && e.args.size() == (e.target ? 0u : 1u)) {
            const Expr &operand = e.target ? *e.target : *e.args[0];
            if (std::optional<DevicePath> map = matchDeviceMap(operand, m_scope)) {
                map->presenceOnly = true;
                add(std::move(*map));
                return true;
            }
            return std::nullopt;
        }
        // `map[key]` with a key computed at run time, and `device.attributes[key].n`.
        const Expr *operand = nullptr;
        std::string name;
        bool test = false;
        if (pathStep(e, true, operand, name, test)) {
            const Expr *domainKey = nullptr;
            if (std::optional<DevicePath::Kind> kind = dynamicDomain(*operand, domainKey)) {
                walkChild(domainKey, ok);
                DevicePath path { *kind, {}, std::move(name), true, false };
                path.presenceOnly = test;
                add(std::move(path));
                return ok;
            }
            return std::nullopt;
        }
        if (call && !e.target && e.name == "_[_]" && e.args.size() == 2) {
            if (std::optional<DevicePath> map = matchDeviceMap(*e.args[0], m_scope)) {
                walkChild(e.args[1].get(), ok);
                add(std::move(*map));
                return ok;
            }
        }
        return std::nullopt;
    }

    // `device.attributes[key]` with a key that is not a constant: the kind, and the key.
    std::optional<DevicePath::Kind> dynamicDomain(const Expr &e, const Expr *&key) const
    {
        if (e.kind != ExprKind::Call || e.target || e.name != "_[_]" || e.args.size() != 2
            || constantString(*e.args[1]))
            return std::nullopt;
        key = e.args[1].get();
        return matchDeviceMaps(*e.args[0], m_scope);
    }

    bool walkComprehension(const Expr &e)
    {
        bool ok = true;
        if (isBindFold(e)) {
            walkChild(e.iterRange.get(), ok);
            // A bound domain map is read through the name it is bound to, not by itself.
            std::optional<DevicePath> domain
                = e.accuInit ? matchDomain(*e.accuInit, &m_scope) : std::nullopt;
            if (!domain)
                walkChild(e.accuInit.get(), ok);
            m_scope.emplace_back(e.accuVar, std::move(domain));
            walkChild(e.result.get(), ok);
            m_scope.pop_back();
            return ok;
        }
        // Iterating a map of the device sees its keys (and with two variables its values).
        std::optional<DevicePath> range
            = e.iterRange ? matchDeviceMap(*e.iterRange, m_scope) : std::nullopt;
        if (range) {
            range->presenceOnly = e.iterVar2.empty();
            add(std::move(*range));
        } else {
            walkChild(e.iterRange.get(), ok);
        }
        walkChild(e.accuInit.get(), ok);
        m_scope.emplace_back(e.accuVar, std::nullopt);
        m_scope.emplace_back(e.iterVar, std::nullopt);
        if (!e.iterVar2.empty())
            m_scope.emplace_back(e.iterVar2, std::nullopt);
        walkChild(e.loopCondition.get(), ok);
        walkChild(e.loopStep.get(), ok);
        m_scope.resize(m_scope.size() - (e.iterVar2.empty() ? 1 : 2));
        walkChild(e.result.get(), ok);
        m_scope.pop_back();
        return ok;
    }

    std::vector<DevicePath> &m_paths;
    BoundLocals m_scope;
};

template <typename T> void appendRaw(std::string &key, const T &value)
{
    key.append(reinterpret_cast<const char *>(&value), sizeof value);
}

void appendText(std::string &key, std::string_view text)
{
    appendRaw(key, static_cast<uint32_t>(text.size()));
    key.append(text);
}

void appendIntKey(std::string &key, int64_t value)
{
    key += 'i';
    appendRaw(key, value);
}

void appendStringKey(std::string &key, std::string_view value)
{
    key += 's';
    appendText(key, value);
}

// The parsed version is what semver functions see; the text only when it is not semver (it
// is in the error message).
void appendVersionKey(std::string &key, std::string_view text, const model::Version *version)
{
    if (!version) {
        key += 'x';
        appendText(key, text);
        return;
    }
    key += 'v';
    appendRaw(key, version->major());
    appendRaw(key, version->minor());
    appendRaw(key, version->patch());
    for (const auto *parts : { &version->prerelease(), &version->build() }) {
        appendRaw(key, static_cast<uint32_t>(parts->size()));
        for (const std::string &part : *parts)
            appendText(key, part);
    }
}

} // namespace

std::unique_ptr<Node> DevicePathCompiler::compilePath(
    const Expr &e, std::unique_ptr<Node> generic) const
{
    bool test = false;
    std::optional<DevicePath> path = matchDevicePath(e, test);
    if (!path)
        return generic;
    return std::make_unique<DevicePathNode>(std::move(*path), test, std::move(generic));
}

std::unique_ptr<Node> DevicePathCompiler::compileKeyTest(
    const Expr &e, std::unique_ptr<Node> generic) const
{
    const Expr *key = constantString(*e.args[0]);
    std::optional<DevicePath> path = key ? matchDomain(*e.args[1], nullptr) : std::nullopt;
    if (!path)
        return generic;
    path->name = std::string(key->constant.asString());
    return std::make_unique<DevicePathNode>(std::move(*path), true, std::move(generic));
}

std::optional<DevicePath> devicePathOf(const Expr &e)
{
    bool test = false;
    std::optional<DevicePath> path = matchDevicePath(e, test);
    return test ? std::nullopt : path;
}

bool collectDevicePaths(const Expr &root, std::vector<DevicePath> &paths)
{
    return DevicePathWalker(paths).walk(root);
}

void appendAttributeKey(const DeviceAttributeValue *value, std::string &key)
{
    if (!value) {
        key += '-';
        return;
    }
    using Type = DeviceAttributeValue::Type;
    switch (value->type) {
    case Type::Int:
        appendIntKey(key, value->intValue);
        return;
    case Type::Bool:
        key += value->boolValue ? 't' : 'f';
        return;
    case Type::String:
        appendStringKey(key, value->stringValue);
        return;
    case Type::Version:
        appendVersionKey(key, value->stringValue, value->version ? &*value->version : nullptr);
        return;
    default:
        break;
    }
    // A list: its type, its length and the encodings of the values selectors see. A list with
    // a bad version reads as that error whatever else it holds.
    static const DeviceAttributeList kNoElements;
    const DeviceAttributeList &list = value->list ? *value->list : kNoElements;
    if (!list.error.empty()) {
        key += 'X';
        appendText(key, list.error);
        return;
    }
    key += 'L';
    key += static_cast<char>(value->type);
    appendRaw(key, static_cast<uint32_t>(list.values.size()));
    for (const Value &element : list.values) {
        switch (element.kind()) {
        case Kind::Int:
            appendIntKey(key, element.asInt());
            break;
        case Kind::Bool:
            key += element.asBool() ? 't' : 'f';
            break;
        case Kind::String:
            appendStringKey(key, element.asString());
            break;
        default: // a semver
            appendVersionKey(key, {}, static_cast<const model::Version *>(element.hostData()));
            break;
        }
    }
}

void appendCapacityKey(const model::Quantity *value, std::string &key)
{
    if (!value) {
        key += '-';
        return;
    }
    key += 'q';
    appendRaw(key, value->nanoUnits());
    appendRaw(key, static_cast<uint8_t>(value->format()));
}

void appendDriverKey(std::string_view driver, std::string &key)
{
    key += 'd';
    appendText(key, driver);
}

namespace {

// The leaves of `domains` that `path` covers: domain and name of each, then its value unless
// only presence is read. Length-prefixed texts keep the encoding unambiguous.
template <typename T, typename AppendValue>
void appendCoveredKey(const DevicePath &path, const std::vector<DeviceView::Domain<T>> &domains,
    std::string &key, AppendValue appendValue)
{
    for (const DeviceView::Domain<T> &domain : domains) {
        if (!path.anyDomain && domain.name != path.domain)
            continue;
        for (const auto &entry : domain.entries) {
            if (!path.anyName && entry.name != path.name)
                continue;
            appendText(key, domain.name);
            appendText(key, entry.name);
            if (!path.presenceOnly)
                appendValue(&entry.value, key);
        }
    }
    key += '|';
}

// One leaf's value, or with `presenceOnly` whether it is there.
template <typename T, typename AppendValue>
void appendLeafKey(const T *value, bool presenceOnly, std::string &key, AppendValue appendValue)
{
    if (presenceOnly)
        key += value ? '+' : '-';
    else
        appendValue(value, key);
}

} // namespace

void appendDevicePathKey(
    const DevicePath &path, const DeviceView &device, std::string &key, DeviceLookupHint &hint)
{
    switch (path.kind) {
    case DevicePath::Kind::Driver:
        appendDriverKey(device.driver, key);
        return;
    case DevicePath::Kind::AllowMultipleAllocations:
        key += device.allowMultipleAllocations ? 'T' : 'F';
        return;
    case DevicePath::Kind::Attribute:
        if (!path.isLeaf())
            appendCoveredKey(path, device.attributeDomains(), key, appendAttributeKey);
        else
            appendLeafKey(device.findAttribute(path.domain, path.name, hint), path.presenceOnly,
                key, appendAttributeKey);
        return;
    case DevicePath::Kind::Capacity:
        if (!path.isLeaf())
            appendCoveredKey(path, device.capacityDomains(), key, appendCapacityKey);
        else
            appendLeafKey(device.findCapacity(path.domain, path.name, hint), path.presenceOnly, key,
                appendCapacityKey);
        return;
    }
}

Value missingDeviceEntry(std::string_view what, std::string_view domain, std::string_view name)
{
    const std::string n(name);
    return Value::error("no such key: " + n + " (the device has no " + std::string(what) + " \"" + n
        + "\" in domain \"" + std::string(domain)
        + "\"; guard the lookup with has() or use optional chaining: .?" + n + ".orValue(...))");
}

} // namespace dra::cel
