#!/usr/bin/env bash
# The Python package's CI step (run by .ci/run): build the abi3 wheel with maturin, install it into
# a fresh virtual environment with pytest, mypy and the adapters' frameworks, and run the Python
# tests against the INSTALLED wheel (not the source tree). Any failure, a skipped test, or pytest
# collecting nothing (exit 5) fails the step.
#
#   bash python/ci.sh            # from anywhere in the repository
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
py="${PYTHON:-python3}"

# maturin and the test tools (pytest, mypy, the adapters' frameworks) live in a cached tool venv
# (.venv-python, git-ignored; it never holds rootbound). The package under test is installed into
# a fresh venv each run, which sees the tools through a .pth file: installing the frameworks anew
# each run took 135 s here, the .pth takes none.
tools="$repo/.venv-python"
deps=('maturin>=1.5,<2' 'pytest>=7' 'mypy>=1.8' 'openai-agents>=0.2' 'langchain-core>=0.3')
if [ ! -x "$tools/bin/maturin" ] || ! "$tools/bin/python" -c 'import pytest, mypy, agents, langchain_core' 2>/dev/null; then
  [ -x "$tools/bin/python" ] || "$py" -m venv "$tools"
  "$tools/bin/pip" install -q --disable-pip-version-check "${deps[@]}"
fi
if "$tools/bin/python" -c 'import rootbound' 2>/dev/null; then
  echo "python: $tools must not hold rootbound (the tests would not test the wheel)" >&2
  exit 1
fi

rm -f target/wheels/rootbound-*.whl
t0=$(date +%s)
"$tools/bin/maturin" build --release -q 2>&1 | grep -v '^🍹\|^🔗\|^🐍\|^📡\|^📦 Including' || true
wheel=$(ls target/wheels/rootbound-*-abi3-*.whl)
t1=$(date +%s)
echo "python: built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB) in $((t1 - t0)) s"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$py" -m venv --without-pip "$work/venv"
"$tools/bin/pip" --python "$work/venv/bin/python" install -q --disable-pip-version-check --no-deps "$wheel"
site="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
"$tools/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site/_ci_test_tools.pth"
t2=$(date +%s)
echo "python: fresh venv with the wheel in $((t2 - t1)) s"

# From the repository root: python/rootbound is not importable from here, so the tests import the
# installed package (test_runs_against_the_installed_wheel checks it).
set +e
ROOTBOUND_PY_INSTALLED=1 "$work/venv/bin/python" -m pytest -q -p no:cacheprovider -rs python/tests
status=$?
set -e
t3=$(date +%s)
echo "python: tests in $((t3 - t2)) s (step total $((t3 - t0)) s)"
if [ "$status" -eq 5 ]; then
  echo "python: pytest collected no tests (exit 5)" >&2
fi
exit "$status"
