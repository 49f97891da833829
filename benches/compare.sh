#!/usr/bin/env bash
# Side by side: `rootbound grep -n` vs `rg -n` vs `grep -rEn` on the ripgrep benchsuite queries over the
# Linux source tree (DESIGN.md §6, issue 5). Prints markdown tables: hyperfine medians with ratios to rg,
# the output line count of every tool, peak memory (/usr/bin/time -v), and the wall time of one
# `rootbound call grep_search` process for the first page and page 100 of `mutex_lock`.
#
#   corpora/fetch-linux.sh [--subset]          # once: the corpus
#   benches/compare.sh                         # full run on ~/.cache/rootbound/linux-source-6.1
#   benches/compare.sh --runs 10               # more timing runs per command (default 5)
#   benches/compare.sh --memory-only --corpus ~/.cache/rootbound/linux-drivers
#                                              # line counts and peak memory only, no timing
#   benches/compare.sh --pages-only            # only the mutex_lock page timings
#
# Options: --corpus DIR (default $ROOTBOUND_CORPUS or ~/.cache/rootbound/linux-source-6.1),
# --runs N, --memory-only, --pages-only, --out DIR (JSON exports and results.md; default
# target/compare/<time>),
# --quiet-load L (before each query wait, up to 10 minutes, for the 1-minute load average to fall
# below L: the machines are shared; the table records the load each query started at).
# Needs: cargo, hyperfine, ripgrep, GNU grep, GNU time (/usr/bin/time), jq
# (`apt-get install hyperfine ripgrep time jq`).
#
# Method. Each query is one hyperfine run holding all three tools (--warmup 1, --output=pipe, so every
# tool writes into a pipe), run from the corpus root with no path argument, stdin /dev/null. The page
# cache is warmed (`find . -type f -print0 | xargs -0 cat >/dev/null`) right before each query, because
# these machines trim it when idle. grep runs with LC_ALL=C (-E), except \p{Greek}, which needs -P in a
# UTF-8 locale (LC_ALL=C.UTF-8); in a UTF-8 locale `grep -E '\w{5}(\s+\w{5}){4}'` takes minutes.
# Ignore rules: the tree has no .git, so neither rg nor rootbound applies its .gitignore files; both skip
# hidden files, which grep -r reads (so grep's counts can differ by matches in dot files), and grep's \w
# is ASCII-only in the C locale where rg's is Unicode (one line of `\w{5}(\s+\w{5}){4}` differs).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo="$(cd "$here/.." && pwd -P)"
corpus="${ROOTBOUND_CORPUS:-$HOME/.cache/rootbound/linux-source-6.1}"
runs=5
memory_only=0
pages_only=0
out=""
quiet_load=""

while [ $# -gt 0 ]; do
    case "$1" in
    --corpus)
        corpus="$2"
        shift 2
        ;;
    --runs)
        runs="$2"
        shift 2
        ;;
    --memory-only)
        memory_only=1
        shift
        ;;
    --pages-only)
        pages_only=1
        shift
        ;;
    --out)
        out="$2"
        shift 2
        ;;
    --quiet-load)
        quiet_load="$2"
        shift 2
        ;;
    -h | --help)
        sed -n '2,28p' "$0"
        exit 0
        ;;
    *)
        echo "compare.sh: unknown argument: $1" >&2
        exit 2
        ;;
    esac
done

for tool in cargo hyperfine rg grep jq; do
    command -v "$tool" >/dev/null || {
        echo "compare.sh: $tool is missing (apt-get install hyperfine ripgrep time jq)" >&2
        exit 1
    }
done
[ -x /usr/bin/time ] || {
    echo "compare.sh: /usr/bin/time is missing (apt-get install time)" >&2
    exit 1
}
if [ ! -d "$corpus" ] && [ -z "${ROOTBOUND_CORPUS:-}" ] && [ "$corpus" = "$HOME/.cache/rootbound/linux-source-6.1" ]; then
    echo "== no corpus yet: corpora/fetch-linux.sh (unpacks /usr/src/linux-source-6.1.tar.xz once)" >&2
    "$repo/corpora/fetch-linux.sh" >&2
