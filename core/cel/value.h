// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
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

// A CEL value in 32 bytes. Scalars and strings of up to 24 bytes are stored inline; longer
// strings, lists and maps either borrow memory that outlives the evaluation (literals of a
// compiled program, fields of a device view) or own it through a shared pointer, so evaluating
// a selector over a device allocates nothing unless the expression builds new strings or
// collections. Values are small because maps of them are read by the ten thousand: the fewer
// cache lines a device's maps span, the less an evaluation waits on memory.
//
// The text of an inline string lives in the value itself: asString() of it is valid while the
// value is neither destroyed nor moved.
class Value final
{
public:
    Value() = default;
    Value(const Value &other)
        : m_kind(other.m_kind)
        , m_layout(other.m_layout)
        , m_inlineSize(other.m_inlineSize)
        , m_size(other.m_size)
    {
        if (m_layout == Layout::Owned)
            new (&m_body.owned) OwnedBody(other.m_body.owned);
        else
            copyBody(other);
    }
    Value(Value &&other) noexcept
        : m_kind(other.m_kind)
        , m_layout(other.m_layout)
        , m_inlineSize(other.m_inlineSize)
        , m_size(other.m_size)
    {
        if (m_layout == Layout::Owned)
            new (&m_body.owned) OwnedBody(std::move(other.m_body.owned));
        else
            copyBody(other);
    }
    Value &operator=(const Value &other)
    {
        if (m_layout != Layout::Owned && other.m_layout != Layout::Owned) {
            copyHeader(other);
            copyBody(other);
        } else if (this != &other) {
            Value copy(other); // first: `other` may live inside what this value owns
            replaceWith(std::move(copy));
        }
        return *this;
    }
    Value &operator=(Value &&other) noexcept
    {
        if (m_layout != Layout::Owned && other.m_layout != Layout::Owned) {
            copyHeader(other);
            copyBody(other);
        } else if (this != &other) {
            Value moved(std::move(other));
            replaceWith(std::move(moved));
        }
        return *this;
    }
    ~Value() { release(); }

    static Value null() { return Value(); }
    static Value boolean(bool b);
    static Value integer(int64_t i);
    static Value unsignedInteger(uint64_t u);
    static Value floating(double d);
    // A string that borrows `text`, which must outlive every use of the value.
    static Value borrowedString(std::string_view text)
    {
        if (text.size() > UINT32_MAX) [[unlikely]]
            return tooLong(text.size());
        Value v;
        v.m_kind = Kind::String;
        v.m_body.plain.a.p = text.data();
        v.m_size = static_cast<uint32_t>(text.size());
        return v;
    }
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
    // interpreted by `type`; `owner` keeps data alive when it is not borrowed. A host value
    // either borrows its data and may carry `aux`, or owns it and carries no `aux`.
    static Value host(const HostType *type, const void *data, std::string_view aux = {},
        std::shared_ptr<const void> owner = {});

    Kind kind() const { return m_kind; }
    bool isError() const { return m_kind == Kind::Error; }
    bool isNumber() const
    {
        return m_kind == Kind::Int || m_kind == Kind::Uint || m_kind == Kind::Double;
    }

    bool asBool() const { return m_body.plain.a.b; }
    int64_t asInt() const { return m_body.plain.a.i; }
    uint64_t asUint() const { return m_body.plain.a.u; }
    double asDouble() const { return m_body.plain.a.d; }
    // String, bytes, type name, error message, or the host value's aux text.
    std::string_view asString() const
    {
        return m_layout == Layout::Inline
            ? std::string_view(m_body.text, m_inlineSize)
            : std::string_view(static_cast<const char *>(pointer()), m_size);
    }
    const ListData &asList() const { return *static_cast<const ListData *>(m_body.owned.a.p); }
    const MapData &asMap() const { return *static_cast<const MapData *>(m_body.owned.a.p); }
    Timestamp asTimestamp() const { return { m_body.plain.a.i, static_cast<int32_t>(m_size) }; }
    Duration asDuration() const { return { m_body.plain.a.i, static_cast<int32_t>(m_size) }; }
    bool hasOptionalValue() const { return m_body.owned.a.p != nullptr; }
    const Value &optionalValue() const { return *static_cast<const Value *>(m_body.owned.a.p); }
    const HostType *hostType() const
    {
        return static_cast<const HostType *>(
            m_layout == Layout::Owned ? m_body.owned.a.p : m_body.plain.b);
    }
    const void *hostData() const
    {
        return m_layout == Layout::Owned ? m_body.owned.owner.get() : m_body.plain.c;
    }
    // What keeps a string, list, map, optional or host value's memory alive; empty when the
    // value borrows it or holds it inline.
    const std::shared_ptr<const void> &owner() const;

