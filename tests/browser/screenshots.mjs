// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A PNG of every route of the web console on the demo cluster, for the docs:
//   node tests/browser/screenshots.mjs DRACTL OUT_DIR [--preset=mixed] [--width=1280 --height=800]
// Each route is shown once its data is there; the overview also in the dark theme.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { READY, ROUTES, SKIP, haveChromium, launchBrowser, startDemo } from './console_session.mjs';

const [dractl, out] = process.argv.slice(2);
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
if (!dractl || !out) {
  console.error('usage: node tests/browser/screenshots.mjs DRACTL OUT_DIR [--preset=P] [--width=W --height=H]');
  process.exit(2);
}
if (!haveChromium()) {
  console.log('skipped: /usr/bin/chromium is not installed (apt-get install chromium)');
  process.exit(SKIP);
}
mkdirSync(out, { recursive: true });
const demo = await startDemo(dractl, { preset: option('preset', undefined) });
const browser = await launchBrowser({ width: Number(option('width', 1280)), height: Number(option('height', 800)) });
try {
  const page = await browser.context.newPage();
  await page.goto(`${demo.base}/ui/#/overview?token=${demo.token}`);
  await page.waitForSelector(READY.overview);
  const overview = await (await fetch(`${demo.base}/console/v1/overview`, { headers: { Authorization: `Bearer ${demo.token}` } })).json();
  const node = overview.nodes.find((n) => n.partitions.placements > 0 || n.gpus.total > 0)?.name ?? overview.nodes[0].name;
  const claims = await (await fetch(`${demo.base}/console/v1/claims`, { headers: { Authorization: `Bearer ${demo.token}` } })).json();
  const pending = claims.claims.find((c) => c.state === 'pending') ?? claims.claims[0];
  const extra = { topology: `/${node}`, claims: pending ? `?claim=${pending.namespace}/${pending.name}` : '' };
  for (const route of ROUTES) {
    await page.evaluate((h) => { window.location.hash = h; }, `#/${route}${extra[route] ?? ''}`);
    await page.waitForSelector(`main[data-view="${route}"] ${READY[route].split(', ')[0]}`, { timeout: 20000 }).catch(() => {});
    if (route === 'claims' && pending) await page.waitForSelector('#claims-details h3', { timeout: 60000 });
    if (route === 'devices') {
      await page.locator('.vt-row').first().click();
      await page.waitForSelector('#device-details h4');
    }
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(out, `${route}.png`) });
    console.log(path.join(out, `${route}.png`));
  }
  await page.evaluate(() => { window.location.hash = '#/overview'; });
  await page.click('#theme');
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(out, 'overview-dark.png') });
  console.log(path.join(out, 'overview-dark.png'));
} finally {
  await browser.close();
  await demo.stop();
}
