// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

// A static CEL type, as the checker infers it. `Dyn` is the gradual type: it is assignable to
// and from every type, so an expression that reads an attribute (typed dyn, as in Kubernetes)
// checks wherever a value of the right runtime kind could appear.
struct CelType
{
    enum class Kind : uint8_t {
        Dyn,
        Any, // google.protobuf.Any: assignable like dyn, but not a comprehension range
        Null,
        Bool,
        Int,
        Uint,
        Double,
        String,
        Bytes,
        Timestamp,
        Duration,
        List, // params: element
        Map, // params: key, value
        Type, // params: the type the value denotes
        Optional, // params: the wrapped type
        Opaque, // a named library type: kubernetes.Quantity, net.IP, ...; params when generic
        Object, // a declared object type with fields: kubernetes.DRADevice
        Param, // a type parameter of an overload declaration (A, K, V)
        Error, // the type of an expression that failed to check; behaves as dyn
    };
    Kind kind = Kind::Dyn;
    std::string name; // Opaque, Object and Param
    std::vector<CelType> params; // see Kind

    static CelType simple(Kind k) { return CelType { k, {}, {} }; }
    static CelType dyn() { return simple(Kind::Dyn); }
    static CelType list(CelType element)
    {
        return CelType { Kind::List, {}, { std::move(element) } };
    }
    static CelType map(CelType key, CelType value)
    {
        return CelType { Kind::Map, {}, { std::move(key), std::move(value) } };
    }
    static CelType typeOf(CelType t) { return CelType { Kind::Type, {}, { std::move(t) } }; }
    static CelType optional(CelType t) { return CelType { Kind::Optional, {}, { std::move(t) } }; }
    static CelType opaque(std::string name, std::vector<CelType> params = {})
    {
        return CelType { Kind::Opaque, std::move(name), std::move(params) };
    }
    static CelType object(std::string name)
    {
        return CelType { Kind::Object, std::move(name), {} };
    }
    static CelType param(std::string name) { return CelType { Kind::Param, std::move(name), {} }; }

    // Dyn, Any or Error: a type the checker cannot narrow, which matches anything.
    bool isDyn() const { return kind == Kind::Dyn || kind == Kind::Any || kind == Kind::Error; }
    bool is(Kind k) const { return kind == k; }
    bool isOpaque(std::string_view n) const { return kind == Kind::Opaque && name == n; }
    // cel-go's spelling: "list(int)", "map(string, dyn)", "google.protobuf.Timestamp".
    std::string toString() const;
    bool operator==(const CelType &) const = default;
};

// Names of the library types, as `type()` reports them at runtime.
inline constexpr std::string_view kQuantityTypeName = "kubernetes.Quantity";
inline constexpr std::string_view kSemverTypeName = "kubernetes.Semver";

// Parses a type written as in declarations: "int", "list(A)", "map(string, dyn)",
// "optional(A)", "type(A)", "any", "kubernetes.Quantity"; single capital letters are parameters.
CelType parseType(std::string_view text);

} // namespace dra::cel
