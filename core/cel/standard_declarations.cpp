// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Typed signatures of the standard definitions (cel-spec) and of the extension libraries
// Kubernetes offers device selectors. The runtime implementations live in lib_*.cpp; these
// only tell the checker what each overload accepts and returns.

#include <initializer_list>

#include "core/cel/declarations.h"
#include "core/cel/env.h"

namespace dra::cel {

namespace {

void declareAll(Declarations &d, std::initializer_list<std::string_view> signatures)
{
    for (std::string_view s : signatures)
        d.addFunction(s);
}

void declareOperators(Declarations &d)
{
    declareAll(d,
        {
            "!_(bool) -> bool",
            "-_(int) -> int",
            "-_(double) -> double",
            "_&&_(bool, bool) -> bool",
            "_||_(bool, bool) -> bool",
            "@not_strictly_false(bool) -> bool",
            // What transformMap and transformMapEntry expand to.
            "cel.@mapInsert(map(K, V), K, V) -> map(K, V)",
            "cel.@mapInsert(map(K, V), map(K, V)) -> map(K, V)",
            "_?_:_(bool, A, A) -> A",
            "_==_(A, A) -> bool",
            "_!=_(A, A) -> bool",
            "_[_](list(A), int) -> A",
            "_[_](map(K, V), K) -> V",
            "_[?_](list(A), int) -> optional(A)",
            "_[?_](map(K, V), K) -> optional(V)",
            "_[?_](optional(list(A)), int) -> optional(A)",
            "_[?_](optional(map(K, V)), K) -> optional(V)",
            "_[_](optional(list(A)), int) -> optional(A)",
            "_[_](optional(map(K, V)), K) -> optional(V)",
            "@in(A, list(A)) -> bool",
            "@in(K, map(K, V)) -> bool",
        });
    // Ordering, including the cross-type numeric comparisons Kubernetes enables.
    for (std::string_view op : { "_<_", "_<=_", "_>_", "_>=_" }) {
        const std::string o(op);
        for (std::string_view t :
            { "bool", "int", "uint", "double", "string", "bytes", "timestamp", "duration" })
            d.addFunction(o + "(" + std::string(t) + ", " + std::string(t) + ") -> bool");
        for (std::string_view pair : { "int, uint", "int, double", "uint, int", "uint, double",
                 "double, int", "double, uint" })
            d.addFunction(o + "(" + std::string(pair) + ") -> bool");
    }
    for (std::string_view t : { "int", "uint", "double" }) {
        const std::string s(t);
        for (std::string_view op : { "_+_", "_-_", "_*_", "_/_" })
            d.addFunction(std::string(op) + "(" + s + ", " + s + ") -> " + s);
    }
    declareAll(d,
        {
            "_%_(int, int) -> int",
            "_%_(uint, uint) -> uint",
            "_+_(string, string) -> string",
            "_+_(bytes, bytes) -> bytes",
            "_+_(list(A), list(A)) -> list(A)",
            "_+_(timestamp, duration) -> timestamp",
            "_+_(duration, timestamp) -> timestamp",
            "_+_(duration, duration) -> duration",
            "_-_(timestamp, timestamp) -> duration",
            "_-_(timestamp, duration) -> timestamp",
            "_-_(duration, duration) -> duration",
        });
}

void declareBuiltins(Declarations &d)
{
    declareAll(d,
        {
            "size(string) -> int",
            "size(bytes) -> int",
            "size(list(A)) -> int",
            "size(map(K, V)) -> int",
            ".size(string) -> int",
            ".size(bytes) -> int",
            ".size(list(A)) -> int",
            ".size(map(K, V)) -> int",
            ".contains(string, string) -> bool",
            ".startsWith(string, string) -> bool",
            ".endsWith(string, string) -> bool",
            ".matches(string, string) -> bool",
            "matches(string, string) -> bool",
            "type(A) -> type(A)",
            "dyn(A) -> dyn",
            "int(int) -> int",
            "int(uint) -> int",
            "int(double) -> int",
            "int(string) -> int",
            "int(timestamp) -> int",
            "uint(uint) -> uint",
            "uint(int) -> uint",
            "uint(double) -> uint",
            "uint(string) -> uint",
            "double(double) -> double",
            "double(int) -> double",
            "double(uint) -> double",
            "double(string) -> double",
            "string(string) -> string",
            "string(int) -> string",
            "string(uint) -> string",
            "string(double) -> string",
            "string(bool) -> string",
            "string(bytes) -> string",
            "string(timestamp) -> string",
            "string(duration) -> string",
            "bytes(bytes) -> bytes",
            "bytes(string) -> bytes",
            "bool(bool) -> bool",
            "bool(string) -> bool",
            "timestamp(timestamp) -> timestamp",
            "timestamp(string) -> timestamp",
            "timestamp(int) -> timestamp",
            "duration(duration) -> duration",
            "duration(string) -> duration",
        });
    for (std::string_view f :
        { "getFullYear", "getMonth", "getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear",
            "getHours", "getMinutes", "getSeconds", "getMilliseconds" }) {
        const std::string n(f);
        d.addFunction("." + n + "(timestamp) -> int");
        d.addFunction("." + n + "(timestamp, string) -> int");
    }
    for (std::string_view f : { "getHours", "getMinutes", "getSeconds", "getMilliseconds" })
        d.addFunction("." + std::string(f) + "(duration) -> int");
}

void declareStrings(Declarations &d)
{
    declareAll(d,
        {
            ".charAt(string, int) -> string",
            ".indexOf(string, string) -> int",
            ".indexOf(string, string, int) -> int",
            ".lastIndexOf(string, string) -> int",
            ".lastIndexOf(string, string, int) -> int",
            ".lowerAscii(string) -> string",
            ".upperAscii(string) -> string",
            ".replace(string, string, string) -> string",
            ".replace(string, string, string, int) -> string",
            ".split(string, string) -> list(string)",
            ".split(string, string, int) -> list(string)",
            ".substring(string, int) -> string",
            ".substring(string, int, int) -> string",
            ".trim(string) -> string",
            ".join(list(string)) -> string",
            ".join(list(string), string) -> string",
            ".format(string, list(dyn)) -> string",
            "strings.quote(string) -> string",
        });
}

void declareStringsV3(Declarations &d)
{
    d.addFunction(".reverse(string) -> string");
}

void declareCelLists(Declarations &d)
{
    declareAll(d,
        {
            "lists.range(int) -> list(int)",
            ".distinct(list(A)) -> list(A)",
            ".flatten(list(list(A))) -> list(A)",
            ".flatten(list(A), int) -> list(dyn)",
            ".reverse(list(A)) -> list(A)",
            ".slice(list(A), int, int) -> list(A)",
            ".sort(list(A)) -> list(A)",
            ".first(list(A)) -> optional(A)",
            ".last(list(A)) -> optional(A)",
        });
}

void declareMath(Declarations &d)
{
    for (std::string_view fn : { "math.greatest", "math.least" }) {
        const std::string f(fn);
        for (std::string_view t : { "int", "uint", "double" }) {
            const std::string s(t);
            d.addFunction(f + "(" + s + ") -> " + s);
            d.addFunction(f + "(list(" + s + ")) -> " + s);
            d.addFunction(f + "(" + s + ", " + s + ") -> " + s);
        }
        d.addFunction(f + "(list(dyn)) -> dyn");
        for (std::string_view pair : { "int, uint", "int, double", "uint, int", "uint, double",
                 "double, int", "double, uint" })
            d.addFunction(f + "(" + std::string(pair) + ") -> dyn");
        // Three or more arguments: cel-go's macro passes them as one list of numbers.
        std::string params = "dyn, dyn";
        for (int n = 3; n <= 16; ++n) {
            params += ", dyn";
            d.addFunction(f + "(" + params + ") -> dyn");
        }
    }
    declareAll(d,
        {
            "math.ceil(double) -> double",
            "math.floor(double) -> double",
            "math.round(double) -> double",
            "math.trunc(double) -> double",
            "math.sqrt(double) -> double",
            "math.sqrt(int) -> double",
            "math.sqrt(uint) -> double",
            "math.isNaN(double) -> bool",
            "math.isInf(double) -> bool",
            "math.isFinite(double) -> bool",
            "math.abs(int) -> int",
            "math.abs(uint) -> uint",
            "math.abs(double) -> double",
            "math.sign(int) -> int",
            "math.sign(uint) -> uint",
            "math.sign(double) -> double",
            "math.bitAnd(int, int) -> int",
            "math.bitAnd(uint, uint) -> uint",
            "math.bitOr(int, int) -> int",
            "math.bitOr(uint, uint) -> uint",
            "math.bitXor(int, int) -> int",
            "math.bitXor(uint, uint) -> uint",
            "math.bitNot(int) -> int",
            "math.bitNot(uint) -> uint",
            "math.bitShiftLeft(int, int) -> int",
            "math.bitShiftLeft(uint, int) -> uint",
            "math.bitShiftRight(int, int) -> int",
            "math.bitShiftRight(uint, int) -> uint",
        });
}

void declareEncoders(Declarations &d)
{
    declareAll(d, { "base64.encode(bytes) -> string", "base64.decode(string) -> bytes" });
}

void declareKubernetesLists(Declarations &d)
{
    declareAll(d,
        {
            ".isSorted(list(A)) -> bool",
            ".sum(list(A)) -> A",
            ".min(list(A)) -> A",
            ".max(list(A)) -> A",
            ".indexOf(list(A), A) -> int",
            ".lastIndexOf(list(A), A) -> int",
        });
}

void declareSets(Declarations &d)
{
    declareAll(d,
        {
            "sets.contains(list(A), list(A)) -> bool",
            "sets.equivalent(list(A), list(A)) -> bool",
            "sets.intersects(list(A), list(A)) -> bool",
        });
}

void declareRegex(Declarations &d)
{
    declareAll(d,
        {
            ".find(string, string) -> string",
            ".findAll(string, string) -> list(string)",
            ".findAll(string, string, int) -> list(string)",
        });
}

void declareOptional(Declarations &d)
{
    declareAll(d,
        {
            "optional.of(A) -> optional(A)",
            "optional.ofNonZeroValue(A) -> optional(A)",
            "optional.none() -> optional(A)",
            ".hasValue(optional(A)) -> bool",
            ".value(optional(A)) -> A",
            ".or(optional(A), optional(A)) -> optional(A)",
            ".orValue(optional(A), A) -> A",
            "optional.unwrap(list(optional(A))) -> list(A)",
            ".unwrapOpt(list(optional(A))) -> list(A)",
        });
}

void declareKubernetesTypes(Declarations &d, bool semverNormalize)
{
    if (semverNormalize)
        declareAll(
            d, { "semver(string, bool) -> kubernetes.Semver", "isSemver(string, bool) -> bool" });
    declareAll(d,
        {
            "quantity(string) -> kubernetes.Quantity",
            "isQuantity(string) -> bool",
            ".sign(kubernetes.Quantity) -> int",
            ".isInteger(kubernetes.Quantity) -> bool",
            ".asInteger(kubernetes.Quantity) -> int",
            ".asApproximateFloat(kubernetes.Quantity) -> double",
            ".compareTo(kubernetes.Quantity, kubernetes.Quantity) -> int",
            ".isGreaterThan(kubernetes.Quantity, kubernetes.Quantity) -> bool",
            ".isLessThan(kubernetes.Quantity, kubernetes.Quantity) -> bool",
            ".add(kubernetes.Quantity, kubernetes.Quantity) -> kubernetes.Quantity",
            ".add(kubernetes.Quantity, int) -> kubernetes.Quantity",
            ".sub(kubernetes.Quantity, kubernetes.Quantity) -> kubernetes.Quantity",
            ".sub(kubernetes.Quantity, int) -> kubernetes.Quantity",
            "semver(string) -> kubernetes.Semver",
            "isSemver(string) -> bool",
            ".major(kubernetes.Semver) -> int",
            ".minor(kubernetes.Semver) -> int",
            ".patch(kubernetes.Semver) -> int",
            ".compareTo(kubernetes.Semver, kubernetes.Semver) -> int",
            ".isGreaterThan(kubernetes.Semver, kubernetes.Semver) -> bool",
            ".isLessThan(kubernetes.Semver, kubernetes.Semver) -> bool",
            "ip(string) -> net.IP",
            "string(net.IP) -> string",
            "string(net.CIDR) -> string",
            "isIP(string) -> bool",
            "ip.isCanonical(string) -> bool",
            ".family(net.IP) -> int",
            ".isUnspecified(net.IP) -> bool",
            ".isLoopback(net.IP) -> bool",
            ".isLinkLocalMulticast(net.IP) -> bool",
            ".isLinkLocalUnicast(net.IP) -> bool",
            ".isGlobalUnicast(net.IP) -> bool",
            "cidr(string) -> net.CIDR",
            "isCIDR(string) -> bool",
            ".containsIP(net.CIDR, net.IP) -> bool",
            ".containsIP(net.CIDR, string) -> bool",
            ".containsCIDR(net.CIDR, net.CIDR) -> bool",
            ".containsCIDR(net.CIDR, string) -> bool",
            ".ip(net.CIDR) -> net.IP",
            ".masked(net.CIDR) -> net.CIDR",
            ".prefixLength(net.CIDR) -> int",
            "url(string) -> kubernetes.URL",
            "isURL(string) -> bool",
            ".getScheme(kubernetes.URL) -> string",
            ".getHost(kubernetes.URL) -> string",
            ".getHostname(kubernetes.URL) -> string",
            ".getPort(kubernetes.URL) -> string",
            ".getEscapedPath(kubernetes.URL) -> string",
            ".getQuery(kubernetes.URL) -> map(string, list(string))",
        });
}

} // namespace

void declareLibraries(Declarations &d, const LibrarySet &libraries)
{
    declareOperators(d);
    declareBuiltins(d);
    if (libraries.strings)
        declareStrings(d);
    if (libraries.stringsV3)
        declareStringsV3(d);
    if (libraries.celLists)
        declareCelLists(d);
    if (libraries.kubernetesLists)
        declareKubernetesLists(d);
    if (libraries.sets)
        declareSets(d);
    if (libraries.math)
        declareMath(d);
    if (libraries.regex)
        declareRegex(d);
    if (libraries.encoders)
        declareEncoders(d);
    if (libraries.optional)
        declareOptional(d);
    if (libraries.kubernetes)
        declareKubernetesTypes(d, libraries.semverNormalize);
}

} // namespace dra::cel
