// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's watch against a running `dractl serve`, as the page runs it:
// `node web_console_live_watch.mjs APP_MODULE BASE_URL TOKEN` (the server's certificate is
// self-signed: run with NODE_TLS_REJECT_UNAUTHORIZED=0). Lists ResourceSlices with the token,
// watches them over a WebSocket from resourceVersion 0 and checks that the initial events name
// exactly the listed slices; a wrong token must not open a watch.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const [modulePath, base, token] = process.argv.slice(2);
const app = await import(pathToFileURL(modulePath).href);
const path = '/apis/resource.k8s.io/v1/resourceslices';

const response = await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } });
assert.equal(response.status, 200);
const listed = (await response.json()).items.map((item) => item.metadata.name).sort();
assert.ok(listed.length > 0, 'the demo cluster publishes ResourceSlices');

const url = app.webSocketUrl(new URL(base), `${path}?watch=1&resourceVersion=0&timeoutSeconds=2`);
const added = [];
await app.watchOverWebSocket(url, token, (event) => {
  if (event.type === 'ADDED') added.push(event.object.metadata.name);
  return true;
});
assert.deepEqual(added.sort(), listed);

await assert.rejects(app.watchOverWebSocket(url, `${token}-not`, () => true), /did not open/);
console.log(`live watch: ok (${added.length} slices over a WebSocket)`);
