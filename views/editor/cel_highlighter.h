// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QSyntaxHighlighter>

namespace dra::views {

// Colours CEL as the CEL lexer reads it: keywords and literals, strings (quoted, raw, bytes,
// triple-quoted across lines), numbers, comments, `device.` members and qualified names.
class CelHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit CelHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;
};

} // namespace dra::views
