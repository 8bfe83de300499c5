// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Topology of one node. The drawing (the same as `dractl topology -o svg`) comes with the core
// layout function (issue 18); until then the page lists the node's devices by kind, with who
// holds them, from the same device rows the Devices view pages.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';

export const topology = {
  name: 'topology',
  title: 'Topology',
  render(context) {
    const node = context.arg;
    const body = h('div');
    const picker = h('div', { class: 'node-picker' });
    fill(context.root, h('h2', {}, 'Topology ', node ? h('span', { class: 'muted' }, node) : ''), picker, body);
    return follow(context, 'devices', async () => {
      const overview = await context.api.get('overview');
      const devices = node ? await context.api.get('devices', { node, sort: 'name', limit: 1000 }) : null;
      return { overview, devices };
    }, ({ overview, devices }) => {
      fill(picker, overview.nodes.map((n) => [link(formatHash('topology', n.name), n.name), ' ']));
      if (!node) {
        fill(body, h('p', { class: 'muted' }, 'Choose a node.'));
        return;
      }
      const summary = overview.nodes.find((n) => n.name === node);
      if (!summary) {
        fill(body, h('p', { class: 'warn' }, `No node ${node} in this cluster.`));
        return;
      }
      const groups = new Map();
      for (const row of devices.rows) {
        const kind = row.partition ? 'MIG partitions' : row.type ? `${row.type} devices` : `${row.driver} devices`;
        if (!groups.has(kind)) groups.set(kind, []);
        groups.get(kind).push(row);
      }
      fill(body,
        h('p', {}, `${summary.models.join(', ') || 'no GPUs'} · ${summary.gpus.free} of ${summary.gpus.total} GPUs free`),
        [...groups].map(([kind, rows]) => h('section', {}, h('h3', {}, `${kind} (${rows.length})`),
          table([['Device', (r) => r.name], ['Product', (r) => r.product], ['Memory', (r) => r.memory],
            ['State', (r) => r.state], ['Held by', (r) => r.holder || '—']], rows,
          { rowClass: (r) => `state-${r.state}` }))));
    });
  },
};
