// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/value.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "core/cel/time_util.h"

namespace dra::cel {

namespace {

// Maps of this many entries and more keep a sorted index of their key hashes.
constexpr size_t kIndexedMapSize = 16;
// Maps of up to this many keys share their shape with maps built alike; a larger map is more
// likely a table built at run time, which would only fill the shapes' transitions.
constexpr size_t kSharedShapeKeys = 32;

// Key equality once the hashes agree: strings (nearly every key) compared directly.
bool keysEqual(const Value &a, const Value &b)
{
    if (a.kind() == Kind::String && b.kind() == Kind::String)
        return a.asString() == b.asString();
    return valuesEqual(a, b);
}

void appendQuoted(std::string &out, std::string_view s)
{
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

} // namespace

Value Value::boolean(bool b)
{
    Value v;
    v.m_kind = Kind::Bool;
    v.m_body.plain.a.b = b;
    return v;
}

Value Value::integer(int64_t i)
{
    Value v;
    v.m_kind = Kind::Int;
    v.m_body.plain.a.i = i;
    return v;
}

Value Value::unsignedInteger(uint64_t u)
{
    Value v;
    v.m_kind = Kind::Uint;
    v.m_body.plain.a.u = u;
    return v;
}

Value Value::floating(double d)
{
    Value v;
    v.m_kind = Kind::Double;
    v.m_body.plain.a.d = d;
    return v;
}

void Value::setText(std::string_view text)
{
    if (m_layout == Layout::Owned)
        m_body.owned.a.p = text.data();
    else
        m_body.plain.a.p = text.data();
    m_size = static_cast<uint32_t>(text.size());
}

Value Value::tooLong(size_t bytes)
{
    return error("string of " + std::to_string(bytes) + " bytes is too long");
}

Value Value::string(std::string text)
{
    Value v;
    v.m_kind = Kind::String;
    if (text.size() <= kInlineText) {
        v.m_layout = Layout::Inline;
        v.m_inlineSize = static_cast<uint8_t>(text.size());
        std::memcpy(v.m_body.text, text.data(), text.size());
        return v;
    }
    if (text.size() > UINT32_MAX)
        return tooLong(text.size());
    auto owned = std::make_shared<const std::string>(std::move(text));
    v.m_layout = Layout::Owned;
    new (&v.m_body.owned) OwnedBody { {}, {} };
    v.setText(*owned);
    v.m_body.owned.owner = std::move(owned);
    return v;
}

Value Value::borrowedBytes(std::string_view bytes)
{
    Value v = borrowedString(bytes);
    if (!v.isError())
        v.m_kind = Kind::Bytes;
    return v;
}

Value Value::bytes(std::string bytes)
{
    Value v = string(std::move(bytes));
    if (!v.isError())
        v.m_kind = Kind::Bytes;
    return v;
}

Value Value::list(std::vector<Value> elements)
{
    return list(std::make_shared<const ListData>(std::move(elements)));
}

Value Value::list(std::shared_ptr<const ListData> elements)
{
    Value v;
    v.m_kind = Kind::List;
    v.m_layout = Layout::Owned;
    new (&v.m_body.owned) OwnedBody { { .p = elements.get() }, std::move(elements) };
    return v;
}

Value Value::borrowedList(const ListData &elements)
{
    Value v;
    v.m_kind = Kind::List;
    v.m_layout = Layout::Owned;
    new (&v.m_body.owned) OwnedBody { { .p = &elements }, {} };
    return v;
}

Value Value::map(std::shared_ptr<const MapData> entries)
{
    Value v;
    v.m_kind = Kind::Map;
    v.m_layout = Layout::Owned;
    new (&v.m_body.owned) OwnedBody { { .p = entries.get() }, std::move(entries) };
    return v;
}

Value Value::timestamp(Timestamp t)
{
    Value v;
    v.m_kind = Kind::Timestamp;
    v.m_body.plain.a.i = t.seconds;
    v.m_size = static_cast<uint32_t>(t.nanos);
    return v;
}

Value Value::duration(Duration d)
{
    Value v;
    v.m_kind = Kind::Duration;
    v.m_body.plain.a.i = d.seconds;
    v.m_size = static_cast<uint32_t>(d.nanos);
    return v;
}

Value Value::type(std::string_view name)
{
    Value v;
    v.m_kind = Kind::Type;
    v.setText(name);
    return v;
}

Value Value::optionalNone()
{
    Value v;
    v.m_kind = Kind::Optional;
    v.m_layout = Layout::Owned;
    new (&v.m_body.owned) OwnedBody { { .p = nullptr }, {} };
    return v;
}

Value Value::optionalOf(Value inner)
{
    auto owned = std::make_shared<const Value>(std::move(inner));
    Value v;
    v.m_kind = Kind::Optional;
    v.m_layout = Layout::Owned;
    new (&v.m_body.owned) OwnedBody { { .p = owned.get() }, std::move(owned) };
    return v;
}

Value Value::error(std::string message)
{
    Value v = string(std::move(message));
    v.m_kind = Kind::Error;
    return v;
}

Value Value::host(
    const HostType *type, const void *data, std::string_view aux, std::shared_ptr<const void> owner)
{
    Value v;
    v.m_kind = Kind::Host;
    if (owner) {
        // The data is reached through the owner, which keeps it alive: an owning host value
        // has no room for aux text, and no host type that owns its data uses one.
        v.m_layout = Layout::Owned;
        new (&v.m_body.owned)
            OwnedBody { { .p = type }, std::shared_ptr<const void>(std::move(owner), data) };
        return v;
    }
    v.setText(aux);
    v.m_body.plain.b = type;
    v.m_body.plain.c = data;
    return v;
}

const std::shared_ptr<const void> &Value::owner() const
{
    static const std::shared_ptr<const void> none;
    return m_layout == Layout::Owned ? m_body.owned.owner : none;
}

std::string_view Value::typeName() const
{
    switch (m_kind) {
    case Kind::Null:
        return "null_type";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Uint:
        return "uint";
    case Kind::Double:
        return "double";
    case Kind::String:
        return "string";
    case Kind::Bytes:
        return "bytes";
    case Kind::List:
        return "list";
    case Kind::Map:
        return "map";
    case Kind::Timestamp:
        return "google.protobuf.Timestamp";
    case Kind::Duration:
        return "google.protobuf.Duration";
    case Kind::Type:
        return "type";
    case Kind::Optional:
        return "optional_type";
    case Kind::Error:
        return "*error*";
    case Kind::Host:
        return hostType()->typeName();
    case Kind::Dyn:
        return "dyn";
    }
    return "dyn";
}

std::string Value::debugString() const
{
    std::string out;
    switch (m_kind) {
    case Kind::Null:
        return "null";
    case Kind::Bool:
        return asBool() ? "true" : "false";
    case Kind::Int:
        return std::to_string(asInt());
    case Kind::Uint:
        return std::to_string(asUint()) + "u";
    case Kind::Double: {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", asDouble());
        return buf;
    }
    case Kind::String:
        appendQuoted(out, asString());
        return out;
    case Kind::Bytes:
        out = "b";
        appendQuoted(out, asString());
        return out;
    case Kind::List: {
        out = "[";
        bool first = true;
        for (const Value &e : asList()) {
            if (!first)
                out += ", ";
            first = false;
            out += e.debugString();
        }
        return out + "]";
    }
    case Kind::Map: {
        out = "{";
        const MapData &m = asMap();
        for (size_t i = 0; i < m.size(); ++i) {
            if (i)
                out += ", ";
            out += m.keys()[i].debugString() + ": " + m.values()[i].debugString();
        }
        return out + "}";
    }
    case Kind::Timestamp:
        return "timestamp(\"" + formatTimestamp(asTimestamp()) + "\")";
    case Kind::Duration:
        return "duration(\"" + formatDuration(asDuration()) + "\")";
    case Kind::Type:
        return std::string(asString());
    case Kind::Optional:
        return hasOptionalValue() ? "optional.of(" + optionalValue().debugString() + ")"
                                  : "optional.none()";
    case Kind::Error:
        return "error(" + std::string(asString()) + ")";
    case Kind::Host:
        return hostType()->debugString(*this);
    case Kind::Dyn:
        return "dyn";
    }
    return {};
}

// The keys of maps built alike, and how to find them. Shapes are immutable once shared; the
// transitions from a shape to the shapes one key longer are looked up under a lock, so maps are
// built from any thread.
class MapShape final : public std::enable_shared_from_this<MapShape>
{
public:
    MapShape() = default;
    MapShape(const MapShape &other)
        : std::enable_shared_from_this<MapShape>()
        , m_keys(other.m_keys)
        , m_hashes(other.m_hashes)
        , m_index(other.m_index)
    {
    }