fi
[ -d "$corpus" ] || {
    echo "compare.sh: no corpus at $corpus; run corpora/fetch-linux.sh first" >&2
    exit 1
}
corpus="$(cd "$corpus" && pwd -P)"
if top="$(git -C "$corpus" rev-parse --show-toplevel 2>/dev/null)"; then
    echo "compare.sh: $corpus is inside the git repository $top: rg would apply its ignore rules" >&2
    exit 1
fi

echo "== cargo build --release" >&2
(cd "$repo" && cargo build --release --quiet)
bin="$repo/target/release/rootbound"
[ -n "$out" ] || out="$repo/target/compare/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
out="$(cd "$out" && pwd -P)"
results="$out/results.md"
: >"$results"

say() { printf '%s\n' "$*" | tee -a "$results"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
wait_quiet() {
    [ -n "$quiet_load" ] || return 0
    local i
    for i in $(seq 1 60); do
        LC_ALL=C awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v q="$quiet_load" 'BEGIN { exit !(l < q) }' && return 0
        [ "$i" = 1 ] && echo "   waiting for the load ($(load)) to fall below $quiet_load" >&2
        sleep 10
    done
    echo "   still loaded after 10 minutes ($(load)); measuring anyway" >&2
}
warm() {
    (cd "$corpus" && find . -type f -print0 | xargs -0 cat >/dev/null)
}
# A shell-quoted command line from an argv.
quote() {
    local s
    s="$(printf '%q ' "$@")"
    printf '%s' "${s% }"
}

# id | rootbound/rg flags | pattern | grep mode (E: LC_ALL=C grep -rEn, P: LC_ALL=C.UTF-8 grep -rPn)
queries=(
    "literal||PM_RESUME|E"
    "literal_i|-i|PM_RESUME|E"
    "literal_w|-w|PM_RESUME|E"
    "alternation||ERR_SYS|PME_TURN_OFF|LINK_REQ_RST|CFG_BME_EVT|E"
    "unicode_greek||\\p{Greek}|P"
    "no_match||NOMATCH_ROOTBOUND_7f3a91|E"
    "suspend_regex||\\w+_SUSPEND|E"
    "no_literal||\\w{5}(\\s+\\w{5}){4}|E"
)

# Machine and tools.
model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
mem_gib="$(awk '/^MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)"
say "## compare.sh run $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say ""
say "- machine: $(nproc) CPUs ($model), ${mem_gib} GiB RAM, kernel $(uname -r)"
say "- corpus: $corpus ($(find "$corpus" -type f | wc -l) files, $(du -sb "$corpus" | cut -f1) bytes)"
say "- rootbound: $(cd "$repo" && git rev-parse --short HEAD)$(cd "$repo" && git diff --quiet HEAD -- src Cargo.toml || echo ' + uncommitted changes in src/ or Cargo.toml')"
say "- $(rg --version 2>/dev/null | head -1), $(grep --version | head -1), $(hyperfine --version)"
if [ "$memory_only" = 0 ]; then
    say "- hyperfine --warmup 1 --runs $runs --output=pipe; page cache warmed before each query"
else
    say "- --memory-only: one run per tool and query for line counts and peak memory, no timing"
fi
say "- load average at start (1/5/15 min): $(load)"
say ""

# name of each tool's argv for one query, into the arrays rb, rgc, grc.
set_commands() {
    local flags="$1" pattern="$2" mode="$3"
    rb=("$bin" grep -n)
    rgc=(rg -n)
    if [ -n "$flags" ]; then
        rb+=("$flags")
        rgc+=("$flags")
    fi
    rb+=(-- "$pattern")
    rgc+=(-- "$pattern")
    if [ "$mode" = P ]; then
        grc=(env LC_ALL=C.UTF-8 grep -rPn)
    else
        grc=(env LC_ALL=C grep -rEn)
    fi
    [ -n "$flags" ] && grc+=("$flags")
    grc+=(-- "$pattern")
}

# Runs argv once from the corpus root into a pipe: prints "<lines> <max RSS KiB>".
count_and_memory() {
    local memf="$out/time.txt" lines
    lines="$(cd "$corpus" && { /usr/bin/time -v -o "$memf" "$@" </dev/null || true; } | wc -l)"
    printf '%s %s\n' "$lines" "$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$memf")"
}

