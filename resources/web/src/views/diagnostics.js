// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CEL diagnostics as the page shows them: "1:15: error: message", with the line of the
// expression and a caret under the column.

import { h } from '../dom.js';

// The line `line` (1-based) of `text` and a caret line pointing at `column` (1-based, in code
// points, as the server counts them).
export function caretLines(text, line, column) {
  const source = (text ?? '').split('\n')[line - 1] ?? '';
  const before = [...source].slice(0, Math.max(0, column - 1)).map((c) => (c === '\t' ? '\t' : ' ')).join('');
  return { source, caret: `${before}^` };
}

export function diagnosticLabel(diagnostic) {
  return `${diagnostic.line}:${diagnostic.column}: ${diagnostic.severity}: ${diagnostic.message}`;
}

export function diagnosticsList(expression, diagnostics) {
  return h('ul', { class: 'diagnostics' }, diagnostics.map((diagnostic) => {
    const { source, caret } = caretLines(expression, diagnostic.line, diagnostic.column);
    return h('li', { class: diagnostic.severity, dataset: { line: diagnostic.line, column: diagnostic.column } },
      h('div', { class: 'message' }, diagnosticLabel(diagnostic)),
      h('pre', { class: 'caret' }, `${source}\n${caret}`));
  }));
}
