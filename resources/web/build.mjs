// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Bundles the web console: node resources/web/build.mjs OUT_DIR [--watch]
// src/main.js and what it imports (CodeMirror from node_modules) become OUT_DIR/app.js,
// style.css becomes OUT_DIR/style.css, index.html is copied. CMake runs it at build time; with
// --watch it rebuilds on every save, for `dractl serve --web-root OUT_DIR`.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? 'build/web');
const watch = process.argv.includes('--watch');

await mkdir(out, { recursive: true });
const options = {
  entryPoints: { app: path.join(here, 'src/main.js'), style: path.join(here, 'style.css') },
  bundle: true,
  format: 'esm',
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  target: ['chrome110', 'firefox115', 'safari16'],
  outdir: out,
  legalComments: 'none',
  logLevel: 'warning',
};
await copyFile(path.join(here, 'index.html'), path.join(out, 'index.html'));
if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log(`watching resources/web, bundling into ${out}`);
} else {
  await esbuild.build(options);
}
