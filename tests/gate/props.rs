//! Property tests (proptest) for the contract's invariants, on generated inputs:
//!
//! - `grep_and_glob_pages_concatenate`: on generated trees, grep_search pages (content, files, count
//!   mode; with and without a byte cap) and glob pages, followed by `offset` and by `cursor`, concatenate
//!   to the one-call result, and that result is the same at 1, 2 and 3 search threads.
//! - `read_pages_reassemble` / `utf16_pages_reassemble` / `utf16_raw_units_page_like_the_whole_file` /
//!   `line_pages_reassemble`: read_file pages of arbitrary content (multibyte, CRLF, invalid UTF-8, lone
//!   UTF-16 surrogates) at any limit and policy cap concatenate to the file's text, every `next_offset`
//!   is a character boundary, and line-mode pages followed by `next_line` concatenate to the one-call
//!   rendering.
//! - `every_spelling_of_a_denied_path_is_denied`: `./x`, `a/../x`, `.//x`, `x/.`, trailing slashes,
//!   absolute paths, symlink aliases and a symlink to the root, in any combination: DENIED.
//! - `accepted_globs_match_only_inside`: a glob built from a hostile alphabet (`..`, `/`, `{,}`, `~`,
//!   `C:`, `\`, the root's and a sibling's names) is refused, or every path it yields (as glob pattern or
//!   as grep include/exclude) is inside the root.
//!
//! Case counts are modest so the file runs in a few seconds in `cargo test --release`; raise them with
//! `PROPTEST_CASES`.

use proptest::prelude::*;
use rootbound::{
    ErrorCode, GlobArgs, Globs, GrepArgs, GrepResult, Limits, ListArgs, OutputMode, ReadArgs,
    ReadResult, Sandbox, StatArgs,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(n);
    ProptestConfig {
        cases: n,
        // Failures are minimized and reported in the test output; no regression files in tests/.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn sandbox(root: &Path, threads: usize, limits: Limits) -> Sandbox {
    Sandbox::builder()
        .root(root)
        .limits(Limits { threads, ..limits })
        .build()
        .unwrap()
}

// ---------------------------------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------------------------------

/// Files: up to 3 directory levels from a small alphabet (names sort in interesting byte orders) and a
/// file name from a disjoint alphabet (so no path is both a file and a directory).
fn tree_strategy() -> impl Strategy<Value = BTreeMap<String, String>> {
    let dir = prop::sample::select(vec!["d", "D", "d-1", "d.1", "é", "sub"]);
    let file = prop::sample::select(vec!["a.txt", "B.rs", "c", "ü.md", "a.txt~", "_x"]);
    let path = (prop::collection::vec(dir, 0..3), file).prop_map(|(mut ds, f)| {
        ds.push(f);
        ds.join("/")
    });
    let line = prop::sample::select(vec![
        "needle",
        "hay",
        "needle needle",
        "ünïcode needle",
        "",
        "NEEDLE",
    ]);
    let content = prop::collection::vec(line, 0..10).prop_map(|ls| {
        let mut s = ls.join("\n");
        s.push('\n');
        s
    });
    prop::collection::btree_map(path, content, 1..20)
}

fn build_tree(files: &BTreeMap<String, String>) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    for (p, c) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, c).unwrap();
    }
    (t, root)
}

fn grep_pages_by_offset(
    sb: &Sandbox,
    base: &GrepArgs,
    limit: u64,
) -> Result<String, TestCaseError> {
    let (mut out, mut offset) = (String::new(), 0);
    for _ in 0..10_000 {
        let r = sb
            .grep_search(&{
                let mut args_ = base.clone();
                args_.offset = Some(offset);
                args_.limit = Some(limit);
                args_
            })
            .unwrap();
        out.push_str(&r.matches);
        prop_assert_eq!(r.next_offset, offset + r.match_lines);
        if !r.truncated {
            return Ok(out);
        }
        prop_assert!(r.match_lines > 0, "a truncated page made no progress");
        offset = r.next_offset;
    }
    Err(TestCaseError::fail("offset paging never ended"))
}

