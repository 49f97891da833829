'use strict';
// The deepagents backend against the real `deepagents` package, with no model: the backend's
// protocol methods directly, then deepagents' own filesystem tools (createFilesystemMiddleware,
// what createDeepAgent installs) invoked with the backend underneath.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { createFilesystemMiddleware } = require('deepagents');
const { Sandbox } = require('..');
const { deepagentsBackend } = require('../adapters/deepagents.js');
const { smallTree, cleanup } = require('./helpers.js');

const t0 = smallTree();
test.after(() => cleanup(t0.base));

test('deepagentsBackend: ls, read with offset/limit, grep and glob show the sandbox as /', async () => {
  const be = deepagentsBackend(new Sandbox(t0.tree, { deny: ['.env'] }));
  const ls = await be.ls('/');
  const names = ls.files.map((f) => f.path).sort();
  assert.ok(names.includes('/notes.txt') && names.includes('/src/'), names.join(' '));
  assert.ok(!names.includes('/.env'));
  assert.equal(ls.files.find((f) => f.path === '/src/').is_dir, true);
  const sub = await be.ls('/src');
  assert.deepEqual(sub.files.map((f) => f.path).sort(), ['/src/lib.rs', '/src/main.rs']);

  const page = await be.read('/notes.txt', 1, 2);
  assert.equal(page.content, 'needle one\nthird\n');
  assert.equal(page.startLine, 2);
  assert.equal(page.endLine, 3);
  assert.equal(page.nextOffset, 3);
  const raw = await be.readRaw('/src/lib.rs');
  assert.equal(raw.data.content, 'pub fn needle() {}\n');

  const grep = await be.grep('needle', '/', null, null);
  const hits = grep.matches.map((m) => `${m.path}:${m.line}`).sort();
  assert.deepEqual(hits, ['/a.pem:1', '/notes.txt:2', '/notes.txt:4', '/src/lib.rs:1', '/src/main.rs:2']);
  assert.equal(grep.truncated, false);
  const some = await be.grep('needle', '/', '*.rs', 1);
  assert.equal(some.matches.length, 1);
  assert.equal(some.truncated, true);
  const literal = await be.grep('fn needle()', '/src', null, null);
  assert.deepEqual(literal.matches.map((m) => m.path), ['/src/lib.rs']);

  const glob = await be.glob('**/*.rs', '/');
  assert.deepEqual(glob.files.map((f) => f.path).sort(), ['/src/lib.rs', '/src/main.rs']);
});

test('deepagentsBackend: escapes and denied files come back as { error }, never thrown', async () => {
  const be = deepagentsBackend(new Sandbox(t0.tree, { deny: ['.env'] }));
  for (const p of ['/../outside/secret.txt', path.join(t0.outside, 'secret.txt'), '/.env']) {
    const r = await be.read(p);
    assert.match(r.error, /^(OUT_OF_SANDBOX|DENIED|NOT_FOUND): /, p);
    assert.ok(!JSON.stringify(r).includes('OUTSIDE-SECRET'));
  }
  assert.match((await be.ls('/../outside')).error, /^OUT_OF_SANDBOX: /);
  assert.match((await be.grep('needle', '/../outside')).error, /^OUT_OF_SANDBOX: /);
  // No write root: the write tools are not enabled.
  assert.ok((await be.write('/new.txt', 'x')).error);
  assert.ok(!fs.existsSync(path.join(t0.tree, 'new.txt')));
});

test('deepagentsBackend: write, edit and delete as the sandbox allows them', async () => {
  const createOnly = deepagentsBackend(new Sandbox(t0.tree, { writeRoot: t0.tree }));
  assert.deepEqual(await createOnly.write('/out/new.txt', 'alpha beta alpha\n'), { path: '/out/new.txt', filesUpdate: null });
  assert.equal(fs.readFileSync(path.join(t0.tree, 'out', 'new.txt'), 'utf8'), 'alpha beta alpha\n');
  // deepagents' write and edit replace a file; this sandbox does not allow changing one.
  assert.match((await createOnly.write('/out/new.txt', 'again')).error, /^DENIED: .*does not allow/);
  assert.match((await createOnly.edit('/out/new.txt', 'alpha', 'gamma')).error, /^DENIED: /);
  assert.match((await createOnly.delete('/out/new.txt')).error, /^[A-Z_]+: /);
  assert.equal(fs.readFileSync(path.join(t0.tree, 'out', 'new.txt'), 'utf8'), 'alpha beta alpha\n');

  const be = deepagentsBackend(new Sandbox(t0.tree, { writeRoot: t0.tree, allowOverwrite: true, allowDelete: true }));
  const ed = await be.edit('/out/new.txt', 'alpha', 'gamma', true);
  assert.equal(ed.occurrences, 2);
  assert.equal(fs.readFileSync(path.join(t0.tree, 'out', 'new.txt'), 'utf8'), 'gamma beta gamma\n');
  assert.ok((await be.edit('/out/new.txt', 'absent', 'x')).error);
  assert.deepEqual(await be.write('/out/new.txt', 'replaced'), { path: '/out/new.txt', filesUpdate: null });
  assert.equal(fs.readFileSync(path.join(t0.tree, 'out', 'new.txt'), 'utf8'), 'replaced');
  assert.match((await be.write('/../outside/x.txt', 'x')).error, /^OUT_OF_SANDBOX: /);
  assert.ok(!fs.existsSync(path.join(t0.outside, 'x.txt')));
  assert.deepEqual(await be.delete('/out/new.txt'), { path: '/out/new.txt', filesUpdate: null });
  assert.ok(!fs.existsSync(path.join(t0.tree, 'out', 'new.txt')));
});

/** A tool's output as text: a string, or content blocks. */
const text = (r) => (typeof r === 'string' ? r : JSON.stringify(r));

test('deepagents filesystem tools run on the backend', async () => {
  const be = deepagentsBackend(new Sandbox(t0.tree, { deny: ['.env'] }));
  const mw = createFilesystemMiddleware({ backend: be });
  const tools = Object.fromEntries(mw.tools.map((t) => [t.name, t]));
  for (const n of ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']) assert.ok(tools[n], n);
  const ls = text(await tools.ls.invoke({ path: '/' }));
  assert.ok(ls.includes('/notes.txt') && !ls.includes('.env'), ls);
  const read = text(await tools.read_file.invoke({ file_path: '/notes.txt' }));
  assert.ok(read.includes('needle one'), read);
  const grep = text(await tools.grep.invoke({ pattern: 'needle' }));
  assert.ok(grep.includes('/src/lib.rs') && !grep.includes('OUTSIDE-SECRET'), grep);
  const escape = text(await tools.read_file.invoke({ file_path: '/../outside/secret.txt' }));
  assert.ok(!escape.includes('OUTSIDE-SECRET'), escape);
});
