// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's pure modules under node: `node web_console_functions.mjs SRC_DIR` (the
// resources/web/src folder). Exits non-zero with the failed assertion's message when one does
// not hold.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const src = process.argv[2];
const load = (name) => import(pathToFileURL(path.join(src, name)).href);
const location = await load('location.js');
const yamlSelectors = await load('selectors_in_yaml.js');
const api = await load('api.js');
const vtable = await load('vtable.js');
const lineDiff = await load('line_diff.js');
const kubeApply = await load('kube_apply.js');
const shortcuts = await load('shortcuts.js');
const leftOut = await load('left_out.js');
const classesView = await load('views/classes.js');
const claimsView = await load('views/claims.js');
const accessView = await load('views/access.js');
const poolStatus = await load('pool_status.js');

// Asking the cluster for its pool totals: create, read until answered, always delete; a cluster
// without the kind or a refusal is an answer of its own.
{
  const calls = [];
  let reads = 0;
  const answered = { poolCount: 2, pools: [] };
  const fake = async (token, method, path, options) => {
    calls.push(`${method} ${path}`);
    if (method === 'POST') {
      assert.equal(JSON.parse(options.body).spec.driver, 'gpu.nvidia.com');
      return { status: 201, body: { metadata: { name: 'draconsole-pools-x1' } } };
    }
    if (method === 'GET') return { status: 200, body: ++reads < 3 ? {} : { status: answered } };
    return { status: 200, body: {} };
  };
  const answer = await poolStatus.askPoolStatus('t', { driver: 'gpu.nvidia.com' }, { request: fake, sleep: async () => {} });
  assert.deepEqual(answer, { status: answered });
  const base = poolStatus.POOL_STATUS_REQUESTS;
  assert.deepEqual(calls, [`POST ${base}`, `GET ${base}/draconsole-pools-x1`, `GET ${base}/draconsole-pools-x1`,
    `GET ${base}/draconsole-pools-x1`, `DELETE ${base}/draconsole-pools-x1`]);

  const missing = await poolStatus.askPoolStatus('t', { driver: 'd' }, { request: async () => ({ status: 404, body: null }) });
  assert.match(missing.unanswered, /does not serve ResourcePoolStatusRequest/);
  const forbidden = await poolStatus.askPoolStatus('t', { driver: 'd' },
    { request: async () => ({ status: 403, body: { message: 'resourcepoolstatusrequests is forbidden' } }) });
  assert.deepEqual(forbidden, { unanswered: 'resourcepoolstatusrequests is forbidden' });
  const deleted = [];
  const silent = await poolStatus.askPoolStatus('t', { driver: 'd' }, {
    request: async (token, method, path) => {
      if (method === 'DELETE') deleted.push(path);
      return method === 'POST' ? { status: 201, body: { metadata: { name: 'q' } } } : { status: 200, body: {} };
    },
    sleep: async () => {},
    timeoutMs: 500,
  });
  assert.match(silent.unanswered, /no status within 0.5 s/);
  assert.equal(deleted.length, 1, 'the unanswered request is deleted too');
}

// A device's conditions as its driver reported them in the claim.
{
  assert.equal(claimsView.conditionsText([]), '—');
  assert.equal(claimsView.conditionsText([{ type: 'Ready', status: 'True', reason: 'Prepared' },
    { type: 'Healthy', status: 'False' }]), 'Ready=True (Prepared), Healthy=False');
}

// A class's quota per namespace, blocked where the limit is 0.
{
  assert.equal(classesView.quotaText([]), '—');
  assert.equal(classesView.quotaText([
    { namespace: 'training', used: 3, hard: 8, blocked: false },
    { namespace: 'batch', used: 0, hard: 0, blocked: true },
  ]), 'training 3/8 · batch 0/0 (blocked)');
}

// Access per class: the non-admin subjects once each, the quota.
{
  const grants = [
    { subject: { kind: 'User', name: 'root' }, admin: true },
    { subject: { kind: 'Group', name: 'training-team' }, admin: false },
    { subject: { kind: 'ServiceAccount', namespace: 'ci', name: 'runner' }, admin: false },
    { subject: { kind: 'Group', name: 'training-team' }, admin: false },
  ];
  assert.equal(accessView.authorsText(grants), 'Group training-team, ServiceAccount ci/runner');
  assert.equal(accessView.authorsText(grants.slice(0, 1)), 'admins only');
  assert.equal(accessView.quotaCell({ hard: 8, used: 3 }), '3/8');
  assert.equal(accessView.quotaCell({}), '—');
}

// What the server left out for this user, said in one sentence; nothing when nothing was.
{
  assert.equal(leftOut.describeLeftOut(undefined), '');
  assert.equal(leftOut.describeLeftOut([]), '');
  assert.equal(leftOut.describeLeftOut([
    { kind: 'ResourceClaim', objects: 4, namespaces: ['batch', 'inference'] },
    { kind: 'ClusterRole', objects: 1 },
  ]), 'Shown as your access allows; not shown: 4 ResourceClaims (batch, inference), 1 ClusterRole.');
}

