// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console where users wait, in headless Chromium against `dractl serve` of a cache:
//   node bench/web_bench.mjs DRACTL CACHE [--runs=5] [--keystrokes=30]
// Prints one JSON line: page load to the first painted Devices table (ms, median of fresh
// pages), keystroke in the devices selector to the updated match count (network round trip
// included; p50, p90), a write through the API to the change shown in the page (ms), the
// page's JS heap with the table of every device loaded (MB), and a keystroke in the template
// editor to its updated match counts (p50, p90).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../tests/browser/console_session.mjs';

const [dractl, cache] = process.argv.slice(2);
const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const runs = option('runs', 5);
const keystrokes = option('keystrokes', 30);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

const dir = mkdtempSync(path.join(tmpdir(), 'dra-web-bench-'));
const server = spawn(dractl, ['serve', '--cache', cache, '--writable', '--listen', '127.0.0.1:0'], {
  env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') }, stdio: ['ignore', 'pipe', 'inherit'] });
const { base, token } = await new Promise((resolve, reject) => {
  let banner = '';
  server.stdout.on('data', (chunk) => {
    banner += chunk;
    const match = /web console: (https:\/\/\S+)\/ui\/#\/overview\?token=(\S+)\n/.exec(banner);
    if (match) resolve({ base: match[1], token: match[2] });
  });
  server.on('exit', (code) => reject(new Error(`dractl serve exited (${code})`)));
});
const browser = await launchBrowser({ width: 1280, height: 800 });
const result = {};
try {
  // Warm the server's snapshot once (a server reads the inventory on the first page request).
  await fetch(`${base}/console/v1/info`, { headers: { Authorization: `Bearer ${token}` } });
  const loads = [];
  for (let run = 0; run < runs; ++run) {
    const page = await browser.context.newPage();
    const started = Date.now();
    await page.goto(`${base}/ui/#/devices?token=${token}`);
    await page.waitForSelector('.vt-row.state-free, .vt-row.state-allocated, .vt-row.state-blocked, .vt-row.state-tainted');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
    loads.push(Date.now() - started);
    await page.close();
  }
  result.devices_first_paint_ms = median(loads);

  const page = await browser.context.newPage();
  await page.goto(`${base}/ui/#/devices?token=${token}`);
  await page.waitForSelector('.vt-row');
  const total = await page.locator('#device-count').innerText();
  result.devices = total;
  const times = [];
  for (let i = 0; i < keystrokes; ++i) {
    // Each expression differs (a marker in it), so each keystroke asks the server again.
    const marker = i % 2 ? `NVIDIA H100 #${i}` : `NVIDIA #${i}`;
    const expression = `device.attributes['gpu.nvidia.com'].productName.startsWith('${marker}') || device.driver == 'gpu.nvidia.com'`;
    const answered = page.waitForResponse((r) => r.url().includes('/console/v1/devices')
      && decodeURIComponent(r.url().replace(/\+/g, ' ')).includes(marker), { timeout: 20000 });
    const started = Date.now();
    await page.fill('#device-selector', expression);
    await answered;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
    times.push(Date.now() - started - 150); // less the page's typing pause (debounce)
  }
  result.selector_keystroke_p50_ms = percentile(times, 0.5);
  result.selector_keystroke_p90_ms = percentile(times, 0.9);
  await page.fill('#device-selector', '');
  await page.waitForTimeout(500);
  // Scroll through every row so the page has held the whole table once.
  await page.evaluate(async () => {
    const scroller = document.querySelector('.vt-scroll');
    for (let top = 0; top < scroller.scrollHeight; top += scroller.clientHeight * 20) {
      scroller.scrollTop = top;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  const session = await browser.context.newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  await session.send('Performance.enable');
  const metrics = await session.send('Performance.getMetrics');
  const heap = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  result.page_heap_mb = Math.round(heap / 1e5) / 10;

  // A change written through the API (as kubectl writes) to the page showing it.
  await page.locator('.vt-row').first().click();
  const heading = page.locator('#device-details h4', { hasText: 'ResourceSlice' });
  await heading.waitFor();
  const slice = (await heading.innerText()).replace('ResourceSlice', '').trim();
  const value = `v${Date.now()}`;
  const started = Date.now();
  const response = await fetch(`${base}/apis/resource.k8s.io/v1/resourceslices/${slice}`, {
    method: 'PATCH', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/merge-patch+json' },
    body: JSON.stringify({ metadata: { labels: { 'bench-web': value } } }) });
  if (!response.ok) throw new Error(`PATCH ${slice}: ${response.status}`);
  await page.locator('#device-details', { hasText: value }).waitFor({ timeout: 10000 });
  result.change_to_page_ms = Date.now() - started;

  // A keystroke in the template editor to the updated match counts (the quick half of the
  // check, asked at once on every change; network round trip and paint included).
  const editor = await browser.context.newPage();
  await editor.goto(`${base}/ui/#/editor?token=${token}`);
  await editor.waitForSelector('#check-result .checked-in', { timeout: 60000 });
  await editor.locator('.cm-content').click();
  await editor.keyboard.press('Control+A');
  await editor.keyboard.press('Backspace');
  // The selector's string literal ends the text, so End and two steps left type inside it.
  await editor.keyboard.insertText(`apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: bench-keystrokes
  namespace: default
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: "device.driver == 'gpu.nvidia.com' || device.attributes['gpu.nvidia.com'].productName == 'H'"`);
  await editor.waitForSelector('#check-result .checked-in');
  await editor.keyboard.press('Control+End');
  await editor.keyboard.press('ArrowLeft');
  await editor.keyboard.press('ArrowLeft');
  const editorTimes = [];
  let typed = 'H';
  for (let i = 0; i < keystrokes; ++i) {
    const letter = String.fromCharCode(65 + (i % 26));
    typed += letter;
    const expected = `productName == '${typed}'`;
    const answered = editor.waitForResponse((r) => r.url().includes('/console/v1/templates/check?')
      && r.url().includes('simulate=false') && (r.request().postData() ?? '').includes(expected), { timeout: 20000 });
    const started = Date.now();
    await editor.keyboard.type(letter);
    await answered;
    await editor.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
    editorTimes.push(Date.now() - started);
    await editor.waitForTimeout(60); // a typist's pace: the answer before the next key
  }
  result.editor_keystroke_p50_ms = percentile(editorTimes, 0.5);
  result.editor_keystroke_p90_ms = percentile(editorTimes, 0.9);
  await editor.close();
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
