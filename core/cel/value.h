// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::cel {

// The runtime kinds of CEL values. `Dyn` never appears on a value: it is the wildcard of
// overload parameter lists.
enum class Kind : uint8_t {
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    List,
    Map,
    Timestamp,
    Duration,
    Type,
    Optional,
    Error,
    Host,
    Dyn,
};

class Value;
class MapData;
class HostType;

using ListData = std::vector<Value>;

// A CEL timestamp: seconds since the Unix epoch plus nanoseconds in [0, 1e9).
struct Timestamp
{
    int64_t seconds = 0;
    int32_t nanos = 0;
};

// A CEL duration, normalized so that nanos is in [0, 1e9) whatever the sign. Like cel-go's,
// durations are limited to what int64 nanoseconds hold (about ±292 years).
struct Duration
{
    int64_t seconds = 0;
    int32_t nanos = 0;
};

// A CEL value. Scalars are stored inline; strings, lists and maps either borrow memory that
// outlives the evaluation (literals of a compiled program, fields of a device view) or own it
// through a shared pointer, so evaluating a selector over a device allocates nothing unless
// the expression builds new strings or collections.
class Value final
{
public:
    Value() = default;

    static Value null() { return Value(); }
    static Value boolean(bool b);
    static Value integer(int64_t i);
    static Value unsignedInteger(uint64_t u);
    static Value floating(double d);
    // A string that borrows `text`, which must outlive every use of the value.
    static Value borrowedString(std::string_view text);
    static Value string(std::string text);
    static Value borrowedBytes(std::string_view bytes);
    static Value bytes(std::string bytes);
    static Value list(std::vector<Value> elements);
    static Value list(std::shared_ptr<const ListData> elements);
    // A list that borrows `elements`, which must outlive every use of the value (the lists of
    // a device view's attributes).
    static Value borrowedList(const ListData &elements);
    static Value map(std::shared_ptr<const MapData> entries);
    static Value timestamp(Timestamp t);
    static Value duration(Duration d);
    // A type value; `name` must be a string with static storage or be owned by the program.
    static Value type(std::string_view name);
    static Value optionalNone();
    static Value optionalOf(Value v);
    static Value error(std::string message);
    // A value of a host type (quantity, semver, device maps). `data` and `aux` are
    // interpreted by `type`; `owner` keeps data alive when it is not borrowed.
    static Value host(const HostType *type, const void *data, std::string_view aux = {},
        std::shared_ptr<const void> owner = {});

    Kind kind() const { return m_kind; }
    bool isError() const { return m_kind == Kind::Error; }
    bool isNumber() const
    {
        return m_kind == Kind::Int || m_kind == Kind::Uint || m_kind == Kind::Double;
    }

    bool asBool() const { return m_scalar.b; }
    int64_t asInt() const { return m_scalar.i; }
    uint64_t asUint() const { return m_scalar.u; }
    double asDouble() const { return m_scalar.d; }
    // String, bytes, type name, error message, or the host value's aux text.
    std::string_view asString() const { return m_text; }
    const ListData &asList() const { return *static_cast<const ListData *>(m_scalar.p.a); }
    const MapData &asMap() const { return *static_cast<const MapData *>(m_scalar.p.a); }
    Timestamp asTimestamp() const { return { m_scalar.t.s, m_scalar.t.n }; }
    Duration asDuration() const { return { m_scalar.t.s, m_scalar.t.n }; }
    bool hasOptionalValue() const { return m_scalar.p.a != nullptr; }
    const Value &optionalValue() const { return *static_cast<const Value *>(m_scalar.p.a); }
    const HostType *hostType() const { return static_cast<const HostType *>(m_scalar.p.a); }
    const void *hostData() const { return m_scalar.p.b; }
    const std::shared_ptr<const void> &owner() const { return m_owner; }

    // CEL's type name of this value ("int", "google.protobuf.Timestamp", ...).
    std::string_view typeName() const;
    // A debug rendering used in error messages and by the conformance runner.
    std::string debugString() const;

private:
    Kind m_kind = Kind::Null;
    union Scalar {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        struct
        {
            int64_t s;
            int32_t n;
        } t;
        struct
        {
            const void *a;
            const void *b;
        } p;
    } m_scalar {};
    std::string_view m_text;
    std::shared_ptr<const void> m_owner;
};

