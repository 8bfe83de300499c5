// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QTextCharFormat>

namespace dra::views {

// The highlighting palette of the editors, chosen for the current theme.
struct SyntaxFormats
{
    QTextCharFormat keyword, string, number, comment, identifier, member, key, punctuation;
};
SyntaxFormats syntaxFormats();

} // namespace dra::views
