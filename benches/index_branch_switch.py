"""Issue 39's target for a branch switch: "a query right after 10,000 changed files (as after a
branch switch) exact and no slower than 2x unindexed", and the first page's latency (target at
most 2 ms warm) (docs/index.md, BENCHMARKS.md).

Usage: python3 benches/index_branch_switch.py ROOTBOUND ROOT [N]

ROOT is CHANGED: give it a copy of a tree (e.g. `mkdir -p /tmp/x && cp -a /work/linux /tmp/x/linux`,
and `rm -rf /tmp/x` after). N (default 10000) files are changed.

Starts `ROOTBOUND mcp --index --index-dir TMP --root ROOT` (JSON-RPC over stdio, no SDK) and waits
until its index is built and saved and its walk recorded, and `ROOTBOUND mcp --no-index --root ROOT` beside it. Warms
both (one full listing of every query each, so the tree is in the page cache for both). Times the
first content page (`limit` 10) of a few queries, warm (median of 5), on the indexed server (a
query with fewer than 10 matches, `nvme_submit_sync_cmd`, searches every candidate for its first
page: its time is a full listing's, not a page's). Then
changes N of the files `rg --files` lists (a fixed sample, seed IXB_SEED, default 39), as a
`git checkout` of another branch would: 40% get a line appended, 30% a same-size rewrite in place
(a 6-byte token written over their middle), 15% are rewritten as git does (unlinked and created
again, new inode, the token appended), 10% renamed in their directory, 5% deleted. Right after
the last change, with no pause, for each query: the first full listing (files_with_matches,
every page by cursor, limit 100) on the indexed server, then on the unindexed one, then `rg -l`
(cwd ROOT, its default threads); the three file sets must be equal. Then, 3 s later, the same
again (median of 3) and the first content page again. Prints per query the files, the times,
indexed/unindexed (the target: at most 2.0 right after the change), and the load average at the
start and the end (a loaded machine slows both servers and rg; compare ratios, not times).
"""

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from index_agent_queries import rg_list, server_list, wait_built, wait_recorded  # noqa: E402
from index_restart import Server  # noqa: E402

TOKEN = b"bswtok"

# (pattern, case-insensitive): common and rare identifiers, the token only changed files hold, a
# case-insensitive marker, a regex, no match at all.
QUERIES = [
    ("bswtok", False),
    ("mutex_lock", False),
    ("nvme_submit_sync_cmd", False),
    ("EXPORT_SYMBOL_GPL", False),
    ("fixme", True),
    (r"static int .*_probe\(", False),
    ("zqxjkv_no_such_thing", False),
]
PAGE_QUERIES = ["mutex_lock", "nvme_submit_sync_cmd", "bswtok", "Unable to handle kernel"]


class Unindexed(Server):
    """`ROOTBOUND mcp --no-index`: every search walks and reads the tree."""

    def __init__(self, exe, root):
        super().__init__(exe, root, None)


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def first_page(server, pattern):
    """Seconds for one content page of 10 matches."""
    t0 = time.monotonic()
    server.call("grep_search", {"pattern": pattern, "limit": 10})
    return time.monotonic() - t0


def page_latencies(server, when):
    for p in PAGE_QUERIES:
        first_page(server, p)
        ms = statistics.median(first_page(server, p) for _ in range(5)) * 1e3
        print(f"  first page {when}: {p!r} {ms:.2f} ms (median of 5, warm;"
              f" target <= 2 ms: {'met' if ms <= 2 else 'NOT met'})", flush=True)


