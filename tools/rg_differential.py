#!/usr/bin/env python3
"""Randomized differential testing: `rootbound grep` vs ripgrep 13 (`rg`).

Each case writes a small random tree (CRLF, missing final newlines, NUL bytes, non-UTF-8 bytes,
ignore files), picks a pattern and up to four rg flags, runs `rg --no-config --sort path` and
`rootbound grep` with them in the tree, and compares stdout and the exit code (JSON timings and
`--stats` seconds left out). A difference is minimized (flags, files, contents) and written as one
JSON line. Not part of the test suite: a tool for finding differences to port into
tests/frontends/cli_grep.rs.

    python3 tools/rg_differential.py [SEED] [SECONDS] [MAX_FINDINGS]

Environment: ROOTBOUND_BIN (default target/release/rootbound), RG_DIFF_DIR (work directory and
findings.jsonl; default a new temporary directory). `known()` and `covered()` skip the deliberate
differences (README, docs/frontends.md) and rg 13's own quirks; `RG_DIFF_ALL=1` turns `covered()` off.
"""
import json, os, random, shutil, subprocess, sys, tempfile, time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RB = os.environ.get("ROOTBOUND_BIN", os.path.join(REPO, "target", "release", "rootbound"))
RG = "rg"
BASE = os.environ.get("RG_DIFF_DIR") or tempfile.mkdtemp(prefix="rg-diff-")
OUT = os.path.join(BASE, "findings.jsonl")

ENV = {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}

LINES = [b"foo", b"bar", b"baz", b"Foo", b"qux", b"foo bar", b"bar foo baz",
         b"", b"", b"  foo", b"\tbar baz", b"  ", b"xfoox", b"foofoo", b"FOO",
         b"fo", b"oo", b"foo_bar", b"qux Foo", b"o", b"bar\tqux"]
RARE = [b"fo\x00o", b"\x00", "Δέλτα foo".encode(), "caf\u00e9 bar".encode(),
        b"b\xffar", b"\xff", "FOO Δ".encode()]

NAMES = ["a.txt", "b.md", "c.rs", "sub/d.txt", "sub/deep/e.txt", ".hidden.txt",
         "sub/f.log", "g.txt", "sub/.h.txt"]
IGN = [b"*.md\n", b"sub/deep\n", b"b*\n", b"*.log\n", b"!a.txt\n*.txt\n", b"d.txt\n"]

PATTERNS = ["foo", "bar", "Foo", "foo|bar", "^foo", "o$", r"\bfoo\b", "fo+", "x*",
            "(?i)FOO", r"foo\nbar", r"\s+", ".", "baz", "qux", "FOO", "o", "^", "$",
            r"^\s*$", "Δ", "é", r"a\b", "oo"]

# each flag is a tuple of argv items
FLAGS = [("-n",), ("-N",), ("-i",), ("-S",), ("-s",), ("-w",), ("-x",), ("-v",),
         ("-o",), ("-c",), ("--count-matches",), ("-l",), ("--files-without-match",),
         ("-H",), ("--no-filename",), ("--heading",), ("--no-heading",), ("--column",),
         ("-b",), ("-C1",), ("-A1",), ("-B2",), ("-m1",), ("-m2",), ("--passthru",),
         ("-U",), ("--multiline-dotall",), ("--crlf",), ("--null-data",), ("--trim",),
         ("-M10",), ("--max-columns-preview",), ("-r", "X"), ("-r$0$0",), ("--vimgrep",),
         ("--json",), ("--stats",), ("-a",), ("--binary",), ("-0",), ("--null",),
         ("--include-zero",), ("--color=always",), ("--no-ignore",), ("--hidden",),
         ("-uu",), ("-g", "*.txt"), ("-g", "!sub/**"), ("-t", "txt"),
         ("--max-depth", "1"), ("--sort", "path")]

PATHS = [None] * 6 + [".", "sub", "a.txt", "sub/d.txt", "./sub", "sub/", "a.txt sub"]


def gen_line(rng):
    if rng.random() < 0.06:
        return rng.choice(RARE)
    return rng.choice(LINES)


def gen_file(rng):
    n = rng.randint(0, 6)
    lines = [gen_line(rng) for _ in range(n)]
    eol = b"\r\n" if rng.random() < 0.2 else b"\n"
    data = eol.join(lines)
    if lines and rng.random() < 0.8:
        data += eol
    return data


