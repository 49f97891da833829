"""CPU per full listing, by thread, for several server binaries interleaved (issue 39, the cost
per candidate and per page; BENCHMARKS.md "the cost per listed file").

Usage: python3 benches/index_listing_cpu.py ROOT ROOTBOUND [ROOTBOUND ...]

Environment: IXQ_CACHES=DIR[:DIR...] (one cache directory per binary, as
benches/index_agent_queries.py), IXQ_ONLY=A,B,... (queries whose pattern contains one of them),
IXQ_REPS=N (listings per query and binary, default 15).

Starts `ROOTBOUND mcp --index` for each binary, waits until each has built and saved its index,
then for every query REPS rounds, each round one full files_with_matches listing (pages of 100
by cursor) per server, in turn. A listing's CPU is read from /proc/PID/task/*/schedstat (run time
in ns, summed over the server's threads; not /proc/PID/stat's 10 ms ticks), split into the thread
and the MCP runtime's threads, which frame the requests and run the walk and the page ("caller"),
the search pool's threads ("pool", `rootbound-search-N`), and the rest (the index's). Prints per query and binary
the medians of wall, CPU, caller CPU and pool CPU, and per listed file; the load average at the
start and the end. The machine may be shared: CPU is the robust figure, wall is not.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from index_agent_queries import chosen, wait_built, wait_recorded  # noqa: E402
from index_restart import Server  # noqa: E402

LIMIT = 100


def threads(pid):
    """{tid: (name, run ns)} of the process's threads."""
    out = {}
    base = f"/proc/{pid}/task"
    for tid in os.listdir(base):
        try:
            with open(f"{base}/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"{base}/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
        except OSError:
            continue
        out[tid] = (name, ns)
    return out


def split(before, after, main_tid):
    caller = pool = rest = 0
    for tid, (name, ns) in after.items():
        d = ns - before.get(tid, (name, 0))[1]
        # comm is cut at 15 bytes: "rootbound-searc", "rootbound-mcp".
        if tid == main_tid or name.startswith("rootbound-mcp"):
            caller += d
        elif name.startswith("rootbound-sear"):
            pool += d
        else:
            rest += d
    return caller, pool, rest


def listing(server, pattern, ci):
    args = {"pattern": pattern, "output_mode": "files_with_matches", "limit": LIMIT}
    if ci:
        args["case_insensitive"] = True
    before = threads(server.p.pid)
    t0 = time.monotonic()
    files = replayed = pages = 0
    while True:
        r = server.call("grep_search", args)
        pages += 1
        replayed += ((r.get("stats") or {}).get("index") or {}).get("walks_replayed", 0)
        files += sum(1 for line in (r.get("matches") or "").splitlines() if line)
        if not r.get("next_cursor"):
            break
        args["cursor"] = r["next_cursor"]
    wall = time.monotonic() - t0
    after = threads(server.p.pid)
    if replayed < pages:
        print(f"  ({pattern!r}: {pages - replayed} of {pages} pages walked, not replayed)")
    return wall, files, split(before, after, str(server.p.pid))


def main():
    root, exes = sys.argv[1], sys.argv[2:]
    reps = int(os.environ.get("IXQ_REPS", "15"))
    print(f"load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    caches, queries = chosen(exes)
    servers = []
    for exe, cache in zip(exes, caches):
        s = Server(exe, root, cache)
        wait_built(s)
        wait_recorded(s)
        servers.append(s)
    names = {t[0] for s in servers for t in threads(s.p.pid).values()}
    print(f"thread names: {sorted(names)}")
    for s in servers:
        # One listing each first (warm caches; the walk is recorded already).
        for pattern, ci in queries:
            listing(s, pattern, ci)
    for pattern, ci in queries:
        rows = [[] for _ in servers]
        for _ in range(reps):
            for i, s in enumerate(servers):
                rows[i].append(listing(s, pattern, ci))
        for i, exe in enumerate(exes):
            m = statistics.median
            wall = m(r[0] for r in rows[i])
            files = rows[i][0][1]
            cpu = m(sum(r[2]) for r in rows[i])
            caller = m(r[2][0] for r in rows[i])
            pool = m(r[2][1] for r in rows[i])
            per = cpu / max(files, 1) / 1e3
            print(f"{pattern!r}{' -i' if ci else ''} [{i}] {os.path.basename(exe)}: {files} files,"
                  f" wall {wall * 1e3:.1f} ms, CPU {cpu / 1e6:.1f} ms (caller {caller / 1e6:.1f},"
                  f" pool {pool / 1e6:.1f}), {per:.1f} us CPU/file", flush=True)
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for s in servers:
        s.close()


if __name__ == "__main__":
    main()