class MapShape;

// The entries of a CEL map in insertion order, with lookup by CEL key equality (1, 1u and 1.0
// find the same entry). The keys live in a shape shared by every map built with the same keys
// in the same order (as a JavaScript engine shares an object's hidden class), and a map holds
// only its values: over thousands of devices built alike, a lookup reads the shape's keys from
// cache and touches the map itself once, for the value. A map that grows past a few dozen keys
// keeps its own shape, with a sorted index of its key hashes.
class MapData final
{
public:
    MapData();
    MapData(const MapData &other);
    MapData &operator=(const MapData &other);
    MapData(MapData &&) noexcept = default;
    MapData &operator=(MapData &&) noexcept = default;
    ~MapData();

    // Room for `entries` without reallocating, for callers that know the size.
    void reserve(size_t entries);
    // Adds an entry; returns false when an equal key is already present.
    bool insert(Value key, Value value);
    const Value *find(const Value &key) const;
    // The same with `hash` == hashKey(key), computed once for a constant key.
    const Value *find(const Value &key, uint64_t hash) const;
    size_t size() const { return m_size; }
    const std::vector<Value> &keys() const;
    // By the keys' positions.
    std::span<const Value> values() const
    {
        return m_spilled ? std::span<const Value>(m_spill)
                         : std::span<const Value>(m_inline.data(), m_size);
    }

private:
    static constexpr size_t kInlineValues = 4;

    std::shared_ptr<MapShape> m_shape; // shared and never changed, unless m_ownsShape
    // A small map's values live beside it, so that reading one touches one allocation.
    std::array<Value, kInlineValues> m_inline;
    std::vector<Value> m_spill; // all the values, once there are more
    uint32_t m_size = 0;
    bool m_spilled = false;
    bool m_ownsShape = false;
};

// Receives the entries of a map-like host value one at a time (HostType::visitEntries()).
class EntryVisitor
{
public:
    // `value` is null when only keys were asked for. Returns false to stop.
    virtual bool visit(const Value &key, const Value *value) = 0;

protected:
    ~EntryVisitor() = default;
};

// Behaviour of a host value kind: Kubernetes quantities and versions, the DRA device view.
class HostType
{
public:
    virtual ~HostType() = default;
    virtual std::string_view typeName() const = 0;
    // `v.field`; the default is the "no such field" error.
    virtual Value select(const Value &self, std::string_view field) const;
    // `has(v.field)`; returns an error value when field tests are not supported.
    virtual Value hasField(const Value &self, std::string_view field) const;
    // `v[key]`.
    virtual Value index(const Value &self, const Value &key) const;
    virtual bool equals(const Value &self, const Value &other) const;
    // How the value reads in messages and test output.
    virtual std::string debugString(const Value &self) const;
    // For map-like host values: size(), `in` and iteration by comprehensions. The defaults
    // are "no such overload" errors.
    virtual Value size(const Value &self) const;
    virtual Value keys(const Value &self) const;
    // `key in v`; the default is has(v.key) for a string key, false for any other.
    virtual Value contains(const Value &self, const Value &key) const;
    // Visits the entries of a map-like host value in the order of keys(), values only when
    // `withValues`, for comprehensions: device maps override it to read their entries in
    // place instead of building a list of keys and looking each one up again. Returns an error
    // value for a value that is not map-like, else null. The default uses keys() and index().
    virtual Value visitEntries(const Value &self, bool withValues, EntryVisitor &visitor) const;
};

// True when `key` is a valid map key kind (bool, int, uint, string).
bool isValidMapKey(const Value &key);

// CEL equality (heterogeneous numbers, deep lists and maps); never an error.
bool valuesEqual(const Value &a, const Value &b);

// Compares two numbers of any numeric kinds; NaN gives `unordered` (returns 2).
int compareNumbers(const Value &a, const Value &b);

// Hash consistent with valuesEqual for valid map keys and numbers.
uint64_t hashKey(const Value &key);

// Standard error values; messages follow cel-go's wording.
Value noSuchOverload(std::string_view function);
Value noSuchKey(const Value &key);
Value divisionByZero();
Value moduloByZero();
Value overflowError();

} // namespace dra::cel
