// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Free capacity (`dractl free`): whole devices free of total, allocated, blocked (their shared
// counters are used by allocated siblings), tainted, and how many MIG partitions of each
// profile still fit at once, per pool, node, class or GPU model. Below, one driver's pools with
// their totals beside the cluster's own answer (`dractl pools`).

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';
import { askPoolStatus } from '../pool_status.js';

const GROUPINGS = ['pool', 'node', 'class', 'model'];

function groupCell(by, group) {
  if (group === 'TOTAL') return h('strong', {}, 'Total');
  if (by === 'node') return link(formatHash('devices', '', { node: group }), group);
  if (by === 'pool') return link(formatHash('devices', '', { q: group.split('/').slice(1).join('/') }), group);
  return group;
}

// Ours beside the cluster's answer, pool by pool, with what differs.
function poolStatusSection(context) {
  const driver = h('input', { type: 'text', id: 'pools-driver', placeholder: 'driver, e.g. gpu.nvidia.com', size: 28, 'aria-label': 'Driver' });
  const ask = h('button', { type: 'button', id: 'pools-ask' }, 'Ask the cluster');
  const result = h('div', { id: 'pools-result' });
  const section = h('section', { id: 'pool-status' },
    h('h3', {}, 'Pool status'),
    h('p', { class: 'muted' }, 'The device totals of a driver\'s pools, counted from the mirror as Kubernetes counts them, beside the cluster\'s own answer to a ResourcePoolStatusRequest created with your credentials and deleted afterwards.'),
    h('div', { class: 'toolbar' }, driver, ask), result);
  ask.addEventListener('click', async () => {
    const query = { driver: driver.value.trim() };
    if (!query.driver) {
      fill(result, h('p', { class: 'error-text' }, 'Name the driver first.'));
      return;
    }
    ask.disabled = true;
    fill(result, h('p', { class: 'muted' }, 'Asking the cluster…'));
    try {
      const answer = await askPoolStatus(context.api.token, query);
      const data = await context.api.post('pools', JSON.stringify(answer), query);
      const both = data.source === 'cluster';
      fill(result,
        h('p', { id: 'pools-summary', class: both && data.differing === 0 ? 'ok-text' : 'warn-text', dataset: { source: data.source, differing: String(data.differing) } },
          data.summary),
        // The cells are core's, as `dractl pools` prints them.
        data.pools.length ? table(data.headers.map((label, i) => [label, (r) => r.cells[i]]), data.pools, { rowClass: (r) => (r.differences.length ? 'pool differs' : 'pool') }) : h('p', { class: 'muted' }, `No pool of driver ${query.driver}.`));
    } catch (error) {
      fill(result, h('p', { class: 'error-text' }, error.message ?? String(error)));
    } finally {
      ask.disabled = false;
    }
  });
  return {
    section,
    suggest(name) {
      if (!driver.value) driver.value = name;
    },
  };
}

export const free = {
  name: 'free',
  title: 'Free',
  render(context) {
    let by = GROUPINGS.includes(context.params.get('by')) ? context.params.get('by') : 'pool';
    const select = h('select', { 'aria-label': 'Group by', id: 'free-by' },
      GROUPINGS.map((g) => h('option', { value: g, selected: g === by }, `by ${g}`)));
    const body = h('div');
    const pools = poolStatusSection(context);
    fill(context.root, h('h2', {}, 'Free capacity ', select), body, pools.section);
    let stop = null;
    const start = () => {
      stop?.();
      stop = follow(context, 'free', () => context.api.get('free', { by }), (data) => {
        const rows = data.total ? [...data.groups, data.total] : data.groups;
        if (by === 'pool' && data.groups.length) pools.suggest(data.groups[0].group.split('/')[0]);
        fill(body, rows.length ? table([
          [by, (g) => groupCell(by, g.group)],
          ['Whole free', (g) => `${g.whole.free} / ${g.whole.total}`],
          ['Devices', (g) => g.devices.total],
          ['Allocated', (g) => g.devices.allocated],
          ['Blocked', (g) => g.devices.blocked],
          ['Tainted', (g) => g.devices.tainted],
          ['Partitions that fit', (g) => g.profiles.map((p) => `${p.profile}:${p.fit}`).join(' ') || '—'],
        ], rows, { rowClass: (g) => (g.group === 'TOTAL' ? 'total' : undefined) }) : h('p', { class: 'muted' }, 'No devices.'));
      });
    };
    select.addEventListener('change', () => {
      by = select.value;
      context.setParams({ by });
      start();
    });
    start();
    return () => stop?.();
  },
};
