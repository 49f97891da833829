'use strict';
// Every tool through its camelCase method and through call(); tools(); the error classes.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const rb = require('..');
const { smallTree, cleanup } = require('./helpers.js');

const { Sandbox } = rb;
const t0 = smallTree();
test.after(() => cleanup(t0.base));

function sandbox(opts = {}) {
  return new Sandbox(t0.tree, { deny: ['.env', '*.pem'], ...opts });
}

test('read tools return camelCase results', async () => {
  const sb = sandbox();
  const r = await sb.readFile('notes.txt', { startLine: 2, maxLines: 1 });
  assert.equal(r.content, 'needle one\n');
  assert.equal(r.startLine, 2);
  assert.equal(typeof r.totalBytes, 'number');

  const g = await sb.grepSearch('needle', { outputFormat: 'json' });
  assert.equal(g.matchLines, 4); // notes.txt 2, main.rs, lib.rs; .env and a.pem denied
  assert.equal(g.timedOut, false);
  assert.ok(g.hits.every((h) => !h.text.includes('secret') && !h.path.endsWith('.pem')));
  const ci = await sb.grepSearch('NEEDLE', { caseInsensitive: true, include: '*.rs' });
  assert.equal(ci.matchLines, 2);

  const gl = await sb.glob('*.rs');
  assert.deepEqual(gl.matches.trim().split('\n').map((p) => path.basename(p)).sort(), ['lib.rs', 'main.rs']);

  const ls = await sb.listDir('src');
  assert.deepEqual(ls.entries.map((e) => e.name).sort(), ['lib.rs', 'main.rs']);
  const st = await sb.stat('src/main.rs');
  assert.equal(st.kind, 'file');
  assert.equal(st.lines, 3);
  assert.equal(typeof st.mtimeUnix, 'number');

  const many = await sb.readManyFiles(['notes.txt', 'src/*.rs']);
  assert.equal(many.files.length, 3);
  const tree = await sb.directoryTree(undefined, { maxDepth: 2 });
  assert.equal(tree.tree.kind, 'dir');
  assert.ok(tree.tree.children.some((c) => c.name === 'src'));
  const roots = await sb.listRoots();
  assert.equal(roots.roots[0].path, t0.tree);
  const media = await sb.readMediaFile('dot.png');
  assert.equal(media.mimeType, 'image/png');
  assert.ok(media.data.length > 0);
});

test('write tools under a write root', async () => {
  // An edit reads the file: the write root must lie in a read root.
  const w = fs.mkdtempSync(path.join(t0.tree, 'w-'));
  const sb = sandbox({ writeRoot: w, allowOverwrite: true, allowDelete: true });
  assert.ok(sb.toolNames.includes('write_file'));
  const wr = await sb.writeFile(path.join(w, 'a.txt'), 'hello world\n');
  assert.equal(wr.created, true);
  await assert.rejects(sb.writeFile(path.join(w, 'a.txt'), 'x'), rb.AlreadyExists);
  const ed = await sb.editFile(path.join(w, 'a.txt'), { oldString: 'world', newString: 'there' });
  assert.equal(ed.replacements, 1);
  const ed2 = await sb.editFile(path.join(w, 'a.txt'), {
    edits: [{ oldString: 'hello', newString: 'bye' }],
    dryRun: true,
  });
  assert.equal(ed2.dryRun, true);
  assert.equal(fs.readFileSync(path.join(w, 'a.txt'), 'utf8'), 'hello there\n');
  const mk = await sb.createDirectory(path.join(w, 'd/e'));
  assert.ok(mk.path.endsWith('e'));
  const mv = await sb.moveFile(path.join(w, 'a.txt'), path.join(w, 'd/b.txt'));
  assert.ok(mv.path.endsWith('b.txt'));
  const del = await sb.deleteFile(path.join(w, 'd/b.txt'));
  assert.equal(del.deleted, true);
  assert.equal(fs.existsSync(path.join(w, 'd/b.txt')), false);
  // Without a write root there are no write tools.
  assert.equal(sandbox().toolNames.includes('write_file'), false);
  assert.throws(() => sandbox({ allowDelete: true }), TypeError);
  // The library's message, in this package's spelling.
  assert.throws(() => sandbox({ maxWriteBytes: 9 }), {
    name: 'TypeError',
    message: 'new Sandbox(): allowOverwrite, allowDelete and maxWriteBytes need writeRoot',
  });
});

test('call() speaks the wire format and never throws a tool error', async () => {
  const sb = sandbox();
  const ok = await sb.call('read_file', { path: 'notes.txt', max_lines: 1 });
  assert.equal(ok.content, 'first line\n');
  assert.ok('total_bytes' in ok);
  const bad = await sb.call('read_file', { path: '../outside/secret.txt' });
  assert.equal(bad.error.code, 'OUT_OF_SANDBOX');
  const unknown = await sb.call('no_such_tool', {});
  assert.ok(unknown.error.code);
  const text = await sb.call('stat', '{"path":"notes.txt"}');
  assert.equal(text.kind, 'file');
  const notJson = await sb.call('stat', '{');
  assert.equal(notJson.error.code, 'INVALID_ARGUMENT');
  const dialect = await sb.call('Read', { file_path: path.join(t0.tree, 'notes.txt') }, { profile: 'claude-code' });
  assert.ok(!('error' in dialect), JSON.stringify(dialect));
  // An unknown dialect is the caller's mistake: it rejects, as its error class.
  await assert.rejects(sb.call('read_file', { path: 'notes.txt' }, { profile: 'nope' }), rb.InvalidArgument);
});