// Routes carry the token in the fragment; the page keeps the route and drops the token.
{
  const parsed = location.parseHash('#/devices?token=s3cret&node=n1');
  assert.equal(parsed.name, 'devices');
  assert.equal(parsed.token, 's3cret');
  assert.equal(parsed.params.get('node'), 'n1');
  assert.equal(parsed.params.has('token'), false);
  assert.equal(location.hashWithoutToken('#/devices?token=s3cret&node=n1'), '#/devices?node=n1');
  assert.equal(location.hashWithoutToken('#/devices?token=s3cret'), '#/devices');
  // The old form, a token and no route, opens the overview.
  assert.equal(location.parseHash('#token=abc').token, 'abc');
  assert.equal(location.hashWithoutToken('#token=abc'), '#/overview');
  assert.equal(location.parseHash('#/topology/h100-000').arg, 'h100-000');
  assert.equal(location.parseHash('#/rollouts/llm-server').arg, 'llm-server');
  assert.equal(location.parseHash('#/editor?from=ml/train').params.get('from'), 'ml/train');
  assert.equal(location.parseHash('#/nonsense').name, '');
  assert.equal(location.parseHash('#/readiness').name, 'readiness');
  assert.equal(location.parseHash('#/migration').name, 'migration');
  assert.equal(location.formatHash('topology', 'node a'), '#/topology/node%20a');
  assert.equal(location.formatHash('devices', '', { q: '', node: 'n1' }), '#/devices?node=n1');
}

// The token rides in the WebSocket subprotocol as kube-apiserver reads it.
assert.equal(location.bearerProtocol('ab?'), 'base64url.bearer.authorization.k8s.io.YWI_');
assert.equal(location.webSocketUrl(new URL('https://127.0.0.1:6443/ui/'), '/console/v1/ws'),
  'wss://127.0.0.1:6443/console/v1/ws');
assert.equal(api.queryString({ a: 'x y', b: '', c: 0 }), '?a=x+y&c=0');
assert.deepEqual(vtable.pagesFor(190, 410, 200), [0, 1, 2]);

// post() sends the text as it is, with the token and the query, and reads the JSON answer; a
// refusal becomes an ApiError with the server's message.
{
  const sent = [];
  const fake = async (url, init) => {
    sent.push({ url, init });
    const ok = init.body !== 'bad';
    return { ok, status: ok ? 200 : 400,
      json: async () => (ok ? { requests: [] } : { error: { code: 400, message: 'kubernetesVersion: no' } }) };
  };
  const client = new api.Api('t0k', fake);
  assert.deepEqual(await client.post('templates/check', 'kind: X\n', { kubernetesVersion: '1.33', featureGates: '' }), { requests: [] });
  assert.equal(sent[0].url, '/console/v1/templates/check?kubernetesVersion=1.33');
  assert.equal(sent[0].init.method, 'POST');
  assert.equal(sent[0].init.body, 'kind: X\n');
  assert.equal(sent[0].init.headers.Authorization, 'Bearer t0k');
  await assert.rejects(client.post('templates/check', 'bad'), (e) => e instanceof api.ApiError && e.status === 400 && e.message === 'kubernetesVersion: no');
  await client.get('readiness');
  assert.equal(sent[2].init.method, 'GET');
  assert.equal(sent[2].init.body, undefined);
}

// Selectors in the editor's YAML map line:column of the compiler to the editor's text.
{
  const text = [
    'spec:',
    '  selectors:',
    '  - cel:',
    '      expression: "device.driver == \\"x\\""',
    '  - cel:',
    '      expression: |',
    '        device.a &&',
    '          bad',
    '  other: 1',
  ].join('\n');
  const found = yamlSelectors.findExpressions(text);
  assert.equal(found.length, 2);
  assert.equal(found[0].expression, 'device.driver == "x"');
  assert.equal(found[1].expression, 'device.a &&\n  bad');
  assert.equal(text.slice(yamlSelectors.offsetOf(found[1], 2, 3)).split('\n')[0], 'bad');
  assert.equal(text.slice(yamlSelectors.offsetOf(found[0], 1, 1), yamlSelectors.offsetOf(found[0], 1, 7)), 'device');
}