fn pages_by_cursor(call: &dyn Fn(Option<String>) -> GrepResult) -> Result<String, TestCaseError> {
    let (mut out, mut cursor) = (String::new(), None);
    for _ in 0..10_000 {
        let r = call(cursor.clone());
        out.push_str(&r.matches);
        if !r.truncated {
            prop_assert!(r.next_cursor.is_none());
            return Ok(out);
        }
        cursor = Some(r.next_cursor.expect("a truncated page carries a cursor"));
    }
    Err(TestCaseError::fail("cursor paging never ended"))
}

proptest! {
    #![proptest_config(cases(24))]

    #[test]
    fn grep_and_glob_pages_concatenate(
        files in tree_strategy(),
        threads in 1usize..4,
        limit in 1u64..6,
        mode in 0u8..3,
        case_insensitive in any::<bool>(),
        byte_cap in prop::option::of(256u64..400),
    ) {
        let (_t, root) = build_tree(&files);
        let big = Limits { max_results: 100_000, max_bytes: 1 << 24, ..Limits::default() };
        let sb = sandbox(&root, threads, big.clone());
        let base = { let mut args_ = GrepArgs::new("needle"); args_.output_mode = Some([OutputMode::Content, OutputMode::FilesWithMatches, OutputMode::Count][mode as usize]); args_.case_insensitive = Some(case_insensitive); args_.max_bytes = byte_cap; args_ };
        let full = sb.grep_search(&{ let mut args_ = base.clone(); args_.limit = Some(100_000); args_.max_bytes = None; args_ }).unwrap();
        prop_assert!(!full.truncated);
        // The same one-call result at every thread count.
        for n in 1..4 {
            let other = sandbox(&root, n, big.clone())
                .grep_search(&{ let mut args_ = base.clone(); args_.limit = Some(100_000); args_.max_bytes = None; args_ })
                .unwrap();
            prop_assert_eq!(&other.matches, &full.matches, "threads {} vs {}", n, threads);
        }
        if byte_cap.is_none() {
            prop_assert_eq!(grep_pages_by_offset(&sb, &base, limit)?, full.matches.clone(), "offset paging");
        }
        let by_cursor = pages_by_cursor(&|cursor| {
            sb.grep_search(&{ let mut args_ = base.clone(); args_.cursor = cursor; args_.limit = Some(limit); args_ }).unwrap()
        })?;
        prop_assert_eq!(by_cursor, full.matches.clone(), "cursor paging");

        // glob: the same for file names.
        let gbase = { let mut args_ = GlobArgs::default(); args_.pattern = "**".into(); args_ };
        let gfull = sb.glob(&{ let mut args_ = gbase.clone(); args_.limit = Some(100_000); args_ }).unwrap();
        prop_assert!(!gfull.truncated);
        prop_assert_eq!(gfull.match_lines as usize, files.len());
        let gcursor = pages_by_cursor(&|cursor| {
            sb.glob(&{ let mut args_ = gbase.clone(); args_.cursor = cursor; args_.limit = Some(limit); args_ }).unwrap()
        })?;
        prop_assert_eq!(gcursor, gfull.matches.clone(), "glob cursor paging");
        let mut goffset = String::new();
        let mut offset = 0;
        loop {
            let r = sb.glob(&{ let mut args_ = gbase.clone(); args_.offset = Some(offset); args_.limit = Some(limit); args_ }).unwrap();
            goffset.push_str(&r.matches);
            if !r.truncated { break; }
            offset = r.next_offset;
        }
        prop_assert_eq!(goffset, gfull.matches, "glob offset paging");
    }
}

// ---------------------------------------------------------------------------------------------------
// read_file pages
// ---------------------------------------------------------------------------------------------------

