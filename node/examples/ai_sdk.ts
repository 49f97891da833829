// The AI SDK adapter's types under tsc --strict: aiTools(sb) is what generateText takes.
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { Sandbox } from '../index';
import { aiTools } from '../adapters/ai';

export async function ask(model: LanguageModel, root: string, prompt: string, signal?: AbortSignal): Promise<string> {
  const sb = new Sandbox(root, { deny: ['.env', '.git/'] });
  const r = await generateText({ model, tools: aiTools(sb), prompt, stopWhen: stepCountIs(8), abortSignal: signal });
  return r.text;
}
