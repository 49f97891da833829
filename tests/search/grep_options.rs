//! The agent options of grep_search (invert, only_matching, patterns, max_count,
//! line_regexp, files_without_match, max_depth), its JSON output, and glob's sort by modification
//! time. Each option is checked against `rg` (under CI), and offset and cursor paging stay exact
//! with it.

use rootbound::{
    ErrorCode, GlobArgs, GlobSort, GrepArgs, GrepResult, HitKind, OutputFormat, OutputMode, Sandbox,
};
use std::fs;
use std::time::{Duration, SystemTime};

use crate::support;
use support::grep::{sandbox, write};
use support::rg::{have_rg, rg_lines};

/// Several matches per line, files without any, nested directories, a binary file, long files.
fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(r, "a.txt", "foo bar foo\nbar\nfoo\nbaz qux\nfoofoo\n");
    write(r, "b.txt", "nothing here\nbar only\n");
    write(
        r,
        "c.txt",
        "1 foo\n2\n3 foo\n4\n5\n6 foo\n7\n8\n9\n10 foo\n",
    );
    write(r, "empty.txt", "");
    write(r, "d1/x.txt", "foo in d1\nbar in d1\n");
    write(r, "d1/d2/y.txt", "foo in d2\n");
    write(r, "d1/d2/d3/z.txt", "foo in d3\nqux\n");
    write(r, "bin.dat", b"foo\x00bar\n");
    write(r, "nomatch/n.txt", "qux\nquux\n");
    let mut many = String::new();
    for i in 0..40 {
        many.push_str(&format!("foo {i} foo\nplain {i}\n"));
    }
    write(r, "many.txt", many);
    t
}

fn full(sb: &Sandbox, mut args: GrepArgs) -> GrepResult {
    args.limit = Some(100_000);
    let r = sb.grep_search(&args).unwrap();
    assert!(!r.truncated && !r.timed_out, "{r:?}");
    r
}

fn g(p: &str) -> GrepArgs {
    GrepArgs::new(p)
}

/// The cases, as rg flags and as grep_search arguments.
fn cases() -> Vec<(Vec<&'static str>, GrepArgs)> {
    vec![
        (vec!["-v", "foo"], {
            let mut args_ = g("foo");
            args_.invert = Some(true);
            args_
        }),
        (vec!["-v", "-C", "1", "foo"], {
            let mut args_ = g("foo");
            args_.invert = Some(true);
            args_.context = Some(1);
            args_
        }),
        (vec!["-c", "-v", "foo"], {
            let mut args_ = g("foo");
            args_.invert = Some(true);
            args_.output_mode = Some(OutputMode::Count);
            args_
        }),
        (vec!["-l", "-v", "foo"], {
            let mut args_ = g("foo");
            args_.invert = Some(true);
            args_.output_mode = Some(OutputMode::FilesWithMatches);
            args_
        }),
        (vec!["-o", "foo"], {
            let mut args_ = g("foo");
            args_.only_matching = Some(true);
            args_
        }),
        (vec!["-o", "f?o+"], {
            let mut args_ = g("f?o+");
            args_.only_matching = Some(true);
            args_
        }),
        (vec!["-o", "-v", "foo"], {
            let mut args_ = g("foo");
            args_.only_matching = Some(true);
            args_.invert = Some(true);
            args_
        }),
        (vec!["-e", "foo", "-e", "qux"], {
            let mut args_ = g("foo");
            args_.patterns = Some(vec!["qux".into()]);
            args_
        }),
        (vec!["-o", "-e", "bar", "-e", "qu+x"], {
            let mut args_ = g("bar");
            args_.patterns = Some(vec!["qu+x".into()]);
            args_.only_matching = Some(true);
            args_
        }),
        (vec!["-F", "-e", "a.b", "-e", "foo"], {
            let mut args_ = g("a.b");
            args_.patterns = Some(vec!["foo".into()]);
            args_.fixed_strings = Some(true);
            args_
        }),
        (vec!["-m", "1", "foo"], {
            let mut args_ = g("foo");
            args_.max_count = Some(1);
            args_
        }),
        (vec!["-m", "3", "foo"], {
            let mut args_ = g("foo");
            args_.max_count = Some(3);
            args_
        }),
        (vec!["-c", "-m", "2", "foo"], {
            let mut args_ = g("foo");
            args_.max_count = Some(2);
            args_.output_mode = Some(OutputMode::Count);
            args_
        }),
        (vec!["-x", "foo"], {
            let mut args_ = g("foo");
            args_.line_regexp = Some(true);
            args_
        }),
        (
            // The last of -w and -x wins in rg; line_regexp wins over word here.
            vec!["-w", "-x", "bar"],
            {
                let mut args_ = g("bar");
                args_.line_regexp = Some(true);
                args_.word = Some(true);
                args_
            },
        ),
        (vec!["--files-without-match", "foo"], {
            let mut args_ = g("foo");
            args_.output_mode = Some(OutputMode::FilesWithoutMatch);
            args_
        }),
        (vec!["--max-depth", "1", "foo"], {
            let mut args_ = g("foo");
            args_.max_depth = Some(1);
            args_
        }),
        (vec!["--max-depth", "2", "foo"], {
            let mut args_ = g("foo");
            args_.max_depth = Some(2);
            args_
        }),
        (vec!["--max-depth", "0", "foo"], {
            let mut args_ = g("foo");
            args_.max_depth = Some(0);
            args_
        }),
        (vec!["-C", "1", "-o", "foo"], {
            let mut args_ = g("foo");
            args_.context = Some(1);
            args_.only_matching = Some(true);
            args_
        }),
    ]
}

