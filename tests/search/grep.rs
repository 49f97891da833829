//! grep_search and glob: differential against `rg --sort path`, determinism, pagination, deadlines,
//! output modes, and the attack classes that concern walking and searching (19, 21, 23-27).

use rootbound::{
    ErrorCode, GlobArgs, Globs, GrepArgs, GrepResult, OutputMode, PathDisplay, Policy, RootSpec,
    Sandbox,
};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support;
use support::grep::{sandbox, write};
use support::rg::{assert_same, have_rg, rg_files, rg_lines};

/// A tree with nested ignore files, hidden files, binaries, unicode, long lines and odd names.
fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    fs::create_dir_all(r.join(".git")).unwrap();
    write(r, ".gitignore", "*.log\nbuild/\n!keep.log\n");
    write(r, "sub/.ignore", "secret_*\n");
    write(r, "sub/deeper/.gitignore", "!*.log\n");
    write(r, "sub/deeper/.rgignore", "rgonly.txt\n");
    write(r, "a.txt", "alpha needle\nbeta\nneedle gamma\n");
    write(r, "A.txt", "Needle upper\n");
    write(r, "a b.txt", "space needle here\n");
    write(r, "a-1.txt", "needle dash\n");
    write(r, "a_1.txt", "needle underscore\n");
    write(r, "ab/c.txt", "needle in ab\n");
    write(r, "a/z.txt", "needle in a dir\n");
    write(r, "x.log", "needle in ignored log\n");
    write(r, "keep.log", "needle kept log\n");
    write(r, "build/out.txt", "needle in build\n");
    write(r, "sub/secret_1.txt", "needle secret\n");
    write(
        r,
        "sub/visible.txt",
        "ctx1\nctx2\nneedle one\nctx3\nctx4\nctx5\nctx6\nneedle two\nctx7\n",
    );
    write(r, "sub/deeper/trace.log", "needle in whitelisted log\n");
    write(r, "sub/deeper/rgonly.txt", "needle rgonly\n");
    write(r, ".hidden/h.txt", "needle hidden dir\n");
    write(r, ".dotfile", "needle dotfile\n");
    write(r, "bin.dat", b"needle\x00binary\n");
    let mut late = Vec::new();
    for i in 0..20000 {
        late.extend_from_slice(format!("line {i} needle late\n").as_bytes());
    }
    late.extend_from_slice(b"\x00tail\n");
    write(r, "late_bin.txt", late);
    // Small enough to be read whole and searched as a slice, with the NUL past the first 64 KiB
    // that a slice search checks: the lines after it must not appear (rg streams and stops there).
    let mut mid = Vec::new();
    for i in 0..6000 {
        let line = if i % 1000 == 999 {
            "needle mid"
        } else {
            "filler"
        };
        mid.extend_from_slice(format!("{line} {i}\n").as_bytes());
    }
    mid.extend_from_slice(b"\x00tail\nneedle after the nul\n");
    write(r, "mid_bin.txt", mid);
    write(r, "bom8.txt", b"\xEF\xBB\xBFneedle bom8\nplain\n");
    let mut bom16 = vec![0xFF, 0xFE];
    for u in "needle bom16\nzweite\n".encode_utf16() {
        bom16.extend_from_slice(&u.to_le_bytes());
    }
    write(r, "bom16.txt", bom16);
    write(
        r,
        "uni/\u{00fc}n\u{00ef}code.txt",
        "\u{03b1}\u{03b2}\u{03b3} needle \u{0394}elta\nnaïve needle\n",
    );
    write(
        r,
        "long.txt",
        format!("{}needle{}\n", "x".repeat(3000), "y".repeat(3000)),
    );
    write(r, "src/main.rs", "fn main() { needle(); }\n");
    write(r, "src/lib.c", "int needle(void);\n");
    write(r, "Makefile", "needle:\n\techo needle\n");
    write(r, "crlf.txt", "needle crlf\r\nsecond\r\n");
    for i in 0..30 {
        write(
            r,
            &format!("many/f{i:02}.txt"),
            format!("needle {i}\nother\nneedle again {i}\n"),
        );
    }
    symlink("a.txt", r.join("link_to_a")).unwrap();
    symlink("/etc", r.join("link_out")).unwrap();
    t
}

