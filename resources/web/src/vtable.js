// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A virtualised table whose rows the server pages: only the rows in view exist in the page,
// pages are fetched as they scroll into view, so 100,000 rows cost what 40 do.

import { h, fill } from './dom.js';

export const ROW_HEIGHT = 26;
const PAGE_ROWS = 200;

// The pages (of `pageRows` rows) that rows first..last (inclusive) fall in.
export function pagesFor(first, last, pageRows = PAGE_ROWS) {
  const pages = [];
  for (let page = Math.floor(first / pageRows); page <= Math.floor(last / pageRows); ++page) pages.push(page);
  return pages;
}

export class VirtualTable {
  // columns: [{key, title, numeric?}]; fetchPage(offset, limit) -> {matched, rows};
  // onSelect(row) when a row is chosen; onSort(key) when a header is clicked.
  constructor({ columns, fetchPage, onSelect, onSort, onLoaded }) {
    this.columns = columns;
    this.fetchPage = fetchPage;
    this.onSelect = onSelect;
    this.onSort = onSort;
    this.onLoaded = onLoaded ?? (() => {});
    this.header = h('div', { class: 'vt-head', role: 'row' });
    this.spacer = h('div', { class: 'vt-spacer' });
    this.body = h('div', { class: 'vt-rows', role: 'rowgroup' });
    this.scroller = h('div', { class: 'vt-scroll', tabindex: 0, role: 'grid', 'aria-label': 'Devices' },
      this.spacer, this.body);
    this.element = h('div', { class: 'vtable' }, this.header, this.scroller);
    this.scroller.addEventListener('scroll', () => this.draw());
    this.scroller.addEventListener('keydown', (event) => this.onKey(event));
    new ResizeObserver(() => this.draw()).observe(this.scroller);
    this.reset();
  }

  setSort(key, descending) {
    fill(this.header, this.columns.map((column) => {
      const mark = column.key === key ? (descending ? ' ▼' : ' ▲') : '';
      return h('div', { class: `vt-cell ${column.key}${column.numeric ? ' num' : ''}`, role: 'columnheader',
        'aria-sort': column.key === key ? (descending ? 'descending' : 'ascending') : 'none',
        onclick: () => this.onSort?.(column.key) }, column.title + mark);
    }));
  }

  // Forgets every page (a new query); keeps the scroll position when `keepPosition`.
  reset(keepPosition = false) {
    this.pages = new Map(); // page -> rows, or a promise while loading
    this.matched = this.matched ?? 0;
    this.generation = (this.generation ?? 0) + 1;
    if (!keepPosition) {
      this.scroller.scrollTop = 0;
      this.selected = -1;
    }
    this.draw();
  }

  // Loads the pages in view again (the data changed) without blanking them meanwhile.
  refresh() {
    const stale = this.pages;
    this.generation += 1;
    this.pages = new Map();
    this.stalePages = stale;
    this.draw();
  }

  rowAt(index) {
    const page = this.pages.get(Math.floor(index / PAGE_ROWS)) ?? this.stalePages?.get(Math.floor(index / PAGE_ROWS));
    return Array.isArray(page) ? page[index % PAGE_ROWS] : undefined;
  }

  async load(page) {
    const generation = this.generation;
    const promise = this.fetchPage(page * PAGE_ROWS, PAGE_ROWS);
    this.pages.set(page, promise);
    try {
      const result = await promise;
      if (generation !== this.generation) return;
      this.pages.set(page, result.rows);
      this.matched = result.matched;
      this.onLoaded(result);
      this.draw();
    } catch (error) {
      if (generation === this.generation) this.pages.delete(page);
      throw error;
    }
  }

  draw() {
    const height = this.scroller.clientHeight || 600;
    const first = Math.floor(this.scroller.scrollTop / ROW_HEIGHT);
    const last = first + Math.ceil(height / ROW_HEIGHT) + 1;
    this.spacer.style.height = `${this.matched * ROW_HEIGHT}px`;
    const wanted = pagesFor(first, Math.max(first, Math.min(last, Math.max(this.matched - 1, 0))));
    if (this.pages.size === 0 && wanted.length === 0) wanted.push(0);
    for (const page of wanted) {
      if (!this.pages.has(page)) this.load(page).catch((error) => this.onLoaded({ error }));
    }
    const rows = [];
    for (let index = first; index <= last && index < this.matched; ++index) {
      const row = this.rowAt(index);
      const element = h('div', { class: `vt-row${index === this.selected ? ' selected' : ''}${row ? ` state-${row.state}` : ''}`,
        role: 'row', 'aria-rowindex': index + 1, 'aria-selected': index === this.selected ? 'true' : 'false' },
      this.columns.map((column) => h('div', { class: `vt-cell ${column.key}${column.numeric ? ' num' : ''}`, role: 'gridcell' },
        row ? row[column.key] : '')));
      element.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
      if (row) element.addEventListener('click', () => this.select(index));
      rows.push(element);
    }
    fill(this.body, rows);
  }

  select(index) {
    if (index < 0 || index >= this.matched) return;
    this.selected = index;
    const top = index * ROW_HEIGHT;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + ROW_HEIGHT > this.scroller.scrollTop + this.scroller.clientHeight) {
      this.scroller.scrollTop = top + ROW_HEIGHT - this.scroller.clientHeight;
    }
    this.draw();
    const row = this.rowAt(index);
    if (row) this.onSelect?.(row);
  }

  onKey(event) {
    const pageRows = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_HEIGHT) - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: pageRows, PageUp: -pageRows };
    if (event.key in moves) {
      event.preventDefault();
      this.select(Math.max(0, Math.min(this.matched - 1, this.selected + moves[event.key])));
    } else if (event.key === 'Home') {
      event.preventDefault();
      this.select(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      this.select(this.matched - 1);
    }
  }
}
