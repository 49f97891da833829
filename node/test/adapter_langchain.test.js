'use strict';
// The LangChain.js adapter against the real `@langchain/core` (1.4.x), no model: the tools'
// schemas, invoke() through the sandbox, and a run's signal cancelling the call.
const test = require('node:test');
const assert = require('node:assert/strict');
const { Sandbox } = require('..');
const { langchainTools } = require('../adapters/langchain.js');
const { smallTree, cleanup } = require('./helpers.js');

const t0 = smallTree();
test.after(() => cleanup(t0.base));

test('langchainTools: one tool per sandbox tool, invoked through the sandbox', async () => {
  const sb = new Sandbox(t0.tree, { deny: ['.env'] });
  const tools = langchainTools(sb);
  assert.deepEqual(tools.map((t) => t.name).sort(), [...sb.toolNames].sort());
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const read = JSON.parse(await byName.read_file.invoke({ path: 'notes.txt' }));
  assert.ok(read.content.includes('needle one'));
  const out = JSON.parse(await byName.read_file.invoke({ path: '../outside/secret.txt' }));
  assert.equal(out.error.code, 'OUT_OF_SANDBOX');
  const denied = JSON.parse(await byName.read_file.invoke({ path: '.env' }));
  assert.equal(denied.error.code, 'DENIED');
  const grep = JSON.parse(await byName.grep_search.invoke({ pattern: 'needle' }));
  assert.ok(grep.match_lines >= 3);
});

test("langchainTools: the run's signal cancels the call", async () => {
  const sb = new Sandbox(t0.tree);
  const [grep] = langchainTools(sb).filter((t) => t.name === 'grep_search');
  await assert.rejects(grep.invoke({ pattern: 'needle' }, { signal: AbortSignal.abort() }), (e) => /abort/i.test(e.name + e.message));
  // The signal reaches sb.call while the call runs (LangChain may wrap it): aborting the run aborts it.
  const seen = [];
  const call = sb.call.bind(sb);
  sb.call = (name, args, opts) => {
    seen.push(opts.signal);
    return call(name, args, opts);
  };
  const ac = new AbortController();
  await grep.invoke({ pattern: 'needle' }, { signal: ac.signal });
  assert.equal(seen.length, 1);
  assert.ok(seen[0] instanceof AbortSignal);
  ac.abort();
  assert.equal(seen[0].aborted, true);
});
