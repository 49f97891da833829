//! Every compile and every edit is bounded by the call's budget. A
//! pattern set is classified on failure without building each pattern's matcher again, a glob set
//! is size-capped before it is compiled, and an edit list and its diff use the call's deadline.
//!
//! Timings are asserted with wide margins only ([`PROMPT`](crate::support::time::PROMPT)): what
//! proves each fix is the answer (the error, the cut diff); the one bound that is the guarantee,
//! a pattern set's compile stopping at its deadline, took 12.4 s before the fix.

use crate::support::time::assert_prompt;
use rootbound::{Sandbox, WritePolicy};
use serde_json::json;
use std::time::Instant;

fn sandbox(dir: &std::path::Path, timeout_ms: u64) -> Sandbox {
    let mut w = WritePolicy::new(dir);
    w.allow_overwrite = true;
    Sandbox::builder()
        .root(dir)
        .write(w)
        .timeout_ms(timeout_ms)
        .build()
        .unwrap()
}

fn code(v: &serde_json::Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

// ---------- pattern sets ----------

/// 3,000 x `(?:a|b)[a-j]{50}z` (63 KB, under the pattern cap) took 12.4 s before PATTERN_TOO_LARGE:
/// each pattern was compiled again alone, with no deadline.
#[test]
fn a_pattern_set_too_large_together_fails_fast() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    let sb = sandbox(dir.path(), 50);
    let patterns: Vec<String> = (0..3_000)
        .map(|_| "(?:a|b)[a-j]{50}z".to_string())
        .collect();
    let t = Instant::now();
    let v = sb.call(
        "grep_search",
        json!({"pattern": "x", "patterns": patterns, "timeout_ms": 50}),
    );
    let took = t.elapsed();
    assert_eq!(code(&v), "PATTERN_TOO_LARGE", "{v}");
    assert_prompt(took, "a pattern set over the cap");
}

/// The error still names the one pattern that fails alone, and a set that fits is searched.
#[test]
fn a_pattern_set_names_the_pattern_that_fails_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    let sb = sandbox(dir.path(), 5_000);
    let v = sb.call(
        "grep_search",
        json!({"pattern": "one", "patterns": ["two", "\\w{5000}"]}),
    );
    assert_eq!(code(&v), "PATTERN_TOO_LARGE", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("regex size limit"),
        "{v}"
    );
    let v = sb.call(
        "grep_search",
        json!({"pattern": "one", "patterns": ["two"], "output_mode": "count"}),
    );
    assert_eq!(v["total"], 2, "{v}");
    let v = sb.call(
        "grep_search",
        json!({"pattern": "one", "patterns": ["a\\nb"]}),
    );
    assert_eq!(code(&v), "INVALID_PATTERN", "{v}");
}

// ---------- glob sets ----------

/// 60,000 globs as `include` (or `exclude`) took 4.3 s and 1 GB before INVALID_ARGUMENT: the set is
/// refused by its size before any of it is compiled, in every tool that takes globs.
#[test]
fn a_huge_glob_set_is_refused_before_compiling() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    let sb = sandbox(dir.path(), 50);
    let globs: Vec<String> = (0..60_000).map(|i| format!("dir{i}/**/*.rs")).collect();
    for (tool, args) in [
        ("grep_search", json!({"pattern": "a", "include": globs})),
        ("grep_search", json!({"pattern": "a", "exclude": globs})),
        ("directory_tree", json!({"exclude": globs})),
    ] {
        let t = Instant::now();
        let v = sb.call(tool, args);
        let took = t.elapsed();
        assert_eq!(code(&v), "INVALID_ARGUMENT", "{tool}: {v}");
        let msg = v["error"]["message"].as_str().unwrap();
        assert!(msg.contains("include/exclude globs"), "{tool}: {msg}");
        assert_prompt(took, tool);
    }
    // Under the count cap but over the byte cap (8 KiB together).
    let long: Vec<String> = (0..200).map(|i| format!("{i}{}", "x".repeat(60))).collect();
    let v = sb.call("grep_search", json!({"pattern": "a", "include": long}));
    assert_eq!(code(&v), "INVALID_ARGUMENT", "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("bytes together"));
}

