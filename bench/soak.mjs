// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A soak of `dractl serve --demo=scale` (writable, the 5,000-node inventory) on loopback:
//   node bench/soak.mjs DRACTL [--minutes=10] [--watchers=150] [--listers=40] [--writers=10]
//                       [--max-connections=400]
// For the whole run: watchers of ResourceSlices and ResourceClaims that reconnect about every
// minute and resume from the last resourceVersion they saw; listers reading the slices in full
// and in pages of 500; writers patching a label on slices and claims twice a second each; the
// server's RSS sampled every 10 s; one watcher that never reads, which the server must cut off
// without stalling the others. At the end: every watcher's state equals a final list (nothing
// lost), revisions only ever grew on every stream (nothing repeated), the connection and header
// limits hold, and RSS grew at most 5% over the second half. Prints one JSON report and exits 1
// when a check failed. The clients are Node's own HTTP stack: nothing of ours on that side.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dractl = process.argv[2];
if (!dractl) {
  console.error('usage: node bench/soak.mjs DRACTL [--minutes=10] [--watchers=150] [--listers=40] [--writers=10]');
  process.exit(2);
}
const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const minutes = option('minutes', 10);
const watcherCount = option('watchers', 150);
const listerCount = option('listers', 40);
const writerCount = option('writers', 10);
const maxConnections = option('max-connections', 400);
const durationMs = minutes * 60 * 1000;
const reconnectMs = Math.min(60 * 1000, durationMs / 3);

const SLICES = '/apis/resource.k8s.io/v1/resourceslices';
const CLAIMS = '/apis/resource.k8s.io/v1/resourceclaims';

const percentile = (values, p) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 10) / 10;
};
const spread = (values) => ({ count: values.length, p50_ms: percentile(values, 0.5), p99_ms: percentile(values, 0.99) });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rv = (object) => BigInt(object.metadata.resourceVersion);
const keyOf = (object) => (object.metadata.namespace ? `${object.metadata.namespace}/` : '') + object.metadata.name;

// ---- the server ---------------------------------------------------------------------------

const dir = mkdtempSync(path.join(tmpdir(), 'dra-soak-'));
const kubeconfig = path.join(dir, 'soak.kubeconfig');
const server = spawn(dractl, ['serve', '--demo=scale', '--listen', '127.0.0.1:0',
  '--write-kubeconfig', kubeconfig, '--max-connections', String(maxConnections)], {
  env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') }, stdio: ['ignore', 'pipe', 'inherit'] });
const started = Date.now();
// Progress on stderr, so a long run shows where it is; the report alone goes to stdout.
const say = (text) => process.stderr.write(`[soak ${Math.round((Date.now() - started) / 1000)} s] ${text}\n`);
const { host, port, token } = await new Promise((resolve, reject) => {
  let banner = '';
  server.stdout.on('data', (chunk) => {
    banner += chunk;
    const match = /web console: https:\/\/([^:/]+):(\d+)\/ui\/#\/overview\?token=(\S+)\n/.exec(banner);
    if (match && banner.includes('kubeconfig:')) resolve({ host: match[1], port: Number(match[2]), token: match[3] });
  });
  server.on('exit', (code) => reject(new Error(`dractl serve exited (${code}) before serving`)));
});
const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))[1], 'base64');
const startupMs = Date.now() - started;
say(`serving at https://${host}:${port}`);

const agent = new https.Agent({ keepAlive: true, maxSockets: listerCount + writerCount + 4, ca });
const auth = { Authorization: `Bearer ${token}` };