fn content_strategy() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop::sample::select(vec![
        &b"a"[..],
        b"xyz ",
        "é".as_bytes(),
        "€".as_bytes(),
        "🦀".as_bytes(),
        b"\r\n",
        b"\n",
        b"\r",
        b"\xff",
        b"\xe2\x82",
        b"\x80",
        b"\xf0\x9f",
    ]);
    prop::collection::vec(piece, 0..120).prop_map(|ps| ps.concat())
}

fn read(sb: &Sandbox, args: ReadArgs) -> ReadResult {
    sb.read_file(&args)
        .unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// `ok[i]`: offset `i` is not strictly inside a valid UTF-8 character.
fn utf8_boundaries(b: &[u8]) -> Vec<bool> {
    let mut ok = vec![true; b.len() + 1];
    let mut i = 0;
    while i < b.len() {
        let n = match b[i] {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 1,
        };
        if n > 1 && i + n <= b.len() && std::str::from_utf8(&b[i..i + n]).is_ok() {
            ok[i + 1..i + n].iter_mut().for_each(|x| *x = false);
            i += n;
        } else {
            i += 1;
        }
    }
    ok
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn read_pages_reassemble(
        bytes in content_strategy(),
        limit in 1u64..24,
        cap in 1u64..32,
        start in 0u64..400,
    ) {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("f"), &bytes).unwrap();
        let sb = sandbox(t.path(), 1, Limits { max_read_bytes: cap, ..Limits::default() });
        let ok = utf8_boundaries(&bytes);
        let total = bytes.len() as u64;
        let first = read(&sb, { let mut args_ = ReadArgs::path("f"); args_.offset = Some(start); args_.limit = Some(limit); args_ });
        // An offset inside a character snaps back to its start (at most 3 bytes).
        let asked = start.min(total);
        prop_assert!(first.offset <= asked && asked - first.offset <= 3, "{:?}", first);
        let first_offset = first.offset;
        let mut at = first.offset;
        let mut text = String::new();
        let mut page = first;
        loop {
            prop_assert_eq!(page.offset, at);
            prop_assert!(ok[page.next_offset as usize], "next_offset {} inside a character", page.next_offset);
            prop_assert_eq!(page.bytes_returned, page.next_offset - page.offset);
            prop_assert_eq!(&page.content, &String::from_utf8_lossy(&bytes[at as usize..page.next_offset as usize]));
            prop_assert_eq!(page.truncated, page.next_offset < total);
            text.push_str(&page.content);
            if !page.truncated { break; }
            prop_assert!(page.next_offset > at, "no progress at {}", at);
            at = page.next_offset;
            page = read(&sb, { let mut args_ = ReadArgs::path("f"); args_.offset = Some(at); args_.limit = Some(limit); args_ });
        }
        prop_assert_eq!(page.next_offset, total);
        // The pages are the file's text from where the first one started, exactly.
        prop_assert_eq!(text, String::from_utf8_lossy(&bytes[first_offset as usize..]).into_owned());
    }

    #[test]
    fn utf16_pages_reassemble(
        s in "[a-zé€\n\r]{0,40}(🦀[a-z]{0,3}){0,6}",
        le in any::<bool>(),
        odd in any::<bool>(),
        limit in 1u64..12,
    ) {
        let mut bytes = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for u in s.encode_utf16() {
            bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let mut want = s.clone();
        if odd {
            bytes.push(b'x');
            want.push('\u{FFFD}');
        }
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("f"), &bytes).unwrap();
        let sb = sandbox(t.path(), 1, Limits::default());
        let (mut text, mut at) = (String::new(), 0);
        for _ in 0..10_000 {
            let p = read(&sb, { let mut args_ = ReadArgs::path("f"); args_.offset = Some(at); args_.limit = Some(limit); args_ });
            prop_assert!(p.encoding.starts_with("utf-16"), "{:?}", p);
            text.push_str(&p.content);
            if !p.truncated { break; }
            prop_assert!(p.next_offset > at);
            at = p.next_offset;
        }
        prop_assert_eq!(text, want);
    }

    /// Raw UTF-16 units, lone and paired surrogates included: pages decode like the whole file.
    #[test]
    fn utf16_raw_units_page_like_the_whole_file(
        units in prop::collection::vec(
            prop_oneof![Just(0x61u16), Just(0xD83D), Just(0xDE00), Just(0xD800), Just(0xDFFF), Just(0x20AC)],
            0..40,
        ),
        le in any::<bool>(),
        limit in 1u64..9,
    ) {
        let mut bytes = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for u in &units {
            bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("f"), &bytes).unwrap();
        let sb = sandbox(t.path(), 1, Limits::default());
        let whole = read(&sb, ReadArgs::path("f"));
        prop_assert!(!whole.truncated);
        let (mut text, mut at) = (String::new(), 0);
        for _ in 0..10_000 {
            let p = read(&sb, { let mut args_ = ReadArgs::path("f"); args_.offset = Some(at); args_.limit = Some(limit); args_ });
            text.push_str(&p.content);
            if !p.truncated { break; }
            prop_assert!(p.next_offset > at);
            at = p.next_offset;
        }
        prop_assert_eq!(text, whole.content);
    }

    #[test]
    fn line_pages_reassemble(
        bytes in content_strategy(),
        max_lines in 1u64..5,
        cap in 1u64..64,
        start_line in 1u64..6,
        numbers in any::<bool>(),
        line_chars in 1usize..8,
    ) {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("f"), &bytes).unwrap();
        let limits = Limits { max_read_bytes: cap, max_line_chars: line_chars, ..Limits::default() };
        let sb = sandbox(t.path(), 1, limits.clone());
        let big = sandbox(t.path(), 1, Limits { max_read_bytes: 1 << 30, ..limits });
        let args = |n: u64, m: u64| { let mut args_ = ReadArgs::path("f"); args_.start_line = Some(n); args_.max_lines = Some(m); args_.line_numbers = Some(numbers); args_ };
        let whole = read(&big, args(start_line, u64::MAX));
        let total = bytes.len() as u64;
        let line_start = |o: u64| o == 0 || o == total || bytes[o as usize - 1] == b'\n';
        let (mut text, mut next) = (String::new(), Some(start_line));
        while let Some(n) = next {
            let p = read(&sb, args(n, max_lines));
            prop_assert!(line_start(p.next_offset), "next_offset {} is not a line start", p.next_offset);
            if p.truncated {
                prop_assert!(p.end_line.unwrap() >= n, "a truncated line page made no progress: {:?}", p);
            }
            text.push_str(&p.content);
            next = p.next_line;
        }
        prop_assert_eq!(text, whole.content);
    }
}

