"""Anonymous memory and build cost of an indexed server (docs/index.md "What it costs").

Usage: python3 benches/index_memory.py ROOTBOUND ROOT CACHE_DIR [SEARCHED_BYTES]

Runs `ROOTBOUND mcp --index --index-dir CACHE_DIR --root ROOT` (JSON-RPC over stdio, no SDK),
samples its /proc/PID/status (RssAnon, RssFile, VmHWM) and CPU time every 50 ms until list_roots
says the index is built and saved, then runs a set of queries and samples again. Prints the build's
wall and CPU time, the load average, RssAnon after the save, after the queries and its sampled peak
during the build, each also as a share of SEARCHED_BYTES (default: `bytes_read` of the status).
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from index_restart import Server  # noqa: E402
from proc_sample import Sampler, status  # noqa: E402

QUERIES = ["PM_RESUME", "mutex_lock", r"static int .*_probe\(", "TODO", "EXPORT_SYMBOL_GPL",
           r"\bkmalloc\(", "struct file_operations", "copy_from_user", r"\w+_lock_irq\w*\(",
           "zqxjkv_no_such_thing", "spin_lock_irqsave", r"\p{Greek}"]


def mb(n):
    return f"{n / 1e6:.1f} MB"


def main():
    exe, root, cache = sys.argv[1:4]
    print(f"load average before: {os.getloadavg()}")
    t0 = time.monotonic()
    s = Server(exe, root, cache)
    sampler = Sampler(s.p.pid)
    sampler.start()
    while True:
        ix = s.index()
        if ix.get("state") == "ready" and not ix.get("from_snapshot") and "t_ready" not in locals():
            t_ready = time.monotonic() - t0
            cpu_ready = status(s.p.pid)["cpu"]
        if ix.get("snapshot") == "saved":
            break
        time.sleep(0.05)
    t_saved = time.monotonic() - t0
    sampler.stop = True
    sampler.join()
    searched = int(sys.argv[4]) if len(sys.argv) > 4 else ix.get("bytes_read", 0)
    # "saved" shows before the build's thread has let go of its lists and trimmed the heap.
    time.sleep(2)
    built = status(s.p.pid)
    print(f"load average after build: {os.getloadavg()}")
    print(f"ready {t_ready:.1f} s (CPU {cpu_ready:.1f} s), saved {t_saved:.1f} s (CPU {built['cpu']:.1f} s)")
    print(f"status: files {ix.get('files')} memory {mb(ix.get('memory', 0))} mapped"
          f" {mb(ix.get('mapped', 0))} build_peak {mb(ix.get('build_peak', 0))}"
          f" bytes_read {mb(ix.get('bytes_read', 0))}")

    def line(what, st, anon):
        print(f"{what}: RssAnon {mb(anon)} ({100 * anon / searched:.1f} % of {mb(searched)}),"
              f" RssFile {mb(st['RssFile'])}, VmHWM {mb(st['VmHWM'])}, threads {st['Threads']}")

    line("peak during build (sampled)", built, sampler.peak_anon)
    line("after build and save", built, built["RssAnon"])
    for q in QUERIES:
        for mode in ("files_with_matches", "count"):
            r = s.call("grep_search", {"pattern": q, "output_mode": mode, "limit": 100000})
            assert "error" not in r or not r["error"], r
    time.sleep(1)
    after = status(s.p.pid)
    line(f"after {2 * len(QUERIES)} queries", after, after["RssAnon"])
    s.close()


if __name__ == "__main__":
    main()
