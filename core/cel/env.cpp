// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/env.h"

#include "core/cel/kubernetes_types.h"

namespace dra::cel {

void FunctionRegistry::add(std::string_view name, std::string id, bool receiver,
    std::vector<ParamSpec> params, FunctionImpl impl)
{
    auto overload = std::make_shared<Overload>();
    overload->id = std::move(id);
    overload->receiver = receiver;
    overload->params = std::move(params);
    overload->impl = impl;
    auto it = m_functions.find(name);
    if (it == m_functions.end())
        it = m_functions.emplace(std::string(name), std::vector<std::shared_ptr<const Overload>> {})
                 .first;
    it->second.push_back(std::move(overload));
}

void FunctionRegistry::global(
    std::string_view name, std::vector<ParamSpec> params, FunctionImpl impl)
{
    add(name, std::string(name), false, std::move(params), impl);
}

void FunctionRegistry::member(
    std::string_view name, std::vector<ParamSpec> params, FunctionImpl impl)
{
    add(name, std::string(name), true, std::move(params), impl);
}

std::vector<const Overload *> FunctionRegistry::candidates(
    std::string_view name, bool receiver, size_t arity) const
{
    std::vector<const Overload *> out;
    const auto it = m_functions.find(name);
    if (it == m_functions.end())
        return out;
    for (const auto &o : it->second) {
        if (o->receiver == receiver && o->params.size() == arity)
            out.push_back(o.get());
    }
    return out;
}

bool FunctionRegistry::hasFunction(std::string_view name) const
{
    return m_functions.find(name) != m_functions.end();
}

bool FunctionRegistry::hasGlobal(std::string_view name) const
{
    const auto it = m_functions.find(name);
    if (it == m_functions.end())
        return false;
    for (const auto &o : it->second) {
        if (!o->receiver)
            return true;
    }
    return false;
}

std::vector<std::string_view> FunctionRegistry::names() const
{
    std::vector<std::string_view> out;
    out.reserve(m_functions.size());
    for (const auto &[name, overloads] : m_functions)
        out.emplace_back(name);
    return out;
}

namespace {

void registerLibraries(FunctionRegistry &r, const LibrarySet &libraries)
{
    registerStandardLibrary(r);
    registerTimeLibrary(r);
    if (libraries.strings)
        registerStringsLibrary(r);
    if (libraries.stringsV3)
        registerStringsV3Library(r);
    if (libraries.celLists)
        registerCelListsLibrary(r);
    if (libraries.kubernetesLists)
        registerKubernetesListsLibrary(r);
    if (libraries.sets)
        registerSetsLibrary(r);
    if (libraries.math)
        registerMathLibrary(r);
    if (libraries.regex)
        registerRegexLibrary(r);
    if (libraries.encoders)
        registerEncodersLibrary(r);
    if (libraries.optional)
        registerOptionalLibrary(r);
    if (libraries.kubernetes) {
        registerQuantityLibrary(r);
        registerSemverLibrary(r, libraries.semverNormalize);
        registerNetworkLibrary(r);
        registerUrlLibrary(r);
    }
}

} // namespace

Environment Environment::standard(const LibrarySet &libraries)
{
    // The complete set is built once and shared: most environments use it.
    static const std::shared_ptr<FunctionRegistry> full = [] {
        auto r = std::make_shared<FunctionRegistry>();
        registerLibraries(*r, LibrarySet());
        return r;
    }();
    Environment env;
    if (libraries.isComplete()) {
        env.m_functions = full;
        return env;
    }
    auto r = std::make_shared<FunctionRegistry>();
    registerLibraries(*r, libraries);
    env.m_functions = std::move(r);
    return env;
}

size_t Environment::addVariable(std::string name)
{
    const int existing = variableIndex(name);
    if (existing >= 0)
        return static_cast<size_t>(existing);
    m_variables.push_back(std::move(name));
    return m_variables.size() - 1;
}

int Environment::variableIndex(std::string_view name) const
{
    for (size_t i = 0; i < m_variables.size(); ++i) {
        if (m_variables[i] == name)
            return static_cast<int>(i);
    }
    return -1;
}

FunctionRegistry &Environment::mutableFunctions()
{
    if (m_functions.use_count() > 1)
        m_functions = std::make_shared<FunctionRegistry>(*m_functions);
    return *m_functions;
}

} // namespace dra::cel
