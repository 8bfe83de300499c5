// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Claims and Templates: state, requests, allocation, reserving pods and events; for a claim
// the Pending diagnosis chain (created -> allocated -> pod bound -> running -> ready), each
// step with who owns it, and the allocation simulation's closest nodes.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { follow } from './live.js';

function requestText(request) {
  const spec = request.exactly ?? request.firstAvailable?.[0];
  if (!spec) return request.name;
  const count = spec.allocationMode === 'All' ? 'all' : String(spec.count);
  const more = request.firstAvailable?.length > 1 ? ` (+${request.firstAvailable.length - 1} alternatives)` : '';
  return `${request.name}: ${count} × ${spec.deviceClassName}${more}`;
}

function requestDetails(request) {
  const specs = request.exactly ? [request.exactly] : request.firstAvailable ?? [];
  return h('li', {}, h('strong', {}, request.name), request.firstAvailable ? ' (first available of)' : '',
    h('ul', {}, specs.map((spec) => h('li', {},
      `${spec.allocationMode === 'All' ? 'all' : spec.count} × `,
      link(formatHash('classes'), spec.deviceClassName),
      spec.adminAccess ? ' (admin access)' : '',
      spec.selectors.map((s) => h('code', { class: 'block' }, s))))));
}

function diagnosisSection(diagnosis) {
  if (!diagnosis) return null;
  const simulation = diagnosis.simulation;
  return h('section', { class: 'diagnosis' },
    h('h4', {}, 'Diagnosis'),
    h('ol', { class: 'chain' }, diagnosis.steps.map((step) => h('li', { class: `step ${step.status}` },
      h('span', { class: 'step-status' }, step.status), ' ', h('strong', {}, step.step), ': ', step.detail,
      ['failed', 'waiting'].includes(step.status) ? h('div', { class: 'owner' }, `owner: ${step.owner}`) : null,
      (step.events ?? []).map((e) => h('div', { class: 'event' }, e))))),
    h('p', { class: 'verdict' }, h('strong', {}, 'Verdict: '), diagnosis.verdict),
    simulation?.explanation ? h('details', {}, h('summary', {}, 'Allocation simulation, closest nodes first'),
      h('ul', {}, simulation.explanation.slice(0, 8).map((e) => h('li', {},
        link(formatHash('topology', e.node), e.node), `: ${e.reason}`))))
      : null);
}

function eventsTable(events) {
  if (!events.length) return h('p', { class: 'muted' }, 'No events.');
  return table([['Type', (e) => e.type], ['Reason', (e) => e.reason], ['Message', (e) => e.message],
    ['Count', (e) => e.count], ['Last', (e) => e.lastTimestamp]], events);
}

// "Ready=True (Prepared)": a device's conditions as its driver reported them.
export function conditionsText(conditions) {
  if (!conditions?.length) return '—';
  return conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ');
}

// What the drivers reported of each allocated device (status.devices) and the device's health in
// the pods using it (allocatedResourcesStatus).
function deviceStatusSection(claim) {
  const statuses = claim.deviceStatus ?? [];
  const health = claim.health ?? [];
  if (!statuses.length && !health.length) return null;
  return [
    h('h4', {}, 'Devices\u2019 status'),
    statuses.length ? table([
      ['Device', (d) => `${d.driver}/${d.pool}/${d.device}`],
      ['Conditions', (d) => conditionsText(d.conditions)],
      ['Network', (d) => (d.networkData ? [d.networkData.interfaceName, ...(d.networkData.ips ?? [])].filter(Boolean).join(' ') : '—')],
      ['Data', (d) => (d.data ? h('code', { class: 'block' }, JSON.stringify(d.data)) : '—')],
    ], statuses) : null,
    health.length ? table([
      ['Device', (r) => `${r.driver}/${r.pool}/${r.device}`],
      ['Health', (r) => h('span', { class: r.health === 'Unhealthy' ? 'warn' : '' }, r.health)],
      ['Pod', (r) => `${r.pod} (${r.container})`],
    ], health) : null,
  ];
}

