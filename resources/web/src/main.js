// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The DRA Console web console: an ES module served by `dractl serve` at /ui/app.js. The pure
// functions below (exported, tested under node) shape API objects into what the page shows;
// the browser part at the end lists and watches the Kubernetes API with the bearer token.

const GROUP = 'resource.k8s.io';

// The resource.k8s.io version the server prefers, from the /apis/resource.k8s.io APIGroup.
export function servedVersion(groupDoc) {
  const preferred = groupDoc?.preferredVersion?.version;
  if (preferred) return preferred;
  const first = groupDoc?.versions?.[0]?.version;
  if (!first) throw new Error('the server serves no resource.k8s.io version');
  return first;
}

function attributeValue(attribute) {
  if (!attribute || typeof attribute !== 'object') return '';
  for (const kind of ['string', 'version', 'int', 'bool']) {
    if (attribute[kind] !== undefined) return String(attribute[kind]);
  }
  return '';
}

// An attribute by its short name, also when it is qualified by a domain ("gpu.nvidia.com/uuid").
export function deviceAttribute(device, name) {
  const attributes = device?.attributes ?? device?.basic?.attributes ?? {};
  if (name in attributes) return attributeValue(attributes[name]);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.endsWith('/' + name)) return attributeValue(value);
  }
  return '';
}

export function isGpuDriver(driver) {
  return typeof driver === 'string' && driver.includes('gpu');
}

export function deviceKey(driver, pool, device) {
  return `${driver}/${pool}/${device}`;
}

function claimName(claim) {
  const ns = claim?.metadata?.namespace ?? '';
  return ns ? `${ns}/${claim.metadata.name}` : claim?.metadata?.name ?? '';
}

// Device key -> the claim ("namespace/name") whose status.allocation holds it.
export function allocatedDevices(claims) {
  const holders = new Map();
  for (const claim of claims ?? []) {
    for (const result of claim?.status?.allocation?.devices?.results ?? []) {
      holders.set(deviceKey(result.driver, result.pool, result.device), claimName(claim));
    }
  }
  return holders;
}

// One row per device of every ResourceSlice, with who holds it.
export function deviceRows(slices, claims) {
  const holders = allocatedDevices(claims);
  const rows = [];
  for (const slice of slices ?? []) {
    const spec = slice?.spec ?? {};
    const driver = spec.driver ?? '';
    const pool = spec.pool?.name ?? '';
    const node = spec.nodeName ?? (spec.allNodes ? '(all nodes)' : '');
    for (const device of spec.devices ?? []) {
      rows.push({
        node, driver, pool, device: device.name,
        productName: deviceAttribute(device, 'productName'),
        uuid: deviceAttribute(device, 'uuid'),
        holder: holders.get(deviceKey(driver, pool, device.name)) ?? '',
      });
    }
  }
  rows.sort((a, b) => a.node.localeCompare(b.node) || a.driver.localeCompare(b.driver)
    || a.pool.localeCompare(b.pool) || a.device.localeCompare(b.device, undefined, { numeric: true }));
  return rows;
}

// Per node: GPU devices published, how many are allocated, how many are free. Nodes without
// GPUs are listed too, with zeros, so the overview shows the whole cluster.
export function nodeSummaries(nodes, slices, claims) {
  const byNode = new Map();
  for (const node of nodes ?? []) {
    const name = node?.metadata?.name;
    if (name) byNode.set(name, { node: name, gpus: 0, allocated: 0, free: 0 });
  }
  for (const row of deviceRows(slices, claims)) {
    if (!isGpuDriver(row.driver) || !row.node) continue;
    const summary = byNode.get(row.node) ?? { node: row.node, gpus: 0, allocated: 0, free: 0 };
    summary.gpus += 1;
    if (row.holder) summary.allocated += 1; else summary.free += 1;
    byNode.set(row.node, summary);
  }
  return [...byNode.values()].sort((a, b) => a.node.localeCompare(b.node));
}

