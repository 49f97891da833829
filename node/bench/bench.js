'use strict';
// Benchmarks of the Node package (issue 40; results in BENCHMARKS.md; no assertions):
//  1. per-call overhead: a small read_file and stat through the package (`sb.readFile`,
//     `sb.call`) against the same call made from Rust in a loop (`_benchRustCalls`:
//     `AgentTools::call` with a JSON value, as a Rust host calls), medians of --calls calls, plus
//     paired medians (each JS call, then the same call from Rust, so both see the same load);
//  2. time to the first page of a grep: `sb.grepSearch(pattern, { limit })` against spawning
//     `rg` from child_process and reading its stdout until `limit` lines came;
//  3. a full search (count mode, every file) through the package against the same call from Rust.
//
//   node bench/bench.js [--corpus DIR] [--pattern P] [--calls N] [--runs N] [--limit N]
const { spawn } = require('node:child_process');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const native = require('../binding.js');
const { Sandbox } = require('..');

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
}
const corpus = path.resolve(arg('corpus', path.join(__dirname, '..', '..', 'corpora', 'default')));
const pattern = arg('pattern', 'mutex_lock');
const calls = Number(arg('calls', 5000));
const runs = Number(arg('runs', 9));
const limit = Number(arg('limit', 50));
const rg = arg('rg', '/usr/bin/rg');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const us = (x) => (x * 1e6).toFixed(1);
const ms = (x) => (x * 1e3).toFixed(1);

/** The first small regular file under `corpus` (not a dotfile), found through the sandbox. */
async function smallFile(sb) {
  const page = await sb.glob('**/*', { limit: 200 });
  for (const p of page.matches.split('\n').filter((x) => x && !path.basename(x).startsWith('.'))) {
    const st = await sb.stat(p);
    if (st.kind === 'file' && st.size > 0 && st.size < 8192) return p;
  }
  throw new Error('no small file in the corpus');
}

async function overhead(sb, core) {
  const file = await smallFile(sb);
  const rows = [
    ['sb.readFile(path)', 'read_file', { path: file }, () => sb.readFile(file)],
    ['sb.call("read_file", args)', 'read_file', { path: file }, () => sb.call('read_file', { path: file })],
    ['sb.stat(path)', 'stat', { path: file }, () => sb.stat(file)],
    ['sb.call("stat", args)', 'stat', { path: file }, () => sb.call('stat', { path: file })],
  ];
  console.log(`\n## Per-call overhead (${calls} calls each; file ${path.basename(file)})\n`);
  console.log('| call | JS median µs | Rust median µs | paired: median JS − Rust µs | paired: median JS / Rust |');
  console.log('|---|---|---|---|---|');
  for (const [label, tool, args, fn] of rows) {
    for (let i = 0; i < 200; i++) await fn(); // warm
    native._benchRustCalls(core, tool, args, 200);
    const js = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await fn();
      js.push((performance.now() - t) / 1e3);
    }
    const rust = native._benchRustCalls(core, tool, args, calls);
    const diff = [];
    const ratio = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await fn();
      const j = (performance.now() - t) / 1e3;
      const r = native._benchRustCalls(core, tool, args, 1)[0];
      diff.push(j - r);
      ratio.push(j / r);
    }
    console.log(`| \`${label}\` | ${us(median(js))} | ${us(median(rust))} | ${us(median(diff))} | ${median(ratio).toFixed(2)}x |`);
  }
}

/** Seconds until `rg` printed `n` lines (or ended), then kills it. */
function rgFirstPage(n) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(rg, ['-n', '--no-heading', '--color', 'never', pattern, corpus], { stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const dt = (performance.now() - t) / 1e3;
      child.kill('SIGKILL');
      resolve([dt, lines]);
    };
    child.stdout.on('data', (b) => {
      for (const c of b) if (c === 10) lines++;
      if (lines >= n) finish();
    });
    child.on('close', finish);
    child.on('error', reject);
  });
}

async function firstPage(sb) {
  console.log(`\n## First page of \`${pattern}\` (${limit} lines; median of ${runs} runs)\n`);
  const node = [];
  const viaRg = [];
  let got = 0;
  let rgLines = 0;
  await sb.grepSearch(pattern, { limit });
  await rgFirstPage(limit);
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const page = await sb.grepSearch(pattern, { limit });
    node.push((performance.now() - t) / 1e3);
    got = page.matchLines;
    const [dt, n] = await rgFirstPage(limit);
    viaRg.push(dt);
    rgLines = n;
  }
  console.log('| how | median ms | lines |');
  console.log('|---|---|---|');
  console.log(`| \`sb.grepSearch(pattern, { limit: ${limit} })\` | ${ms(median(node))} | ${got} |`);
  console.log(`| spawn \`rg -n pattern DIR\`, read stdout to ${limit} lines, kill | ${ms(median(viaRg))} | ${Math.min(rgLines, limit)} |`);
}

/** Limits that let one call search the whole corpus and return every file's count. */
const FULL = { maxResults: 1000000, maxBytes: 256 * 1024 * 1024, timeoutMs: 600000 };
const FULL_WIRE = { max_results: 1000000, max_bytes: 256 * 1024 * 1024, timeout_ms: 600000 };

async function fullSearch() {
  console.log(`\n## Full search of \`${pattern}\`, count mode (median of ${runs} runs, alternating)\n`);
  const sb = new Sandbox(corpus, FULL);
  const core = native.Core.fromOptions({ roots: [{ path: corpus }], deny: [], limits: FULL_WIRE });
  const args = { pattern, output_mode: 'count', limit: 1000000 };
  const node = [];
  const rust = [];
  let last;
  await sb.call('grep_search', args);
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = await sb.call('grep_search', args);
    node.push((performance.now() - t) / 1e3);
    rust.push(native._benchRustCalls(core, 'grep_search', args, 1)[0]);
  }
  const n = median(node);
  const r = median(rust);
  console.log('| how | median ms |');
  console.log('|---|---|');
  console.log(`| \`sb.call("grep_search", { output_mode: "count" })\` | ${ms(n)} |`);
  console.log(`| the same call from Rust (\`_benchRustCalls\`) | ${ms(r)} |`);
  const files = last.match_lines;
  console.log(`\nratio Node / Rust: ${(n / r).toFixed(3)}x (files with matches: ${files}; total: ${last.total}; ` +
    `files searched: ${last.stats.files_searched}; truncated: ${last.truncated}; timed out: ${last.timed_out})`);
}

async function main() {
  const sb = new Sandbox(corpus);
  const core = native.Core.fromOptions({ roots: [{ path: corpus }], deny: [], limits: {} });
  console.log(`corpus ${corpus}; node ${process.version}; ${new Date().toISOString()}`);
  await overhead(sb, core);
  await firstPage(sb);
  await fullSearch();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