// One request; resolves with {status, body (Buffer), ms}.
function request(method, target, { body, headers = {}, parse = true } = {}) {
  return new Promise((resolve, reject) => {
    const begun = performance.now();
    const req = https.request({ host, port, method, path: target, agent, ca,
      headers: { ...auth, Accept: 'application/json', ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const ms = performance.now() - begun;
        resolve({ status: res.statusCode, ms, bytes: raw.length,
          json: parse && res.statusCode < 300 ? JSON.parse(raw) : null, raw });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// Every object of `collection` by key (name or namespace/name) with its resourceVersion, and the
// list's resourceVersion; in pages of 500 as a reflector lists.
async function listAll(collection) {
  const objects = new Map();
  let next = '';
  let listRv;
  do {
    const page = await request('GET', `${collection}?limit=500${next ? `&continue=${encodeURIComponent(next)}` : ''}`);
    if (page.status !== 200) throw new Error(`list ${collection}: HTTP ${page.status} ${page.raw.slice(0, 200)}`);
    for (const item of page.json.items) objects.set(keyOf(item), item.metadata.resourceVersion);
    listRv = page.json.metadata.resourceVersion;
    next = page.json.metadata.continue ?? '';
  } while (next);
  return { objects, rv: listRv };
}

// ---- RSS ----------------------------------------------------------------------------------

const rssSamples = [];
const sampleRss = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  rssSamples.push({ at_s: Math.round((Date.now() - started) / 1000), rss_mb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024 });
};

// ---- watchers -----------------------------------------------------------------------------

const failures = [];
const deliveries = []; // ms from a write's answer to an event of it reaching a watcher
const written = new Map(); // label value -> time its patch was answered

class Watcher {
  constructor(id, collection, initial) {
    this.id = id;
    this.collection = collection;
    this.objects = new Map(initial.objects);
    this.rv = initial.rv;
    this.lastEventRv = BigInt(initial.rv);
    this.events = 0;
    this.reconnects = 0;
    this.stopped = false;
  }
  start() {
    this.connect();
    this.timer = setInterval(() => this.reconnect(), reconnectMs + Math.random() * 5000);
  }
  connect() {
    if (this.stopped) return;
    let buffered = '';
    const req = https.request({ host, port, ca, agent: false,
      path: `${this.collection}?watch=true&allowWatchBookmarks=true&resourceVersion=${this.rv}`,
      headers: { ...auth, Accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        failures.push(`watcher ${this.id}: watch answered HTTP ${res.statusCode}`);
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffered += chunk;
        let newline;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (line.trim()) this.onEvent(JSON.parse(line));
        }
      });
    });
    req.on('error', (error) => {
      if (!this.closing && !probing) failures.push(`watcher ${this.id}: ${error.message}`);
    });
    req.on('close', () => {
      this.req = null;
      // The server ended the watch (as it may): resume after the last change seen.
      if (!this.closing && !this.stopped) setTimeout(() => this.connect(), probing ? 1000 : 100);
      this.closing = false;
    });
    req.end();
    this.req = req;
  }
  onEvent(event) {
    const { type, object } = event;
    if (type === 'ERROR') {
      failures.push(`watcher ${this.id}: ERROR event ${JSON.stringify(object).slice(0, 200)}`);
      return;
    }
    const at = rv(object);
    // Revisions only grow on a stream, across reconnects too: an event at or before the last one
    // seen is a repeat (or out of order).
    if (at <= this.lastEventRv && type !== 'BOOKMARK') {
      failures.push(`watcher ${this.id}: ${type} ${keyOf(object)} at ${at} after ${this.lastEventRv}`);
    }
    if (at > this.lastEventRv) this.lastEventRv = at;
    this.rv = object.metadata.resourceVersion;
    if (type === 'BOOKMARK') return;
    ++this.events;
    if (type === 'DELETED') this.objects.delete(keyOf(object));
    else this.objects.set(keyOf(object), object.metadata.resourceVersion);
    const mark = object.metadata.labels?.soak;
    const answered = mark && written.get(mark);
    if (answered) deliveries.push(performance.now() - answered);
  }
  reconnect() {
    if (!this.req) return;
    ++this.reconnects;
    this.closing = true;
    this.req.destroy();
    setTimeout(() => this.connect(), 50);
  }
  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    this.closing = true;
    this.req?.destroy();
  }
}

// A watcher that never reads: the server must cut it off once it is too far behind, and the
// others must not wait for it. It starts from the beginning, so its backlog grows at once. A
// paused socket notices nothing, so the end of its stream is looked for when it resumes at the
// end of the run: a stream that was cut off ends after the bytes the network held for it; one
// that was not goes on.
function startSlowWatcher() {
  const slow = { bytes: 0, ended: false };
  const socket = tls.connect({ host, port, ca, servername: 'localhost' }, () => {
    socket.write(`GET ${SLICES}?watch=true&resourceVersion=0 HTTP/1.1\r\nHost: ${host}:${port}\r\n`
      + `Authorization: Bearer ${token}\r\nAccept: application/json\r\n\r\n`);
    socket.pause();
  });
  socket.on('data', (chunk) => { slow.bytes += chunk.length; });
  socket.on('close', () => { slow.ended = true; });
  socket.on('error', (error) => { slow.error = error.code ?? error.message; });
  slow.socket = socket;
  return slow;
}

// Reads what the silent watcher was sent until its stream ends or `ms` pass.
async function drainSlowWatcher(slow, ms) {
  slow.socket.resume();
  const deadline = Date.now() + ms;
  while (!slow.ended && Date.now() < deadline) await sleep(100);
  slow.socket.destroy();
  return { cut_off: slow.ended, bytes_read: slow.bytes, error: slow.error ?? null };
}

// ---- listers and writers ------------------------------------------------------------------

const listTimes = { full: [], page: [] };
let pagesExpired = 0;
// While the limits are probed the server refuses new connections, watchers' reconnects
// included: expected then, and those watchers catch up afterwards.
let probing = false;
const listBytes = { full: 0, page: 0 };
let running = true;

async function lister(id) {
  await sleep(Math.random() * 1000);
  while (running) {
    try {
      if (id % 2 === 0) {
        // In full, as `kubectl get resourceslices -o json`; the body is read, not parsed.
        const full = await request('GET', SLICES, { parse: false });
        if (full.status !== 200) failures.push(`lister ${id}: HTTP ${full.status}`);
        listTimes.full.push(full.ms);
        listBytes.full = full.bytes;
      } else {
        let next = '';
        do {
          const page = await request('GET', `${SLICES}?limit=500${next ? `&continue=${encodeURIComponent(next)}` : ''}`);
          if (page.status === 410) {
            // The slices changed since the first page: as kube-apiserver past its compaction,
            // the server says the continue token expired, and a client lists again.
            ++pagesExpired;
            break;
          }
          if (page.status !== 200) {
            failures.push(`lister ${id}: page HTTP ${page.status}`);
            break;
          }
          listTimes.page.push(page.ms);
          listBytes.page = page.bytes;
          next = page.json.metadata.continue ?? '';
        } while (next && running);
      }
    } catch (error) {
      failures.push(`lister ${id}: ${error.message}`);
    }
    await sleep(1000);
  }
}

const patchTimes = [];
let writes = 0;
async function writer(id, slices, claims) {
  const pick = (keys) => keys[Math.floor(Math.random() * keys.length)];
  while (running) {
    const begun = performance.now();
    const onClaim = claims.length && writes % 2 === 1;
    const key = onClaim ? pick(claims) : pick(slices);
    const target = onClaim
      ? `/apis/resource.k8s.io/v1/namespaces/${key.split('/')[0]}/resourceclaims/${key.split('/')[1]}`
      : `${SLICES}/${key}`;
    const mark = `w${id}-${++writes}`;
    try {
      const answer = await request('PATCH', target, {
        body: JSON.stringify({ metadata: { labels: { soak: mark } } }),
        headers: { 'Content-Type': 'application/merge-patch+json' } });
      if (answer.status !== 200) failures.push(`writer ${id}: PATCH ${target}: HTTP ${answer.status}`);
      else written.set(mark, performance.now());
      patchTimes.push(answer.ms);
    } catch (error) {
      failures.push(`writer ${id}: ${error.message}`);
    }
    await sleep(Math.max(0, 500 - (performance.now() - begun)));
  }
}

// ---- limits -------------------------------------------------------------------------------

// Opens TLS connections, 50 at a time, until the server closes some right after their
// handshake; how many it kept open.
async function probeConnectionLimit() {
  const open = [];
  let refused = false;
  const one = () => new Promise((resolve) => {
    // A connection the server does not take within 5 s (its listen queue full) counts as
    // refused, as it is for a client.
    const gaveUp = setTimeout(() => { socket.destroy(); resolve({ socket, closed: true }); }, 5000);
    const socket = tls.connect({ host, port, ca, servername: 'localhost' }, () => {
      clearTimeout(gaveUp);
      // A refused connection is closed by the server as soon as it is accepted.
      const timer = setTimeout(() => resolve({ socket, closed: false }), 1500);
      socket.once('close', () => { clearTimeout(timer); resolve({ socket, closed: true }); });
    });
    socket.on('error', () => { clearTimeout(gaveUp); resolve({ socket, closed: true }); });
  });
  while (!refused && open.length < maxConnections + 50) {
    const batch = await Promise.all(Array.from({ length: 50 }, one));
    for (const { socket, closed } of batch) {
      if (closed) refused = true;
      else open.push(socket);
    }
  }
  // Served again once they go.
  for (const socket of open) socket.destroy();
  await sleep(500);
  const after = await request('GET', '/version');
  return { held: open.length, refusedPastLimit: refused, servedAfter: after.status === 200 };
}

async function probeHeaderLimit() {
  const answer = await request('GET', '/version', { headers: { 'X-Padding': 'x'.repeat(100 * 1024) } })
    .catch((error) => ({ status: `error ${error.message}` }));
  return answer.status;
}

// ---- the run ------------------------------------------------------------------------------

// A run cut short (a timeout, Ctrl+C) still prints what it measured.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    failures.push(`soak stopped by ${signal}`);
    Object.assign(report, { writes, list_full: spread(listTimes.full), list_page_500: spread(listTimes.page),
      patch: spread(patchTimes), write_to_watcher: spread(deliveries), rss_mb_samples: rssSamples });
    report.failures = failures.slice(0, 50);
    report.ok = false;
    console.log(JSON.stringify(report, null, 2));
    server.kill('SIGTERM');
    process.exit(1);
  });
}
const report = { minutes, watchers: watcherCount, listers: listerCount, writers: writerCount,
  max_connections: maxConnections, startup_ms: startupMs };
