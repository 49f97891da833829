// resolution-mode import: @langchain/core's CommonJS typings import an ESM-only package.
import type { StructuredToolInterface } from '@langchain/core/tools' with { 'resolution-mode': 'import' };
import type { Sandbox } from '../index';

/** The sandbox's tools as LangChain.js tools, in `profile`'s dialect if given. */
export declare function langchainTools(sb: Sandbox, opts?: { profile?: string }): StructuredToolInterface[];
