"""Drive `rootbound mcp` with the official MCP Python SDK (a client nobody in this project wrote).

Usage: python tests/mcp_client.py PATH/TO/rootbound EMPTY_TEMP_DIR

It builds a small tree in the temp dir (a root, and a secret outside it), starts the server twice
(once with the classic ClientSession + initialize handshake, once with the SDK's high-level Client in
its default protocol negotiation), and checks: the tool listing (schemas, annotations), read_file
(content, truncation notice, paging by next_offset), grep_search (paging with next_cursor to the end,
in order, no duplicates), glob, list_dir, stat, concurrent calls, and escape attempts, which must come
back as tool errors starting with OUT_OF_SANDBOX (never as protocol errors, never with the secret).
Prints "ALL OK" and exits 0 on success; any failed check raises and exits non-zero.
"""

import asyncio
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SECRET = "TOP-SECRET-0xC0FFEE"
NEEDLES = 25


def field(obj, snake, camel):
    """SDK 2.x uses snake_case attributes, 1.x camelCase: accept both."""
    if hasattr(obj, snake):
        return getattr(obj, snake)
    return getattr(obj, camel, None)


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def text_of(result):
    parts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    check(parts, f"no text content in {result!r}")
    return "\n".join(parts)


def make_tree(tmp):
    root = os.path.join(tmp, "root")
    outside = os.path.join(tmp, "outside")
    os.makedirs(os.path.join(root, "src"))
    os.makedirs(os.path.join(root, "docs"))
    os.makedirs(outside)
    lib = "".join(f"pub fn f{i}() -> u32 {{ {i} }} // needle {i}\n" for i in range(NEEDLES))
    with open(os.path.join(root, "src", "lib.rs"), "w") as f:
        f.write(lib)
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write("# demo\n")
    with open(os.path.join(root, "docs", "guide.md"), "w") as f:
        f.write("guide\n")
    big = "".join(f"line {i:05d} " + "x" * 40 + "\n" for i in range(3000))  # ~150 KB
    with open(os.path.join(root, "big.txt"), "w") as f:
        f.write(big)
    with open(os.path.join(root, ".env"), "w") as f:
        f.write("API_KEY=" + SECRET + "\n")
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write(SECRET + "\n")
    os.symlink(os.path.join("..", "outside", "secret.txt"), os.path.join(root, "link.txt"))
    return root, outside, lib, big


