#!/usr/bin/env python3
"""Fails when a locked dependency needs a newer Rust than Cargo.toml's rust-version says."""
import json
import subprocess
import sys
import tomllib

def version(v):
    return tuple(int(x) for x in v.split("."))[:3] + (0,) * (3 - len(v.split(".")))

ours = tomllib.load(open("Cargo.toml", "rb"))["package"]["rust-version"]
meta = json.loads(subprocess.run(["cargo", "metadata", "--format-version", "1", "--locked"],
                                 check=True, capture_output=True, text=True).stdout)
needs = sorted((version(p["rust_version"]), p["name"]) for p in meta["packages"]
               if p.get("rust_version") and p["name"] != "rootbound")
top, name = needs[-1]
if top > version(ours):
    sys.exit(f"rust-version {ours} is false: {name} needs {'.'.join(map(str, top))}")
print(f"rust-version {ours} holds: the most demanding locked dependency is {name} ({'.'.join(map(str, top))})")
