'use strict';
// LangChain.js adapter: the sandbox's tools as `tool()`s from the application's own
// `@langchain/core` (JSON-schema input, no zod). Thin and without policy: each tool runs
// `sb.call(name, input, { profile, signal })` with the run's `signal` (so aborting a run cancels the
// native call) and returns the result as JSON text for the ToolMessage; a tool error goes back to
// the model as the contract's `{ "error": {...} }` object, never thrown.
//
//   const { langchainTools } = require('rootbound/adapters/langchain');
//   const agent = createAgent({ model, tools: langchainTools(sb) });

/**
 * @param {import('../index').Sandbox} sb
 * @param {{ profile?: string }} [opts] a dialect (`claude-code`, ...): its tool names and schemas
 */
function langchainTools(sb, opts = {}) {
  const { tool } = require('@langchain/core/tools');
  const { profile } = opts;
  return sb.tools({ format: 'openai', profile }).map((def) => {
    const { name, description, parameters } = def.function;
    return tool(
      async (input, config) => JSON.stringify(await sb.call(name, input, { profile, signal: config && config.signal })),
      { name, description, schema: parameters },
    );
  });
}

module.exports = { langchainTools };