// The dry run's diff: labels and spec only, as YAML with sorted keys; the lines both have are
// kept, what the apply removes is '-', what it adds '+'.
{
  const live = { metadata: { name: 't', resourceVersion: '7', labels: { team: 'ml' } },
    spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 1 } }] } } } };
  const applied = { metadata: { name: 't', resourceVersion: '8', labels: { team: 'ml', tier: 'gold' } },
    spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 2 } }] } } } };
  assert.deepEqual(lineDiff.yamlLines(lineDiff.diffSubject(live)), [
    'metadata:', '  labels:', '    team: ml', 'spec:', '  spec:', '    devices:', '      requests:',
    '      - exactly:', '          count: 1', '          deviceClassName: gpu.nvidia.com', '        name: gpu']);
  const diff = lineDiff.objectDiff(live, applied);
  assert.deepEqual(diff.filter((l) => l.op !== ' ').map((l) => `${l.op}${l.text.trim()}`),
    ['+tier: gold', '-count: 1', '+count: 2']);
  assert.equal(diff.filter((l) => l.op === ' ').length, 10, 'every other line is kept');
  assert.deepEqual(lineDiff.objectDiff(live, live).filter((l) => l.op !== ' '), [], 'no change, no line');
  // A new object: every line is added.
  assert.ok(lineDiff.objectDiff(null, applied).every((l) => l.op === '+'));
  // Strings YAML would read otherwise are quoted.
  assert.deepEqual(lineDiff.yamlLines({ a: 'true', b: '1g.10gb', c: "x == 'y'", d: '', e: [] }),
    ['a: "true"', 'b: "1g.10gb"', "c: x == 'y'", 'd: ""', 'e: []']);
  assert.deepEqual(lineDiff.lineDiff(['a', 'b', 'c'], ['a', 'c', 'd']),
    [{ op: ' ', text: 'a' }, { op: '-', text: 'b' }, { op: ' ', text: 'c' }, { op: '+', text: 'd' }]);
  // Long unchanged runs fold, keeping three lines of context around a change.
  const long = lineDiff.lineDiff([...'abcdefghij'], [...'abcdefgXij']);
  assert.deepEqual(lineDiff.foldUnchanged(long).map((l) => l.op + (l.text ?? l.count)),
    ['…4', ' e', ' f', ' g', '-h', '+X', ' i', ' j']);
}

// What the editor's text names, and where its server-side apply goes.
{
  const starter = kubeApply.manifestIdentity(`# a comment
apiVersion: resource.k8s.io/v1   # the served version
kind: ResourceClaimTemplate
metadata:
  labels:
    name: not-this-one
  name: one-gpu
  namespace: "ml"
spec:
  spec: {}
`);
  assert.deepEqual(starter, { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', name: 'one-gpu', namespace: 'ml' });
  assert.deepEqual(kubeApply.manifestIdentity("apiVersion: resource.k8s.io/v1beta2\nkind: ResourceClaim\nmetadata: {name: 'c-1', namespace: team}\n"),
    { apiVersion: 'resource.k8s.io/v1beta2', kind: 'ResourceClaim', name: 'c-1', namespace: 'team' });
  assert.deepEqual(kubeApply.manifestIdentity('{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "j"}}'),
    { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', name: 'j', namespace: '' });
  assert.match(kubeApply.identityProblem(kubeApply.manifestIdentity('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n')), /apiVersion/);
  assert.match(kubeApply.identityProblem({ apiVersion: 'resource.k8s.io/v1', kind: 'Pod', name: 'x', namespace: '' }), /not Pod/);
  assert.equal(kubeApply.identityProblem(starter), '');
  assert.equal(kubeApply.applyPath(starter, { dryRun: true }),
    '/apis/resource.k8s.io/v1/namespaces/ml/resourceclaimtemplates/one-gpu?fieldManager=dra-console-web&dryRun=All');
  assert.equal(kubeApply.applyPath({ ...starter, namespace: '' }, { dryRun: false }),
    '/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates/one-gpu?fieldManager=dra-console-web');
  assert.equal(kubeApply.lookupPath(starter),
    '/apis/resource.k8s.io/v1/namespaces/ml/resourceclaimtemplates?fieldSelector=metadata.name%3Done-gpu');
  // A refusal reads as its message, then each cause at its field.
  assert.deepEqual(kubeApply.statusLines({ kind: 'Status', status: 'Failure', code: 422,
    message: 'ResourceClaimTemplate.resource.k8s.io "t" is invalid',
    details: { causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than zero',
      field: 'spec.spec.devices.requests[0].exactly.count' }] } }, 422),
  ['ResourceClaimTemplate.resource.k8s.io "t" is invalid',
    'spec.spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero']);
  assert.deepEqual(kubeApply.statusLines(null, 502), ['HTTP 502: the server answered no Status']);
}

// Every one of the thirteen views has a key: Alt+1 … Alt+9, Alt+0, Alt+-, Alt+=, Alt+[.
{
  // views/index.js imports CodeMirror, which node does not load from here; the browser test
  // presses every key on the page's own navigation.
  const count = 13;
  for (let index = 0; index < count; ++index) {
    const label = shortcuts.viewShortcut(index);
    assert.ok(label, `view ${index} has a key`);
    const code = { 'Alt+-': 'Minus', 'Alt+=': 'Equal', 'Alt+[': 'BracketLeft' }[label] ?? `Digit${label.slice(4)}`;
    assert.equal(shortcuts.viewIndexOfKey({ altKey: true, code }), index, label);
  }
  assert.equal(shortcuts.viewShortcut(count), '', 'no key past the thirteenth');
  assert.equal(shortcuts.viewIndexOfKey({ altKey: false, code: 'Digit1' }), -1);
  assert.equal(shortcuts.viewIndexOfKey({ altKey: true, ctrlKey: true, code: 'Digit1' }), -1);
}

console.log('web console functions: ok');
