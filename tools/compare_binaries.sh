#!/usr/bin/env bash
# Runs the same tool calls through two rootbound binaries and diffs their outputs byte for byte.
#
#   tools/compare_binaries.sh OLD_BIN NEW_BIN
#
# Every tool, in its modes, on the bundled corpus (corpora/default) and on a generated tree with
# symlinks leading in and out, a denied name, a hard link, a FIFO and a non-UTF-8 name. The write
# tools run against a scratch copy made fresh for each binary at the same path, so the outputs (which
# name absolute paths) can be compared; the scratch tree's final state is compared too. Exit status 0
# when every output is identical, 1 otherwise (the differing calls are listed).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 OLD_BIN NEW_BIN" >&2
    exit 2
fi
OLD=$(realpath "$1")
NEW=$(realpath "$2")
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/rootbound-compare.XXXXXX)
# KEEP=1 keeps the outputs (their directory is printed) for inspection.
if [ -n "${KEEP:-}" ]; then echo "outputs in $WORK" >&2; else trap 'rm -rf "$WORK"' EXIT; fi

CORPUS="$WORK/corpus"
GEN="$WORK/gen"
OUTSIDE="$WORK/outside"
SCRATCH="$WORK/scratch"

cp -a "$REPO/corpora/default" "$CORPUS"

# The generated tree: read-only, shared by both binaries (so mtimes agree).
mkdir -p "$GEN/src/deep/deeper" "$GEN/docs" "$GEN/.git" "$GEN/secrets" "$OUTSIDE"
printf 'outside secret needle\n' >"$OUTSIDE/secret.txt"
printf 'fn main() {\n    let needle = 1;\n    println!("{}", needle);\n}\n' >"$GEN/src/main.rs"
printf 'pub fn helper() -> u32 {\n    42 // needle\n}\n' >"$GEN/src/lib.rs"
printf 'deep needle here\nsecond line\n' >"$GEN/src/deep/deeper/x.txt"
for i in $(seq 1 30); do printf 'line %d needle %d\nplain %d\n' "$i" "$i" "$i" >"$GEN/docs/n$i.md"; done
printf 'TOKEN=needle-secret\n' >"$GEN/.env"
printf 'key needle\n' >"$GEN/secrets/id.pem"
printf '[core]\n\tneedle = 1\n' >"$GEN/.git/config"
printf 'ignored.log\n' >"$GEN/.gitignore"
printf 'ignored needle\n' >"$GEN/ignored.log"
printf 'hidden needle\n' >"$GEN/.hidden.txt"
printf 'linked needle\n' >"$GEN/hard.txt"
ln "$GEN/hard.txt" "$GEN/hard2.txt"
mkfifo "$GEN/pipe"
ln -s src/main.rs "$GEN/link_in"
ln -s "$OUTSIDE/secret.txt" "$GEN/link_out"
ln -s ../outside "$GEN/link_out_rel"
ln -s .env "$GEN/link_to_env"
ln -s nowhere "$GEN/dangling"
ln -s src "$GEN/link_dir"
printf 'bad name needle\n' >"$GEN/$(printf 'bad\xffname.txt')"
printf 'new\nline needle\n' >"$GEN/$(printf 'nl\nname.txt')"
printf '\x00\x01binary needle\x00' >"$GEN/blob.bin"
printf 'a\r\nb needle\r\n' >"$GEN/crlf.txt"
: >"$GEN/empty.txt"

# A config file refusing hard links (no CLI flag for it): read roots $2..., write root $1 ("" for none).
hardlink_config() {
    local f=$1 write=$2
    shift 2
    {
        echo '[agents.a]'
        printf 'roots = [%s]\n' "$(printf '"%s",' "$@" | sed 's/,$//')"
        echo 'deny = [".env", "*.pem", ".git/"]'
        echo 'refuse_hardlinks = true'
        for t in read_file grep_search glob list_dir stat directory_tree read_many_files; do
            echo "[agents.a.tools.$t]"
        done
        if [ -n "$write" ]; then
            printf '[agents.a.write]\nroot = "%s"\nallow_overwrite = true\nallow_delete = true\n' "$write"
        fi
    } >"$f"
}
hardlink_config "$WORK/hard-read.toml" "" "$GEN"

make_scratch() {
    rm -rf "$SCRATCH"
    mkdir -p "$SCRATCH/sub/inner" "$SCRATCH/.git" "$SCRATCH/ro"
    printf 'hello world\nsecond line\nhello again\n' >"$SCRATCH/a.txt"
    printf 'keep\n' >"$SCRATCH/sub/b.txt"
    printf 'inner\n' >"$SCRATCH/sub/inner/c.txt"
    printf 'SECRET=1\n' >"$SCRATCH/.env"
    printf 'linked\n' >"$SCRATCH/hard.txt"
    ln "$SCRATCH/hard.txt" "$SCRATCH/hard2.txt"
    ln -s a.txt "$SCRATCH/link_a"
    ln -s "$OUTSIDE/secret.txt" "$SCRATCH/link_out"
    ln -s .env "$SCRATCH/link_env"
    mkfifo "$SCRATCH/pipe"
    printf 'mode\n' >"$SCRATCH/perm.txt"
    chmod 600 "$SCRATCH/perm.txt"
}

