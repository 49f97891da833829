'use strict';
// Vercel AI SDK adapter: the sandbox's tools as AI SDK tools (`tool()` with a `jsonSchema()` input
// schema, from the `ai` package the application already has). Thin and without policy: each
// tool's `execute` is `sb.call(name, input, { profile, signal })`, forwarding the call's
// `abortSignal`, so the AI SDK cancels the native call; a tool error goes back to the model as the
// contract's `{ error: { code, message } }` object (never thrown).
//
//   const { aiTools } = require('rootbound/adapters/ai');
//   await generateText({ model, tools: aiTools(sb), prompt });

/**
 * @param {import('../index').Sandbox} sb
 * @param {{ profile?: string }} [opts] a dialect (`claude-code`, ...): its tool names and schemas
 * @returns {Record<string, any>} tool name -> AI SDK tool
 */
function aiTools(sb, opts = {}) {
  const { tool, jsonSchema } = require('ai');
  const { profile } = opts;
  const out = {};
  for (const def of sb.tools({ format: 'openai', profile })) {
    const { name, description, parameters } = def.function;
    out[name] = tool({
      description,
      inputSchema: jsonSchema(parameters),
      execute: (input, options = {}) => sb.call(name, input, { profile, signal: options.abortSignal }),
    });
  }
  return out;
}

module.exports = { aiTools };
