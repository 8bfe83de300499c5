// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The template check as the editor shows it beside the text (POST /console/v1/templates/check,
// what `dractl template check FILE -o json` prints): per request the devices of its class and
// those its selectors match, on how many nodes, the selector errors; then whether copies can be
// allocated and where, or why not; the findings; and the release it was checked in.

import { h, link, table } from '../dom.js';
import { formatHash } from '../location.js';

// The releases a user may check in besides the cluster's own: 1.31 (structured parameters)
// to the newest this console models.
export const RELEASES = ['1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37'];

function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

function requestsTable(requests) {
  if (!requests.length) return h('p', { class: 'muted' }, 'No requests.');
  return table([
    ['Request', (r) => h('strong', {}, r.name)],
    ['Class', (r) => (r.classExists ? link(formatHash('classes'), r.deviceClass)
      : h('span', { class: 'warn' }, `${r.deviceClass || '(none)'}: no such DeviceClass`))],
    ['Matching', (r) => h('span', { class: `match-count${r.matching ? '' : ' none'}`, dataset: { request: r.name } },
      String(r.matching))],
    ['Of class', (r) => String(r.devicesOfClass)],
    ['Nodes', (r) => String(r.nodes)],
    ['Selector errors', (r) => (r.selectorErrors.length
      ? h('ul', { class: 'selector-errors' }, r.selectorErrors.map((e) => h('li', {}, e))) : '—')],
  ], requests, { rowClass: (r) => (r.selectorErrors.length || !r.classExists ? 'problem' : undefined) });
}

function allocationSection(allocation) {
  if (!allocation) return null;
  const nodes = allocation.nodesWhereOneFits ?? [];
  const fits = allocation.copiesThatFit > 0;
  return h('section', { class: 'allocation' },
    h('h4', {}, 'Allocation'),
    fits
      ? h('p', { class: 'verdict fits', id: 'check-verdict' },
        `Fits on ${plural(nodes.length, 'node')}`,
        allocation.firstNode ? [', first copy on ', link(formatHash('topology', allocation.firstNode), allocation.firstNode)] : '',
        `; ${plural(allocation.copiesThatFit, 'copy', 'copies')} fit at once${allocation.capped ? ' (or more: the count stops there)' : ''}.`)
      : h('p', { class: 'verdict blocked', id: 'check-verdict' }, 'Cannot be allocated: ', allocation.reason ?? 'no node has what it asks for.'),
    fits && allocation.nextCopy ? h('p', { class: 'muted' }, `The next copy does not fit: ${allocation.nextCopy}`) : null,
    allocation.explanation?.length ? h('details', {}, h('summary', {}, 'Per node, the closest first'),
      h('ul', { class: 'explanation' }, allocation.explanation.map((line) => h('li', {}, line)))) : null);
}

// The pane's contents for one answer of the template check; `simulating` when the answer is
// the quick half (match counts) and the simulation is still to come.
export function checkSection(answer, { simulating = false } = {}) {
  if (answer.error) {
    return [h('p', { class: 'warn', id: 'check-error' }, `The text does not read: ${answer.error}`)];
  }
  return [
    h('p', { class: 'muted' }, `${answer.kind} ${answer.namespace ? `${answer.namespace}/` : ''}${answer.name}`),
    h('h4', {}, 'Requests'), requestsTable(answer.requests ?? []),
    simulating
      ? [h('h4', {}, 'Allocation'), h('p', { class: 'muted', id: 'check-simulating' }, 'Simulating once typing pauses…')]
      : allocationSection(answer.allocation),
    h('h4', {}, 'Findings'),
    answer.findings?.length
      ? h('ul', { class: 'findings' }, answer.findings.map((f) => h('li', {}, f)))
      : h('p', { class: 'muted' }, 'Nothing to report.'),
    // .checked-in marks the whole check (tests and screenshots wait for it); the quick half
    // says only what it matched in.
    answer.release ? h('p', { class: `${simulating ? 'matched-in' : 'checked-in'} muted` },
      `${simulating ? 'Matched' : 'Checked'} in ${answer.release}`,
      answer.rev !== undefined ? ` at revision ${answer.rev}` : '', '.') : null,
  ];
}

// The negative control (POST /console/v1/templates/negative-control, what `dractl
// negative-control FILE -o json` prints): the same claim with selectors that must match no
// device, built and checked by the server. It proves the selectors are a real boundary only
// when every original request matches devices, the control matches none, and the allocator
// leaves it Pending for that reason.
export function negativeControlSection(answer) {
  const requests = answer.requests ?? [];
  return [
    h('p', { class: `verdict ${answer.proves ? 'fits' : 'blocked'}`, id: 'negative-verdict',
      dataset: { proves: String(Boolean(answer.proves)) } }, answer.verdict),
    h('p', { class: 'muted' },
      `${answer.namespace}/${answer.negativeControl}: the same ${answer.kind} with selectors that must match no device. `
        + `The original matches ${plural(answer.originalMatches, 'device')}, the negative control `
        + `${plural(answer.negativeMatches, 'device')}; the allocator `
        + (answer.negativeAllocated ? 'placed it.' : 'leaves it Pending.')),
    requests.length ? table([
      ['Request', (r) => h('strong', {}, r.name)],
      ['Class', (r) => r.deviceClassName],
      ['Original', (r) => h('span', { class: 'negative-original', dataset: { request: r.name } }, String(r.originalMatches))],
      ['Negative', (r) => h('span', { class: 'negative-matches', dataset: { request: r.name } }, String(r.negativeMatches))],
      ['Negative selector', (r) => [h('code', {}, r.negativeSelector), h('div', { class: 'muted' }, r.method),
        r.errors.length ? h('ul', { class: 'selector-errors' }, r.errors.map((e) => h('li', {}, e))) : null]],
    ], requests, { rowClass: (r) => (r.errors.length || r.negativeMatches || !r.originalMatches ? 'problem' : undefined) }) : null,
    answer.pendingReason ? h('details', {}, h('summary', {}, 'Why the allocator leaves it Pending'),
      h('p', {}, answer.pendingReason)) : null,
  ];
}
