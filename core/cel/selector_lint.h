// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>
#include <vector>

#include "core/cel/diagnostic.h"
#include "core/cel/parser.h"
#include "core/cel/value.h"

namespace dra::cel {

// Warnings Kubernetes does not give but selector authors need: a quantity compared as a
// string (`device.attributes["d"].memory >= "40Gi"` orders text, so "9Gi" > "40Gi"). A
// capacity compared with a string is a type error the checker reports, with the fix. Appends
// Severity::Warning diagnostics. Any thread.
void lintSelector(const ParsedExpr &parsed, std::vector<Diagnostic> *diagnostics);

// The distinct values an inventory's devices publish for attributes, for lintSelectorValues().
class PublishedAttributeValues
{
public:
    virtual ~PublishedAttributeValues() = default;
    // The values of attribute `name` in `domain`, or nullptr when they are not known (no device
    // publishes it, or some device publishes it as a version).
    virtual const std::vector<Value> *values(
        std::string_view domain, std::string_view name) const = 0;
    // True when some device publishes the attribute as a list (DRAListTypeAttributes).
    virtual bool publishedAsList(std::string_view, std::string_view) const { return false; }
};

// Warns where `device.attributes["d"].n == literal` (either order) or `... in [literals]`
// compares with values no device of the inventory publishes: on this inventory the comparison
// is never true (`productName == "H200"` when no device is an H200). Where devices publish the
// attribute as a list, an `==` with a scalar literal is never true on them; the warning says
// so and suggests includes(). Appends Severity::Warning diagnostics. Any thread.
void lintSelectorValues(const ParsedExpr &parsed, const PublishedAttributeValues &published,
    std::vector<Diagnostic> *diagnostics);

} // namespace dra::cel
