"""A full listing's wall time after rg ran, after the server sat idle, and right after another
listing (issue 39: why a listing measured between rg runs is slower than one measured in a loop).

Usage: python3 benches/index_idle.py ROOTBOUND ROOT CACHE_DIR PATTERN CI [REPS]

CI is 1 for a case-insensitive search. Starts `ROOTBOUND mcp --index` on ROOT with CACHE_DIR,
waits until it has built and recorded its walk, then REPS times (default 7): `rg -l PATTERN`, a
listing (pages of 100 by cursor; "after_rg"), 0.6 s of sleep, a listing ("after_sleep"), and at
once another ("back_to_back"). Prints the median and every time of each.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from index_agent_queries import rg_list, server_list, wait_built, wait_recorded  # noqa: E402
from index_restart import Server  # noqa: E402


def main():
    exe, root, cache, pat, ci = sys.argv[1:6]
    ci = ci == "1"
    reps = int(sys.argv[6]) if len(sys.argv) > 6 else 7
    s = Server(exe, root, cache)
    s.root = root
    wait_built(s)
    wait_recorded(s)
    res = {"after_rg": [], "after_sleep": [], "back_to_back": []}
    for _ in range(reps):
        rg_list(root, pat, ci)
        res["after_rg"].append(server_list(s, pat, ci)[0] * 1000)
        time.sleep(0.6)
        res["after_sleep"].append(server_list(s, pat, ci)[0] * 1000)
        res["back_to_back"].append(server_list(s, pat, ci)[0] * 1000)
    for k, v in res.items():
        print(f"{k:14} median {statistics.median(v):6.1f} ms  all "
              + " ".join(f"{x:.1f}" for x in sorted(v)))
    s.close()


if __name__ == "__main__":
    main()
