// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/diagnostic.h"

#include <algorithm>

namespace dra::cel {

SourceInfo::SourceInfo(std::string_view text)
    : m_text(text)
{
    m_lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            m_lineStarts.push_back(static_cast<int32_t>(i + 1));
    }
}

void SourceInfo::locate(int32_t offset, int &line, int &column) const
{
    offset = std::clamp<int32_t>(offset, 0, static_cast<int32_t>(m_text.size()));
    const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset) - 1;
    line = static_cast<int>(it - m_lineStarts.begin()) + 1;
    column = 1;
    // Columns count code points, so a name after "é" is underlined where the user sees it.
    for (int32_t i = *it; i < offset; ++i) {
        if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80)
            ++column;
    }
}

void addError(std::vector<Diagnostic> *diagnostics, const SourceInfo &source, int32_t offset,
    std::string message)
{
    if (!diagnostics)
        return;
    Diagnostic d;
    source.locate(offset, d.line, d.column);
    d.message = std::move(message);
    diagnostics->push_back(std::move(d));
}

} // namespace dra::cel
