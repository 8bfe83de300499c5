// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/text_formats.h"

#include "views/common/theme.h"

namespace dra::views {
namespace {

QTextCharFormat format(const QColor &color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::DemiBold);
    f.setFontItalic(italic);
    return f;
}

} // namespace

SyntaxFormats syntaxFormats()
{
    const bool dark = currentTheme() == Theme::Dark;
    SyntaxFormats f;
    f.keyword = format(dark ? QColor(0xcc, 0x78, 0x32) : QColor(0x00, 0x33, 0xb3), true);
    f.string = format(dark ? QColor(0x6a, 0xab, 0x73) : QColor(0x06, 0x7d, 0x17));
    f.number = format(dark ? QColor(0x68, 0x97, 0xbb) : QColor(0x17, 0x50, 0xeb));
    f.comment = format(dark ? QColor(0x95, 0x95, 0x95) : QColor(0x6e, 0x6e, 0x6e), false, true);
    f.identifier = format(dark ? QColor(0xa9, 0xb7, 0xc6) : QColor(0x08, 0x08, 0x08));
    f.member = format(dark ? QColor(0x9e, 0x7b, 0xb0) : QColor(0x87, 0x10, 0x94));
    f.key = format(dark ? QColor(0xcc, 0x78, 0x32) : QColor(0x00, 0x33, 0xb3));
    f.punctuation = format(dark ? QColor(0xa9, 0xb7, 0xc6) : QColor(0x50, 0x50, 0x50));
    return f;
}

} // namespace dra::views
