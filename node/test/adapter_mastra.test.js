'use strict';
// The Mastra adapter against the real `@mastra/core` (1.x; it declares Node >= 22.13, its
// createTool runs here on Node 20), with no model: the tools are built, their schemas checked,
// and `execute` called as Mastra's agent loop calls it (input, then the execution context).
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { Sandbox } = require('..');
const { mastraTools } = require('../adapters/mastra.js');
const { smallTree, cleanup } = require('./helpers.js');

const t0 = smallTree();
test.after(() => cleanup(t0.base));

const ctx = () => ({ abortSignal: new AbortController().signal });

test('mastraTools: one tool per sandbox tool, its JSON schema as the input schema', () => {
  const sb = new Sandbox(t0.tree);
  const tools = mastraTools(sb);
  assert.deepEqual(Object.keys(tools).sort(), [...sb.toolNames].sort());
  const defs = Object.fromEntries(sb.tools({ format: 'openai' }).map((d) => [d.function.name, d.function]));
  for (const [name, t] of Object.entries(tools)) {
    assert.equal(t.id, name);
    assert.equal(t.description, defs[name].description);
    const schema = t.inputSchema['~standard'].jsonSchema.input({ target: 'draft-07' });
    assert.deepEqual(schema.properties, defs[name].parameters.properties, name);
    assert.deepEqual(schema.required || [], defs[name].parameters.required || [], name);
  }
});

test('mastraTools: execute goes through the sandbox; refusals are { error }, never thrown', async () => {
  const sb = new Sandbox(t0.tree, { deny: ['.env'] });
  const tools = mastraTools(sb);
  const ok = await tools.read_file.execute({ path: 'notes.txt' }, ctx());
  assert.ok(ok.content.includes('needle one'));
  const out = await tools.read_file.execute({ path: '../outside/secret.txt' }, ctx());
  assert.equal(out.error.code, 'OUT_OF_SANDBOX');
  const abs = await tools.read_file.execute({ path: path.join(t0.outside, 'secret.txt') }, ctx());
  assert.equal(abs.error.code, 'OUT_OF_SANDBOX');
  const denied = await tools.read_file.execute({ path: '.env' }, ctx());
  assert.equal(denied.error.code, 'DENIED');
  const grep = await tools.grep_search.execute({ pattern: 'needle', output_mode: 'files_with_matches' }, ctx());
  assert.ok(!grep.matches.includes('.env') && !grep.matches.includes('secret'));
  // Input that breaks the schema: Mastra's own validation answers, the tool does not run.
  const bad = await tools.read_file.execute({ path: 5 }, ctx());
  assert.equal(bad.error, true);
  assert.ok(!JSON.stringify([ok, out, abs, denied, grep, bad]).includes('OUTSIDE-SECRET'));
});

test('mastraTools: a dialect, and the context abortSignal cancels the call', async () => {
  const sb = new Sandbox(t0.tree);
  const tools = mastraTools(sb, { profile: 'claude-code' });
  assert.ok(tools.Read && tools.Grep);
  const ok = await tools.Read.execute({ file_path: path.join(t0.tree, 'notes.txt') }, ctx());
  assert.ok(!('error' in ok));
  await assert.rejects(
    tools.Grep.execute({ pattern: 'needle' }, { abortSignal: AbortSignal.abort() }),
    (e) => e.name === 'AbortError',
  );
});
