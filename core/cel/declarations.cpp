// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/declarations.h"

#include "core/cel/env.h"

namespace dra::cel {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

// Splits "a, map(b, c), d" at the commas outside parentheses.
std::vector<std::string_view> splitTopLevel(std::string_view s)
{
    std::vector<std::string_view> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(')
            ++depth;
        else if (s[i] == ')')
            --depth;
        else if (s[i] == ',' && depth == 0) {
            out.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trim(s.substr(start)).empty())
        out.push_back(trim(s.substr(start)));
    return out;
}

} // namespace

const Declarations &Declarations::standard()
{
    static const Declarations declarations = forLibraries(LibrarySet());
    return declarations;
}

Declarations Declarations::forLibraries(const LibrarySet &libraries)
{
    Declarations d;
    declareLibraries(d, libraries);
    return d;
}

void Declarations::addVariable(std::string name, CelType type)
{
    m_variables[std::move(name)] = std::move(type);
}

const CelType *Declarations::variable(std::string_view name) const
{
    const auto it = m_variables.find(name);
    return it == m_variables.end() ? nullptr : &it->second;
}

void Declarations::addObjectType(
    std::string name, std::map<std::string, CelType, std::less<>> fields)
{
    m_objects[std::move(name)] = std::move(fields);
}

const CelType *Declarations::field(std::string_view object, std::string_view field) const
{
    const auto o = m_objects.find(object);
    if (o == m_objects.end())
        return nullptr;
    const auto f = o->second.find(field);
    return f == o->second.end() ? nullptr : &f->second;
}

void Declarations::addFunction(std::string_view signature)
{
    FunctionDecl decl;
    signature = trim(signature);
    if (signature.starts_with('.')) {
        decl.receiver = true;
        signature.remove_prefix(1);
    }
    const size_t open = signature.find('(');
    const size_t arrow = signature.rfind("->");
    const size_t close = signature.rfind(')', arrow);
    decl.name = std::string(trim(signature.substr(0, open)));
    for (std::string_view p : splitTopLevel(signature.substr(open + 1, close - open - 1)))
        decl.params.push_back(parseType(p));
    decl.result = parseType(trim(signature.substr(arrow + 2)));
    addFunction(std::move(decl));
}

void Declarations::addFunction(FunctionDecl overload)
{
    std::string name = overload.name;
    m_functions[std::move(name)].push_back(std::move(overload));
}

bool Declarations::declaresFunction(std::string_view name) const
{
    return m_functions.find(name) != m_functions.end();
}

std::vector<const FunctionDecl *> Declarations::overloads(
    std::string_view name, bool receiver, size_t arity) const
{
    std::vector<const FunctionDecl *> out;
    const auto it = m_functions.find(name);
    if (it == m_functions.end())
        return out;
    for (const FunctionDecl &d : it->second) {
        if (d.receiver == receiver && d.params.size() == arity)
            out.push_back(&d);
    }
    return out;
}

} // namespace dra::cel
