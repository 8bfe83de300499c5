// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Readiness: is this cluster ready for DRA, check by check in the order the DRA guides give
// them (release, API, kubelets, drivers, device plugin, classes, admin access, claims), each
// with its verdict, the reason, the next step and the facts behind it (`dractl readiness`).

import { h, fill } from '../dom.js';
import { follow } from './live.js';

const VERDICT_TEXT = { ready: 'ready', unknown: 'unknown', warning: 'warning', 'not-ready': 'not ready' };

export function verdictBadge(verdict) {
  return h('span', { class: `badge verdict-${verdict}`, dataset: { verdict } }, VERDICT_TEXT[verdict] ?? verdict);
}

// The fields that name a record come first; the server's JSON lists fields alphabetically.
const NAMING_FIELDS = ['name', 'node', 'namespace', 'kind', 'driver'];

function scalarText(value) {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map(scalarText).join(', ') : '—';
  if (typeof value === 'object') {
    return Object.entries(value).map(([k, v]) => `${k} ${scalarText(v)}`).join(' · ');
  }
  return String(value);
}

function columnsOf(records) {
  const all = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const first = NAMING_FIELDS.filter((f) => all.includes(f));
  return [...first, ...all.filter((f) => !first.includes(f))];
}

// The facts behind a check, whatever their shape: lists of records as tables (one column per
// field any record has), lists of names and single values as key-value rows.
export function detailsBlock(details) {
  const rows = [];
  const tables = [];
  for (const [key, value] of Object.entries(details ?? {})) {
    if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
      const columns = columnsOf(value);
      tables.push(h('h5', {}, `${key} (${value.length})`), h('table', { class: 'data compact' },
        h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, value.map((v) => h('tr', {}, columns.map((c) => h('td', {}, scalarText(v[c]))))))));
    } else {
      rows.push(h('tr', {}, h('th', { scope: 'row' }, key), h('td', {}, scalarText(value))));
    }
  }
  if (!rows.length && !tables.length) return h('p', { class: 'muted' }, 'No details.');
  return [rows.length ? h('table', { class: 'kv' }, h('tbody', {}, rows)) : null, tables];
}

function checkItem(check, open) {
  return h('li', { class: `readiness-check verdict-${check.verdict}`, dataset: { check: check.id, verdict: check.verdict } },
    h('div', { class: 'check-head' }, verdictBadge(check.verdict), ' ', h('strong', {}, check.title)),
    h('p', { class: 'reason' }, check.reason),
    check.action ? h('p', { class: 'action' }, h('span', { class: 'muted' }, 'Next step: '), check.action) : null,
    h('details', { open: open || undefined, dataset: { check: check.id } }, h('summary', {}, 'Details'), detailsBlock(check.details)));
}

export const readiness = {
  name: 'readiness',
  title: 'Readiness',
  render(context) {
    const summary = h('p', { class: 'readiness-summary' });
    const list = h('ol', { class: 'readiness', id: 'readiness-checks' });
    fill(context.root, h('h2', {}, 'DRA readiness'), summary, list);
    return follow(context, 'overview', () => context.api.get('readiness'), (data) => {
      // Details a user opened stay open when the report is shown again.
      const opened = new Set([...list.querySelectorAll('details[open]')].map((d) => d.dataset.check));
      const counts = {};
      for (const check of data.checks) counts[check.verdict] = (counts[check.verdict] ?? 0) + 1;
      fill(summary, verdictBadge(data.verdict), ' ',
        `${data.cluster}${data.kubernetesVersion ? ` · Kubernetes ${data.kubernetesVersion}` : ' · version not known'} · `,
        Object.entries(counts).map(([verdict, n]) => `${n} ${VERDICT_TEXT[verdict] ?? verdict}`).join(', '));
      fill(list, data.checks.map((check) => checkItem(check, opened.has(check.id))));
      context.setStatus(`readiness of ${data.cluster} at revision ${data.rev}`);
    });
  },
};