def gen_tree(rng):
    files = {}
    k = rng.randint(2, 6)
    names = rng.sample(NAMES, k)
    if "a.txt" not in names and rng.random() < 0.5:
        names[0] = "a.txt"
    for nm in names:
        files[nm] = gen_file(rng)
    if rng.random() < 0.25:
        files[rng.choice([".gitignore", ".ignore", "sub/.ignore"])] = rng.choice(IGN)
        if rng.random() < 0.5:
            files[".git/HEAD"] = b"ref: refs/heads/master\n"
    return files


def write_tree(d, files):
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for nm, data in files.items():
        p = os.path.join(d, nm)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def strip_elapsed(o):
    if isinstance(o, dict):
        return {k: strip_elapsed(v) for k, v in o.items() if k not in ("elapsed", "elapsed_total")}
    if isinstance(o, list):
        return [strip_elapsed(v) for v in o]
    return o


def normalize(out, flags):
    flat = [a for f in flags for a in f]
    if "--json" in flat:
        res = []
        for ln in out.split(b"\n"):
            try:
                res.append(json.dumps(strip_elapsed(json.loads(ln)), sort_keys=True).encode())
            except Exception:
                res.append(ln)
        out = b"\n".join(res)
    if "--stats" in flat:
        out = b"\n".join(l for l in out.split(b"\n")
                         if not (l.endswith(b"seconds") or l.endswith(b"seconds spent searching")))
    return out


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=ENV, timeout=10)
        return p.stdout, p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return b"<TIMEOUT>", -999, b""


def argv(flags, pattern, path):
    args = [a for f in flags for a in f]
    rest = [pattern] + (path.split() if path else [])
    # use "-e"-free form; pattern may start with '-'? never in our set
    return args, rest


def check(d, files, flags, pattern, path):
    """Return (differs, rg_result, rb_result) or None if skipped."""
    write_tree(d, files)
    args, rest = argv(flags, pattern, path)
    rg = run([RG, "--no-config", "--sort", "path"] + args + rest, d)
    if rg[1] == 2:
        return None
    rb = run([RB, "grep"] + args + rest, d)
    a = (normalize(rg[0], flags), rg[1])
    b = (normalize(rb[0], flags), rb[1])
    return (a != b, rg, rb)


def known(flags, pattern, files):
    flat = [a for f in flags for a in f]
    if "-U" in flat and "--passthru" in flat and ("-m1" in flat or "-m2" in flat):
        return True
    if "-U" in flat and "--vimgrep" in flat and pattern == "^":
        return True
    if "--null-data" in flat and "$" in pattern:
        return True
    if "--no-unicode" in flat:
        return True
    return False


# Skip root causes already known: rg 13 quirks rootbound does not copy, and engine differences.
COVER = os.environ.get("RG_DIFF_ALL") != "1"


def covered(flags, pattern, files, path):
    if not COVER:
        return False
    flat = [a for f in flags for a in f]
    has = lambda *xs: any(x in flat for x in xs)
    m = has("-m1", "-m2")
    if has("--stats", "--json") and m:
        return True
    if has("--null-data") and "^" in pattern:
        return True
    if has("-U") and m:
        return True
    if any(os.path.basename(k) in (".ignore", ".gitignore") for k in files) and path and "sub" in path:
        return True
    if m and has("-A1", "-B2", "-C1", "--passthru") and any(c in pattern for c in "^$\\"):
        return True
    if m and any(b"\0" in v for v in files.values()):
        return True
    # -w: rg 13 wraps the pattern in (^|\W)...(\W|$); grep-regex 0.1.14 (rg 14) uses half word
    # boundaries, which differ for patterns that match empty or non-word text.
    if has("-w") and pattern in ("x*", "^", "$", r"^\s*$", ".", r"\s+"):
        return True
    if has("-v") and has("-U") and has("-c", "--count-matches", "--files-without-match", "-l"):
        return True
    if has("-U") and has("-r", "-r$0$0") and "$" in pattern:
        return True
    if has("--stats") and has("--binary", "-a", "-uu") and any(b"\0" in v for v in files.values()):
        return True
    if "$" in pattern and has("--count-matches", "-o", "-r", "-r$0$0", "--vimgrep", "--json") and any(v and not v.endswith(b"\n") for v in files.values()):
        return True
    if has("-v") and has("-r", "-r$0$0") and has("-A1", "-B2", "-C1", "--passthru"):
        return True
    if has("-c") and has("-U"):
        return True
    if has("--crlf") and has("-U"):
        return True
    if has("-U") and has("-o", "--vimgrep", "--json", "--count-matches") and pattern in (r"^\s*$", "$", "^", "x*"):
        return True
    if has("--stats", "--json") and any(b"\0" in v for v in files.values()):
        return True
    if has("--max-columns-preview") and any(any(c > 127 for c in v) for v in files.values()):
        return True
    if has("-l", "--files-without-match") and any(b"\0" in v for v in files.values()):
        return True
    if has("-U") and has("-r", "-r$0$0"):
        return True
    if has("-v") and has("-o") and has("-A1", "-B2", "-C1", "--passthru"):
        return True
    if has("--null-data") and has("-x"):
        return True
    return False


