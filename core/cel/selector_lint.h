// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include "core/cel/diagnostic.h"
#include "core/cel/parser.h"

namespace dra::cel {

// Warnings Kubernetes does not give but selector authors need: a quantity compared as a
// string (`device.attributes["d"].memory >= "40Gi"` orders text, so "9Gi" > "40Gi"). A
// capacity compared with a string is a type error the checker reports, with the fix. Appends
// Severity::Warning diagnostics. Any thread.
void lintSelector(const ParsedExpr &parsed, std::vector<Diagnostic> *diagnostics);

} // namespace dra::cel
