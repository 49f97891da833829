#!/usr/bin/env bash
# tools/freshness_mutants.sh [MUTANT...]: the freshness fuzzer's mutation check (issue 39 item 6,
# docs/index.md "The freshness fuzzer"). Builds tests/freshness once with the hidden feature
# `mutants` (src/core/mutant.rs: each switch turns off one piece of the index's change handling,
# chosen at run time by ROOTBOUND_MUTANT), runs the fuzzer with no switch (it must pass), then once
# per switch (it must fail), and prints one table row per run: caught or not, seconds, and the
# fuzzer's first failure line.
#
#   tools/freshness_mutants.sh                  # every switch
#   tools/freshness_mutants.sh content racy     # the named ones
#   CASES=40 HOLD=6 tools/freshness_mutants.sh  # more cases, more held steps (defaults 20, 4)
#   CASES=8 SECS=180 tools/freshness_mutants.sh # batches of 8 cases until 180 s (or a failure)
#   NO_BASELINE=1 tools/freshness_mutants.sh x  # without the run with no switch
#   MUTANT_LOGS=/tmp/m tools/freshness_mutants.sh   # keep the logs there (default: a temp dir)
#   FRESHNESS_BIN=path tools/freshness_mutants.sh   # a binary built with the feature already
#
# The permission switches (dir_meta, attrib) run as user 65534 when run as root (setpriv): root
# reads anything, so a lost chmod shows no difference to it. One run at a time (two cores shared).
set -uo pipefail
cd "$(dirname "$0")/.."

ALL="content modify attrib close_write shape create delete moved gone git_info exclude dir_meta
ignore_names repository record_stat record_generation mark_changed observe_seen install_unchanged
install_moved install_seen describe_generation verdict_stat verdict_nlink mask_changed racy"
mutants=("$@")
[ ${#mutants[@]} -eq 0 ] && read -r -a mutants <<<"$(echo $ALL)"

# FRESHNESS_BIN: a test binary built so already (skips the build).
bin=${FRESHNESS_BIN:-$(cargo test --release --features mutants --test freshness --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"executable":"\([^"]*\/deps\/freshness-[^"]*\)".*/\1/p' | tail -1)}
[ -x "$bin" ] || { echo "build failed: cargo test --release --features mutants --test freshness --no-run" >&2; exit 2; }
logs=${MUTANT_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
chmod 755 "$logs"

run() { # NAME [as-user]: runs the fuzzer with switch NAME (none: no switch); prints the row
  local m=$1 pre=()
  if [ "${2:-}" = user ] && [ "$(id -u)" = 0 ]; then
    pre=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  fi
  local start=$SECONDS
  env ROOTBOUND_MUTANT="$([ "$m" = none ] || echo "$m")" TMPDIR=/tmp \
    ROOTBOUND_FRESHNESS_CASES="${CASES:-20}" ROOTBOUND_FRESHNESS_SECS="${SECS:-0}" \
    ROOTBOUND_FRESHNESS_HOLD="${HOLD:-4}" \
    ROOTBOUND_FRESHNESS_SHRINK=0 timeout "${TMO:-900}" nice -n 10 "${pre[@]}" "$bin" --nocapture \
    >"$logs/$m${2:+.$2}.log" 2>&1
  local rc=$? secs=$((SECONDS - start)) verdict
  local why
  why=$(grep -m1 -oE '(page [0-9]+ of|settled, page [0-9]+ of|index work over)[^"]{0,50}' \
    "$logs/$m${2:+.$2}.log" || grep -m1 -oE 'panicked at .{0,60}' "$logs/$m${2:+.$2}.log")
  case "$m:$rc" in
    none:0) verdict="passes" ;;
    none:*) verdict="FAILS without a switch" ;;
    *:0) verdict="not caught" ;;
    *:124) verdict="timeout" ;;
    # Caught is the fuzzer's own failure (a panic in its test), not any exit: a binary that did
    # not run the fuzzer at all fails too.
    *) if grep -q 'panicked at' "$logs/$m${2:+.$2}.log"; then verdict="caught"; else
      verdict="did not run the fuzzer (see its log)"; fi ;;
  esac
  echo "| \`$m\`${2:+ (as 65534)} | $verdict | ${secs} s | ${why:-$(grep -m1 -o 'freshness: .*' "$logs/$m${2:+.$2}.log")} |"
}

echo "logs: $logs"
echo "| switch | result | time | first failure (or the passing run's summary) |"
echo "|---|---|---|---|"
[ -n "${NO_BASELINE:-}" ] || run none
for m in "${mutants[@]}"; do
  case "$m" in
    dir_meta | attrib) run "$m" user ;;
    *) run "$m" ;;
  esac
done
