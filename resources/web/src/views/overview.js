// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Overview: every node as a tile with its GPUs, the MIG partitions that still fit, NICs and
// other devices counted apart (an A100 with MIG placements is 8 GPUs, not 150), nodes where
// only the device plugin hands out GPUs, cluster totals, streams that are not current, and
// the latest changes as they arrive.

import { h, fill, link, stat } from '../dom.js';
import { formatHash } from '../location.js';
import { follow, freeOfTotal } from './live.js';

function tile(node) {
  const gpus = node.gpus;
  const parts = node.partitions;
  return h('article', { class: `tile${node.devicePluginOnly ? ' plugin-only' : ''}`, dataset: { node: node.name } },
    h('header', {}, link(formatHash('topology', node.name), h('strong', {}, node.name)),
      h('span', { class: `node-status ${node.status.startsWith('Ready') ? 'ok' : 'warn'}` }, node.status || (node.hasNode ? '' : 'no Node object'))),
    h('div', { class: 'model' }, node.models.join(', ') || (node.devicePluginOnly ? 'device plugin only' : '—')),
    h('div', { class: 'stats' },
      stat('GPUs free', freeOfTotal(gpus), gpus.blocked ? `${gpus.blocked} blocked by MIG` : null),
      parts.placements ? stat('MIG fit', `${parts.fit} / ${parts.placements}`,
        parts.profiles.filter((p) => p.fit > 0).map((p) => `${p.profile}×${p.fit}`).join(' ')) : null,
      node.nics.total ? stat('NICs free', freeOfTotal(node.nics)) : null,
      node.other.total ? stat('other', freeOfTotal(node.other)) : null,
      node.devicePluginGpus ? stat('device plugin', `${node.devicePluginGpus} nvidia.com/gpu`) : null,
      node.unhealthyDevices ? h('span', { class: 'unhealthy error-text' }, `${node.unhealthyDevices} unhealthy`) : null),
    h('footer', {}, link(formatHash('devices', '', { node: node.name }), 'devices'), ' · ',
      `${node.pods} pods`, node.drivers.length ? ` · ${node.drivers.join(', ')}` : ''));
}

function totals(data) {
  const t = data.totals;
  return h('section', { class: 'totals', 'aria-label': 'Cluster totals' },
    stat('nodes', t.nodes),
    stat('GPUs free', freeOfTotal(t.gpus), `${t.gpus.allocated} allocated${t.gpus.blocked ? `, ${t.gpus.blocked} blocked` : ''}`),
    stat('MIG partitions that fit', `${t.partitions.fit} / ${t.partitions.placements}`),
    stat('NICs free', freeOfTotal(t.nics)),
    stat('other devices free', freeOfTotal(t.other)),
    t.devicePluginOnlyNodes ? stat('device-plugin-only nodes', t.devicePluginOnlyNodes, `${t.devicePluginGpus} nvidia.com/gpu`) : null);
}

function eventLine(event) {
  const object = event.object ?? {};
  const meta = object.metadata ?? {};
  const name = meta.namespace ? `${meta.namespace}/${meta.name}` : meta.name;
  return h('li', {}, h('time', {}, new Date().toLocaleTimeString()), ' ',
    h('span', { class: `event-${event.type.toLowerCase()}` }, event.type), ' ', object.kind ?? '', ' ', name ?? '');
}

export const overview = {
  name: 'overview',
  title: 'Overview',
  render(context) {
    const streams = h('div', { class: 'streams' });
    const summary = h('div');
    const grid = h('div', { class: 'tiles' });
    const changes = h('ol', { class: 'changes', 'aria-live': 'polite' });
    fill(context.root, h('h2', {}, 'Overview'), streams, summary, grid,
      h('section', {}, h('h3', {}, 'Latest changes'), changes));
    const watches = [];
    let latestRev = 0;
    const stop = follow(context, 'overview', () => context.api.get('overview'), (data) => {
      latestRev = data.rev;
      fill(streams, data.streams.map((s) => h('p', { class: 'banner warn' },
        `${s.kind}${s.namespace ? ` in ${s.namespace}` : ''} is ${s.state}: ${s.reason}`)));
      fill(summary, totals(data));
      fill(grid, data.nodes.map(tile));
      context.setStatus(`${data.cluster} at revision ${data.rev}`);
      if (!watches.length) {
        // What changes from here on, as the watches report it.
        for (const path of ['/apis/resource.k8s.io/v1/resourceslices', '/apis/resource.k8s.io/v1/resourceclaims']) {
          const watch = context.channel.watch(path, String(data.rev), {
            onEvent: (event) => {
              changes.prepend(eventLine(event));
              while (changes.children.length > 12) changes.lastChild.remove();
            },
            onRelist: () => watch.resume(String(latestRev)),
          });
          watches.push(watch);
        }
      }
    });
    return () => {
      stop();
      for (const watch of watches) watch.stop();
    };
  },
};
