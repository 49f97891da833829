"""Median latency of small calls through the official Python MCP SDK client (stdio), for the MCP
reference filesystem server and rootbound's mcp-filesystem profile, in one run on one tree.

    python benches/small_calls.py --reference NODE_MODULES/.../server-filesystem/dist/index.js \
        --rootbound target/release/rootbound --tree DIR [--calls 200] [--search-calls N]

Each server is started once; each tool is called `--calls` times after 10 warm-up calls, the two
servers alternating call by call so that machine load falls on both alike. The client is the SDK's
`ClientSession.call_tool`, which validates `structuredContent` against the tool's output schema as
every SDK client does (that is part of what a user waits for); the last column is the client's
own CPU time per call (median), which machine load does not blur. search_files has its own count
(`--search-calls`, default `--calls`): on a large tree one reference call takes seconds.
benches/small_calls.mjs is the same through the TypeScript SDK client.
"""

import argparse
import asyncio
import os
import statistics
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def calls(tree):
    some_file = None
    for dirpath, _, files in os.walk(tree):
        for f in sorted(files):
            if f.endswith((".c", ".rs", ".md", ".txt", ".py")):
                some_file = os.path.join(dirpath, f)
                break
        if some_file:
            break
    return [
        ("read_text_file", {"path": some_file, "head": 50}),
        ("list_directory", {"path": tree}),
        ("list_directory_with_sizes", {"path": tree}),
        ("search_files", {"path": tree, "pattern": "**/*.h"}),
        ("get_file_info", {"path": some_file}),
    ]


CPU = {"reference": {}, "rootbound": {}}


async def timed(session, name, args, cpu=None):
    t, c = time.perf_counter(), time.process_time()
    r = await session.call_tool(name, args)
    dt = time.perf_counter() - t
    if cpu is not None:
        # The client's own CPU time for the call (parsing, validation): what a busy machine's
        # scheduling does not blur.
        cpu.append(time.process_time() - c)
    assert not r.isError, (name, r)
    return dt


async def run(reference, rootbound, tree, n, search_n):
    servers = {
        "reference": StdioServerParameters(command="node", args=[reference, tree]),
        "rootbound": StdioServerParameters(
            command=rootbound, args=["mcp", "--profile", "mcp-filesystem", "--root", tree]
        ),
    }
    samples = {k: {} for k in servers}
    async with stdio_client(servers["reference"]) as (r1, w1), stdio_client(
        servers["rootbound"]
    ) as (r2, w2):
        async with ClientSession(r1, w1) as ref, ClientSession(r2, w2) as rb:
            await ref.initialize()
            await rb.initialize()
            # The SDK fetches the tool list (and its output schemas) once, on the first call.
            await ref.list_tools()
            await rb.list_tools()
            for name, args in calls(tree):
                k = search_n if name == "search_files" else n
                for _ in range(10 if k == n else 1):
                    await timed(ref, name, args)
                    await timed(rb, name, args)
                a, b = [], []
                ca = CPU["reference"].setdefault(name, [])
                cb = CPU["rootbound"].setdefault(name, [])
                for _ in range(k):
                    a.append(await timed(ref, name, args, ca))
                    b.append(await timed(rb, name, args, cb))
                samples["reference"][name] = a
                samples["rootbound"][name] = b
    print(f"tree: {tree}, {n} calls per tool and server ({search_n} for search_files), median ms (p90 ms)")
    print(f"{'tool':<26} {'reference':>18} {'rootbound':>18} {'ratio':>7}   client CPU ms ref / rb")
    for name, _ in calls(tree):
        ra = samples["reference"][name]
        rb_ = samples["rootbound"][name]
        ma, mb = statistics.median(ra) * 1e3, statistics.median(rb_) * 1e3
        pa = statistics.quantiles(ra, n=10)[-1] * 1e3
        pb = statistics.quantiles(rb_, n=10)[-1] * 1e3
        ca = statistics.median(CPU["reference"][name]) * 1e3
        cb = statistics.median(CPU["rootbound"][name]) * 1e3
        print(
            f"{name:<26} {ma:8.2f} ({pa:6.2f})   {mb:8.2f} ({pb:6.2f})   {mb / ma:5.2f}x"
            f"   {ca:6.2f} / {cb:6.2f}"
        )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reference", required=True)
    p.add_argument("--rootbound", required=True)
    p.add_argument("--tree", required=True)
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--search-calls", type=int, default=None)
    a = p.parse_args()
    search_n = a.search_calls or a.calls
    asyncio.run(run(a.reference, a.rootbound, os.path.realpath(a.tree), a.calls, search_n))


if __name__ == "__main__":
    main()