fn all(sb: &Sandbox, mut args: GrepArgs) -> String {
    args.limit = Some(100_000);
    let r = sb.grep_search(&args).unwrap();
    assert!(!r.truncated && !r.timed_out, "{r:?}");
    r.matches
}

#[test]
fn search_flags_find_the_lines_rg_finds() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let r = t.path();
    let sb = sandbox(r, 2);
    let g = |p: &str| GrepArgs::new(p);
    let cases: Vec<(Vec<&str>, GrepArgs)> = vec![
        (vec!["needle"], g("needle")),
        (vec!["-i", "NEEDLE"], {
            let mut args_ = g("NEEDLE");
            args_.case_insensitive = Some(true);
            args_
        }),
        (vec!["-S", "Needle"], {
            let mut args_ = g("Needle");
            args_.smart_case = Some(true);
            args_
        }),
        (vec!["-S", "needle"], {
            let mut args_ = g("needle");
            args_.smart_case = Some(true);
            args_
        }),
        (vec!["-w", "needle"], {
            let mut args_ = g("needle");
            args_.word = Some(true);
            args_
        }),
        (vec!["-F", "a.b"], {
            let mut args_ = g("a.b");
            args_.fixed_strings = Some(true);
            args_
        }),
        (vec!["\\p{Greek}+"], g("\\p{Greek}+")),
        (vec!["--hidden", "needle"], {
            let mut args_ = g("needle");
            args_.hidden = Some(true);
            args_
        }),
        (vec!["--no-ignore", "needle"], {
            let mut args_ = g("needle");
            args_.no_ignore = Some(true);
            args_
        }),
        (vec!["--hidden", "--no-ignore", "needle"], {
            let mut args_ = g("needle");
            args_.hidden = Some(true);
            args_.no_ignore = Some(true);
            args_
        }),
        (vec!["-g", "*.txt", "needle"], {
            let mut args_ = g("needle");
            args_.include = Some(Globs::One("*.txt".into()));
            args_
        }),
        (vec!["-g", "!many/**", "needle"], {
            let mut args_ = g("needle");
            args_.exclude = Some(Globs::One("many/**".into()));
            args_
        }),
        (vec!["-g", "sub/**", "-g", "*.log", "needle"], {
            let mut args_ = g("needle");
            args_.include = Some(Globs::Many(vec!["sub/**".into(), "*.log".into()]));
            args_
        }),
        (vec!["-t", "rust", "needle"], {
            let mut args_ = g("needle");
            args_.file_type = Some("rust".into());
            args_
        }),
        (vec!["-t", "c", "-t", "make", "needle"], {
            let mut args_ = g("needle");
            args_.file_type = Some("c,make".into());
            args_
        }),
        (vec!["-l", "needle"], {
            let mut args_ = g("needle");
            args_.output_mode = Some(OutputMode::FilesWithMatches);
            args_
        }),
        (vec!["-c", "needle"], {
            let mut args_ = g("needle");
            args_.output_mode = Some(OutputMode::Count);
            args_
        }),
        (vec!["-C", "1", "needle"], {
            let mut args_ = g("needle");
            args_.context = Some(1);
            args_
        }),
        (vec!["-A", "2", "-B", "1", "needle"], {
            let mut args_ = g("needle");
            args_.after = Some(2);
            args_.before = Some(1);
            args_
        }),
        (vec!["-C", "3", "needle (one|two)"], {
            let mut args_ = g("needle (one|two)");
            args_.context = Some(3);
            args_
        }),
        (
            vec!["no-such-string-anywhere"],
            g("no-such-string-anywhere"),
        ),
        (vec!["^ctx\\d$"], g("^ctx\\d$")),
    ];
    for (flags, args) in cases {
        let ours = all(&sb, args.clone());
        let theirs = rg_lines(r, &flags);
        assert_same(&ours, &theirs, &format!("rg {flags:?}"));
    }
}

