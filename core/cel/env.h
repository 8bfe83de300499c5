// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/value.h"

namespace dra::cel {

struct EvalFrame;

// A function implementation. Arguments are never errors: strict functions see errors
// propagated before they are called.
using FunctionImpl = Value (*)(std::span<const Value> args, EvalFrame &frame);

// One parameter of an overload: a kind, narrowed to a host type when kind is Host; Dyn
// accepts anything.
struct ParamSpec
{
    Kind kind = Kind::Dyn;
    const HostType *host = nullptr;

    ParamSpec(Kind k)
        : kind(k)
    {
    }
    ParamSpec(const HostType *h)
        : kind(Kind::Host)
        , host(h)
    {
    }
    bool accepts(const Value &v) const
    {
        return kind == Kind::Dyn || (v.kind() == kind && (!host || v.hostType() == host));
    }
};

// An overload of a function: receiver style (`x.f(y)`) or global (`f(x, y)`).
struct Overload
{
    std::string id;
    bool receiver = false;
    std::vector<ParamSpec> params; // the receiver first when receiver-style
    FunctionImpl impl = nullptr;
};

// The functions known to an environment, by name.
class FunctionRegistry final
{
public:
    void add(std::string_view name, std::string id, bool receiver, std::vector<ParamSpec> params,
        FunctionImpl impl);
    // Shorthands for global and receiver-style overloads.
    void global(std::string_view name, std::vector<ParamSpec> params, FunctionImpl impl);
    void member(std::string_view name, std::vector<ParamSpec> params, FunctionImpl impl);
    // Overloads of `name` with this style and arity (receiver counted).
    std::vector<const Overload *> candidates(
        std::string_view name, bool receiver, size_t arity) const;
    bool hasFunction(std::string_view name) const;
    bool hasGlobal(std::string_view name) const;
    // Every function name, for "did you mean" suggestions.
    std::vector<std::string_view> names() const;

private:
    std::map<std::string, std::vector<std::shared_ptr<const Overload>>, std::less<>> m_functions;
};

// Which libraries an environment offers.
struct LibrarySet
{
    bool strings = true; // cel-go strings extension, up to version 2
    bool stringsV3 = true; // adds reverse()
    bool celLists
        = true; // cel-go lists extension: lists.range, distinct, flatten, slice, sort, first, last
    bool kubernetesLists = true; // isSorted, sum, min, max, indexOf, lastIndexOf
    bool sets = true;
    bool math = true;
    bool regex = true; // find, findAll (matches is standard)
    bool encoders = true;
    bool optional = true;
    bool kubernetes = true; // quantity, semver, ip, cidr and url
    bool semverNormalize = true; // semver(s, normalize) and isSemver(s, normalize)
    // Two-variable comprehensions: all/exists/existsOne(i, v, p), transformList, transformMap,
    // transformMapEntry (macros; see ParseOptions).
    bool twoVarComprehensions = true;

    // What Kubernetes' base environment offers DRA selectors in every release this build knows:
    // no math or encoders, the strings extension at version 2. The release-dependent libraries
    // (cel-go lists, semver normalization, two-variable comprehensions) are off; the selector
    // environment of a release switches them on.
    static LibrarySet kubernetesSelectors()
    {
        LibrarySet s;
        s.stringsV3 = false;
        s.celLists = false;
        s.math = false;
        s.encoders = false;
        s.semverNormalize = false;
        s.twoVarComprehensions = false;
        return s;
    }
    bool isComplete() const
    {
        return strings && stringsV3 && celLists && kubernetesLists && sets && math && regex
            && encoders && optional && kubernetes && semverNormalize && twoVarComprehensions;
    }
    bool operator==(const LibrarySet &) const = default;
};

// Declarations a program is compiled against: functions, variables and the container used
// to resolve qualified names. Cheap to copy; the function registry is shared.
class Environment final
{
public:
    // An environment with the standard library and the libraries in `libraries`.
    static Environment standard(const LibrarySet &libraries = {});

    // Declares a variable; its value is passed at evaluation time at the returned index.
    size_t addVariable(std::string name);
    // The index of a declared variable, or -1.
    int variableIndex(std::string_view name) const;
    size_t variableCount() const { return m_variables.size(); }
    const std::vector<std::string> &variables() const { return m_variables; }

    void setContainer(std::string container) { m_container = std::move(container); }
    const std::string &container() const { return m_container; }

    const FunctionRegistry &functions() const { return *m_functions; }
    // Adds functions; the registry is copied first when other environments share it.
    FunctionRegistry &mutableFunctions();

private:
    std::shared_ptr<FunctionRegistry> m_functions;
    std::vector<std::string> m_variables;
    std::string m_container;
};

// Library registration, one per lib_*.cpp file.
void registerStandardLibrary(FunctionRegistry &registry);
void registerTimeLibrary(FunctionRegistry &registry);
void registerStringsLibrary(FunctionRegistry &registry);
void registerStringsV3Library(FunctionRegistry &registry);
void registerCelListsLibrary(FunctionRegistry &registry);
void registerKubernetesListsLibrary(FunctionRegistry &registry);
void registerSetsLibrary(FunctionRegistry &registry);
void registerMathLibrary(FunctionRegistry &registry);
void registerRegexLibrary(FunctionRegistry &registry);
void registerEncodersLibrary(FunctionRegistry &registry);
void registerOptionalLibrary(FunctionRegistry &registry);
void registerNetworkLibrary(FunctionRegistry &registry);
void registerUrlLibrary(FunctionRegistry &registry);

} // namespace dra::cel
