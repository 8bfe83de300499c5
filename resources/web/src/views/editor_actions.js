// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The editor's actions on its text: open a template of the cluster, the negative control (the
// server's, as `dractl negative-control` prints it), a server-side dry run shown as a diff of
// labels and spec against the object in the cluster, apply after a confirmation, and save the
// text as a file. Dry run and apply go to the Kubernetes API the server serves with the page's
// token, as `kubectl apply --server-side` does; a server that takes no writes (a cache, a
// read-only mirror) says so and the buttons stay disabled.

import { h, fill } from '../dom.js';
import { applyPath, identityProblem, kubeRequest, lookupPath, manifestIdentity, statusLines,
  FIELD_MANAGER } from '../kube_apply.js';
import { foldUnchanged, objectDiff } from '../line_diff.js';
import { negativeControlSection } from './template_check.js';

const READ_ONLY = 'This server takes no writes (a cache or a read-only mirror): dry run and apply '
  + 'need a writable server, such as `dractl serve --demo`.';

function diffView(diff) {
  return h('pre', { class: 'diff', id: 'dry-run-diff' }, foldUnchanged(diff).map((line) => (line.op === '…'
    ? h('span', { class: 'diff-fold' }, `  … ${line.count} unchanged line${line.count === 1 ? '' : 's'}\n`)
    : h('span', { class: { '+': 'diff-add', '-': 'diff-del', ' ': 'diff-same' }[line.op] }, `${line.op} ${line.text}\n`))));
}

