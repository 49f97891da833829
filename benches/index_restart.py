"""Restart to indexed answers with a saved index (docs/index.md "On disk").

Usage: python3 benches/index_restart.py ROOTBOUND ROOT CACHE_DIR PATTERN [RUNS] [--touch N]
       [--searched BYTES]

Runs `ROOTBOUND mcp --index --index-dir CACHE_DIR --root ROOT` (JSON-RPC over stdio, no SDK):
first until the root's index is built and saved (list_roots says `snapshot: "saved"`), then RUNS
times (default 3) a fresh server, timing from its spawn until list_roots says the saved index
serves (`from_snapshot`), then a grep_search for PATTERN (files_with_matches) it answers, then
until the build that follows the load is done (`from_snapshot` false, `snapshot` saved). Prints
the times, the bytes that build read, the load average, the saved file's size and the build's
time; and, for each restart, the server's anonymous memory (RssAnon, sampled every 50 ms from
its spawn until that build is saved: its peak, also as a share of the bytes a full build read:
the first run's `bytes_read`, or BYTES)
and its CPU time. With `--touch N`, before each restart (no server running) N files of ROOT,
spread evenly over its sorted file list, get a new mtime (and so ctime): changed while no process
watched, so the build after the load reads them again.
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from proc_sample import Sampler, status  # noqa: E402


class Server:
    def __init__(self, exe, root, cache):
        """`ROOTBOUND mcp` indexing into `cache`; with `cache` None, `--no-index` (every search
        walks and reads the tree)."""
        index = ["--index", "--index-dir", cache] if cache else ["--no-index"]
        args = [exe, "mcp", *index, "--root", root]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.n = 0
        self.rpc("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "index_restart", "version": "1"},
        })
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()

    def rpc(self, method, params):
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("server exited")
            msg = json.loads(line)
            if msg.get("id") == self.n:
                return msg["result"]

    def call(self, tool, args):
        r = self.rpc("tools/call", {"name": tool, "arguments": args})
        if r.get("structuredContent") is not None:
            return r["structuredContent"]
        return json.loads(r["content"][0]["text"])

    def index(self):
        return self.call("list_roots", {})["roots"][0].get("index") or {}

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def files_of(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        out.extend(os.path.join(d, f) for f in sorted(files))
    return [f for f in out if os.path.isfile(f) and not os.path.islink(f)]


def touch(files, n):
    """Moves the mtime of `n` of `files` (every len/n-th) to now."""
    if n <= 0:
        return 0
    step = max(1, len(files) // n)
    picked = files[::step][:n]
    for f in picked:
        os.utime(f)
    return len(picked)


def main():
    args = sys.argv[1:]

    def option(name):
        if name not in args:
            return 0
        i = args.index(name)
        v = int(args[i + 1])
        del args[i:i + 2]
        return v

    n_touch, searched = option("--touch"), option("--searched")
    exe, root, cache, pattern = args[:4]
    runs = int(args[4]) if len(args) > 4 else 3
    files = files_of(root) if n_touch else []
    grep = {"pattern": pattern, "output_mode": "files_with_matches", "limit": 100000}
    if os.path.isdir(cache) and any(f.endswith(".rbindex") for f in os.listdir(cache)):
        print("first run: skipped (CACHE_DIR holds a saved index already)")
    else:
        t0 = time.monotonic()
        s = Server(exe, root, cache)
        while s.index().get("snapshot") != "saved":
            time.sleep(0.2)
        ix = s.index()
        print(f"first run: built and saved in {time.monotonic() - t0:.1f} s; index {ix}")
        searched = searched or ix.get("bytes_read", 0)
        s.close()
    for f in os.listdir(cache):
        print(f"saved file: {f} {os.path.getsize(os.path.join(cache, f)) / 1e6:.1f} MB")
    for _ in range(runs):
        if n_touch:
            print(f"touched {touch(files, n_touch)} files while no server ran")
        load0 = os.getloadavg()
        t0 = time.monotonic()
        s = Server(exe, root, cache)
        sampler = Sampler(s.p.pid)
        sampler.start()
        while not s.index().get("from_snapshot"):
            time.sleep(0.01)
        loaded = time.monotonic()
        cpu_loaded = status(s.p.pid)["cpu"]
        r = s.call("grep_search", grep)
        done = time.monotonic()
        cpu_done = status(s.p.pid)["cpu"]
        pruned = ((r.get("stats") or {}).get("index") or {}).get("files_pruned", 0)
        ix = s.index()
        print(
            f"restart: loaded {loaded - t0:.2f} s after spawn, first indexed answer"
            f" {done - t0:.2f} s (that answer {done - loaded:.3f} s, {pruned} files pruned,"
            f" from_snapshot still {ix.get('from_snapshot')}, mapped"
            f" {ix.get('mapped', 0) / 1e6:.1f} MB, heap {ix.get('memory', 0) / 1e6:.1f} MB);"
            f" process CPU {cpu_loaded:.2f} s when loaded, {cpu_done:.2f} s at that answer"
        )
        # The build that follows the load: done when the root's own index serves and is saved.
        while True:
            ix = s.index()
            if not ix.get("from_snapshot") and str(ix.get("snapshot", "")).endswith("saved"):
                break
            time.sleep(0.05)
        built = time.monotonic()
        sampler.stop = True
        sampler.join()
        # "saved" shows before the build's thread has let go of its lists and trimmed the heap.
        time.sleep(2)
        st = status(s.p.pid)
        print(
            f"  follow-up build done {built - t0:.2f} s after spawn, read"
            f" {ix.get('bytes_read', 0) / 1e6:.1f} MB, build_peak {ix.get('build_peak', 0) / 1e6:.1f} MB;"
            f" CPU {st['cpu']:.1f} s; load average {load0[0]:.1f} at spawn,"
            f" {os.getloadavg()[0]:.1f} at the end"
        )
        print(
            f"  RssAnon peak {sampler.peak_anon / 1e6:.1f} MB"
            + (f" ({100 * sampler.peak_anon / searched:.1f} % of {searched / 1e6:.1f} MB)" if searched else "")
            + f", at the end {st['RssAnon'] / 1e6:.1f} MB; VmHWM {st['VmHWM'] / 1e6:.1f} MB"
        )
        s.close()


if __name__ == "__main__":
    main()
