// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/yaml_highlighter.h"

#include <QRegularExpression>

#include "views/editor/text_formats.h"

namespace dra::views {
namespace {

// Where an unquoted comment starts: '#' at the line start or after whitespace, outside quotes.
int commentStart(const QString &text)
{
    QChar quote;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            continue;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\''))
            quote = c;
        else if (c == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace()))
            return i;
    }
    return -1;
}

} // namespace

YamlHighlighter::YamlHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
}

void YamlHighlighter::highlightBlock(const QString &text)
{
    static const QRegularExpression key(
        QStringLiteral(R"(^(\s*(?:-\s+)?)([^\s#'"][^:#]*?|"[^"]*"|'[^']*')\s*:(?=\s|$))"));
    static const QRegularExpression quoted(QStringLiteral(R"("(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?)"));
    // A plain scalar after "key:", "- ", "[" or ",": numbers, booleans and null.
    static const QRegularExpression scalar(QStringLiteral(
        R"((?:^|[:\[,]\s*|-\s+)(true|false|null|~|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(?=$|#|,|\]))"));
    static const QRegularExpression marker(QStringLiteral(R"(^(---|\.\.\.)(\s|$))"));
    static const QRegularExpression block(QStringLiteral(R"(:\s*([|>][+-]?)\s*$)"));

    const SyntaxFormats formats = syntaxFormats();
    const int comment = commentStart(text);
    const QString code = comment >= 0 ? text.left(comment) : text;

    if (auto m = marker.match(code); m.hasMatch())
        setFormat(0, int(m.capturedLength(1)), formats.keyword);
    if (auto m = key.match(code); m.hasMatch())
        setFormat(int(m.capturedStart(2)), int(m.capturedLength(2)), formats.key);
    for (auto it = scalar.globalMatch(code); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), formats.number);
    }
    for (auto it = quoted.globalMatch(code); it.hasNext();) {
        const auto m = it.next();
        if (format(int(m.capturedStart())) != formats.key)
            setFormat(int(m.capturedStart()), int(m.capturedLength()), formats.string);
    }
    if (auto m = block.match(code); m.hasMatch())
        setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), formats.keyword);
    if (comment >= 0)
        setFormat(comment, int(text.size()) - comment, formats.comment);
}

} // namespace dra::views