    // CEL's type name of this value ("int", "google.protobuf.Timestamp", ...).
    std::string_view typeName() const;
    // A debug rendering used in error messages and by the conformance runner.
    std::string debugString() const;

private:
    // How the 24 bytes after the header are used, by kind: scalars, borrowed strings, types
    // and host values that borrow their data are Plain; short strings are Inline; lists, maps,
    // optionals, long owned strings and host values that own their data are Owned.
    enum class Layout : uint8_t { Plain, Inline, Owned };
    union Scalar {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        const void *p;
    };
    struct PlainBody
    {
        Scalar a; // the scalar, a borrowed text, a type name or a host value's aux text
        const void *b; // a host value's type
        const void *c; // a host value's data
    };
    struct OwnedBody
    {
        Scalar a; // the string's text, the list, map or optional's value, or the host type
        std::shared_ptr<const void> owner; // a host value's data is owner.get()
    };
    static constexpr size_t kInlineText = 24;
    union Body {
        Body()
            : plain {}
        {
        }
        ~Body() { }
        PlainBody plain;
        OwnedBody owned;
        char text[kInlineText];
    };

    const void *pointer() const
    {
        return m_layout == Layout::Owned ? m_body.owned.a.p : m_body.plain.a.p;
    }
    void copyHeader(const Value &other)
    {
        m_kind = other.m_kind;
        m_layout = other.m_layout;
        m_inlineSize = other.m_inlineSize;
        m_size = other.m_size;
    }
    // For a body that holds no owner: its bytes are the value.
    void copyBody(const Value &other)
    {
        std::memcpy(
            static_cast<void *>(&m_body), static_cast<const void *>(&other.m_body), sizeof m_body);
    }
    void release() noexcept
    {
        if (m_layout == Layout::Owned)
            m_body.owned.~OwnedBody();
        m_layout = Layout::Plain;
    }
    void replaceWith(Value &&other) noexcept
    {
        release();
        copyHeader(other);
        if (m_layout == Layout::Owned)
            new (&m_body.owned) OwnedBody(std::move(other.m_body.owned));
        else
            copyBody(other);
    }
    // Sets a text that is borrowed (Plain) or kept alive by an owner set after (Owned).
    void setText(std::string_view text);
    // The error for a text longer than a value can hold.
    static Value tooLong(size_t bytes);

    Kind m_kind = Kind::Null;
    Layout m_layout = Layout::Plain;
    uint8_t m_inlineSize = 0; // an Inline string's length
    uint32_t m_size = 0; // a text's length, a timestamp's or duration's nanoseconds
    Body m_body;
};

static_assert(sizeof(Value) == 32, "values are read by the ten thousand: keep them small");

class MapShape;

// The entries of a CEL map in insertion order, with lookup by CEL key equality (1, 1u and 1.0
// find the same entry). The keys live in a shape shared by every map built with the same keys
// in the same order (as a JavaScript engine shares an object's hidden class), and a map holds
// only its values: over thousands of devices built alike, a lookup reads the shape's keys from
// cache and touches the map itself for its header and the value. A map that grows past a few
// dozen keys keeps its own shape, with a sorted index of its key hashes.
class MapData final
{
public:
    MapData();
    MapData(const MapData &other);
    MapData &operator=(const MapData &other);
    MapData(MapData &&other) noexcept;
    MapData &operator=(MapData &&other) noexcept;
    ~MapData();

    // Room for `entries` without reallocating, for callers that know the size: a larger map's
    // values then take exactly the memory they need.
    void reserve(size_t entries);
    // Adds an entry; returns false when an equal key is already present.
    bool insert(Value key, Value value);
    const Value *find(const Value &key) const;
    // The same with `hash` == hashKey(key), computed once for a constant key. Inline, so that
    // the read of the map that may miss the cache is an instruction of the caller's: code that
    // reads one step of a path over thousands of maps alike then has its own load for the
    // processor's stride prefetcher to learn.
    const Value *find(const Value &key, uint64_t hash) const
    {
        const int position = positionIn(*m_shape, key, hash);
        return position < 0 ? nullptr : values().data() + position;
    }
    size_t size() const { return m_size; }
    const std::vector<Value> &keys() const;
    // By the keys' positions.
    std::span<const Value> values() const
    {
        return { m_spillCapacity ? m_spill.get() : m_inline.data(), m_size };
    }

private:
    static constexpr size_t kInlineValues = 4;

    void spill(size_t capacity);
    // The position of `key` among the shape's keys, or -1.
    static int positionIn(const MapShape &shape, const Value &key, uint64_t hash);

    // Memory, not instructions, is what a lookup over thousands of maps waits for: everything
    // a lookup reads before the value comes first, in one cache line, and a small map's values
    // follow it in the same allocation.
    std::shared_ptr<MapShape> m_shape; // shared and never changed, unless m_ownsShape
    std::unique_ptr<Value[]> m_spill; // all the values, once more than kInlineValues
    uint32_t m_size = 0;
    uint32_t m_spillCapacity = 0; // 0 while the values are inline
    bool m_ownsShape = false;
    std::array<Value, kInlineValues> m_inline;
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