# Prints a deterministic description of the scratch tree: type, mode, link count and content.
dump_scratch() {
    (cd "$SCRATCH" && find . -print0 | sort -z | while IFS= read -r -d '' p; do
        if [ -L "$p" ]; then
            printf '%q L %s\n' "$p" "$(readlink "$p")"
        elif [ -f "$p" ]; then
            printf '%q F %s %s %s\n' "$p" "$(stat -c '%a %h' "$p")" "$(sha256sum <"$p" | cut -c1-16)" ""
        elif [ -d "$p" ]; then
            printf '%q D %s\n' "$p" "$(stat -c '%a' "$p")"
        else
            printf '%q O\n' "$p"
        fi
    done)
}

# The outputs of one binary go to $OUT/NNN-name (stdout, then stderr and the exit status).
N=0
call() {
    local bin=$1 name=$2 tool=$3 json=$4
    shift 4
    N=$((N + 1))
    local f
    f=$(printf '%s/%03d-%s' "$OUT" "$N" "$name")
    "$bin" call "$tool" "$json" --compact "$@" >"$f.out" 2>"$f.err"
    echo "exit $?" >>"$f.err"
    # Timings, if a result ever carries them.
    sed -i -E 's/"(elapsed|elapsed_ms|took_ms|duration_ms)":[0-9.]+/"\1":0/g' "$f.out"
}

# Follows a cursor once: calls again with the previous output's next_cursor, if any.
follow() {
    local bin=$1 name=$2 tool=$3 json=$4
    shift 4
    local prev
    prev=$(printf '%s/%03d-' "$OUT" "$N")*.out
    local cursor
    cursor=$(jq -r '.next_cursor // empty' $prev 2>/dev/null)
    if [ -n "$cursor" ]; then
        json=$(jq -c --arg c "$cursor" '. + {cursor: $c}' <<<"$json")
    fi
    call "$bin" "$name" "$tool" "$json" "$@"
}

