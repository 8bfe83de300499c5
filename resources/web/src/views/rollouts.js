// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Rollouts from the device plugin to DRA (baseline → canary → shadow → cutover), as the core's
// rollout documents give them (GET /console/v1/rollouts[/NAME], the JSON of `dractl rollout
// status -o json`; twins: `dractl console-api rollouts[/NAME]`):
// - #/rollouts: every rollout of the server's state file, its stage, who drives it, and
//   "Start from plan…" (a RolloutPlan file POSTed to rollouts, started as `dractl rollout
//   start` starts it) when the server runs rollout controllers (`dractl serve --demo`);
// - #/rollouts/<name>: the timeline, the gates of the stage with their checks, evidence and
//   topology pictures, the verbs (enabled exactly as the server's `verbs` list says; Abort /
//   roll back is always shown), a reason field, a confirmation for abort, reject and finalise,
//   the controller's messages and the audit log with the verification of its hash chain.
// Verbs are POSTs to rollouts/NAME/VERB with {"reason"}, queued for the controller as `dractl
// rollout VERB` queues them. The page follows the "rollouts" view of the console's WebSocket:
// the server says when the state file was written (by its controllers, a verb, or another
// process's `dractl rollout run`) and the page loads what it shows again.

import { h, fill, link, table } from '../dom.js';
import { follow } from './live.js';

// The buttons in the desktop panel's order; start goes through "Start from plan…".
const VERBS = [
  ['promote', 'Promote'],
  ['pause', 'Pause'],
  ['resume', 'Resume'],
  ['abort', 'Abort / roll back'],
  ['retry-gate', 'Retry gate'],
  ['finalise', 'Finalise'],
  ['reject', 'Reject variant'],
];
const DESTRUCTIVE = {
  abort: 'Roll back to the baseline: traffic, the baseline\'s replicas, then the canary and its claims removed.',
  reject: 'Roll back and mark this DRA variant rejected for the workload.',
  finalise: 'Delete the old baseline Deployment. This cannot be rolled back.',
};

function timeText(ms) {
  return ms ? new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—';
}

function stageText(rollout) {
  if (rollout.stage === 'Paused') return `Paused (in ${rollout.pausedStage})`;
  return rollout.stageLabel || rollout.stage;
}

function driverText(rollout) {
  const c = rollout.controller;
  if (!c || c.lease !== 'live') {
    return rollout.verbs?.length && !['RolledBack', 'Aborted', 'Rejected', 'Finalised'].includes(rollout.stage)
      ? 'not driven' : 'settled';
  }
  return `${c.owner}${rollout.drivenHere ? ' (this server)' : ''}`;
}

function verdictBadge(verdict) {
  return h('span', { class: `badge gate-${verdict.toLowerCase()}`, dataset: { verdict } }, verdict);
}

// "Start from plan…": a file input whose plan is POSTed to rollouts.
function startFromPlan(context, enabled) {
  const input = h('input', { type: 'file', id: 'plan-file', accept: '.yaml,.yml,.json', hidden: true });
  const button = h('button', { type: 'button', id: 'start-from-plan', disabled: !enabled,
    title: enabled ? 'Start a rollout from a RolloutPlan file (pre-flight first)'
      : 'This server runs no rollout controller: dractl rollout start PLAN' }, 'Start from plan…');
  const result = h('span', { id: 'start-result', class: 'muted' });
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    button.disabled = true;
    fill(result, `pre-flight of ${file.name}…`);
    try {
      const answer = await context.api.post('rollouts', await file.text());
      context.navigate('rollouts', answer.rollout);
    } catch (error) {
      fill(result, h('span', { class: 'error-text' }, String(error.message ?? error)));
      button.disabled = false;
    } finally {
      input.value = '';
    }
  });
  return h('span', { class: 'start-plan' }, button, input, ' ', result);
}

function renderList(context) {
  const toolbar = h('div', { class: 'toolbar', id: 'rollout-toolbar' });
  const body = h('div', { id: 'rollout-list' });
  fill(context.root, h('h2', {}, 'Rollouts'), toolbar, body);
  let controllers = null;
  return follow(context, 'rollouts', () => context.api.get('rollouts'), (data) => {
    if (controllers !== data.runsControllers) {
      controllers = data.runsControllers;
      fill(toolbar, startFromPlan(context, controllers),
        controllers ? null : h('span', { class: 'muted' }, ' Rollouts are followed here; a dractl rollout run drives them.'));
    }
    if (!data.rollouts.length) {
      fill(body, h('p', { class: 'muted', id: 'no-rollouts' }, 'No rollouts yet.'));
    } else {
      fill(body, table([
        ['Name', (r) => link(`#/rollouts/${encodeURIComponent(r.id)}`, r.id)],
        ['Workload', (r) => r.workload],
        ['Variant', (r) => r.variant],
        ['Stage', (r) => h('span', { class: `stage stage-${r.stage}`, dataset: { stage: r.stage } }, stageText(r))],
        ['Driven by', (r) => driverText(r)],
        ['Queued', (r) => String(r.pendingVerbs?.length ?? 0)],
        ['Last transition', (r) => timeText(r.history?.at(-1)?.at ?? r.createdAt)],
        ['Updated', (r) => timeText(r.updatedAt)],
      ], data.rollouts, { rowClass: () => 'rollout', onSelect: (r) => context.navigate('rollouts', r.id) }));
    }
    context.setStatus(`${data.rollouts.length} rollout(s)`);
  });
}

