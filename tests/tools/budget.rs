//! Work that grows with the input checks the call's budget, memory
//! stays bounded, and a page cut by the deadline carries a cursor that resumes where it stopped.
//!
//! Timings are asserted with wide margins only (a call that took seconds before the fix must come
//! back well under them); memory is bounded by running the CLI under an address-space limit.

use crate::support::time::assert_prompt;
use rootbound::{
    GlobArgs, GrepArgs, GrepResult, Limits, OutputMode, PathDisplay, Policy, ReadArgs, RootSpec,
    Sandbox,
};
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_rootbound");

fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

fn policy(root: &Path, limits: Limits) -> Policy {
    Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: root.into(),
        }],
        path_display: PathDisplay::Relative,
        limits,
        ..Default::default()
    }
}

fn sandbox(root: &Path) -> Sandbox {
    Sandbox::new(policy(root, Limits::default())).unwrap()
}

/// `blocks` blocks of 100 `x` lines, one `m` line, 100 `x` lines: the `m` of block `k` (from 0) is
/// on line `201 k + 101`.
fn blocks(blocks: usize) -> String {
    let block = format!("{}m\n{}", "x\n".repeat(100), "x\n".repeat(100));
    block.repeat(blocks)
}

/// Runs `rootbound call TOOL ARGS --root ROOT` with its address space capped at `max_mib`. The
/// policy's timeout is raised to ten minutes so that the call's own `timeout_ms` decides: the
/// default 10 s cut a deep page short on a loaded machine, and how far a call gets in its time is
/// not what these tests check.
fn call_capped(root: &Path, tool: &str, args: &str, max_mib: u64) -> (i32, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(["call", tool, args, "--root"])
        .arg(root)
        .args(["--relative-paths", "--timeout-ms", "600000"])
        .env_remove("ROOTBOUND_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let bytes = max_mib << 20;
    crate::support::child::limit(&mut cmd, rustix::process::Resource::As, bytes);
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

// ---------------------------------------------------------------------------------------------------
// context with offset
// ---------------------------------------------------------------------------------------------------

/// Page assembly was quadratic in the context lines kept before the page's first match: 4,500
/// blocks with `context: 100` and `offset: 4499` took 5-6 s. At 18,000 blocks quadratic work is
/// minutes, linear work well within [`PROMPT`](crate::support::time::PROMPT); the budget is one no
/// call reaches, so the page found does not depend on the machine's speed.
#[test]
fn context_with_offset_is_linear() {
    const BLOCKS: usize = 18_000;
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "f.txt", blocks(BLOCKS));
    let sb = sandbox(t.path());
    let start = Instant::now();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("^m$");
            args_.context = Some(100);
            args_.offset = Some((BLOCKS - 1) as u64);
            args_.limit = Some(1);
            args_.timeout_ms = Some(600_000);
            args_
        })
        .unwrap();
    assert_prompt(start.elapsed(), "an offset page with context");
    assert!(
        !r.timed_out && !r.truncated,
        "{:?}",
        (r.timed_out, r.truncated)
    );
    assert_eq!(r.match_lines, 1);
    assert_eq!(r.next_offset, BLOCKS as u64);
    let m = (BLOCKS - 1) * 201 + 101;
    assert!(
        r.matches.contains(&format!("f.txt:{m}:m\n")),
        "{}",
        &r.matches[..200]
    );
    // 100 lines either side, nothing else.
    assert!(r.matches.starts_with(&format!("--\nf.txt-{}-x\n", m - 100)));
    assert!(r.matches.ends_with(&format!("f.txt-{}-x\n", m + 100)));
    assert_eq!(r.matches.lines().count(), 202);
}

