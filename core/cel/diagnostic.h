// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel {

// A problem in the user's expression, positioned for the editor to underline.
struct Diagnostic
{
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    int line = 1; // 1-based
    int column = 1; // 1-based, in code points
    std::string message;
};

// Maps byte offsets of a source text to 1-based line and code-point column.
class SourceInfo final
{
public:
    explicit SourceInfo(std::string_view text);
    void locate(int32_t offset, int &line, int &column) const;

private:
    std::string_view m_text;
    std::vector<int32_t> m_lineStarts;
};

// Appends an error diagnostic at `offset` of `source`.
void addError(std::vector<Diagnostic> *diagnostics, const SourceInfo &source, int32_t offset,
    std::string message);

} // namespace dra::cel