/// `.gitignore` files apply only inside a repository, and a nested repository stops the rules of the
/// one around it, as in ripgrep; a search started inside a repository uses the rules above it.
#[test]
fn gitignore_scope_matches_ripgrep() {
    if !have_rg() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, ".gitignore", "*.a\n");
    write(r, "top.a", "needle top.a\n");
    write(r, "plain/.gitignore", "*.b\n");
    write(r, "plain/x.b", "needle plain x.b\n");
    fs::create_dir_all(r.join("repo/.git")).unwrap();
    write(r, "repo/.gitignore", "*.c\n");
    write(r, "repo/x.a", "needle repo x.a\n");
    write(r, "repo/x.c", "needle repo x.c\n");
    write(r, "repo/inner/.gitignore", "*.d\n!keep.c\n");
    write(r, "repo/inner/x.c", "needle inner x.c\n");
    write(r, "repo/inner/keep.c", "needle inner keep.c\n");
    write(r, "repo/inner/x.d", "needle inner x.d\n");
    fs::create_dir_all(r.join("repo/nested/.git")).unwrap();
    write(r, "repo/nested/x.c", "needle nested x.c\n");
    write(r, "repo/nested/.gitignore", "*.e\n");
    write(r, "repo/nested/x.e", "needle nested x.e\n");
    let sb = sandbox(r, 2);
    for p in [
        None,
        Some("repo"),
        Some("repo/inner"),
        Some("repo/nested"),
        Some("plain"),
    ] {
        let ours = all(&sb, {
            let mut args_ = GrepArgs::new("needle");
            args_.path = p.map(Into::into);
            args_
        });
        let mut flags = vec!["needle"];
        flags.extend(p);
        let theirs = rg_lines(r, &flags);
        assert!(theirs.contains("needle"), "{theirs}");
        assert_same(&ours, &theirs, &format!("rg {flags:?}"));
    }
}

#[test]
fn path_argument_matches_ripgrep() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let sb = sandbox(t.path(), 2);
    for p in ["sub", "sub/deeper", "many", "a.txt", "x.log"] {
        let ours = all(&sb, {
            let mut args_ = GrepArgs::new("needle");
            args_.path = Some(p.into());
            args_
        });
        let theirs = rg_lines(t.path(), &["needle", p]);
        assert_same(&ours, &theirs, &format!("path {p}"));
    }
}

#[test]
fn same_page_at_any_thread_count() {
    let t = tree();
    let pages: Vec<Vec<GrepResult>> = [1, 2, 8]
        .iter()
        .map(|&n| {
            let sb = sandbox(t.path(), n);
            (0..12)
                .map(|k| {
                    sb.grep_search(&{
                        let mut args_ = GrepArgs::new("needle");
                        args_.offset = Some(k * 7);
                        args_.limit = Some(7);
                        args_
                    })
                    .unwrap()
                })
                .collect()
        })
        .collect();
    assert_eq!(pages[0], pages[1]);
    assert_eq!(pages[0], pages[2]);
}

fn by_offset(sb: &Sandbox, base: &GrepArgs, limit: u64) -> (String, u64) {
    let (mut out, mut offset, mut calls) = (String::new(), 0, 0);
    loop {
        let r = sb
            .grep_search(&{
                let mut args_ = base.clone();
                args_.offset = Some(offset);
                args_.limit = Some(limit);
                args_
            })
            .unwrap();
        out.push_str(&r.matches);
        calls += 1;
        assert_eq!(r.next_offset, offset + r.match_lines);
        if !r.truncated {
            return (out, calls);
        }
        assert!(r.match_lines > 0, "a truncated page must make progress");
        offset = r.next_offset;
    }
}

