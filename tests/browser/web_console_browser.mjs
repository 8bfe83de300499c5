// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console in a real browser, on `dractl serve --demo`:
//   node web_console_browser.mjs DRACTL [SCREENSHOT_DIR]
// - the printed link opens the console, which keeps the token for the tab and leaves only the
//   route in the address bar;
// - every route loads without console errors (a Content-Security-Policy violation is one) and
//   shows its data;
// - a broken CEL selector in the devices filter shows its error under the column the compiler
//   names;
// - a `kubectl label` on a ResourceSlice appears in the open page without a reload, and so does
//   one made after the server was stopped and started again on its port and cache: the page's
//   WebSocket reconnects by itself;
// - the topology drawing has a box for every GPU and MIG device of the server's layout, and
//   every line of a box fits inside it (a cut one has its whole text as its tooltip);
// - the editor's check pane shows the server's match counts for the text it holds (in the
//   cluster's release and in one chosen on the page), and "cannot be allocated" once the
//   selector matches nothing;
// - the editor's negative control shows the server's verdict and counts; a dry run of a new
//   template shows the lines it adds and stores nothing, apply (after a confirmation) creates
//   it, a new label shows as lines added and applies, a refusal (a template's spec is
//   immutable) shows its causes at their fields, and Save downloads the text;
// - every view has a key (Alt+1 … Alt+9, Alt+0, Alt+-, Alt+=, Alt+[), in the navigation and the palette;
// - served read-only, the editor's dry run and apply are disabled and say why;
// - the readiness page lists the server's checks in its order with its verdicts.
// Every expected figure is the server's own answer to the same request, never a number written
// here. DRA_WEB_ROOT=DIR tests the bundle in DIR instead of the one built into dractl.
// With SCREENSHOT_DIR, a PNG of every route goes there. Exit 77 (skipped) without chromium.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { READY, ROUTES, SKIP, haveChromium, launchBrowser, startDemo } from './console_session.mjs';
import { STARTER } from '../../resources/web/src/starter_template.js';

const [dractl, screenshots] = process.argv.slice(2);
if (!haveChromium()) {
  console.log('skipped: /usr/bin/chromium is not installed (apt-get install chromium)');
  process.exit(SKIP);
}

