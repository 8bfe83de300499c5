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
        Opaque, // a named library type: kubernetes.Quantity, net.IP, ...
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
    static CelType opaque(std::string name)
    {
        return CelType { Kind::Opaque, std::move(name), {} };
    }
    static CelType object(std::string name)
    {
        return CelType { Kind::Object, std::move(name), {} };
    }
    static CelType param(std::string name) { return CelType { Kind::Param, std::move(name), {} }; }

    bool isDyn() const { return kind == Kind::Dyn || kind == Kind::Error; }
    bool is(Kind k) const { return kind == k; }
    bool isOpaque(std::string_view n) const { return kind == Kind::Opaque && name == n; }
    // cel-go's spelling: "list(int)", "map(string, dyn)", "google.protobuf.Timestamp".
    std::string toString() const;
    bool operator==(const CelType &) const = default;
};

// Names of the library types, as `type()` reports them at runtime.
inline constexpr std::string_view kQuantityTypeName = "kubernetes.Quantity";
inline constexpr std::string_view kSemverTypeName = "kubernetes.Semver";

// Type parameter bindings made while matching one overload.
using TypeBindings = std::map<std::string, CelType, std::less<>>;

// True when a value of type `actual` may be passed where `formal` is declared, binding the
// type parameters of `formal` on the way. Dyn on either side matches anything.
bool isAssignable(const CelType &formal, const CelType &actual, TypeBindings &bindings);

// `t` with its bound parameters replaced; unbound parameters become dyn.
CelType substitute(const CelType &t, const TypeBindings &bindings);

// The most specific type covering both: equal types stay, anything else is dyn.
CelType join(const CelType &a, const CelType &b);

// Parses a type written as in declarations: "int", "list(A)", "map(string, dyn)",
// "optional(A)", "type(A)", "kubernetes.Quantity"; single capital letters are parameters.
CelType parseType(std::string_view text);

} // namespace dra::cel