#[test]
fn options_match_ripgrep() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let sb = sandbox(t.path(), 2);
    for (flags, args) in cases() {
        let ours = full(&sb, args.clone()).matches;
        let theirs = rg_lines(t.path(), &flags);
        assert_eq!(ours, theirs, "rg {flags:?}");
    }
}

/// Options that ripgrep 13 handles differently, checked on their own (see the README's list).
#[test]
fn max_count_with_context_stops_at_the_count() {
    let t = tree();
    let sb = sandbox(t.path(), 1);
    let r = full(&sb, {
        let mut args_ = g("foo");
        args_.max_count = Some(1);
        args_.after = Some(2);
        args_.path = Some("c.txt".into());
        args_
    });
    // The trailing context of the last match counted is shown; a later match inside it is not a
    // match (rg 13 printed it as one and went on).
    assert_eq!(r.matches, "c.txt:1:1 foo\nc.txt-2-2\nc.txt-3-3 foo\n");
    assert_eq!(r.match_lines, 1);
}

fn pages(sb: &Sandbox, base: &GrepArgs, limit: u64, cursor_paging: bool) -> String {
    let mut out = String::new();
    let (mut offset, mut cursor) = (0, None);
    loop {
        let r = sb
            .grep_search(&{
                let mut args_ = base.clone();
                args_.offset = (!cursor_paging).then_some(offset);
                args_.cursor = cursor.clone();
                args_.limit = Some(limit);
                args_
            })
            .unwrap();
        out.push_str(&r.matches);
        assert_eq!(r.next_offset, offset + r.match_lines);
        offset = r.next_offset;
        if !r.truncated {
            return out;
        }
        assert!(r.match_lines > 0);
        assert!(r.next_cursor.is_some());
        if cursor_paging {
            cursor = r.next_cursor.clone();
        }
    }
}

#[test]
fn paging_is_exact_with_every_option() {
    let t = tree();
    for threads in [1, 3] {
        let sb = sandbox(t.path(), threads);
        for (flags, base) in cases() {
            let all = full(&sb, base.clone()).matches;
            // With context, where a page boundary falls between units on adjacent lines the `--`
            // group separators (and, with invert, a context line) come out differently: not yet
            // exact, see the README. Only the cases without context are checked here.
            if base.context.is_some() {
                continue;
            }
            for limit in [1, 2, 3, 7] {
                for cursor in [false, true] {
                    assert_eq!(
                        pages(&sb, &base, limit, cursor),
                        all,
                        "{flags:?} limit {limit} cursor {cursor} threads {threads}"
                    );
                }
            }
        }
    }
}