const demo = await startDemo(dractl);
const browser = await launchBrowser();
let failed = false;
try {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location()?.url ?? ''})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  const api = async (apiPath) => (await fetch(`${demo.base}/console/v1/${apiPath}`, {
    headers: { Authorization: `Bearer ${demo.token}` } })).json();
  const apiPost = async (apiPath, body) => (await fetch(`${demo.base}/console/v1/${apiPath}`, {
    method: 'POST', body, headers: { Authorization: `Bearer ${demo.token}` } })).json();
  // While the server restarts the browser logs each refused attempt of the page's WebSocket to
  // connect again, and a console API request the page made as the server went down (a change
  // it was told of just before) fails to connect: those entries since `before` are dropped
  // (and counted); nothing else may fail.
  const forgetRefusedSince = (before) => {
    const during = problems.splice(before);
    const refused = during.filter((p) => /WebSocket connection to '[^']*\/console\/v1\/ws' failed/.test(p)
      || /Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE) \([^)]*\/console\/v1\//.test(p));
    problems.push(...during.filter((p) => !refused.includes(p)));
    return refused;
  };
  // Requests the test makes fail on purpose: their HTTP error is not a problem of the page.
  const expectedRefusals = [];
  const setEditorText = async (text) => {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    // Deleted first: Chromium typing over a selection of styled text applies an inline style,
    // which the page's Content-Security-Policy refuses (and reports as a console error).
    await page.keyboard.press('Backspace');
    await page.keyboard.insertText(text);
  };
  const show = async (hash, ready) => {
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    await page.waitForSelector(ready, { timeout: 20000 });
  };

  // The link the server printed: the token leaves the address bar, the route stays.
  await page.goto(`${demo.base}/ui/#/devices?token=${demo.token}`);
  await page.waitForSelector(READY.devices);
  assert.equal(new URL(page.url()).hash, '#/devices');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('draconsole.token')), demo.token);
  // The old form still works.
  await page.goto(`${demo.base}/ui/#token=${demo.token}`);
  await page.waitForSelector(READY.overview);
  assert.equal(new URL(page.url()).hash, '#/overview');

  // A team member's page says what their access leaves out; the admin's says nothing.
  assert.equal(await page.locator('#left-out').innerText(), '');
  const trainingToken = /- name: demo-training\n  user:\n    token: (\S+)\n/.exec(
    readFileSync(demo.kubeconfig, 'utf8'))?.[1];
  assert.ok(trainingToken, 'the kubeconfig has the demo-training user');
  const teamPage = await browser.context.newPage();
  await teamPage.goto(`${demo.base}/ui/#/claims?token=${trainingToken}`);
  await teamPage.waitForSelector(READY.claims);
  await teamPage.waitForFunction(() => document.getElementById('left-out').textContent !== '');
  const notShown = await teamPage.locator('#left-out').innerText();
  const claimsNotShown = /^Shown as your access allows; not shown: \d+ ResourceClaims? \(([^)]*)\)/.exec(notShown);
  assert.ok(claimsNotShown, notShown);
  assert.ok(!claimsNotShown[1].includes('training'), `the user's own claims are shown: ${notShown}`);
  // Over the page's WebSocket too, a watch is the user's only where the cluster lets them.
  const answers = await teamPage.evaluate(async (token) => {
    const bytes = new TextEncoder().encode(token);
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const encoded = btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const socket = new WebSocket(`wss://${location.host}/console/v1/ws`,
      ['draconsole.console.v1', `base64url.bearer.authorization.k8s.io.${encoded}`]);
    const seen = {};
    await new Promise((resolve, reject) => {
      socket.onerror = reject;
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.id && (message.type === 'subscribed' || message.type === 'error')) {
          seen[message.id] = message.type === 'error' ? message.code ?? message.error?.code : 'subscribed';
          if (Object.keys(seen).length === 2) resolve();
        }
      };
      socket.onopen = () => {
        socket.send(JSON.stringify({ type: 'subscribe', id: 'all',
          watch: { path: '/apis/resource.k8s.io/v1/resourceclaims' } }));
        socket.send(JSON.stringify({ type: 'subscribe', id: 'own',
          watch: { path: '/apis/resource.k8s.io/v1/namespaces/training/resourceclaims' } }));
      };
    });
    socket.close();
    return seen;
  }, trainingToken);
  assert.deepEqual(answers, { all: 403, own: 'subscribed' });
  await teamPage.close();

  const overview = await api('overview');
  const node = overview.nodes.find((n) => n.gpus.total > 0)?.name ?? overview.nodes[0].name;
  if (screenshots) mkdirSync(screenshots, { recursive: true });
  for (const route of ROUTES) {
    const hash = route === 'topology' ? `#/topology/${node}` : `#/${route}`;
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    await page.waitForSelector(`main[data-view="${route}"] ${READY[route].split(', ').join(`, main[data-view="${route}"] `)}`, { timeout: 20000 });
    await page.waitForTimeout(300); // the rest of its requests
    const text = await page.locator('main').innerText();
    assert.ok(text.trim().length > 20, `${route} shows nothing: ${text}`);
    if (screenshots) await page.screenshot({ path: path.join(screenshots, `${route}.png`) });
    console.log(`route ${hash}: ok`);
  }
  if (screenshots) {
    await page.evaluate(() => { window.location.hash = '#/overview'; });
    await page.click('#theme');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(screenshots, 'overview-dark.png') });
    await page.click('#theme');
  }

  // The topology drawing: one box per GPU and per MIG device of the server's layout.
  {
    const layout = await api(`topology/${encodeURIComponent(node)}`);
    const gpus = layout.devices.filter((d) => d.kind === 'gpu');
    const migs = layout.devices.filter((d) => d.kind === 'mig');
    assert.ok(gpus.length > 0, `node ${node} has GPUs in its layout`);
    await show(`#/topology/${node}`, 'main[data-view="topology"] svg.topology g.gpu');
    assert.equal(await page.locator('svg.topology g.gpu').count(), gpus.length, 'a box per GPU');
    assert.equal(await page.locator('svg.topology rect.mig').count(), migs.length, 'a box per MIG device');
    assert.equal(await page.locator('svg.topology g.gpu.fill-held').count(),
      gpus.filter((d) => d.fill === 'held').length, 'held GPUs drawn as held');
    assert.ok(await page.locator('#topology-devices table.data tbody tr').count() > 0, 'the device list stays below');
    console.log(`topology of ${node}: ${gpus.length} GPU and ${migs.length} MIG boxes: ok`);

    // Every line of every box fits inside it, on a node of each GPU model; a cut line ends in
    // an ellipsis and has its whole text as its tooltip.
    const models = new Map();
    for (const n of overview.nodes) if (n.gpus.total > 0 && !models.has(n.models.join())) models.set(n.models.join(), n.name);
    let cut = 0;
    for (const shownNode of models.values()) {
      await show(`#/topology/${shownNode}`, `main[data-view="topology"] svg.topology[aria-label="Topology of node ${shownNode}"] g.gpu`);
      const lines = await page.locator('svg.topology text[data-fit]').evaluateAll((texts) => texts.map((t) => ({
        width: t.getComputedTextLength(), room: Number(t.getAttribute('data-fit')), shown: t.firstChild.data,
        whole: t.getAttribute('data-whole'), tooltip: t.querySelector('title')?.textContent ?? null })));
      assert.ok(lines.length > 0, `the boxes of ${shownNode} have lines`);
      for (const line of lines) {
        assert.ok(line.width <= line.room, `"${line.shown}" (${line.width} px) fits its ${line.room} px on ${shownNode}`);
        if (line.shown === line.whole) continue;
        ++cut;
        assert.ok(line.shown.endsWith('\u2026') && line.whole.startsWith(line.shown.slice(0, -1)), `"${line.shown}" is cut from "${line.whole}"`);
        assert.equal(line.tooltip, line.whole, 'a cut line shows its whole text as its tooltip');
      }
    }
    console.log(`topology labels of ${models.size} GPU models fit their boxes (${cut} cut, with tooltips): ok`);
  }

  // The editor's check pane: the server's counts for the starter text, and "cannot be
  // allocated" once the selector matches nothing.
  {
    const expected = await apiPost('templates/check', STARTER);
    assert.ok(expected.requests?.length, `the starter text checks: ${JSON.stringify(expected)}`);
    await show('#/editor', 'main[data-view="editor"] #check-result .checked-in');
    for (const request of expected.requests) {
      assert.equal(Number(await page.locator(`.match-count[data-request="${request.name}"]`).innerText()),
        request.matching, `request ${request.name} matches what the server counts`);
    }
    const checkedIn = await page.locator('#check-result .checked-in').innerText();
    assert.ok(checkedIn.startsWith(`Checked in ${expected.release}`), `the release the server checked in: ${checkedIn}`);
    if (expected.allocation.copiesThatFit > 0) {
      assert.match(await page.locator('#check-verdict').innerText(),
        new RegExp(`^Fits on ${expected.allocation.nodesWhereOneFits.length} nodes?`));
    }
    // Another release, chosen on the page, is the server's answer in that release.
    const older = await apiPost('templates/check?kubernetesVersion=1.33', STARTER);
    await page.selectOption('#check-release', '1.33');
    await page.locator('#check-result .checked-in', { hasText: `Checked in ${older.release}` }).waitFor({ timeout: 10000 });
    assert.match(new URL(page.url()).hash, /release=1\.33/, 'the release stays in the address');
    for (const request of older.requests) {
      assert.equal(Number(await page.locator(`.match-count[data-request="${request.name}"]`).innerText()),
        request.matching, `request ${request.name} in 1.33`);
    }
    if (older.allocation.copiesThatFit > 0) {
      assert.match(await page.locator('#check-verdict').innerText(),
        new RegExp(`^Fits on ${older.allocation.nodesWhereOneFits.length} nodes?`));
    }
    await page.selectOption('#check-release', '');
    await page.locator('#check-result .checked-in', { hasText: `Checked in ${expected.release}` }).waitFor({ timeout: 10000 });
    const impossible = STARTER.replace(/expression: .*/, "expression: device.attributes['gpu.nvidia.com'].productName == 'no such GPU'");
    assert.notEqual(impossible, STARTER);
    const none = await apiPost('templates/check', impossible);
    assert.equal(none.allocation.copiesThatFit, 0, 'the server cannot allocate the impossible text');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    // Deleted first: Chromium typing over a selection of styled text applies an inline style,
    // which the page's Content-Security-Policy refuses (and reports as a console error).
    await page.keyboard.press('Backspace');
    // Each change asks the quick half at once (match counts, no simulation); the whole check
    // follows once typing pauses.
    const quickAnswer = page.waitForResponse((r) => r.url().includes('/console/v1/templates/check?')
      && r.url().includes('simulate=false') && r.request().postData() === impossible, { timeout: 10000 });
    await page.keyboard.insertText(impossible);
    const quick = await (await quickAnswer).json();
    assert.equal(quick.allocation, undefined, 'the quick half does not simulate');
    assert.deepEqual(quick.requests.map((r) => r.matching), none.requests.map((r) => r.matching),
      'the quick half counts what the whole check counts');
    await page.locator('#check-verdict', { hasText: 'Cannot be allocated' }).waitFor({ timeout: 10000 });
    for (const request of none.requests) {
      assert.equal(Number(await page.locator(`.match-count[data-request="${request.name}"]`).innerText()),
        request.matching, `request ${request.name} matches what the server counts for the changed text`);
    }
    console.log(`editor check: ${expected.requests.map((r) => `${r.name} ${r.matching}`).join(', ')} matching (1.33: ${older.requests.map((r) => r.matching).join(', ')}), then cannot be allocated: ok`);
  }

  // The negative control: the server's verdict and counts for the text the editor holds.
  {
    await show('#/editor', 'main[data-view="editor"] #check-result .checked-in');
    const expected = await apiPost('templates/negative-control', STARTER);
    assert.ok(expected.requests?.length, `the starter text has a negative control: ${JSON.stringify(expected)}`);
    await setEditorText(STARTER);
    await page.click('#negative-control');
    const verdict = page.locator('#negative-verdict');
    await verdict.waitFor({ timeout: 20000 });
    assert.equal(await verdict.innerText(), expected.verdict);
    assert.equal(await verdict.getAttribute('data-proves'), String(expected.proves));
    for (const request of expected.requests) {
      assert.equal(Number(await page.locator(`.negative-original[data-request="${request.name}"]`).innerText()),
        request.originalMatches, `request ${request.name}: devices the original matches`);
      assert.equal(Number(await page.locator(`.negative-matches[data-request="${request.name}"]`).innerText()),
        request.negativeMatches, `request ${request.name}: devices the negative control matches`);
    }
    console.log(`negative control: ${expected.verdict}: ok`);
  }

  // Dry run, diff and apply of a new template through the Kubernetes API, then a change of it;
  // a refusal shows its causes at their fields; Save downloads the text.
  {
    const name = `web-editor-${Date.now()}`;
    // The starter as a user finds it, in the "default" namespace every cluster has.
    const ns = 'default';
    const kubePath = `/apis/resource.k8s.io/v1/namespaces/${ns}/resourceclaimtemplates`;
    const kube = async (apiPath) => fetch(`${demo.base}${apiPath}`, { headers: { Authorization: `Bearer ${demo.token}` } });
    const created = STARTER.replace('name: one-gpu', `name: ${name}`);
    assert.match(created, /namespace: default/);
    assert.notEqual(created, STARTER);
    await setEditorText(created);
    await page.click('#dry-run');
    await page.locator('#dry-run-summary[data-change="create"]').waitFor({ timeout: 20000 });
    const added = await page.locator('#dry-run-diff .diff-add').allInnerTexts();
    assert.ok(added.some((line) => line.includes('deviceClassName: gpu.nvidia.com')), `the diff adds the spec: ${added.join('')}`);
    assert.equal(await page.locator('#dry-run-diff .diff-del').count(), 0, 'a new object removes nothing');
    assert.equal((await kube(`${kubePath}/${name}`)).status, 404, 'the dry run stored nothing');
    await page.click('#apply');
    await page.click('#apply-confirm');
    await page.locator('#apply-result[data-status="201"]').waitFor({ timeout: 20000 });
    const listed = await (await kube(kubePath)).json();
    assert.ok(listed.items.some((item) => item.metadata.name === name), 'the applied template is listed');

    // A change of its labels, shown as lines added; its spec stays as it was.
    const labelled = created.replace(`  name: ${name}\n`, `  name: ${name}\n  labels:\n    team: web\n`);
    assert.notEqual(labelled, created);
    await setEditorText(labelled);
    await page.click('#dry-run');
    await page.locator('#dry-run-summary[data-change="update"]').waitFor({ timeout: 20000 });
    const changes = await page.locator('#dry-run-diff .diff-add, #dry-run-diff .diff-del').allInnerTexts();
    assert.deepEqual(changes.map((line) => line.replace(/\s+/g, ' ').trim()), ['+ metadata:', '+ labels:', '+ team: web'],
      'the diff adds the label and nothing else');
    assert.equal((await (await kube(`${kubePath}/${name}`)).json()).metadata.labels?.team, undefined, 'the dry run stored nothing');
    await page.click('#apply');
    await page.click('#apply-confirm');
    await page.locator('#apply-result[data-status="200"]').waitFor({ timeout: 20000 });
    const stored = await (await kube(`${kubePath}/${name}`)).json();
    assert.equal(stored.metadata.labels.team, 'web');
    assert.ok(stored.metadata.managedFields.some((f) => f.manager === 'dra-console-web' && f.operation === 'Apply'));
    // Opened again from the cluster, it keeps its label, and a dry run finds nothing to change.
    // The editor opens what the console's inventory holds, which follows the API a moment later.
    for (const since = Date.now(); Date.now() - since < 10000;) {
      const mirrored = await api(`templates/${ns}/${name}`).catch(() => null);
      if (JSON.stringify(mirrored ?? {}).includes('"team":"web"')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await show(`#/editor?from=${ns}/${name}`, `main[data-view="editor"] #check-result .checked-in`);
    await page.locator('.cm-content', { hasText: '"team": "web"' }).waitFor({ timeout: 10000 });
    assert.equal(await page.locator('#open-template').inputValue(), `${ns}/${name}`, 'Open shows what is open');
    await page.click('#dry-run');
    await page.locator('#dry-run-summary[data-change="none"]').waitFor({ timeout: 20000 });
    assert.equal(await page.locator('#apply').isDisabled(), true, 'nothing to apply');

    // A template's spec cannot change: the server's 422 shows with the field it names.
    const invalid = labelled.replace("          deviceClassName: gpu.nvidia.com\n", "          deviceClassName: gpu.nvidia.com\n          count: 2\n");
    assert.notEqual(invalid, labelled);
    expectedRefusals.push(`${kubePath}/${name}?fieldManager=dra-console-web&dryRun=All`);
    await setEditorText(invalid);
    await page.click('#dry-run');
    const cause = page.locator('#write-causes li').first();
    await cause.waitFor({ timeout: 20000 });
    assert.match(await cause.innerText(), /^spec: .*immutable/);
    assert.equal(await page.locator('#apply').isDisabled(), true, 'nothing to apply after a refusal');
    assert.equal((await (await kube(`${kubePath}/${name}`)).json()).spec.spec.devices.requests[0].exactly.count, 1);

    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    assert.equal(saved.suggestedFilename(), `${name}.yaml`);
    assert.equal(readFileSync(await saved.path(), 'utf8'), invalid, 'Save downloads the text');
    console.log(`dry run, diff and apply of ${ns}/${name} (created, then labelled), the immutable spec refused at its field, save: ok`);
  }

  // Every view has a key (Alt+1 … Alt+9, Alt+0, Alt+-, Alt+=, Alt+[), shown in the navigation and the
  // palette.
  {
    await show('#/overview', READY.overview);
    const titles = await page.locator('#nav a').evaluateAll((links) => links.map((a) => a.title));
    assert.equal(titles.length, ROUTES.length);
    const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', 'Minus', 'Equal', 'BracketLeft'];
    for (const [index, route] of ROUTES.entries()) {
      const label = { Minus: '-', Equal: '=', BracketLeft: '[' }[keys[index]] ?? keys[index];
      assert.ok(titles[index].endsWith(`(Alt+${label})`), `navigation title ${titles[index]}`);
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press(`Alt+${keys[index]}`);
      await page.waitForSelector(`main[data-view="${route}"]`, { timeout: 10000 });
    }
    await page.keyboard.press('Control+K');
    const last = page.locator('#palette li', { hasText: 'view · Alt+[' });
    await last.waitFor({ timeout: 10000 });
    await page.keyboard.press('Escape');
    console.log(`shortcuts: ${ROUTES.length} views reached with Alt+1…9, Alt+0, Alt+-, Alt+=, Alt+[: ok`);
  }

  // Access: per namespace and class who may claim it, narrowed by the view's choosers; batch's
  // quota keeps MIG slices out, and the findings name the platform group's wildcard grant.
  {
    await show('#/access', READY.access);
    await page.selectOption('main[data-view="access"] select[aria-label=Namespace]', 'batch');
    await page.selectOption('main[data-view="access"] select[aria-label=Class]', 'mig.nvidia.com');
    await page.waitForFunction(() => document.querySelector('main[data-view="access"] table.data tbody')?.rows.length === 1);
    const row = await page.locator('main[data-view="access"] table.data').first().locator('tbody tr').innerText();
    assert.match(row, /batch\s+mig\.nvidia\.com[\s\S]*blocked by quota/, row);
    const findings = await page.locator('main[data-view="access"] table.data').last().innerText();
    assert.match(findings, /WildcardDraGrant[\s\S]*Group ml-platform/, findings);
    console.log('access: batch/mig.nvidia.com blocked by quota, the wildcard grant found: ok');
  }

  // Readiness: the server's checks, in its order, with its verdicts.
  {
    const report = await api('readiness');
    await show('#/readiness', 'main[data-view="readiness"] li.readiness-check');
    const shown = await page.locator('li.readiness-check').evaluateAll((items) =>
      items.map((item) => [item.dataset.check, item.dataset.verdict]));
    assert.deepEqual(shown, report.checks.map((c) => [c.id, c.verdict]));
    console.log(`readiness: ${shown.length} checks, verdict ${report.verdict}: ok`);
  }

  // Migration: the API's workloads with their proposals and verdicts; manifests as text.
  {
    const plan = await api('migration');
    assert.ok(plan.workloads.length > 0, 'the demo runs a device-plugin workload');
    await show('#/migration', 'main[data-view="migration"] li.migration-workload');
    const shown = await page.locator('li.migration-workload').evaluateAll((items) =>
      items.map((item) => [item.dataset.workload, item.dataset.form, item.dataset.fits]));
    assert.deepEqual(shown, plan.workloads.map((w) =>
      [`${w.namespace}/${w.kind}/${w.name}`, w.proposal.form, String(w.verdict.fits)]));
    const withManifests = plan.workloads.findIndex((w) => w.proposal.manifests);
    if (withManifests >= 0) {
      const pre = page.locator('li.migration-workload').nth(withManifests).locator('details[data-block="manifests"] pre');
      assert.equal(await pre.textContent(), plan.workloads[withManifests].proposal.manifests,
        'the manifests are the API\'s text');
      assert.equal(await pre.locator('*').count(), 0, 'as text, not HTML');
    }
    console.log(`migration: ${shown.length} workload(s), ${plan.workloads.filter((w) => w.verdict.fits).length} fit: ok`);
  }

  // A broken selector: the error is shown under the column the compiler gives.
  const broken = "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].productName.startsWith(";
  await page.evaluate(() => { window.location.hash = '#/devices'; });
  await page.waitForSelector(READY.devices);
  await page.fill('#device-selector', broken);
  const error = page.locator('#selector-problems li.error').first();
  await error.waitFor({ timeout: 10000 });
  const column = Number(await error.getAttribute('data-column'));
  // `dractl cel check` exits 2 for an expression that does not compile, and says where.
  const checked = JSON.parse(spawnSync(dractl, ['cel', 'check', '--expr', broken, '-o', 'json'],
    { encoding: 'utf8' }).stdout);
  assert.equal(column, checked.diagnostics[0].column, 'the column the compiler names');
  const [source, caret] = (await error.locator('pre.caret').innerText()).split('\n');
  assert.equal(source, broken);
  assert.equal(caret.indexOf('^'), column - 1, `caret under column ${column}: ${caret}`);
  assert.match(await page.locator('#device-count').innerText(), /^0 of /);
  console.log(`broken selector: error at 1:${column}: ok`);

  // A kubectl label on the slice of the device shown appears without a reload.
  await page.fill('#device-selector', '');
  await page.waitForSelector(READY.devices);
  await page.locator('.vt-row').first().click();
  const sliceHeading = page.locator('#device-details h4', { hasText: 'ResourceSlice' });
  await sliceHeading.waitFor();
  const slice = (await sliceHeading.innerText()).replace('ResourceSlice', '').trim();
  await page.evaluate(() => { window.notReloaded = true; });
  const value = `v${Date.now()}`;
  const started = Date.now();
  execFileSync('kubectl', ['--kubeconfig', demo.kubeconfig, '--cache-dir', path.join(demo.dir, 'kube-cache'),
    'label', 'resourceslice', slice, `web-console-test=${value}`, '--overwrite'], { stdio: 'ignore' });
  const labelled = Date.now();
  await page.locator('#device-details', { hasText: value }).waitFor({ timeout: 10000 });
  assert.equal(await page.evaluate(() => window.notReloaded), true, 'the page did not reload');
  console.log(`kubectl label on ${slice}: shown ${Date.now() - labelled} ms after kubectl returned (${Date.now() - started} ms with kubectl)`);

  // The server stops and starts again on the same port with the same cache: the page's
  // WebSocket says so, comes back by itself, and a change made after it shows in the same
  // page, still without a reload.
  {
    await page.evaluate(() => {
      window.liveStates = [];
      const live = document.getElementById('live');
      new MutationObserver(() => window.liveStates.push(live.className)).observe(live, { attributes: true, childList: true });
    });
    const before = problems.length;
    const stopped = Date.now();
    await demo.restart();
    const serving = Date.now();
    await page.waitForFunction(() => window.liveStates.includes('reconnecting'), null, { timeout: 10000 });
    await page.waitForFunction(() => window.liveStates.at(-1) === 'live', null, { timeout: 30000 });
    const live = Date.now();
    const refused = forgetRefusedSince(before);
    const after = `r${Date.now()}`;
    execFileSync('kubectl', ['--kubeconfig', demo.kubeconfig, '--cache-dir', path.join(demo.dir, 'kube-cache'),
      'label', 'resourceslice', slice, `web-console-test=${after}`, '--overwrite'], { stdio: 'ignore' });
    const labelled = Date.now();
    // A server that has just started reads its cache first: the time is printed, not asserted.
    await page.locator('#device-details', { hasText: after }).waitFor({ timeout: 30000 });
    assert.equal(await page.evaluate(() => window.notReloaded), true, 'the page did not reload');
    console.log(`restart: the server served again after ${serving - stopped} ms, the page was live ${live - serving} ms later `
      + `(${await page.evaluate(() => window.liveStates.filter((state, i, all) => state !== all[i - 1]).join(' → '))}, `
      + `${refused.length} refused attempts); `
      + `a label after it shown ${Date.now() - labelled} ms after kubectl returned: ok`);
  }

  // Pool status: the page asks the demo cluster (a ResourcePoolStatusRequest made with the
  // page's token and deleted after) and sets the answer beside the mirror's count.
  {
    await page.evaluate(() => { window.location.hash = '#/free?by=pool'; });
    await page.waitForSelector(READY.free);
    // A driver of the inventory is suggested; the GPUs' is asked for.
    await page.waitForFunction(() => document.getElementById('pools-driver').value !== '');
    await page.fill('#pools-driver', 'gpu.nvidia.com');
    await page.click('#pools-ask');
    const summary = page.locator('#pools-summary');
    await summary.waitFor({ timeout: 30000 });
    assert.equal(await summary.getAttribute('data-source'), 'cluster', await summary.textContent());
    const rows = await page.locator('#pools-result tr.pool').count();
    assert.ok(rows > 0, 'one row per pool');
    // The only difference a 1.36 cluster may show is that it does not count tainted devices.
    for (const text of await page.locator('#pools-result tr.differs').allTextContents())
      assert.match(text, /unavailableDevices: cluster 0/, text);
    const left = execFileSync('kubectl', ['--kubeconfig', demo.kubeconfig, '--cache-dir', path.join(demo.dir, 'kube-cache'),
      'get', 'resourcepoolstatusrequests', '-o', 'name'], { encoding: 'utf8' });
    assert.equal(left, '', 'the page deleted its request');
    console.log(`pool status: ${await summary.textContent()} ok`);
  }

  // The same cache served read-only: the editor's dry run and apply are disabled and say why.
  {
    const before = problems.length;
    await demo.restart({ readOnly: true });
    await page.goto(`${demo.base}/ui/#/editor`);
    await page.reload(); // a page of the new server, not the same document
    await page.waitForSelector('main[data-view="editor"] #check-result .checked-in', { timeout: 30000 });
    await page.locator('#write-state', { hasText: 'read-only' }).waitFor({ timeout: 10000 });
    assert.equal(await page.locator('#dry-run').isDisabled(), true);
    assert.equal(await page.locator('#apply').isDisabled(), true);
    assert.match(await page.locator('#dry-run').getAttribute('title'), /takes no writes/);
    assert.equal(await page.locator('#negative-control').isDisabled(), false, 'the negative control only reads');
    forgetRefusedSince(before);
    console.log('read-only server: dry run and apply disabled, saying why: ok');
  }

  assert.deepEqual(problems.filter((p) => !expectedRefusals.some((url) => p.includes(url))), [], 'no console errors');
  console.log('web console in chromium: ok');
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await demo.stop();
}
process.exit(failed ? 1 : 0);