/// With context, an offset page kept every line of context of every skipped match (1.5 GB at
/// 100,000 blocks), and so did a cursor deep into a file (every context line before it). Both now
/// keep only what the page can show: run under a 768 MiB address-space cap.
#[test]
fn context_memory_is_bounded_with_offset_and_cursor() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "f.txt", blocks(100_000));
    let (code, out) = call_capped(
        t.path(),
        "grep_search",
        r#"{"pattern":"^m$","context":100,"offset":94000,"limit":1,"timeout_ms":600000}"#,
        768,
    );
    assert_eq!(code, 0, "{out}");
    let r: GrepResult = serde_json::from_str(&out).unwrap();
    assert!(!r.timed_out, "{}", r.next_offset);
    assert!(r
        .matches
        .contains(&format!("f.txt:{}:m\n", 94000 * 201 + 101)));
    let cursor = r.next_cursor.expect("more pages");
    // A cursor deep into the file: the lines before it are searched again, and not kept.
    let (code, out) = call_capped(
        t.path(),
        "grep_search",
        &format!(
            r#"{{"pattern":"^m$","context":100,"cursor":"{cursor}","limit":1,"timeout_ms":600000}}"#
        ),
        768,
    );
    assert_eq!(code, 0, "{out}");
    let r: GrepResult = serde_json::from_str(&out).unwrap();
    assert!(r
        .matches
        .contains(&format!("f.txt:{}:m\n", 94001 * 201 + 101)));
    assert_eq!(r.next_offset, 94002);
}

/// Offset pages with context, which are searched file by file in order so that each file keeps only
/// what the page shows, come out exactly like the same units reached by cursor (searched in
/// parallel, every file keeping its units).
#[test]
fn context_offset_pages_match_cursor_pages() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "a.txt", "needle\nneedle\nx\nneedle\nx\nx\nx\nneedle\n");
    for f in 0..6 {
        let mut s = String::new();
        for i in 0..40 {
            let hit = (i * 7 + f * 3) % 5 == 0 || i % 11 == 0;
            s.push_str(&if hit {
                format!("needle {f}.{i}\n")
            } else {
                format!("ctx {f}.{i}\n")
            });
        }
        write(r, &format!("d{}/f{f}.txt", f % 2), s);
    }
    for threads in [1, 2] {
        let sb = Sandbox::new(policy(
            r,
            Limits {
                threads,
                ..Limits::default()
            },
        ))
        .unwrap();
        for (before, after) in [(1, 1), (2, 0), (0, 3), (3, 2)] {
            let base = {
                let mut args_ = GrepArgs::new("needle");
                args_.before = Some(before);
                args_.after = Some(after);
                args_.limit = Some(2);
                args_
            };
            // Pages by cursor: the first page of each offset is the cursor page of that index.
            let mut cursor = None;
            let mut at = 0;
            loop {
                let by_cursor = sb
                    .grep_search(&{
                        let mut args_ = base.clone();
                        args_.cursor = cursor.clone();
                        args_
                    })
                    .unwrap();
                let by_offset = sb
                    .grep_search(&{
                        let mut args_ = base.clone();
                        args_.offset = Some(at);
                        args_
                    })
                    .unwrap();
                assert_eq!(
                    through_last_match(&by_offset.matches),
                    through_last_match(&by_cursor.matches),
                    "offset {at}, before {before}, after {after}, threads {threads}"
                );
                assert_eq!(by_offset.next_offset, by_cursor.next_offset);
                assert_eq!(by_offset.truncated, by_cursor.truncated);
                if !by_cursor.truncated {
                    break;
                }
                at = by_cursor.next_offset;
                cursor = by_cursor.next_cursor;
            }
        }
    }
}

/// The page up to its last matching line, without a leading `--`. An offset page opens with `--`
/// when context was rendered for the units it skipped, and its trailing context can run past the
/// unit that proved there are more (the file was searched further); a cursor page does neither.
/// Both were so before the offset path kept less, and are kept byte for byte.
fn through_last_match(page: &str) -> String {
    let lines: Vec<&str> = page.lines().collect();
    let is_match = |l: &&str| {
        l.split_once(':').is_some_and(|(_, rest)| {
            rest.split_once(':')
                .is_some_and(|(n, _)| n.parse::<u64>().is_ok())
        })
    };
    let end = lines.iter().rposition(is_match).map_or(0, |i| i + 1);
    let start = usize::from(lines.first() == Some(&"--"));
    lines[start.min(end)..end].join("\n")
}

