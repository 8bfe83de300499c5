// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The template editor: a ResourceClaimTemplate in YAML (CodeMirror 6), its CEL selectors
// checked as you type by the server's compiler, errors underlined at their line:column; beside
// it the template checked by the server (templates/check): match counts per request on every
// change, and after a pause where copies fit or why not, findings, in the cluster's release or
// one chosen.
// Above it the actions on the text (editor_actions.js): open a template of the cluster
// (?from=NS/NAME), the negative control, a server-side dry run shown as a diff, apply after a
// confirmation, and save (Ctrl+S) as a YAML file.

import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter } from '@codemirror/lint';
import { h, fill } from '../dom.js';
import { findExpressions, offsetOf } from '../selectors_in_yaml.js';
import { STARTER } from '../starter_template.js';
import { RELEASES, checkSection } from './template_check.js';
import { editorActions } from './editor_actions.js';

export { STARTER };

const CHECK_DELAY_MS = 300;

// Colours from the page's theme variables, so light and dark both read well.
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--accent)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--ok)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--warn)' },
  { tag: [tags.comment, tags.meta], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.keyword, tags.operator, tags.punctuation], color: 'var(--blocked)' },
]);

// The nonce the server put in this page's Content-Security-Policy: the editor's injected
// styles carry it, inline styles without it are refused.
function cspNonce() {
  return document.querySelector('meta[name="csp-nonce"]')?.content ?? '';
}

