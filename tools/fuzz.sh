#!/usr/bin/env bash
# tools/fuzz.sh SECONDS [TARGET...]: builds the cargo-fuzz targets (release, debug assertions,
# LeakSanitizer: `cargo fuzz build -s leak -a`, as fuzz/README.md says) and runs every target (or the
# named ones) for SECONDS each, one after the other, one job each, with libFuzzer's leak detection
# on: a target that leaks per input fails (a run of hours must not grow without bound). New inputs
# go to a scratch corpus (the committed corpus is only read); crashes land in
# fuzz/artifacts/<target>/. Prints each target's executions and any crash artifacts; exits 1 if a
# target crashed or leaked.
#
#   tools/fuzz.sh 600                 # every target, 10 minutes each
#   tools/fuzz.sh 60 policy resolve   # two targets, a minute each
#   FUZZ_LOGS=/tmp/logs tools/fuzz.sh 600 grep_args   # keep the logs there (default: a temp dir)
#   FUZZ_SANITIZER=address tools/fuzz.sh 600          # AddressSanitizer (includes LeakSanitizer)
#   FUZZ_SANITIZER=none tools/fuzz.sh 600             # no sanitizer, no leak detection (fastest)
#
# Each sanitizer has its own build directory (fuzz/target/<sanitizer>), so switching does not
# rebuild the others.
#
# Run two at a time at most on a shared machine (each uses one core); `nice -n 10` is polite.
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
export RUSTC_BOOTSTRAP=1 # cargo-fuzz passes -Z flags; this lets the stable toolchain accept them
export CARGO_TERM_COLOR=never

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: tools/fuzz.sh SECONDS [TARGET...]" >&2
  exit 2
fi
secs=$1
shift
san=${FUZZ_SANITIZER:-leak}
case $san in
  none | leak | address) ;;
  *) echo "tools/fuzz.sh: FUZZ_SANITIZER is none, leak or address, not $san" >&2; exit 2 ;;
esac
tdir=(--target-dir "target/$san")
leaks=()
[ "$san" = none ] || leaks=(-detect_leaks=1)
all=$(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^rootbound-fuzz$')
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets <<< "$all"
for t in "${targets[@]}"; do
  grep -qx "$t" <<< "$all" || { echo "tools/fuzz.sh: no target $t (targets: $(echo $all))" >&2; exit 2; }
done

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "tools/fuzz.sh: installing cargo-fuzz"
  cargo install cargo-fuzz --locked || exit 1
fi
logs=${FUZZ_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
echo "tools/fuzz.sh: building (release, -s $san -a); logs in $logs"
if ! cargo fuzz build -s "$san" -a "${tdir[@]}" > "$logs/build.log" 2>&1; then
  tail -40 "$logs/build.log" >&2
  echo "tools/fuzz.sh: the fuzz targets do not build" >&2
  exit 1
fi

failed=0
for t in "${targets[@]}"; do
  scratch=$(mktemp -d "/tmp/fuzz-corpus-$t-XXXX")
  dict=()
  [ -f "$t.dict" ] && dict=(-dict="$t.dict")
  mkdir -p "artifacts/$t"
  before=$(ls "artifacts/$t" | wc -l)
  echo "tools/fuzz.sh: $t for $secs s"
  cargo fuzz run -s "$san" -a "${tdir[@]}" "$t" "$scratch" "corpus/$t" -- "${dict[@]}" "${leaks[@]}" \
    -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    > "$logs/$t.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log" | tail -1)
  new=$(ls -t "artifacts/$t" | head -n $(( $(ls "artifacts/$t" | wc -l) - before )))
  if [ $rc -ne 0 ] || [ -n "$new" ]; then
    failed=1
    echo "tools/fuzz.sh: $t FAILED after ${execs:-?} executions (exit $rc); log $logs/$t.log"
    for a in $new; do echo "  artifact: fuzz/artifacts/$t/$a"; done
    grep -m1 -A3 "panicked at\|ERROR: LeakSanitizer\|ERROR: AddressSanitizer" "$logs/$t.log" | sed 's/^/  /'
  else
    echo "tools/fuzz.sh: $t clean (-s $san): ${execs:-?} executions (${rate:-?}/s) in $secs s, $(date -u +%FT%TZ)"
  fi
  rm -rf "$scratch"
done
exit $failed
