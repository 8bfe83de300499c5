// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's pure functions under node: `node web_console_functions.mjs APP_MODULE`.
// Exits non-zero with the failed assertion's message when one does not hold.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const app = await import(pathToFileURL(process.argv[2]).href);

const gpu = (name, product, uuid) => ({
  name,
  attributes: { productName: { string: product }, 'gpu.nvidia.com/uuid': { string: uuid } },
});
const slices = [
  { spec: { driver: 'gpu.nvidia.com', nodeName: 'node-a', pool: { name: 'node-a' },
      devices: [gpu('gpu-0', 'NVIDIA H100', 'GPU-a0'), gpu('gpu-1', 'NVIDIA H100', 'GPU-a1')] } },
  { spec: { driver: 'gpu.nvidia.com', nodeName: 'node-b', pool: { name: 'node-b' },
      devices: [gpu('gpu-0', 'NVIDIA L40S', 'GPU-b0')] } },
  // Not a GPU driver: listed as a device, not counted as a GPU.
  { spec: { driver: 'nic.example.com', nodeName: 'node-b', pool: { name: 'node-b' },
      devices: [{ name: 'nic-0', attributes: {} }] } },
];
const claims = [
  { metadata: { namespace: 'ml', name: 'train' },
    status: { allocation: { devices: { results: [
        { request: 'gpu', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-1' }] } },
      reservedFor: [{ resource: 'pods', name: 'train-0', uid: 'u1' }] } },
  { metadata: { namespace: 'ml', name: 'allocated-only' },
    status: { allocation: { devices: { results: [
        { request: 'gpu', driver: 'gpu.nvidia.com', pool: 'node-b', device: 'gpu-0' }] } } } },
  { metadata: { namespace: 'ml', name: 'waiting' }, spec: {} },
];
const nodes = [{ metadata: { name: 'node-a' } }, { metadata: { name: 'node-b' } },
  { metadata: { name: 'cpu-only' } }];

assert.equal(app.servedVersion({ preferredVersion: { version: 'v1' }, versions: [{ version: 'v1beta2' }] }), 'v1');
assert.equal(app.servedVersion({ versions: [{ version: 'v1beta1' }] }), 'v1beta1');
assert.throws(() => app.servedVersion({ versions: [] }));

assert.deepEqual(app.nodeSummaries(nodes, slices, claims), [
  { node: 'cpu-only', gpus: 0, allocated: 0, free: 0 },
  { node: 'node-a', gpus: 2, allocated: 1, free: 1 },
  { node: 'node-b', gpus: 1, allocated: 1, free: 0 },
]);

const devices = app.deviceRows(slices, claims);
assert.equal(devices.length, 4);
assert.deepEqual(devices[1], { node: 'node-a', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-1',
  productName: 'NVIDIA H100', uuid: 'GPU-a1', holder: 'ml/train' });
assert.equal(devices[0].holder, '');
// v1beta1 keeps attributes under `basic`.
assert.equal(app.deviceAttribute({ basic: { attributes: { uuid: { string: 'GPU-x' } } } }, 'uuid'), 'GPU-x');

assert.deepEqual(app.filterRows(devices, 'l40s').map((row) => row.uuid), ['GPU-b0']);
assert.deepEqual(app.filterRows(devices, 'h100 ml/train').map((row) => row.uuid), ['GPU-a1']);
assert.equal(app.filterRows(devices, '  ').length, 4);

assert.deepEqual(app.claimRows(claims).map((row) => [row.name, row.state, row.reservedFor]), [
  ['ml/allocated-only', 'allocated', []],
  ['ml/train', 'reserved', ['train-0']],
  ['ml/waiting', 'pending', []],
]);

const split = app.splitWatchLines('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"DEL');
assert.equal(split.events.length, 1);
assert.equal(split.rest, '{"type":"DEL');
const objects = new Map();
assert.equal(app.applyWatchEvent(objects, split.events[0]), true);
assert.equal(objects.size, 1);
assert.equal(app.applyWatchEvent(objects, { type: 'DELETED', object: { metadata: { name: 'a' } } }), true);
assert.equal(objects.size, 0);
assert.equal(app.applyWatchEvent(objects, { type: 'ERROR', object: { code: 410 } }), false);

assert.equal(app.bearerProtocol('s3cret'), 'base64url.bearer.authorization.k8s.io.czNjcmV0');
// base64url, unpadded: '+' and '/' of plain base64 would not be valid in a subprotocol.
assert.equal(app.bearerProtocol('>>>?'), 'base64url.bearer.authorization.k8s.io.Pj4-Pw');
assert.equal(app.webSocketUrl({ protocol: 'https:', host: '127.0.0.1:6443' }, '/api/v1/nodes?watch=1'),
  'wss://127.0.0.1:6443/api/v1/nodes?watch=1');
assert.equal(app.webSocketUrl({ protocol: 'http:', host: 'h:80' }, '/x'), 'ws://h:80/x');

// A scripted WebSocket: opens, delivers its messages, closes (or never opens).
function scriptedSocket(messages, { opens = true } = {}) {
  return class {
    constructor(url, protocols) {
      this.url = url;
      this.protocols = protocols;
      scriptedSocket.last = this;
      setTimeout(() => {
        if (opens) this.onopen?.();
        for (const data of messages) {
          if (this.closed) break;
          this.onmessage?.({ data });
        }
        this.onclose?.();
      }, 0);
    }
    close() {
      this.closed = true;
    }
  };
}
const seen = [];
await app.watchOverWebSocket('wss://h/apis/x?watch=1', 'tok',
  (event) => { seen.push(event.type); return event.type !== 'ERROR'; },
  scriptedSocket(['{"type":"ADDED"}', '{"type":"ERROR"}', '{"type":"MODIFIED"}']));
assert.deepEqual(seen, ['ADDED', 'ERROR']); // ERROR closes the watch: the caller relists
assert.deepEqual(scriptedSocket.last.protocols,
  ['base64.binary.k8s.io', 'base64url.bearer.authorization.k8s.io.dG9r']);
await assert.rejects(app.watchOverWebSocket('wss://h/x', 'tok', () => true,
  scriptedSocket([], { opens: false })), /did not open/);

assert.equal(app.tokenFromHash('#token=abc123'), 'abc123');
assert.equal(app.tokenFromHash(''), '');
console.log('web console functions: ok');
