"""Fixtures: small trees built in temporary directories, and one large generated tree for the
long-search tests (cancellation, KeyboardInterrupt, the GIL)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Iterator

import pytest

import rootbound


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """root/ with text files, a subdirectory, a denied .env and key.pem; outside/ beside it."""
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.rs").write_text("fn main() {\n    mutex_lock();\n}\n")
    (root / "src" / "lib.rs").write_text("pub fn mutex_lock() {}\n// needle\n")
    (root / "notes.txt").write_text("alpha\nneedle one\nbeta\nneedle two\n")
    (root / ".env").write_text("SECRET_ENV=1\n")
    (root / "sub").mkdir()
    (root / "sub" / "key.pem").write_text("SECRET_PEM\n")
    (root / "sub" / "ok.txt").write_text("needle in sub\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET_OUTSIDE needle\n")
    return root


@pytest.fixture()
def sb(tree: Path) -> rootbound.Sandbox:
    return rootbound.Sandbox(tree, deny=[".env", "*.pem"])


@pytest.fixture(scope="session")
def big_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A generated tree: 600 files of ~160 KiB of words (~96 MiB), one 'needle' in each file, for
    searches that take a while even on a fast machine (count mode with a pattern that matches
    every line)."""
    root = tmp_path_factory.mktemp("big")
    rng = random.Random(7)
    words = ["lorem", "ipsum", "dolor", "sit", "amet", "mutex", "lock", "kernel", "page", "cache"]
    line_pool = [" ".join(rng.choice(words) for _ in range(8)) + "\n" for _ in range(512)]
    block = "".join(line_pool)  # ~25 KiB
    for d in range(20):
        sub = root / f"d{d:02}"
        sub.mkdir()
        for f in range(30):
            with open(sub / f"f{f:02}.txt", "w") as fh:
                fh.write(block * 6)
                fh.write("the needle is here\n")
    yield root


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def big_count_args() -> dict:
    """A search of big_tree that matches every line (slow: every line goes through the sink)."""
    return {"pattern": r"\w+", "output_mode": "count", "limit": 1000, "timeout_ms": 600000}


os.environ.setdefault("RUST_BACKTRACE", "1")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under .ci/run every test must run: a skip (a missing extra, the wrong package imported)
    fails the session."""
    if os.environ.get("ROOTBOUND_PY_INSTALLED") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and session.exitstatus == 0:
        session.exitstatus = 1
        if reporter:
            reporter.write_line(f"python tests: {len(skipped)} skipped under CI: failing", red=True)