fn by_cursor(sb: &Sandbox, base: &GrepArgs, limit: u64) -> String {
    let mut out = String::new();
    let mut cursor = None;
    let mut expect_offset = 0;
    loop {
        let r = sb
            .grep_search(&{
                let mut args_ = base.clone();
                args_.cursor = cursor.clone();
                args_.limit = Some(limit);
                args_
            })
            .unwrap();
        out.push_str(&r.matches);
        expect_offset += r.match_lines;
        assert_eq!(r.next_offset, expect_offset);
        if !r.truncated {
            assert!(r.next_cursor.is_none());
            return out;
        }
        cursor = Some(r.next_cursor.expect("truncated pages carry a cursor"));
    }
}

#[test]
fn pages_concatenate_to_the_full_result() {
    let t = tree();
    // late_bin.txt alone has 17,576 matches: paging it one by one would only measure patience.
    fs::remove_file(t.path().join("late_bin.txt")).unwrap();
    for threads in [1, 3] {
        let sb = sandbox(t.path(), threads);
        for base in [
            GrepArgs::new("needle"),
            {
                let mut args_ = GrepArgs::new("needle");
                args_.output_mode = Some(OutputMode::FilesWithMatches);
                args_
            },
            {
                let mut args_ = GrepArgs::new("needle");
                args_.output_mode = Some(OutputMode::Count);
                args_
            },
            {
                let mut args_ = GrepArgs::new("needle\\s+\\w+\\n\\w+");
                args_.multiline = Some(true);
                args_
            },
        ] {
            let full = all(&sb, base.clone());
            assert!(!full.is_empty());
            for limit in [1, 2, 3, 5, 8, 13] {
                assert_eq!(
                    by_offset(&sb, &base, limit).0,
                    full,
                    "offset paging, limit {limit}"
                );
                assert_eq!(
                    by_cursor(&sb, &base, limit),
                    full,
                    "cursor paging, limit {limit}"
                );
            }
        }
    }
}

#[test]
fn byte_cap_truncates_and_resumes() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let full = all(&sb, {
        let mut args_ = GrepArgs::new("needle");
        args_.exclude = Some(Globs::One("long.txt".into()));
        args_
    });
    let mut out = String::new();
    let mut cursor = None;
    loop {
        let r = sb
            .grep_search(&{
                let mut args_ = GrepArgs::new("needle");
                args_.cursor = cursor.clone();
                args_.limit = Some(1000);
                args_.max_bytes = Some(300);
                args_.exclude = Some(Globs::One("long.txt".into()));
                args_
            })
            .unwrap();
        assert!(
            r.matches.len() <= 300 || r.match_lines == 1,
            "page of {} bytes",
            r.matches.len()
        );
        out.push_str(&r.matches);
        if !r.truncated {
            break;
        }
        cursor = r.next_cursor;
    }
    assert_eq!(out, full);
}

#[test]
fn truncated_is_exact() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..5 {
        write(t.path(), &format!("f{i}.txt"), "hit\n");
    }
    let sb = sandbox(t.path(), 2);
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("hit");
            args_.limit = Some(5);
            args_
        })
        .unwrap();
    assert_eq!(r.match_lines, 5);
    assert!(
        !r.truncated,
        "exactly limit results and no more: not truncated"
    );
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("hit");
            args_.limit = Some(4);
            args_
        })
        .unwrap();
    assert!(r.truncated);
    assert_eq!(r.next_offset, 4);
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("hit");
            args_.offset = Some(1000);
            args_
        })
        .unwrap();
    assert_eq!((r.match_lines, r.truncated), (0, false));
}

