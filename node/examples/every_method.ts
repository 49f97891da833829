// Every method of the package, type-checked by `tsc --strict` (npm run typecheck; a test runs it).
import {
  Sandbox,
  Budget,
  RootboundError,
  NotFound,
  OutOfSandbox,
  ConfigError,
  ERRORS,
  ERROR_CODES,
  LIMITS,
  DEFAULT_LIMITS,
  PROFILES,
  errorFrom,
  type Hit,
  type SearchResult,
} from '../index';

export async function main(root: string, writeRoot: string, config: string): Promise<void> {
  const sb = new Sandbox(root, { deny: ['.env', '*.pem'], writeRoot, allowOverwrite: true, allowDelete: true, maxResults: 100, timeoutMs: 5000 });
  const named = new Sandbox({ code: root }, { threads: 2 });
  const fromFile: Sandbox = Sandbox.fromConfig(config, 'bot');
  const ac = new AbortController();
  const signal = ac.signal;

  const read = await sb.readFile('README.md', { startLine: 1, maxLines: 10, signal });
  const text: string = read.content;
  const grep: SearchResult = await sb.grepSearch('TODO', { include: ['*.ts'], caseInsensitive: true, limit: 20, timeoutMs: 1000 });
  const more = grep.nextCursor ? await sb.grepSearch('TODO', { cursor: grep.nextCursor }) : grep;
  const timedOut: boolean = more.timedOut;
  const files = await sb.glob('**/*.rs', { sort: 'path' });
  const listing = await sb.listDir('src', { hidden: true });
  const names: string[] = listing.entries.map((e) => e.name);
  const st = await sb.stat('README.md');
  const size: number = st.size;
  const many = await sb.readManyFiles(['a.txt', 'src/*.rs'], { maxBytes: 65536 });
  const tree = await sb.directoryTree('src', { maxDepth: 2 });
  const roots = await named.listRoots();
  const media = await sb.readMediaFile('logo.png');
  const mime: string = media.mimeType;
  const w = await sb.writeFile(`${writeRoot}/out.txt`, 'hello', { overwrite: true });
  const e = await sb.editFile(`${writeRoot}/out.txt`, { oldString: 'hello', newString: 'bye', dryRun: true });
  const e2 = await sb.editFile(`${writeRoot}/out.txt`, { edits: [{ oldString: 'bye', newString: 'hi' }] });
  const d = await sb.createDirectory(`${writeRoot}/sub`);
  const m = await sb.moveFile(`${writeRoot}/out.txt`, `${writeRoot}/sub/out.txt`);
  const del = await sb.deleteFile(`${writeRoot}/sub/out.txt`);

  for await (const hit of sb.iterGrep('fn main', { pageSize: 50, signal })) {
    const h: Hit = hit;
    console.log(h.path, h.line, h.text);
  }
  for await (const p of sb.iterGlob('*.md')) console.log(p.toUpperCase());

  const wire = await sb.call('read_file', { path: 'README.md' }, { profile: 'rootbound', signal, timeoutMs: 100 });
  if ('error' in wire) console.log(wire.error);
  const defs: Array<Record<string, unknown>> = sb.tools({ format: 'anthropic', profile: 'claude-code' });

  try {
    await sb.readFile('../etc/passwd');
  } catch (err) {
    if (err instanceof OutOfSandbox || err instanceof NotFound) console.log(err.code, err.details);
    else if (err instanceof RootboundError) console.log(err.toJSON().error.message);
  }
  try {
    Sandbox.fromConfig('bad.toml');
  } catch (err) {
    if (err instanceof ConfigError) console.log(err.problems.map((p) => p.key));
  }
  const cls: typeof RootboundError | undefined = ERRORS['NOT_FOUND'];
  const made: RootboundError = errorFrom({ code: 'DENIED', message: 'no' });
  console.log(text, timedOut, files.matches, names, size, many.files.length, tree.tree.children, roots.roots[0]?.name, mime);
  console.log(w.created, e.diff, e2.replacements, d.created, m.movedFrom, del.deleted, defs.length, cls, made);
  console.log(fromFile.agent, fromFile.profile, fromFile.toolNames, ERROR_CODES, LIMITS, DEFAULT_LIMITS.maxResults, PROFILES);
  const budget = new Budget(10000);
  const both = await Promise.all([sb.glob('*', { budget }), sb.grepSearch('x', { budget, signal })]);
  budget.cancel();
  console.log(both.length, budget.cancelled, budget.progress().files);
  ac.abort();
  sb.close(); // its index work stops now; every later call answers Cancelled
  sb.close();
}
