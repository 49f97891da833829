// Types of the `rootbound` package (hand-written over the generated binding.d.ts).

/** Options every method takes. */
export interface CallOptions {
  /** Aborting rejects the call at once with `signal.reason` (an `AbortError` by default) and
   *  cancels the native call, which stops within milliseconds. */
  signal?: AbortSignal;
  /** A deadline for this call: a search that reaches it returns its partial page with
   *  `timedOut: true` (and a cursor); other tools fail with their usual error. */
  timeoutMs?: number;
  /** A budget shared with other calls: cancelling it cancels them all; its progress counts
   *  their work. Give it the timeout (`new Budget(ms)`), not `timeoutMs`. */
  budget?: Budget;
}

/** A cancel switch plus an optional deadline, shared by the calls made with it. */
export declare class Budget {
  constructor(timeoutMs?: number | null);
  cancel(): void;
  readonly cancelled: boolean;
  /** Files searched (grep) or listed (glob), and bytes searched, by the calls made with it. */
  progress(): { files: number; bytes: number };
}

export type Roots = string | URL | Array<string | URL> | Record<string, string | URL>;

export interface Limits {
  dfaSizeLimit?: number;
  indexMaxBytes?: number;
  maxBytes?: number;
  maxCallMemory?: number;
  maxColumns?: number;
  maxComponentLen?: number;
  maxFilesize?: number;
  maxLineChars?: number;
  maxListEntries?: number;
  maxPathLen?: number;
  maxPatternLen?: number;
  maxReadBytes?: number;
  maxResults?: number;
  regexSizeLimit?: number;
  threads?: number;
  timeoutMs?: number;
}

export interface SandboxOptions extends Limits {
  /** gitignore-syntax rules (".env", ".git/", "*.pem") that hold for every spelling and tool. */
  deny?: string | string[];
  /** Enables the write tools there. */
  writeRoot?: string | URL;
  allowOverwrite?: boolean;
  allowDelete?: boolean;
  maxWriteBytes?: number;
  createParents?: boolean;
  symlinks?: string;
  rootMode?: 'strict' | 'lenient' | string;
  pathDisplay?: string;
  hidden?: boolean;
  noIgnore?: boolean;
  refuseHardlinks?: boolean;
  /**
   * An n-gram index built in the background so that repeated grep calls open only the files that
   * can match (the same answers): `true` every root, `'auto'` roots whose filesystem reports
   * changes; off by default (it costs a build and memory, see docs/index.md).
   */
  index?: boolean | 'auto';
  /** With an index: `'events'` (default) or `'strict'` (checks each pruned file at every query). */
  indexVerify?: 'events' | 'strict';
  /** The agent's name for the audit log. */
  agent?: string;
}

export type Globs = string | string[];

export interface Skipped {
  binary: number; tooLarge: number; ignored: number; denied: number; unreadable: number; notRegular: number;
}
export interface Stats { filesSearched: number; skipped: Skipped }
export interface Hit { path: string; line: number; column?: number | null; text: string; kind: 'match' | 'context' | string }
export interface FileCount { path: string; count: number }

export interface SearchResult {
  /** `path:line:text` lines (glob: one path per line). */
  matches: string;
  matchLines: number;
  nextOffset?: number | null;
  nextCursor?: string | null;
  truncated: boolean;
  timedOut: boolean;
  stats: Stats;
  total?: number | null;
  hits?: Hit[];
  counts?: FileCount[];
  files?: string[];
}

export interface ReadResult {
  path: string; content: string; offset: number; nextOffset?: number | null; totalBytes: number;
  bytesReturned?: number; truncated: boolean; encoding: string; binary?: boolean;
  startLine?: number; endLine?: number; nextLine?: number | null; timedOut?: boolean;
  document?: Record<string, unknown>;
}
export interface Entry { name: string; kind: string; size?: number | null }
export interface ListResult {
  path: string; entries: Entry[]; offset: number; nextOffset?: number | null; total: number;
  truncated: boolean; hidden: number; ignored: number;
}
export interface StatResult { path: string; kind: string; size: number; mtime: string; mtimeUnix: number; lines?: number | null }
export interface ContractError { code: string; message: string; [detail: string]: unknown }
export interface ManyFile {
  path: string; content?: string; totalBytes?: number; bytesReturned?: number; truncated: boolean;
  nextOffset?: number | null; encoding?: string; binary?: boolean; error?: ContractError;
}
export interface ReadManyResult { files: ManyFile[]; truncated: boolean; bytesReturned?: number }
export interface TreeNode { name: string; kind: string; size?: number; children?: TreeNode[] }
export interface TreeResult {
  path: string; tree: TreeNode; entries: number; truncated: boolean; timedOut?: boolean;
  omitted: Record<string, number>;
}
export interface RootEntry { name: string; path: string; readable: boolean; writable: boolean }
export interface RootsResult { roots: RootEntry[] }
export interface MediaResult { path: string; kind: string; mimeType: string; size: number; data: string }
export interface WriteResult { path: string; bytesWritten?: number; created?: boolean; replaced?: boolean; deleted?: boolean }
export interface EditResult { path: string; replacements: number; size: number; created: boolean; dryRun: boolean; diff: string }
export interface FsOpResult { path: string; created?: boolean; movedFrom?: string; replaced?: boolean }

export interface ReadFileOptions extends CallOptions {
  offset?: number; limit?: number; startLine?: number; maxLines?: number; lineNumbers?: boolean;
  headLines?: number; tailLines?: number; raw?: boolean;
}

