"""The cost of one more page: full files_with_matches listings with pages of 25 and of 100, for
several server binaries interleaved (branch ixpage). The difference in server CPU between the two
listings, divided by the difference in page count, is what a page costs apart from its files.

Usage: IXQ_CACHES=DIR[:DIR...] python3 benches/page_cost.py ROOT REPS ROOTBOUND [ROOTBOUND ...]
(one index cache directory per binary, as benches/index_agent_queries.py). Server CPU is read from
/proc/PID/task/*/schedstat (all threads); medians over REPS listings per binary and page size.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from index_agent_queries import wait_built, wait_recorded  # noqa: E402
from index_restart import Server  # noqa: E402
from mcp_fixed_cost import close_all, cpu_ns  # noqa: E402

QUERIES = [("struct file_operations", False), ("mutex_lock", False)]


def listing(s, pattern, ci, limit):
    args = {"pattern": pattern, "output_mode": "files_with_matches", "limit": limit}
    if ci:
        args["case_insensitive"] = True
    pages = 0
    c0 = cpu_ns(s.p.pid)
    while True:
        r = s.call("grep_search", args)
        pages += 1
        if not r.get("next_cursor"):
            break
        args["cursor"] = r["next_cursor"]
    return pages, (cpu_ns(s.p.pid) - c0) / 1e6


def main():
    root, reps, exes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    caches = os.environ["IXQ_CACHES"].split(":")
    servers = [Server(e, root, c) for e, c in zip(exes, caches)]
    for s in servers:
        wait_built(s)
        wait_recorded(s)
    print("load average at start", " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
    for pattern, ci in QUERIES:
        got = {(i, lim): [] for i in range(len(servers)) for lim in (25, 100)}
        pages = {}
        for _ in range(reps):
            for lim in (25, 100):
                for i, s in enumerate(servers):
                    n, ms = listing(s, pattern, ci, lim)
                    pages[lim] = n
                    got[(i, lim)].append(ms)
        for i, e in enumerate(exes):
            a, b = statistics.median(got[(i, 25)]), statistics.median(got[(i, 100)])
            per = (a - b) / (pages[25] - pages[100]) * 1e3
            print(f"{pattern!r:26} {os.path.basename(e):16} CPU {a:6.1f} ms ({pages[25]} pages of 25)"
                  f" {b:6.1f} ms ({pages[100]} pages of 100): {per:6.1f} us per extra page", flush=True)
    close_all(servers)


if __name__ == "__main__":
    main()