/// An offset page cut by the deadline while it was still skipping gave a cursor that resumed without
/// the skip: the next page started at the first result but was labelled as if at the offset.
#[test]
fn timed_out_offset_page_resumes_at_the_offset() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..200 {
        write(t.path(), &format!("f{i:03}.txt"), format!("needle {i}\n"));
    }
    let sb = sandbox(t.path());
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.offset = Some(50);
            args_.limit = Some(3);
            args_.timeout_ms = Some(0);
            args_
        })
        .unwrap();
    assert!(r.timed_out && r.truncated && r.match_lines == 0, "{r:?}");
    assert_eq!(r.next_offset, 50);
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.cursor = r.next_cursor;
            args_.limit = Some(3);
            args_
        })
        .unwrap();
    assert_eq!(
        r.matches,
        "f050.txt:1:needle 50\nf051.txt:1:needle 51\nf052.txt:1:needle 52\n"
    );
    assert_eq!(r.next_offset, 53);
    // The same for glob.
    let g = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_.offset = Some(50);
            args_.limit = Some(2);
            args_
        })
        .unwrap();
    assert_eq!(g.matches, "f050.txt\nf051.txt\n");
}

/// A resumed page cut by the deadline in the file its cursor points into, before the next result,
/// resumed from the start of that file: the result before the cursor came back again.
#[test]
fn resumed_page_cut_in_its_file_keeps_its_place() {
    let t = tempfile::tempdir().unwrap();
    // Greek text with a Unicode word boundary in the pattern: the lazy DFA gives up on it, so the
    // file takes about a second to search, far over the 100 ms budget.
    let line = "αλφα βήτα γάμμα δέλτα έψιλον ζήτα ήτα θήτα ιώτα κάππα λάμδα μι νι ξι όμικρον πι ρω σίγμα ταυ\n";
    let mut text = String::from("needle first\n");
    text.push_str(&line.repeat((16 << 20) / line.len()));
    text.push_str("needle last\n");
    write(t.path(), "big.txt", &text);
    // The policy allows ten minutes, so each page's own `timeout_ms` decides (the default 10 s
    // cut the last page short on a loaded machine).
    let limits = Limits {
        timeout_ms: 600_000,
        ..Limits::default()
    };
    let sb = Sandbox::new(policy(t.path(), limits)).unwrap();
    let page = |cursor: Option<String>, timeout_ms: u64| {
        let mut args = GrepArgs::new(r"^needle|\b\w{20}\b");
        args.limit = Some(1);
        args.timeout_ms = Some(timeout_ms);
        args.cursor = cursor;
        sb.grep_search(&args).unwrap()
    };
    // Nothing here depends on how much a 100 ms budget reaches: every page is either cut with a
    // cursor or complete, and what the pages return, concatenated, is every result exactly once.
    let mut got = String::new();
    let mut cursor = None;
    let mut done = false;
    // 100 ms pages until the first result comes back (a busy machine may need several).
    for _ in 0..20 {
        let r = page(cursor.take(), 100);
        got.push_str(&r.matches);
        assert!(r.timed_out || r.match_lines > 0, "{r:?}");
        done = r.next_cursor.is_none();
        cursor = r.next_cursor;
        if r.match_lines > 0 || done {
            break;
        }
    }
    // Resumed with the same budget after the first result: cut again in the same file (or not),
    // with a cursor that keeps its place rather than going back to the start of the file.
    for _ in 0..2 {
        if done {
            break;
        }
        let r = page(cursor.take(), 100);
        got.push_str(&r.matches);
        done = r.next_cursor.is_none();
        cursor = r.next_cursor;
    }
    // The rest with a budget no machine runs out of: pages of one result, none cut by time, until
    // no cursor (two at most: the 100 ms pages may not have reached even the first result).
    for _ in 0..3 {
        if done {
            break;
        }
        let r = page(cursor.take(), 600_000);
        got.push_str(&r.matches);
        assert!(!r.timed_out, "{r:?}");
        done = r.next_cursor.is_none();
        cursor = r.next_cursor;
    }
    assert!(done, "{got:?}");
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), 2, "{got:?}");
    assert_eq!(lines[0], "big.txt:1:needle first");
    assert!(lines[1].ends_with(":needle last"), "{got:?}");
}

#[test]
fn count_mode_unaffected_by_offset_with_context() {
    // Sequential offset paging applies to content mode only; other modes page files as before.
    let t = tempfile::tempdir().unwrap();
    for i in 0..30 {
        write(t.path(), &format!("f{i:02}.txt"), "needle\nx\nneedle\n");
    }
    let sb = sandbox(t.path());
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.context = Some(2);
            args_.offset = Some(10);
            args_.limit = Some(2);
            args_.output_mode = Some(OutputMode::Count);
            args_
        })
        .unwrap();
    assert_eq!(r.matches, "f10.txt:2\nf11.txt:2\n");
}

