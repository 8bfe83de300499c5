// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Where the CEL selectors of a claim template are in its YAML text: every `expression:` value
// (plain, single- or double-quoted on one line, or a block scalar), with the offset its first
// character has in the text, so a diagnostic at line:column of the expression maps to a
// position in the editor. Pure.

// [{expression, from, to, line}] in text order; `from` is the offset of the expression's first
// character, `line` the 1-based line of the key.
export function findExpressions(text) {
  const found = [];
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; ++i) {
    const line = lines[i];
    const match = /^(\s*(?:-\s+)?)expression:\s*(.*)$/.exec(line);
    if (match) {
      const indent = match[1].length;
      const valueStart = offset + line.length - match[2].length;
      const value = match[2];
      if (value.startsWith('|') || value.startsWith('>')) {
        // A block scalar: the following lines indented deeper than the key.
        const block = [];
        const lineStarts = [];
        let blockOffset = offset + line.length + 1;
        let blockIndent = -1;
        for (let j = i + 1; j < lines.length; ++j) {
          const next = lines[j];
          const depth = next.length - next.trimStart().length;
          if (next.trim() && depth <= indent) break;
          if (blockIndent < 0 && next.trim()) blockIndent = depth;
          if (blockIndent >= 0) {
            block.push(next.slice(blockIndent));
            lineStarts.push(blockOffset + blockIndent);
          }
          blockOffset += next.length + 1;
        }
        while (block.length && !block[block.length - 1].trim()) {
          block.pop();
          lineStarts.pop();
        }
        // A folded block (>) reads as one line; its columns are counted on the joined text.
        const folded = value.startsWith('>');
        const expression = folded ? block.join(' ') : block.join('\n');
        if (lineStarts.length) {
          found.push({ expression, from: lineStarts[0], to: lineStarts[lineStarts.length - 1] + block[block.length - 1].length,
            line: i + 2, lineStarts: folded ? null : lineStarts, pieces: folded ? block.map((b, k) => [lineStarts[k], b.length]) : null });
        }
      } else if (value.startsWith('"') || value.startsWith("'")) {
        const quote = value[0];
        const end = value.lastIndexOf(quote);
        const inner = end > 0 ? value.slice(1, end) : value.slice(1);
        const expression = quote === "'" ? inner.replace(/''/g, "'") : inner.replace(/\\"/g, '"').replace(/\\\\/g, '\\');
        found.push({ expression, from: valueStart + 1, to: valueStart + 1 + inner.length, line: i + 1, lineStarts: [valueStart + 1] });
      } else if (value.trim()) {
        const expression = value.replace(/\s+#.*$/, '').trimEnd();
        found.push({ expression, from: valueStart, to: valueStart + expression.length, line: i + 1, lineStarts: [valueStart] });
      }
    }
    offset += line.length + 1;
  }
  return found;
}

// The offset in the YAML text of line:column (1-based, as the server counts) of an expression
// found above.
export function offsetOf(found, line, column) {
  if (found.lineStarts) {
    const start = found.lineStarts[Math.min(line, found.lineStarts.length) - 1];
    return start + column - 1;
  }
  // Folded: the columns run over the pieces joined with one space each.
  let rest = column - 1;
  for (const [start, length] of found.pieces) {
    if (rest <= length) return start + rest;
    rest -= length + 1;
  }
  return found.to;
}
