#!/usr/bin/env bash
# Document extraction throughput (BENCHMARKS.md, section 5): rootbound vs the Python reference
# libraries (python-pptx, python-docx, openpyxl, nbformat) and pdftotext on the same files, same run;
# then grep_search documents:true over 1,000 generated documents vs extracting them all with the
# references. Needs hyperfine, pdftotext, and .venv with the reference libraries (see .ci/run).
#
#   benches/documents.sh [WORKDIR]      (default: a new temp dir; release build of rootbound)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
py=$repo/.venv/bin/python
ref=$repo/tests/documents_ref.py
w=${1:-$(mktemp -d)}
mkdir -p "$w/files" "$w/tree"
[ -n "${NO_BUILD:-}" ] || cargo build --release -q
rb=$repo/target/release/rootbound

echo "== fixtures in $w"
[ -f "$w/files/deck.pptx" ] || "$py" "$ref" gen "$w/files"
[ -f "$w/files/big.pdf" ] || "$py" "$ref" big "$w/files"
[ -d "$w/tree/d9" ] || "$py" "$ref" tree "$w/tree" 1000
ls -la "$w/files" | grep -v ref.txt

echo "== one file each: wall time of one process (hyperfine, process start included)"
cd "$w/files"
for f in deck.pptx big.pptx doc.docx book.xlsx nb.ipynb; do
  hyperfine -N --warmup 1 --runs 5 --style basic \
    -n "rootbound $f" "$rb call --root . read_file '{\"path\":\"$f\",\"max_lines\":1}'" \
    -n "python $f" "$py $ref extract $f" 2>&1 | grep -E "Time|±|faster|rootbound|python" || true
done
for f in paper.pdf big.pdf; do
  hyperfine -N --warmup 1 --runs 5 --style basic \
    -n "rootbound $f" "$rb call --root . read_file '{\"path\":\"$f\",\"max_lines\":1}'" \
    -n "pdftotext $f" "pdftotext -enc UTF-8 $f /dev/null" 2>&1 | grep -E "Time|±|faster|rootbound|pdftotext" || true
done
echo "== the reference libraries' own time, in-process (import excluded), seconds"
for f in deck.pptx big.pptx doc.docx book.xlsx nb.ipynb; do
  echo "$f: $("$py" "$ref" extract "$f")"
done

echo "== grep documents:true over the tree of 1,000 documents"
cd "$w/tree"
n=$(find . -type f | wc -l)
echo "files: $n ($(du -sh . | cut -f1))"
hyperfine -N --warmup 1 --runs 5 --style basic \
  -n "rootbound grep --documents -c" "$rb grep --documents -c point ." 2>&1 | grep -E "Time|±" || true
echo "references, extracting every file once (python libraries in one process + one pdftotext per PDF):"
start=$(date +%s.%N)
find . -type f ! -name '*.pdf' -print0 | xargs -0 "$py" "$ref" extract > /dev/null
find . -type f -name '*.pdf' -print0 | xargs -0 -I{} pdftotext -enc UTF-8 {} /dev/null
end=$(date +%s.%N)
echo "references: $(echo "$end - $start" | bc) s"
