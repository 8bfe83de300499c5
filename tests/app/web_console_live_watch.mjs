// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The page's WebSocket channel against a running `dractl serve`, as the page runs it:
// `node web_console_live_watch.mjs SRC_DIR BASE_URL TOKEN` (the server's certificate is
// self-signed: run with NODE_TLS_REJECT_UNAUTHORIZED=0). Subscribes to the devices view and
// to a watch of ResourceSlices from the current revision, labels a slice, and expects both the
// watch event and "the view changed"; a wrong token opens nothing.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [src, base, token] = process.argv.slice(2);
const { Channel, Api } = await import(pathToFileURL(path.join(src, 'api.js')).href);
const location = new URL(base);
const slices = '/apis/resource.k8s.io/v1/resourceslices';
const fetchFrom = (url, init) => fetch(new URL(url, base), init);
const api = new Api(token, fetchFrom);

const info = await api.get('info');
const listed = await (await fetchFrom(slices, { headers: { Authorization: `Bearer ${token}` } })).json();
const slice = listed.items[0].metadata.name;

const within = (ms, what, promise) => Promise.race([promise,
  new Promise((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms))]);

let states = [];
const channel = new Channel(token, { location, onState: (state) => states.push(state) });
let sawChange;
const changed = new Promise((resolve) => { sawChange = resolve; });
channel.view('devices', (message) => sawChange(message));
let sawEvent;
const modified = new Promise((resolve) => { sawEvent = resolve; });
channel.watch(slices, String(info.rev), {
  onEvent: (event) => {
    if (event.type === 'MODIFIED' && event.object.metadata.name === slice) sawEvent(event);
  },
});
await within(10000, 'open channel', new Promise((resolve) => {
  const poll = setInterval(() => {
    if (states.includes('live')) { clearInterval(poll); resolve(); }
  }, 20);
}));
await new Promise((resolve) => setTimeout(resolve, 300)); // the subscriptions reach the server

const label = `web-console-test=${Date.now()}`;
const patch = await fetchFrom(`${slices}/${slice}`, {
  method: 'PATCH',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/merge-patch+json' },
  body: JSON.stringify({ metadata: { labels: { 'web-console-test': label.split('=')[1] } } }),
});
assert.equal(patch.status, 200, await patch.text());
const event = await within(10000, 'watch event', modified);
assert.equal(event.object.metadata.labels['web-console-test'], label.split('=')[1]);
const change = await within(10000, '"changed" for the devices view', changed);
assert.ok(change.rev > info.rev, `the view moved past ${info.rev}: ${JSON.stringify(change)}`);
assert.ok(change.kinds.includes('ResourceSlice'), JSON.stringify(change));
channel.close();

// A wrong token opens no channel.
states = [];
const refused = new Channel(`${token}-not`, { location, onState: (state) => states.push(state), retryMs: 60000 });
await new Promise((resolve) => setTimeout(resolve, 1500));
assert.ok(!states.includes('live'), `states: ${states}`);
refused.close();
console.log(`live channel: ok (slice ${slice} labelled, event and view change received)`);
process.exit(0);
