'use strict';
// The Vercel AI SDK adapter against the real `ai` package (6.x, the newest that runs on Node 20),
// with its mock model: generateText calls our tool and feeds back its result.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { generateText, stepCountIs } = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
const { Sandbox } = require('..');
const { aiTools } = require('../adapters/ai.js');
const { smallTree, cleanup } = require('./helpers.js');

const t0 = smallTree();
test.after(() => cleanup(t0.base));

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function scripted(calls) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const c = calls[step++];
      if (!c) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: `call${step}`, toolName: c[0], input: JSON.stringify(c[1]) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

test('aiTools: every tool, a JSON schema each; generateText runs them through the sandbox', async () => {
  const sb = new Sandbox(t0.tree, { deny: ['.env'] });
  const tools = aiTools(sb);
  assert.deepEqual(Object.keys(tools).sort(), [...sb.toolNames].sort());
  for (const t of Object.values(tools)) assert.equal(t.inputSchema.jsonSchema.type, 'object');
  const r = await generateText({
    model: scripted([
      ['read_file', { path: 'notes.txt' }],
      ['read_file', { path: '../outside/secret.txt' }],
      ['read_file', { path: '.env' }],
    ]),
    tools,
    prompt: 'read',
    stopWhen: stepCountIs(5),
  });
  const results = r.steps.flatMap((s) => s.toolResults).map((x) => x.output);
  assert.equal(results.length, 3);
  assert.ok(results[0].content.includes('needle one'));
  assert.equal(results[1].error.code, 'OUT_OF_SANDBOX');
  assert.equal(results[2].error.code, 'DENIED');
  assert.ok(!JSON.stringify(r.steps).includes('OUTSIDE-SECRET'));
});

test('aiTools: a dialect, and the abortSignal is forwarded', async () => {
  const sb = new Sandbox(t0.tree);
  const tools = aiTools(sb, { profile: 'claude-code' });
  assert.ok(tools.Read && tools.Grep);
  const ok = await tools.Read.execute({ file_path: path.join(t0.tree, 'notes.txt') }, { toolCallId: 'x', messages: [] });
  assert.ok(!('error' in ok));
  await assert.rejects(
    tools.Grep.execute({ pattern: 'needle' }, { toolCallId: 'y', messages: [], abortSignal: AbortSignal.abort() }),
    (e) => e.name === 'AbortError',
  );
});
