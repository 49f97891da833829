// The official MCP TypeScript SDK client over Streamable HTTP (StreamableHTTPClientTransport), run
// by tests/frontends/mcp_sdk.rs against `rootbound mcp --http` with a bearer token.
// Usage: node mcp_http_session.mjs URL TOKEN ROOT OUTSIDE
//
// ROOT (the server's one root) and OUTSIDE (not served) are empty directories; the script fills them.
// With the token: the tool listing, then every read tool of the default profile called once with its
// result checked (the SDK validates each structuredContent against the tool's outputSchema), and a
// path outside the root refused. With a wrong token, and with none: connecting is refused (401).
// Prints "ALL OK" on success; a failed check throws.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [url, token, root, outside] = process.argv.slice(2);
const SECRET = "TOP-SECRET-0xBEEF";
const check = (cond, msg) => {
  if (!cond) throw new Error(msg);
};

mkdirSync(join(root, "src"), { recursive: true });
mkdirSync(join(root, "docs"), { recursive: true });
let lib = "";
for (let i = 0; i < 7; i++) lib += `pub fn f${i}() {} // needle ${i}\n`;
writeFileSync(join(root, "src", "lib.rs"), lib);
writeFileSync(join(root, "docs", "guide.md"), "guide needle\nsecond line\nthird line\n");
// A 1x1 PNG.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
writeFileSync(join(root, "docs", "dot.png"), png);
writeFileSync(join(outside, "secret.txt"), SECRET + "\n");

async function connect(bearer) {
  const client = new Client({ name: "rootbound-sdk-http-test", version: "1.0.0" });
  const headers = bearer === undefined ? {} : { Authorization: `Bearer ${bearer}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

async function ok(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  check(!r.isError, `${name}: ${JSON.stringify(r)}`);
  check(!JSON.stringify(r).includes(SECRET), `${name}: the secret leaked`);
  return r;
}

async function session() {
  const c = await connect(token);
  const { tools } = await c.listTools();
  const names = tools.map((t) => t.name);
  const reads = ["read_file", "grep_search", "glob", "list_dir", "stat", "read_many_files",
    "directory_tree", "list_roots", "read_media_file"];
  check(JSON.stringify(names) === JSON.stringify(reads), `tools: ${names}`);

  const r = await ok(c, "read_file", { path: "docs/guide.md", start_line: 2, max_lines: 1 });
  check(text(r).includes("second line") && !text(r).includes("third line"), text(r));
  const g = await ok(c, "grep_search", { pattern: "needle", limit: 3 });
  check(g.structuredContent.truncated === true, JSON.stringify(g.structuredContent));
  const rest = await ok(c, "grep_search", { pattern: "needle", limit: 10, cursor: g.structuredContent.next_cursor });
  const lines = [g, rest].flatMap((x) => x.structuredContent.matches.trim().split("\n"));
  check(lines.length === 8 && new Set(lines).size === 8, `grep pages: ${lines}`);
  const gl = await ok(c, "glob", { pattern: "**/*.md" });
  check(text(gl).includes("docs/guide.md") && !text(gl).includes("lib.rs"), text(gl));
  const ls = await ok(c, "list_dir", { path: "." });
  check(text(ls).includes("docs") && text(ls).includes("src"), text(ls));
  const st = await ok(c, "stat", { path: "src/lib.rs" });
  check(JSON.stringify(st.structuredContent).includes(String(lib.length)), JSON.stringify(st.structuredContent));
  const many = await ok(c, "read_many_files", { paths: ["docs/guide.md", "src/lib.rs"] });
  check(text(many).includes("guide needle") && text(many).includes("pub fn f6"), text(many));
  const tree = await ok(c, "directory_tree", { path: "." });
  check(text(tree).includes("guide.md") && text(tree).includes("lib.rs"), text(tree));
  const roots = await ok(c, "list_roots", {});
  check(roots.structuredContent.roots.length === 1, JSON.stringify(roots.structuredContent));
  const media = await ok(c, "read_media_file", { path: "docs/dot.png" });
  const img = media.content.find((x) => x.type === "image");
  check(img && img.mimeType === "image/png" && img.data === png.toString("base64"), JSON.stringify(media.content));

  const out = await c.callTool({ name: "read_file", arguments: { path: join(outside, "secret.txt") } });
  check(out.isError === true && text(out).startsWith("OUT_OF_SANDBOX"), text(out));
  check(!JSON.stringify(out).includes(SECRET), "the secret leaked");
  await c.close();
}

async function refused(bearer) {
  let err;
  try {
    const c = await connect(bearer);
    await c.listTools();
    await c.close();
  } catch (e) {
    err = e;
  }
  check(err !== undefined, `connecting with ${JSON.stringify(bearer)} was admitted`);
  check(/401|Unauthorized/i.test(String(err) + String(err.code)), `not a 401: ${err}`);
}

await session();
console.log("http session OK");
await refused("tok-wrong-0123456789abcdef-wrong");
await refused(undefined);
console.log("wrong token refused OK");
console.log("ALL OK");
