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
// - a `kubectl label` on a ResourceSlice appears in the open page without a reload.
// With SCREENSHOT_DIR, a PNG of every route goes there. Exit 77 (skipped) without chromium.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { READY, ROUTES, SKIP, haveChromium, launchBrowser, startDemo } from './console_session.mjs';

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

  // The link the server printed: the token leaves the address bar, the route stays.
  await page.goto(`${demo.base}/ui/#/devices?token=${demo.token}`);
  await page.waitForSelector(READY.devices);
  assert.equal(new URL(page.url()).hash, '#/devices');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('draconsole.token')), demo.token);
  // The old form still works.
  await page.goto(`${demo.base}/ui/#token=${demo.token}`);
  await page.waitForSelector(READY.overview);
  assert.equal(new URL(page.url()).hash, '#/overview');

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

  assert.deepEqual(problems, [], 'no console errors');
  console.log('web console in chromium: ok');
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await demo.stop();
}
process.exit(failed ? 1 : 0);