#[test]
fn stats_count_every_skip() {
    let t = tree();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        t.path().join("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let mut p = Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: t.path().into(),
        }],
        ..Default::default()
    };
    p.deny = vec!["many/f0*".into()];
    p.limits.max_filesize = 1000;
    let sb = Sandbox::new(p).unwrap();
    let start = Instant::now();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    // A FIFO in the tree must not block the search.
    support::time::assert_prompt(start.elapsed(), "a search past a FIFO");
    let s = r.stats.skipped;
    // Denied files are indistinguishable from absent ones: never counted.
    assert_eq!(s.denied, 0, "{r:?}");
    assert!(
        s.binary >= 1 && s.too_large >= 2 && s.ignored >= 4 && s.not_regular == 1,
        "{s:?}"
    );
    assert!(!r.matches.contains("many/f0"));
}

#[test]
fn long_lines_are_cut_around_the_match() {
    let t = tree();
    let mut p = Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: t.path().into(),
        }],
        ..Default::default()
    };
    p.path_display = PathDisplay::Relative;
    let sb = Sandbox::new(p).unwrap();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.path = Some("long.txt".into());
            args_
        })
        .unwrap();
    assert!(r.matches.starts_with("long.txt:1:[... "), "{}", r.matches);
    assert!(
        r.matches.contains("needle") && r.matches.len() < 700,
        "{}",
        r.matches
    );
}

#[test]
fn paths_are_canonical_by_default_and_accepted_back() {
    let t = tree();
    let sb = Sandbox::builder().root(t.path()).build().unwrap();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle one");
            args_.path = Some("sub".into());
            args_
        })
        .unwrap();
    let line = r.matches.lines().next().unwrap();
    let path = line.split(':').next().unwrap();
    assert!(Path::new(path).is_absolute());
    let back = sb.read_file(&rootbound::ReadArgs::path(path)).unwrap();
    assert!(back.content.contains("needle one"));
}

#[test]
fn hostile_globs_are_refused() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    for g in [
        "../*",
        "/etc/**",
        "C:/**",
        "{a,../b}/*",
        "a/../../x",
        "\\\\server\\share",
        "~/x",
        "!*.txt",
        "",
    ] {
        let e = sb
            .grep_search(&{
                let mut args_ = GrepArgs::new("needle");
                args_.include = Some(Globs::One(g.into()));
                args_
            })
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{g}");
        let e = sb
            .glob(&{
                let mut args_ = GlobArgs::default();
                args_.pattern = g.into();
                args_
            })
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{g}");
    }
    let e = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("x");
            args_.file_type = Some("no-such-type".into());
            args_
        })
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
}

#[test]
fn pathological_patterns_are_bounded() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let code = |p: &str| sb.grep_search(&GrepArgs::new(p)).unwrap_err().code;
    let start = Instant::now();
    assert_eq!(code("a{100000}"), ErrorCode::PatternTooLarge);
    assert_eq!(code("\\w{5000}"), ErrorCode::PatternTooLarge);
    assert!(matches!(
        code(&"(".repeat(300)),
        ErrorCode::PatternTooLarge | ErrorCode::InvalidPattern
    ));
    assert_eq!(
        code(&format!("{}a{}", "(".repeat(300), ")".repeat(300))),
        ErrorCode::PatternTooLarge
    );
    let alternation: Vec<String> = (0..200_000).map(|i| format!("w{i}")).collect();
    assert_eq!(code(&alternation.join("|")), ErrorCode::PatternTooLarge);
    assert_eq!(code("(a)\\1"), ErrorCode::InvalidPattern);
    assert_eq!(code("(?=a)"), ErrorCode::InvalidPattern);
    assert_eq!(code("(?<!a)b"), ErrorCode::InvalidPattern);
    assert_eq!(code("a(b"), ErrorCode::InvalidPattern);
    let e = sb.grep_search(&GrepArgs::new("ab(")).unwrap_err();
    assert_eq!(e.to_json()["error"]["position"], 2);
    support::time::assert_prompt(start.elapsed(), "refusing pathological patterns");
    // Catastrophic for a backtracking engine, linear here.
    write(t.path(), "aaa.txt", "a".repeat(1 << 20));
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("(a*)*b");
            args_.path = Some("aaa.txt".into());
            args_
        })
        .unwrap();
    assert_eq!(r.match_lines, 0);
}