def minimize(d, files, flags, pattern, path):
    def differs(fl, fs, pa):
        if known(fl, pattern, fs) or covered(fl, pattern, fs, pa):
            return False
        r = check(d, fs, fl, pattern, pa)
        return bool(r and r[0])
    changed = True
    while changed:
        changed = False
        for i in range(len(flags)):
            nf = flags[:i] + flags[i + 1:]
            if differs(nf, files, path):
                flags = nf; changed = True; break
    if path is not None:
        for np_ in [None, "."] + ([path.split()[0]] if " " in path else []):
            if np_ != path and differs(flags, files, np_):
                path = np_; break
    changed = True
    while changed:
        changed = False
        for nm in list(files):
            nfs = dict(files); del nfs[nm]
            if differs(flags, nfs, path):
                files = nfs; changed = True; break
    # shrink file contents: drop lines, then simplify bytes
    changed = True
    while changed:
        changed = False
        for nm in list(files):
            data = files[nm]
            parts = data.split(b"\n")
            for i in range(len(parts)):
                nd = b"\n".join(parts[:i] + parts[i + 1:])
                if nd != data and differs(flags, {**files, nm: nd}, path):
                    files = {**files, nm: nd}; changed = True; break
            if changed:
                break
            # try dropping single bytes
            for i in range(len(data)):
                nd = data[:i] + data[i + 1:]
                if differs(flags, {**files, nm: nd}, path):
                    files = {**files, nm: nd}; changed = True; break
            if changed:
                break
    # try renaming files to a.txt if single
    return flags, files, path


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else int(time.time())
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 600
    maxfind = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    rng = random.Random(seed)
    d = os.path.join(BASE, "t")
    os.makedirs(BASE, exist_ok=True)
    seen = set()
    if os.path.exists(OUT):
        for ln in open(OUT):
            seen.add(json.loads(ln)["key"])
    total = agree = skipped = ign = 0
    t0 = time.time()
    while time.time() - t0 < budget and len(seen) < maxfind + 100:
        files = gen_tree(rng)
        flags = rng.sample(FLAGS, rng.randint(0, 4))
        pattern = rng.choice(PATTERNS)
        if r"\n" in pattern and ("-U",) not in flags and rng.random() < 0.8:
            flags.append(("-U",))
        path = rng.choice(PATHS)
        r = check(d, files, flags, pattern, path)
        if r is None:
            skipped += 1
            continue
        total += 1
        if not r[0]:
            agree += 1
            continue
        if known(flags, pattern, files) or covered(flags, pattern, files, path):
            ign += 1
            continue
        mf, mfiles, mpath = minimize(d, files, flags, pattern, path)
        key = json.dumps(sorted(" ".join(f) for f in mf))
        rr = check(d, mfiles, mf, pattern, mpath)
        args, rest = argv(mf, pattern, mpath)
        rec = {"key": key, "flags": [" ".join(f) for f in mf], "pattern": pattern,
               "path": mpath, "files": {k: repr(v) for k, v in mfiles.items()},
               "rg_cmd": [RG, "--no-config", "--sort", "path"] + args + rest,
               "rb_cmd": ["rootbound", "grep"] + args + rest,
               "rg_out": repr(rr[1][0])[:400], "rg_rc": rr[1][1],
               "rb_out": repr(rr[2][0])[:400], "rb_rc": rr[2][1],
               "rb_err": repr(rr[2][2])[:300], "rg_err": repr(rr[1][2])[:300]}
        if key in seen:
            print("dup", key, flush=True)
            continue
        seen.add(key)
        with open(OUT, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print("NEW", json.dumps(rec, indent=1), flush=True)
        if len([1 for _ in open(OUT)]) >= maxfind:
            break
    print(f"seed={seed} total={total} agree={agree} skipped_rg2={skipped} known={ign} "
          f"elapsed={time.time()-t0:.0f}s", flush=True)
    print(f"findings: {OUT}", flush=True)
    with open(os.path.join(BASE, "stats.txt"), "a") as f:
        f.write(f"seed={seed} total={total} agree={agree} skipped={skipped} known={ign}\n")


if __name__ == "__main__":
    main()