run_reads() {
    local b=$1
    local C=(--root "$CORPUS")
    local G=(--root "$GEN" --deny .env --deny '*.pem' --deny '.git/')
    local GH=(--config "$WORK/hard-read.toml")
    # read_file in its modes.
    call "$b" rf-plain read_file '{"path":"docs.txt"}' "${C[@]}"
    call "$b" rf-lines read_file '{"path":"docs.txt","start_line":3,"max_lines":5}' "${C[@]}"
    call "$b" rf-head read_file '{"path":"docs.txt","head_lines":4}' "${C[@]}"
    call "$b" rf-tail read_file '{"path":"docs.txt","tail_lines":4}' "${C[@]}"
    call "$b" rf-bytes read_file '{"path":"docs.txt","offset":10,"limit":100}' "${C[@]}"
    call "$b" rf-raw read_file '{"path":"docs.txt","raw":true,"limit":200}' "${C[@]}"
    call "$b" rf-nonum read_file '{"path":"docs.txt","line_numbers":false,"max_lines":3}' "${C[@]}"
    call "$b" rf-bin read_file '{"path":"firmware.bin","limit":64}' "${C[@]}"
    call "$b" rf-missing read_file '{"path":"nope.txt"}' "${C[@]}"
    call "$b" rf-escape read_file '{"path":"../etc/passwd"}' "${C[@]}"
    call "$b" rf-abs read_file '{"path":"/etc/passwd"}' "${C[@]}"
    call "$b" rf-dir read_file '{"path":"kernel"}' "${C[@]}"
    for p in src/main.rs .env secrets/id.pem .git/config link_in link_out link_out_rel/secret.txt \
        link_to_env dangling pipe hard.txt 'bad\xffname.txt' blob.bin crlf.txt \
        empty.txt link_dir/lib.rs src/../.env ./.env; do
        call "$b" "rf-gen" read_file "$(jq -cn --arg p "$p" '{path:$p}')" "${G[@]}"
    done
    call "$b" rf-gen-hard read_file '{"path":"hard.txt"}' "${GH[@]}"
    call "$b" rf-gen-nosym read_file '{"path":"link_in"}' "${G[@]}" --no-symlinks
    call "$b" rf-gen-rel read_file '{"path":"src/lib.rs"}' "${G[@]}" --relative-paths

    # grep_search: every output mode, formats, options, pagination and cursors.
    for mode in content files_with_matches count files_without_match; do
        for fmt in text json; do
            for R in C G; do
                if [ $R = C ]; then set -- "${C[@]}"; else set -- "${G[@]}"; fi
                local j
                j=$(jq -cn --arg m "$mode" --arg f "$fmt" '{pattern:"needle|error|struct",output_mode:$m,output_format:$f,limit:3}')
                call "$b" "grep-$mode-$fmt-$R" grep_search "$j" "$@"
                follow "$b" "grep-$mode-$fmt-$R-c1" grep_search "$j" "$@"
                follow "$b" "grep-$mode-$fmt-$R-c2" grep_search "$j" "$@"
                j=$(jq -c '. + {offset:2}' <<<"$j")
                call "$b" "grep-$mode-$fmt-$R-off" grep_search "$j" "$@"
            done
        done
    done
    call "$b" grep-ctx grep_search '{"pattern":"needle","context":1,"limit":5}' "${G[@]}"
    call "$b" grep-ab grep_search '{"pattern":"static","before":2,"after":1,"limit":4}' "${C[@]}"
    call "$b" grep-ci grep_search '{"pattern":"NEEDLE","case_insensitive":true}' "${G[@]}"
    call "$b" grep-smart grep_search '{"pattern":"Needle","smart_case":true}' "${G[@]}"
    call "$b" grep-fixed grep_search '{"pattern":"a.b","fixed_strings":true}' "${C[@]}"
    call "$b" grep-word grep_search '{"pattern":"line","word":true,"limit":5}' "${G[@]}"
    call "$b" grep-linere grep_search '{"pattern":"plain 1","line_regexp":true}' "${G[@]}"
    call "$b" grep-inv grep_search '{"pattern":"needle","invert":true,"output_mode":"count"}' "${G[@]}"
    call "$b" grep-only grep_search '{"pattern":"need\\w+","only_matching":true,"limit":5}' "${G[@]}"
    call "$b" grep-multi grep_search '{"pattern":"needle = 1;\\n\\s+println","multiline":true}' "${G[@]}"
    call "$b" grep-patterns grep_search '{"patterns":["helper","deep"]}' "${G[@]}"
    call "$b" grep-hidden grep_search '{"pattern":"needle","hidden":true,"output_mode":"files_with_matches"}' "${G[@]}"
    call "$b" grep-noignore grep_search '{"pattern":"needle","no_ignore":true,"hidden":true,"output_mode":"files_with_matches"}' "${G[@]}"
    call "$b" grep-include grep_search '{"pattern":"needle","include":"*.rs"}' "${G[@]}"
    call "$b" grep-exclude grep_search '{"pattern":"needle","exclude":["docs/**"]}' "${G[@]}"
    call "$b" grep-type grep_search '{"pattern":"fn","type":"rust"}' "${G[@]}"
    call "$b" grep-depth grep_search '{"pattern":"needle","max_depth":1,"output_mode":"files_with_matches"}' "${G[@]}"
    call "$b" grep-maxcount grep_search '{"pattern":"needle","max_count":1,"limit":4}' "${G[@]}"
    call "$b" grep-maxbytes grep_search '{"pattern":"e","max_bytes":300}' "${C[@]}"
    call "$b" grep-path grep_search '{"pattern":"needle","path":"src"}' "${G[@]}"
    call "$b" grep-pathfile grep_search '{"pattern":"needle","path":"src/main.rs"}' "${G[@]}"
    call "$b" grep-pathdenied grep_search '{"pattern":"needle","path":".env"}' "${G[@]}"
    call "$b" grep-pathlink grep_search '{"pattern":"needle","path":"link_dir"}' "${G[@]}"
    call "$b" grep-pathout grep_search '{"pattern":"needle","path":"link_out"}' "${G[@]}"
    call "$b" grep-docs grep_search '{"pattern":"needle","documents":true,"output_mode":"count"}' "${G[@]}"
    call "$b" grep-filesize grep_search '{"pattern":"needle","max_filesize":20,"output_mode":"count"}' "${G[@]}"
    call "$b" grep-hard grep_search '{"pattern":"needle","output_mode":"files_with_matches"}' "${GH[@]}"
    call "$b" grep-badre grep_search '{"pattern":"("}' "${G[@]}"
    call "$b" grep-corpus-all grep_search '{"pattern":"[A-Z]{3}_[a-z]+","limit":20,"output_format":"json"}' "${C[@]}"

    # glob.
    for R in C G; do
        if [ $R = C ]; then set -- "${C[@]}"; else set -- "${G[@]}"; fi
        call "$b" "glob-all-$R" glob '{"pattern":"**/*","limit":7}' "$@"
        follow "$b" "glob-all-$R-c1" glob '{"pattern":"**/*","limit":7}' "$@"
        follow "$b" "glob-all-$R-c2" glob '{"pattern":"**/*","limit":7}' "$@"
        call "$b" "glob-off-$R" glob '{"pattern":"**/*","limit":5,"offset":3}' "$@"
        call "$b" "glob-hidden-$R" glob '{"pattern":"**","hidden":true,"no_ignore":true}' "$@"
        call "$b" "glob-sub-$R" glob '{"pattern":"*.rs","path":"src"}' "$@"
    done
    call "$b" glob-mtime glob '{"pattern":"**/*.md","sort":"modified","limit":50}' "${G[@]}"
    call "$b" glob-hard glob '{"pattern":"*.txt"}' "${GH[@]}"
    call "$b" glob-link glob '{"pattern":"*","path":"link_dir"}' "${G[@]}"

    # list_dir, directory_tree, stat, read_many_files.
    for R in C G; do
        if [ $R = C ]; then set -- "${C[@]}"; else set -- "${G[@]}"; fi
        call "$b" "ls-$R" list_dir '{}' "$@"
        call "$b" "ls-hidden-$R" list_dir '{"hidden":true,"no_ignore":true}' "$@"
        call "$b" "ls-page-$R" list_dir '{"limit":3,"offset":2}' "$@"
        call "$b" "tree-$R" directory_tree '{}' "$@"
        call "$b" "tree-opts-$R" directory_tree '{"max_depth":2,"hidden":true,"no_ignore":true,"max_entries":15}' "$@"
        call "$b" "tree-excl-$R" directory_tree '{"exclude":["docs"]}' "$@"
    done
    call "$b" ls-sub list_dir '{"path":"src"}' "${G[@]}"
    call "$b" ls-link list_dir '{"path":"link_dir"}' "${G[@]}"
    call "$b" ls-denied list_dir '{"path":".git"}' "${G[@]}"
    call "$b" ls-hard list_dir '{"hidden":true}' "${GH[@]}"
    call "$b" ls-rel list_dir '{"path":"src"}' "${G[@]}" --relative-paths
    call "$b" tree-sub directory_tree '{"path":"src"}' "${G[@]}"
    call "$b" tree-hard directory_tree '{"hidden":true}' "${GH[@]}"
    for p in "" src src/main.rs .env link_in link_out dangling pipe hard.txt link_dir nope; do
        call "$b" stat stat "$(jq -cn --arg p "$p" '{path:$p}')" "${G[@]}"
    done
    call "$b" stat-hard stat '{"path":"hard.txt"}' "${GH[@]}"
    call "$b" stat-corpus stat '{"path":"docs.txt"}' "${C[@]}"
    call "$b" many read_many_files '{"paths":["src/main.rs","src/lib.rs",".env","nope","pipe","link_out","docs/n1.md"]}' "${G[@]}"
    call "$b" many-glob read_many_files '{"paths":["docs/*.md"],"max_bytes":200}' "${G[@]}"
    call "$b" many-corpus read_many_files '{"paths":["docs.txt","kernel"]}' "${C[@]}"
    call "$b" roots list_roots '{}' "${G[@]}" --root "$CORPUS"
    call "$b" media read_media_file '{"path":"blob.bin"}' "${G[@]}"
    call "$b" multi-root grep_search '{"pattern":"needle","output_mode":"count"}' "${G[@]}" --root "$CORPUS"

    # The dialects' own tools (mcp-filesystem's search_files, get_file_info, ...).
    local M=(--profile mcp-filesystem "${G[@]}")
    call "$b" mcpfs-search search_files "$(jq -cn --arg p "$GEN" '{path:$p,pattern:"*.rs"}')" "${M[@]}"
    call "$b" mcpfs-info get_file_info "$(jq -cn --arg p "$GEN/src/main.rs" '{path:$p}')" "${M[@]}"
    call "$b" mcpfs-list list_directory "$(jq -cn --arg p "$GEN" '{path:$p}')" "${M[@]}"
    call "$b" mcpfs-sizes list_directory_with_sizes "$(jq -cn --arg p "$GEN" '{path:$p}')" "${M[@]}"
    call "$b" mcpfs-tree directory_tree "$(jq -cn --arg p "$GEN/src" '{path:$p}')" "${M[@]}"
    call "$b" mcpfs-read read_text_file "$(jq -cn --arg p "$GEN/src/lib.rs" '{path:$p,head:2}')" "${M[@]}"
    call "$b" mcpfs-many read_multiple_files "$(jq -cn --arg a "$GEN/src/lib.rs" --arg b "$GEN/.env" '{paths:[$a,$b]}')" "${M[@]}"
    call "$b" cc-grep Grep '{"pattern":"needle","output_mode":"content","-n":true,"head_limit":5}' --profile claude-code "${G[@]}"
    call "$b" cc-glob Glob '{"pattern":"**/*.rs"}' --profile claude-code "${G[@]}"
    call "$b" cc-read Read "$(jq -cn --arg p "$GEN/src/main.rs" '{file_path:$p,offset:2,limit:2}')" --profile claude-code "${G[@]}"
    call "$b" gem-ls list_directory "$(jq -cn --arg p "$GEN" '{dir_path:$p}')" --profile gemini-cli "${G[@]}"
    call "$b" codex-grep grep_files '{"pattern":"needle","limit":5}' --profile codex "${G[@]}"
    call "$b" codex-ls list_dir "$(jq -cn --arg p "$GEN" '{dir_path:$p,depth:2}')" --profile codex "${G[@]}"
    run_dialect_reads "$b"
    run_limits "$b"
}

