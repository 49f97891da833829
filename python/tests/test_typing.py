"""The stubs hold: `mypy --strict` on the example agent loop (which uses the typed API), and the
example runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python_agent_loop.py"


def test_mypy_strict_on_the_example() -> None:
    pytest.importorskip("mypy")
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null", str(EXAMPLE)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_catches_a_misuse(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import rootbound\n"
        "sb = rootbound.Sandbox('.')\n"
        "n: str = sb.grep_search('x').match_lines\n"  # an int
        "sb.read_file(path=3)\n"  # a str
    )
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null", str(bad)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1 and r.stdout.count("error:") == 2, r.stdout


def test_the_example_runs(tree: Path) -> None:
    (tree / "todo.py").write_text("import os\n# TODO: something\ndef f(): pass\n")
    r = subprocess.run(
        [sys.executable, str(EXAMPLE), str(tree)], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "read_file" in r.stdout and "OUT_OF_SANDBOX" in r.stdout


def test_mypy_strict_on_the_package() -> None:
    """The package's own modules (the adapters are left out: checking them means checking the
    frameworks, over a minute)."""
    pytest.importorskip("mypy")
    mods = ["rootbound", "rootbound._sandbox", "rootbound._results", "rootbound._errors"]
    files = [a for m in mods for a in ("-m", m)]
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null", *files],
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert r.returncode == 0, r.stdout + r.stderr