function refusal(title, answer) {
  const [message, ...causes] = statusLines(answer.body, answer.status);
  return [h('p', { class: 'warn', id: 'write-error' }, `${title}: ${message}`),
    causes.length ? h('ul', { class: 'selector-errors', id: 'write-causes' }, causes.map((c) => h('li', {}, c))) : null];
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const anchor = h('a', { href: url, download: name, hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The toolbar and the pane its results go to. `getText()` reads the editor; `checkOptions()`
// gives the release options of the check. Call textChanged() on every edit: an apply applies
// only the text its dry run showed.
export function editorActions(context, getText, checkOptions) {
  const result = h('section', { id: 'action-result', class: 'action-result', 'aria-live': 'polite' });
  const note = h('span', { class: 'muted', id: 'write-state' });
  const open = h('select', { id: 'open-template', 'aria-label': 'Open a template of the cluster' },
    h('option', { value: '' }, 'Open…'));
  const button = (id, label, title) => h('button', { type: 'button', id, title }, label);
  const negative = button('negative-control', 'Negative control',
    'The same claim with selectors that must match nothing, checked on the inventory');
  const dryRun = button('dry-run', 'Dry-run diff', 'Server-side apply with dryRun=All, shown as a diff');
  const apply = button('apply', 'Apply…', 'Server-side apply of the text the dry run showed');
  const save = button('save', 'Save', 'Download the text as a YAML file (Ctrl+S)');
  apply.disabled = true;
  const bar = h('div', { class: 'editor-actions', role: 'toolbar', 'aria-label': 'Template actions' },
    open, negative, dryRun, apply, save, note);

  let writable = false;
  let reviewed = null; // {text, identity} of the latest dry run that succeeded
  const show = (...children) => {
    if (!context.alive()) return;
    fill(result, children);
    result.scrollIntoView?.({ block: 'nearest' });
  };

  context.api.get('templates').then((answer) => {
    for (const t of answer.templates ?? []) {
      open.append(h('option', { value: `${t.namespace}/${t.name}` }, `${t.namespace}/${t.name}`));
    }
    open.value = context.params.get('from') ?? '';
  }).catch((error) => context.fail(error));
  open.addEventListener('change', () => {
    if (open.value) context.navigate('editor', '', { ...Object.fromEntries(context.params), from: open.value });
  });
  context.api.get('info').then((info) => {
    writable = Boolean(info.writable);
    dryRun.disabled = !writable;
    if (!writable) {
      note.textContent = 'read-only server: no dry run or apply';
      note.title = READ_ONLY;
      dryRun.title = READ_ONLY;
      apply.title = READ_ONLY;
    }
  }).catch((error) => context.fail(error));
  dryRun.disabled = true; // until the server said it takes writes

  negative.addEventListener('click', async () => {
    show(h('p', { class: 'muted' }, 'Building the negative control…'));
    try {
      const answer = await context.api.post('templates/negative-control', getText(), checkOptions());
      show(h('h4', {}, 'Negative control'), negativeControlSection(answer));
    } catch (error) {
      if (error.status === 400) show(h('p', { class: 'warn', id: 'negative-error' }, error.message));
      else context.fail(error);
    }
  });

  dryRun.addEventListener('click', async () => {
    const text = getText();
    const identity = manifestIdentity(text);
    const problem = identityProblem(identity);
    reviewed = null;
    apply.disabled = true;
    if (problem) {
      show(h('p', { class: 'warn', id: 'write-error' }, `Cannot apply: ${problem}.`));
      return;
    }
    const token = context.api.token;
    const label = `${identity.kind} ${identity.namespace || 'default'}/${identity.name}`;
    show(h('p', { class: 'muted' }, `Dry run of ${label}…`));
    try {
      const current = await kubeRequest(token, 'GET', lookupPath(identity));
      if (current.status !== 200) {
        show(refusal(`Reading ${label}`, current));
        return;
      }
      const before = current.body?.items?.[0] ?? null;
      const after = await kubeRequest(token, 'PATCH', applyPath(identity, { dryRun: true }),
        { body: text, contentType: 'application/apply-patch+yaml' });
      if (after.status >= 300) {
        show(h('h4', {}, 'Dry run refused'), refusal(`The server refuses ${label}`, after));
        return;
      }
      const diff = objectDiff(before, after.body);
      const changed = diff.some((line) => line.op !== ' ');
      reviewed = { text, identity, label };
      apply.disabled = !changed && before !== null;
      show(h('h4', {}, 'Dry run'),
        h('p', { id: 'dry-run-summary', dataset: { change: before ? (changed ? 'update' : 'none') : 'create' } },
          before ? (changed ? `Applying changes ${label} (labels and spec; nothing was stored):` : `${label} is already as the text says: applying changes nothing.`)
            : `${label} is not in the cluster: applying creates it (nothing was stored):`),
        changed || !before ? diffView(diff) : null,
        h('p', { class: 'muted' }, `Server-side apply as ${FIELD_MANAGER}, dryRun=All.`));
    } catch (error) {
      show(h('p', { class: 'warn', id: 'write-error' }, `Dry run failed: ${error.message}`));
    }
  });

  apply.addEventListener('click', () => {
    if (!reviewed) return;
    const { text, identity, label } = reviewed;
    const confirm = h('button', { type: 'button', id: 'apply-confirm', class: 'danger' }, `Apply ${label}`);
    const cancel = h('button', { type: 'button', id: 'apply-cancel' }, 'Cancel');
    const strip = h('div', { class: 'confirm', role: 'alertdialog', 'aria-label': 'Confirm apply' },
      h('p', {}, `Apply ${label} to the cluster as ${FIELD_MANAGER}? This changes the cluster.`), confirm, cancel);
    result.prepend(strip);
    cancel.addEventListener('click', () => strip.remove());
    confirm.addEventListener('click', async () => {
      confirm.disabled = true;
      try {
        const answer = await kubeRequest(context.api.token, 'PATCH', applyPath(identity, { dryRun: false }),
          { body: text, contentType: 'application/apply-patch+yaml' });
        if (answer.status >= 300) {
          show(h('h4', {}, 'Apply refused'), refusal(`The server refuses ${label}`, answer));
          return;
        }
        reviewed = null;
        apply.disabled = true;
        show(h('p', { class: 'verdict fits', id: 'apply-result', dataset: { status: String(answer.status) } },
          `${label} ${answer.status === 201 ? 'created' : 'configured'} (resourceVersion ${answer.body?.metadata?.resourceVersion ?? '?'}).`));
      } catch (error) {
        show(h('p', { class: 'warn', id: 'write-error' }, `Apply failed: ${error.message}`));
      }
    });
  });

  save.addEventListener('click', () => {
    const text = getText();
    download(`${manifestIdentity(text).name || 'template'}.yaml`, text);
  });

  return {
    bar,
    result,
    save: () => save.click(),
    // The text changed: the dry run shown is no longer what an apply would send.
    textChanged() {
      if (!reviewed) return;
      reviewed = null;
      apply.disabled = true;
      result.querySelector('#dry-run-summary')?.append(' (the text changed since: run the dry run again to apply)');
    },
  };
}
