//! Paging by cursor under a time budget too small for the work: every call advances, and the pages
//! together hold what one unbounded call returns. Each case here once made every call answer the
//! same cursor with nothing (found by an attack pass on the timed-out paging change), or lost a
//! file. A case fails when 200 calls in a row return the same cursor and nothing else.

use crate::support;
use crate::support::grep::write;
use rootbound::Sandbox;
use serde_json::{json, Value};
use std::path::Path;

/// The grep tests' sandbox on 2 threads.
fn sandbox(root: &Path) -> Sandbox {
    support::grep::sandbox(root, 2)
}

/// Pages `args` with `timeout_ms: ms` until the end; Err when the cursor stops moving.
fn page_all(sb: &Sandbox, tool: &str, args: &Value, ms: u64) -> Result<String, String> {
    let (mut cursor, mut text, mut same) = (None::<String>, String::new(), 0);
    for calls in 1.. {
        let mut a = args.clone();
        a["timeout_ms"] = ms.into();
        if let Some(c) = &cursor {
            a["cursor"] = c.clone().into();
        }
        let r = sb.call(tool, a);
        assert!(r.get("error").is_none(), "{r}");
        text.push_str(r["matches"].as_str().unwrap());
        if r["truncated"] == false {
            return Ok(text);
        }
        let next = r["next_cursor"].as_str().map(str::to_string);
        same = if next == cursor && r["matches"] == "" {
            same + 1
        } else {
            0
        };
        if same == 200 {
            return Err(format!(
                "{tool} in {ms} ms: the same cursor 200 times (call {calls}): {r}"
            ));
        }
        cursor = next;
    }
    unreachable!()
}

/// One call with all the time it needs (run after the paged calls: it warms the ignore-rule and
/// matcher caches, which would hide the slow first steps).
fn whole(sb: &Sandbox, tool: &str, args: &Value) -> String {
    let mut a = args.clone();
    a["limit"] = 100_000.into();
    a["timeout_ms"] = 600_000.into();
    let r = sb.call(tool, a);
    assert_eq!(r["truncated"], false, "{r}");
    r["matches"].as_str().unwrap().to_string()
}

/// A resumed grep hands the cursor's own (finished) file over before the first file past it: once
/// the way back to the cursor outlasted the budget, that hand-over was refused and the call ended
/// where it began.
#[test]
fn a_grep_resumed_deep_in_a_tree_advances() {
    let t = tempfile::tempdir().unwrap();
    let mut p = std::path::PathBuf::new();
    for i in 0..120 {
        p.push(format!("l{i:03}"));
        write(t.path(), p.join("a.txt").to_str().unwrap(), "needle\n");
    }
    let sb = sandbox(t.path());
    let args = json!({"pattern": "needle", "output_mode": "files_with_matches", "limit": 50});
    let paged = page_all(&sb, "grep_search", &args, 1).unwrap();
    assert_eq!(paged, whole(&sb, "grep_search", &args));
}

/// A pattern too long for the matcher cache is compiled by every call; when that took the whole
/// budget, the call ended before its walk.
#[test]
fn a_grep_whose_pattern_compiles_slowly_advances() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..100 {
        write(t.path(), &format!("f{i:03}.txt"), "needle\n");
    }
    let words: Vec<String> = (0..400)
        .map(|i| format!("w{i}x{}", i * 7919 % 1000))
        .collect();
    let pattern = format!("(?i)\\b(?:{}|needle)\\b", words.join("|"));
    let sb = sandbox(t.path());
    let args = json!({"pattern": pattern, "output_mode": "files_with_matches", "limit": 50});
    let paged = page_all(&sb, "grep_search", &args, 1).unwrap();
    assert_eq!(paged, whole(&sb, "grep_search", &args));
}

/// An ignore file whose compilation the deadline keeps cutting: each call now compiles at least one
/// chunk of it (kept in the cache), so a later call gets past it.
#[test]
fn a_glob_beside_a_slow_ignore_file_advances() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..3_000 {
        write(t.path(), &format!("f{i:05}.txt"), "");
    }
    let rules: String = (0..9000).map(|i| format!("dir{i}/**/*.ext{i}\n")).collect();
    write(t.path(), ".ignore", &rules);
    let sb = sandbox(t.path());
    let args = json!({"pattern": "*.txt", "limit": 1000});
    let paged = page_all(&sb, "glob", &args, 1).unwrap();
    assert_eq!(paged, whole(&sb, "glob", &args));
}

/// A call cut before its first entry resumes at a position before every name; a file named "\x01"
/// sorts there too, and glob passed it over as the cursor's own file.
#[test]
fn glob_keeps_a_file_named_0x01() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("\u{1}"), "x\n").unwrap();
    write(t.path(), "b.txt", "x\n");
    // Rules that take longer than 1 ms to compile: the first call is cut at its first entry.
    let rules: String = (0..9000).map(|i| format!("dir{i}/**/*.ext{i}\n")).collect();
    write(t.path(), ".ignore", &rules);
    let sb = sandbox(t.path());
    let args = json!({"pattern": "*"});
    let paged = page_all(&sb, "glob", &args, 1).unwrap();
    assert_eq!(paged, whole(&sb, "glob", &args));
    assert!(paged.contains("\\x01\n"), "{paged}");
}

/// A glob over two roots whose first root's walk the budget cuts: the next call resumes in the
/// first root. (The second root's walk used to begin in the same call and take its first entry,
/// which moved the resume point there: the rest of the first root was never listed.)
#[test]
fn a_glob_cut_in_its_first_root_resumes_there() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for d in 0..50 {
        for i in 0..100 {
            write(a.path(), &format!("d{d:02}/f{i:03}.txt"), "");
        }
    }
    for i in 0..5 {
        write(b.path(), &format!("g{i}.txt"), "");
    }
    let mut p = rootbound::Policy {
        roots: [a.path(), b.path()]
            .iter()
            .map(|r| rootbound::RootSpec {
                name: String::new(),
                path: r.to_path_buf(),
            })
            .collect(),
        ..Default::default()
    };
    p.limits.threads = 2;
    p.limits.max_results = 100_000;
    p.limits.max_bytes = 64 << 20;
    let sb = Sandbox::new(p).unwrap();
    let args = json!({"pattern": "**/*.txt", "limit": 1000});
    let paged = page_all(&sb, "glob", &args, 1).unwrap();
    let all = whole(&sb, "glob", &args);
    assert_eq!(all.lines().count(), 5005);
    assert_eq!(paged, all);
}