#[test]
fn deadline_returns_partial_page_and_cursor() {
    let t = tempfile::tempdir().unwrap();
    // 64 MiB of Greek words and a pattern with Unicode word boundaries: the lazy DFA gives up on
    // those over non-ASCII text, so the search takes seconds, far over the budget.
    let line = "αλφα βήτα γάμμα δέλτα έψιλον ζήτα ήτα θήτα ιώτα κάππα λάμδα μι νι ξι όμικρον πι ρω σίγμα ταυ\n";
    let big = line.repeat((64 << 20) / line.len());
    write(t.path(), "a_first.txt", line);
    write(t.path(), "b_big.txt", &big);
    write(t.path(), "c_last.txt", line);
    let sb = sandbox(t.path(), 2);
    let args = {
        let mut args_ = GrepArgs::new("(?i)\\b\\w{4}\\b\\s+\\b\\w{3}\\b");
        args_.timeout_ms = Some(150);
        args_.output_mode = Some(OutputMode::Count);
        args_
    };
    // Nothing here depends on how much a 150 ms budget reaches: pages until a_first's count has
    // come back (a busy machine may need many), each cut with a cursor, promptly. The cap bounds
    // only a failing run (pages that never move on).
    let mut got = String::new();
    let mut cursor = None;
    let paging = Instant::now();
    while paging.elapsed() < support::time::PROMPT * 6 {
        let start = Instant::now();
        let r = sb
            .grep_search(&{
                let mut args_ = args.clone();
                args_.cursor = cursor.take();
                args_
            })
            .unwrap();
        support::time::assert_prompt(start.elapsed(), "a 150 ms page");
        assert!(
            r.timed_out && r.truncated,
            "{:?}",
            (r.timed_out, r.truncated, r.match_lines)
        );
        got.push_str(&r.matches);
        cursor = Some(r.next_cursor.expect("a timed-out page has a cursor"));
        if !got.is_empty() {
            break;
        }
    }
    assert_eq!(
        got, "a_first.txt:1\n",
        "the pages keep what came before, in order"
    );
    // Resuming continues in the big file, after what was returned.
    let r2 = sb
        .grep_search(&{
            let mut args_ = args.clone();
            args_.cursor = cursor;
            args_
        })
        .unwrap();
    assert!(!r2.matches.contains("a_first.txt"));
}

#[test]
fn walker_consults_nothing_above_the_root() {
    let outer = tempfile::tempdir().unwrap();
    fs::create_dir_all(outer.path().join(".git")).unwrap();
    write(outer.path(), ".gitignore", "*\n");
    write(outer.path(), ".ignore", "*\n");
    write(outer.path(), "inner/found.txt", "needle\n");
    write(outer.path(), "inner/.gitignore", "ignored_by_inner.txt\n");
    write(outer.path(), "inner/ignored_by_inner.txt", "needle\n");
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        ".gitconfig",
        "[core]\n\texcludesFile = ~/.globalignore\n",
    );
    write(home.path(), ".globalignore", "found.txt\n");
    let sb = sandbox(&outer.path().join("inner"), 2);
    let r = all(&sb, GrepArgs::new("needle"));
    // rg would apply the parent's ignore files and skip everything; the sandbox sees only its root.
    // The inner .gitignore is not applied either: there is no .git at or below the root (require_git).
    assert_eq!(r, "found.txt:1:needle\nignored_by_inner.txt:1:needle\n");
}