// One row per ResourceClaim: pending (no allocation), allocated, or reserved (for pods).
export function claimRows(claims) {
  return (claims ?? []).map((claim) => {
    const status = claim?.status ?? {};
    const reservedFor = (status.reservedFor ?? []).map((ref) => ref.name);
    const state = reservedFor.length ? 'reserved' : status.allocation ? 'allocated' : 'pending';
    const devices = (status.allocation?.devices?.results ?? []).map((r) => `${r.pool}/${r.device}`);
    return { name: claimName(claim), state, reservedFor, devices };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

// Rows whose any field contains every word of `text`, case-insensitively.
export function filterRows(rows, text) {
  const words = (text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return rows;
  return rows.filter((row) => {
    const haystack = Object.values(row).flat().join(' ').toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

// Splits a watch stream's text into complete JSON events (one per line) and the unfinished rest.
export function splitWatchLines(buffer) {
  const lines = buffer.split('\n');
  const rest = lines.pop();
  const events = lines.filter((line) => line.trim()).map((line) => JSON.parse(line));
  return { events, rest };
}

function objectKey(object) {
  const ns = object?.metadata?.namespace ?? '';
  return `${ns}/${object?.metadata?.name ?? ''}`;
}

// Applies one watch event to a Map of objects by key; false when the watch must re-list (ERROR).
export function applyWatchEvent(objects, event) {
  if (event.type === 'ADDED' || event.type === 'MODIFIED') {
    objects.set(objectKey(event.object), event.object);
  } else if (event.type === 'DELETED') {
    objects.delete(objectKey(event.object));
  } else if (event.type === 'ERROR') {
    return false;
  }
  return true;
}

// The WebSocket subprotocol that carries a bearer token, as kube-apiserver reads it: a browser
// cannot set an Authorization header on a WebSocket. The token is sent as unpadded base64url.
export function bearerProtocol(token) {
  const bytes = new TextEncoder().encode(token);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64url = btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `base64url.bearer.authorization.k8s.io.${base64url}`;
}

// The ws:// or wss:// address of an API path on the server that served `location`.
export function webSocketUrl(location, path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}

// Follows a watch over a WebSocket: every message is one JSON watch event, given to `onEvent`;
// when it returns false the watch is closed. Resolves when the socket closes; rejects when it
// never opened (a proxy that does not pass WebSockets), so the caller can fall back to fetch.
export function watchOverWebSocket(url, token, onEvent, WebSocketImpl = globalThis.WebSocket) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocketImpl(url, ['base64.binary.k8s.io', bearerProtocol(token)]);
    let opened = false;
    socket.onopen = () => {
      opened = true;
    };
    socket.onmessage = (message) => {
      if (onEvent(JSON.parse(message.data)) === false) socket.close();
    };
    // Browsers follow a failed handshake with `close`; some clients only send `error`.
    socket.onerror = () => {
      if (!opened) reject(new Error(`${url}: the WebSocket did not open`));
    };
    socket.onclose = () => {
      if (opened) resolve();
      else reject(new Error(`${url}: the WebSocket did not open`));
    };
  });
}

// The token from a location hash "#token=...", or ''.
export function tokenFromHash(hash) {
  const params = new URLSearchParams((hash ?? '').replace(/^#/, ''));
  return params.get('token') ?? '';
}

// ---- Browser part ----

const TOKEN_KEY = 'draconsole.token';
const RELIST_MS = 30000;

class Console {
  constructor() {
    this.token = '';
    this.resources = {}; // name -> { path, objects: Map }
    this.filter = '';
    this.renderPending = false;
    this.mode = 'starting';
    this.webSockets = undefined; // unknown until the first watch: true once one has opened
  }

  async request(path, init = {}) {
    const response = await fetch(path, {
      ...init,
      headers: { Accept: 'application/json', Authorization: `Bearer ${this.token}` },
      cache: 'no-store',
    });
    if (response.status === 401) throw new UnauthorizedError();
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return response;
  }

  async start() {
    const fromHash = tokenFromHash(window.location.hash);
    if (fromHash) {
      sessionStorage.setItem(TOKEN_KEY, fromHash);
      history.replaceState(null, '', window.location.pathname); // drop the token from the address bar
    }
    this.token = sessionStorage.getItem(TOKEN_KEY) ?? '';
    try {
      const group = await (await this.request(`/apis/${GROUP}`)).json();
      const version = servedVersion(group);
      document.getElementById('version').textContent = `${GROUP}/${version}`;
      this.resources = {
        nodes: { path: '/api/v1/nodes', objects: new Map() },
        slices: { path: `/apis/${GROUP}/${version}/resourceslices`, objects: new Map() },
        claims: { path: `/apis/${GROUP}/${version}/resourceclaims`, objects: new Map() },
        classes: { path: `/apis/${GROUP}/${version}/deviceclasses`, objects: new Map() },
        pods: { path: '/api/v1/pods', objects: new Map() },
      };
      for (const name of Object.keys(this.resources)) this.follow(name);
    } catch (error) {
      this.fail(error);
    }
  }

  fail(error) {
    if (error instanceof UnauthorizedError) {
      sessionStorage.removeItem(TOKEN_KEY);
      document.getElementById('login').hidden = false;
      this.setStatus('the server wants a token');
    } else {
      this.setStatus(String(error.message ?? error));
    }
  }

  setStatus(text) {
    document.getElementById('status').textContent = text;
  }

  // List, then watch from the list's resourceVersion; on any end or error, list again.
  async follow(name) {
    const resource = this.resources[name];
    for (;;) {
      try {
        const list = await (await this.request(resource.path)).json();
        resource.objects = new Map((list.items ?? []).map((item) => [objectKey(item), item]));
        this.scheduleRender();
        await this.watch(resource, list.metadata?.resourceVersion ?? '');
      } catch (error) {
        this.fail(error);
        if (error instanceof UnauthorizedError) return;
        await new Promise((resolve) => setTimeout(resolve, RELIST_MS));
      }
    }
  }

  // Watches from `resourceVersion` over a WebSocket, or over a streamed fetch where WebSockets
  // do not get through; returns when the watch ends.
  async watch(resource, resourceVersion) {
    const query = `?watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(resourceVersion)}`;
    if (this.webSockets !== false) {
      try {
        const url = webSocketUrl(window.location, resource.path + query);
        await watchOverWebSocket(url, this.token, (event) => this.apply(resource, event));
        this.webSockets = true;
        return;
      } catch (error) {
        if (this.webSockets) throw error; // they worked before: relist, then try again
        this.webSockets = false;
      }
    }
    await this.watchOverFetch(resource, query);
  }

  // Applies one watch event and schedules a render; false when the watch must re-list.
  apply(resource, event) {
    if (this.mode !== 'live (watch)') this.mode = 'live (watch)';
    if (event.type === 'BOOKMARK') return true;
    const keep = applyWatchEvent(resource.objects, event);
    this.scheduleRender();
    return keep;
  }

  async watchOverFetch(resource, query) {
    const response = await this.request(resource.path + query);
    this.mode = 'live (watch)';
    this.scheduleRender();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const { events, rest } = splitWatchLines(buffer + value);
      buffer = rest;
      for (const event of events) {
        if (!this.apply(resource, event)) {
          await reader.cancel();
          return;
        }
      }
    }
  }

  scheduleRender() {
    if (this.renderPending) return;
    this.renderPending = true;
    requestAnimationFrame(() => {
      this.renderPending = false;
      this.render();
    });
  }

  items(name) {
    return [...(this.resources[name]?.objects.values() ?? [])];
  }

  render() {
    const nodes = this.items('nodes');
    const slices = this.items('slices');
    const claims = this.items('claims');
    this.setStatus(`${this.mode} · ${nodes.length} nodes · ${slices.length} ResourceSlices · `
      + `${claims.length} claims · ${this.items('classes').length} DeviceClasses · `
      + `${this.items('pods').length} pods · updated ${new Date().toLocaleTimeString()}`);
    fillTable('overview', nodeSummaries(nodes, slices, claims),
      (row) => [row.node, row.gpus, row.allocated, row.free]);
    const devices = filterRows(deviceRows(slices, claims), this.filter);
    fillTable('devices', devices,
      (row) => [row.node, row.driver, row.pool, row.device, row.productName, row.uuid, row.holder || '—']);
    fillTable('claims', claimRows(claims),
      (row) => [row.name, row.state, row.reservedFor.join(', ') || '—', row.devices.join(', ') || '—'],
      (row) => `state-${row.state}`);
  }
}

class UnauthorizedError extends Error {
  constructor() {
    super('unauthorized');
  }
}

function fillTable(id, rows, cells, rowClass) {
  const body = document.querySelector(`#${id} tbody`);
  const fragment = document.createDocumentFragment();
  for (const row of rows) {
    const tr = document.createElement('tr');
    if (rowClass) tr.className = rowClass(row);
    for (const cell of cells(row)) {
      const td = document.createElement('td');
      td.textContent = String(cell);
      tr.appendChild(td);
    }
    fragment.appendChild(tr);
  }
  body.replaceChildren(fragment);
  const count = document.querySelector(`#${id}-count`);
  if (count) count.textContent = String(rows.length);
}

if (typeof document !== 'undefined') {
  const app = new Console();
  document.getElementById('filter').addEventListener('input', (event) => {
    app.filter = event.target.value;
    app.scheduleRender();
  });
  document.getElementById('login').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = document.getElementById('token').value.trim();
    if (!token) return;
    sessionStorage.setItem(TOKEN_KEY, token);
    window.location.reload();
  });
  app.start();
}