try {
  sampleRss();
  const initialSlices = await listAll(SLICES);
  const initialClaims = await listAll(CLAIMS);
  say(`listed ${initialSlices.objects.size} slices and ${initialClaims.objects.size} claims`);
  report.slices = initialSlices.objects.size;
  report.claims = initialClaims.objects.size;
  const watchers = [];
  for (let i = 0; i < watcherCount; ++i) {
    const onClaims = i % 2 === 1;
    watchers.push(new Watcher(i, onClaims ? CLAIMS : SLICES, onClaims ? initialClaims : initialSlices));
  }
  for (const watcher of watchers) watcher.start();
  const slow = startSlowWatcher();
  const rssTimer = setInterval(sampleRss, 10 * 1000);
  const work = [];
  for (let i = 0; i < listerCount; ++i) work.push(lister(i));
  const sliceKeys = [...initialSlices.objects.keys()];
  const claimKeys = [...initialClaims.objects.keys()];
  for (let i = 0; i < writerCount; ++i) work.push(writer(i, sliceKeys, claimKeys));

  say(`${watcherCount} watchers, ${listerCount} listers and ${writerCount} writers for ${minutes} min`);
  await sleep(durationMs);
  running = false;
  say(`${writes} writes; waiting for the listers and writers to finish`);
  await Promise.all(work);
  say('probing the connection and header limits');
  probing = true;
  const limits = { connections: await probeConnectionLimit(), header_431: await probeHeaderLimit() };
  await sleep(3000); // the watchers refused meanwhile reconnect
  probing = false;
  say('listing once more and waiting for every watcher to catch up');
  clearInterval(rssTimer);
  sampleRss();

  // Every watcher catches up with a final list: nothing lost.
  const finalSlices = await listAll(SLICES);
  const finalClaims = await listAll(CLAIMS);
  const equal = (a, b) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
  const deadline = Date.now() + 60 * 1000;
  const finalOf = (watcher) => (watcher.collection === SLICES ? finalSlices : finalClaims).objects;
  while (Date.now() < deadline && !watchers.every((w) => equal(w.objects, finalOf(w)))) await sleep(200);
  const diverged = watchers.filter((w) => !equal(w.objects, finalOf(w)));
  for (const w of diverged.slice(0, 5)) {
    const missing = [...finalOf(w)].filter(([k, v]) => w.objects.get(k) !== v).slice(0, 3);
    failures.push(`watcher ${w.id} (${w.collection}) differs from the final list, e.g. ${JSON.stringify(missing)}`);
  }
  for (const watcher of watchers) watcher.stop();
  const slowReader = await drainSlowWatcher(slow, 10 * 1000);

  const secondHalf = rssSamples.filter((s) => s.at_s >= rssSamples.at(-1).at_s - durationMs / 2000);
  const rssGrowth = (secondHalf.at(-1).rss_mb - secondHalf[0].rss_mb) / secondHalf[0].rss_mb;
  Object.assign(report, {
    writes,
    writes_per_s: Math.round((writes / (durationMs / 1000)) * 10) / 10,
    watch_events: watchers.reduce((n, w) => n + w.events, 0),
    watch_reconnects: watchers.reduce((n, w) => n + w.reconnects, 0),
    watchers_equal_to_final_list: watchers.length - diverged.length,
    list_full: { ...spread(listTimes.full), bytes: listBytes.full },
    list_page_500: { ...spread(listTimes.page), bytes: listBytes.page, expired_continues: pagesExpired },
    patch: spread(patchTimes),
    write_to_watcher: spread(deliveries),
    slow_reader: slowReader,
    limits,
    rss_mb: { start: rssSamples[0].rss_mb, second_half_start: secondHalf[0].rss_mb,
      end: rssSamples.at(-1).rss_mb, max: Math.max(...rssSamples.map((s) => s.rss_mb)),
      second_half_growth_percent: Math.round(rssGrowth * 1000) / 10 },
  });
  if (!slowReader.cut_off) {
    failures.push(`the watcher that never reads was not cut off (read ${slowReader.bytes_read} bytes, still open)`);
  }
  if (!limits.connections.refusedPastLimit || limits.connections.held > maxConnections) {
    failures.push(`connection limit: held ${limits.connections.held} of ${maxConnections} without a refusal`);
  }
  if (!limits.connections.servedAfter) failures.push('not served again after the connection flood');
  if (limits.header_431 !== 431) failures.push(`a 100 KiB header got ${limits.header_431}, not 431`);
  if (rssGrowth > 0.05) failures.push(`RSS grew ${report.rss_mb.second_half_growth_percent}% over the second half`);
} catch (error) {
  failures.push(`soak stopped: ${error.stack ?? error}`);
} finally {
  running = false;
  report.failures = failures.slice(0, 50);
  report.ok = failures.length === 0;
  console.log(JSON.stringify(report, null, 2));
  server.kill('SIGTERM');
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
  process.exit(failures.length ? 1 : 0);
}
