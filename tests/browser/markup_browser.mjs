// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A ResourceSlice whose attribute value holds markup, in a real browser on `dractl serve --demo`:
//   node markup_browser.mjs DRACTL
// Anyone who may publish a slice writes its attribute values. The console API hands the value on
// as it is (no escaping that would show as "&lt;" once the page puts it in as text), and the
// device's details pane shows it as text: no element is made of it and no script of it runs.
// Exit 77 (skipped) without chromium.
import assert from 'node:assert/strict';
import { READY, SKIP, haveChromium, launchBrowser, startDemo } from './console_session.mjs';

const [dractl] = process.argv.slice(2);
if (!haveChromium()) {
  console.log('skipped: /usr/bin/chromium is not installed (apt-get install chromium)');
  process.exit(SKIP);
}

// Within the 64 characters of an attribute string.
const MARKUP = '<b id=pwned>x</b><img src=x onerror=window.pwned=1>';

const demo = await startDemo(dractl);
const browser = await launchBrowser();
let failed = false;
try {
  const headers = { Authorization: `Bearer ${demo.token}`, 'Content-Type': 'application/json' };
  const slicesPath = `${demo.base}/apis/resource.k8s.io/v1/resourceslices`;
  const slices = await (await fetch(slicesPath, { headers })).json();
  const slice = slices.items.find((item) => item.spec.nodeName && item.spec.devices?.length);
  assert.ok(slice, 'the demo has a node-local slice with devices');
  const device = slice.spec.devices[0];
  device.attributes = { ...(device.attributes ?? {}), note: { string: MARKUP } };
  const put = await fetch(`${slicesPath}/${slice.metadata.name}`, { method: 'PUT', headers, body: JSON.stringify(slice) });
  assert.equal(put.status, 200, `PUT of the slice: ${await put.text()}`);

  // The console API carries the value as it is.
  const query = new URLSearchParams({ driver: slice.spec.driver, pool: slice.spec.pool.name, name: device.name });
  let details;
  for (let tries = 0; tries < 100; ++tries) {
    details = await (await fetch(`${demo.base}/console/v1/device?${query}`, { headers })).json();
    if (JSON.stringify(details.attributes ?? {}).includes('pwned')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const shown = Object.entries(details.attributes ?? {}).find(([key]) => key.endsWith('note'));
  assert.ok(shown, `the console API shows the new attribute: ${JSON.stringify(details.attributes)}`);
  assert.equal(shown[1], MARKUP, 'the console API hands the value on unescaped');

  const page = await browser.context.newPage();
  await page.goto(`${demo.base}/ui/#/devices?token=${demo.token}`);
  await page.waitForSelector(READY.devices);
  await page.fill('#device-words', `${slice.spec.nodeName} ${device.name}`);
  const row = page.locator('.vt-row', { hasText: device.name }).first();
  await row.waitFor();
  await row.click();
  await page.waitForFunction(() => document.querySelector('#device-details table.kv')?.textContent.includes('note'),
    null, { timeout: 30000 });
  const seen = await page.evaluate(() => ({
    text: document.getElementById('device-details').textContent,
    pwned: window.pwned,
    bold: document.getElementById('pwned') !== null,
    images: document.querySelectorAll('#device-details img').length,
  }));
  assert.ok(seen.text.includes(MARKUP), `the details pane shows the value as text: ${seen.text}`);
  assert.equal(seen.pwned, undefined, 'a script of the attribute value ran');
  assert.equal(seen.bold, false, 'the attribute value became an element');
  assert.equal(seen.images, 0, 'the attribute value became an image');
  console.log('markup in an attribute value is shown as text');
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await demo.stop();
}
process.exit(failed ? 1 : 0);