// ---------------------------------------------------------------------------------------------------
// Deny rules
// ---------------------------------------------------------------------------------------------------

struct DenyWorld {
    _t: tempfile::TempDir,
    root: PathBuf,
    sb: Sandbox,
}

fn deny_world() -> DenyWorld {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let w = |p: &str, c: &str| {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, c).unwrap();
    };
    w(".env", "SECRET-ENV\n");
    w("sub/.env", "SECRET-SUBENV\n");
    w(".git/config", "SECRET-GIT\n");
    w(".git/hooks/pre", "SECRET-HOOK\n");
    w("keys/id.pem", "SECRET-PEM\n");
    w("secrets/token", "SECRET-TOKEN\n");
    w("sub/inner/plain.txt", "plain\n");
    let l = |name: &str, target: &str| std::os::unix::fs::symlink(target, root.join(name)).unwrap();
    l("e", ".env");
    l("chain", "e");
    l("se", "sub/.env");
    l("sub/e2", "../.env");
    l("g", ".git");
    l("gc", ".git/config");
    l("k", "keys/id.pem");
    l("s", "secrets");
    l("sub/up", "..");
    let sb = Sandbox::builder()
        .root(&root)
        .deny(".env")
        .deny(".git/")
        .deny("*.pem")
        .deny("/secrets/")
        .build()
        .unwrap();
    DenyWorld { _t: t, root, sb }
}