/// The largest sets allowed (256 globs, or 8 KiB of wildcards together) compile within a wide
/// bound and work; the glob tool's own pattern has the same byte cap.
#[test]
fn the_largest_glob_set_allowed_compiles_and_matches() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    let sb = sandbox(dir.path(), 5_000);
    let mut wild: Vec<String> = (0..31)
        .map(|i| format!("*{i}*{}*/**/*.rs", "y*".repeat(120)))
        .collect();
    wild.push("*.txt".into());
    let mut many: Vec<String> = (0..255).map(|i| format!("d{i}/**/*.rs")).collect();
    many.push("*.txt".into());
    for globs in [wild, many] {
        let total: usize = globs.iter().map(String::len).sum();
        assert!(total <= 8 * 1024, "{total}");
        let t = Instant::now();
        let v = sb.call(
            "grep_search",
            json!({"pattern": "a", "include": globs, "output_mode": "count"}),
        );
        assert_eq!(v["total"], 1, "{v}");
        assert_prompt(t.elapsed(), "the largest glob set");
    }
    let v = sb.call("glob", json!({"pattern": "a*".repeat(5000)}));
    assert_eq!(code(&v), "INVALID_ARGUMENT", "{v}");
    let v = sb.call(
        "glob",
        json!({"pattern": format!("{}*.txt", "*a".repeat(2000))}),
    );
    assert!(v.get("error").is_none(), "{v}");
}

// ---------- edits ----------

/// 10,000 edits of a 1.8 MB file (`dry_run`, 100 ms) took 1.6-2.3 s: each edit copies the file, and
/// the list ran past the budget. The edits now stop at the call's deadline with a clear error, and
/// nothing is written.
#[test]
fn many_edits_of_a_large_file_stop_at_the_call_budget() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..80_000)
        .map(|i| format!("line {i:05} of the file\n"))
        .collect();
    let text = lines.concat();
    assert!(text.len() > 1_500_000);
    std::fs::write(dir.path().join("big.txt"), &text).unwrap();
    let sb = sandbox(dir.path(), 100);
    let edits: Vec<_> = (0..10_000)
        .map(|i| json!({"old_string": format!("line {i:05} "), "new_string": format!("LINE {i:05} ")}))
        .collect();
    for dry in [true, false] {
        let t = Instant::now();
        let v = sb.call(
            "edit_file",
            json!({"path": "big.txt", "edits": edits, "dry_run": dry}),
        );
        let took = t.elapsed();
        assert_eq!(code(&v), "TOO_LARGE", "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("time budget"),
            "{v}"
        );
        assert_prompt(took, "10,000 edits");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("big.txt")).unwrap(),
        text
    );
    // A few edits of the same file go through.
    let v = sb.call(
        "edit_file",
        json!({"path": "big.txt", "edits": edits[..3], "dry_run": true}),
    );
    assert_eq!(v["replacements"], 3, "{v}");
}

/// `replace_all` changing every other line of 4 MB with a 20 ms budget took 0.27 s: the diff had a
/// fixed deadline of its own (200 ms). It now shares the call's (not shown once it is spent), and
/// its text is capped as it is rendered.
#[test]
fn the_diff_of_an_edit_uses_the_call_budget() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (0..200_000)
        .map(|i| {
            if i % 2 == 0 {
                "even line here\n".to_string()
            } else {
                format!("odd {i}\n")
            }
        })
        .collect();
    assert!(text.len() > 2_000_000);
    std::fs::write(dir.path().join("big.txt"), &text).unwrap();
    let sb = sandbox(dir.path(), 20);
    let t = Instant::now();
    let v = sb.call(
        "edit_file",
        json!({"path": "big.txt", "old_string": "even line here", "new_string": "EVEN", "replace_all": true, "dry_run": true}),
    );
    let took = t.elapsed();
    assert_eq!(v["replacements"], 100_000, "{v}");
    let diff = v["diff"].as_str().unwrap();
    assert!(
        diff.contains("[diff truncated") || diff.contains("[diff not shown"),
        "{}",
        &diff[..200.min(diff.len())]
    );
    assert!(diff.len() < 64 * 1024, "{}", diff.len());
    assert_prompt(took, "an edit and its diff");
}
