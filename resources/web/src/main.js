// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The DRA Console web console, served by `dractl serve` at /ui/. The page only presents: every
// figure comes from the console API (/console/v1/), computed by the server with the same core
// code `dractl` prints, and stays current over one WebSocket.

import { Api, Channel, UnauthorizedError } from './api.js';
import { describeLeftOut } from './left_out.js';
import { h, fill } from './dom.js';
import { parseHash, hashWithoutToken, formatHash } from './location.js';
import { CommandPalette } from './palette.js';
import { viewIndexOfKey, viewShortcut } from './shortcuts.js';
import { VIEWS } from './views/index.js';

const TOKEN_KEY = 'draconsole.token';
const THEME_KEY = 'draconsole.theme';

class ConsolePage {
  constructor() {
    this.main = document.getElementById('view');
    this.statusText = document.getElementById('status');
    this.cleanup = null;
    this.renderSerial = 0;
  }

  start() {
    // The token rides in the fragment once; it is kept for this tab only and leaves the
    // address bar at once, with the route it came with left in place.
    const { token } = parseHash(window.location.hash);
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
      history.replaceState(null, '', window.location.pathname + hashWithoutToken(window.location.hash));
    }
    this.token = sessionStorage.getItem(TOKEN_KEY) ?? '';
    applyTheme(localStorage.getItem(THEME_KEY));
    this.buildNavigation();
    this.palette = new CommandPalette(this);
    document.getElementById('theme').addEventListener('click', () => {
      const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
      localStorage.setItem(THEME_KEY, next);
      applyTheme(next);
    });
    document.getElementById('login').addEventListener('submit', (event) => {
      event.preventDefault();
      const value = document.getElementById('token').value.trim();
      if (!value) return;
      sessionStorage.setItem(TOKEN_KEY, value);
      window.location.reload();
    });
    document.addEventListener('keydown', (event) => this.onKey(event));
    if (!this.token) {
      this.askForToken();
      return;
    }
    this.api = new Api(this.token);
    this.channel = new Channel(this.token, { onState: (state) => this.setLive(state) });
    window.addEventListener('hashchange', () => this.route());
    this.api.get('info').then((info) => this.showInfo(info)).catch((error) => this.fail(error));
    this.route();
  }

  buildNavigation() {
    const nav = document.getElementById('nav');
    for (const [index, view] of VIEWS.entries()) {
      nav.append(h('a', { href: formatHash(view.name, view.defaultArg ?? ''), dataset: { route: view.name },
        title: viewShortcut(index) ? `${view.title} (${viewShortcut(index)})` : view.title }, view.title));
    }
  }

  showInfo(info) {
    const stale = (info.streams ?? []).filter((s) => !['watching', 'synced', 'listing'].includes(s.state));
    document.getElementById('cluster').textContent =
      `${info.cluster} · Kubernetes ${info.kubernetesVersion || '?'}${info.writable ? ' · writable' : ''}`;
    document.getElementById('left-out').textContent = describeLeftOut(info.leftOut);
    if (stale.length) {
      document.getElementById('streams').textContent =
        `${stale.length} stream(s) not current: ${stale.map((s) => `${s.kind}${s.namespace ? ' in ' + s.namespace : ''} ${s.state}`).join(', ')}`;
    }
  }

  setLive(state) {
    document.getElementById('live').textContent = state === 'live' ? '● live' : '○ reconnecting…';
    document.getElementById('live').className = state;
  }

  setStatus(text) {
    this.statusText.textContent = text;
  }

  askForToken() {
    document.getElementById('login').hidden = false;
    this.setStatus('the server wants a token');
  }

  fail(error) {
    if (error instanceof UnauthorizedError) {
      sessionStorage.removeItem(TOKEN_KEY);
      this.channel?.close();
      this.askForToken();
      return;
    }
    this.setStatus(String(error?.message ?? error));
  }

  navigate(name, arg = '', params = {}) {
    window.location.hash = formatHash(name, arg, params);
  }

  // Shows the view the address names; the previous one unsubscribes.
  route() {
    const { name, arg, params } = parseHash(window.location.hash);
    const view = VIEWS.find((candidate) => candidate.name === name);
    if (!view) {
      history.replaceState(null, '', window.location.pathname + formatHash('overview'));
      this.route();
      return;
    }
    for (const a of document.querySelectorAll('#nav a')) {
      a.classList.toggle('active', a.dataset.route === name);
      if (a.dataset.route === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    const key = `${name}/${arg}`;
    if (this.current === key && this.cleanup?.update) {
      this.cleanup.update(params); // same view, new parameters (a filter, a selection)
      return;
    }
    this.cleanup?.();
    this.current = key;
    const serial = ++this.renderSerial;
    document.title = `${view.title} · DRA Console`;
    this.setStatus('');
    fill(this.main);
    this.main.dataset.view = name;
    const context = {
      api: this.api,
      channel: this.channel,
      root: this.main,
      arg,
      params,
      page: this,
      alive: () => serial === this.renderSerial,
      fail: (error) => this.fail(error),
      setStatus: (text) => this.setStatus(text),
      navigate: (...args) => this.navigate(...args),
      // Replaces the parameters of the address without showing the view again.
      setParams: (next) => {
        history.replaceState(null, '', window.location.pathname + formatHash(name, arg, next));
      },
    };
    this.cleanup = view.render(context) ?? null;
  }

  onKey(event) {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      this.palette.open();
      return;
    }
    const index = viewIndexOfKey(event);
    if (index >= 0) {
      const view = VIEWS[index];
      if (view) {
        event.preventDefault();
        this.navigate(view.name, view.defaultArg ?? '');
      }
    }
  }
}

function applyTheme(theme) {
  const dark = theme ? theme === 'dark' : window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

new ConsolePage().start();