// ---------------------------------------------------------------------------------------------------
// ignore files
// ---------------------------------------------------------------------------------------------------

/// 1 MiB of `dir{i}/**/*.tmp{i}` rules (about 44,000; each compiles to a regex), then `late.txt`.
fn huge_ignore() -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() < (1 << 20) - 64 {
        s.push_str(&format!("dir{i}/**/*.tmp{i}\n"));
        i += 1;
    }
    s
}

fn grep_with_timeout(sb: &Sandbox, ms: u64) -> (GrepResult, Duration) {
    let start = Instant::now();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("hello");
            args_.timeout_ms = Some(ms);
            args_
        })
        .unwrap();
    (r, start.elapsed())
}

/// A 1 MiB `.ignore` was compiled whole on every call, with no deadline check: 6 s and 920 MB per
/// call with `timeout_ms: 20`. Now rules are capped (10,000 per file, counted in
/// `stats.skipped.partial_ignore_files`), compiled in chunks with the deadline checked between them,
/// a compilation cut by the deadline is resumed by the next call, and compiled rules are cached
/// across calls. (One test: the cache is process-wide and bounded, so the big files stay in one.)
#[test]
fn ignore_files_are_bounded_resumed_and_cached() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let mut ign = huge_ignore();
    // Past the 1 MiB read: dropped with the rest.
    ign.push_str("late.txt\n");
    write(r, ".ignore", &ign);
    for d in 0..5 {
        write(r, &format!("d{d}/a.txt"), "hello\n");
    }
    write(r, "late.txt", "hello\n");
    write(r, "early.tmp3", "hello\n");
    write(r, "dir3/x/y.tmp3", "hello\n");
    let sb = sandbox(r);

    // A 20 ms budget comes back promptly, timed out, with a cursor.
    let (page, took) = grep_with_timeout(&sb, 20);
    assert_prompt(took, "a 20 ms call");
    assert!(page.timed_out && page.truncated && page.next_cursor.is_some());
    assert_eq!(page.match_lines, 0, "nothing below rules not yet compiled");

    // Each call with a short budget compiles some more; the rules are complete after a few.
    let mut calls = 0;
    let mut compiling = took;
    let page = loop {
        calls += 1;
        assert!(calls < 1000, "the compilation never finished");
        let (page, took) = grep_with_timeout(&sb, 100);
        assert_prompt(took, &format!("100 ms call {calls}"));
        compiling += took;
        if !page.timed_out {
            break page;
        }
    };
    assert!(calls > 1, "10,000 regex rules compile in one 100 ms call?");
    // The first 10,000 rules apply (dir3/**/*.tmp3); the rest (and late.txt) are dropped and
    // reported.
    assert_eq!(
        page.matches,
        "d0/a.txt:1:hello\nd1/a.txt:1:hello\nd2/a.txt:1:hello\nd3/a.txt:1:hello\n\
         d4/a.txt:1:hello\nearly.tmp3:1:hello\nlate.txt:1:hello\n"
    );
    assert_eq!(page.stats.skipped.partial_ignore_files, 1);

    // Cached: a call now costs a fraction of the compilation (the quickest of five, so that a
    // stall of a busy machine does not count; a budget no call reaches, so that what is found
    // does not depend on the machine's speed).
    let mut quickest = Duration::MAX;
    for _ in 0..5 {
        let (again, took) = grep_with_timeout(&sb, 600_000);
        assert!(!again.timed_out);
        assert_eq!(again.matches, page.matches);
        quickest = quickest.min(took);
    }
    assert!(
        quickest < compiling / 2,
        "a cached call took {quickest:?}; compiling the rules took {compiling:?}"
    );

    // glob sees the same rules, from the same cache.
    let g = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_
        })
        .unwrap();
    assert_eq!(
        g.matches,
        "d0/a.txt\nd1/a.txt\nd2/a.txt\nd3/a.txt\nd4/a.txt\nlate.txt\n"
    );
    assert_eq!(g.stats.skipped.partial_ignore_files, 1);

    // A changed file is compiled again (the cache key has its size and times).
    write(r, ".ignore", "d1/\n");
    let (page, _) = grep_with_timeout(&sb, 10_000);
    assert!(!page.matches.contains("d1/"), "{}", page.matches);
    assert!(page.matches.contains("late.txt"));
    assert_eq!(page.stats.skipped.partial_ignore_files, 0);
}