    const std::vector<Value> &keys() const { return m_keys; }

    // The position of the key equal to `key` (CEL equality), or -1.
    int find(const Value &key, uint64_t hash) const
    {
        if (m_index.empty()) {
            for (size_t i = 0; i < m_hashes.size(); ++i) {
                if (m_hashes[i] == hash && keysEqual(m_keys[i], key))
                    return static_cast<int>(i);
            }
            return -1;
        }
        auto it = std::lower_bound(
            m_index.begin(), m_index.end(), std::pair<uint64_t, uint32_t> { hash, 0 });
        for (; it != m_index.end() && it->first == hash; ++it) {
            if (keysEqual(m_keys[it->second], key))
                return static_cast<int>(it->second);
        }
        return -1;
    }

    // Appends a key to a shape not shared with any other map.
    void append(Value key, uint64_t hash)
    {
        m_keys.push_back(std::move(key));
        m_hashes.push_back(hash);
        if (m_keys.size() == kIndexedMapSize) {
            m_index.reserve(m_keys.size());
            for (size_t i = 0; i < m_keys.size(); ++i)
                m_index.emplace_back(m_hashes[i], static_cast<uint32_t>(i));
            std::sort(m_index.begin(), m_index.end());
        } else if (m_keys.size() > kIndexedMapSize) {
            const std::pair<uint64_t, uint32_t> entry { hash,
                static_cast<uint32_t>(m_keys.size() - 1) };
            m_index.insert(std::upper_bound(m_index.begin(), m_index.end(), entry), entry);
        }
    }

