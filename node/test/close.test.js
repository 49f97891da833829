'use strict';
// close(): an indexed sandbox's index work stops when the host closes it, not when V8 collects
// the object; afterwards every method answers the closed error (CANCELLED). The index's threads
// are counted for the whole process: this file has the process to itself (node --test runs each
// file in its own) and makes one indexed sandbox at a time.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const rb = require('..');
const { tmp, smallTree, cleanup } = require('./helpers.js');

const { Sandbox, Cancelled } = rb;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `f` (sync or async) every 10 ms for up to `ms`: whether it came true. */
async function until(ms, f) {
  const end = Date.now() + ms;
  for (;;) {
    if (await f()) return true;
    if (Date.now() >= end) return false;
    await sleep(10);
  }
}

const FILES = 3000;

/** `FILES` small text files in 100 directories, a minute old (a build skips files changed in the
 *  last two seconds). */
function tree() {
  const dir = tmp('rb-node-close-');
  const old = new Date(Date.now() - 60_000);
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(dir, `d${i % 100}`);
    fs.mkdirSync(sub, { recursive: true });
    const file = path.join(sub, `f${i}.txt`);
    fs.writeFileSync(file, `line of file ${i}: word${i * 31} other${i * 7}\n`.repeat(16));
    fs.utimesSync(file, old, old);
  }
  return dir;
}

/** Asserts `e` is the closed error. */
function isClosed(e) {
  assert.ok(e instanceof Cancelled, `${e && e.constructor && e.constructor.name}: ${e && e.message}`);
  assert.equal(e.code, 'CANCELLED');
  assert.equal(e.message, 'the sandbox is closed');
  return true;
}

test('close() while the index builds stops its work; every later call answers CANCELLED', async () => {
  const dir = tree();
  // 10 ms a file on one reading thread: 30 s of build, far longer than the bound below.
  rb._indexSlowAt(dir);
  try {
    assert.ok(await until(10_000, () => rb._indexThreadsLive() === 0), 'index threads of before');
    const sb = new Sandbox(dir, { index: true, threads: 1 });
    let st;
    const underWay = await until(20_000, async () => {
      st = (await sb.listRoots()).roots[0].index;
      return st.files >= 20;
    });
    assert.ok(underWay, JSON.stringify(st));
    assert.equal(st.state, 'building', JSON.stringify(st));
    assert.ok(st.files < FILES / 2, `the build is far from done: ${JSON.stringify(st)}`);
    assert.ok(rb._indexThreadsLive() > 0);

    sb.close();
    // The stop is seen through the live-thread counter, not a timing: the build had 15 s of files
    // left at least, so its threads gone within the generous bound (a busy machine may be slow to
    // schedule them out) is a stop, not the end of the build. `sb` is still referenced (used
    // below): V8 cannot have collected it.
    const t = Date.now();
    const stopped = await until(10_000, () => rb._indexThreadsLive() === 0);
    assert.ok(stopped, `${rb._indexThreadsLive()} index threads live ${Date.now() - t} ms after close()`);

    // Every method answers the closed error, the same way each answers any error.
    const typed = [
      () => sb.readFile('d0/f0.txt'),
      () => sb.grepSearch('word'),
      () => sb.glob('*.txt'),
      () => sb.listDir('.'),
      () => sb.stat('d0/f0.txt'),
      () => sb.readManyFiles(['d0/f0.txt']),
      () => sb.directoryTree('.'),
      () => sb.listRoots(),
      () => sb.readMediaFile('d0/f0.txt'),
      () => sb.writeFile('new.txt', 'x'),
      () => sb.editFile('d0/f0.txt', { oldString: 'a', newString: 'b' }),
      () => sb.createDirectory('new'),
      () => sb.moveFile('d0/f0.txt', 'moved.txt'),
      () => sb.deleteFile('d0/f0.txt'),
      async () => {
        for await (const _ of sb.iterGrep('word')) assert.fail('a hit after close()');
      },
      async () => {
        for await (const _ of sb.iterGlob('*')) assert.fail('a path after close()');
      },
    ];
    for (const call of typed) await assert.rejects(call(), isClosed);
    const wire = { error: { code: 'CANCELLED', message: 'the sandbox is closed' } };
    assert.deepEqual(await sb.call('read_file', { path: 'd0/f0.txt' }), wire);
    assert.deepEqual(await sb.call('grep_search', { pattern: 'word' }, { profile: 'claude-code' }), wire);
    assert.throws(() => sb.tools(), isClosed);
    assert.throws(() => sb.agent, isClosed);
    assert.throws(() => sb.profile, isClosed);
    assert.throws(() => sb.toolNames, isClosed);
    // Idempotent.
    sb.close();
    assert.deepEqual(await sb.call('read_file', { path: 'd0/f0.txt' }), wire);
  } finally {
    rb._indexSlowAt(null);
    cleanup(dir);
  }
});

test('a call running when close() comes finishes with its answer', async () => {
  const t = smallTree();
  try {
    const sb = new Sandbox(t.tree);
    const running = sb.grepSearch('needle', { include: 'notes.txt' });
    sb.close();
    const page = await running;
    assert.equal(page.matchLines, 2);
    await assert.rejects(sb.grepSearch('needle'), isClosed);
  } finally {
    cleanup(t.base);
  }
});
