// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

// Helpers shared by the lib_*.cpp files. Internal to the module.

#include <optional>
#include <string>
#include <string_view>

#include "core/cel/time_util.h"
#include "core/cel/value.h"

namespace dra::cel {

// Orders two values of comparable kinds: -1, 0, 1, or 2 for NaN; nullopt when the kinds
// cannot be compared (a "no matching overload" error).
std::optional<int> compareValues(const Value &a, const Value &b);

// CEL's relational operators, by the standard library's (dyn, dyn) overloads.
enum class Ordering : uint8_t { Less, LessEqual, Greater, GreaterEqual };

// `a < b` (and the others) as the standard library answers it: false when either is NaN, a
// "no matching overload" error for kinds that do not compare.
Value orderValues(Ordering op, const Value &a, const Value &b);

// `v in list`: CEL equality against each element.
bool listContains(const ListData &list, const Value &v);

// Formats a double as cel-go's string(double) does (Go's strconv 'g', shortest).
std::string formatDouble(double d);

// Checked int64 arithmetic; nullopt on overflow.
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);
std::optional<int64_t> checkedSub(int64_t a, int64_t b);
std::optional<int64_t> checkedMul(int64_t a, int64_t b);

// Why RE2 rejects `pattern`, or nullopt when it compiles (shares the evaluation cache).
std::optional<std::string> regexError(std::string_view pattern);

// The timestamp `nanos` after the epoch, or a "timestamp out of range" error value.
Value timestampOrRange(Int128 nanos);

// The error CEL gives for a failed conversion, e.g. int('x').
Value conversionError(std::string_view target, const Value &from);

} // namespace dra::cel