    // The shared shape of these keys followed by `key`, made on first use.
    std::shared_ptr<MapShape> extended(const Value &key, uint64_t hash)
    {
        const std::lock_guard lock(m_mutex);
        auto [first, last] = m_next.equal_range(hash);
        for (auto it = first; it != last; ++it) {
            std::shared_ptr<MapShape> next = it->second.lock();
            if (next && sameKey(next->m_keys.back(), key))
                return next;
        }
        auto next = std::make_shared<MapShape>(*this);
        next->m_parent = shared_from_this(); // so that maps built alike find this shape again
        // The shape outlives the map that made it: it keeps its own copy of a borrowed key.
        next->append(
            key.kind() == Kind::String ? Value::string(std::string(key.asString())) : key, hash);
        if (m_next.size() >= m_pruneAt) {
            std::erase_if(m_next, [](const auto &entry) { return entry.second.expired(); });
            m_pruneAt = std::max<size_t>(16, m_next.size() * 2);
        }
        m_next.emplace(hash, next);
        return next;
    }

    static const std::shared_ptr<MapShape> &empty()
    {
        static const auto *shape = new std::shared_ptr<MapShape>(std::make_shared<MapShape>());
        return *shape;
    }

private:
    // Keys that are the same value of the same kind: 1 and 1u find the same entry but are
    // different keys to iterate over, so maps keyed by each have different shapes.
    static bool sameKey(const Value &a, const Value &b)
    {
        return a.kind() == b.kind() && keysEqual(a, b);
    }

