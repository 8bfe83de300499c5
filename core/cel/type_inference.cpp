// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/type_inference.h"

namespace dra::cel {

namespace {

using K = CelType::Kind;

bool isDynOrAny(const CelType &t)
{
    return t.kind == K::Dyn || t.kind == K::Any;
}

bool isDynOrError(const CelType &t)
{
    return isDynOrAny(t) || t.kind == K::Error;
}

// Optional types are opaque types named "optional_type" in cel-go; both compare by name and
// parameters.
bool isParameterized(const CelType &t)
{
    return t.kind == K::Opaque || t.kind == K::Optional || t.kind == K::List || t.kind == K::Map;
}

// Whether t1 is equal to t2 or less specific (matches it through dyn or a variable).
bool isEqualOrLessSpecific(const CelType &t1, const CelType &t2)
{
    if (isDynOrAny(t1) || t1.kind == K::Param)
        return true;
    if (isDynOrAny(t2) || t2.kind == K::Param)
        return false;
    if (t1.kind != t2.kind)
        return false;
    switch (t1.kind) {
    case K::Opaque:
    case K::Optional:
    case K::List:
    case K::Map:
        if (t1.name != t2.name || t1.params.size() != t2.params.size())
            return false;
        for (size_t i = 0; i < t1.params.size(); ++i) {
            if (!isEqualOrLessSpecific(t1.params[i], t2.params[i]))
                return false;
        }
        return true;
    case K::Type:
        return true;
    default:
        return t1 == t2;
    }
}

// The types the legacy checker let null stand for.
bool isNullable(const CelType &t)
{
    switch (t.kind) {
    case K::Opaque:
    case K::Optional:
    case K::Object:
    case K::Any:
    case K::Duration:
    case K::Timestamp:
    case K::Null:
        return true;
    default:
        return false;
    }
}

} // namespace

const CelType &mostGeneral(const CelType &t1, const CelType &t2)
{
    // Null joined with a type that may be null is that type, as cel-spec's type deductions
    // expect ([optional.of(1), null] is a list(optional_type(int))).
    if (t1.kind == K::Null && t2.kind != K::Null)
        return t2;
    if (t2.kind == K::Null && t1.kind != K::Null)
        return t1;
    return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

const CelType *TypeMapping::find(const CelType &t) const
{
    if (t.kind != K::Param)
        return nullptr;
    const auto it = m_subs.find(t.name);
    return it == m_subs.end() ? nullptr : &it->second;
}

void TypeMapping::add(const CelType &variable, CelType type)
{
    m_subs[variable.name] = std::move(type);
}

bool TypeMapping::isAssignable(const CelType &from, const CelType &to)
{
    TypeMapping copy = *this;
    if (!copy.assignable(from, to))
        return false;
    *this = std::move(copy);
    return true;
}

bool TypeMapping::isAssignableList(const std::vector<CelType> &from, const std::vector<CelType> &to)
{
    TypeMapping copy = *this;
    if (!copy.assignableList(from, to))
        return false;
    *this = std::move(copy);
    return true;
}

bool TypeMapping::assignable(const CelType &t1, const CelType &t2)
{
    if (t2.kind == K::Param) {
        bool hasSub = false;
        if (validSubstitution(t1, t2, hasSub))
            return true;
        if (hasSub)
            return false;
        // Otherwise t1 may still be a substitution for t2, checked below.
    }
    if (t1.kind == K::Param) {
        bool hasSub = false;
        return validSubstitution(t2, t1, hasSub);
    }
    if (isDynOrError(t1) || isDynOrError(t2))
        return true;
    if (t1.kind == K::Null)
        return isNullable(t2);
    if (t2.kind == K::Null)
        return isNullable(t1);
    switch (t1.kind) {
    case K::Type:
        return t2.kind == K::Type;
    case K::Opaque:
    case K::Optional:
    case K::List:
    case K::Map:
        return t1.kind == t2.kind && t1.name == t2.name && assignableList(t1.params, t2.params);
    default:
        return t1 == t2;
    }
}

bool TypeMapping::assignableList(const std::vector<CelType> &l1, const std::vector<CelType> &l2)
{
    if (l1.size() != l2.size())
        return false;
    for (size_t i = 0; i < l1.size(); ++i) {
        if (!assignable(l1[i], l2[i]))
            return false;
    }
    return true;
}

bool TypeMapping::validSubstitution(const CelType &t1, const CelType &t2, bool &hasSub)
{
    if (t1 == t2) {
        hasSub = true;
        return true;
    }
    if (const CelType *found = find(t2)) {
        hasSub = true;
        const CelType t2Sub = *found;
        if (t1 == t2Sub)
            return true;
        if (assignable(t1, t2Sub)) {
            CelType general = mostGeneral(t1, t2Sub);
            if (notReferencedIn(t2, general))
                add(t2, std::move(general));
            return true;
        }
        return false;
    }
    hasSub = false;
    if (notReferencedIn(t2, t1)) {
        add(t2, t1);
        return true;
    }
    return false;
}

bool TypeMapping::notReferencedIn(const CelType &t, const CelType &within) const
{
    if (t == within)
        return false;
    if (within.kind == K::Param) {
        const CelType *sub = find(within);
        return !sub || notReferencedIn(t, *sub);
    }
    if (isParameterized(within) || within.kind == K::Type) {
        for (const CelType &p : within.params) {
            if (!notReferencedIn(t, p))
                return false;
        }
    }
    return true;
}

CelType TypeMapping::substitute(const CelType &t, bool unboundToDyn) const
{
    if (const CelType *sub = find(t))
        return substitute(*sub, unboundToDyn);
    if (t.kind == K::Param)
        return unboundToDyn ? CelType::dyn() : t;
    if (t.params.empty())
        return t;
    CelType out = t;
    for (CelType &p : out.params)
        p = substitute(p, unboundToDyn);
    return out;
}

} // namespace dra::cel
