// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Free capacity (`dractl free`): whole devices free of total, allocated, blocked (their shared
// counters are used by allocated siblings), tainted, and how many MIG partitions of each
// profile still fit at once, per pool, node, class or GPU model.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';

const GROUPINGS = ['pool', 'node', 'class', 'model'];

function groupCell(by, group) {
  if (group === 'TOTAL') return h('strong', {}, 'Total');
  if (by === 'node') return link(formatHash('devices', '', { node: group }), group);
  if (by === 'pool') return link(formatHash('devices', '', { q: group.split('/').slice(1).join('/') }), group);
  return group;
}

export const free = {
  name: 'free',
  title: 'Free',
  render(context) {
    let by = GROUPINGS.includes(context.params.get('by')) ? context.params.get('by') : 'pool';
    const select = h('select', { 'aria-label': 'Group by', id: 'free-by' },
      GROUPINGS.map((g) => h('option', { value: g, selected: g === by }, `by ${g}`)));
    const body = h('div');
    fill(context.root, h('h2', {}, 'Free capacity ', select), body);
    let stop = null;
    const start = () => {
      stop?.();
      stop = follow(context, 'free', () => context.api.get('free', { by }), (data) => {
        const rows = data.total ? [...data.groups, data.total] : data.groups;
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