/// With context, pages may repeat a context line or place a `--` differently, but every line of
/// the unpaged result is on some page: a unit the full page refuses must not swallow the trailing
/// context of the last unit taken.
#[test]
fn context_pages_lose_no_line() {
    let t = tree();
    write(t.path(), "ctx.txt", "x\nneedle\ny\nz\nneedle\n");
    // A line as (path, number, text): a page may show a line of the next page's first unit as the
    // trailing context of its last one (`-` where the unpaged result has `:`).
    let lines = |s: &str| -> std::collections::BTreeSet<(String, u64, String)> {
        s.lines()
            .filter(|l| *l != "--")
            .map(|l| {
                let end = l.find(".txt").expect("every file here is a .txt") + 4;
                let (path, rest) = l.split_at(end);
                let rest = &rest[1..];
                let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap();
                let line = rest[..digits].parse().unwrap();
                (path.to_string(), line, rest[digits + 1..].to_string())
            })
            .collect()
    };
    let mut ctx_cases: Vec<_> = cases()
        .into_iter()
        .filter(|(_, a)| a.context.is_some())
        .map(|(_, a)| a)
        .collect();
    for n in [1, 2] {
        let mut a = g("needle");
        a.context = Some(n);
        ctx_cases.push(a);
    }
    for threads in [1, 3] {
        let sb = sandbox(t.path(), threads);
        for base in &ctx_cases {
            let all = lines(&full(&sb, base.clone()).matches);
            for limit in [1, 2, 3, 7] {
                for cursor in [false, true] {
                    let paged = lines(&pages(&sb, base, limit, cursor));
                    let lost: Vec<_> = all.difference(&paged).collect();
                    let extra: Vec<_> = paged.difference(&all).collect();
                    assert!(
                        lost.is_empty() && extra.is_empty(),
                        "{} context {:?} invert {:?} limit {limit} cursor {cursor}: lost {lost:?}, extra {extra:?}",
                        base.pattern,
                        base.context,
                        base.invert
                    );
                }
            }
        }
    }
}

#[test]
fn cursors_are_bound_to_the_new_options() {
    let t = tree();
    let sb = sandbox(t.path(), 1);
    let base = {
        let mut args_ = g("foo");
        args_.limit = Some(1);
        args_
    };
    let first = sb.grep_search(&base).unwrap();
    let cursor = first.next_cursor.unwrap();
    for changed in [
        {
            let mut args_ = base.clone();
            args_.invert = Some(true);
            args_
        },
        {
            let mut args_ = base.clone();
            args_.only_matching = Some(true);
            args_
        },
        {
            let mut args_ = base.clone();
            args_.patterns = Some(vec!["bar".into()]);
            args_
        },
        {
            let mut args_ = base.clone();
            args_.max_count = Some(1);
            args_
        },
        {
            let mut args_ = base.clone();
            args_.line_regexp = Some(true);
            args_
        },
        {
            let mut args_ = base.clone();
            args_.max_depth = Some(1);
            args_
        },
        {
            let mut args_ = base.clone();
            args_.output_mode = Some(OutputMode::FilesWithoutMatch);
            args_
        },
    ] {
        let e = sb
            .grep_search(&{
                let mut args_ = changed.clone();
                args_.cursor = Some(cursor.clone());
                args_
            })
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{changed:?}");
    }
}

#[test]
fn json_hits_are_the_text_page() {
    let t = tree();
    let sb = sandbox(t.path(), 2);
    for base in [
        g("foo"),
        {
            let mut args_ = g("foo");
            args_.context = Some(1);
            args_
        },
        {
            let mut args_ = g("fo+");
            args_.only_matching = Some(true);
            args_
        },
        {
            let mut args_ = g("foo");
            args_.invert = Some(true);
            args_
        },
    ] {
        for limit in [3, 100] {
            let args = {
                let mut args_ = base.clone();
                args_.limit = Some(limit);
                args_
            };
            let text = sb.grep_search(&args).unwrap();
            let json = sb
                .grep_search(&{
                    let mut args_ = args.clone();
                    args_.output_format = Some(OutputFormat::Json);
                    args_
                })
                .unwrap();
            assert_eq!(json.matches, "");
            assert_eq!(json.match_lines, text.match_lines);
            assert_eq!(json.truncated, text.truncated);
            assert_eq!(json.next_offset, text.next_offset);
            let hits = json.hits.clone().unwrap();
            let rebuilt: String = hits
                .iter()
                .map(|h| {
                    let sep = if h.kind == HitKind::Match { ':' } else { '-' };
                    format!("{}{sep}{}{sep}{}\n", h.path, h.line, h.text)
                })
                .collect();
            let without_breaks: String = text
                .matches
                .lines()
                .filter(|l| *l != "--")
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(rebuilt, without_breaks, "{base:?}");
            for h in &hits {
                match h.kind {
                    // The column points at the match in the line (or is the match's own column).
                    HitKind::Match if base.invert.is_none() => {
                        let col = h.column.expect("matches have a column") as usize;
                        let line = fs::read_to_string(t.path().join(&h.path)).unwrap();
                        let line = line.lines().nth(h.line as usize - 1).unwrap().to_string();
                        assert!(line[col - 1..].starts_with("fo"), "{h:?}");
                    }
                    HitKind::Context => assert_eq!(h.column, None),
                    _ => {}
                }
            }
            // The JSON shape agents see.
            let v = serde_json::to_value(&json).unwrap();
            assert!(v["hits"][0]["kind"].is_string(), "{v}");
        }
    }
    // Count and files modes.
    let count = |format| {
        sb.grep_search(&{
            let mut args_ = g("foo");
            args_.output_mode = Some(OutputMode::Count);
            args_.output_format = format;
            args_.limit = Some(100);
            args_
        })
        .unwrap()
    };
    let (text, json) = (count(None), count(Some(OutputFormat::Json)));
    let rebuilt: String = json
        .counts
        .unwrap()
        .iter()
        .map(|c| format!("{}:{}\n", c.path, c.count))
        .collect();
    assert_eq!(rebuilt, text.matches);
    assert_eq!(json.total, text.total);
    for mode in [OutputMode::FilesWithMatches, OutputMode::FilesWithoutMatch] {
        let files = |format| {
            sb.grep_search(&{
                let mut args_ = g("foo");
                args_.output_mode = Some(mode);
                args_.output_format = format;
                args_.limit = Some(100);
                args_
            })
            .unwrap()
        };
        let (text, json) = (files(None), files(Some(OutputFormat::Json)));
        let rebuilt: String = json
            .files
            .unwrap()
            .iter()
            .map(|f| format!("{f}\n"))
            .collect();
        assert_eq!(rebuilt, text.matches);
        assert!(!text.matches.is_empty());
    }
}

