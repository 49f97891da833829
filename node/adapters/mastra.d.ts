// resolution-mode import: @mastra/core's typings are ESM.
import type { Tool } from '@mastra/core/tools' with { 'resolution-mode': 'import' };
import type { Sandbox } from '../index';

/** The sandbox's tools as Mastra tools (name -> `createTool` result, its `id` the name), in
 *  `profile`'s dialect if given. `execute` resolves to the wire result or `{ error }`. */
export declare function mastraTools(sb: Sandbox, opts?: { profile?: string }): Record<string, Tool>;
