"""A server process's memory and CPU from /proc, sampled (benches/index_memory.py and
benches/index_restart.py both read it; neither imports the other's measuring code)."""

import os
import threading
import time


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("RssAnon", "RssFile", "VmHWM", "VmRSS", "Threads"):
                out[k] = int(v.split()[0]) * (1024 if k != "Threads" else 1)
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    # utime, stime, cutime, cstime (fields 14-17; the build's threads are the process's)
    out["cpu"] = sum(int(x) for x in fields[11:15]) / tick
    return out


class Sampler(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak_anon, self.stop = pid, 0, False

    def run(self):
        while not self.stop:
            try:
                self.peak_anon = max(self.peak_anon, status(self.pid)["RssAnon"])
            except (OSError, KeyError):
                return
            time.sleep(0.05)