def switch_branch(root, files, n, seed):
    """Changes `n` of `files` (relative to `root`) as a checkout would; counts per kind."""
    rng = random.Random(seed)
    picked = rng.sample(files, min(n, len(files)))
    kinds = {"appended": 0, "rewritten same size": 0, "recreated": 0, "renamed": 0, "deleted": 0}
    for i, rel in enumerate(picked):
        path = os.path.join(root, rel)
        r = i % 20
        with open(path, "rb") as f:
            data = f.read()
        if r < 8:
            with open(path, "ab") as f:
                f.write(b"\n/* " + TOKEN + b" appended on the other branch */\n")
            kinds["appended"] += 1
        elif r < 14 and len(data) >= 64:
            k = len(data) // 2
            with open(path, "r+b") as f:
                f.seek(k)
                f.write(TOKEN)
            kinds["rewritten same size"] += 1
        elif r < 17 or len(data) < 64:
            os.unlink(path)
            with open(path, "wb") as f:
                f.write(data + b"\n" + TOKEN + b"\n")
            kinds["recreated"] += 1
        elif r < 19:
            d, b = os.path.split(path)
            os.rename(path, os.path.join(d, "renamed_" + b))
            kinds["renamed"] += 1
        else:
            os.unlink(path)
            kinds["deleted"] += 1
    return kinds


def compare(on, off, root, pattern, ci):
    """The first full listing on each, then rg; (times, files, agree)."""
    t_on, f_on, pages = server_list(on, pattern, ci)
    t_off, f_off, _ = server_list(off, pattern, ci)
    t_rg, f_rg = rg_list(root, pattern, ci)
    agree = f_on == f_off == f_rg
    return (t_on, t_off, t_rg), len(f_rg), pages, agree


def main():
    exe, root = sys.argv[1], os.path.realpath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    seed = int(os.environ.get("IXB_SEED", "39"))
    files = sorted(p.decode(errors="surrogateescape") for p in subprocess.run(
        ["rg", "--files"], cwd=root, capture_output=True).stdout.splitlines())
    print(f"root {root}: {len(files)} files (rg --files); changing {n};"
          f" load average at start {load()}", flush=True)
    cache = tempfile.mkdtemp(prefix="ixb-")
    t0 = time.monotonic()
    on = Server(exe, root, cache)
    on.root = root
    wait_built(on)
    wait_recorded(on)
    print(f"indexed server: built and saved in {time.monotonic() - t0:.1f} s", flush=True)
    off = Unindexed(exe, root)
    off.root = root
    for pattern, ci in QUERIES:
        server_list(on, pattern, ci)
        server_list(off, pattern, ci)
    page_latencies(on, "before the change")

    t0 = time.monotonic()
    kinds = switch_branch(root, files, n, seed)
    print(f"changed {sum(kinds.values())} files in {time.monotonic() - t0:.1f} s: {kinds}",
          flush=True)
    bad, ratios = 0, []
    for phase in ["right after", "3 s later"]:
        if phase != "right after":
            time.sleep(3)
        for pattern, ci in QUERIES:
            runs = [compare(on, off, root, pattern, ci)
                    for _ in range(1 if phase == "right after" else 3)]
            agree = all(r[3] for r in runs)
            bad += not agree
            t_on, t_off, t_rg = (statistics.median(r[0][k] for r in runs) for k in range(3))
            ratio = t_on / t_off
            if phase == "right after":
                ratios.append(ratio)
            print(f"  {phase}: {pattern!r}{' -i' if ci else ''} {runs[0][1]} files,"
                  f" {runs[0][2]} pages: indexed {t_on * 1e3:.0f} ms, unindexed"
                  f" {t_off * 1e3:.0f} ms, rg {t_rg * 1e3:.0f} ms; indexed/unindexed"
                  f" {ratio:.2f}; {'same files' if agree else 'FILES DIFFER'}", flush=True)
        if phase != "right after":
            page_latencies(on, "after the change")
    print(f"right after the change: worst indexed/unindexed {max(ratios):.2f}, median"
          f" {statistics.median(ratios):.2f} (target <= 2.0:"
          f" {'met' if max(ratios) <= 2 else 'NOT met'}); answers"
          f" {'all equal rg' if not bad else f'{bad} queries DIFFER'}")
    print(f"indexed server: {on.index()}")
    print(f"load average at end {load()}")
    on.close()
    off.close()
    subprocess.run(["rm", "-rf", cache])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
