#!/usr/bin/env bash
# Builds the cargo-fuzz targets and replays every committed corpus input once (-runs=0), so the targets
# never rot and every past finding stays fixed. Called by .ci/run; see fuzz/README.md.
#
# The replay build is unoptimized (--dev, with debug assertions and overflow checks): it compiles in
# about half the time of a release build, and a few dozen inputs run in well under a minute. Long fuzzing
# runs use the release build (README).
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1 # cargo-fuzz passes -Z flags; this lets the stable toolchain accept them
export CARGO_TERM_COLOR=never

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz/replay.sh: installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

targets=(resolve grep_args read_args documents_zip documents_pdf policy)
start=$(date +%s)
log=$(mktemp)
if ! cargo fuzz build --dev -s none > "$log" 2>&1; then
  cat "$log" >&2
  echo "fuzz/replay.sh: the fuzz targets do not build" >&2
  exit 1
fi
rm -f "$log"
bin=target/$(rustc -vV | sed -n 's/^host: //p')/debug
for t in "${targets[@]}"; do
  [ -x "$bin/$t" ] || { echo "fuzz/replay.sh: $bin/$t was not built" >&2; exit 1; }
done
echo "fuzz/replay.sh: built in $(( $(date +%s) - start )) s"

for t in "${targets[@]}"; do
  n=$(find "corpus/$t" -type f | wc -l)
  echo "fuzz/replay.sh: $t: replaying $n inputs"
  # Read-only replay: no mutation, nothing written into the committed corpus.
  mkdir -p "target/replay-artifacts/$t"
  if ! "$bin/$t" -runs=0 -timeout=120 -report_slow_units=120 -rss_limit_mb=2048 \
    -artifact_prefix="target/replay-artifacts/$t/" "corpus/$t" > "target/replay-$t.log" 2>&1; then
    cat "target/replay-$t.log" >&2
    echo "fuzz/replay.sh: $t FAILED on a committed input (log above)" >&2
    exit 1
  fi
  grep -E '^Done' "target/replay-$t.log" || true
done
echo "fuzz/replay.sh: all corpora replayed clean in $(( $(date +%s) - start )) s"
