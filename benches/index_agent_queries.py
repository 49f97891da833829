"""Issue 39's own measure: full files_with_matches listings through `rootbound mcp --index`
against `rg -l`, on agent-style queries (docs/index.md, BENCHMARKS.md).

Usage: python3 benches/index_agent_queries.py ROOT ROOTBOUND [ROOTBOUND ...]

Environment: IXQ_CACHES=DIR[:DIR...] uses those cache directories (one per binary; a saved index
there is loaded, and the build that follows it awaited) instead of fresh ones; IXQ_ONLY=A,B,...
keeps the queries whose pattern contains one of A, B, ...

Starts `ROOTBOUND mcp --index --index-dir TMP --root ROOT` for each binary given (JSON-RPC over
stdio, no SDK; each its own empty cache directory), waits until each has built and saved its
index and recorded its walk (a listing replays it; before that a listing walks the tree), then
for every query below, three times, interleaved (rg, then each server): times the
full listing, every page by cursor (limit 100), and `rg -l` with the same flags (cwd ROOT, its
default threads). The median of the three is each one's time; beside it, the median CPU time the
server process spent on the listing (from /proc, less sensitive to a loaded machine than wall). Prints per query the files
listed, whether the file sets agree with rg's, the times and rg/server; then the median ratio
over all queries and over the selective ones (matches in at most 1% of ROOT's files, as
`rg --files` counts them), and the load average at the start and the end.

The queries are what an agent sends, chosen before any measurement and not tuned to the index:
common and rare identifiers, error strings, TODO-like markers, case-insensitive searches,
alternations, regexes, a pattern with no match and two that require no trigram at all.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from index_restart import Server  # noqa: E402

# (pattern, case-insensitive)
QUERIES = [
    ("mutex_lock", False),                          # common identifier
    ("copy_from_user", False),                      # common identifier
    ("EXPORT_SYMBOL_GPL", False),                   # very common macro
    (r"kmalloc\(", False),                          # call site
    ("PM_RESUME", False),                           # rare-ish constant
    ("nvme_submit_sync_cmd", False),                # rare identifier
    ("ERR_SYS|PME_TURN_OFF", False),                # alternation of rare constants
    ("dma_alloc_coherent|dma_free_coherent", False),  # alternation of common calls
    ("TODO", False),                                # marker
    ("fixme", True),                                # marker, case-insensitive
    ("struct file_operations", False),              # type with a space
    ("spin_lock_irqsave", False),                   # common identifier
    (r"static int .*_probe\(", False),              # regex over a line
    ("usb_.*reset", True),                          # regex, case-insensitive
    ("Unable to handle kernel NULL pointer", False),  # error string
    ("invalid argument", True),                     # error string, case-insensitive
    ("-EOPNOTSUPP", False),                         # errno with a leading dash
    (r"\bioctl\b", False),                          # word
    ("CONFIG_DEBUG_LOCK_ALLOC", False),             # config symbol
    (r"rcu_read_lock\(\)", False),                  # call with parentheses
    (r"[a-z]+_init\(void\)", False),                # regex with a class
    ("zqxjkv_no_such_thing", False),                # no match anywhere
    (r"\p{Greek}", False),                          # requires no trigram
    (r"\w{5}(\s+\w{5}){4}", False),                 # requires no trigram
]

RUNS = 3
LIMIT = 100


def rg_list(root, pattern, ci):
    args = ["rg", "-l"] + (["-i"] if ci else []) + ["-e", pattern]
    t0 = time.monotonic()
    p = subprocess.run(args, cwd=root, capture_output=True)
    took = time.monotonic() - t0
    files = {line[2:] if line.startswith("./") else line
             for line in p.stdout.decode(errors="replace").splitlines()}
    return took, files


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_list(server, pattern, ci):
    args = {"pattern": pattern, "output_mode": "files_with_matches", "limit": LIMIT}
    if ci:
        args["case_insensitive"] = True
    texts = []
    c0 = cpu(server.p.pid)
    t0 = time.monotonic()
    while True:
        r = server.call("grep_search", args)
        texts.append(r.get("matches") or "")
        if not r.get("next_cursor"):
            break
        args["cursor"] = r["next_cursor"]
    took = time.monotonic() - t0
    server.cpu = cpu(server.p.pid) - c0
    # Paths come as the root's path joined with the file's; rg's are relative to it. Made
    # relative after the clock stops, as rg's output is split after its clock stops: the
    # comparison is the bench's work, not the server's (os.path.relpath costs ~5 us a path).
    files = {os.path.relpath(line, server.root)
             for text in texts for line in text.splitlines() if line}
    return took, files, len(texts)


def wait_built(server):
    """Until the root's own index serves and is saved (after a loaded one, the build after it)."""
    while True:
        ix = server.index()
        if not ix.get("from_snapshot") and str(ix.get("snapshot", "")).endswith("saved"):
            return
        time.sleep(0.5)