export interface GrepPaging { offset?: number; cursor?: string; limit?: number }
export interface GrepFilters extends CallOptions {
  patterns?: string[]; path?: string; include?: Globs; exclude?: Globs; type?: string;
  caseInsensitive?: boolean; smartCase?: boolean; fixedStrings?: boolean; word?: boolean;
  lineRegexp?: boolean; invert?: boolean; onlyMatching?: boolean; maxCount?: number;
  maxDepth?: number; multiline?: boolean; context?: number; before?: number; after?: number;
  hidden?: boolean; noIgnore?: boolean; maxFilesize?: number; maxBytes?: number; documents?: boolean;
}
export interface GrepOptions extends GrepFilters, GrepPaging {
  outputMode?: 'content' | 'files_with_matches' | 'count' | string;
  outputFormat?: 'text' | 'json' | string;
}
export interface GlobFilters extends CallOptions { path?: string; hidden?: boolean; noIgnore?: boolean; sort?: string }
export interface GlobOptions extends GlobFilters, GrepPaging {}
export interface ListDirOptions extends CallOptions { hidden?: boolean; noIgnore?: boolean; offset?: number; limit?: number }
export interface TreeOptions extends CallOptions {
  maxDepth?: number; maxEntries?: number; exclude?: Globs; hidden?: boolean; noIgnore?: boolean;
}
export interface WriteOptions extends CallOptions { overwrite?: boolean; encoding?: 'utf-8' | 'base64' | string }
export interface Edit { oldString: string; newString: string; replaceAll?: boolean; expectedReplacements?: number }
export interface EditOptions extends CallOptions {
  oldString?: string; newString?: string; replaceAll?: boolean; expectedReplacements?: number;
  edits?: Edit[]; dryRun?: boolean;
}
export interface MoveOptions extends CallOptions { overwrite?: boolean }

export type SchemaFormat = 'openai' | 'anthropic' | 'gemini' | 'mcp';
export type WireResult = Record<string, unknown> | { error: ContractError };

export declare class Sandbox {
  constructor(roots: Roots, options?: SandboxOptions);
  static fromConfig(path: string | URL, agent?: string): Sandbox;
  readonly agent: string;
  readonly profile: string;
  readonly toolNames: string[];
  /** The agent-loop surface: wire-format arguments and result; a tool failure resolves to
   *  `{ error }`, never rejects. With `profile`, `name` is a tool of that dialect. */
  call(name: string, args?: Record<string, unknown> | string | null, opts?: CallOptions & { profile?: string }): Promise<WireResult>;
  tools(opts?: { format?: SchemaFormat; profile?: string }): Array<Record<string, unknown>>;
  /** Lets go of the native sandbox: its index work stops now, not when V8 collects the object.
   *  Afterwards every method answers the closed error (`Cancelled`, code `CANCELLED`: the typed
   *  methods reject, `call` resolves to `{ error }`, `tools` and the getters throw). Calls
   *  already running finish and hold the sandbox until they settle. Idempotent. */
  close(): void;

  readFile(path: string, opts?: ReadFileOptions): Promise<ReadResult>;
  grepSearch(pattern: string, opts?: GrepOptions): Promise<SearchResult>;
  glob(pattern: string, opts?: GlobOptions): Promise<SearchResult>;
  listDir(path?: string, opts?: ListDirOptions): Promise<ListResult>;
  stat(path: string, opts?: CallOptions): Promise<StatResult>;
  readManyFiles(paths: Iterable<string>, opts?: CallOptions & { maxBytes?: number }): Promise<ReadManyResult>;
  directoryTree(path?: string, opts?: TreeOptions): Promise<TreeResult>;
  listRoots(path?: string, opts?: CallOptions): Promise<RootsResult>;
  readMediaFile(path: string, opts?: CallOptions): Promise<MediaResult>;
  writeFile(path: string, content: string, opts?: WriteOptions): Promise<WriteResult>;
  editFile(path: string, opts?: EditOptions): Promise<EditResult>;
  createDirectory(path: string, opts?: CallOptions): Promise<FsOpResult>;
  moveFile(source: string, destination: string, opts?: MoveOptions): Promise<FsOpResult>;
  deleteFile(path: string, opts?: CallOptions): Promise<WriteResult>;

  iterGrep(pattern: string, opts?: GrepFilters & { pageSize?: number }): AsyncGenerator<Hit, void, undefined>;
  iterGlob(pattern: string, opts?: GlobFilters & { pageSize?: number }): AsyncGenerator<string, void, undefined>;
}

export declare class RootboundError extends Error {
  static readonly CODE: string;
  constructor(message: string, opts?: { code?: string; details?: Record<string, unknown> });
  readonly code: string;
  readonly details: Record<string, unknown>;
  toJSON(): { error: ContractError };
}
export declare class OutOfSandbox extends RootboundError {}
export declare class NotFound extends RootboundError {}
export declare class NotAFile extends RootboundError {}
export declare class Denied extends RootboundError {}
export declare class PermissionDenied extends RootboundError {}
export declare class InvalidArgument extends RootboundError {}
export declare class InvalidPattern extends RootboundError {}
export declare class PatternTooLarge extends RootboundError {}
export declare class SymlinkLoop extends RootboundError {}
export declare class AlreadyExists extends RootboundError {}
export declare class TooLarge extends RootboundError {}
export declare class IoError extends RootboundError {}
export declare class Cancelled extends RootboundError {}
export declare class ConfigError extends InvalidArgument {
  readonly problems: Array<{ key: string; message: string }>;
}
/** The class of each error code. */
export declare const ERRORS: Readonly<Record<string, typeof RootboundError>>;
export declare function errorFrom(obj: { error: ContractError } | ContractError): RootboundError;
export declare const LIMITS: readonly string[];
export declare const DEFAULT_LIMITS: Readonly<Required<Limits>>;
export declare const ERROR_CODES: readonly string[];
export declare const PROFILES: readonly string[];
