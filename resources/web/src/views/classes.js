// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// DeviceClasses: selectors, config, extendedResourceName, the devices they match (free of them)
// and the claims and templates that request each.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';

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
        ['Requested by', (c) => (c.users.length ? c.users.join(', ') : '—')],
        ['Problems', (c) => c.errors.join('; ') || ''],
      ], data.classes, { rowClass: (c) => (c.selectorErrors ? 'problem' : undefined) })
        : h('p', { class: 'muted' }, 'No DeviceClasses.'));
    });
  },
};