export const editor = {
  name: 'editor',
  title: 'Editor',
  render(context) {
    const host = h('div', { class: 'editor-host', id: 'template-editor' });
    const problems = h('ul', { class: 'diagnostics', id: 'editor-problems', 'aria-live': 'polite' });
    const release = h('select', { id: 'check-release', 'aria-label': 'Kubernetes release to check in' },
      h('option', { value: '' }, "the cluster's release"),
      RELEASES.map((r) => h('option', { value: r }, `Kubernetes ${r}`)));
    release.value = RELEASES.includes(context.params.get('release')) ? context.params.get('release') : '';
    const gates = h('input', { type: 'text', id: 'check-gates', spellcheck: 'false', size: 28,
      placeholder: 'feature gates, e.g. DRAPrioritizedList=false', 'aria-label': 'Feature gates',
      value: context.params.get('featureGates') ?? '' });
    const state = h('span', { class: 'muted', id: 'check-state', 'aria-live': 'polite' });
    const result = h('div', { id: 'check-result' }, h('p', { class: 'muted' }, 'Checking…'));
    const pane = h('aside', { class: 'details check-pane', id: 'check-pane', 'aria-label': 'Template check' },
      h('h3', {}, 'Template check'),
      h('div', { class: 'check-options' }, h('label', {}, 'Check in ', release), gates, state),
      result);
    const checkOptions = () => ({ kubernetesVersion: release.value, featureGates: gates.value.trim() });
    const actions = editorActions(context, () => view.state.doc.toString(), checkOptions);
    fill(context.root, h('h2', {}, 'Template editor'),
      h('div', { class: 'split editor-split' }, h('div', {}, actions.bar, host, problems, actions.result), pane));
    context.api.get('info').then((info) => {
      if (info.kubernetesVersion) release.options[0].textContent = `the cluster's (${info.kubernetesVersion})`;
    }).catch(() => {});

    // On every change the quick half of the check (match counts, no simulation), one request
    // in flight at a time; after a pause the whole check with the allocation simulation. An
    // answer is shown only while no newer text or option is waiting or asked about, and a
    // quick answer never replaces the whole check of the same text.
    let latest = 0;
    let wholeShown = 0;
    let timer = null;
    let quickInFlight = false;
    let quickAsked = 0;
    const showFailure = (error) => {
      if (error.status === 400) {
        fill(result, h('p', { class: 'warn', id: 'check-error' }, error.message));
        state.textContent = '';
      } else {
        state.textContent = 'not checked';
        context.fail(error);
      }
    };
    // An empty editor has nothing to check (the API refuses an empty body).
    const isEmpty = (text) => text.trim() === '';
    const showEmpty = () => {
      fill(result, h('p', { class: 'muted', id: 'check-empty' }, 'The editor is empty.'));
      state.textContent = '';
    };
    const runQuick = async () => {
      if (quickInFlight || quickAsked === latest) return;
      quickInFlight = true;
      const serial = latest;
      quickAsked = serial;
      const text = view.state.doc.toString();
      const current = () => serial === latest && wholeShown !== serial && context.alive();
      if (isEmpty(text)) {
        showEmpty();
      } else {
        try {
          const answer = await context.api.post('templates/check', text,
            { ...checkOptions(), simulate: 'false' });
          if (current()) fill(result, checkSection(answer, { simulating: !answer.error }));
        } catch (error) {
          if (current()) showFailure(error);
        }
      }
      quickInFlight = false;
      if (context.alive()) runQuick();
    };
    const runCheck = async (serial, text) => {
      if (isEmpty(text)) {
        wholeShown = serial;
        showEmpty();
        return;
      }
      state.textContent = 'checking…';
      try {
        const answer = await context.api.post('templates/check', text, checkOptions());
        if (serial !== latest || !context.alive()) return;
        wholeShown = serial;
        fill(result, checkSection(answer));
        state.textContent = '';
      } catch (error) {
        if (serial !== latest || !context.alive()) return;
        wholeShown = serial;
        showFailure(error);
      }
    };
    const scheduleCheck = (delay = CHECK_DELAY_MS) => {
      clearTimeout(timer);
      const serial = ++latest;
      runQuick();
      timer = setTimeout(() => runCheck(serial, view.state.doc.toString()), delay);
    };
    const keepOptions = () => {
      const next = Object.fromEntries(context.params);
      next.release = release.value;
      next.featureGates = gates.value.trim();
      context.setParams(next);
      scheduleCheck(0);
    };
    release.addEventListener('change', keepOptions);
    gates.addEventListener('change', keepOptions);
    const check = linter(async (view) => {
      const text = view.state.doc.toString();
      const diagnostics = [];
      const listed = [];
      for (const found of findExpressions(text)) {
        try {
          const result = await context.api.get('cel/check', { expr: found.expression });
          for (const d of result.diagnostics) {
            const from = Math.min(offsetOf(found, d.line, d.column), text.length);
            diagnostics.push({ from, to: Math.min(from + 1, text.length), severity: d.severity, message: d.message });
            listed.push(h('li', { class: d.severity }, `${view.state.doc.lineAt(from).number}:${from - view.state.doc.lineAt(from).from + 1}: ${d.severity}: ${d.message}`));
          }
        } catch (error) {
          context.fail(error);
        }
      }
      if (context.alive()) fill(problems, listed);
      return diagnostics;
    }, { delay: 150 });
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: STARTER,
        extensions: [
          EditorView.cspNonce.of(cspNonce()),
          lineNumbers(), highlightActiveLine(), history(),
          keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => { actions.save(); return true; } },
            ...defaultKeymap, ...historyKeymap]),
          yaml(), syntaxHighlighting(highlight), check, lintGutter(),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) {
              scheduleCheck();
              actions.textChanged();
            }
          }),
        ],
      }),
    });
    const from = context.params.get('from');
    if (from) {
      context.api.get(`templates/${from}`).then((template) => {
        const object = { ...template.object };
        if (object.metadata) {
          // What its author wrote: the labels stay, so that Save and an apply keep them; what
          // the server set (uid, resourceVersion, managedFields, ...) goes.
          const { name, namespace, labels } = object.metadata;
          object.metadata = labels && Object.keys(labels).length ? { name, namespace, labels } : { name, namespace };
        }
        delete object.status;
        // JSON is YAML: the check and the selectors' diagnostics read it as it is.
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: JSON.stringify(object, null, 2) } });
      }).catch((error) => {
        context.fail(error);
        scheduleCheck(0);
      });
    } else {
      scheduleCheck(0);
    }
    // The cluster moved: the same text may match and fit otherwise now.
    const unsubscribe = context.channel.view('devices', () => scheduleCheck());
    return () => {
      clearTimeout(timer);
      unsubscribe();
      view.destroy();
    };
  },
};
