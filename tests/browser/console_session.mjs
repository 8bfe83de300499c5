// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What the browser tests and the screenshot helper share: a `dractl serve --demo` of their own
// on a free loopback port, and Debian's chromium driven by playwright-core (never a downloaded
// browser), started with the flags this machine's closed network needs and a fresh profile.
//
// Environment:
//   DRA_WEB_ROOT  a bundle folder (`node resources/web/build.mjs DIR`): the server serves the
//                 page from there (`dractl serve --web-root DIR`) instead of the bundle built
//                 into dractl, so the page's sources are tested without rebuilding dractl.
//   DRA_CHROMIUM  the browser to drive (default /usr/bin/chromium).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

// The demo server's certificate is self-signed and made for this run; the tests' own requests
// (fetch) accept it as the browser context does.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

export const CHROMIUM = process.env.DRA_CHROMIUM ?? '/usr/bin/chromium';
export const SKIP = 77; // ctest's SKIP_RETURN_CODE for these tests

export const ROUTES = ['overview', 'devices', 'classes', 'access', 'topology', 'claims', 'templates',
  'editor', 'lint', 'readiness', 'free', 'rollouts', 'migration'];

// Starts `dractl serve --demo[=preset]`; resolves with {base, token, kubeconfig, dir, stop,
// restart} once its banner printed the web console's link. restart() stops the server and
// starts it again on the same port with the same cache, token and certificate, as an
// administrator restarting the mirror does; it resolves once the new one serves. With
// {readOnly: true} the cache is served as it is (`dractl serve --cache`, offline, read-only).
export async function startDemo(dractl, { preset, extra = [] } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'dra-web-'));
  const kubeconfig = path.join(dir, 'demo.kubeconfig');
  const webRoot = process.env.DRA_WEB_ROOT ? ['--web-root', process.env.DRA_WEB_ROOT] : [];
  const demoMode = [preset ? `--demo=${preset}` : '--demo'];
  const launch = async (listen, mode = demoMode) => {
    const server = spawn(dractl, ['serve', ...mode, '--listen', listen,
      '--cache', path.join(dir, 'demo.db'), '--write-kubeconfig', kubeconfig, ...webRoot, ...extra], {
      env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let banner = '';
    let errors = '';
    server.stderr.on('data', (chunk) => { errors += chunk; });
    const link = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dractl serve printed no banner in 120 s:\n${banner}${errors}`)), 120000);
      server.stdout.on('data', (chunk) => {
        banner += chunk;
        const match = /web console: (https:\/\/\S+)\/ui\/#\/overview\?token=(\S+)\n/.exec(banner);
        if (match && banner.includes('kubeconfig:')) {
          clearTimeout(timer);
          resolve({ base: match[1], token: match[2] });
        }
      });
      server.on('exit', (code) => reject(new Error(`dractl serve exited (${code}):\n${banner}${errors}`)));
    });
    return { server, link };
  };
  const halt = async (server) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve).once('error', resolve));
    server.kill('SIGTERM');
    await exited;
  };
  let { server, link } = await launch('127.0.0.1:0');
  const stop = async () => {
    await halt(server);
    rmSync(dir, { recursive: true, force: true });
  };
  const restart = async ({ readOnly = false } = {}) => {
    await halt(server);
    ({ server } = await launch(new URL(link.base).host, readOnly ? [] : demoMode));
  };
  return { ...link, kubeconfig, dir, stop, restart };
}

// A headless Chromium with a fresh profile; the context ignores the demo's self-signed
// certificate.
export async function launchBrowser({ width = 1280, height = 800, colorScheme = 'light' } = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), 'dra-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    ignoreHTTPSErrors: true,
    viewport: { width, height },
    colorScheme,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function haveChromium() {
  return existsSync(CHROMIUM);
}

// What each route shows once its data is there: a selector the test waits for.
export const READY = {
  overview: '.tile',
  devices: '.vt-row.state-free, .vt-row.state-allocated, .vt-row.state-blocked, .vt-row.state-tainted',
  classes: 'table.data tbody tr',
  access: 'table.data tbody tr',
  topology: 'svg.topology g.gpu, svg.topology g.nic',
  claims: 'table.data tbody tr',
  templates: 'table.data tbody tr, p.muted',
  editor: '#check-result .checked-in, #check-result #check-error',
  lint: 'p:not(:empty)',
  readiness: 'li.readiness-check',
  free: 'table.data tbody tr',
  rollouts: '#rollout-list table.data, #no-rollouts',
  migration: 'li.migration-workload, #no-migration',
};
