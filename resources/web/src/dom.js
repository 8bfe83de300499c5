// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Building the page: every piece of data goes in as text (textContent), never as HTML, so an
// object name or attribute value can never become markup.

// h('td', {class: 'num'}, 'text', child...): an element with attributes and children; strings
// and numbers become text nodes; null, undefined and false are skipped; arrays are flattened.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// Replaces the children of `element`.
export function fill(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

// A link to a route of the console.
export function link(hash, ...children) {
  return h('a', { href: hash }, ...children);
}

// A table with a header row and one row per item; `columns` are [title, (item) => cell].
export function table(columns, items, { rowClass, onSelect, caption } = {}) {
  const body = h('tbody');
  for (const item of items) {
    const row = h('tr', { class: rowClass?.(item), tabindex: onSelect ? 0 : undefined });
    for (const [, cell] of columns) row.append(h('td', {}, cell(item) ?? ''));
    if (onSelect) {
      row.addEventListener('click', () => onSelect(item, row));
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') onSelect(item, row);
      });
    }
    body.append(row);
  }
  return h('table', { class: 'data' }, caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, columns.map(([title]) => h('th', { scope: 'col' }, title)))), body);
}

// A small labelled figure: "GPUs 6/8 free".
export function stat(label, value, extra) {
  return h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, label),
    h('span', { class: 'stat-value' }, value), extra ? h('span', { class: 'stat-extra' }, extra) : null);
}
