// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QSyntaxHighlighter>

namespace dra::views {

// Colours YAML manifests line by line: comments, document markers, mapping keys, quoted strings,
// numbers and booleans, block-scalar indicators.
class YamlHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit YamlHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;
};

} // namespace dra::views
