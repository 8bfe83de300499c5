// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Devices: every device of the inventory in a virtualised table whose rows the server pages,
// sorts and filters (by words, or by a CEL selector evaluated on the server, with its errors
// at their line:column and "did you mean" warnings), and a details pane.

import { h, fill, link } from '../dom.js';
import { formatHash } from '../location.js';
import { VirtualTable } from '../vtable.js';
import { diagnosticsList } from './diagnostics.js';

const COLUMNS = [
  { key: 'name', title: 'Device' }, { key: 'node', title: 'Node' }, { key: 'driver', title: 'Driver' },
  { key: 'pool', title: 'Pool' }, { key: 'type', title: 'Type' }, { key: 'product', title: 'Product' },
  { key: 'memory', title: 'Memory', numeric: true }, { key: 'state', title: 'State' },
  { key: 'holder', title: 'Held by' }, { key: 'pods', title: 'Pods' },
];

function keyValueTable(entries, empty = 'none') {
  if (!entries.length) return h('p', { class: 'muted' }, empty);
  return h('table', { class: 'kv' }, h('tbody', {}, entries.map(([key, value]) =>
    h('tr', {}, h('th', { scope: 'row' }, key), h('td', {}, value)))));
}

export function detailsPane(device) {
  const slice = device.sliceInfo ?? {};
  return [
    h('h3', {}, device.name),
    h('p', { class: 'muted' }, `${device.driver} · pool ${device.pool} · `,
      device.node === '(network)' ? 'network-attached' : link(formatHash('topology', device.node), device.node),
      ` · ${device.state}`),
    h('h4', {}, 'Attributes'), keyValueTable(Object.entries(device.attributes)),
    h('h4', {}, 'Capacity'), keyValueTable(Object.entries(device.capacity)),
    h('h4', {}, 'Counters'), keyValueTable(device.counters.map((c) =>
      [`${c.counterSet}/${c.counter}`, `consumes ${c.consumes}${c.total ? ` of ${c.total} (${c.used} used)` : ''}`])),
    h('h4', {}, 'Taints'), keyValueTable(device.taints.map((t) => [t.key, `${t.value ? t.value + ':' : ''}${t.effect}`])),
    h('h4', {}, 'Held by'), keyValueTable(device.holders.map((holder) => [
      link(formatHash('claims', '', { claim: `${holder.claim.namespace}/${holder.claim.name}` }),
        `${holder.claim.namespace}/${holder.claim.name}`),
      `request ${holder.request}${holder.adminAccess ? ' (admin access)' : ''}${holder.pods.length ? ` · pods ${holder.pods.join(', ')}` : ''}`])),
    h('h4', {}, 'Health'), keyValueTable((device.health ?? []).map((r) => [`${r.pod} ${r.container}`,
      h('span', { class: r.health === 'Unhealthy' ? 'error-text' : '' }, `${r.health} (claim ${r.claim}, request ${r.request})`)]),
    'no container reports it'),
    h('h4', {}, `ResourceSlice ${slice.name ?? ''}`),
    keyValueTable([['generation', String(slice.generation ?? '')], ...Object.entries(slice.labels ?? {}).map(([k, v]) => [`label ${k}`, v])]),
  ];
}

export const devices = {
  name: 'devices',
  title: 'Devices',
  render(context) {
    let params = Object.fromEntries(context.params);
    const words = h('input', { type: 'search', id: 'device-words', placeholder: 'Filter by words (node, product, claim…)', value: params.q ?? '', 'aria-label': 'Filter devices by words' });
    const selector = h('textarea', { id: 'device-selector', rows: 1, spellcheck: 'false', placeholder: "CEL selector, e.g. device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA H100')", 'aria-label': 'CEL selector' });
    selector.value = params.selector ?? '';
    const problems = h('div', { id: 'selector-problems', 'aria-live': 'polite' });
    const count = h('span', { class: 'count', id: 'device-count' });
    const nodeChip = h('span', { class: 'chip' });
    const details = h('aside', { class: 'details', id: 'device-details', 'aria-label': 'Device details' }, h('p', { class: 'muted' }, 'Select a device.'));
    let selectedKey = null;

    const showDetails = async (row) => {
      selectedKey = row.key;
      try {
        const device = await context.api.get('device', { driver: row.key.driver, pool: row.key.pool, name: row.key.device });
        if (context.alive() && selectedKey === row.key) fill(details, detailsPane(device));
      } catch (error) {
        context.fail(error);
      }
    };
    const table = new VirtualTable({
      columns: COLUMNS,
      fetchPage: (offset, limit) => context.api.get('devices', { q: params.q, selector: params.selector, node: params.node, sort: params.sort, order: params.order, offset, limit }),
      onSelect: showDetails,
      onSort: (key) => {
        const descending = params.sort === key && params.order !== 'desc';
        update({ ...params, sort: key, order: descending ? 'desc' : 'asc' });
      },
      onLoaded: (page) => {
        if (page.error) return context.fail(page.error);
        count.textContent = `${page.matched.toLocaleString()} of ${page.total.toLocaleString()} devices`;
        fill(problems, page.selector ? [
          page.selector.diagnostics.length ? diagnosticsList(page.selector.expression, page.selector.diagnostics) : null,
          page.selector.valid ? h('p', { class: 'muted' }, `${page.selector.matches} match${page.selector.runtimeErrors ? `, ${page.selector.runtimeErrors} evaluation errors (${page.selector.firstRuntimeError})` : ''}`) : null,
        ] : []);
      },
    });
    const update = (next) => {
      params = Object.fromEntries(Object.entries(next).filter(([, v]) => v));
      context.setParams(params);
      table.setSort(params.sort, params.order === 'desc');
      fill(nodeChip, params.node !== undefined ? [`node ${params.node} `, h('button', { type: 'button', class: 'link', onclick: () => update({ ...params, node: undefined }) }, '×')] : []);
      table.reset();
    };
    let timer;
    const debounce = (fn) => {
      clearTimeout(timer);
      timer = setTimeout(fn, 150);
    };
    words.addEventListener('input', () => debounce(() => update({ ...params, q: words.value })));
    selector.addEventListener('input', () => debounce(() => update({ ...params, selector: selector.value.trim() })));
    selector.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) event.preventDefault();
    });
    fill(context.root,
      h('h2', {}, 'Devices ', count),
      h('div', { class: 'toolbar' }, words, nodeChip),
      h('div', { class: 'selector-row' }, selector),
      problems,
      h('div', { class: 'split' }, table.element, details));
    update(params);
    const unsubscribe = context.channel.view('devices', () => {
      table.refresh();
      if (selectedKey) showDetails({ key: selectedKey });
    });
    const onSlash = (event) => {
      if (event.key === '/' && document.activeElement?.tagName !== 'INPUT' && document.activeElement?.tagName !== 'TEXTAREA') {
        event.preventDefault();
        words.focus();
      }
    };
    document.addEventListener('keydown', onSlash);
    const cleanup = () => {
      unsubscribe();
      document.removeEventListener('keydown', onSlash);
    };
    cleanup.update = (next) => update(Object.fromEntries(next));
    return cleanup;
  },
};
