// A scripted session per dialect through the official MCP TypeScript SDK client, run by
// tests/frontends/mcp_sdk.rs. Usage: node mcp_session.mjs PATH/TO/rootbound EMPTY_TEMP_DIR
//
// For every profile (rootbound, claude-code, gemini-cli, mcp-filesystem): the tool listing (names,
// outputSchema, annotations), a read, a paged or limited search, numbers and booleans sent as strings
// ("2", "true", as the MCP Inspector's CLI does), and an error case (a path outside the roots: a tool
// error starting OUT_OF_SANDBOX, or "Access denied - " in the reference's words for mcp-filesystem, never
// the secret). The SDK validates every structuredContent against
// the tool's outputSchema. Then --client-roots: the client's roots narrow the served roots, a
// notifications/roots/list_changed re-narrows, and a root outside the operator's never widens them.
// Prints "ALL OK" on success; a failed check throws.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, writeFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [bin, tmp] = process.argv.slice(2);
const SECRET = "TOP-SECRET-0xC0FFEE";
const check = (cond, msg) => {
  if (!cond) throw new Error(msg);
};

mkdirSync(join(tmp, "root", "src"), { recursive: true });
mkdirSync(join(tmp, "root", "docs"), { recursive: true });
mkdirSync(join(tmp, "out"), { recursive: true });
mkdirSync(join(tmp, "outside"), { recursive: true });
let lib = "";
for (let i = 0; i < 7; i++) lib += `pub fn f${i}() {} // needle ${i}\n`;
writeFileSync(join(tmp, "root", "src", "lib.rs"), lib);
writeFileSync(join(tmp, "root", "docs", "guide.md"), "guide needle\nsecond line\nthird line\n");
writeFileSync(join(tmp, "outside", "secret.txt"), SECRET + "\n");
const root = realpathSync(join(tmp, "root"));
const out = realpathSync(join(tmp, "out"));
const outside = realpathSync(join(tmp, "outside"));

