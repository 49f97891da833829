import type { Tool } from 'ai';
import type { Sandbox } from '../index';

/** The sandbox's tools as Vercel AI SDK tools (name -> tool), in `profile`'s dialect if given. */
export declare function aiTools(sb: Sandbox, opts?: { profile?: string }): Record<string, Tool>;
