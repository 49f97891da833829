// Median latency of small calls through the official TypeScript MCP SDK client (stdio), for the
// MCP reference filesystem server and rootbound's mcp-filesystem profile, in one run on one tree:
// the TypeScript half of benches/small_calls.py (same calls, same alternation).
//
//   NODE_PATH=tests/js/node_modules node benches/small_calls.mjs \
//     --reference NODE_MODULES/@modelcontextprotocol/server-filesystem/dist/index.js \
//     --rootbound target/release/rootbound --tree DIR [--calls 100] [--search-calls 10]
//
// Each server is started once and its tool list fetched once (the SDK compiles each tool's output
// schema with ajv then, and validates every call's structuredContent against it). Each tool is
// called --calls times after 10 warm-up calls, the two servers alternating call by call so machine
// load falls on both alike. search_files has its own count: on a large tree one reference call
// takes seconds. Besides the client's time, the script times how long the SDK's own validation of
// one result takes (the cached ajv validator called on the last structuredContent), so a slower
// call can be split between the server and the client.

import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

// The SDK lives in tests/js/node_modules; resolve it from there whatever the working directory.
const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(path.join(here, "..", "tests", "js", "package.json"));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");

function args() {
  const a = { calls: 100, searchCalls: 10 };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i += 2) {
    const key = v[i].replace(/^--/, "").replace(/-(\w)/g, (_, c) => c.toUpperCase());
    a[key] = ["calls", "searchCalls"].includes(key) ? Number(v[i + 1]) : v[i + 1];
  }
  for (const k of ["reference", "rootbound", "tree"]) {
    if (!a[k]) throw new Error(`--${k} is required`);
  }
  a.tree = fs.realpathSync(a.tree);
  return a;
}

/** The first source-like file of the tree, in sorted walk order (as small_calls.py picks it). */
function someFile(tree) {
  const stack = [tree];
  while (stack.length) {
    const d = stack.shift();
    const entries = fs.readdirSync(d, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => e.name).sort();
    const hit = files.find((f) => /\.(c|rs|md|txt|py)$/.test(f));
    if (hit) return path.join(d, hit);
    for (const e of entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      stack.push(path.join(d, e));
    }
  }
  throw new Error("no source file in the tree");
}

function calls(tree) {
  const f = someFile(tree);
  return [
    ["read_text_file", { path: f, head: 50 }],
    ["list_directory", { path: tree }],
    ["list_directory_with_sizes", { path: tree }],
    ["get_file_info", { path: f }],
    ["search_files", { path: tree, pattern: "**/*.h" }],
  ];
}

async function connect(command, cmdArgs) {
  const client = new Client({ name: "small-calls-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args: cmdArgs, stderr: "ignore" }));
  await client.listTools(); // compiles and caches the output-schema validators
  return client;
}

async function timed(client, name, a) {
  const t = performance.now();
  const r = await client.callTool({ name, arguments: a });
  const dt = performance.now() - t;
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return [dt, r];
}

/** How long the SDK's cached validator takes on one structured result, median of 50, ms. */
function validation(client, name, result) {
  const v = client.getToolOutputValidator(name);
  if (!v || !result.structuredContent) return 0;
  const xs = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    v(result.structuredContent);
    xs.push(performance.now() - t);
  }
  return median(xs);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

async function main() {
  const a = args();
  const ref = await connect("node", [a.reference, a.tree]);
  const rb = await connect(a.rootbound, ["mcp", "--profile", "mcp-filesystem", "--root", a.tree]);
  const rows = [];
  for (const [name, callArgs] of calls(a.tree)) {
    const n = name === "search_files" ? a.searchCalls : a.calls;
    const warm = name === "search_files" ? 1 : 10;
    for (let i = 0; i < warm; i++) {
      await timed(ref, name, callArgs);
      await timed(rb, name, callArgs);
    }
    const xa = [];
    const xb = [];
    let last = [];
    for (let i = 0; i < n; i++) {
      const [da, ra] = await timed(ref, name, callArgs);
      const [db, rr] = await timed(rb, name, callArgs);
      xa.push(da);
      xb.push(db);
      last = [ra, rr];
    }
    const bytes = last.map((r) => JSON.stringify(r).length);
    rows.push([name, n, xa, xb, validation(ref, name, last[0]), validation(rb, name, last[1]), bytes]);
  }
  await ref.close();
  await rb.close();
  const pkg = path.join(here, "..", "tests", "js", "node_modules", "@modelcontextprotocol", "sdk", "package.json");
  const sdkVersion = JSON.parse(fs.readFileSync(pkg, "utf8")).version;
  console.log(`tree: ${a.tree}; TypeScript SDK ${sdkVersion}; node ${process.version}`);
  console.log("tool | calls | reference median (p90) ms | rootbound median (p90) ms | ratio | " +
    "SDK validation ms ref/rb | result bytes ref/rb");
  for (const [name, n, xa, xb, va, vb, [ba, bb]] of rows) {
    const [ma, mb] = [median(xa), median(xb)];
    console.log(`${name} | ${n} | ${ma.toFixed(2)} (${p90(xa).toFixed(2)}) | ` +
      `${mb.toFixed(2)} (${p90(xb).toFixed(2)}) | ${(mb / ma).toFixed(2)}x | ` +
      `${va.toFixed(3)}/${vb.toFixed(3)} | ${ba}/${bb}`);
  }
}

await main();
