//! The hit stream (`Sandbox::grep_hits_each`) against the agent's page (`grep_search`): the same
//! files, lines, context and counts from one pass, with raw bytes, offsets and match ranges; binary
//! files as rg treats them (implicit ones skipped at the NUL, a named one searched whole).

use rootbound::rg::{BinaryMode, HitLineKind, HitOptions, RgOptions};
use rootbound::{GrepArgs, OutputMode};
use std::fmt::Write;

use crate::support;
use support::grep::{sandbox, write};

fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    for i in 0..40 {
        let mut s = String::new();
        for l in 0..(i * 7 % 50) {
            let _ = writeln!(
                s,
                "line {l} {}",
                if l % 3 == 0 { "needle x needle" } else { "hay" }
            );
        }
        write(r, &format!("d{}/f{i:02}.txt", i % 4), s);
    }
    write(r, "bin.dat", b"needle\n\0needle\n");
    t
}

/// Renders the stream as the page's text: `path:line:text` and `path-line-text`, `--` breaks.
fn rendered(sb: &rootbound::Sandbox, args: &GrepArgs) -> (String, u64) {
    let mut out = String::new();
    let mut files = 0;
    let summary = sb
        .grep_hits_each(args, None, HitOptions::new(true, true, true, false), |f| {
            files += 1;
            for l in f.lines() {
                let text = String::from_utf8_lossy(l.bytes);
                let text = text.trim_end_matches('\n');
                match l.kind {
                    HitLineKind::Match => {
                        let _ = writeln!(out, "{}:{}:{text}", f.path, l.line_number);
                        for &(s, e) in l.submatches {
                            assert_eq!(&l.bytes[s..e], b"needle");
                        }
                    }
                    HitLineKind::Context => {
                        let _ = writeln!(out, "{}-{}-{text}", f.path, l.line_number);
                    }
                    HitLineKind::Break => out.push_str("--\n"),
                }
            }
            true
        })
        .unwrap();
    assert!(!summary.timed_out);
    assert!(files > 0);
    (out, summary.stats.skipped.binary)
}

#[test]
fn stream_matches_the_page() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    for ctx in [None, Some(1), Some(3)] {
        let mut args = GrepArgs::new("needle");
        args.context = ctx;
        args.limit = Some(100_000);
        let page = sb.grep_search(&args).unwrap();
        assert!(!page.truncated);
        let (text, binary) = rendered(&sb, &args);
        // Both put `--` between groups of context; the page also between files, which the stream
        // leaves to its printer. Compare the lines.
        let page_text: String = page
            .matches
            .lines()
            .filter(|l| *l != "--")
            .map(|l| format!("{l}\n"))
            .collect();
        let stream_text: String = text
            .lines()
            .filter(|l| *l != "--")
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(stream_text, page_text, "context {ctx:?}");
        assert_eq!(binary, page.stats.skipped.binary);
    }
}

#[test]
fn named_binary_file_is_searched_whole() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let mut args = GrepArgs::new("needle");
    args.path = Some("bin.dat".into());
    args.output_mode = Some(OutputMode::Count);
    let mut seen = Vec::new();
    sb.grep_hits_each(
        &args,
        None,
        HitOptions::new(false, true, false, false),
        |f| {
            seen.push((
                f.path.to_string(),
                f.named,
                f.binary_offset,
                f.matched_lines,
            ));
            true
        },
    )
    .unwrap();
    assert_eq!(seen, vec![("bin.dat".to_string(), true, Some(7), 2)]);
    // Found by the walk, the same file is skipped at its NUL byte.
    let mut args = GrepArgs::new("needle");
    args.output_mode = Some(OutputMode::Count);
    let mut binary = None;
    let s = sb
        .grep_hits_each(
            &args,
            None,
            HitOptions::new(false, false, false, false),
            |f| {
                if f.path == "bin.dat" {
                    binary = Some((f.named, f.binary_offset.is_some()));
                }
                true
            },
        )
        .unwrap();
    assert_eq!(binary, Some((false, true)));
    assert_eq!(s.stats.skipped.binary, 1);
    // With rg's -a nothing is binary.
    let mut args = GrepArgs::new("needle");
    let mut rg = RgOptions::default();
    rg.binary = BinaryMode::Text;
    args.path = Some("bin.dat".into());
    let mut lines = Vec::new();
    sb.grep_hits_each(
        &args,
        Some(&rg),
        HitOptions::new(true, false, true, false),
        |f| {
            lines.extend(
                f.lines()
                    .map(|l| (l.line_number, l.offset, l.bytes.to_vec())),
            );
            true
        },
    )
    .unwrap();
    assert_eq!(
        lines,
        vec![(1, 0, b"needle\n".to_vec()), (2, 7, b"\0needle\n".to_vec())]
    );
}

#[test]
fn the_callback_stops_the_search() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let mut calls = 0;
    sb.grep_hits_each(
        &GrepArgs::new("needle"),
        None,
        HitOptions::default(),
        |_| {
            calls += 1;
            false
        },
    )
    .unwrap();
    assert_eq!(calls, 1);
}
