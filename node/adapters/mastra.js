'use strict';
// Mastra adapter: the sandbox's tools as Mastra tools (`createTool` from the application's own
// `@mastra/core`, 1.x), each with the tool's JSON schema as its `inputSchema` (Mastra validates
// input against it before `execute`). Thin and without policy: `execute(input, context)` runs
// `sb.call(name, input, { profile, signal: context.abortSignal })`, so aborting an agent run
// cancels the native call; a tool error goes back to the model as the contract's
// `{ error: { code, message } }` object, never thrown.
//
//   const { mastraTools } = require('rootbound/adapters/mastra');
//   const agent = new Agent({ name: 'files', instructions, model, tools: mastraTools(sb) });

/**
 * @param {import('../index').Sandbox} sb
 * @param {{ profile?: string }} [opts] a dialect (`claude-code`, ...): its tool names and schemas
 * @returns {Record<string, any>} tool name -> Mastra tool (its `id` is the name)
 */
function mastraTools(sb, opts = {}) {
  const { createTool } = require('@mastra/core/tools');
  const { profile } = opts;
  const out = {};
  for (const def of sb.tools({ format: 'openai', profile })) {
    const { name, description, parameters } = def.function;
    out[name] = createTool({
      id: name,
      description,
      inputSchema: parameters,
      execute: (input, context) => sb.call(name, input, { profile, signal: context && context.abortSignal }),
    });
  }
  return out;
}

module.exports = { mastraTools };
