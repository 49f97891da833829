//! Helpers shared by the grep tests (tests/search/grep.rs, tests/search/grep_options.rs,
//! tests/search/grep_hits.rs, tests/frontends/cli_grep.rs, tests/frontends/cli_print.rs): a tree
//! writer and a sandbox with relative paths and generous caps. Running `rg` beside them is
//! tests/support/rg.rs.
#![allow(dead_code)]

use rootbound::{Limits, PathDisplay, Policy, RootSpec, Sandbox};
use std::fs;
use std::path::Path;

pub fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

pub fn sandbox(root: &Path, threads: usize) -> Sandbox {
    let mut p = Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: root.into(),
        }],
        ..Default::default()
    };
    p.path_display = PathDisplay::Relative;
    p.limits = Limits {
        threads,
        max_results: 100_000,
        max_bytes: 64 << 20,
        max_columns: 100_000,
        ..Limits::default()
    };
    Sandbox::new(p).unwrap()
}