// The gates of the current stage, each with its checks and pictures; returns the blob URLs made.
function gateBlocks(gates) {
  const urls = [];
  const blocks = Object.values(gates ?? {}).map((gate) => h('section', { class: `gate gate-${gate.verdict.toLowerCase()}`, dataset: { gate: gate.gate, verdict: gate.verdict } },
    h('h4', {}, `${gate.gate} gate `, verdictBadge(gate.verdict), h('span', { class: 'muted' }, ` ${timeText(gate.at)}`)),
    h('ul', { class: 'checks' }, gate.checks.map((check) => h('li', { dataset: { verdict: check.verdict } },
      verdictBadge(check.verdict), ' ', h('strong', {}, check.name), ': ', check.evidence))),
    Object.entries(gate.pictures ?? {}).map(([title, svg]) => {
      // An image, not markup: the drawing cannot run anything on the page.
      const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
      urls.push(url);
      return h('figure', { class: 'gate-picture' }, h('img', { src: url, alt: title }), h('figcaption', {}, title));
    })));
  return { blocks, urls };
}

// The plan's owner, second approval and maintenance window, as the core words them
// (core/rollout/governance.h).
function governanceStats(g) {
  return (g?.facts ?? []).map((fact) => h('div', { class: 'stat' },
    h('span', { class: 'stat-label' }, fact.label[0].toUpperCase() + fact.label.slice(1)),
    h('span', {
      class: `stat-value ${fact.label === 'window' ? (g.maintenanceWindow.open ? 'ok-text' : 'warn-text') : ''}`,
      id: `rollout-${fact.label}`,
      dataset: fact.label === 'window' ? { open: String(g.maintenanceWindow.open) } : {},
    }, fact.text)));
}