    std::vector<Value> m_keys;
    std::vector<uint64_t> m_hashes; // hashKey() of each key, by position
    std::vector<std::pair<uint64_t, uint32_t>> m_index; // sorted (hash, position) when large
    std::shared_ptr<const MapShape> m_parent; // the shape one key shorter, when shared
    std::mutex m_mutex;
    std::unordered_multimap<uint64_t, std::weak_ptr<MapShape>> m_next;
    size_t m_pruneAt = 16;
};

MapData::MapData()
    : m_shape(MapShape::empty())
{
}

MapData::MapData(const MapData &other)
    : m_shape(other.m_ownsShape ? std::make_shared<MapShape>(*other.m_shape) : other.m_shape)
    , m_ownsShape(other.m_ownsShape)
{
    if (other.m_size > kInlineValues)
        spill(other.m_size);
    const std::span<const Value> values = other.values();
    std::copy(values.begin(), values.end(), m_spillCapacity ? m_spill.get() : m_inline.data());
    m_size = other.m_size;
}

MapData &MapData::operator=(const MapData &other)
{
    if (this != &other)
        *this = MapData(other);
    return *this;
}

// A moved-from map is empty and still usable, as a moved-from container.
MapData::MapData(MapData &&other) noexcept
    : m_shape(std::exchange(other.m_shape, MapShape::empty()))
    , m_spill(std::move(other.m_spill))
    , m_size(std::exchange(other.m_size, 0))
    , m_spillCapacity(std::exchange(other.m_spillCapacity, 0))
    , m_ownsShape(std::exchange(other.m_ownsShape, false))
    , m_inline(std::exchange(other.m_inline, {}))
{
}

MapData &MapData::operator=(MapData &&other) noexcept
{
    if (this != &other) {
        m_shape = std::exchange(other.m_shape, MapShape::empty());
        m_spill = std::move(other.m_spill);
        m_size = std::exchange(other.m_size, 0);
        m_spillCapacity = std::exchange(other.m_spillCapacity, 0);
        m_ownsShape = std::exchange(other.m_ownsShape, false);
        m_inline = std::exchange(other.m_inline, {});
    }
    return *this;
}

MapData::~MapData() = default;

// Moves the values to a heap array of `capacity` (more than kInlineValues).
void MapData::spill(size_t capacity)
{
    auto values = std::make_unique<Value[]>(capacity);
    Value *from = m_spillCapacity ? m_spill.get() : m_inline.data();
    std::move(from, from + m_size, values.get());
    if (!m_spillCapacity)
        m_inline = {};
    m_spill = std::move(values);
    m_spillCapacity = static_cast<uint32_t>(capacity);
}

void MapData::reserve(size_t entries)
{
    if (entries > kInlineValues && entries > m_spillCapacity)
        spill(entries);
}

bool MapData::insert(Value key, Value value)
{
    const uint64_t hash = hashKey(key);
    if (m_shape->find(key, hash) >= 0)
        return false;
    if (m_ownsShape) {
        m_shape->append(std::move(key), hash);
    } else if (m_size < kSharedShapeKeys) {
        m_shape = m_shape->extended(key, hash);
    } else {
        m_shape = std::make_shared<MapShape>(*m_shape);
        m_shape->append(std::move(key), hash);
        m_ownsShape = true;
    }
    if (m_spillCapacity == 0 && m_size < kInlineValues) {
        m_inline[m_size++] = std::move(value);
        return true;
    }
    if (m_size == m_spillCapacity || m_spillCapacity == 0)
        spill(std::max<size_t>(2 * kInlineValues, 2 * size_t { m_size }));
    m_spill[m_size++] = std::move(value);
    return true;
}

const Value *MapData::find(const Value &key) const
{
    return find(key, hashKey(key));
}

int MapData::positionIn(const MapShape &shape, const Value &key, uint64_t hash)
{
    return shape.find(key, hash);
}

const std::vector<Value> &MapData::keys() const
{
    return m_shape->keys();
}

Value HostType::visitEntries(const Value &self, bool withValues, EntryVisitor &visitor) const
{
    const Value all = keys(self);
    if (all.isError())
        return all;
    for (const Value &key : all.asList()) {
        const Value value = withValues ? index(self, key) : Value();
        if (!visitor.visit(key, withValues ? &value : nullptr))
            break;
    }
    return Value::null();
}

Value HostType::select(const Value &self, std::string_view field) const
{
    return Value::error(
        "no such field '" + std::string(field) + "' on " + std::string(self.typeName()));
}

Value HostType::hasField(const Value &self, std::string_view) const
{
    return Value::error(
        "type '" + std::string(self.typeName()) + "' does not support field selection");
}

Value HostType::index(const Value &self, const Value &) const
{
    return noSuchOverload("_[_] on " + std::string(self.typeName()));
}

bool HostType::equals(const Value &self, const Value &other) const
{
    return self.hostData() == other.hostData() && self.asString() == other.asString();
}

std::string HostType::debugString(const Value &self) const
{
    return std::string(typeName()) + "(" + std::string(self.asString()) + ")";
}

Value HostType::size(const Value &self) const
{
    return noSuchOverload("size on " + std::string(self.typeName()));
}

Value HostType::keys(const Value &self) const
{
    return Value::error("expression of type '" + std::string(self.typeName())
        + "' cannot be range of a comprehension");
}

Value HostType::contains(const Value &self, const Value &key) const
{
    if (key.kind() != Kind::String)
        return Value::boolean(false);
    return hasField(self, key.asString());
}

bool isValidMapKey(const Value &key)
{
    switch (key.kind()) {
    case Kind::Bool:
    case Kind::Int:
    case Kind::Uint:
    case Kind::String:
        return true;
    default:
        return false;
    }
}

int compareNumbers(const Value &a, const Value &b)
{
    auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
    switch (a.kind()) {
    case Kind::Int:
        if (b.kind() == Kind::Int)
            return cmp(a.asInt(), b.asInt());
        if (b.kind() == Kind::Uint)
            return a.asInt() < 0 ? -1 : cmp(static_cast<uint64_t>(a.asInt()), b.asUint());
        break;
    case Kind::Uint:
        if (b.kind() == Kind::Uint)
            return cmp(a.asUint(), b.asUint());
        if (b.kind() == Kind::Int)
            return b.asInt() < 0 ? 1 : cmp(a.asUint(), static_cast<uint64_t>(b.asInt()));
        break;
    default:
        break;
    }
    // At least one double: CEL compares in double precision, so an int64 near 2^63 equals
    // the double it rounds to (the conformance suites pin this down).
    auto toDouble = [](const Value &v) {
        return v.kind() == Kind::Double ? v.asDouble()
                                        : (v.kind() == Kind::Int ? static_cast<double>(v.asInt())
                                                                 : static_cast<double>(v.asUint()));
    };
    const double x = toDouble(a);
    const double y = toDouble(b);
    if (std::isnan(x) || std::isnan(y))
        return 2;
    return x < y ? -1 : (x > y ? 1 : 0);
}

bool valuesEqual(const Value &a, const Value &b)
{
    if (a.isNumber() && b.isNumber())
        return compareNumbers(a, b) == 0;
    if (a.kind() != b.kind())
        return false;
    switch (a.kind()) {
    case Kind::Null:
        return true;
    case Kind::Bool:
        return a.asBool() == b.asBool();
    case Kind::String:
    case Kind::Bytes:
    case Kind::Type:
    case Kind::Error:
        return a.asString() == b.asString();
    case Kind::Timestamp:
    case Kind::Duration:
        return a.asTimestamp().seconds == b.asTimestamp().seconds
            && a.asTimestamp().nanos == b.asTimestamp().nanos;
    case Kind::List: {
        const ListData &x = a.asList();
        const ListData &y = b.asList();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i) {
            if (!valuesEqual(x[i], y[i]))
                return false;
        }
        return true;
    }
    case Kind::Map: {
        const MapData &x = a.asMap();
        const MapData &y = b.asMap();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i) {
            const Value *other = y.find(x.keys()[i]);
            if (!other || !valuesEqual(x.values()[i], *other))
                return false;
        }
        return true;
    }
    case Kind::Optional:
        if (a.hasOptionalValue() != b.hasOptionalValue())
            return false;
        return !a.hasOptionalValue() || valuesEqual(a.optionalValue(), b.optionalValue());
    case Kind::Host:
        return a.hostType() == b.hostType() && a.hostType()->equals(a, b);
    default:
        return false;
    }
}

