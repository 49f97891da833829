//! Helpers shared by the grep tests (tests/search/grep.rs, tests/search/grep_options.rs): a tree writer, a sandbox
//! with relative paths and generous caps, and `rg` for differential checks.
#![allow(dead_code)]

use rootbound::{Limits, PathDisplay, Policy, RootSpec, Sandbox};
use std::fs;
use std::path::Path;
use std::process::Command;

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

/// Whether ripgrep is here for the differential tests. Under CI it must be (`.ci/run` installs it);
/// elsewhere (a packaged crate's `cargo test`) they say that they skip.
pub fn have_rg() -> bool {
    let ok = Command::new("rg").arg("--version").output().is_ok();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "ripgrep (rg) must be installed under CI: apt-get install ripgrep"
        );
        eprintln!(
            "SKIPPED: ripgrep (rg) is not installed; the differential test against it did not run"
        );
    }
    ok
}

pub fn rg(root: &Path, flags: &[&str]) -> String {
    let out = Command::new("rg")
        .args(["--no-config", "--sort", "path", "-n", "-H"])
        .args(flags)
        .current_dir(root)
        .env_remove("RIPGREP_CONFIG_PATH")
        .output()
        .expect(
            "ripgrep (rg) must be installed for the differential test: apt-get install ripgrep",
        );
    // rg notes a binary file found after some matches with a WARNING line; the sandbox counts it in
    // `stats.skipped.binary` instead, keeping every output line in `path:line:text` form.
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.contains(": WARNING: stopped searching binary file"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Equality with a readable report: the first line that differs.
pub fn assert_same(ours: &str, theirs: &str, what: &str) {
    if ours == theirs {
        return;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    let i = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let cut = |v: &[&str]| v.get(i).map(|l| l.chars().take(200).collect::<String>());
    panic!(
        "{what}: {} vs {} lines; first difference at line {i}:\n ours: {:?}\n   rg: {:?}",
        a.len(),
        b.len(),
        cut(&a),
        cut(&b)
    );
}