/// The ignore rules of a directory and those above it are capped together: a file that would take
/// them past 20,000 is not applied (and counted).
#[test]
fn ignore_rules_are_capped_along_the_chain() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let rules = |prefix: &str| {
        (0..9000)
            .map(|i| format!("{prefix}{i}.txt\n"))
            .collect::<String>()
    };
    write(r, ".ignore", rules("one"));
    write(r, "a/.ignore", rules("two") + "hidden1.txt\n");
    write(r, "a/b/.ignore", rules("three") + "hidden2.txt\n");
    write(r, "a/b/hidden1.txt", "hello\n");
    write(r, "a/b/hidden2.txt", "hello\n");
    write(r, "a/b/shown.txt", "hello\n");
    let page = sandbox(r).grep_search(&GrepArgs::new("hello")).unwrap();
    assert_eq!(
        page.matches,
        "a/b/hidden2.txt:1:hello\na/b/shown.txt:1:hello\n"
    );
    assert_eq!(page.stats.skipped.partial_ignore_files, 1);
}

// ---------------------------------------------------------------------------------------------------
// glob on a deadline
// ---------------------------------------------------------------------------------------------------

/// glob answered `truncated: true, timed_out: true, next_cursor: null` when the deadline came before
/// its first file; its page now resumes from where the call started, like grep's.
#[test]
fn glob_cut_before_its_first_file_has_a_cursor() {
    let t = tempfile::tempdir().unwrap();
    for d in 0..20 {
        for f in 0..5 {
            write(t.path(), &format!("d{d:02}/f{f}.txt"), "");
        }
    }
    let full = sandbox(t.path())
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    assert_eq!(full.match_lines, 100);
    let zero = Sandbox::new(policy(
        t.path(),
        Limits {
            timeout_ms: 0,
            ..Limits::default()
        },
    ))
    .unwrap();
    let g = zero
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    assert!(g.timed_out && g.truncated && g.match_lines == 0, "{g:?}");
    let cursor = g.next_cursor.expect("a truncated page carries a cursor");
    let rest = sandbox(t.path())
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_.limit = Some(100);
            args_.cursor = Some(cursor);
            args_
        })
        .unwrap();
    assert_eq!(rest.matches, full.matches);
}

/// glob pages cut by the deadline resume after the last file they took: paging a tree with a short
/// budget gives every file once, in order.
#[test]
fn glob_pages_cut_by_the_deadline_concatenate() {
    let t = tempfile::tempdir().unwrap();
    for d in 0..100 {
        for f in 0..20 {
            write(t.path(), &format!("d{d:02}/f{f:02}.txt"), "");
        }
    }
    let big = Limits {
        max_results: 100_000,
        max_bytes: 1 << 24,
        ..Limits::default()
    };
    let args = {
        let mut args_ = GlobArgs::default();
        args_.pattern = "*.txt".into();
        args_.limit = Some(100_000);
        args_
    };
    let full = Sandbox::new(policy(t.path(), big.clone()))
        .unwrap()
        .glob(&args)
        .unwrap();
    assert_eq!(full.match_lines, 2000);
    let short = Sandbox::new(policy(
        t.path(),
        Limits {
            timeout_ms: 2,
            ..big
        },
    ))
    .unwrap();
    let (mut out, mut cursor, mut cut) = (String::new(), None, 0);
    for _ in 0..100_000 {
        let g = short
            .glob(&{
                let mut args_ = args.clone();
                args_.cursor = cursor.clone();
                args_
            })
            .unwrap();
        out.push_str(&g.matches);
        if !g.truncated {
            break;
        }
        cut += 1;
        cursor = Some(g.next_cursor.expect("a truncated page carries a cursor"));
    }
    assert_eq!(out, full.matches, "after {cut} cut pages");
}

// ---------------------------------------------------------------------------------------------------
// read_file line mode on a deadline
// ---------------------------------------------------------------------------------------------------

