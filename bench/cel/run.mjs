// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// bench/cel: realistic DRA selectors over one inventory (constant keys, and keys computed at
// run time, key tests and map iteration), timed in our engine (`dractl bench cel`: Kubernetes'
// device binding with shared evaluations as the editor sweeps, the same without sharing, and
// plain CEL maps) and, in the same run, against two yardsticks:
// - the hand-written C++ predicate of each selector over a pre-decoded table (floor.cpp):
//   target, ours with shared evaluations within 2x of it;
// - the fastest JavaScript CEL engines from npm on the equivalent plain-CEL expressions
//   (versions as strings, capacities as integers in base units: they have no Kubernetes
//   libraries): target, ours on plain maps at least as fast.
// and a full sweep of the inventory (a keystroke's re-check) under 10 ms. Prints ns per device,
// the ratios, whether match counts agree, and whether the targets are met. Usage:
//   node bench/cel/run.mjs --dractl PATH --floor PATH --inventory FILE --node-modules DIR [--runs N]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const runs = Number(args.runs ?? 20);
const warmup = Number(args.warmup ?? 3);
const here = dirname(fileURLToPath(import.meta.url));
const selectors = JSON.parse(readFileSync(join(here, "selectors.json"), "utf8"));
const modules = (p) => pathToFileURL(join(args["node-modules"], p)).href;
const bufbuild = await import(modules("@bufbuild/cel/dist/esm/index.js"));
const celjs = await import(modules("@marcbachmann/cel-js/lib/index.js"));

// Quantities as whole numbers of their base unit, rounded up like Kubernetes' Value().
const suffixes = { Ki: 2n ** 10n, Mi: 2n ** 20n, Gi: 2n ** 30n, Ti: 2n ** 40n, Pi: 2n ** 50n, Ei: 2n ** 60n,
  k: 10n ** 3n, M: 10n ** 6n, G: 10n ** 9n, T: 10n ** 12n, P: 10n ** 15n, E: 10n ** 18n, "": 1n };
function quantityValue(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([a-zA-Z]*)$/.exec(text);
  if (!m || !(m[4] in suffixes || m[4] === "m")) throw new Error(`unsupported quantity ${text}`);
  const [, sign, whole, frac = "", suffix] = m;
  const scale = 10n ** BigInt(frac.length);
  let numerator = BigInt((whole || "0") + frac) * (suffix === "m" ? 1n : suffixes[suffix]);
  let denominator = scale * (suffix === "m" ? 1000n : 1n);
  const v = (numerator + denominator - 1n) / denominator;
  return sign === "-" ? -v : v;
}

// Devices of the ResourceSliceList in file order, as plain objects.
function loadDevices(path) {
  const list = JSON.parse(readFileSync(path, "utf8"));
  const devices = [];
  for (const slice of list.items ?? []) {
    if (slice.kind !== "ResourceSlice") continue;
    const driver = slice.spec.driver;
    for (const d of slice.spec.devices ?? []) {
      const attributes = {}, capacity = {};
      const qualify = (name) => (name.includes("/") ? name.split("/", 2) : [driver, name]);
      for (const [name, a] of Object.entries(d.attributes ?? {})) {
        const [domain, id] = qualify(name);
        const value = "int" in a ? BigInt(a.int) : "bool" in a ? a.bool : "string" in a ? a.string : a.version;
        if (value === undefined) continue;
        (attributes[domain] ??= {})[id] = value;
      }
      for (const [name, c] of Object.entries(d.capacity ?? {})) {
        const [domain, id] = qualify(name);
        (capacity[domain] ??= {})[id] = quantityValue(c.value);
      }
      devices.push({ driver, allowMultipleAllocations: d.allowMultipleAllocations ?? false, attributes, capacity });
    }
  }
  return devices;
}

const toMap = (v) => (v && typeof v === "object" && !Array.isArray(v)
  ? new Map(Object.entries(v).map(([k, x]) => [k, toMap(x)])) : v);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// Times `evaluate` over every input; returns median ns per device and the counts.
function time(inputs, evaluate) {
  let matches = 0, errors = 0;
  const pass = () => {
    matches = 0; errors = 0;
    for (const input of inputs) {
      let r;
      try { r = evaluate(input); } catch { r = undefined; }
      if (r === true) matches++; else if (r !== false) errors++;
    }
  };
  for (let i = 0; i < warmup; i++) pass();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    pass();
    samples.push(Number(process.hrtime.bigint() - start) / inputs.length);
  }
  return { ns: median(samples), matches, errors };
}

