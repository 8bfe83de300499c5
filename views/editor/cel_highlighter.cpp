// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/cel_highlighter.h"

#include "views/editor/text_formats.h"

namespace dra::views {
namespace {

// Block states carry an open triple-quoted string to the next line.
enum BlockState { Normal = 0, InTripleSingle = 1, InTripleDouble = 2 };

bool isIdentStart(QChar c)
{
    return c.isLetter() || c == QLatin1Char('_');
}

bool isIdentPart(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

bool isKeyword(QStringView word)
{
    static const QStringList words { QStringLiteral("true"), QStringLiteral("false"),
        QStringLiteral("null"), QStringLiteral("in"), QStringLiteral("device") };
    return words.contains(word);
}

} // namespace

CelHighlighter::CelHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
}

void CelHighlighter::highlightBlock(const QString &text)
{
    const SyntaxFormats formats = syntaxFormats();
    const int n = int(text.size());
    int i = 0;
    setCurrentBlockState(Normal);

    // Finishes a triple-quoted string begun on an earlier line.
    if (previousBlockState() == InTripleSingle || previousBlockState() == InTripleDouble) {
        const QString close = previousBlockState() == InTripleSingle ? QStringLiteral("'''")
                                                                     : QStringLiteral("\"\"\"");
        const int end = int(text.indexOf(close));
        if (end < 0) {
            setFormat(0, n, formats.string);
            setCurrentBlockState(previousBlockState());
            return;
        }
        setFormat(0, end + 3, formats.string);
        i = end + 3;
    }

    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('/') && i + 1 < n && text[i + 1] == QLatin1Char('/')) {
            setFormat(i, n - i, formats.comment);
            return;
        }
        // String literals with optional r/b prefixes.
        int start = i;
        int j = i;
        while (j < n && j - i < 2
            && (text[j] == QLatin1Char('r') || text[j] == QLatin1Char('R')
                || text[j] == QLatin1Char('b') || text[j] == QLatin1Char('B')))
            ++j;
        if (j < n && (text[j] == QLatin1Char('"') || text[j] == QLatin1Char('\''))) {
            const QChar quote = text[j];
            const bool raw
                = text.mid(start, j - start).contains(QLatin1Char('r'), Qt::CaseInsensitive);
            const bool triple = j + 2 < n && text[j + 1] == quote && text[j + 2] == quote;
            if (triple) {
                const QString close(3, quote);
                const int end = int(text.indexOf(close, j + 3));
                if (end < 0) {
                    setFormat(start, n - start, formats.string);
                    setCurrentBlockState(
                        quote == QLatin1Char('\'') ? InTripleSingle : InTripleDouble);
                    return;
                }
                setFormat(start, end + 3 - start, formats.string);
                i = end + 3;
                continue;
            }
            int k = j + 1;
            while (k < n && text[k] != quote) {
                if (!raw && text[k] == QLatin1Char('\\'))
                    ++k;
                ++k;
            }
            const int end = std::min(k + 1, n);
            setFormat(start, end - start, formats.string);
            i = end;
            continue;
        }
        if (c.isDigit() || (c == QLatin1Char('.') && i + 1 < n && text[i + 1].isDigit())) {
            int k = i + 1;
            while (k < n && (text[k].isLetterOrNumber() || text[k] == QLatin1Char('.')))
                ++k;
            setFormat(i, k - i, formats.number);
            i = k;
            continue;
        }
        if (isIdentStart(c)) {
            int k = i + 1;
            while (k < n && isIdentPart(text[k]))
                ++k;
            const QStringView word = QStringView(text).mid(i, k - i);
            const bool afterDot = i > 0 && text[i - 1] == QLatin1Char('.');
            setFormat(i, k - i,
                isKeyword(word) && !afterDot ? formats.keyword
                    : afterDot               ? formats.member
                                             : formats.identifier);
            i = k;
            continue;
        }
        ++i;
    }
}

} // namespace dra::views
