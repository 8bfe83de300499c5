// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Access (`dractl access`): per namespace and DeviceClass who may create claims there, what the
// namespace's quota allows of the class and whether claims may ask for admin access; who may
// write the inventory; what in the cluster's RBAC deserves a second look.

import { h, fill, table } from '../dom.js';
import { follow } from './live.js';

// "User alice" / "ServiceAccount gpu-operator/driver".
export function subjectText(subject) {
  return subject.kind === 'ServiceAccount' ? `${subject.kind} ${subject.namespace}/${subject.name}`
    : `${subject.kind} ${subject.name}`;
}

// The non-admin subjects of grants, each once; "admins only" when there are none.
export function authorsText(grants) {
  const names = [...new Set(grants.filter((g) => !g.admin).map((g) => subjectText(g.subject)))];
  return names.length ? names.join(', ') : 'admins only';
}

// "3/8" of a class's quota in a namespace, "—" where no quota limits it.
export function quotaCell(access) {
  return access.hard === undefined ? '—' : `${access.used}/${access.hard}`;
}

// A <select> of "every …" and `values`, keeping `current` when it is still one of them.
function chooser(label, every, values, current, onChange) {
  const select = h('select', { 'aria-label': label, onchange: (event) => onChange(event.target.value) },
    h('option', { value: '' }, every), values.map((v) => h('option', { value: v, selected: v === current }, v)));
  return h('label', {}, `${label} `, select);
}

export const access = {
  name: 'access',
  title: 'Access',
  render(context) {
    const note = h('p', { class: 'muted' });
    const filters = h('p', { class: 'filters' });
    const body = h('div');
    fill(context.root, h('h2', {}, 'Access per DeviceClass'), note, filters, body);
    const chosen = { namespace: '', class: '' };
    let last = null;
    const show = (data) => {
      last = data;
      note.textContent = data.sourceNote;
      const namespaces = data.namespaces.map((ns) => ns.namespace);
      const classes = [...new Set(data.namespaces.flatMap((ns) => ns.classes.map((c) => c.class)))];
      fill(filters,
        chooser('Namespace', 'every namespace', namespaces, chosen.namespace, (v) => { chosen.namespace = v; show(last); }),
        ' ',
        chooser('Class', 'every class', classes, chosen.class, (v) => { chosen.class = v; show(last); }));
      const rows = data.namespaces.filter((ns) => !chosen.namespace || ns.namespace === chosen.namespace)
        .flatMap((ns) => ns.classes.filter((c) => !chosen.class || c.class === chosen.class).map((c) => ({ ns, c })));
      fill(body,
        rows.length ? table([
          ['Namespace', ({ ns }) => h('strong', {}, ns.namespace)],
          ['Class', ({ c }) => c.class],
          ['Claim authors', ({ ns }) => authorsText(ns.claimAuthors)],
          ['Template authors', ({ ns }) => authorsText(ns.templateAuthors)],
          ['Quota', ({ c }) => quotaCell(c)],
          ['Admin access', ({ c }) => (c.adminAccess ? 'yes' : 'no')],
          ['Verdict', ({ c }) => h('span', { title: c.why }, c.verdict)],
        ], rows, { rowClass: ({ c }) => (c.usable ? undefined : 'problem'), caption: 'Who may claim each class, per namespace' })
          : h('p', { class: 'muted' }, 'No namespaces or no DeviceClasses.'),
        table([
          ['Resource', (w) => h('code', {}, w.resource)],
          ['Writers besides admins', (w) => authorsText(w.grants)],
        ], data.writers, { caption: 'Who may write the inventory' }),
        data.findings.length ? table([
          ['Severity', (f) => h('span', { class: `severity ${f.severity}` }, f.severity)],
          ['Code', (f) => h('code', {}, f.code)],
          ['Finding', (f) => f.message],
        ], data.findings, { caption: 'Findings' }) : h('p', { class: 'muted' }, 'No access findings.'));
    };
    return follow(context, 'access', () => context.api.get('access'), show);
  },
};
