"""No leak: RSS stays bounded over 10,000 calls (a generous bound: allocator noise is fine, a
leak of even 1 KiB a call is not)."""

from __future__ import annotations

import gc

import rootbound
from rootbound import Sandbox

from conftest import rss_kib


def _calls(sb: Sandbox, n: int) -> None:
    for i in range(n):
        k = i % 5
        if k == 0:
            sb.stat("notes.txt")
        elif k == 1:
            sb.grep_search("needle", limit=2)
        elif k == 2:
            sb.read_file("notes.txt", limit=10)
        elif k == 3:
            try:
                sb.read_file("../outside/secret.txt")
            except rootbound.OutOfSandbox:
                pass
        else:
            sb.call("glob", {"pattern": "*.rs"})


def test_rss_bounded_over_ten_thousand_calls(sb: Sandbox) -> None:
    _calls(sb, 1000)  # warm up: pools, caches, interned strings
    gc.collect()
    before = rss_kib()
    _calls(sb, 10_000)
    gc.collect()
    growth = rss_kib() - before
    assert growth < 10 * 1024, f"RSS grew {growth} KiB over 10,000 calls"


def test_sandboxes_and_budgets_are_freed(tree) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        Sandbox(tree).stat("notes.txt")
    gc.collect()
    before = rss_kib()
    for _ in range(2000):
        s = Sandbox(tree, threads=1)
        s.stat("notes.txt", budget=rootbound.Budget(timeout=5))
        del s
    gc.collect()
    growth = rss_kib() - before
    assert growth < 20 * 1024, f"RSS grew {growth} KiB over 2,000 sandboxes"