function claimDetails(claim) {
  return [
    h('h3', {}, `${claim.namespace}/${claim.name}`),
    h('p', {}, h('span', { class: `state ${claim.state.split(',')[0]}` }, claim.state),
      claim.node ? [' on ', link(formatHash('topology', claim.node), claim.node)] : ''),
    h('h4', {}, 'Requests'), h('ul', {}, claim.requests.map(requestDetails)),
    h('h4', {}, 'Allocation'),
    claim.allocation.length ? table([['Request', (r) => r.request],
      ['Device', (r) => link(formatHash('devices', '', { q: r.device, node: claim.node || undefined }), `${r.driver}/${r.pool}/${r.device}`)]],
    claim.allocation) : h('p', { class: 'muted' }, 'Not allocated.'),
    h('h4', {}, 'Reserved for'),
    h('p', {}, claim.reservedFor.length ? claim.reservedFor.join(', ') : 'No pods.',
      claim.missingPods.length ? h('span', { class: 'warn' }, ` (not in the cache: ${claim.missingPods.join(', ')})`) : ''),
    deviceStatusSection(claim),
    diagnosisSection(claim.diagnosis),
    claim.diagnosisError ? h('p', { class: 'warn' }, claim.diagnosisError) : null,
    h('h4', {}, 'Events'), eventsTable(claim.events),
  ];
}

function templateDetails(template) {
  return [
    h('h3', {}, `${template.namespace}/${template.name}`),
    h('p', {}, link(formatHash('editor', '', { from: `${template.namespace}/${template.name}` }), 'Open in the editor')),
    h('h4', {}, 'Requests'), h('ul', {}, template.requests.map(requestDetails)),
    template.constraints.length ? [h('h4', {}, 'Constraints'), h('ul', {}, template.constraints.map((c) =>
      h('li', {}, `${c.matchAttribute ? `same ${c.matchAttribute}` : `distinct ${c.distinctAttribute}`} across ${c.requests.join(', ') || 'all requests'}`)))] : null,
    h('h4', {}, 'Events'), eventsTable(template.events),
  ];
}

// The list-and-details page of claims or templates.
function objectsView({ name, title, param, listPath, detailPath, list, columns, details }) {
  return {
    name,
    title,
    render(context) {
      const body = h('div', { class: 'list' });
      const pane = h('aside', { class: 'details', id: `${name}-details`, 'aria-label': `${title} details` },
        h('p', { class: 'muted' }, 'Select one.'));
      fill(context.root, h('h2', {}, title), h('div', { class: 'split' }, body, pane));
      let selected = context.params.get(param) ?? '';
      const showDetails = async () => {
        if (!selected) return;
        try {
          const data = await context.api.get(`${detailPath}/${selected}`);
          if (context.alive() && `${data.namespace}/${data.name}` === selected) fill(pane, details(data));
        } catch (error) {
          fill(pane, h('p', { class: 'warn' }, error.message));
        }
      };
      const stop = follow(context, name, () => context.api.get(listPath), (data) => {
        const items = list(data);
        fill(body, items.length ? table(columns, items, {
          rowClass: (item) => (`${item.namespace}/${item.name}` === selected ? 'selected' : undefined),
          onSelect: (item, row) => {
            selected = `${item.namespace}/${item.name}`;
            context.setParams({ [param]: selected });
            for (const other of body.querySelectorAll('tr.selected')) other.classList.remove('selected');
            row.classList.add('selected');
            showDetails();
          },
        }) : h('p', { class: 'muted' }, `No ${title.toLowerCase()}.`));
        showDetails();
      });
      stop.update = (params) => {
        selected = params.get(param) ?? '';
        stop.refresh();
      };
      return stop;
    },
  };
}

export const claims = objectsView({
  name: 'claims', title: 'Claims', param: 'claim', listPath: 'claims', detailPath: 'claims',
  list: (data) => data.claims,
  columns: [
    ['Namespace', (c) => c.namespace], ['Name', (c) => c.name],
    ['State', (c) => h('span', { class: `state ${c.state.split(',')[0]}` }, c.state)],
    ['Requests', (c) => c.requests.map(requestText).join('; ')],
    ['Devices', (c) => c.allocation.map((r) => r.device).join(', ') || '—'],
    ['Node', (c) => c.node || '—'],
    ['Reserved for', (c) => c.reservedFor.join(', ') || '—'],
  ],
  details: claimDetails,
});

export const templates = objectsView({
  name: 'templates', title: 'Templates', param: 'template', listPath: 'templates', detailPath: 'templates',
  list: (data) => data.templates,
  columns: [
    ['Namespace', (t) => t.namespace], ['Name', (t) => t.name],
    ['Requests', (t) => t.requests.map(requestText).join('; ')],
  ],
  details: templateDetails,
});