median() { jq -r --arg n "$2" '.results[] | select(.command == $n) | .median' "$1"; }
fmt() { LC_ALL=C awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }
mib() { LC_ALL=C awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { LC_ALL=C awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

declare -A mem_rows
time_rows=()
count_ok=1
[ "$pages_only" = 0 ] || queries=()
for q in "${queries[@]}"; do
    id="${q%%|*}"
    rest="${q#*|}"
    flags="${rest%%|*}"
    rest="${rest#*|}"
    mode="${rest##*|}"
    pattern="${rest%|*}"
    set_commands "$flags" "$pattern" "$mode"
    shown="$pattern"
    [ -n "$flags" ] && shown="$flags $pattern"
    shown="${shown//|/\\|}" # a markdown table cell
    echo "== $id: $shown (load $(load))" >&2

    warm
    read -r n_rb m_rb < <(count_and_memory "${rb[@]}")
    read -r n_rg m_rg < <(count_and_memory "${rgc[@]}")
    read -r n_gr m_gr < <(count_and_memory "${grc[@]}")
    agree="yes"
    [ "$n_rb" = "$n_rg" ] || {
        agree="NO (rootbound vs rg)"
        count_ok=0
    }
    [ "$n_gr" = "$n_rg" ] || agree="$agree; grep differs"
    mem_rows[$id]="| \`$shown\` | $n_rb / $n_rg / $n_gr | $agree | $(mib "$m_rb") | $(mib "$m_rg") | $(mib "$m_gr") |"

    if [ "$memory_only" = 0 ]; then
        json="$out/$id.json"
        wait_quiet
        l0="$(load)"
        warm
        (cd "$corpus" && hyperfine --warmup 1 --runs "$runs" --output=pipe --ignore-failure --style basic \
            --export-json "$json" \
            -n rootbound "$(quote "${rb[@]}")" \
            -n rg "$(quote "${rgc[@]}")" \
            -n grep "$(quote "${grc[@]}")" >&2)
        t_rb="$(median "$json" rootbound)"
        t_rg="$(median "$json" rg)"
        t_gr="$(median "$json" grep)"
        grep_name="grep -rEn"
        [ "$mode" = P ] && grep_name="grep -rPn"
        time_rows+=("| \`$shown\` | $n_rg | $(fmt "$t_rb") | $(fmt "$t_rg") | $(fmt "$t_gr") ($grep_name) | **$(ratio "$t_rb" "$t_rg")** | $(ratio "$t_gr" "$t_rg") | ${l0%% *} |")
    fi
done

if [ "$memory_only" = 0 ] && [ "$pages_only" = 0 ]; then
    say "### Full searches (medians in seconds, warm cache)"
    say ""
    say "| query | lines | rootbound grep -n | rg -n | grep | rootbound / rg | grep / rg | load (1 min) |"
    say "|---|---|---|---|---|---|---|---|"
    for r in "${time_rows[@]}"; do say "$r"; done
    say ""
fi

if [ "$pages_only" = 0 ]; then
    say "### Line counts and peak memory (one run each, into a pipe; max RSS in MiB)"
    say ""
    say "| query | lines rootbound / rg / grep | rootbound = rg | rootbound MiB | rg MiB | grep MiB |"
    say "|---|---|---|---|---|---|"
    for q in "${queries[@]}"; do say "${mem_rows[${q%%|*}]}"; done
    say ""
fi

if [ "$memory_only" = 0 ]; then
    # First page and page 100 of mutex_lock, one `rootbound call` process each. hyperfine subtracts the
    # shell's start-up time. Reference: rg's first 10 lines of output, in rg's (unstable) order.
    echo "== mutex_lock pages through rootbound call" >&2
    call=("$bin" call grep_search)
    page1='{"pattern":"mutex_lock","limit":10}'
    cursor=""
    for _ in $(seq 1 99); do
        if [ -z "$cursor" ]; then
            args="$page1"
        else
            args="$(jq -cn --arg c "$cursor" '{pattern: "mutex_lock", limit: 10, cursor: $c}')"
        fi
        cursor="$("${call[@]}" "$args" --root "$corpus" | jq -r '.next_cursor')"
    done
    page100c="$(jq -cn --arg c "$cursor" '{pattern: "mutex_lock", limit: 10, cursor: $c}')"
    page100o='{"pattern":"mutex_lock","limit":10,"offset":990}'
    same="$(
        diff -q <("${call[@]}" "$page100c" --root "$corpus" | jq -r .matches) \
            <("${call[@]}" "$page100o" --root "$corpus" | jq -r .matches) >/dev/null && echo yes || echo NO
    )"
    json="$out/mutex_lock_pages.json"
    wait_quiet
    l0="$(load)"
    warm
    (cd "$corpus" && hyperfine --warmup 3 --runs $((runs * 6)) --output=pipe --ignore-failure --style basic \
        --export-json "$json" \
        -n page1 "$(quote "${call[@]}" "$page1" --root "$corpus")" \
        -n page100_cursor "$(quote "${call[@]}" "$page100c" --root "$corpus")" \
        -n page100_offset "$(quote "${call[@]}" "$page100o" --root "$corpus")" \
        -n rg_head10 "rg -n mutex_lock | head -n 10" >&2)
    p1="$(median "$json" page1)"
    say "### mutex_lock, 10 per page, one process per call (medians in ms; load $l0)"
    say ""
    say "| command | median ms | ratio to page 1 |"
    say "|---|---|---|"
    for n in page1 page100_cursor page100_offset rg_head10; do
        t="$(median "$json" "$n")"
        say "| $n | $(LC_ALL=C awk -v x="$t" 'BEGIN { printf "%.1f", x * 1000 }') | $(ratio "$t" "$p1") |"
    done
    say ""
    say "page 100 by cursor and by offset hold the same lines: $same"
    say ""
fi

if [ "$memory_only" = 0 ] && [ "$pages_only" = 0 ]; then
    # Match-heavy queries (issue 16): every `static` in drivers/, `-c static` on one 200 MB file (the
    # first 200 MB of drivers/**/*.c concatenated, made once next to the corpus), `-o` and `--json`
    # (rg's JSON Lines messages; their `elapsed` fields differ by nature) over the drivers tree. rg runs with --sort path (rootbound's order; it makes rg single-threaded for the
    # walk, as rootbound's order makes its walk sequential).
    echo "== match-heavy queries" >&2
    big="$(dirname "$corpus")/big/big.txt"
    if [ ! -f "$big" ]; then
        mkdir -p "$(dirname "$big")"
        (cd "$corpus" && find drivers -name '*.c' -print0 | sort -z | xargs -0 cat | head -c 200000000 >"$big") || true
    fi
    json="$out/match_heavy.json"
    wait_quiet
    l0="$(load)"
    warm
    (cd "$corpus" && hyperfine --warmup 1 --runs "$runs" --output=pipe --style basic --export-json "$json" \
        -n rb_static "$(quote "$bin" grep -n static drivers)" \
        -n rg_static "rg -n --sort path static drivers" \
        -n rb_count_big "$(quote "$bin" grep -c static "$big")" \
        -n rg_count_big "$(quote rg -c static "$big")" \
        -n rb_only "$(quote "$bin" grep -n -o 'static \w+' drivers)" \
        -n rg_only "rg -n --sort path -o 'static \w+' drivers" \
        -n rb_json "$(quote "$bin" grep --json static drivers)" \
        -n rg_json "rg --json --sort path static drivers" >&2)
    say "### match-heavy queries (medians in s; load $l0)"
    say ""
    say "| query | rootbound | rg | ratio |"
    say "|---|---|---|---|"
    for q in static count_big only json; do
        a="$(median "$json" "rb_$q")"
        b="$(median "$json" "rg_$q")"
        say "| $q | $(fmt "$a") | $(fmt "$b") | $(ratio "$a" "$b") |"
    done
    say ""
fi

say "- load average at end (1/5/15 min): $(load)"
say "- JSON exports and this table: $out"
[ "$count_ok" = 1 ] || {
    echo "compare.sh: rootbound and rg disagree on a line count (see the table)" >&2
    exit 1
}