#[test]
fn walker_opens_no_host_path_under_strace() {
    if Command::new("strace").arg("-V").output().is_err() {
        panic!("strace is needed for this test (apt-get install strace)");
    }
    let outer = tempfile::tempdir().unwrap();
    write(outer.path(), ".gitignore", "*\n");
    write(outer.path(), "root/.git/info/exclude", "x\n");
    write(outer.path(), "root/a/b.txt", "needle\n");
    let log = outer.path().join("trace.log");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=%file", "-o"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_rootbound"))
        .args([
            "call",
            "grep_search",
            r#"{"pattern":"needle","hidden":true}"#,
            "--root",
        ])
        .arg(outer.path().join("root"))
        .env("HOME", outer.path())
        .status()
        .unwrap();
    assert!(status.success());
    let trace = fs::read_to_string(&log).unwrap();
    let outer_s = outer.path().to_str().unwrap();
    for line in trace.lines() {
        assert!(
            !line.contains("gitconfig") && !line.contains("/etc/git"),
            "consulted git config: {line}"
        );
        assert!(
            !line.contains(&format!("\"{outer_s}/.gitignore")),
            "consulted a parent ignore file: {line}"
        );
        assert!(!line.contains("\"/.git"), "probed /.git: {line}");
    }
    assert!(
        trace.contains("openat2("),
        "opens should go through openat2"
    );
}

#[test]
fn denied_files_never_appear() {
    let t = tree();
    write(t.path(), ".env", "needle=SECRET\n");
    write(t.path(), "sub/.env", "needle=SECRET\n");
    write(t.path(), "keys/id.pem", "needle pem\n");
    symlink(".env", t.path().join("env_alias")).unwrap();
    let mut p = Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: t.path().into(),
        }],
        ..Default::default()
    };
    p.deny = vec![".env".into(), "*.pem".into(), ".git/".into()];
    let sb = Sandbox::new(p).unwrap();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.hidden = Some(true);
            args_.no_ignore = Some(true);
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    assert!(
        !r.matches.contains("SECRET") && !r.matches.contains(".pem"),
        "{}",
        r.matches
    );
    assert_eq!(r.stats.skipped.denied, 0, "denied files are not counted");
    let g = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "**".into();
            args_.hidden = Some(true);
            args_.no_ignore = Some(true);
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    assert!(
        !g.matches.contains(".env") && !g.matches.contains(".pem") && !g.matches.contains(".git/"),
        "{}",
        g.matches
    );
    for p in [".env", "sub/.env", "env_alias", "keys/id.pem"] {
        let e = sb
            .grep_search(&{
                let mut args_ = GrepArgs::new("needle");
                args_.path = Some(p.into());
                args_
            })
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::Denied, "{p}");
    }
}

#[test]
fn hostile_cursors_and_offsets() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.limit = Some(2);
            args_
        })
        .unwrap();
    let c = r.next_cursor.unwrap();
    let bad = |cursor: &str, args: GrepArgs| {
        sb.grep_search(&{
            let mut args_ = args;
            args_.cursor = Some(cursor.into());
            args_
        })
        .unwrap_err()
        .code
    };
    assert_eq!(
        bad(&c[..c.len() / 2], GrepArgs::new("needle")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        bad("not-a-cursor", GrepArgs::new("needle")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        bad(&c, GrepArgs::new("other query")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        bad(&c, {
            let mut args_ = GrepArgs::new("needle");
            args_.offset = Some(3);
            args_
        }),
        ErrorCode::InvalidArgument
    );
    let glob_c = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_.limit = Some(1);
            args_
        })
        .unwrap()
        .next_cursor
        .unwrap();
    assert_eq!(
        bad(&glob_c, GrepArgs::new("needle")),
        ErrorCode::InvalidArgument
    );
    let v = sb.call(
        "grep_search",
        serde_json::json!({"pattern": "needle", "offset": -1}),
    );
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT");
    let v = sb.call(
        "grep_search",
        serde_json::json!({"pattern": "needle", "offset": u64::MAX}),
    );
    assert_eq!(
        v["error"]["code"], "INVALID_ARGUMENT",
        "offsets over MAX_OFFSET: {v}"
    );
    let v = sb.call(
        "grep_search",
        serde_json::json!({"pattern": "needle", "offset": rootbound::MAX_OFFSET}),
    );
    assert_eq!(
        (v["match_lines"].as_u64(), v["truncated"].as_bool()),
        (Some(0), Some(false)),
        "{v}"
    );
    let v = sb.call(
        "grep_search",
        serde_json::json!({"pattern": "needle", "limit": 0}),
    );
    assert!(
        v["match_lines"].as_u64().unwrap() >= 1,
        "limit 0 is raised to 1: {v}"
    );
}