class Checker:
    def __init__(self, call, list_tools, root, outside, lib, big):
        self.call_raw = call
        self.list_tools = list_tools
        self.root = os.path.realpath(root)
        self.outside = os.path.realpath(outside)
        self.lib = lib
        self.big = big

    async def call(self, name, args):
        r = await self.call_raw(name, args)
        # No response may ever carry the secret, whatever the call.
        check(SECRET not in repr(r), f"{name}({args}) leaked the secret: {r!r}")
        return r

    async def ok(self, name, args):
        r = await self.call(name, args)
        check(not field(r, "is_error", "isError"), f"{name}({args}) failed: {text_of(r)}")
        sc = field(r, "structured_content", "structuredContent")
        check(isinstance(sc, dict), f"{name}: structuredContent missing: {r!r}")
        return sc, text_of(r)

    async def tool_error(self, name, args, code):
        r = await self.call(name, args)
        check(field(r, "is_error", "isError") is True, f"{name}({args}) should fail with {code}: {r!r}")
        t = text_of(r)
        check(t.startswith(code), f"{name}({args}): expected text starting {code}, got {t!r}")
        sc = field(r, "structured_content", "structuredContent")
        check(sc and sc["error"]["code"] == code, f"{name}: structured error {sc!r}")

    async def run(self):
        listing = await self.list_tools()
        tools = {t.name: t for t in listing.tools}
        check(
            set(tools) == {"read_file", "grep_search", "glob", "list_dir", "stat", "read_many_files",
                           "directory_tree", "list_roots", "read_media_file"},
            f"tools listed: {sorted(tools)}",
        )
        for t in tools.values():
            schema = field(t, "input_schema", "inputSchema")
            check(schema.get("type") == "object", f"{t.name}: input schema {schema!r}")
            check(t.description, f"{t.name}: no description")
            ann = t.annotations
            check(ann is not None, f"{t.name}: no annotations")
            check(field(ann, "read_only_hint", "readOnlyHint") is True, f"{t.name}: readOnlyHint")
            check(field(ann, "open_world_hint", "openWorldHint") is False, f"{t.name}: openWorldHint")
        grep_schema = field(tools["grep_search"], "input_schema", "inputSchema")
        # `pattern` or `patterns`: neither alone is required (either one will do), both are listed.
        check(not grep_schema.get("required") and {"pattern", "patterns"} <= set(grep_schema["properties"]),
              f"grep_search schema: {grep_schema.get('required')}")

        # read_file: whole file, then a truncated page and the next one by next_offset.
        sc, text = await self.ok("read_file", {"path": "src/lib.rs"})
        check(sc["content"] == self.lib and text == self.lib, "read_file content")
        check(sc["path"] == os.path.join(self.root, "src", "lib.rs"), f"canonical path {sc['path']}")
        check(sc["truncated"] is False, "small file not truncated")
        sc, text = await self.ok("read_file", {"path": "big.txt", "limit": 1000})
        check(sc["truncated"] is True and sc["next_offset"] == 1000, f"big page 1: {sc['next_offset']}")
        check(sc["content"] == self.big[:1000], "big page 1 content")
        check("[truncated:" in text and "next_offset=1000" in text, f"truncation notice in {text[-200:]!r}")
        sc2, _ = await self.ok("read_file", {"path": "big.txt", "offset": 1000, "limit": 1000})
        check(sc2["content"] == self.big[1000:2000], "big page 2 content")

        # grep_search: page with next_cursor to the end; every needle once, in line order.
        seen = []
        args = {"pattern": r"needle \d+", "limit": 10}
        pages = 0
        while True:
            sc, text = await self.ok("grep_search", args)
            pages += 1
            lines = [l for l in sc["matches"].split("\n") if l]
            check(len(lines) == sc["match_lines"], "match_lines agrees with matches")
            seen.extend(lines)
            for l in lines:
                check(l in text, f"grep text rendering lacks {l!r}")
            if not sc["truncated"]:
                check("complete" in text, f"last page footer: {text[-120:]!r}")
                break
            check(sc["next_cursor"], "truncated page has a next_cursor")
            check(f'cursor="{sc["next_cursor"]}"' in text, "text footer tells the cursor")
            args = {"pattern": r"needle \d+", "limit": 10, "cursor": sc["next_cursor"]}
            check(pages < 10, "grep paging does not end")
        check(pages == 3, f"25 matches in pages of 10 should take 3 pages, took {pages}")
        want = [f"{os.path.join(self.root, 'src', 'lib.rs')}:{i + 1}:{self.lib.splitlines()[i]}" for i in range(NEEDLES)]
        check(seen == want, f"grep pages: {seen[:3]}... != {want[:3]}...")
        # A cursor from another query is refused, as a tool error.
        await self.tool_error("grep_search", {"pattern": "other", "cursor": sc.get("next_cursor") or "bogus"}, "INVALID_ARGUMENT")

        # glob
        sc, text = await self.ok("glob", {"pattern": "*.md"})
        paths = [l for l in sc["matches"].split("\n") if l]
        check(
            paths == [os.path.join(self.root, "README.md"), os.path.join(self.root, "docs", "guide.md")],
            f"glob *.md: {paths}",
        )

        # list_dir
        sc, text = await self.ok("list_dir", {"path": "src"})
        check([e["name"] for e in sc["entries"]] == ["lib.rs"], f"list_dir src: {sc['entries']}")
        check(sc["entries"][0]["kind"] == "file" and sc["entries"][0]["size"] == len(self.lib), "list_dir entry")
        check("lib.rs" in text, "list_dir text")
        sc, text = await self.ok("list_dir", {"path": "."})
        names = [e["name"] for e in sc["entries"]]
        check("docs" in names and "src" in names and ".env" not in names, f"list_dir root: {names}")

        # stat
        sc, text = await self.ok("stat", {"path": "src/lib.rs"})
        check(sc["kind"] == "file" and sc["size"] == len(self.lib), f"stat: {sc}")
        check(sc.get("lines") == NEEDLES, f"stat lines: {sc.get('lines')}")
        check("kind: file" in text, f"stat text {text!r}")

        # Escapes: tool errors starting OUT_OF_SANDBOX, never the secret.
        await self.tool_error("read_file", {"path": "../outside/secret.txt"}, "OUT_OF_SANDBOX")
        await self.tool_error("read_file", {"path": os.path.join(self.outside, "secret.txt")}, "OUT_OF_SANDBOX")
        await self.tool_error("read_file", {"path": "link.txt"}, "OUT_OF_SANDBOX")
        await self.tool_error("grep_search", {"pattern": "SECRET", "path": "../outside"}, "OUT_OF_SANDBOX")
        await self.tool_error("list_dir", {"path": ".."}, "OUT_OF_SANDBOX")
        await self.tool_error("stat", {"path": "src/../../outside/secret.txt"}, "OUT_OF_SANDBOX")
        # The deny rule holds, and other failures are tool errors too.
        await self.tool_error("read_file", {"path": ".env"}, "DENIED")
        await self.tool_error("read_file", {"path": "missing.txt"}, "NOT_FOUND")
        await self.tool_error("read_file", {"path": "src/lib.rs", "bogus": 1}, "INVALID_ARGUMENT")
        await self.tool_error("grep_search", {"pattern": "(unclosed"}, "INVALID_PATTERN")
        await self.tool_error("no_such_tool", {}, "INVALID_ARGUMENT")
        sc, _ = await self.ok("grep_search", {"pattern": SECRET[:10], "hidden": True, "no_ignore": True})
        check(sc["match_lines"] == 0, "grep finds nothing of the secret (outside, or denied)")

        # Concurrent calls all come back, each with its own answer.
        results = await asyncio.gather(
            *[self.ok("read_file", {"path": "src/lib.rs", "offset": i, "limit": 5}) for i in range(8)],
            self.ok("grep_search", {"pattern": "needle 7\\b"}),
        )
        for i in range(8):
            check(results[i][0]["content"] == self.lib[i : i + 5], f"concurrent read {i}")
        check(results[8][0]["match_lines"] == 1, "concurrent grep")


async def classic(binary, root, outside, lib, big):
    params = StdioServerParameters(command=binary, args=["mcp", "--root", root, "--deny", ".env"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            info = field(init, "server_info", "serverInfo")
            check(info.name == "rootbound", f"server name {info.name}")
            await Checker(session.call_tool, session.list_tools, root, outside, lib, big).run()
            return field(init, "protocol_version", "protocolVersion")


async def high_level(binary, root, outside, lib, big):
    try:
        from mcp import Client  # SDK 2.x
    except ImportError:
        return None
    params = StdioServerParameters(command=binary, args=["mcp", "--root", root, "--deny", ".env"])
    async with Client(params) as client:
        await Checker(client.call_tool, client.list_tools, root, outside, lib, big).run()
        return getattr(client.session, "protocol_version", None)


async def main():
    binary, tmp = sys.argv[1], sys.argv[2]
    root, outside, lib, big = make_tree(tmp)
    v1 = await classic(binary, root, outside, lib, big)
    print(f"classic session OK (protocol {v1})")
    v2 = await high_level(binary, root, outside, lib, big)
    if v2 is not None:
        print(f"high-level client OK (protocol {v2})")
    print("ALL OK")


if __name__ == "__main__":
    asyncio.run(main())
