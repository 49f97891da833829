#!/bin/sh
# Offline, exact simulation of candidate pruning (issue 39's median rows): for the 24 queries of
# benches/index_agent_queries.py, the candidate files (and the non-matching ones) under several
# unit sizes, position-mask moduli and line masks, and the postings each unit size costs.
# See src/index/prune_sim.rs. Usage: benches/index_prune_sim.sh ROOT OUT_DIR
# (ROOT: a copy of the tree; OUT_DIR gets the inputs, sim.out, postings.out and notes.tsv).
set -eu
root=$1
out=$2
mkdir -p "$out/truth"
here=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && rg --files | sort) > "$out/files.txt"
# The queries and rg's answers (ground truth), as index_agent_queries.py asks them.
python3 - "$here/benches/index_agent_queries.py" "$root" "$out" <<'PY'
import importlib.util, subprocess, sys
spec = importlib.util.spec_from_file_location("q", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
root, out = sys.argv[2], sys.argv[3]
with open(f"{out}/queries.tsv", "w") as tsv:
    for i, (p, ci) in enumerate(m.QUERIES):
        args = ["rg", "-l"] + (["-i"] if ci else []) + ["-e", p]
        r = subprocess.run(args, cwd=root, capture_output=True, stdin=subprocess.DEVNULL)
        files = sorted(l[2:] if l.startswith("./") else l
                       for l in r.stdout.decode(errors="replace").splitlines())
        with open(f"{out}/truth/{i}.txt", "w") as f:
            f.write("\n".join(files) + "\n")
        tsv.write(f"{i}\t{int(ci)}\t{p}\n")
PY
cd "$here"
export IXSIM_ROOT="$root" IXSIM_FILES="$out/files.txt" IXSIM_QUERIES="$out/queries.tsv" \
    IXSIM_TRUTH="$out/truth" IXSIM_WHY=10,13,19 IXSIM_NOTES="$out/notes.tsv"
nice -n 5 cargo test --release --lib index::prune_sim::tests::prune_sim -- --exact --ignored \
    --nocapture > "$out/sim.out"
nice -n 5 cargo test --release --lib index::prune_sim::tests::prune_sim_postings -- --exact --ignored \
    --nocapture > "$out/postings.out"
cat "$out/sim.out" "$out/postings.out"