#[test]
fn glob_lists_sorted_paths_and_pages() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let r = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.txt".into();
            args_.limit = Some(1000);
            args_
        })
        .unwrap();
    assert_eq!(r.matches, rg_files(t.path(), &["-g", "*.txt"]));
    let mut out = String::new();
    let mut cursor = None;
    loop {
        let p = sb
            .glob(&{
                let mut args_ = GlobArgs::default();
                args_.pattern = "*.txt".into();
                args_.limit = Some(4);
                args_.cursor = cursor.clone();
                args_
            })
            .unwrap();
        out.push_str(&p.matches);
        if !p.truncated {
            break;
        }
        cursor = p.next_cursor;
    }
    assert_eq!(out, r.matches);
    let r = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.rs".into();
            args_.path = Some("src".into());
            args_
        })
        .unwrap();
    assert_eq!(r.matches, "src/main.rs\n");
}

/// ATTACKS 19: a directory swapped for a symlink to outside while walks and greps run.
#[test]
fn race_swap_dir_for_symlink_during_grep_and_glob() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("root");
    let outside = base.path().join("outside");
    write(&outside, "CANARY_NAME.txt", "needle CANARY_BYTES\n");
    write(&root, "d/inside.txt", "needle inside\n");
    let sb = sandbox(&root, 2);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let secs: u64 = std::env::var("ROOTBOUND_STRESS_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    std::thread::scope(|s| {
        s.spawn(|| {
            let (d, real, tmp) = (root.join("d"), root.join("d_real"), root.join("d_tmp"));
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = fs::rename(&d, &real);
                let _ = symlink(&outside, &tmp);
                let _ = fs::rename(&tmp, &d);
                std::thread::yield_now();
                let _ = fs::remove_file(&d);
                let _ = fs::rename(&real, &d);
            }
        });
        let end = Instant::now() + Duration::from_secs(secs);
        let mut n = 0;
        while Instant::now() < end {
            for args in [GrepArgs::new("needle"), {
                let mut args_ = GrepArgs::new("needle");
                args_.path = Some("d".into());
                args_
            }] {
                if let Ok(r) = sb.grep_search(&{
                    let mut args_ = args;
                    args_.hidden = Some(true);
                    args_.no_ignore = Some(true);
                    args_
                }) {
                    assert!(
                        !r.matches.contains("CANARY"),
                        "outside content leaked: {}",
                        r.matches
                    );
                }
            }
            if let Ok(r) = sb.glob(&{
                let mut args_ = GlobArgs::default();
                args_.pattern = "**".into();
                args_.path = Some("d".into());
                args_
            }) {
                assert!(
                    !r.matches.contains("CANARY"),
                    "outside name leaked: {}",
                    r.matches
                );
            }
            n += 1;
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(n > 10);
    });
}

/// A budget spent before the first file still answers a page that resumes from the start.
#[test]
fn zero_budget_gives_a_cursor_that_resumes_from_the_start() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    let full = all(&sb, GrepArgs::new("needle"));
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.timeout_ms = Some(0);
            args_
        })
        .unwrap();
    assert!(r.timed_out && r.truncated && r.match_lines == 0, "{r:?}");
    let cursor = r.next_cursor.expect("a truncated page carries a cursor");
    let rest = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.cursor = Some(cursor);
            args_.limit = Some(100_000);
            args_
        })
        .unwrap();
    assert_eq!(rest.matches, full);
}
