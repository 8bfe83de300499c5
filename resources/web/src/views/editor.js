// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The template editor: a ResourceClaimTemplate in YAML (CodeMirror 6), its CEL selectors
// checked as you type by the server's compiler, errors underlined at their line:column. Match
// counts, the simulation, the negative control and apply come with the core template check
// (issue 18).

import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter } from '@codemirror/lint';
import { h, fill } from '../dom.js';
import { findExpressions, offsetOf } from '../selectors_in_yaml.js';

export const STARTER = `apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu
  namespace: default
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA')
`;

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
    fill(context.root, h('h2', {}, 'Template editor'), host, problems);
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
          keymap.of([...defaultKeymap, ...historyKeymap]),
          yaml(), syntaxHighlighting(highlight), check, lintGutter(),
        ],
      }),
    });
    const from = context.params.get('from');
    if (from) {
      context.api.get(`templates/${from}`).then((template) => {
        const object = { ...template.object };
        if (object.metadata) {
          object.metadata = { name: object.metadata.name, namespace: object.metadata.namespace };
        }
        delete object.status;
        // JSON is YAML; the editor keeps it as it is until the core template check lands.
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: JSON.stringify(object, null, 2) } });
      }).catch((error) => context.fail(error));
    }
    return () => view.destroy();
  },
};