test('tools() in every format and profile', () => {
  const sb = sandbox();
  for (const format of ['openai', 'anthropic', 'gemini', 'mcp']) {
    const defs = sb.tools({ format });
    assert.ok(defs.length >= 9, format);
  }
  const names = JSON.stringify(sb.tools({ format: 'anthropic' }));
  assert.ok(names.includes('grep_search'));
  for (const profile of rb.PROFILES) assert.ok(sb.tools({ profile }).length > 0, profile);
  assert.throws(() => sb.tools({ format: 'xml' }), rb.InvalidArgument);
  assert.throws(() => sb.tools({ profile: 'nope' }), rb.InvalidArgument);
});

test('every native error code has its class', () => {
  assert.ok(rb.ERROR_CODES.length >= 13);
  for (const code of rb.ERROR_CODES) {
    const cls = rb.ERRORS[code];
    assert.ok(cls, `no class for ${code}`);
    assert.equal(cls.CODE, code);
    const name = code.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase());
    assert.equal(rb[name], cls, `rb.${name}`);
    const e = rb.errorFrom({ error: { code, message: 'm', extra: 1 } });
    assert.ok(e instanceof cls && e instanceof rb.RootboundError && e instanceof Error);
    assert.equal(e.code, code);
    assert.equal(e.message, 'm');
    assert.deepEqual(e.details, { extra: 1 });
    assert.equal(e.name, name);
  }
  const unknown = rb.errorFrom({ error: { code: 'NEW_CODE', message: 'x' } });
  assert.equal(unknown.constructor, rb.RootboundError);
  assert.equal(unknown.code, 'NEW_CODE');
});

test('tool failures throw their class with code, message and details', async () => {
  const sb = sandbox();
  const cases = [
    [() => sb.readFile('nope.txt'), rb.NotFound],
    [() => sb.readFile('../outside/secret.txt'), rb.OutOfSandbox],
    [() => sb.readFile('.env'), rb.Denied],
    [() => sb.readFile('src'), rb.NotAFile],
    [() => sb.grepSearch('(unclosed'), rb.InvalidPattern],
    [() => sb.readFile('notes.txt', { bogusField: 1 }), rb.InvalidArgument],
  ];
  for (const [fn, cls] of cases) {
    await assert.rejects(fn, (e) => {
      assert.ok(e instanceof cls, `${e.name} ${e.message} is not ${cls.name}`);
      assert.equal(e.code, cls.CODE);
      assert.equal(typeof e.message, 'string');
      assert.equal(typeof e.details, 'object');
      assert.ok(!e.message.includes(t0.outside));
      return true;
    });
  }
});

test('construction errors', () => {
  assert.throws(() => new Sandbox(path.join(t0.base, 'missing')), rb.InvalidArgument);
  assert.throws(() => new Sandbox(t0.tree, { maxResultz: 3 }), TypeError);
  assert.throws(() => new Sandbox(t0.tree, { maxResultz: 3, writeroot: t0.tree }), (e) => {
    assert.ok(e instanceof TypeError);
    assert.match(e.message, /^new Sandbox\(\): unknown option\(s\) maxResultz, writeroot \(limits are: maxReadBytes, /);
    return true;
  });
  // A known limit with a value of the wrong type is the library's refusal, not a misuse.
  assert.throws(() => new Sandbox(t0.tree, { maxResults: 'many' }), rb.InvalidArgument);
  const cfg = path.join(t0.base, 'bad.toml');
  fs.writeFileSync(cfg, 'roots = 3\n');
  assert.throws(() => Sandbox.fromConfig(cfg), (e) => {
    assert.ok(e instanceof rb.ConfigError && e instanceof rb.InvalidArgument);
    assert.ok(e.problems.length >= 1);
    return true;
  });
  const good = path.join(t0.base, 'good.toml');
  fs.writeFileSync(good, `[agents.bot]\nroots = [${JSON.stringify(t0.tree)}]\ndeny = [".env"]\n[agents.bot.tools.read_file]\n[agents.bot.tools.grep_search]\n`);
  const sb = Sandbox.fromConfig(good, 'bot');
  assert.equal(sb.agent, 'bot');
  assert.equal(sb.profile, 'rootbound');
  const named = new Sandbox({ code: t0.tree }, { maxResults: 2 });
  return named.listRoots().then((r) => assert.equal(r.roots[0].name, 'code'));
});

test('index: true serves the same answers; a bad index option is a TypeError', async () => {
  const plain = sandbox();
  const indexed = sandbox({ index: true });
  const roots = await indexed.call('list_roots', {});
  assert.ok(['building', 'ready'].includes(roots.roots[0].index.state));
  assert.equal((await plain.call('list_roots', {})).roots[0].index, undefined);
  for (let i = 0; i < 2; i++) {
    const args = { pattern: 'needle', output_mode: 'content' };
    const got = await indexed.call('grep_search', args);
    if (got.stats) delete got.stats.index; // what the index did; the rest is the same
    assert.deepEqual(got, await plain.call('grep_search', args));
  }
  assert.ok(sandbox({ index: 'auto', indexVerify: 'strict' }));
  assert.throws(() => sandbox({ index: 'sometimes' }), TypeError);
  assert.throws(() => sandbox({ indexVerify: 'strict' }), /indexVerify needs index/);
});
