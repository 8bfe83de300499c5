// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/types.h"

namespace dra::cel {

struct LibrarySet;

// One typed overload of a function, for the checker: parameter types (receiver first when
// receiver-style) and the result type, possibly with type parameters.
struct FunctionDecl
{
    std::string name;
    bool receiver = false;
    std::vector<CelType> params;
    CelType result;
};

// The static declarations an expression is checked against: variables, object types with
// their fields, and typed function overloads. Functions the runtime offers without a
// declaration here check as returning dyn, so a missing declaration never rejects a valid
// expression; it only makes the types less precise.
class Declarations final
{
public:
    // The standard library and every extension library (what Environment::standard() offers).
    static const Declarations &standard();
    // The standard library and the extensions in `libraries`, as Environment::standard(libraries).
    static Declarations forLibraries(const LibrarySet &libraries);

    void addVariable(std::string name, CelType type);
    const CelType *variable(std::string_view name) const;

    // Declares an object type's fields (e.g. kubernetes.DRADevice: driver, attributes, ...).
    void addObjectType(std::string name, std::map<std::string, CelType, std::less<>> fields);
    // The type of `object.field`, or nullptr when the object type has no such field.
    const CelType *field(std::string_view object, std::string_view field) const;

    // Declares an overload from its signature: "size(list(A)) -> int" for a global function,
    // ".startsWith(string, string) -> bool" for a receiver-style one (receiver first).
    void addFunction(std::string_view signature);
    void addFunction(FunctionDecl overload);
    // Whether any overload of `name` is declared.
    bool declaresFunction(std::string_view name) const;
    // Overloads of `name` with this call style and arity (receiver counted).
    std::vector<const FunctionDecl *> overloads(
        std::string_view name, bool receiver, size_t arity) const;

private:
    std::map<std::string, CelType, std::less<>> m_variables;
    std::map<std::string, std::map<std::string, CelType, std::less<>>, std::less<>> m_objects;
    std::map<std::string, std::vector<FunctionDecl>, std::less<>> m_functions;
};

// Adds the standard definitions and the extension libraries in `libraries`
// (standard_declarations.cpp).
void declareLibraries(Declarations &declarations, const LibrarySet &libraries);

} // namespace dra::cel
