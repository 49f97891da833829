"""A scripted session per dialect through the official MCP Python SDK (run by tests/frontends/mcp_python.rs).

Usage: python tests/mcp_dialects.py PATH/TO/rootbound EMPTY_TEMP_DIR

For claude-code, gemini-cli and mcp-filesystem: the listing, a read, a paged (or limited) search with
numbers sent as strings, an error case (a path outside the roots is a tool error starting
OUT_OF_SANDBOX, or the reference's "Access denied - " for mcp-filesystem, without the secret), and structuredContent equal to the text block. Then
--client-roots with a client that announces roots (narrowed, never widened). Prints "ALL OK".
"""

import asyncio
import os
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp import types

SECRET = "TOP-SECRET-0xC0FFEE"


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def field(obj, snake, camel):
    if hasattr(obj, snake):
        return getattr(obj, snake)
    return getattr(obj, camel, None)


def text_of(r):
    return "\n".join(c.text for c in r.content if getattr(c, "type", None) == "text")


def tree(tmp):
    root = os.path.join(tmp, "root")
    outside = os.path.join(tmp, "outside")
    os.makedirs(os.path.join(root, "src"))
    os.makedirs(outside)
    with open(os.path.join(root, "src", "lib.rs"), "w") as f:
        f.write("".join(f"fn f{i}() {{}} // needle {i}\n" for i in range(9)))
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write(SECRET + "\n")
    return os.path.realpath(root), os.path.realpath(outside)


async def session(binary, args, body, roots=None):
    params = StdioServerParameters(command=binary, args=args)
    kwargs = {}
    if roots is not None:
        async def list_roots(_ctx):
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots["now"]])
        kwargs["list_roots_callback"] = list_roots
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, **kwargs) as s:
            await s.initialize()
            await body(s)


async def error(s, name, args, code):
    r = await s.call_tool(name, args)
    check(field(r, "is_error", "isError"), f"{name}: expected a tool error: {r}")
    check(text_of(r).startswith(code), f"{name}: {text_of(r)}")
    check(SECRET not in str(r), "secret leaked")


async def main():
    binary, tmp = sys.argv[1], sys.argv[2]
    root, outside = tree(tmp)
    lib = os.path.join(root, "src", "lib.rs")
    secret = os.path.join(outside, "secret.txt")

    async def claude(s):
        names = [t.name for t in (await s.list_tools()).tools]
        check(names == ["Read", "Grep", "Glob"], names)
        r = await s.call_tool("Read", {"file_path": lib, "offset": "3", "limit": "2"})
        check(text_of(r).startswith("     3\tfn f2()"), text_of(r))
        check(field(r, "structured_content", "structuredContent")["content"] == text_of(r), "structured")
        seen, offset = [], 0
        for _ in range(10):
            g = await s.call_tool("Grep", {"pattern": "needle", "output_mode": "content",
                                           "head_limit": "4", "offset": str(offset)})
            t = text_of(g)
            seen += [l for l in t.splitlines() if "needle" in l]
            m = re.search(r"offset=(\d+)", t)
            if not m:
                break
            offset = int(m.group(1))
        check(len(seen) == 9 and len(set(seen)) == 9, seen)
        await error(s, "Read", {"file_path": secret}, "OUT_OF_SANDBOX")
        await error(s, "Grep", {"pattern": "x", "bogus": 1}, "INVALID_ARGUMENT")

    async def gemini(s):
        names = [t.name for t in (await s.list_tools()).tools]
        check(names == ["read_file", "read_many_files", "grep_search", "glob", "list_directory"], names)
        r = await s.call_tool("read_file", {"file_path": lib, "start_line": "9"})
        # As Gemini CLI: a read from line 9 is a part (lines 9-10 of 10, the last one empty).
        check(text_of(r).endswith("Showing lines 9-10 of 10 total lines.\nAction: To read more of the file, you can use "
              "the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read "
              "the next section of the file, use start_line: 11.\n\n--- FILE CONTENT (truncated) ---\n"
              "fn f8() {} // needle 8\n"), text_of(r))
        g = await s.call_tool("grep_search", {"pattern": "NEEDLE", "total_max_matches": "4"})
        check(text_of(g).startswith("Found 4 matches") and "results limited" in text_of(g), text_of(g))
        await error(s, "read_file", {"file_path": secret}, "OUT_OF_SANDBOX")

    async def mcpfs(s):
        names = [t.name for t in (await s.list_tools()).tools]
        check("read_text_file" in names and "write_file" not in names, names)
        # As the reference's tailFile, the final newline counts as a line: tail 2 is the last line.
        r = await s.call_tool("read_text_file", {"path": lib, "tail": "2"})
        check(text_of(r) == "fn f8() {} // needle 8\n", text_of(r))
        r = await s.call_tool("search_files", {"path": root, "pattern": "**/*.rs"})
        check(text_of(r) == lib, text_of(r))
        await error(s, "read_text_file", {"path": secret}, "Access denied - ")

    base = ["mcp", "--root", root]
    await session(binary, base + ["--profile", "claude-code"], claude)
    print("claude-code session OK")
    await session(binary, base + ["--profile", "gemini-cli"], gemini)
    print("gemini-cli session OK")
    await session(binary, base + ["--profile", "mcp-filesystem"], mcpfs)
    print("mcp-filesystem session OK")

    roots = {"now": ["file://" + os.path.join(root, "src"), "file://" + outside]}

    async def narrowed(s):
        r = await s.call_tool("list_allowed_directories", {})
        check(text_of(r) == "Allowed directories:\n" + os.path.join(root, "src"), text_of(r))
        await error(s, "read_text_file", {"path": secret}, "Access denied - ")
        roots["now"] = ["file:///"]
        await s.send_roots_list_changed()
        for _ in range(100):
            r = await s.call_tool("list_allowed_directories", {})
            if text_of(r) == "Allowed directories:\n" + root:
                break
            await asyncio.sleep(0.05)
        check(text_of(r) == "Allowed directories:\n" + root, text_of(r))
        await error(s, "read_text_file", {"path": secret}, "Access denied - ")

    await session(binary, base + ["--profile", "mcp-filesystem", "--client-roots"], narrowed, roots)
    print("client roots session OK")
    print("ALL OK")


asyncio.run(main())
