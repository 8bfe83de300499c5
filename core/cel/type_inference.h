// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

// Type unification as cel-go's checker does it (checker/types.go): type parameters of overloads
// and of empty literals are free variables bound while arguments are matched, and the most
// general of two agreeing types wins. Internal to the checker.

#include <map>
#include <string>

#include "core/cel/types.h"

namespace dra::cel {

// The substitutions of type variables made so far, by variable name.
class TypeMapping final
{
public:
    // The type bound to the variable `t`, or nullptr (also when `t` is not a variable).
    const CelType *find(const CelType &t) const;
    void add(const CelType &variable, CelType type);

    // True when `from` may be passed where `to` is expected, binding variables on the way.
    // Leaves the mapping unchanged when false.
    bool isAssignable(const CelType &from, const CelType &to);
    bool isAssignableList(const std::vector<CelType> &from, const std::vector<CelType> &to);

    // `t` with bound variables replaced, and unbound ones by dyn when `unboundToDyn`.
    CelType substitute(const CelType &t, bool unboundToDyn) const;

private:
    bool assignable(const CelType &t1, const CelType &t2);
    bool assignableList(const std::vector<CelType> &l1, const std::vector<CelType> &l2);
    // Whether t2 (or its substitution) may stand for t1; `hasSub` tells whether t2 was bound.
    bool validSubstitution(const CelType &t1, const CelType &t2, bool &hasSub);
    bool notReferencedIn(const CelType &t, const CelType &within) const;

    std::map<std::string, CelType, std::less<>> m_subs;
};

// The more general of two types known to unify: dyn and variables over anything concrete, a
// nullable type over null.
const CelType &mostGeneral(const CelType &t1, const CelType &t2);

} // namespace dra::cel
