// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Lint: what in the inventory makes allocation fail or wastes devices (`dractl lint`), each
// finding linking to the nodes, devices and claims it names.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';

// A route for an object a finding names: nodes to their topology, claims to the claims view,
// slices to their devices.
export function objectLink(object) {
  const name = object.namespace ? `${object.namespace}/${object.name}` : object.name;
  const label = `${object.kind} ${name}`;
  if (object.kind === 'Node') return link(formatHash('topology', object.name), label);
  if (object.kind === 'ResourceClaim') return link(formatHash('claims', '', { claim: name }), label);
  if (object.kind === 'ResourceClaimTemplate') return link(formatHash('templates', '', { template: name }), label);
  if (object.kind === 'ResourceSlice') return link(formatHash('devices', '', { q: object.name }), label);
  if (object.kind === 'DeviceClass') return link(formatHash('classes'), label);
  return label;
}

export const lint = {
  name: 'lint',
  title: 'Lint',
  render(context) {
    const summary = h('p');
    const body = h('div');
    fill(context.root, h('h2', {}, 'Lint'), summary, body);
    return follow(context, 'lint', () => context.api.get('lint'), (data) => {
      const s = data.summary;
      summary.textContent = `${data.findings.length} finding(s): ${s.error} error(s), ${s.warning} warning(s), ${s.info} info`;
      fill(body, data.findings.length ? table([
        ['Severity', (f) => h('span', { class: `severity ${f.severity}` }, f.severity)],
        ['Code', (f) => h('code', {}, f.code)],
        ['Finding', (f) => f.message],
        ['Objects', (f) => (f.objects ?? []).map((o, i) => [i ? ', ' : '', objectLink(o)])],
      ], data.findings) : h('p', { class: 'muted' }, 'Nothing to report.'));
    });
  },
};
