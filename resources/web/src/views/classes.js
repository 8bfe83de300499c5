// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// DeviceClasses: selectors, config, extendedResourceName, the devices they match (free of them),
// each namespace's quota of them and the claims and templates that request each.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';

// "training 3/8 · batch 0/0 (blocked)": per namespace with a quota of the class's devices, what
// its claims are charged of the limit; "—" where no quota limits the class.
export function quotaText(quotas) {
  if (!quotas.length) return '—';
  return quotas.map((q) => `${q.namespace} ${q.used}/${q.hard}${q.blocked ? ' (blocked)' : ''}`).join(' · ');
}

export const classes = {
  name: 'classes',
  title: 'Classes',
  render(context) {
    const body = h('div');
    fill(context.root, h('h2', {}, 'DeviceClasses'), body);
    return follow(context, 'classes', () => context.api.get('classes'), (data) => {
      fill(body, data.classes.length ? table([
        ['Name', (c) => h('strong', {}, c.name)],
        ['Selectors', (c) => c.selectors.map((s) => h('code', { class: 'block' }, s))],
        ['Devices', (c) => link(formatHash('devices', '', { selector: c.selectors.join(' && ') }), `${c.free} free of ${c.devices}`)],
        ['Extended resource', (c) => c.extendedResourceName || '—'],
        ['Config', (c) => (c.config ? h('code', { class: 'block' }, JSON.stringify(c.config)) : '—')],
        ['Quota', (c) => quotaText(c.quota ?? [])],
        ['Requested by', (c) => (c.users.length ? c.users.join(', ') : '—')],
        ['Problems', (c) => c.errors.join('; ') || ''],
      ], data.classes, { rowClass: (c) => (c.selectorErrors ? 'problem' : undefined) })
        : h('p', { class: 'muted' }, 'No DeviceClasses.'));
    });
  },
};
