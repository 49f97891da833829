"""Progress notifications of `rootbound mcp`, seen by the official MCP Python SDK's client.

Usage: python tests/mcp_progress.py PATH/TO/rootbound EMPTY_TEMP_DIR

Builds a tree whose grep takes seconds (lines of `[a-j]` against a pattern that falls back to the
slowest regex engine), calls grep_search with a progress callback (the SDK then sends
`_meta.progressToken`), and checks: at least one notification per second of the call, values that
increase and never exceed the files searched in the end, a message naming files and bytes, no two
notifications closer than ~250 ms; and that a call without a callback completes normally.
Prints "PROGRESS OK" and exits 0 on success.
"""

import asyncio
import os
import random
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

FILES = 16
FILE_BYTES = 160 * 1024
PATTERN = "(?:a|b)[a-j]{500}(?:c|d)z"


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def make_tree(tmp):
    root = os.path.join(tmp, "root")
    os.makedirs(root)
    rnd = random.Random(7)
    for i in range(FILES):
        line = lambda: "".join(rnd.choice("abcdefghij") for _ in range(999)) + "\n"
        body = "".join(line() for _ in range(FILE_BYTES // 1000))
        with open(os.path.join(root, f"slow{i:02d}.txt"), "w") as f:
            f.write(body)
    return root


async def main():
    binary, tmp = sys.argv[1], sys.argv[2]
    root = make_tree(tmp)
    params = StdioServerParameters(
        command=binary, args=["mcp", "--root", root, "--timeout-ms", "120000", "--threads", "1"]
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            seen = []  # (monotonic time, progress, total, message)

            async def on_progress(progress, total, message):
                seen.append((time.monotonic(), progress, total, message))

            start = time.monotonic()
            r = await session.call_tool(
                "grep_search", {"pattern": PATTERN, "output_mode": "count"}, progress_callback=on_progress
            )
            elapsed = time.monotonic() - start
            sc = getattr(r, "structured_content", None) or getattr(r, "structuredContent", None)
            check(not getattr(r, "is_error", getattr(r, "isError", False)), f"grep failed: {r!r}")
            searched = sc["stats"]["files_searched"]
            check(searched == FILES, f"files searched: {searched}")
            print(f"grep took {elapsed:.2f} s; {len(seen)} progress notification(s): "
                  f"{[(round(t - start, 2), p, m) for t, p, _, m in seen]}")
            if elapsed > 0.6:
                check(len(seen) >= 1, f"no progress notification during a {elapsed:.2f} s call")
                check(len(seen) >= int(elapsed) - 1, f"{len(seen)} notifications in {elapsed:.2f} s")
            values = [p for _, p, _, _ in seen]
            check(values == sorted(set(values)), f"progress must increase: {values}")
            check(all(0 < p <= FILES for p in values), f"progress beyond the files: {values}")
            for _, p, total, m in seen:
                check(total is None, f"no total is known: {total}")
                check(m and f"{int(p)} files searched" in m and "bytes" in m, f"message: {m!r}")
            gaps = [b[0] - a[0] for a, b in zip(seen, seen[1:])]
            check(all(g > 0.2 for g in gaps), f"notifications closer than 250 ms: {gaps}")

            # Without a callback (no progressToken) the call just completes.
            r = await session.call_tool("grep_search", {"pattern": "zzz", "output_mode": "count"})
            check(not getattr(r, "is_error", getattr(r, "isError", False)), f"plain grep: {r!r}")
    print("PROGRESS OK")


if __name__ == "__main__":
    asyncio.run(main())
