// The LangChain.js adapter's types under tsc --strict (an ES module: @langchain/core's CommonJS
// typings import an ESM-only package, which tsc refuses from a CommonJS file).
import { Sandbox } from '../index.js';
import { langchainTools } from '../adapters/langchain.js';

export async function firstTool(root: string): Promise<string> {
  const tools = langchainTools(new Sandbox(root, { deny: ['.env'] }), { profile: 'claude-code' });
  const t = tools[0];
  return t ? `${t.name}: ${t.description}` : '';
}
