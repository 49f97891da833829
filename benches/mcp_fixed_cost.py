"""The fixed cost of one MCP call, for several server binaries interleaved (branch ixpage).

Usage: python3 benches/mcp_fixed_cost.py ROOT CALLS ROUNDS ROOTBOUND [ROOTBOUND ...]
Environment: IXQ_CACHES=DIR[:DIR...] (one index cache directory per binary; without it the
servers run `--no-index`), FIXED_ONLY=NAME (only the calls whose name contains it).

Starts `ROOTBOUND mcp` per binary (indexed: waits until each has built or loaded its index and
recorded its walk), then for every call ROUNDS rounds, each round CALLS calls of it per server in
turn (interleaved, so a busy machine weighs on every binary alike). Prints per call and binary the
median over rounds of each round's median round trip (Python client included), and the server's
CPU per call (from /proc/PID/task/*/schedstat, all threads). CPU is the robust figure on a shared
machine; the round trip is not.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from index_agent_queries import wait_built, wait_recorded  # noqa: E402
from index_restart import Server  # noqa: E402


def close_all(servers):
    """Prints the load average at the end and stops `servers`."""
    print("load average at end", " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
    for s in servers:
        s.close()


def cpu_ns(pid):
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


def main():
    root, n, rounds, exes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    caches = os.environ.get("IXQ_CACHES", "").split(":") if os.environ.get("IXQ_CACHES") else [None] * len(exes)
    servers = [Server(e, root, c) for e, c in zip(exes, caches)]
    calls = [("list_roots", "list_roots", {})]
    if caches[0]:
        for s in servers:
            wait_built(s)
            wait_recorded(s)
        fwm = {"output_mode": "files_with_matches"}
        calls += [
            ("grep no match, limit 1", "grep_search", {"pattern": "zqxjkv_no_such_thing", "limit": 1, **fwm}),
            ("grep mutex_lock, limit 1", "grep_search", {"pattern": "mutex_lock", "limit": 1, **fwm}),
            ("grep struct file_operations, limit 100", "grep_search", {"pattern": "struct file_operations", "limit": 100, **fwm}),
        ]
    only = os.environ.get("FIXED_ONLY")
    print("load average at start", " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
    for name, tool, args in [c for c in calls if not only or only in c[0]]:
        wall = [[] for _ in servers]
        cpu = [[] for _ in servers]
        for _ in range(rounds):
            for i, s in enumerate(servers):
                c0 = cpu_ns(s.p.pid)
                times = []
                for _ in range(n):
                    t0 = time.perf_counter()
                    s.call(tool, args)
                    times.append(time.perf_counter() - t0)
                cpu[i].append((cpu_ns(s.p.pid) - c0) / n / 1e3)
                wall[i].append(statistics.median(times) * 1e6)
        for i, e in enumerate(exes):
            print(f"{name:40} {os.path.basename(e):16} round trip {statistics.median(wall[i]):8.1f} us"
                  f"  server CPU {statistics.median(cpu[i]):8.1f} us/call", flush=True)
    close_all(servers)


if __name__ == "__main__":
    main()
