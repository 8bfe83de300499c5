// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The console API (/console/v1/) with the bearer token, and the page's one WebSocket.

import { bearerProtocol, webSocketUrl } from './location.js';

export class UnauthorizedError extends Error {
  constructor() {
    super('the server wants a valid token');
  }
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// The query string of `params`, leaving out empty values.
export function queryString(params = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export class Api {
  constructor(token, fetchImpl = globalThis.fetch.bind(globalThis)) {
    this.token = token;
    this.fetch = fetchImpl;
  }

  // GET /console/v1/<path>?<params> as JSON; throws UnauthorizedError or ApiError.
  async get(path, params) {
    return this.request('GET', path, params);
  }

  // POST /console/v1/<path>?<params> with `body` (text, sent as it is) and the answer as JSON:
  // the template check reads the text to check from the body. Throws as get() does.
  async post(path, body, params) {
    return this.request('POST', path, params, body);
  }

  async request(method, path, params, body) {
    const headers = { Accept: 'application/json', Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['Content-Type'] = 'text/plain; charset=utf-8';
    const response = await this.fetch(`/console/v1/${path}${queryString(params)}`, {
      method, headers, body, cache: 'no-store',
    });
    if (response.status === 401) throw new UnauthorizedError();
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, answer?.error?.message ?? `HTTP ${response.status}`);
    return answer;
  }
}

// The page's one WebSocket (/console/v1/ws, docs/web-console-protocol.md): view subscriptions
// ("this view changed") and Kubernetes watches, re-subscribed after a reconnect; watches resume
// from the last resourceVersion they saw, and relist only when the server says it is too old.
export class Channel {
  constructor(token, { location = globalThis.location, WebSocketImpl = globalThis.WebSocket,
    onState = () => {}, retryMs = 1000 } = {}) {
    this.token = token;
    this.location = location;
    this.WebSocketImpl = WebSocketImpl;
    this.onState = onState;
    this.retryMs = retryMs;
    this.subscriptions = new Map(); // id -> {message, handler, resourceVersion}
    this.nextId = 1;
    this.socket = null;
    this.closed = false;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const socket = new this.WebSocketImpl(webSocketUrl(this.location, '/console/v1/ws'),
      ['draconsole.console.v1', bearerProtocol(this.token)]);
    this.socket = socket;
    socket.onopen = () => {
      this.onState('live');
      for (const [id, subscription] of this.subscriptions) this.sendSubscribe(id, subscription);
    };
    socket.onmessage = (message) => this.receive(JSON.parse(message.data));
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.onState('reconnecting');
      setTimeout(() => this.connect(), this.retryMs);
    };
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }

  send(message) {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  sendSubscribe(id, subscription) {
    const message = { ...subscription.message, type: 'subscribe', id };
    if (message.watch && subscription.resourceVersion) {
      message.watch = { ...message.watch, resourceVersion: subscription.resourceVersion };
    }
    this.send(message);
  }

  // Follows a computed view: `onChanged({rev, kinds})` after every change the server applied
  // (and after a reconnect, when changes may have been missed). Returns the unsubscribe.
  view(name, onChanged) {
    return this.add({ view: name }, (message) => {
      if (message.type === 'changed') onChanged(message);
      if (message.type === 'subscribed' && this.reconnected) onChanged(message);
    });
  }

  // Follows a Kubernetes watch of `path` from `resourceVersion`: `onEvent(event)` per watch
  // event; `onRelist()` when the server no longer has the history to resume from (410): the
  // caller lists again and calls the returned resume(rv).
  watch(path, resourceVersion, { onEvent, onRelist }) {
    const id = `w${this.nextId++}`;
    const subscription = { message: { watch: { path } }, resourceVersion, handler: null };
    subscription.handler = (message) => {
      if (message.type !== 'event') return;
      const event = message.event;
      const rv = event?.object?.metadata?.resourceVersion;
      if (event.type === 'ERROR') {
        subscription.resourceVersion = '';
        this.send({ type: 'unsubscribe', id });
        onRelist?.();
        return;
      }
      if (rv) subscription.resourceVersion = rv;
      if (event.type !== 'BOOKMARK') onEvent(event);
    };
    this.subscriptions.set(id, subscription);
    this.sendSubscribe(id, subscription);
    return {
      stop: () => this.remove(id),
      resume: (rv) => {
        subscription.resourceVersion = rv;
        this.sendSubscribe(id, subscription);
      },
    };
  }

  add(message, handler) {
    const id = `s${this.nextId++}`;
    const subscription = { message, handler };
    this.subscriptions.set(id, subscription);
    this.sendSubscribe(id, subscription);
    return () => this.remove(id);
  }

  remove(id) {
    if (this.subscriptions.delete(id)) this.send({ type: 'unsubscribe', id });
  }

  receive(message) {
    if (message.type === 'hello') {
      this.reconnected = this.helloSeen === true;
      this.helloSeen = true;
      this.rev = message.rev;
      return;
    }
    if (message.type === 'error' && !message.id) {
      console.warn(`console channel: ${message.message}`);
      return;
    }
    this.subscriptions.get(message.id)?.handler?.(message);
  }
}
