#!/usr/bin/env python3
"""Generates the small bundled corpus in corpora/default/: a deterministic, synthetic source tree
(C and Rust files, docs, a nested .gitignore, a binary file) of a few hundred KiB, so the README demo
and the tests have real-looking text with no licence questions. Run: python3 corpora/generate.py"""
import os, random, shutil

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "default")
rng = random.Random(20261130)
SUBSYS = ["net", "fs", "mm", "drivers/usb", "drivers/pci", "kernel/sched", "kernel/power", "lib", "crypto", "sound"]
VERBS = ["init", "probe", "remove", "suspend", "resume", "lock", "unlock", "read", "write", "flush", "alloc", "free"]
NOUNS = ["device", "buffer", "queue", "page", "inode", "socket", "timer", "mutex", "irq", "dma", "node", "entry"]
CONSTS = ["PM_RESUME", "PM_SUSPEND", "ERR_SYS", "PME_TURN_OFF", "LINK_REQ_RST", "CFG_BME_EVT", "MAX_RETRY", "BUF_SIZE"]
WORDS = ("the a an of to in for with on by from this that driver kernel memory value lock state data "
         "returns error handle request device buffer queue page must should when while before after").split()

def sentence(n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."

def c_function(prefix):
    name = f"{prefix}_{rng.choice(NOUNS)}_{rng.choice(VERBS)}"
    lines = [f"/* {sentence(rng.randint(6, 14))} */", f"static int {name}(struct {rng.choice(NOUNS)} *p, int flags)", "{"]
    for _ in range(rng.randint(3, 12)):
        k = rng.random()
        if k < 0.2:
            lines.append(f"\tmutex_lock(&p->{rng.choice(NOUNS)}_lock);")
        elif k < 0.35:
            lines.append(f"\tif (flags & {rng.choice(CONSTS)})\n\t\treturn -EINVAL;")
        elif k < 0.5:
            lines.append(f"\tp->{rng.choice(NOUNS)} = {rng.choice(VERBS)}_{rng.choice(NOUNS)}(p, {rng.randint(0, 4096)});")
        elif k < 0.6:
            lines.append(f"\tmutex_unlock(&p->{rng.choice(NOUNS)}_lock);")
        else:
            lines.append(f"\t{rng.choice(VERBS)}_{rng.choice(NOUNS)}(p); /* {sentence(rng.randint(3, 8))} */")
    lines += ["\treturn 0;", "}", ""]
    return "\n".join(lines)

def rust_fn():
    name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}"
    body = [f"/// {sentence(rng.randint(5, 12))}", f"pub fn {name}(n: usize) -> Result<usize, Error> {{"]
    for _ in range(rng.randint(2, 8)):
        body.append(f"    let {rng.choice(NOUNS)} = {rng.choice(VERBS)}_{rng.choice(NOUNS)}(n + {rng.randint(1, 99)})?;")
    body += ["    Ok(n)", "}", ""]
    return "\n".join(body)

def main():
    shutil.rmtree(OUT, ignore_errors=True)
    total = 0
    for sub in SUBSYS:
        d = os.path.join(OUT, sub)
        os.makedirs(d, exist_ok=True)
        for i in range(rng.randint(3, 6)):
            prefix = sub.split("/")[-1]
            text = f"// SPDX-License-Identifier: MIT\n/* {sub}/{prefix}_{i}.c: {sentence(8)} */\n#include <linux/{prefix}.h>\n\n"
            text += "\n".join(c_function(prefix) for _ in range(rng.randint(8, 20)))
            with open(os.path.join(d, f"{prefix}_{i}.c"), "w") as f:
                f.write(text)
            total += len(text)
        with open(os.path.join(d, "README.md"), "w") as f:
            t = f"# {sub}\n\n" + "\n\n".join(sentence(rng.randint(10, 30)) for _ in range(6)) + "\n"
            f.write(t)
            total += len(t)
    os.makedirs(os.path.join(OUT, "tools/rs/src"), exist_ok=True)
    for m in ["lib", "walk", "search", "page"]:
        t = "\n".join(rust_fn() for _ in range(15))
        with open(os.path.join(OUT, f"tools/rs/src/{m}.rs"), "w") as f:
            f.write(t)
        total += len(t)
    with open(os.path.join(OUT, "docs.txt"), "w") as f:
        f.write("Greek text for unicode searches: \u03b1\u03b2\u03b3 \u0394\u03b5\u03bb\u03c4\u03b1 \u03a9mega.\n")
        f.write("\n".join(sentence(rng.randint(8, 20)) for _ in range(200)) + "\n")
    os.makedirs(os.path.join(OUT, "build"), exist_ok=True)
    with open(os.path.join(OUT, "build/output.log"), "w") as f:
        f.write("PM_RESUME appears in ignored build output only\n")
    with open(os.path.join(OUT, ".ignore"), "w") as f:
        f.write("build/\n")
    with open(os.path.join(OUT, "firmware.bin"), "wb") as f:
        f.write(b"\x7fELF\x00\x00PM_RESUME\x00" + bytes(range(256)) * 8)
    print(f"wrote {OUT}: ~{total // 1024} KiB of text")

if __name__ == "__main__":
    main()
