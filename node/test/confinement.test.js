'use strict';
// The confinement attacks from JS: no outside byte ever comes back, whatever the spelling.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Sandbox, OutOfSandbox, RootboundError } = require('..');
const { smallTree, cleanup } = require('./helpers.js');

const t0 = smallTree();
test.after(() => cleanup(t0.base));
const SECRET = 'OUTSIDE-SECRET';

function leaks(v) {
  return JSON.stringify(v).includes(SECRET);
}

test('.. and absolute paths outside are OUT_OF_SANDBOX', async () => {
  const sb = new Sandbox(t0.tree);
  const spellings = [
    '../outside/secret.txt',
    'src/../../outside/secret.txt',
    path.join(t0.outside, 'secret.txt'),
    `${t0.tree}/../outside/secret.txt`,
    '/etc/passwd',
  ];
  for (const p of spellings) {
    await assert.rejects(sb.readFile(p), OutOfSandbox, p);
    const wire = await sb.call('read_file', { path: p });
    assert.equal(wire.error.code, 'OUT_OF_SANDBOX', p);
    assert.ok(!leaks(wire));
  }
  await assert.rejects(sb.grepSearch('SECRET', { path: '..' }), OutOfSandbox);
  await assert.rejects(sb.listDir('..'), OutOfSandbox);
  const g = await sb.glob('**/*');
  assert.ok(!leaks(g));
});

test('a symlink leading out is refused', async () => {
  fs.symlinkSync(path.join(t0.outside, 'secret.txt'), path.join(t0.tree, 'link.txt'));
  fs.symlinkSync(t0.outside, path.join(t0.tree, 'linkdir'));
  try {
    const sb = new Sandbox(t0.tree);
    for (const p of ['link.txt', 'linkdir/secret.txt']) {
      await assert.rejects(sb.readFile(p), RootboundError, p);
      assert.ok(!leaks(await sb.call('read_file', { path: p })));
    }
    const g = await sb.grepSearch('SECRET', { hidden: true, noIgnore: true, outputFormat: 'json' });
    assert.ok(!leaks(g));
    const many = await sb.readManyFiles(['link.txt', 'linkdir/*']);
    assert.ok(!leaks(many));
  } finally {
    fs.unlinkSync(path.join(t0.tree, 'link.txt'));
    fs.unlinkSync(path.join(t0.tree, 'linkdir'));
  }
});

test('a symlink swapped while 8 concurrent calls run never yields an outside byte', async () => {
  const dir = path.join(t0.tree, 'swap');
  fs.mkdirSync(dir);
  const inside = path.join(t0.tree, 'notes.txt');
  const link = path.join(dir, 'f.txt');
  fs.writeFileSync(link, 'inside content\n');
  const sb = new Sandbox(t0.tree);
  let stop = false;
  let swaps = 0;
  // The attacker: flips swap/f.txt between a regular file and a symlink out, as fast as it can.
  const attacker = (async () => {
    let n = 0;
    while (!stop) {
      const tmpName = path.join(dir, `t${n++}`);
      if (n % 2) fs.symlinkSync(path.join(t0.outside, 'secret.txt'), tmpName);
      else fs.symlinkSync(inside, tmpName); // a link to inside the root: allowed or refused, never outside
      fs.renameSync(tmpName, link);
      swaps++;
      await new Promise((r) => setImmediate(r));
    }
  })();
  const calls = [];
  let outsideByte = false;
  let done = 0;
  const worker = async () => {
    for (let i = 0; i < 60; i++) {
      const kind = i % 4;
      const r =
        kind === 0
          ? await sb.call('read_file', { path: 'swap/f.txt' })
          : kind === 1
            ? await sb.call('grep_search', { pattern: 'SECRET|inside|needle', path: 'swap' })
            : kind === 2
              ? await sb.call('read_many_files', { paths: ['swap/*'] })
              : await sb.call('stat', { path: 'swap/f.txt' });
      if (leaks(r)) outsideByte = true;
      done++;
    }
  };
  for (let k = 0; k < 8; k++) calls.push(worker());
  await Promise.all(calls);
  stop = true;
  await attacker;
  assert.equal(done, 480);
  assert.ok(swaps > 8, `the link was swapped only ${swaps} times`);
  assert.equal(outsideByte, false);
});
