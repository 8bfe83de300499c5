// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Migration: the workloads that still ask a device plugin for extended resources, the DRA form
// proposed for each under the cluster's release (a DeviceClass with extendedResourceName, or a
// ResourceClaimTemplate and the pod template change), and whether the simulator places it on
// the DRA nodes, or why not (`dractl migrate plan`). Manifests are shown as text, never HTML.

import { h, fill, table } from '../dom.js';
import { follow } from './live.js';

function verdictBadge(verdict, form) {
  if (form === 'none') return h('span', { class: 'badge verdict-unknown', dataset: { fits: 'none' } }, 'no proposal');
  return verdict.fits
    ? h('span', { class: 'badge verdict-ready', dataset: { fits: 'true' } }, 'fits')
    : h('span', { class: 'badge verdict-not-ready', dataset: { fits: 'false' } }, 'does not fit');
}

function requestsText(requests) {
  return requests.map((r) => `${r.count} ${r.resource} (${r.container})`).join(', ');
}

function nodesText(nodes) {
  const entries = Object.entries(nodes ?? {});
  return entries.length ? entries.map(([node, pods]) => (pods > 1 ? `${node} (${pods})` : node)).join(', ') : '—';
}

// A block of YAML or JSON, as text.
function textBlock(title, text, kind) {
  return h('details', { dataset: { block: kind } }, h('summary', {}, title),
    h('pre', { class: 'manifest' }, text));
}

function proposalBlock(proposal, title) {
  const parts = [h('p', { class: 'reason' }, h('strong', {}, title), ' ', proposal.form, ' — ', proposal.reason)];
  for (const note of proposal.notes ?? []) parts.push(h('p', { class: 'muted' }, note));
  if (proposal.manifests) parts.push(textBlock('Manifests to apply', proposal.manifests, 'manifests'));
  if (proposal.podTemplateChange) {
    parts.push(textBlock('Pod template change', JSON.stringify(proposal.podTemplateChange, null, 2), 'change'));
  }
  return parts;
}

function workloadItem(w) {
  const key = `${w.namespace}/${w.kind}/${w.name}`;
  const verdict = w.verdict;
  return h('li', { class: 'migration-workload', dataset: { workload: key, form: w.proposal.form, fits: String(verdict.fits) } },
    h('div', { class: 'check-head' }, verdictBadge(verdict, w.proposal.form), ' ',
      h('strong', {}, `${w.kind} ${w.namespace}/${w.name}`),
      h('span', { class: 'muted' }, ` · ${w.replicas} pod(s) · from ${w.source} · asks ${requestsText(w.extendedResources)}`)),
    proposalBlock(w.proposal, 'Proposal:'),
    w.proposal.form === 'none' ? null
      : h('p', { class: 'verdict' }, verdict.fits
        ? `${verdict.placed} pod(s) on ${nodesText(verdict.nodes)}` : verdict.reason),
    w.claimTemplateAlternative
      ? h('details', { dataset: { block: 'alternative' } }, h('summary', {}, 'ResourceClaimTemplate form (for a RolloutPlan)'),
        proposalBlock(w.claimTemplateAlternative, 'Alternative:'))
      : null);
}

export const migration = {
  name: 'migration',
  title: 'Migration',
  render(context) {
    const summary = h('p', { class: 'migration-summary' });
    const overviewTable = h('div');
    const list = h('ol', { class: 'migration', id: 'migration-workloads' });
    fill(context.root, h('h2', {}, 'Device plugin → DRA migration'), summary, overviewTable, list);
    return follow(context, 'overview', () => context.api.get('migration'), (data) => {
      const fitting = data.workloads.filter((w) => w.verdict.fits).length;
      fill(summary, `${data.cluster} · ${data.release} · `,
        data.extendedResourcesFromDra ? 'extended resources served by DRA' : 'no DRA-backed extended resources',
        ` · ${data.workloads.length} workload(s), ${fitting} fit · workloads from: ${data.source.text}`);
      fill(overviewTable, data.workloads.length
        ? table([
          ['Workload', (w) => `${w.kind} ${w.namespace}/${w.name}`],
          ['Asks', (w) => requestsText(w.extendedResources)],
          ['Proposal', (w) => w.proposal.form],
          ['Verdict', (w) => verdictBadge(w.verdict, w.proposal.form)],
          ['Nodes', (w) => nodesText(w.verdict.nodes)],
        ], data.workloads)
        : h('p', { class: 'muted', id: 'no-migration' }, 'No workload asks for extended resources: nothing to migrate.'));
      fill(list, data.workloads.map(workloadItem));
      context.setStatus(`migration plan of ${data.cluster} at revision ${data.rev}`);
    });
  },
};
