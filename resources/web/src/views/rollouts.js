// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Rollouts from the device plugin to DRA. The timeline, gates, audit chain and verbs come with
// the core rollout start (issue 18); until then the page says how to follow one from a shell.

import { h, fill } from '../dom.js';

export const rollouts = {
  name: 'rollouts',
  title: 'Rollouts',
  render(context) {
    const name = context.arg;
    fill(context.root, h('h2', {}, 'Rollouts', name ? h('span', { class: 'muted' }, ` ${name}`) : ''),
      h('div', { class: 'banner' },
        h('p', {}, 'Rollouts are shown here once the console API serves them. Meanwhile:'),
        h('pre', {}, `dractl rollout status${name ? ` ${name}` : ''} -w\ndractl rollout abort ${name || 'NAME'}   # rollback is always available`)));
    context.setStatus('');
  },
};