uint64_t hashKey(const Value &key)
{
    switch (key.kind()) {
    case Kind::Bool:
        return key.asBool() ? 1 : 2;
    case Kind::Int:
        return std::hash<int64_t> {}(key.asInt());
    case Kind::Uint:
        if (key.asUint() <= static_cast<uint64_t>(INT64_MAX))
            return std::hash<int64_t> {}(static_cast<int64_t>(key.asUint()));
        return std::hash<uint64_t> {}(key.asUint()) ^ 0x9e3779b97f4a7c15ULL;
    case Kind::Double: {
        const double d = key.asDouble();
        if (d == std::trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            return std::hash<int64_t> {}(static_cast<int64_t>(d));
        if (d == std::trunc(d) && d >= 0 && d < 18446744073709551616.0)
            return std::hash<uint64_t> {}(static_cast<uint64_t>(d)) ^ 0x9e3779b97f4a7c15ULL;
        return std::hash<double> {}(d);
    }
    case Kind::String:
        return std::hash<std::string_view> {}(key.asString());
    default:
        return 0;
    }
}

Value noSuchOverload(std::string_view function)
{
    return Value::error("no such overload: " + std::string(function));
}

Value noSuchKey(const Value &key)
{
    std::string k = key.kind() == Kind::String ? std::string(key.asString()) : key.debugString();
    return Value::error("no such key: " + k);
}

Value divisionByZero()
{
    return Value::error("division by zero");
}

Value moduloByZero()
{
    return Value::error("modulus by zero");
}

Value overflowError()
{
    return Value::error("integer overflow");
}

} // namespace dra::cel