/// (path components, is a directory, symlinks that alias the whole path)
const DENIED: &[(&[&str], bool, &[&str])] = &[
    (&[".env"], false, &["e", "chain", "sub/e2"]),
    (&["sub", ".env"], false, &["se"]),
    (&[".git", "config"], false, &["gc", "g/config"]),
    (&[".git", "hooks", "pre"], false, &["g/hooks/pre"]),
    (&[".git"], true, &["g"]),
    (&[".git", "hooks"], true, &["g/hooks"]),
    (&["keys", "id.pem"], false, &["k"]),
    (&["secrets", "token"], false, &["s/token"]),
    (&["secrets"], true, &["s"]),
];

/// One spelling of a denied path: which base (canonical, an alias, through `sub/up`, through
/// `sub/../`, through `sub/inner/../../`), how each separator is written, a prefix and a suffix.
fn spell(root: &Path, target: usize, base: u8, seps: &[u8], prefix: u8, suffix: u8) -> String {
    let (comps, is_dir, aliases) = DENIED[target];
    let mut parts: Vec<String> = match base % 5 {
        1 if !aliases.is_empty() => aliases[(base as usize / 5) % aliases.len()]
            .split('/')
            .map(str::to_string)
            .collect(),
        2 => ["sub", "up"]
            .iter()
            .chain(comps)
            .map(|s| s.to_string())
            .collect(),
        3 => ["sub", ".."]
            .iter()
            .chain(comps)
            .map(|s| s.to_string())
            .collect(),
        4 => ["sub", "inner", "..", ".."]
            .iter()
            .chain(comps)
            .map(|s| s.to_string())
            .collect(),
        _ => comps.iter().map(|s| s.to_string()).collect(),
    };
    let mut s = parts.remove(0);
    for (i, p) in parts.iter().enumerate() {
        s.push_str(["/", "//", "/./", "/"][seps.get(i).copied().unwrap_or(0) as usize % 4]);
        s.push_str(p);
    }
    let s = match prefix % 4 {
        1 => format!("./{s}"),
        2 => format!(".//{s}"),
        3 => format!("{}/{s}", root.display()),
        _ => s,
    };
    if is_dir {
        format!("{s}{}", ["", "/", "/.", "//"][suffix as usize % 4])
    } else {
        s
    }
}

proptest! {
    #![proptest_config(cases(128))]

    #[test]
    fn every_spelling_of_a_denied_path_is_denied(
        target in 0..DENIED.len(),
        base in any::<u8>(),
        seps in prop::collection::vec(any::<u8>(), 0..4),
        prefix in any::<u8>(),
        suffix in any::<u8>(),
    ) {
        thread_local!(static W: DenyWorld = deny_world());
        W.with(|w| {
            let req = spell(&w.root, target, base, &seps, prefix, suffix);
            let is_dir = DENIED[target].1;
            let code = |r: Result<String, rootbound::Error>| match r {
                Ok(s) => panic!("{req:?} was served: {s}"),
                Err(e) => {
                    assert!(!e.message.contains("SECRET"), "{req:?}: {e}");
                    e.code
                }
            };
            let read = code(w.sb.read_file(&ReadArgs::path(&req)).map(|r| r.content));
            prop_assert_eq!(read, ErrorCode::Denied, "read_file {:?}", req);
            let stat = code(w.sb.stat(&{ let mut args_ = StatArgs::default(); args_.path = req.clone(); args_ }).map(|r| r.path));
            prop_assert_eq!(stat, ErrorCode::Denied, "stat {:?}", req);
            if is_dir {
                let list = code(
                    w.sb.list_dir(&{ let mut args_ = ListArgs::default(); args_.path = Some(req.clone()); args_.hidden = Some(true); args_ })
                        .map(|l| format!("{:?}", l.entries)),
                );
                prop_assert_eq!(list, ErrorCode::Denied, "list_dir {:?}", req);
                let grep = code(
                    w.sb.grep_search(&{ let mut args_ = GrepArgs::new("SECRET"); args_.path = Some(req.clone()); args_.hidden = Some(true); args_ })
                        .map(|g| g.matches),
                );
                prop_assert_eq!(grep, ErrorCode::Denied, "grep_search path {:?}", req);
            }
            Ok(())
        })?;
    }
}

