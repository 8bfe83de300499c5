// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What the editor's dry run shows: the object in the cluster and the server's dry-run result,
// each cut down to what the user wrote about (labels and spec), as YAML lines with sorted keys,
// and a line diff of the two. Pure: node tests it.

// The part of an object a template author changes: its labels and spec (what the server adds,
// managedFields, resourceVersion, uid and timestamps, would only be noise).
export function diffSubject(object) {
  if (!object) return null;
  const subject = {};
  const labels = object.metadata?.labels;
  if (labels && Object.keys(labels).length) subject.metadata = { labels };
  if (object.spec !== undefined) subject.spec = object.spec;
  return subject;
}

function scalar(value) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    // Quoted when plain YAML would read it as something else or it has odd characters.
    return value === '' || /^[\s-?:,[\]{}#&*!|>'"%@`]|[:#]\s|\s$|^(true|false|null|~|[-+.\d].*)$/i.test(value)
      || /[\n\t]/.test(value) ? JSON.stringify(value) : value;
  }
  return String(value);
}

function isEmptyCollection(value) {
  return (Array.isArray(value) && value.length === 0)
    || (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
}

// `value` as block YAML lines, keys sorted so that two objects line up key by key.
export function yamlLines(value, indent = '') {
  const lines = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item && typeof item === 'object' && !isEmptyCollection(item)) {
        const inner = yamlLines(item, `${indent}  `);
        lines.push(`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1));
      } else {
        lines.push(`${indent}- ${isEmptyCollection(item) ? JSON.stringify(item) : scalar(item)}`);
      }
    }
  } else if (value && typeof value === 'object') {
    for (const key of Object.keys(value).sort()) {
      const item = value[key];
      if (item && typeof item === 'object' && !isEmptyCollection(item)) {
        // A list sits under its key at the key's indent, as kubectl prints it.
        lines.push(`${indent}${scalar(key)}:`, ...yamlLines(item, Array.isArray(item) ? indent : `${indent}  `));
      } else {
        lines.push(`${indent}${scalar(key)}: ${isEmptyCollection(item) ? JSON.stringify(item) : scalar(item)}`);
      }
    }
  } else {
    lines.push(`${indent}${scalar(value)}`);
  }
  return lines;
}

// The lines of `before` and `after` as [{op, text}] in order: op ' ' (both), '-' (only
// before), '+' (only after); the longest common subsequence of lines is kept.
export function lineDiff(before, after) {
  const n = before.length;
  const m = after.length;
  // common[i][j]: length of the longest common subsequence of before[i..] and after[j..].
  const common = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; --i) {
    for (let j = m - 1; j >= 0; --j) {
      common[i][j] = before[i] === after[j] ? common[i + 1][j + 1] + 1
        : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      out.push({ op: ' ', text: before[i++] });
      ++j;
    } else if (i < n && (j === m || common[i + 1][j] >= common[i][j + 1])) {
      out.push({ op: '-', text: before[i++] }); // removals before additions, as diff prints
    } else {
      out.push({ op: '+', text: after[j++] });
    }
  }
  return out;
}

// The diff of two objects' subjects; `before` null for an object the apply would create.
export function objectDiff(before, after) {
  return lineDiff(before ? yamlLines(diffSubject(before)) : [], yamlLines(diffSubject(after)));
}

// The diff with unchanged runs longer than 2 * `context` lines folded to one {op: '…', count}.
export function foldUnchanged(diff, context = 3) {
  const out = [];
  let run = [];
  const flush = (last) => {
    const keepHead = out.length ? context : 0;
    const keepTail = last ? 0 : context;
    if (run.length > keepHead + keepTail + 1) {
      out.push(...run.slice(0, keepHead), { op: '…', count: run.length - keepHead - keepTail },
        ...run.slice(run.length - keepTail));
    } else {
      out.push(...run);
    }
    run = [];
  };
  for (const line of diff) {
    if (line.op === ' ') {
      run.push(line);
    } else {
      flush(false);
      out.push(line);
    }
  }
  flush(true);
  return out;
}