# The dialect tools and options the calls above leave out.
run_dialect_reads() {
    local b=$1
    local G=(--root "$GEN" --deny .env --deny '*.pem' --deny '.git/')
    local M=(--profile mcp-filesystem "${G[@]}")
    local GC=(--profile gemini-cli "${G[@]}")
    call "$b" mcpfs-readfile read_file "$(jq -cn --arg p "$GEN/src/main.rs" '{path:$p,tail:2}')" "${M[@]}"
    call "$b" mcpfs-media read_media_file "$(jq -cn --arg p "$GEN/blob.bin" '{path:$p}')" "${M[@]}"
    call "$b" mcpfs-allowed list_allowed_directories '{}' "${M[@]}"
    call "$b" mcpfs-sizes-sort list_directory_with_sizes "$(jq -cn --arg p "$GEN/docs" '{path:$p,sortBy:"size"}')" "${M[@]}"
    call "$b" mcpfs-tree-excl directory_tree "$(jq -cn --arg p "$GEN" '{path:$p,excludePatterns:["docs","*.txt"]}')" "${M[@]}"
    call "$b" mcpfs-search-slash search_files "$(jq -cn --arg p "$GEN" '{path:$p,pattern:"**/*.rs",excludePatterns:["**/lib.rs"]}')" "${M[@]}"
    call "$b" mcpfs-outside read_text_file "$(jq -cn --arg p "$OUTSIDE/secret.txt" '{path:$p}')" "${M[@]}"
    call "$b" mcpfs-denied read_text_file "$(jq -cn --arg p "$GEN/.env" '{path:$p}')" "${M[@]}"
    call "$b" gem-read read_file "$(jq -cn --arg p "$GEN/src/main.rs" '{file_path:$p,start_line:2,end_line:3}')" "${GC[@]}"
    call "$b" gem-many read_many_files '{"include":["src/*.rs","docs/n1.md"]}' "${GC[@]}"
    call "$b" gem-grep grep_search "$(jq -cn --arg p "$GEN" '{pattern:"needle",dir_path:$p,include_pattern:"*.rs"}')" "${GC[@]}"
    call "$b" gem-grep-names grep_search '{"pattern":"NEEDLE","case_sensitive":false,"names_only":true,"total_max_matches":4}' "${GC[@]}"
    call "$b" gem-glob glob "$(jq -cn --arg p "$GEN/src" '{pattern:"**/*",dir_path:$p}')" "${GC[@]}"
    call "$b" gem-ls-ignore list_directory "$(jq -cn --arg p "$GEN" '{dir_path:$p,ignore:["*.md","src"]}')" "${GC[@]}"
    call "$b" codex-read read_file "$(jq -cn --arg p "$GEN/src/main.rs" '{file_path:$p,offset:2,limit:2}')" --profile codex "${G[@]}"
    call "$b" codex-read-indent read_file "$(jq -cn --arg p "$GEN/src/main.rs" '{file_path:$p,offset:2,mode:"indentation"}')" --profile codex "${G[@]}"
    call "$b" cc-grep-ctx Grep '{"pattern":"NEEDLE","-i":true,"-C":1,"output_mode":"content","head_limit":6}' --profile claude-code "${G[@]}"
    call "$b" cc-grep-files Grep '{"pattern":"needle","glob":"*.rs"}' --profile claude-code "${G[@]}"
}

# The policy's limit flags, each tight enough to bite, and the printer's --pretty.
run_limits() {
    local b=$1
    local C=(--root "$CORPUS")
    local G=(--root "$GEN" --deny .env --deny '*.pem' --deny '.git/')
    call "$b" lim-readbytes read_file '{"path":"docs.txt","offset":0,"limit":1000}' "${C[@]}" --max-read-bytes 50
    call "$b" lim-linechars read_file '{"path":"docs.txt","max_lines":3}' "${C[@]}" --max-line-chars 10
    call "$b" lim-pathlen read_file '{"path":"src/deep/deeper/x.txt"}' "${G[@]}" --max-path-len 8
    call "$b" lim-complen read_file '{"path":"src/deep/deeper/x.txt"}' "${G[@]}" --max-component-len 4
    call "$b" lim-bytes grep_search '{"pattern":"needle"}' "${G[@]}" --max-bytes 120
    call "$b" lim-results grep_search '{"pattern":"needle","limit":50}' "${G[@]}" --max-results 3
    call "$b" lim-entries list_dir '{"path":"docs","limit":50}' "${G[@]}" --max-list-entries 4
    call "$b" lim-patlen grep_search '{"pattern":"needle"}' "${G[@]}" --max-pattern-len 3
    call "$b" lim-filesize grep_search '{"pattern":"needle","output_mode":"count"}' "${G[@]}" --max-filesize 20
    call "$b" lim-columns grep_search '{"pattern":"static","limit":3}' "${C[@]}" --max-columns 12
    call "$b" lim-regex grep_search '{"pattern":"\\w{50}\\d{50}"}' "${C[@]}" --regex-size-limit 1000
    call "$b" lim-threads grep_search '{"pattern":"needle","output_mode":"count"}' "${G[@]}" --threads 1
    N=$((N + 1))
    local o
    o=$(printf '%s/%03d-pretty' "$OUT" "$N")
    "$b" call read_many_files '{"paths":["src/*.rs"]}' --pretty "${G[@]}" >"$o.out" 2>"$o.err"
    echo "exit $?" >>"$o.err"
    # Per-tool roots beside the agent's deny rules, and --agent picking one of two agents.
    {
        echo '[agents.bot]'
        printf 'roots = ["%s"]\n' "$GEN"
        echo 'deny = [".env", "*.pem", "/src/deep/", "src/lib.*"]'
        echo '[agents.bot.tools.read_file]'
        echo '[agents.bot.tools.grep_search]'
        printf 'roots = ["%s/src", "%s/docs"]\n' "$GEN" "$GEN"
        echo '[agents.bot.tools.glob]'
        printf 'roots = ["%s/src"]\n' "$GEN"
        echo '[agents.other]'
        printf 'roots = ["%s"]\n' "$CORPUS"
        echo '[agents.other.tools.list_dir]'
    } >"$WORK/tool-roots.toml"
    local T=(--config "$WORK/tool-roots.toml")
    call "$b" toolroots-read read_file '{"path":"src/deep/deeper/x.txt"}' "${T[@]}" --agent bot
    call "$b" toolroots-grep grep_search '{"pattern":"needle","output_mode":"files_with_matches","limit":50}' "${T[@]}" --agent bot
    call "$b" toolroots-glob glob '{"pattern":"**"}' "${T[@]}" --agent bot
    call "$b" agent-other list_dir '{}' "${T[@]}" --agent other
    call "$b" agent-other-off read_file '{"path":"docs.txt"}' "${T[@]}" --agent other
    # The read subcommand, for people.
    local p
    for p in "docs.txt --offset 10 --limit 80" "nope.txt" "../etc/passwd" "kernel"; do
        N=$((N + 1))
        local o
        o=$(printf '%s/%03d-cli-read' "$OUT" "$N")
        # shellcheck disable=SC2086
        "$b" read --root "$CORPUS" $p >"$o.out" 2>"$o.err"
        echo "exit $?" >>"$o.err"
    done
}

run_writes() {
    local b=$1
    make_scratch
    local W=(--root "$SCRATCH" --write-root "$SCRATCH" --deny .env --deny '.git/' --deny '*.pem')
    local WO=("${W[@]}" --allow-overwrite)
    local WD=("${WO[@]}" --allow-delete)
    hardlink_config "$WORK/hard-write.toml" "$SCRATCH" "$SCRATCH"
    local WH=(--config "$WORK/hard-write.toml")
    call "$b" w-new write_file '{"path":"new.txt","content":"fresh\n"}' "${W[@]}"
    call "$b" w-exists write_file '{"path":"a.txt","content":"x"}' "${W[@]}"
    call "$b" w-over-nopol write_file '{"path":"a.txt","content":"x","overwrite":true}' "${W[@]}"
    call "$b" w-over write_file '{"path":"perm.txt","content":"replaced\n","overwrite":true}' "${WO[@]}"
    call "$b" w-parents write_file '{"path":"made/by/write.txt","content":"deep"}' "${W[@]}"
    call "$b" w-b64 write_file '{"path":"b64.bin","content":"AAEC/w==","encoding":"base64"}' "${W[@]}"
    call "$b" w-denied write_file '{"path":".env","content":"x","overwrite":true}' "${WO[@]}"
    call "$b" w-gitfile write_file '{"path":".git","content":"x"}' "${W[@]}"
    call "$b" w-gitdir write_file '{"path":".git/hooks/pre-commit","content":"x"}' "${W[@]}"
    call "$b" w-pem write_file '{"path":"sub/k.pem","content":"x"}' "${W[@]}"
    call "$b" w-escape write_file '{"path":"../evil.txt","content":"x"}' "${W[@]}"
    call "$b" w-linkout write_file '{"path":"link_out","content":"x","overwrite":true}' "${WO[@]}"
    call "$b" w-linkenv write_file '{"path":"link_env","content":"x","overwrite":true}' "${WO[@]}"
    call "$b" w-linka write_file '{"path":"link_a","content":"x","overwrite":true}' "${WO[@]}"
    call "$b" w-hard write_file '{"path":"hard.txt","content":"x","overwrite":true}' "${WH[@]}"
    call "$b" w-dir write_file '{"path":"sub","content":"x","overwrite":true}' "${WO[@]}"
    call "$b" w-slash write_file '{"path":"sub/","content":"x"}' "${W[@]}"
    call "$b" w-dot write_file '{"path":"sub/.","content":"x"}' "${W[@]}"
    call "$b" w-fifo write_file '{"path":"pipe","content":"x","overwrite":true}' "${WO[@]}"
    call "$b" w-noroot write_file '{"path":"x.txt","content":"x"}' --root "$SCRATCH"
    call "$b" mk create_directory '{"path":"newdir/a/b"}' "${W[@]}"
    call "$b" mk-exists create_directory '{"path":"sub"}' "${W[@]}"
    call "$b" mk-file create_directory '{"path":"a.txt"}' "${W[@]}"
    call "$b" mk-denied create_directory '{"path":".git/x"}' "${W[@]}"
    call "$b" mk-escape create_directory '{"path":"../out"}' "${W[@]}"
    call "$b" ed-dry edit_file '{"path":"a.txt","old_string":"hello","new_string":"bye","dry_run":true}' "${WO[@]}"
    call "$b" ed-ambig edit_file '{"path":"a.txt","old_string":"hello","new_string":"bye"}' "${WO[@]}"
    call "$b" ed-one edit_file '{"path":"a.txt","old_string":"hello world","new_string":"bye world"}' "${WO[@]}"
    call "$b" ed-list edit_file '{"path":"a.txt","edits":[{"old_string":"second","new_string":"2nd"},{"old_string":"again","new_string":"once more"}]}' "${WO[@]}"
    call "$b" ed-miss edit_file '{"path":"a.txt","old_string":"absent","new_string":"x"}' "${WO[@]}"
    call "$b" ed-denied edit_file '{"path":".env","old_string":"SECRET","new_string":"x"}' "${WO[@]}"
    call "$b" ed-link edit_file '{"path":"link_a","old_string":"bye","new_string":"hi"}' "${WO[@]}"
    call "$b" ed-perm edit_file '{"path":"perm.txt","old_string":"replaced","new_string":"edited"}' "${WO[@]}"
    call "$b" ed-hard edit_file '{"path":"hard.txt","old_string":"linked","new_string":"x"}' "${WH[@]}"
    call "$b" ed-missing edit_file '{"path":"nope.txt","old_string":"a","new_string":"b"}' "${WO[@]}"
    call "$b" ed-fifo edit_file '{"path":"pipe","old_string":"a","new_string":"b"}' "${WO[@]}"
    call "$b" mv move_file '{"source":"new.txt","destination":"sub/moved.txt"}' "${W[@]}"
    call "$b" mv-exists move_file '{"source":"sub/moved.txt","destination":"a.txt"}' "${W[@]}"
    call "$b" mv-over move_file '{"source":"sub/moved.txt","destination":"b64.bin","overwrite":true}' "${WO[@]}"
    call "$b" mv-dir move_file '{"source":"newdir","destination":"sub/newdir2"}' "${W[@]}"
    call "$b" mv-denied-src move_file '{"source":".env","destination":"env.txt"}' "${W[@]}"
    call "$b" mv-denied-dst move_file '{"source":"perm.txt","destination":"x.pem"}' "${W[@]}"
    call "$b" mv-git move_file '{"source":"perm.txt","destination":".git"}' "${W[@]}"
    call "$b" mv-escape move_file '{"source":"perm.txt","destination":"../x"}' "${W[@]}"
    call "$b" mv-missing move_file '{"source":"nope","destination":"x"}' "${W[@]}"
    call "$b" mv-link move_file '{"source":"link_out","destination":"sub/lo"}' "${W[@]}"
    call "$b" mv-hard move_file '{"source":"hard.txt","destination":"h3.txt"}' "${WH[@]}"
    call "$b" mv-root move_file '{"source":"sub","destination":"ro/sub"}' --root "$SCRATCH/sub" --write-root "$SCRATCH"
    call "$b" mv-writeonly move_file '{"source":"b.txt","destination":"../b.txt"}' --root "$SCRATCH/ro" --write-root "$SCRATCH/sub"
    call "$b" rm-nopol delete_file '{"path":"perm.txt"}' "${WO[@]}"
    call "$b" rm delete_file '{"path":"perm.txt"}' "${WD[@]}"
    call "$b" rm-dir delete_file '{"path":"sub"}' "${WD[@]}"
    call "$b" rm-denied delete_file '{"path":".env"}' "${WD[@]}"
    call "$b" rm-link delete_file '{"path":"link_out"}' "${WD[@]}"
    call "$b" rm-missing delete_file '{"path":"nope"}' "${WD[@]}"
    call "$b" rm-hard delete_file '{"path":"hard2.txt"}' "${WH[@]}"
    call "$b" rm-fifo delete_file '{"path":"pipe"}' "${WD[@]}"
    # A stale temporary file of an interrupted write is swept by the next write where deletes are allowed.
    printf 'stale\n' >"$SCRATCH/.rootbound-tmp-1-1"
    touch -d '2000-01-01' "$SCRATCH/.rootbound-tmp-1-1"
    call "$b" w-sweep write_file '{"path":"after-sweep.txt","content":"x"}' "${WD[@]}"
    call "$b" cc-write Write "$(jq -cn --arg p "$SCRATCH/cc.txt" '{file_path:$p,content:"cc"}')" --profile claude-code "${W[@]}"
    call "$b" cc-edit Edit "$(jq -cn --arg p "$SCRATCH/cc.txt" '{file_path:$p,old_string:"cc",new_string:"dd"}')" --profile claude-code "${WO[@]}"
    call "$b" gem-replace replace "$(jq -cn --arg p "$SCRATCH/cc.txt" '{file_path:$p,old_string:"dd",new_string:"ee"}')" --profile gemini-cli "${WO[@]}"
    call "$b" mcpfs-mkdir create_directory "$(jq -cn --arg p "$SCRATCH/fs/a" '{path:$p}')" --profile mcp-filesystem "${W[@]}"
    call "$b" mcpfs-edit edit_file "$(jq -cn --arg p "$SCRATCH/cc.txt" '{path:$p,edits:[{oldText:"ee",newText:"ff"}],dryRun:true}')" --profile mcp-filesystem "${WO[@]}"
    printf 'x y x y x\n' >"$SCRATCH/rep.txt"
    call "$b" ed-count edit_file '{"path":"rep.txt","old_string":"x","new_string":"z","expected_replacements":2}' "${WO[@]}"
    call "$b" ed-count3 edit_file '{"path":"rep.txt","old_string":"x","new_string":"z","expected_replacements":3}' "${WO[@]}"
    call "$b" ed-all edit_file '{"path":"rep.txt","old_string":"y","new_string":"w","replace_all":true}' "${WO[@]}"
    call "$b" cc-edit-all Edit "$(jq -cn --arg p "$SCRATCH/rep.txt" '{file_path:$p,old_string:"z",new_string:"q",replace_all:true}')" --profile claude-code "${WO[@]}"
    call "$b" gem-write write_file "$(jq -cn --arg p "$SCRATCH/gem.txt" '{file_path:$p,content:"one\ntwo two\n"}')" --profile gemini-cli "${WO[@]}"
    call "$b" gem-replace-multi replace "$(jq -cn --arg p "$SCRATCH/gem.txt" '{file_path:$p,old_string:"two",new_string:"2",allow_multiple:true,instruction:"number"}')" --profile gemini-cli "${WO[@]}"
    call "$b" mcpfs-write write_file "$(jq -cn --arg p "$SCRATCH/fs/w.txt" '{path:$p,content:"alpha\nbeta\n"}')" --profile mcp-filesystem "${WO[@]}"
    call "$b" mcpfs-edit-real edit_file "$(jq -cn --arg p "$SCRATCH/fs/w.txt" '{path:$p,edits:[{oldText:"beta",newText:"gamma"}]}')" --profile mcp-filesystem "${WO[@]}"
    call "$b" mcpfs-move move_file "$(jq -cn --arg s "$SCRATCH/fs/w.txt" --arg d "$SCRATCH/fs/a/w2.txt" '{source:$s,destination:$d}')" --profile mcp-filesystem "${WO[@]}"
    call "$b" mcpfs-write-out write_file "$(jq -cn --arg p "$OUTSIDE/x.txt" '{path:$p,content:"x"}')" --profile mcp-filesystem "${WO[@]}"
    N=$((N + 1))
    dump_scratch >"$(printf '%s/%03d-final-tree.out' "$OUT" "$N")"
}

# One MCP session: every tool of the rootbound surface once, as a client sees it (the rendered text
# blocks and the structured results), responses sorted by id.
mcp_session() {
    local bin=$1
    N=$((N + 1))
    local f
    f=$(printf '%s/%03d-mcp-session' "$OUT" "$N")
    make_scratch
    # A binary that indexes by default serves this session without one, as binaries before that
    # default do: an index built in the background makes the stats depend on when it is ready.
    local noindex=()
    if "$bin" mcp --help | grep -q -- --no-index; then noindex=(--no-index); fi
    local calls=(
        '"grep_search",{"pattern":"needle","limit":3}'
        '"grep_search",{"pattern":"needle","output_mode":"count"}'
        '"glob",{"pattern":"*.md","limit":4}'
        '"read_file",{"path":"src/main.rs"}'
        '"list_dir",{"path":"src"}'
        '"stat",{"path":"src/lib.rs"}'
        '"read_many_files",{"paths":["src/*.rs"]}'
        '"directory_tree",{"path":"src"}'
        '"list_roots",{}'
        '"write_file",{"path":"mcp.txt","content":"one\ntwo\n"}'
        '"edit_file",{"path":"mcp.txt","old_string":"two","new_string":"three"}'
        '"create_directory",{"path":"mcpdir"}'
        '"move_file",{"source":"mcp.txt","destination":"mcpdir/mcp.txt"}'
        '"delete_file",{"path":"mcpdir/mcp.txt"}'
        '"read_file",{"path":"nope.txt"}'
    )
    {
        echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"compare","version":"1"}}}'
        echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
        echo '{"jsonrpc":"2.0","id":"list","method":"tools/list"}'
        local i=0
        for c in "${calls[@]}"; do
            i=$((i + 1))
            printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%s,"arguments":%s}}\n' \
                "$i" "${c%%,*}" "${c#*,}"
            # One at a time: the write calls depend on each other.
            sleep 0.2
        done
        sleep 0.5
    } | (cd "$GEN" && timeout 60 "$bin" mcp --root "$GEN" --root "$SCRATCH" --deny .env --deny '*.pem' --deny .git/ \
        --write-root "$SCRATCH" --allow-overwrite --allow-delete "${noindex[@]}" 2>"$f.err") |
        jq -cS . | sort >"$f.out"
    echo "exit ${PIPESTATUS[1]}" >>"$f.err"
}

# The command line's rg-style search (the hit stream, not the agent page): run in the tree, as a
# person would, with the printers' main modes.
run_cli_grep() {
    local b=$1 dir flags o p
    local cases=(
        "P" "-n P" "-c P" "-l P" "--files-without-match P" "-o -n P" "-C1 -n P" "--json P"
        "-i -w P" "-v -c P" "--vimgrep P" "-r X P" "--null -l P" "-uu -n P" "--hidden -g *.md P"
        "-e P -e line --column" "-F -x P" "--count-matches P" "--files" "-n -U P.*\n.*"
    )
    for dir in "$GEN" "$CORPUS"; do
        # A pattern each tree holds.
        p=needle
        [ "$dir" = "$CORPUS" ] && p=static
        for flags in "${cases[@]}"; do
            flags=${flags//P/$p}
            N=$((N + 1))
            o=$(printf '%s/%03d-cli-grep' "$OUT" "$N")
            # shellcheck disable=SC2086
            (cd "$dir" && "$b" grep --sort path $flags) >"$o.out" 2>"$o.err"
            echo "exit $?" >>"$o.err"
            # --json summaries carry timings.
            sed -i -E 's/"(elapsed|secs|nanos|human)":("[^"]*"|[0-9.]+)/"\1":0/g' "$o.out"
        done
    done
}

# The tool listings: every profile in every vendor shape, under policies that offer different tools
# and descriptions (no write root; a write root; overwrite and delete; a write root nobody reads).
run_schemas() {
    local b=$1 p f i=0
    local policies=(
        "--root $CORPUS"
        "--root $SCRATCH --write-root $SCRATCH"
        "--root $SCRATCH --write-root $SCRATCH --allow-overwrite --allow-delete --max-write-bytes 99"
        "--root $CORPUS --write-root $SCRATCH --allow-overwrite"
    )
    for p in rootbound claude-code gemini-cli mcp-filesystem codex; do
        for f in openai openai-strict anthropic gemini mcp; do
            for i in 0 1 2 3; do
                N=$((N + 1))
                local o
                o=$(printf '%s/%03d-schema-%s-%s-%d' "$OUT" "$N" "$p" "$f" "$i")
                # shellcheck disable=SC2086
                "$b" schema --profile "$p" --format "$f" ${policies[$i]} >"$o.out" 2>"$o.err"
                echo "exit $?" >>"$o.err"
            done
        done
    done
}

run_all() {
    OUT=$1
    mkdir -p "$OUT"
    # A saved index lives in $XDG_CACHE_HOME/rootbound: each binary gets its own, so no run writes the
    # user's cache and neither binary loads an index the other saved.
    export XDG_CACHE_HOME="$OUT.cache"
    N=0
    run_reads "$2"
    run_writes "$2"
    make_scratch
    run_schemas "$2"
    run_cli_grep "$2"
    mcp_session "$2"
}

run_all "$WORK/out-old" "$OLD"
run_all "$WORK/out-new" "$NEW"

count=$(find "$WORK/out-old" -name '*.out' | wc -l)
if diff -r "$WORK/out-old" "$WORK/out-new" >"$WORK/diff.txt"; then
    echo "identical: $count calls (stdout, stderr and exit status of each) on corpus, generated tree and scratch writes"
    exit 0
fi
echo "DIFFERENT outputs:"
cat "$WORK/diff.txt"
exit 1