#[test]
fn bad_option_combinations_are_refused() {
    let t = tree();
    let sb = sandbox(t.path(), 1);
    for bad in [
        {
            let mut args_ = g("foo");
            args_.max_count = Some(0);
            args_
        },
        {
            let mut args_ = g("foo");
            args_.only_matching = Some(true);
            args_.multiline = Some(true);
            args_
        },
        {
            let mut args_ = g("foo");
            args_.patterns = Some(vec!["a(".into()]);
            args_
        },
    ] {
        let e = sb.grep_search(&bad).unwrap_err();
        assert!(
            matches!(
                e.code,
                ErrorCode::InvalidArgument | ErrorCode::InvalidPattern
            ),
            "{bad:?}: {e:?}"
        );
    }
    // The patterns together are bound by the pattern length limit.
    let long = "x".repeat(40 * 1024);
    let e = sb
        .grep_search(&{
            let mut args_ = g(&long);
            args_.patterns = Some(vec![long.clone()]);
            args_
        })
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::PatternTooLarge);
}

#[test]
fn glob_sorts_by_modification_time() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let now = SystemTime::now();
    // Modified: d (newest), b, c, a (oldest); b and c at the same time sort by path.
    for (name, age) in [
        ("a.rs", 400),
        ("b.rs", 200),
        ("sub/c.rs", 200),
        ("d.rs", 10),
    ] {
        write(r, name, "x\n");
        let f = fs::File::options().write(true).open(r.join(name)).unwrap();
        f.set_modified(now - Duration::from_secs(age)).unwrap();
    }
    write(r, "e.txt", "not a match\n");
    let sb = sandbox(r, 1);
    let glob = |offset, limit| {
        sb.glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.rs".into();
            args_.sort = Some(GlobSort::Modified);
            args_.offset = offset;
            args_.limit = Some(limit);
            args_
        })
        .unwrap()
    };
    let all = glob(None, 10);
    assert_eq!(all.matches, "d.rs\nb.rs\nsub/c.rs\na.rs\n");
    assert!(!all.truncated);
    let p1 = glob(None, 3);
    assert_eq!(p1.matches, "d.rs\nb.rs\nsub/c.rs\n");
    assert!(p1.truncated);
    assert_eq!(p1.next_cursor, None, "sort by time pages by offset");
    let p2 = glob(Some(p1.next_offset), 3);
    assert_eq!(p2.matches, "a.rs\n");
    assert!(!p2.truncated);
    // Path order stays the default.
    let by_path = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.rs".into();
            args_
        })
        .unwrap();
    assert_eq!(by_path.matches, "a.rs\nb.rs\nd.rs\nsub/c.rs\n");
    // A cursor from a path-ordered page is not accepted for the time order.
    let c = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.rs".into();
            args_.limit = Some(1);
            args_
        })
        .unwrap()
        .next_cursor
        .unwrap();
    let e = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.rs".into();
            args_.sort = Some(GlobSort::Modified);
            args_.cursor = Some(c);
            args_
        })
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
}