async function connect(args, roots) {
  const client = new Client(
    { name: "rootbound-sdk-test", version: "1.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.current }));
  const transport = new StdioClientTransport({ command: bin, args, stderr: "ignore" });
  await client.connect(transport);
  return client;
}

const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

async function call(client, name, args) {
  // callTool validates structuredContent against the listed outputSchema (SDK behaviour).
  return client.callTool({ name, arguments: args });
}

async function expectError(client, name, args, code) {
  const r = await call(client, name, args);
  check(r.isError === true, `${name}: expected a tool error, got ${JSON.stringify(r)}`);
  check(text(r).startsWith(code), `${name}: error should start with ${code}: ${text(r)}`);
  check(!JSON.stringify(r).includes(SECRET), `${name}: the secret leaked`);
}

async function listed(client, expected) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check(JSON.stringify(names) === JSON.stringify(expected), `tools: ${names}`);
  for (const t of tools) {
    check(t.outputSchema && t.outputSchema.type === "object", `${t.name}: no outputSchema`);
    check(t.annotations && typeof t.annotations.readOnlyHint === "boolean", `${t.name}: no annotations`);
    check(t.title, `${t.name}: no title`);
  }
}

// The write root is a read root too, so the edit tools are offered.
const base = ["mcp", "--root", root, "--root", out, "--write-root", out, "--allow-overwrite"];

async function rootbound() {
  const c = await connect(base);
  await listed(c, ["read_file", "grep_search", "glob", "list_dir", "stat", "read_many_files",
    "directory_tree", "list_roots", "read_media_file", "write_file", "edit_file", "create_directory", "move_file"]);
  // A paged grep: 7 needles in lib.rs + 1 in guide.md, 3 a page, followed by next_cursor to the end.
  let seen = [];
  let cursor;
  for (let page = 0; page < 10; page++) {
    const args = { pattern: "needle", limit: "3", ...(cursor ? { cursor } : {}) };
    const r = await call(c, "grep_search", args);
    check(!r.isError, text(r));
    seen.push(...r.structuredContent.matches.trim().split("\n"));
    if (!r.structuredContent.truncated) break;
    cursor = r.structuredContent.next_cursor;
  }
  check(seen.length === 8 && new Set(seen).size === 8, `grep pages: ${seen}`);
  const r = await call(c, "read_file", { path: "docs/guide.md", start_line: "2", max_lines: "1", line_numbers: "true" });
  check(text(r).startsWith("     2\tsecond line"), text(r));
  await expectError(c, "read_file", { path: join(outside, "secret.txt") }, "OUT_OF_SANDBOX");
  await c.close();
}

async function claudeCode() {
  const c = await connect([...base, "--profile", "claude-code"]);
  await listed(c, ["Read", "Grep", "Glob", "Write", "Edit"]);
  const r = await call(c, "Read", { file_path: join(root, "docs/guide.md"), offset: "2", limit: "1" });
  check(text(r).startsWith("     2\tsecond line\n[Showing lines 2-2"), text(r));
  // Paged grep: head_limit 3, offset from the "More results" line, until none is left.
  const lines = [];
  let offset = 0;
  for (let page = 0; page < 10; page++) {
    const g = await call(c, "Grep", { pattern: "NEEDLE", "-i": "true", output_mode: "content", head_limit: "3", offset: String(offset) });
    check(!g.isError, text(g));
    const t = text(g);
    lines.push(...t.split("\n").filter((l) => l.includes("needle")));
    const more = t.match(/call Grep again with offset=(\d+)/);
    if (!more) break;
    offset = Number(more[1]);
  }
  check(lines.length === 8 && new Set(lines).size === 8, `Grep pages: ${lines}`);
  const files = await call(c, "Grep", { pattern: "needle" });
  check(text(files).startsWith("Found 2 files"), text(files));
  const w = await call(c, "Write", { file_path: join(out, "n.txt"), content: "a\nb\n" });
  check(text(w).startsWith("File created successfully"), text(w));
  const e = await call(c, "Edit", { file_path: join(out, "n.txt"), old_string: "b", new_string: "c", replace_all: "false" });
  check(!e.isError && text(e).includes("has been updated"), text(e));
  await expectError(c, "Read", { file_path: join(outside, "secret.txt") }, "OUT_OF_SANDBOX");
  await expectError(c, "Read", { path: "docs/guide.md" }, "INVALID_ARGUMENT");
  await c.close();
}

async function geminiCli() {
  const c = await connect([...base, "--profile", "gemini-cli"]);
  await listed(c, ["read_file", "read_many_files", "grep_search", "glob", "list_directory", "write_file", "replace"]);
  const r = await call(c, "read_file", { file_path: join(root, "docs/guide.md"), start_line: "2", end_line: "2" });
  check(text(r).includes("use start_line: 3") && text(r).endsWith("--- FILE CONTENT (truncated) ---\nsecond line"), text(r));
  // Gemini's grep has no offset: total_max_matches limits it and says so; the legacy name works.
  const g = await call(c, "search_file_content", { pattern: "NEEDLE", total_max_matches: "3" });
  check(text(g).startsWith("Found 3 matches") && text(g).includes("results limited"), text(g));
  check(g.structuredContent.truncated === true, JSON.stringify(g.structuredContent));
  const all = await call(c, "grep_search", { pattern: "needle", case_sensitive: "true" });
  check(text(all).startsWith("Found 8 matches"), text(all));
  const l = await call(c, "list_directory", { dir_path: root });
  check(text(l).includes("[DIR] src"), text(l));
  await expectError(c, "read_file", { file_path: join(outside, "secret.txt") }, "OUT_OF_SANDBOX");
  await c.close();
}

async function mcpFilesystem() {
  const c = await connect([...base, "--profile", "mcp-filesystem"]);
  await listed(c, ["read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file", "edit_file",
    "create_directory", "list_directory", "list_directory_with_sizes", "directory_tree", "move_file", "search_files",
    "get_file_info", "list_allowed_directories"]);
  const h = await call(c, "read_text_file", { path: join(root, "docs/guide.md"), head: "1" });
  // As the reference's headFile: the lines joined by "\n", no newline after the last.
  check(text(h) === "guide needle", JSON.stringify(text(h)));
  check(h.structuredContent.content === text(h), "structuredContent.content is the text");
  const s = await call(c, "search_files", { path: root, pattern: "**/*.md" });
  check(text(s) === join(root, "docs/guide.md"), text(s));
  const ed = await call(c, "write_file", { path: join(out, "e.txt"), content: "x\n" });
  check(!ed.isError, text(ed));
  const d = await call(c, "edit_file", { path: join(out, "e.txt"), edits: [{ oldText: "x", newText: "y" }], dryRun: "true" });
  check(text(d).startsWith("```diff") && text(d).includes("+y"), text(d));
  const ls = await call(c, "list_directory", { path: root });
  check(text(ls) === "[DIR] docs\n[DIR] src", JSON.stringify(text(ls)));
  // In the reference's words; the stable code stays in the structured error.
  await expectError(c, "read_text_file", { path: join(outside, "secret.txt") }, "Access denied - ");
  await expectError(c, "read_text_file", { path: join(root, "docs/guide.md"), head: 1, tail: 1 }, "Cannot specify both");
  const coded = await call(c, "read_text_file", { path: join(outside, "secret.txt") });
  check(coded.structuredContent.error.code === "OUT_OF_SANDBOX", JSON.stringify(coded));
  await c.close();
}

async function clientRoots() {
  const roots = { current: [{ uri: pathToFileURL(join(root, "docs")).href, name: "docs" }] };
  const c = await connect([...base, "--profile", "mcp-filesystem", "--client-roots"], roots);
  const dirs = async () => text(await call(c, "list_allowed_directories", {}));
  check((await dirs()) === `Allowed directories:\n${join(root, "docs")}`, await dirs());
  await expectError(c, "read_text_file", { path: join(root, "src/lib.rs") }, "Access denied - ");
  const ok = await call(c, "read_text_file", { path: join(root, "docs/guide.md") });
  check(!ok.isError, text(ok));
  // A root outside the operator's, and one above it: never wider than the operator's root.
  roots.current = [{ uri: pathToFileURL(outside).href }, { uri: pathToFileURL(tmp).href }];
  await c.sendRootsListChanged();
  let now = "";
  for (let i = 0; i < 100; i++) {
    now = await dirs();
    if (!now.includes("/docs")) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  check(now === `Allowed directories:\n${root}\n${out}`, now);
  await expectError(c, "read_text_file", { path: join(outside, "secret.txt") }, "Access denied - ");
  const lib = await call(c, "read_text_file", { path: join(root, "src/lib.rs") });
  check(!lib.isError, text(lib));
  // Only a root outside: nothing is served.
  roots.current = [{ uri: pathToFileURL(outside).href }];
  await c.sendRootsListChanged();
  for (let i = 0; i < 100; i++) {
    now = await dirs();
    if (now === "Allowed directories:\n") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  check(now === "Allowed directories:\n", JSON.stringify(now));
  await expectError(c, "read_text_file", { path: join(root, "src/lib.rs") }, "Access denied - ");
  await c.close();

  // Without --client-roots the client's roots are ignored.
  const plain = await connect([...base, "--profile", "mcp-filesystem"], { current: [{ uri: pathToFileURL(join(root, "docs")).href }] });
  const lib2 = await call(plain, "read_text_file", { path: join(root, "src/lib.rs") });
  check(!lib2.isError, text(lib2));
  await plain.close();
}

for (const [name, f] of [["rootbound", rootbound], ["claude-code", claudeCode], ["gemini-cli", geminiCli],
  ["mcp-filesystem", mcpFilesystem], ["client roots", clientRoots]]) {
  await f();
  console.log(`${name} session OK`);
}
console.log("ALL OK");