function renderDetail(context, name) {
  const heading = h('h2', {}, link('#/rollouts', 'Rollouts'), ' / ', name);
  const summary = h('div', { class: 'totals', id: 'rollout-summary' });
  const reason = h('input', { type: 'text', id: 'verb-reason', placeholder: 'Reason (kept in the history and the audit log)', size: 48 });
  // Outside the plan's maintenance window a verb needs this and a reason; shown only for such plans.
  const force = h('input', { type: 'checkbox', id: 'verb-force' });
  const forceLabel = h('label', { id: 'verb-force-label', hidden: true, title: 'Act outside the maintenance window (needs a reason; recorded)' }, force, ' Force outside the window');
  const buttons = new Map(VERBS.map(([verb, label]) => [verb, h('button', { type: 'button', class: `verb verb-${verb}`, dataset: { verb } }, label)]));
  const confirmBox = h('div', { class: 'banner warn', id: 'verb-confirm', hidden: true });
  const result = h('p', { id: 'verb-result', class: 'muted' });
  const again = h('span', { id: 'start-again', class: 'muted' });
  const gates = h('div', { id: 'rollout-gates' });
  const pending = h('div', { id: 'rollout-pending' });
  const timeline = h('ol', { class: 'timeline', id: 'rollout-timeline' });
  const messages = h('ul', { class: 'messages', id: 'rollout-messages' });
  const verification = h('p', { id: 'audit-verification' });
  const audit = h('div', { id: 'rollout-audit' });
  fill(context.root, heading, summary,
    h('div', { class: 'toolbar verbs', id: 'rollout-verbs' }, reason, forceLabel, [...buttons.values()], again),
    confirmBox, result,
    h('div', { class: 'rollout-columns' },
      h('div', {}, h('h3', {}, 'Gates of this stage'), gates, pending, h('h3', {}, 'Timeline'), timeline),
      h('div', {}, h('h3', {}, 'Controller'), messages, h('h3', {}, 'Audit log'), verification, audit)));

  let gateUrls = [];
  let shownGates = '';
  let current = null;
  let stop = null;

  const give = async (verb) => {
    fill(confirmBox);
    confirmBox.hidden = true;
    fill(result, `${verb}…`);
    try {
      const answer = await context.api.post(`rollouts/${encodeURIComponent(name)}/${verb}`,
        JSON.stringify({ reason: reason.value.trim(), force: force.checked }));
      fill(result, `${verb}: ${answer.result}`);
      result.className = 'ok-text';
      reason.value = '';
      force.checked = false;
    } catch (error) {
      fill(result, `${verb}: ${error.message ?? error}`);
      result.className = 'error-text';
    }
    stop?.refresh();
  };
  for (const [verb, button] of buttons) {
    button.addEventListener('click', () => {
      if (!DESTRUCTIVE[verb]) {
        give(verb);
        return;
      }
      const label = VERBS.find(([v]) => v === verb)[1];
      fill(confirmBox, h('p', {}, h('strong', {}, `${label} ${name}?`), ' ', DESTRUCTIVE[verb]),
        h('button', { type: 'button', id: 'confirm-verb', class: `danger`, dataset: { verb }, onclick: () => give(verb) }, `Yes, ${label.toLowerCase()}`),
        ' ',
        h('button', { type: 'button', id: 'cancel-verb', onclick: () => { confirmBox.hidden = true; } }, 'Cancel'));
      confirmBox.hidden = false;
      confirmBox.querySelector('#confirm-verb').focus();
    });
  }

  const show = (data) => {
    current = data;
    fill(summary,
      h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Stage'),
        h('span', { class: `stat-value stage stage-${data.stage}`, id: 'rollout-stage', dataset: { stage: data.stage } }, stageText(data))),
      h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Workload'), h('span', { class: 'stat-value' }, data.workload)),
      h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Variant'), h('span', { class: 'stat-value' }, data.variant)),
      h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Since'), h('span', { class: 'stat-value' }, timeText(data.stageEnteredAt))),
      h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Attempt'), h('span', { class: 'stat-value' }, `${data.attempt}, baseline replicas ${data.baselineReplicas}`)),
      h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Driven by'), h('span', { class: 'stat-value', id: 'rollout-driver' }, driverText(data))),
      data.pauseReason && data.stage === 'Paused'
        ? h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Paused'), h('span', { class: 'stat-value' }, data.pauseReason)) : null,
      governanceStats(data.governance));
    forceLabel.hidden = !data.governance?.maintenanceWindow;
    const allowed = new Set(data.verbs);
    for (const [verb, button] of buttons) {
      button.disabled = !allowed.has(verb);
      button.title = allowed.has(verb) ? '' : `Not possible at ${data.stage}`;
    }
    fill(again, allowed.has('start') ? ['Start it again: ', link('#/rollouts', 'Start from plan…')] : null);
    const gatesText = JSON.stringify(data.gates);
    if (gatesText !== shownGates) {
      shownGates = gatesText;
      for (const url of gateUrls) URL.revokeObjectURL(url);
      const made = gateBlocks(data.gates);
      gateUrls = made.urls;
      fill(gates, made.blocks.length ? made.blocks : h('p', { class: 'muted' }, 'No gate evaluated in this stage yet.'));
    }
    fill(pending, data.pendingVerbs?.length
      ? h('p', { class: 'muted' }, `Queued for the controller: ${data.pendingVerbs.map((p) => p.command.verb).join(', ')}`) : null);
    fill(timeline, data.timeline.map((t) => h('li', { dataset: { verb: t.verb } },
      h('span', { class: 'muted' }, timeText(t.at)), ' ', h('strong', {}, t.verb), ` ${t.from} → ${t.to}`,
      h('span', { class: 'muted' }, ` by ${t.actor}`), t.note ? h('div', { class: 'note' }, t.note) : null)));
    fill(messages, data.messages.length
      ? data.messages.slice(-12).map((m) => h('li', {}, h('span', { class: 'muted' }, timeText(m.at)), ' ', m.text))
      : h('li', { class: 'muted' }, data.runsControllers ? 'No messages from a controller of this server.' : 'This server runs no controller; see the audit log.'));
    const v = data.audit.verification;
    fill(verification, v.intact
      ? h('span', { class: 'ok-text', dataset: { intact: 'true' } }, `Hash chain intact: ${v.entries} entries, head ${v.headHash.slice(0, 16)}…`)
      : h('span', { class: 'error-text', dataset: { intact: 'false' } }, `Hash chain broken at entry ${v.firstBrokenSeq}: ${v.reason}`));
    fill(audit, table([
      ['#', (e) => String(e.seq)],
      ['Time', (e) => timeText(e.at)],
      ['Actor', (e) => e.actor],
      ['Action', (e) => e.action],
      ['Result', (e) => e.result],
      ['Reason', (e) => e.details?.reason ?? ''],
    ], [...data.audit.entries].reverse(), { rowClass: () => 'audit-entry' }));
    context.setStatus(`${name}: ${stageText(data)} · updated ${timeText(data.updatedAt)}`);
  };
  stop = follow(context, 'rollouts', () => context.api.get(`rollouts/${encodeURIComponent(name)}`), show);
  const cleanup = () => {
    stop();
    for (const url of gateUrls) URL.revokeObjectURL(url);
  };
  cleanup.current = () => current;
  return cleanup;
}

export const rollouts = {
  name: 'rollouts',
  title: 'Rollouts',
  render(context) {
    return context.arg ? renderDetail(context, context.arg) : renderList(context);
  },
};
