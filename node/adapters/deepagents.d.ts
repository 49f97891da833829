// resolution-mode import: deepagents' typings are ESM.
import type {
  BackendProtocolV2, DeleteResult, EditResult, GlobResult, GrepResult, LsResult, ReadRawResult,
  ReadResult, WriteResult,
} from 'deepagents' with { 'resolution-mode': 'import' };
import type { Sandbox } from '../index';

/** A deepagents filesystem backend over a sandbox, which it shows as the virtual `/`. */
export declare class RootboundBackend implements BackendProtocolV2 {
  constructor(sb: Sandbox);
  ls(path: string): Promise<LsResult>;
  read(filePath: string, offset?: number, limit?: number): Promise<ReadResult>;
  readRaw(filePath: string): Promise<ReadRawResult>;
  grep(pattern: string, path?: string | null, glob?: string | null, maxCount?: number | null): Promise<GrepResult>;
  glob(pattern: string, path?: string): Promise<GlobResult>;
  write(filePath: string, content: string): Promise<WriteResult>;
  edit(filePath: string, oldString: string, newString: string, replaceAll?: boolean): Promise<EditResult>;
  delete(filePath: string): Promise<DeleteResult>;
}

/** `createDeepAgent({ backend: deepagentsBackend(sb) })`: deepagents' file tools through rootbound. */
export declare function deepagentsBackend(sb: Sandbox): RootboundBackend;
