// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A rollout driven from the web console in a real browser, on `dractl serve --demo` (whose
// server hosts the rollout controllers):
//   node rollouts_browser.mjs DRACTL [SCREENSHOT_DIR]
// - "Start from plan…" with the demo plan (resources/rollouts/demo-llm-server.yaml, windows of
//   seconds) starts the rollout: the pre-flight passes and the canary runs;
// - the verb buttons are enabled exactly as the server's `verbs` list says, Abort / roll back
//   among them;
// - once the canary's gates passed and its window ran, Promote takes it past Canary to Shadow;
// - Abort / roll back (with a reason and its confirmation) rolls it back: the page shows
//   RolledBack, and the API mirror has the baseline Deployment back at its replicas and the
//   canary Deployment gone;
// - the audit log's chain is shown intact, as `dractl rollout audit --verify` finds it.
// Every expected figure is the server's own answer. Exit 77 (skipped) without chromium.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SKIP, haveChromium, launchBrowser, startDemo } from './console_session.mjs';

const [dractl, screenshots] = process.argv.slice(2);
if (!haveChromium()) {
  console.log('skipped: /usr/bin/chromium is not installed (apt-get install chromium)');
  process.exit(SKIP);
}

const PLAN = path.resolve('resources/rollouts/demo-llm-server.yaml');
const NAME = 'demo-llm-server';
const stateDir = mkdtempSync(path.join(tmpdir(), 'dra-web-rollout-'));
const state = path.join(stateDir, 'state.db');
const demo = await startDemo(dractl, { extra: ['--state', state] });
const browser = await launchBrowser();
let failed = false;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
try {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const get = async (apiPath) => {
    const response = await fetch(`${demo.base}${apiPath}`, { headers: { Authorization: `Bearer ${demo.token}` } });
    return { status: response.status, body: await response.json().catch(() => ({})) };
  };
  const detail = async () => (await get(`/console/v1/rollouts/${NAME}`)).body;
  const stageShown = (stage, timeout) => page.locator(`#rollout-stage[data-stage="${stage}"]`).waitFor({ timeout });
  // Start goes through "Start from plan…", not a button of the rollout.
  const buttonVerbs = (verbs) => verbs.filter((v) => v !== 'start').sort();
  const enabledVerbs = () => page.locator('button.verb:not([disabled])').evaluateAll((buttons) => buttons.map((b) => b.dataset.verb));
  const shoot = async (name) => {
    if (screenshots) await page.screenshot({ path: path.join(screenshots, `rollout-${name}.png`) });
  };
  if (screenshots) mkdirSync(screenshots, { recursive: true });

  await page.goto(`${demo.base}/ui/#/rollouts?token=${demo.token}`);
  await page.locator('#no-rollouts').waitFor({ timeout: 20000 });
  await page.locator('#start-from-plan:not([disabled])').waitFor();

  // Start from plan…: the page moves to the rollout, which the server's controller takes to
  // Canary.
  const started = Date.now();
  await page.setInputFiles('#plan-file', PLAN);
  await page.waitForURL(new RegExp(`#/rollouts/${NAME}$`), { timeout: 60000 });
  await stageShown('Canary', 120000);
  const atCanary = Date.now();
  console.log(`started from the page: Canary after ${atCanary - started} ms`);

  // The buttons are the server's verbs; Abort / roll back is there.
  {
    const d = await detail();
    assert.equal(d.stage, 'Canary');
    assert.deepEqual((await enabledVerbs()).sort(), buttonVerbs(d.verbs), 'buttons enabled as the server allows');
    assert.ok(await page.locator('button.verb-abort').isVisible(), 'Abort / roll back is shown');
    assert.match(await page.locator('#rollout-driver').innerText(), /this server/);
  }

  // Past Canary: promote once the canary's gates passed and its window ran.
  {
    const deadline = Date.now() + 120000;
    let ready = false;
    while (!ready && Date.now() < deadline) {
      const d = await detail();
      const gates = Object.values(d.gates ?? {});
      ready = d.stage === 'Canary' && gates.length > 0 && gates.every((g) => g.verdict === 'Passed')
        && Date.now() - d.stageEnteredAt > 6000;
      if (!ready) await sleep(500);
    }
    assert.ok(ready, `the canary's gates passed: ${JSON.stringify((await detail()).gates)}`);
    // The page shows each gate of the stage (with its checks) as the server has them.
    const gates = Object.keys((await detail()).gates).sort();
    await page.waitForFunction((expected) => JSON.stringify([...document.querySelectorAll('#rollout-gates section.gate')]
      .map((g) => g.dataset.gate).sort()) === expected, JSON.stringify(gates), { timeout: 10000 });
    assert.ok(await page.locator('#rollout-gates ul.checks li').count() >= gates.length, 'each gate with its checks');
    // The node gate's topology pictures, drawn as images.
    const pictures = Object.values((await detail()).gates).reduce((n, g) => n + Object.keys(g.pictures ?? {}).length, 0);
    if (pictures > 0) {
      await page.waitForFunction((n) => [...document.querySelectorAll('figure.gate-picture img')]
        .filter((img) => img.complete && img.naturalWidth > 0).length >= n, pictures, { timeout: 10000 });
    }
    console.log(`canary gates shown: ${gates.join(', ')}; ${pictures} topology picture(s)`);
    await shoot('canary');
    await page.fill('#verb-reason', 'canary looks healthy');
    await page.click('button.verb-promote');
    await stageShown('Shadow', 60000);
    const promoted = (await detail()).timeline.find((t) => t.verb === 'promote');
    assert.equal(promoted.note, 'canary looks healthy', 'the reason is in the history');
    assert.match(promoted.actor, /web console/);
    console.log(`promoted past Canary: Shadow ${Date.now() - atCanary} ms after Canary`);
  }

  // Abort / roll back, confirmed: the baseline comes back.
  {
    const baselineReplicas = (await detail()).baselineReplicas;
    assert.ok(baselineReplicas > 0, 'the rollout captured the baseline replicas');
    await page.fill('#verb-reason', 'browser test: roll back');
    await page.click('button.verb-abort');
    await page.locator('#verb-confirm #confirm-verb').waitFor();
    assert.equal((await detail()).stage, 'Shadow', 'nothing happens before the confirmation');
    const aborted = Date.now();
    await page.click('#confirm-verb');
    await stageShown('RolledBack', 180000);
    console.log(`aborted: RolledBack ${Date.now() - aborted} ms after the confirmation`);
    await shoot('rolled-back');
    const baseline = await get('/apis/apps/v1/namespaces/inference/deployments/llm-server');
    assert.equal(baseline.status, 200);
    assert.equal(baseline.body.spec.replicas, baselineReplicas, 'the baseline is back at its replicas');
    const canary = await get('/apis/apps/v1/namespaces/inference/deployments/llm-server-dra');
    assert.equal(canary.status, 404, 'the canary Deployment is gone');
    const d = await detail();
    assert.deepEqual((await enabledVerbs()).sort(), buttonVerbs(d.verbs), 'buttons follow the new stage');
    assert.ok(await page.locator('button.verb-abort').isVisible(), 'Abort / roll back stays shown');
    const abort = d.timeline.find((t) => t.verb === 'abort');
    assert.equal(abort.note, 'browser test: roll back');
  }

  // The audit chain as the page shows it and as dractl verifies it.
  {
    await page.locator('#audit-verification [data-intact="true"]').waitFor({ timeout: 10000 });
    const verified = spawnSync(dractl, ['rollout', 'audit', '--verify', '-o', 'json', '--state', state], { encoding: 'utf8' });
    assert.equal(verified.status, 0, verified.stderr);
    const chain = JSON.parse(verified.stdout);
    assert.equal(chain.intact, true);
    const d = await detail();
    assert.equal(d.audit.verification.entries, chain.entries, 'the page verified the chain dractl verifies');
    assert.equal(d.audit.verification.headHash, chain.headHash);
    assert.equal(await page.locator('#rollout-audit tr.audit-entry').count(), d.audit.entries.length);
    console.log(`audit: ${chain.entries} entries, chain intact`);
  }

  assert.deepEqual(problems, [], 'no console errors');
  console.log(`rollout from the web console: ok (${Date.now() - started} ms in all)`);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await demo.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
