"""Threads, the GIL, cancellation, KeyboardInterrupt, asyncio. Every assertion is an invariant
(counted at all, stopped before the end, the right exception), never a rate or a duration that a
busy machine could miss; the generous bounds only catch a hang."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List

import pytest

import rootbound
from rootbound import Budget, Sandbox

from conftest import big_count_args

HANG = 60.0  # seconds: only a hang exceeds this


def big_sandbox(root: Path) -> Sandbox:
    return Sandbox(root, max_results=10000)


def test_eight_threads_two_hundred_calls(sb: Sandbox, tree: Path) -> None:
    expected_read = (tree / "notes.txt").read_text()

    def worker(k: int) -> List[str]:
        errors = []
        for i in range(200):
            kind = (i + k) % 4
            if kind == 0:
                ok = sb.read_file("notes.txt").content == expected_read
            elif kind == 1:
                ok = sb.grep_search("needle").match_lines == 4
            elif kind == 2:
                ok = sb.stat("src/main.rs").kind == "file"
            else:
                r = sb.call("read_file", {"path": "../outside/secret.txt"})
                ok = r["error"]["code"] == "OUT_OF_SANDBOX"
            if not ok:
                errors.append(f"thread {k} call {i} kind {kind}")
        return errors

    with ThreadPoolExecutor(8) as ex:
        results = list(ex.map(worker, range(8)))
    assert [e for r in results for e in r] == []


def test_gil_released_during_a_search(big_tree: Path) -> None:
    sb = big_sandbox(big_tree)
    count = [0]
    started = threading.Event()
    stop = threading.Event()

    def counter() -> None:
        started.set()
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=counter)
    t.start()
    started.wait()
    # the counter shares the GIL with this thread; sys.setswitchinterval would let it run even if
    # the call held the GIL, so measure what it counted *inside* the call only
    before = count[0]
    r = sb.grep_search(**big_count_args())
    during = count[0] - before
    stop.set()
    t.join()
    assert r.total is not None and r.total > 0
    assert during > 0


def test_gil_released_when_called_from_a_worker_thread(big_tree: Path) -> None:
    """Off the main thread a call runs inline (no helper thread): the main thread, counting, must
    still run while it searches."""
    sb = big_sandbox(big_tree)
    done = threading.Event()
    result: List[object] = []
    b = Budget()

    def search() -> None:
        result.append(sb.grep_search(**big_count_args(), budget=b))
        done.set()

    t = threading.Thread(target=search)
    count = 0  # iterations while the search is under way (it has searched a file, not returned)
    t.start()
    while not done.is_set():
        if b.progress()[0] > 0 and not done.is_set():
            count += 1
    t.join()
    assert result and count > 0


def test_budget_cancel_from_another_thread(big_tree: Path) -> None:
    sb = big_sandbox(big_tree)
    full = sb.grep_search(**big_count_args())
    assert full.total and not full.timed_out
    b = Budget()

    def pull() -> None:
        while b.progress()[0] == 0:
            time.sleep(0.001)
        b.cancel()

    t = threading.Thread(target=pull)
    t.start()
    t0 = time.monotonic()
    r = sb.grep_search(**big_count_args(), budget=b)
    elapsed = time.monotonic() - t0
    t.join()
    assert b.cancelled
    assert r.timed_out and r.truncated and r.next_cursor
    assert r.total is None  # stopped before the end
    assert _quiesces(b) and b.progress()[0] < 600
    assert elapsed < HANG
    with pytest.raises(rootbound.Cancelled):
        sb.grep_search("x", budget=b)  # a cancelled budget refuses new calls


def test_budget_timeout(big_tree: Path) -> None:
    sb = big_sandbox(big_tree)
    r = sb.grep_search(**big_count_args(), budget=Budget(timeout=0.0))
    assert r.timed_out or r.total is not None


def _interrupt_when_started(b: Budget) -> threading.Thread:
    def fire() -> None:
        while b.progress()[0] == 0 and not b.cancelled:
            time.sleep(0.001)
        signal.raise_signal(signal.SIGINT)

    t = threading.Thread(target=fire)
    t.start()
    return t


def test_keyboard_interrupt_stops_a_search(big_tree: Path) -> None:
    assert threading.current_thread() is threading.main_thread()
    sb = big_sandbox(big_tree)
    b = Budget()
    t = _interrupt_when_started(b)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sb.grep_search(**big_count_args(), budget=b)
    elapsed = time.monotonic() - t0
    t.join()
    assert b.cancelled  # the interrupt cancelled the call's budget
    # it came during the search, not after it (600 files in the tree)
    assert 0 < b.progress()[0] < 600
    # and the search stops: batches already handed to the pool finish, nothing more starts
    assert _quiesces(b)
    assert b.progress()[0] < 600
    assert elapsed < HANG


def _quiesces(b: Budget) -> bool:
    end = time.monotonic() + HANG
    last = b.progress()[0]
    while time.monotonic() < end:
        time.sleep(0.2)
        now = b.progress()[0]
        if now == last:
            return True
        last = now
    return False


def test_keyboard_interrupt_without_budget_and_via_call(big_tree: Path) -> None:
    sb = big_sandbox(big_tree)
    # no budget given: the binding's own is cancelled; the interrupt still arrives
    fired = threading.Event()

    def fire() -> None:
        time.sleep(0.05)
        fired.set()
        signal.raise_signal(signal.SIGINT)

    t = threading.Thread(target=fire)
    t.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            while True:  # repeat until the signal lands inside a call
                sb.call("grep_search", big_count_args())
    finally:
        t.join()
    assert fired.is_set()
    # the sandbox is still usable
    assert sb.grep_search("needle", limit=1).match_lines == 1


def test_host_wakeup_fd_is_restored_and_chained(big_tree: Path) -> None:
    """A main-thread call watches for Ctrl-C through Python's signal wakeup fd: the host's own fd
    is back after every call, and receives the signal bytes that came during one."""
    import os

    sb = big_sandbox(big_tree)
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.set_blocking(w, False)
    old = signal.set_wakeup_fd(w)
    try:
        assert sb.grep_search("needle", limit=1).match_lines == 1
        assert signal.set_wakeup_fd(w) == w  # restored after a call that ended normally
        b = Budget()
        t = _interrupt_when_started(b)
        try:
            with pytest.raises(KeyboardInterrupt):
                sb.grep_search(**big_count_args(), budget=b)
        finally:
            t.join()
        assert b.cancelled
        assert signal.set_wakeup_fd(w) == w  # restored after an interrupted call
        assert signal.SIGINT in os.read(r, 64)  # and the SIGINT byte was passed on
    finally:
        signal.set_wakeup_fd(old)
        os.close(r)
        os.close(w)


def test_async_search_and_cancel(big_tree: Path) -> None:
    sb = big_sandbox(big_tree)

    async def main() -> None:
        r = await sb.grep_search_async("needle", limit=5)
        assert r.match_lines == 5
        assert (await sb.call_async("stat", {"path": "d00/f00.txt"}))["kind"] == "file"
        b = Budget()
        task = asyncio.ensure_future(sb.grep_search_async(**big_count_args(), budget=b))
        while b.progress()[0] == 0:
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert b.cancelled
        # many concurrent async calls
        rs = await asyncio.gather(*(sb.stat_async("d00/f00.txt") for _ in range(50)))
        assert all(x.kind == "file" for x in rs)
        with pytest.raises(rootbound.OutOfSandbox):
            await sb.read_file_async("../x")

    asyncio.run(main())


def test_sandbox_shared_across_threads_with_cancel(big_tree: Path) -> None:
    sb = big_sandbox(big_tree)
    budgets = [Budget() for _ in range(4)]

    def run(b: Budget) -> bool:
        r = sb.grep_search(**big_count_args(), budget=b)
        return bool(r.timed_out)

    with ThreadPoolExecutor(4) as ex:
        futs = [ex.submit(run, b) for b in budgets]
        while any(b.progress()[0] == 0 for b in budgets) and not all(f.done() for f in futs):
            time.sleep(0.001)
        for b in budgets:
            b.cancel()
        results = [f.result(timeout=HANG) for f in futs]
    assert all(isinstance(x, bool) for x in results)
