'use strict';
// Concurrency, cancellation and resources: the event loop is never blocked, an AbortSignal stops
// a long search, 200 calls at once all answer, memory stays flat over 10,000 calls.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const rb = require('..');
const { smallTree, bigTree, SLOW, BIG_FILES, cleanup } = require('./helpers.js');

const { Sandbox } = rb;
const t0 = smallTree();
const big = bigTree();
test.after(() => {
  cleanup(t0.base);
  cleanup(big);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('200 concurrent calls all answer correctly', async () => {
  const sb = new Sandbox(t0.tree);
  const expected = fs.readFileSync(path.join(t0.tree, 'notes.txt'), 'utf8');
  const lines = (await sb.grepSearch('needle')).matchLines;
  assert.ok(lines >= 4);
  const calls = Array.from({ length: 200 }, async (_, i) => {
    switch (i % 4) {
      case 0:
        return (await sb.readFile('notes.txt')).content === expected;
      case 1:
        return (await sb.grepSearch('needle')).matchLines === lines;
      case 2:
        return (await sb.stat('src/main.rs')).kind === 'file';
      default:
        return (await sb.call('read_file', { path: '../outside/secret.txt' })).error.code === 'OUT_OF_SANDBOX';
    }
  });
  const results = await Promise.all(calls);
  assert.deepEqual(results.map((ok, i) => (ok ? 'ok' : `call ${i}`)).filter((x) => x !== 'ok'), []);
  assert.ok(rb._callThreads() <= 64, `call threads ${rb._callThreads()}`);
});

let fullSearchMs = 0;

test('a timer keeps ticking during a long search', async () => {
  const sb = new Sandbox(big, { maxResults: 10000, threads: 1 });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const t = Date.now();
  const r = await sb.grepSearch(SLOW.pattern, SLOW);
  fullSearchMs = Date.now() - t;
  clearInterval(timer);
  assert.equal(r.timedOut, false);
  assert.equal(r.stats.filesSearched, BIG_FILES);
  // Generous: on a loaded machine ticks come late, but a blocked loop gives none at all.
  // A blocked loop gives at most one tick (after the call); a free one about fullSearchMs / 10.
  assert.ok(ticks >= Math.max(2, Math.floor(fullSearchMs / 10 / 10)), `${ticks} ticks in ${fullSearchMs} ms`);
});

async function settled(ms) {
  const t = Date.now();
  while (rb._runningCalls() > 0 && Date.now() - t < ms) await sleep(2);
  return Date.now() - t;
}

test('aborting a running search rejects with AbortError and stops the native call', async () => {
  const sb = new Sandbox(big, { maxResults: 10000, threads: 1 });
  const ac = new AbortController();
  let callerOnabort = 0;
  ac.signal.onabort = () => callerOnabort++;
  const budget = new rb.Budget(); // to read the native search's progress
  const { timeoutMs, ...slow } = SLOW;
  const p = sb.grepSearch(SLOW.pattern, { ...slow, budget, signal: ac.signal });
  for (let waited = 0; rb._runningCalls() === 0 && waited < 10000; waited++) await sleep(1);
  await sleep(20);
  assert.equal(rb._runningCalls(), 1, 'the search is running');
  const abortedAt = Date.now();
  ac.abort();
  await assert.rejects(p, (e) => e.name === 'AbortError');
  const rejectMs = Date.now() - abortedAt;
  const stopMs = await settled(30000);
  assert.equal(rb._runningCalls(), 0, 'the native search ended');
  assert.ok(rejectMs < 1000, `rejected ${rejectMs} ms after abort`);
  assert.equal(callerOnabort, 1, "the caller's onabort still fires (never overwritten)");
  assert.ok(stopMs < 30000, `the native search ran on ${stopMs} ms after abort`);
  // The native search stopped early, not at its end: it searched only part of the tree.
  const searched = budget.progress().files;
  assert.ok(budget.cancelled);
  assert.ok(searched < BIG_FILES, `searched ${searched} of ${BIG_FILES} files after the abort`);
  const r = await sb.grepSearch('needle', { outputMode: 'files_with_matches', limit: 10000 });
  assert.equal(r.stats.filesSearched, BIG_FILES);
});

test('an already aborted signal rejects without calling; call() honours it too', async () => {
  const sb = new Sandbox(t0.tree);
  const reason = new Error('mine');
  const signal = AbortSignal.abort(reason);
  await assert.rejects(sb.readFile('notes.txt', { signal }), (e) => e === reason);
  await assert.rejects(sb.call('read_file', { path: 'notes.txt' }, { signal }), (e) => e === reason);
  // A signal that never fires leaves no listener behind.
  const ac = new AbortController();
  for (let i = 0; i < 20; i++) await sb.stat('notes.txt', { signal: ac.signal });
  const { getEventListeners } = require('node:events');
  assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
});

test('timeoutMs returns a partial page with timedOut and a cursor', async () => {
  const sb = new Sandbox(big, { maxResults: 10000, threads: 1 });
  const r = await sb.grepSearch(SLOW.pattern, { ...SLOW, timeoutMs: 30 });
  assert.equal(r.timedOut, true);
  assert.equal(r.truncated, true);
  assert.ok(r.nextCursor);
});

test('iterGrep and iterGlob page by cursor through every result', async () => {
  const sb = new Sandbox(big);
  const hits = [];
  for await (const h of sb.iterGrep('needle', { pageSize: 7 })) hits.push(`${h.path}:${h.line}`);
  assert.equal(hits.length, BIG_FILES);
  assert.equal(new Set(hits).size, BIG_FILES);
  const paths = [];
  for await (const p of sb.iterGlob('*.txt', { pageSize: 13 })) paths.push(p);
  assert.equal(paths.length, BIG_FILES);
  assert.equal(new Set(paths).size, BIG_FILES);
  await assert.rejects(sb.iterGrep('x', { cursor: 'c' }).next(), TypeError);
  // Aborting stops the iteration.
  const ac = new AbortController();
  let n = 0;
  await assert.rejects(async () => {
    for await (const _ of sb.iterGlob('*.txt', { pageSize: 5, signal: ac.signal })) {
      if (++n === 10) ac.abort();
    }
  }, (e) => e.name === 'AbortError');
  assert.ok(n >= 10 && n < BIG_FILES);
});

test('memory stays roughly flat over 10,000 calls', async () => {
  const sb = new Sandbox(t0.tree);
  const batch = async (n) => {
    for (let i = 0; i < n; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          k % 2 ? sb.readFile('notes.txt') : sb.call('stat', { path: 'src/main.rs' }),
        ),
      );
    }
  };
  await batch(2000); // warm up: allocator pools, thread stacks
  global.gc && global.gc();
  const before = process.memoryUsage().rss;
  await batch(10000);
  global.gc && global.gc();
  const grown = process.memoryUsage().rss - before;
  assert.ok(grown < 64 * 1024 * 1024, `RSS grew ${(grown / 1048576).toFixed(1)} MiB over 10,000 calls`);
});