/// 4,500 lines of `a`, then a 20 GiB hole (zero bytes, no newline) read in line mode with a 50 ms
/// budget: the deadline is not an IO_ERROR; it gives the partial page with `timed_out`.
#[test]
fn read_file_line_mode_deadline_returns_the_partial_page() {
    let t = tempfile::tempdir().unwrap();
    let f = fs::File::create(t.path().join("sparse.txt")).unwrap();
    {
        use std::io::Write;
        (&f).write_all(&b"a\n".repeat(4500)).unwrap();
    }
    f.set_len(20 << 30).unwrap();
    let sb = Sandbox::new(policy(
        t.path(),
        Limits {
            timeout_ms: 50,
            ..Limits::default()
        },
    ))
    .unwrap();

    // Cut while reading lines: the whole lines before the deadline, and where to go on.
    let start = Instant::now();
    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("sparse.txt");
            args_.start_line = Some(4491);
            args_.max_lines = Some(100);
            args_
        })
        .unwrap();
    assert_prompt(start.elapsed(), "a 50 ms line read of a sparse file");
    assert!(r.timed_out && r.truncated, "{r:?}");
    assert_eq!(r.content, "a\n".repeat(10));
    assert_eq!((r.start_line, r.end_line), (Some(4491), Some(4500)));
    assert_eq!((r.next_line, r.next_offset), (Some(4501), 9000));
    assert_eq!(r.offset, 8980);
    let notice = r.truncation_notice().unwrap();
    assert!(notice.contains("timed out"), "{notice}");

    // Cut while looking for the first line: an empty page, the same line again, and the last line
    // start reached for byte mode.
    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("sparse.txt");
            args_.start_line = Some(1_000_000_000);
            args_
        })
        .unwrap();
    assert!(r.timed_out && r.truncated && r.content.is_empty(), "{r:?}");
    assert_eq!(r.next_line, Some(1_000_000_000));
    assert_eq!(r.next_offset, 9000);

    // Through the JSON interface too; `timed_out` is absent when false.
    let v = serde_json::to_value(sb.read_file(&ReadArgs::path("sparse.txt")).unwrap()).unwrap();
    assert!(v.get("timed_out").is_none(), "{v}");
}

// ---------------------------------------------------------------------------------------------------
// Typed errors
// ---------------------------------------------------------------------------------------------------

/// A line over grep-searcher's 64 MiB heap limit is `too_large` (recognised by the error's kind, not
/// its message), streaming and in multiline mode.
#[test]
fn heap_limit_is_too_large() {
    let t = tempfile::tempdir().unwrap();
    let mut big = vec![b'a'; (65 << 20) + 10];
    big.extend_from_slice(b" needle\n");
    write(t.path(), "long.txt", &big);
    write(t.path(), "short.txt", "needle\n");
    let sb = sandbox(t.path());
    for multiline in [false, true] {
        let r = sb
            .grep_search(&{
                let mut args_ = GrepArgs::new("needle");
                args_.multiline = Some(multiline);
                args_
            })
            .unwrap();
        assert_eq!(r.matches, "short.txt:1:needle\n", "multiline {multiline}");
        assert_eq!(r.stats.skipped.too_large, 1, "multiline {multiline}");
        assert_eq!(r.stats.skipped.unreadable, 0);
    }
}

/// `timeout_ms` is taken by every tool that can take long (list_dir, directory_tree,
/// read_many_files, glob, as by grep_search): a call asked for 1 ms over 20,000 entries comes back
/// cut (`timed_out`) with what it has, where the same call without it finishes.
#[test]
fn every_long_tool_takes_a_timeout_argument() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir(root.join("d")).unwrap();
    for i in 0..20_000 {
        fs::write(root.join(format!("d/f{i:05}.txt")), "x\n").unwrap();
    }
    let sb = Sandbox::new(policy(root, Limits::default())).unwrap();
    let calls = [
        ("list_dir", serde_json::json!({"path": "d"})),
        (
            "directory_tree",
            serde_json::json!({"path": "d", "max_entries": 1000}),
        ),
        ("read_many_files", serde_json::json!({"paths": ["d/*.txt"]})),
        ("glob", serde_json::json!({"pattern": "*.nomatch"})),
    ];
    for (tool, args) in calls {
        let full = sb.call(tool, args.clone());
        assert!(full.get("error").is_none(), "{tool}: {full}");
        assert_ne!(
            full["timed_out"], true,
            "{tool}: finishes without a timeout"
        );
        let mut cut_args = args.clone();
        cut_args["timeout_ms"] = 1.into();
        let cut = sb.call(tool, cut_args);
        assert!(cut.get("error").is_none(), "{tool}: {cut}");
        assert_eq!(cut["timed_out"], true, "{tool}: {cut}");
    }
}
