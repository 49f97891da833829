#!/usr/bin/env bash
# Calls every tool of every profile through the MCP Inspector's CLI mode with numeric and boolean
# arguments (sent as key=value, as a person types them). Not run by CI (the Inspector is a large npm
# download); the recorded run is in docs/dialects.md.
# Usage: tests/js/inspector_run.sh PATH/TO/rootbound   (needs `npx @modelcontextprotocol/inspector`)
set -u
BIN=$1
T=$(mktemp -d); R=$T/root; W=$T/out
mkdir -p "$R/sub" "$W"
printf 'one\ntwo needle\nthree\n' > "$R/a.txt"; printf 'fn needle() {}\n' > "$R/sub/b.rs"
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' > "$R/img.png"; printf 'x\n' > "$W/e.txt"
R=$(realpath "$R"); W=$(realpath "$W")
pass=0; fail=0
run() { # profile tool args...
  local p=$1 t=$2; shift 2
  local a=(); for kv in "$@"; do a+=(--tool-arg "$kv"); done
  out=$(npx -y @modelcontextprotocol/inspector --cli "$BIN" mcp --profile "$p" --root "$R" --root "$W" \
        --write-root "$W" --allow-overwrite --method tools/call --tool-name "$t" "${a[@]}" 2>&1)
  if echo "$out" | grep -q '"isError": true' || ! echo "$out" | grep -q '"content"'; then
    fail=$((fail+1)); echo "FAIL $p $t $*"; echo "$out" | head -5
  else pass=$((pass+1)); echo "ok   $p $t $*"; fi
}
run rootbound read_file path=a.txt offset=0 limit=5
run rootbound read_file path=a.txt start_line=2 max_lines=1 line_numbers=true
run rootbound grep_search pattern=needle limit=1 case_insensitive=true
run rootbound glob pattern='*.rs' limit=10 hidden=false
run rootbound list_dir path=. limit=10 no_ignore=true
run rootbound stat path=a.txt
run rootbound read_many_files 'paths=["a.txt","sub/b.rs"]' max_bytes=100
run rootbound directory_tree path=. max_depth=2 hidden=true
run rootbound list_roots
run rootbound read_media_file path=img.png
run rootbound write_file path=w.txt content=hi overwrite=true
run rootbound edit_file path=e.txt old_string=x new_string=y dry_run=true
run rootbound create_directory path=d
run rootbound move_file source=w.txt destination=d/w.txt overwrite=false
run claude-code Read file_path="$R/a.txt" offset=2 limit=1
run claude-code Grep pattern=NEEDLE -i=true -n=true -C=1 head_limit=5 offset=0 output_mode=content multiline=false
run claude-code Glob pattern='**/*.rs' path="$R"
run claude-code Write file_path="$W/c.txt" content=hello
run claude-code Edit file_path="$W/c.txt" old_string=hello new_string=bye replace_all=true
run gemini-cli read_file file_path="$R/a.txt" start_line=1 end_line=2
run gemini-cli read_many_files 'include=["*.txt"]' recursive=true useDefaultExcludes=false
run gemini-cli grep_search pattern=needle case_sensitive=true total_max_matches=5 context=1 names_only=false
run gemini-cli glob pattern='*.rs' respect_git_ignore=false case_sensitive=false
run gemini-cli list_directory dir_path="$R"
run gemini-cli write_file file_path="$W/g.txt" content=a
run gemini-cli replace file_path="$W/g.txt" old_string=a new_string=b allow_multiple=false
run mcp-filesystem read_text_file path="$R/a.txt" head=2
run mcp-filesystem read_file path="$R/a.txt" tail=1
run mcp-filesystem read_media_file path="$R/img.png"
run mcp-filesystem read_multiple_files "paths=[\"$R/a.txt\"]"
run mcp-filesystem write_file path="$W/m.txt" content=one
run mcp-filesystem edit_file path="$W/m.txt" 'edits=[{"oldText":"one","newText":"two"}]' dryRun=true
run mcp-filesystem create_directory path="$W/dd"
run mcp-filesystem list_directory path="$R"
run mcp-filesystem list_directory_with_sizes path="$R" sortBy=size
run mcp-filesystem directory_tree path="$R" 'excludePatterns=["*.png"]'
run mcp-filesystem move_file source="$W/m.txt" destination="$W/dd/m.txt"
run mcp-filesystem search_files path="$R" pattern='**/*.txt'
run mcp-filesystem get_file_info path="$R/a.txt"
run mcp-filesystem list_allowed_directories
echo "passed=$pass failed=$fail"
rm -rf "$T"
[ "$fail" = 0 ]
