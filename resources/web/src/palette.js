// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The command palette (Ctrl+K), as in the desktop console: the views (with the key that reaches
// each), then nodes, claims and templates by name, filtered as you type; Up/Down and Enter
// choose, Escape closes.

import { h, fill } from './dom.js';
import { viewShortcut } from './shortcuts.js';
import { VIEWS } from './views/index.js';

// Entries whose text holds every typed word, case-insensitively; at most `limit`.
export function matchEntries(entries, text, limit = 50) {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const out = [];
  for (const entry of entries) {
    const haystack = `${entry.label} ${entry.detail ?? ''}`.toLowerCase();
    if (words.every((word) => haystack.includes(word))) out.push(entry);
    if (out.length >= limit) break;
  }
  return out;
}

export class CommandPalette {
  constructor(page) {
    this.page = page;
    this.input = h('input', { type: 'search', placeholder: 'Go to a view, node, claim or template…',
      'aria-label': 'Command', autocomplete: 'off' });
    this.list = h('ul', { role: 'listbox' });
    this.dialog = h('dialog', { id: 'palette', 'aria-label': 'Command palette' }, this.input, this.list);
    document.body.append(this.dialog);
    this.input.addEventListener('input', () => this.show());
    this.input.addEventListener('keydown', (event) => this.onKey(event));
    this.dialog.addEventListener('close', () => this.page.main.focus?.());
  }

  async open() {
    this.entries = VIEWS.map((view, index) => ({ label: view.title,
      detail: viewShortcut(index) ? `view · ${viewShortcut(index)}` : 'view',
      go: () => this.page.navigate(view.name, view.defaultArg ?? '') }));
    this.input.value = '';
    this.selected = 0;
    this.show();
    this.dialog.showModal();
    this.input.focus();
    try {
      const [overview, claims, templates] = await Promise.all([this.page.api.get('overview'),
        this.page.api.get('claims'), this.page.api.get('templates')]);
      for (const node of overview.nodes) {
        this.entries.push({ label: node.name, detail: 'node · topology',
          go: () => this.page.navigate('topology', node.name) });
      }
      for (const claim of claims.claims) {
        this.entries.push({ label: `${claim.namespace}/${claim.name}`, detail: `claim · ${claim.state}`,
          go: () => this.page.navigate('claims', '', { claim: `${claim.namespace}/${claim.name}` }) });
      }
      for (const template of templates.templates) {
        this.entries.push({ label: `${template.namespace}/${template.name}`, detail: 'template',
          go: () => this.page.navigate('templates', '', { template: `${template.namespace}/${template.name}` }) });
      }
      if (this.dialog.open) this.show();
    } catch (error) {
      this.page.fail(error);
    }
  }

  show() {
    this.matches = matchEntries(this.entries ?? [], this.input.value);
    this.selected = Math.min(this.selected, Math.max(0, this.matches.length - 1));
    fill(this.list, this.matches.map((entry, index) => {
      const item = h('li', { role: 'option', 'aria-selected': index === this.selected ? 'true' : 'false' },
        h('span', {}, entry.label), h('small', {}, entry.detail ?? ''));
      item.addEventListener('click', () => this.choose(entry));
      return item;
    }));
  }

  choose(entry) {
    this.dialog.close();
    entry?.go();
  }

  onKey(event) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.selected = (this.selected + step + this.matches.length) % Math.max(1, this.matches.length);
      this.show();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.choose(this.matches[this.selected]);
    }
  }
}
