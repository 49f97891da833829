#!/usr/bin/env bash
# Packaging check (issue 13): `cargo package`, then build and test inside the unpacked crate, as a
# user of the .crate would. The target directory is shared with the repository's (CARGO_TARGET_DIR)
# so that dependencies are not rebuilt; only rootbound itself is compiled again.
#
#   .ci/package-check.sh          # package, unpack, cargo test --release (full; ~ the time of the tests)
#   .ci/package-check.sh --quick  # package, unpack, cargo build + cargo test --no-run only
#
# The unpacked crate has no .venv, no tests/js/node_modules and maybe no rg: the tests that need them
# must say that they skip (CI is unset here for that reason; .ci/run runs them in the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
export CARGO_TERM_COLOR=never

# --allow-dirty: a local run may have uncommitted changes; CI's checkout is clean anyway.
cargo package --no-verify --allow-dirty --locked -q
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
crate="$CARGO_TARGET_DIR/package/rootbound-$version.crate"
[ -f "$crate" ] || { echo "package-check: $crate is missing" >&2; exit 1; }

listing="$(tar -tzf "$crate")"
echo "package-check: $(printf '%s\n' "$listing" | wc -l) files in $(basename "$crate")"
# Nothing but sources, docs and tests: no corpora, CI scripts, fuzz targets or virtualenvs.
if printf '%s\n' "$listing" | grep -E '/(corpora|\.ci|fuzz|\.venv|target|node_modules)/'; then
  echo "package-check: the .crate holds files it should not (above)" >&2
  exit 1
fi
for f in LICENSE-MIT LICENSE-APACHE README.md Cargo.lock; do
  printf '%s\n' "$listing" | grep -qx "rootbound-$version/$f" || { echo "package-check: $f missing" >&2; exit 1; }
done

work="$(mktemp -d)"
# The unpacked crate's artifacts land under the same names as the repository's (cargo's hash of a
# path package does not depend on where it is) and were built with its CARGO_MANIFEST_DIR, a
# directory deleted on exit: remove them, so the repository's next build compiles rootbound again
# instead of reusing binaries that look for files in a deleted directory.
cleanup() {
  rm -rf "$work"
  (cd "$repo" && cargo clean -p rootbound --release -q) || true
}
trap cleanup EXIT
tar -xzf "$crate" -C "$work"
cd "$work/rootbound-$version"
# The .crate keeps the files' old mtimes, and cargo's fingerprints of a path package are relative to
# its root: without this, the shared target dir's artifacts of the repository would count as fresh
# and nothing of the package would be compiled.
find . -type f -exec touch {} +
# A user's environment: no CI variable, so tests needing python/node/rg skip with a message.
if [ "$quick" = 1 ]; then
  env -u CI cargo build --release --locked -q
  env -u CI cargo test --release --locked --no-run -q
else
  # --nocapture: the skip messages of the tests that need python/node/rg are printed.
  set +e
  env -u CI cargo test --release --locked -q -- --nocapture >"$work/test.log" 2>&1
  rc=$?
  set -e
  grep -E '^(test result|SKIPPED|skipping)|SKIPPED' "$work/test.log" | sort | uniq -c || true
  if [ "$rc" != 0 ]; then
    tail -60 "$work/test.log" >&2
    echo "package-check: tests failed in the unpacked crate" >&2
    exit 1
  fi
fi
echo "package-check: OK"