def wait_recorded(server):
    """Until a listing replays the index's recorded walk (recorded in the background after the
    first query; on a loaded machine that took 14 s)."""
    args = {"pattern": QUERIES[1][0], "output_mode": "files_with_matches", "limit": 1}
    for _ in range(240):
        r = server.call("grep_search", args)
        if r["stats"]["index"]["walks_replayed"] > 0:
            return
        time.sleep(0.5)
    raise RuntimeError("the walk was never recorded")


def chosen(exes):
    """The cache directories (IXQ_CACHES, else a fresh one per binary) and the queries (IXQ_ONLY)."""
    given = os.environ.get("IXQ_CACHES")
    caches = given.split(":") if given else [tempfile.mkdtemp(prefix="ixq-") for _ in exes]
    only = [q for q in os.environ.get("IXQ_ONLY", "").split(",") if q]
    return caches, [q for q in QUERIES if not only or any(o in q[0] for o in only)]


def main():
    root, exes = sys.argv[1], sys.argv[2:]
    nfiles = len(subprocess.run(["rg", "--files"], cwd=root, capture_output=True)
                 .stdout.splitlines())
    print(f"root {root}: {nfiles} files (rg --files); load average at start"
          f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    caches, queries = chosen(exes)
    servers = []
    for exe, cache in zip(exes, caches):
        t0 = time.monotonic()
        s = Server(exe, root, cache)
        s.root = root
        wait_built(s)
        print(f"{exe}: built and saved in {time.monotonic() - t0:.1f} s")
        wait_recorded(s)
        servers.append(s)
    ratios = [[] for _ in exes]
    selective = [[] for _ in exes]
    for pattern, ci in queries:
        rg_t, srv_t, srv_c = [], [[] for _ in exes], [[] for _ in exes]
        for _ in range(RUNS):
            t, rg_files = rg_list(root, pattern, ci)
            rg_t.append(t)
            for i, s in enumerate(servers):
                t, files, pages = server_list(s, pattern, ci)
                srv_t[i].append(t)
                srv_c[i].append(s.cpu)
                agree = "same" if files == rg_files else f"differ({len(files ^ rg_files)})"
        rg_m = statistics.median(rg_t)
        sel = len(rg_files) <= nfiles / 100
        row = [f"{pattern!r}{' -i' if ci else ''}", f"{len(rg_files)} files",
               "selective" if sel else "", f"rg {rg_m * 1e3:.0f} ms"]
        for i in range(len(exes)):
            m = statistics.median(srv_t[i])
            ratios[i].append(rg_m / m)
            if sel:
                selective[i].append(rg_m / m)
            c = statistics.median(srv_c[i])
            row.append(f"[{i}] {m * 1e3:.1f} ms (CPU {c * 1e3:.0f} ms) {rg_m / m:.1f}x")
        row.append(f"{pages} pages, {agree} (last server)")
        print("  ".join(row), flush=True)
    for i, exe in enumerate(exes):
        print(f"[{i}] {exe}: median rg/server {statistics.median(ratios[i]):.1f}x over"
              f" {len(ratios[i])} queries; selective ({len(selective[i])}):"
              f" {statistics.median(selective[i]):.1f}x" if selective[i] else "")
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for s in servers:
        s.close()


if __name__ == "__main__":
    main()