function dractl(expr, binding, memo = "on") {
  const line = execFileSync(args.dractl, ["bench", "cel", "--inventory", args.inventory, "--expr", expr,
    "--runs", String(runs), "--warmup", String(warmup), "--binding", binding, "--memo", memo], { encoding: "utf8" });
  const r = JSON.parse(line);
  return { ns: r.ns_per_device, matches: r.matches, errors: r.errors, compileUs: r.compile_us, passMs: r.pass_ms };
}

const plainDevices = loadDevices(args.inventory);
const bufbuildDevices = plainDevices.map((d) => ({ device: toMap(d) }));
const celjsDevices = plainDevices.map((d) => ({ device: d }));
const env = bufbuild.celEnv({});
const fmt = (x) => (x === undefined ? "-" : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
const pad = (s, n) => String(s).padStart(n);

const floor = Object.fromEntries(JSON.parse(execFileSync(args.floor, [args.inventory], { encoding: "utf8" }))
  .results.map((r) => [r.name, r]));

console.log(`inventory: ${args.inventory} (${plainDevices.length} devices), median of ${runs} passes, ns per device`);
console.log(["selector".padEnd(19), pad("ours", 7), pad("C++", 7), pad("ours/C++", 9), pad("unshared", 9),
  pad("plain", 7), pad("@bufbuild", 10), pad("cel-js", 8), pad("npm/plain", 10), pad("pass ms", 8), pad("compile us", 11),
  "  matches"].join(""));
const rows = [];
for (const s of selectors) {
  const plainExpr = s.plain ?? s.k8s;
  const k8s = dractl(s.k8s, "k8s");
  const unshared = dractl(s.k8s, "k8s", "off");
  const plain = dractl(plainExpr, "plain");
  const hand = floor[s.name];
  if (!hand) throw new Error(`floor.cpp has no predicate for ${s.name}`);
  const bufPlan = bufbuild.plan(env, bufbuild.parse(plainExpr));
  const buf = time(bufbuildDevices, (input) => { const r = bufPlan(input); return bufbuild.isCelError(r) ? undefined : r; });
  const jsEval = celjs.parse(plainExpr);
  const js = time(celjsDevices, (input) => jsEval(input));
  const fastestPeer = Math.min(buf.ns, js.ns);
  const row = { name: s.name, k8s, unshared, plain, buf, js, hand,
    floorRatio: k8s.ns / hand.ns_per_device, peerRatio: fastestPeer / plain.ns };
  rows.push(row);
  const agree = [unshared.matches, plain.matches, buf.matches, js.matches, hand.matches].every((m) => m === k8s.matches);
  console.log([s.name.padEnd(19), pad(fmt(k8s.ns), 7), pad(fmt(hand.ns_per_device), 7), pad(row.floorRatio.toFixed(2) + "x", 9),
    pad(fmt(unshared.ns), 9), pad(fmt(plain.ns), 7), pad(fmt(buf.ns), 10), pad(fmt(js.ns), 8), pad(row.peerRatio.toFixed(2) + "x", 10),
    pad(k8s.passMs.toFixed(2), 8), pad(fmt(k8s.compileUs), 11),
    `  ${k8s.matches}${agree ? "" : ` (unshared ${unshared.matches}, plain ${plain.matches}, C++ ${hand.matches}, bufbuild ${buf.matches}/${buf.errors} err, cel-js ${js.matches}/${js.errors} err)`}`].join(""));
}
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const worstFloor = Math.max(...rows.map((r) => r.floorRatio));
const worstPeer = Math.min(...rows.map((r) => r.peerRatio));
const slowestPass = Math.max(...rows.map((r) => r.k8s.passMs));
console.log(`ours / hand-written C++ (shared evaluations): geometric mean ${geo(rows.map((r) => r.floorRatio)).toFixed(2)}x, ` +
  `worst ${worstFloor.toFixed(2)}x (target <= 2x)`);
console.log(`fastest npm engine / ours on plain maps: geometric mean ${geo(rows.map((r) => r.peerRatio)).toFixed(2)}x, ` +
  `lowest ${worstPeer.toFixed(2)}x (target >= 1x)`);
console.log(`slowest full sweep: ${slowestPass.toFixed(2)} ms for ${plainDevices.length} devices (target < 10 ms)`);
console.log(`targets_met: floor=${worstFloor <= 2} npm=${worstPeer >= 1} keystroke=${slowestPass < 10}`);