// ---------------------------------------------------------------------------------------------------
// Glob validation
// ---------------------------------------------------------------------------------------------------

struct GlobWorld {
    _t: tempfile::TempDir,
    root: PathBuf,
    sb: Sandbox,
}

fn glob_world() -> GlobWorld {
    let t = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(t.path()).unwrap();
    let root = base.join("root");
    for p in [
        "root/a.txt",
        "root/sub/b.txt",
        "root/sub/deep/c.txt",
        "root/.hidden/h.txt",
        "root_evil/a.txt",
        "outside/a.txt",
        "outside/sub/b.txt",
        "a.txt",
    ] {
        let p = base.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "x\n").unwrap();
    }
    std::os::unix::fs::symlink("../outside", root.join("out")).unwrap();
    let sb = Sandbox::builder().root(&root).build().unwrap();
    GlobWorld { _t: t, root, sb }
}

fn glob_strategy() -> impl Strategy<Value = String> {
    let tok = prop::sample::select(vec![
        "*",
        "**",
        "?",
        "/",
        "..",
        ".",
        "a",
        "b",
        ".txt",
        "sub",
        "out",
        "{",
        "}",
        ",",
        "[",
        "]",
        "!",
        "\\",
        "~",
        "C:",
        "root",
        "root_evil",
        "outside",
        "-",
        "^",
        "//",
        "../",
        "/..",
    ]);
    prop::collection::vec(tok, 1..8).prop_map(|v| v.concat())
}

fn assert_inside(root: &Path, listing: &str, what: &str) -> Result<(), TestCaseError> {
    let prefix = format!("{}/", root.display());
    for line in listing.lines() {
        let path = line.split(':').next().unwrap_or(line);
        prop_assert!(
            path.starts_with(&prefix),
            "{}: {:?} is not under the root",
            what,
            line
        );
        let md = std::fs::symlink_metadata(path);
        prop_assert!(md.is_ok(), "{}: {:?} does not exist", what, path);
        let parent = std::fs::canonicalize(Path::new(path).parent().unwrap()).unwrap();
        prop_assert!(
            parent.starts_with(root),
            "{}: {:?} resolves outside",
            what,
            path
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn accepted_globs_match_only_inside(g in glob_strategy(), in_sub in any::<bool>()) {
        thread_local!(static W: GlobWorld = glob_world());
        W.with(|w| {
            let path = in_sub.then(|| "sub".to_string());
            let ok_codes = [ErrorCode::InvalidArgument];
            match w.sb.glob(&{ let mut args_ = GlobArgs::default(); args_.pattern = g.clone(); args_.path = path.clone(); args_.hidden = Some(true); args_.no_ignore = Some(true); args_.limit = Some(100); args_ }) {
                Ok(r) => assert_inside(&w.root, &r.matches, &format!("glob {g:?}"))?,
                Err(e) => prop_assert!(ok_codes.contains(&e.code), "glob {:?}: {}", g, e),
            }
            for (include, exclude) in [(Some(Globs::One(g.clone())), None), (None, Some(Globs::One(g.clone())))] {
                match w.sb.grep_search(&{ let mut args_ = GrepArgs::new("x"); args_.path = path.clone(); args_.include = include; args_.exclude = exclude; args_.hidden = Some(true); args_.no_ignore = Some(true); args_.limit = Some(100); args_ }) {
                    Ok(r) => assert_inside(&w.root, &r.matches, &format!("grep include/exclude {g:?}"))?,
                    Err(e) => prop_assert!(ok_codes.contains(&e.code), "grep {:?}: {}", g, e),
                }
            }
            Ok(())
        })?;
    }
}
