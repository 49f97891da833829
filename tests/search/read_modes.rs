//! read_file's byte and line modes and their boundaries (docs/DESIGN.md §4), and stat / list_dir.

use crate::support;

use rootbound::{ErrorCode, Limits, ListArgs, ReadArgs, ReadResult, Sandbox, StatArgs};
use serde_json::json;
use support::read::*;

/// ASCII, 2-, 3- and 4-byte characters, a UTF-8 BOM, CRLF, CJK, combining marks.
const MIXED: &str = "\u{FEFF}héllo € 😀 wörld\r\n日本語テキスト\n\
                     e\u{301} 🇫🇷 ∑x² ≠ y\r\n\
                     last line without newline 𝄞";

fn sandbox_for(files: &[(&str, &[u8])]) -> (World, Sandbox) {
    let w = World::new();
    for (name, bytes) in files {
        w.file(name, bytes);
    }
    let sb = w.sandbox();
    (w, sb)
}

fn read(sb: &Sandbox, path: &str, offset: u64, limit: u64) -> ReadResult {
    sb.read_file(&{
        let mut args_ = ReadArgs::path(path);
        args_.offset = Some(offset);
        args_.limit = Some(limit);
        args_
    })
    .unwrap_or_else(|e| panic!("read {path} @{offset}+{limit}: {e}"))
}

/// Pages `path` by `next_offset` until `truncated` is false; checks the paging invariants and returns the
/// pages. Panics if paging does not terminate.
fn page_all(sb: &Sandbox, path: &str, limit: u64) -> Vec<ReadResult> {
    let mut pages = Vec::new();
    let mut offset = 0;
    loop {
        let p = read(sb, path, offset, limit);
        // A page starts where asked (the first page of a UTF-16 file starts after its 2-byte BOM).
        assert!(
            p.offset == offset || (offset == 0 && p.offset == 2),
            "{path} limit {limit}: page at {} for offset {offset}",
            p.offset
        );
        assert!(
            p.next_offset > offset || !p.truncated,
            "{path} limit {limit}: no progress at {offset}: {p:?}"
        );
        assert_eq!(
            p.truncated,
            p.next_offset < p.total_bytes,
            "{path}: truncated flag"
        );
        assert_eq!(p.bytes_returned, p.next_offset - p.offset);
        offset = p.next_offset;
        let done = !p.truncated;
        pages.push(p);
        assert!(
            pages.len() as u64 <= pages[0].total_bytes + 2,
            "{path} limit {limit}: paging does not end"
        );
        if done {
            return pages;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Byte mode
// ---------------------------------------------------------------------------------------------------

#[test]
fn byte_pages_reassemble_exactly_at_any_small_limit() {
    let (_w, sb) = sandbox_for(&[("mixed.txt", MIXED.as_bytes())]);
    for limit in 1..=7u64 {
        let pages = page_all(&sb, "mixed.txt", limit);
        let mut joined = String::new();
        for p in &pages {
            let (s, e) = (p.offset as usize, p.next_offset as usize);
            assert!(
                MIXED.is_char_boundary(s) && MIXED.is_char_boundary(e),
                "limit {limit}: page {s}..{e} splits a character"
            );
            assert_eq!(p.content, &MIXED[s..e], "limit {limit}: page {s}..{e}");
            assert_eq!(p.encoding, "utf-8");
            // A page holds at most `limit` bytes, unless one character is longer than the limit (then
            // exactly that one character, so paging always progresses).
            let first = MIXED[s..].chars().next().map_or(0, char::len_utf8);
            assert!(
                p.bytes_returned <= limit || p.bytes_returned == first as u64,
                "limit {limit}: page {s}..{e}"
            );
            assert!(p.bytes_returned > 0 || e == MIXED.len());
            joined.push_str(&p.content);
        }
        assert_eq!(
            joined, MIXED,
            "limit {limit}: pages concatenate to the file"
        );
    }
}

#[test]
fn default_page_and_policy_cap() {
    let big = MIXED.repeat(3000); // ~170 KB
    let w = World::new();
    w.file("big.txt", &big);
    let sb = w.sandbox();
    let p = sb.read_file(&ReadArgs::path("big.txt")).unwrap();
    assert!(p.truncated);
    assert!(p.bytes_returned <= 64 * 1024 && p.bytes_returned > 64 * 1024 - 4);
    assert!(big.is_char_boundary(p.next_offset as usize));
    let mut joined = p.content.clone();
    let mut off = p.next_offset;
    while off < big.len() as u64 {
        let p = read(&sb, "big.txt", off, 1 << 30); // capped at 64 KiB
        assert!(p.bytes_returned <= 64 * 1024);
        joined.push_str(&p.content);
        off = p.next_offset;
    }
    assert_eq!(joined, big);

    let small = w.sandbox_with(|b| b.max_read_bytes(5));
    let p = small.read_file(&ReadArgs::path("big.txt")).unwrap();
    assert!(p.bytes_returned <= 5, "policy cap: {p:?}");
    let p = read(&small, "big.txt", 0, 1000);
    assert!(
        p.bytes_returned <= 5,
        "limit above the policy cap is capped"
    );
}

#[test]
fn offsets_inside_a_character_snap_back_to_its_start() {
    let (_w, sb) = sandbox_for(&[("mixed.txt", MIXED.as_bytes())]);
    for off in 0..=MIXED.len() as u64 + 2 {
        for limit in [1, 3, 8] {
            let p = read(&sb, "mixed.txt", off, limit);
            let s = p.offset as usize;
            assert!(
                MIXED.is_char_boundary(s.min(MIXED.len())),
                "@{off}: start {s}"
            );
            assert!(p.offset <= off && off - p.offset < 4, "@{off}: start {s}");
            assert!(MIXED.is_char_boundary(p.next_offset as usize));
            assert_eq!(p.content, &MIXED[s..p.next_offset as usize]);
            assert!(p.next_offset > off || p.next_offset == MIXED.len() as u64);
        }
    }
}

#[test]
fn offset_past_the_end_and_empty_file() {
    let (_w, sb) = sandbox_for(&[("a.txt", b"abc\n"), ("empty", b"")]);
    for off in [4u64, 5, 1000, u64::MAX] {
        let p = read(&sb, "a.txt", off, 10);
        assert_eq!(p.content, "");
        assert_eq!(p.bytes_returned, 0);
        assert!(!p.truncated);
        assert_eq!(p.next_offset, 4);
        assert_eq!(p.total_bytes, 4);
    }
    let p = sb.read_file(&ReadArgs::path("empty")).unwrap();
    assert_eq!(
        (
            p.content.as_str(),
            p.total_bytes,
            p.truncated,
            p.next_offset
        ),
        ("", 0, false, 0)
    );
    assert_eq!(p.encoding, "utf-8");
    assert!(!p.binary);
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("empty");
            args_.start_line = Some(1);
            args_
        })
        .unwrap();
    assert_eq!(p.content, "");
    assert!(!p.truncated);
    assert_eq!(p.next_line, None);
    let p = read(&sb, "empty", 7, 3);
    assert_eq!((p.content.as_str(), p.truncated), ("", false));
}

#[test]
fn crlf_is_exact_in_byte_mode_and_stripped_in_line_mode() {
    let text = "one\r\ntwo\r\n\r\nfour\rstill four\r\n";
    let (_w, sb) = sandbox_for(&[("crlf.txt", text.as_bytes())]);
    let p = sb.read_file(&ReadArgs::path("crlf.txt")).unwrap();
    assert_eq!(p.content, text, "byte mode returns the file's bytes");
    for limit in 1..=4 {
        let joined: String = page_all(&sb, "crlf.txt", limit)
            .into_iter()
            .map(|p| p.content)
            .collect();
        assert_eq!(joined, text);
    }
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("crlf.txt");
            args_.start_line = Some(1);
            args_
        })
        .unwrap();
    // The line terminator's CR goes; a lone CR inside a line stays.
    assert_eq!(p.content, "one\ntwo\n\nfour\rstill four\n");
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("crlf.txt");
            args_.start_line = Some(2);
            args_.max_lines = Some(1);
            args_.line_numbers = Some(true);
            args_
        })
        .unwrap();
    assert_eq!(p.content, "     2\ttwo\n");
    assert_eq!(p.offset, 5);
    assert_eq!(p.next_offset, 10);
}

// ---------------------------------------------------------------------------------------------------
// Line mode
// ---------------------------------------------------------------------------------------------------

fn ten_lines() -> String {
    (1..=10).map(|i| format!("line {i}\n")).collect()
}

fn line_start(text: &str, line: usize) -> u64 {
    text.split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum::<usize>() as u64
}

#[test]
fn line_mode_window_and_continuation() {
    let text = ten_lines();
    let (_w, sb) = sandbox_for(&[("ten.txt", text.as_bytes())]);
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("ten.txt");
            args_.start_line = Some(3);
            args_.max_lines = Some(4);
            args_
        })
        .unwrap();
    assert_eq!(p.content, "line 3\nline 4\nline 5\nline 6\n");
    assert_eq!(
        (p.start_line, p.end_line, p.next_line),
        (Some(3), Some(6), Some(7))
    );
    assert!(p.truncated);
    assert_eq!(p.offset, line_start(&text, 3));
    assert_eq!(p.next_offset, line_start(&text, 7));
    assert_eq!(p.bytes_returned, p.next_offset - p.offset);

    // Page through by next_line: the pages concatenate to the file.
    for per in 1..=4 {
        let mut joined = String::new();
        let mut line = 1;
        let mut pages = 0;
        loop {
            let p = sb
                .read_file(&{
                    let mut args_ = ReadArgs::path("ten.txt");
                    args_.start_line = Some(line);
                    args_.max_lines = Some(per);
                    args_
                })
                .unwrap();
            joined.push_str(&p.content);
            pages += 1;
            assert!(pages <= 11);
            match p.next_line {
                Some(n) => {
                    assert!(p.truncated);
                    assert_eq!(n, line + per);
                    line = n;
                }
                None => {
                    assert!(!p.truncated);
                    break;
                }
            }
        }
        assert_eq!(joined, text, "max_lines {per}");
    }

    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("ten.txt");
            args_.start_line = Some(9);
            args_.line_numbers = Some(true);
            args_
        })
        .unwrap();
    assert_eq!(p.content, "     9\tline 9\n    10\tline 10\n");
    assert_eq!(
        (p.end_line, p.next_line, p.truncated),
        (Some(10), None, false)
    );

    // Past the end: an empty page, nothing more.
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("ten.txt");
            args_.start_line = Some(11);
            args_
        })
        .unwrap();
    assert_eq!(
        (p.content.as_str(), p.truncated, p.next_line),
        ("", false, None)
    );

    // line_numbers alone selects line mode.
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("ten.txt");
            args_.line_numbers = Some(true);
            args_
        })
        .unwrap();
    assert!(p.content.starts_with("     1\tline 1\n"));
}

#[test]
fn line_mode_last_line_without_newline() {
    let (_w, sb) = sandbox_for(&[("nonl.txt", b"a\nb\nc")]);
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("nonl.txt");
            args_.start_line = Some(2);
            args_
        })
        .unwrap();
    // The file has no newline at its end: line mode adds none.
    assert_eq!(p.content, "b\nc");
    assert_eq!((p.end_line, p.truncated), (Some(3), false));
    assert_eq!(p.next_offset, 5);
}

#[test]
fn line_mode_respects_the_byte_cap_but_always_progresses() {
    let text: String = (1..=9).map(|i| format!("line 0{i}\n")).collect(); // 8 bytes a line
    let w = World::new();
    w.file("l.txt", &text)
        .file("wide.txt", format!("{}\nnext\n", "w".repeat(100)));
    let sb = w.sandbox_with(|b| b.max_read_bytes(20));
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("l.txt");
            args_.start_line = Some(1);
            args_
        })
        .unwrap();
    assert_eq!(p.content, "line 01\nline 02\n");
    assert_eq!((p.next_line, p.truncated), (Some(3), true));
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("wide.txt");
            args_.start_line = Some(1);
            args_
        })
        .unwrap();
    assert!(p.content.starts_with("www"), "one line even over the cap");
    assert_eq!(p.next_line, Some(2));
}

#[test]
fn long_lines_are_cut_with_a_marker() {
    let w = World::new();
    let ascii = format!("{}{}", "a".repeat(10), "Z".repeat(50));
    let multi = "é".repeat(13);
    w.file("long.txt", format!("{ascii}\n{multi}\nshort\n"));
    let sb = Sandbox::builder()
        .root(&w.root)
        .limits(Limits {
            max_line_chars: 10,
            ..Limits::default()
        })
        .build()
        .unwrap();
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("long.txt");
            args_.start_line = Some(1);
            args_
        })
        .unwrap();
    let lines: Vec<&str> = p.content.lines().collect();
    assert_eq!(lines.len(), 3, "{:?}", p.content);
    assert!(lines[0].starts_with(&"a".repeat(10)) && !lines[0].contains('Z'));
    assert!(lines[0].len() > 10, "a marker follows the cut");
    assert!(lines[1].starts_with(&"é".repeat(10)) && !lines[1].starts_with(&"é".repeat(11)));
    assert_eq!(lines[2], "short");
    assert_eq!((p.end_line, p.truncated), (Some(3), false));
    // Byte mode is never cut.
    let p = sb.read_file(&ReadArgs::path("long.txt")).unwrap();
    assert!(p.content.starts_with(&ascii));
}

#[test]
fn byte_and_line_mode_together_is_invalid() {
    let (_w, sb) = sandbox_for(&[("a.txt", b"a\n")]);
    let v = sb.call(
        "read_file",
        json!({"path": "a.txt", "offset": 1, "max_lines": 2}),
    );
    assert_eq!(json_code(&v), Some("INVALID_ARGUMENT"));
    // offset 0 is its default, "not set" (strict-mode clients send every field).
    let v = sb.call(
        "read_file",
        json!({"path": "a.txt", "offset": 0, "max_lines": 2}),
    );
    assert_eq!(v["content"], "a\n");
}

// ---------------------------------------------------------------------------------------------------
// Encodings
// ---------------------------------------------------------------------------------------------------

fn utf16(text: &str, le: bool) -> Vec<u8> {
    let mut out = if le {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for u in text.encode_utf16() {
        out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    out
}

#[test]
fn utf16_with_bom_is_transcoded() {
    let text = "héllo wörld 😀 ok\nline2 𝄞\n";
    let le = utf16(text, true);
    let be = utf16(text, false);
    let (_w, sb) = sandbox_for(&[("le.txt", &le), ("be.txt", &be)]);
    for (name, enc, bytes) in [("le.txt", "utf-16le", &le), ("be.txt", "utf-16be", &be)] {
        let p = sb.read_file(&ReadArgs::path(name)).unwrap();
        assert_eq!(p.content, text, "{name}");
        assert_eq!(p.encoding, enc);
        assert!(!p.binary, "a UTF-16 file has NULs but is text");
        assert_eq!(p.total_bytes, bytes.len() as u64);
        assert!(!p.truncated);
        // Paged at any small limit: no character is split (no U+FFFD), pages rebuild the text.
        for limit in 1..=7 {
            let pages = page_all(&sb, name, limit);
            let joined: String = pages.iter().map(|p| p.content.as_str()).collect();
            assert_eq!(joined, text, "{name} limit {limit}");
            for p in &pages {
                assert_eq!(
                    p.next_offset % 2,
                    0,
                    "{name} limit {limit}: odd next_offset"
                );
            }
        }
    }
    // Line mode on UTF-16: either transcoded lines or a clear INVALID_ARGUMENT, never garbage.
    let r = sb.read_file(&{
        let mut args_ = ReadArgs::path("le.txt");
        args_.start_line = Some(2);
        args_
    });
    match r {
        Ok(p) => assert_eq!(p.content, "line2 𝄞\n"),
        Err(e) => assert_eq!(e.code, ErrorCode::InvalidArgument),
    }
}

#[test]
fn odd_and_broken_files_always_finish_paging() {
    let mut odd_le = utf16("abc", true);
    odd_le.push(b'x'); // a stray last byte
    let mut lone_surrogate = vec![0xFF, 0xFE];
    lone_surrogate.extend_from_slice(&0xD83Du16.to_le_bytes()); // high surrogate at the end
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("odd16.txt", odd_le),
        ("lone16.txt", lone_surrogate),
        ("bom_only.txt", vec![0xFF, 0xFE]),
        ("cut_tail.txt", b"abc\xE2\x82".to_vec()),
        ("conts.txt", vec![0x80; 9]),
        ("leads.txt", vec![0xF0, 0xF0, 0xE2, 0xC3, b'a']),
        ("mixed_bad.txt", b"ok \xFF\xFE bad \xC3".to_vec()),
    ];
    let w = World::new();
    for (n, b) in &files {
        w.file(n, b);
    }
    let sb = w.sandbox();
    for (n, bytes) in &files {
        for limit in 1..=7 {
            let pages = page_all(&sb, n, limit);
            assert_eq!(
                pages.last().unwrap().next_offset,
                bytes.len() as u64,
                "{n} limit {limit}: paging ends at the end"
            );
        }
    }
}

#[test]
fn invalid_utf8_is_decoded_lossily_and_flagged() {
    let (_w, sb) = sandbox_for(&[("bad.txt", b"abc\xFFdef\nok\n"), ("good.txt", b"fine\n")]);
    let p = sb.read_file(&ReadArgs::path("bad.txt")).unwrap();
    assert_eq!(p.encoding, "utf-8-lossy");
    assert_eq!(p.content, "abc\u{FFFD}def\nok\n");
    assert!(!p.binary);
    let p = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("bad.txt");
            args_.start_line = Some(1);
            args_.max_lines = Some(1);
            args_
        })
        .unwrap();
    assert_eq!(p.encoding, "utf-8-lossy");
    assert_eq!(p.content, "abc\u{FFFD}def\n");
    // A page without the bad byte is plain utf-8.
    let p = read(&sb, "bad.txt", 8, 3);
    assert_eq!((p.content.as_str(), p.encoding.as_str()), ("ok\n", "utf-8"));
    let p = sb.read_file(&ReadArgs::path("good.txt")).unwrap();
    assert_eq!(p.encoding, "utf-8");
}

#[test]
fn binary_files_return_no_content() {
    let mut early = b"looks like text".to_vec();
    early.push(0);
    early.extend_from_slice(b"more");
    let mut edge = vec![b'a'; 8191];
    edge.push(0);
    let mut late = vec![b'a'; 8192];
    late.extend_from_slice(b"\0tail\n");
    let (_w, sb) = sandbox_for(&[
        ("early.bin", &early),
        ("edge.bin", &edge),
        ("late.txt", &late),
    ]);
    for name in ["early.bin", "edge.bin"] {
        for args in [
            ReadArgs::path(name),
            {
                let mut args_ = ReadArgs::path(name);
                args_.offset = Some(3);
                args_.limit = Some(4);
                args_
            },
            {
                let mut args_ = ReadArgs::path(name);
                args_.start_line = Some(1);
                args_
            },
        ] {
            let p = sb.read_file(&args).unwrap();
            assert!(p.binary, "{name} {args:?}");
            assert_eq!(p.content, "");
            assert_eq!(p.encoding, "binary");
            assert_eq!(p.bytes_returned, 0);
            assert!(!p.truncated);
        }
        let v = sb.call("read_file", json!({ "path": name }));
        assert_eq!(v["binary"], true);
        assert_eq!(v["content"], "");
    }
    let p = sb.read_file(&ReadArgs::path("late.txt")).unwrap();
    assert!(
        !p.binary,
        "a NUL after the first 8 KiB does not make a file binary"
    );
    assert_eq!(p.content.len(), late.len());
    let v = sb.call("read_file", json!({ "path": "late.txt", "limit": 4 }));
    assert!(v.get("binary").is_none() || v["binary"] == false, "{v}");
}

// ---------------------------------------------------------------------------------------------------
// stat
// ---------------------------------------------------------------------------------------------------

#[test]
fn stat_kinds_sizes_lines_and_mtime() {
    use std::os::unix::fs::MetadataExt;
    let w = World::new();
    w.file("three.txt", "a\nb\nc")
        .file("two.txt", "a\nb\n")
        .file("empty", "")
        .file("bin", b"a\0b\n")
        .file("sub/x", "x")
        .link("l", "three.txt")
        .link("ld", "sub");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        w.path("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let sb = w.sandbox();
    let st = |p: &str| {
        sb.stat(&{
            let mut args_ = StatArgs::default();
            args_.path = p.into();
            args_
        })
        .unwrap()
    };
    let s = st("three.txt");
    assert_eq!((s.kind.as_str(), s.size, s.lines), ("file", 5, Some(3)));
    assert_eq!(s.path, w.path("three.txt").display().to_string());
    let meta = std::fs::metadata(w.path("three.txt")).unwrap();
    assert_eq!(s.mtime_unix, meta.mtime());
    assert!(s.mtime.len() == 20 && s.mtime.ends_with('Z') && s.mtime.as_bytes()[10] == b'T');
    assert_eq!(st("two.txt").lines, Some(2));
    assert_eq!(st("empty").lines, Some(0));
    assert_eq!(st("bin").lines, None, "no line count for binary files");
    assert_eq!(st("sub").kind, "dir");
    assert_eq!(st(".").kind, "dir");
    assert_eq!(st("fifo").kind, "other");
    let l = st("l");
    assert_eq!(
        (l.kind.as_str(), l.size),
        ("file", 5),
        "in-root symlinks are followed"
    );
    assert_eq!(
        l.path,
        w.path("three.txt").display().to_string(),
        "the resolved path"
    );
    assert_eq!(st("ld").kind, "dir");
    let v = sb.call("stat", json!({"path": "three.txt"}));
    assert_eq!(v["kind"], "file");
    assert_eq!(v["lines"], 3);
}

// ---------------------------------------------------------------------------------------------------
// list_dir
// ---------------------------------------------------------------------------------------------------

#[test]
fn list_dir_sorted_kinds_hidden_denied_ignored() {
    let w = World::new();
    for name in ["b", "a", "B", "_x", "a.txt", "a0", "é", "Z", "~tilde"] {
        w.file(name, name);
    }
    w.file(".hidden", "h")
        .file(".env", "secret")
        .file("k.secret", "s")
        .file("sub/inner", "i")
        .file(".ignore", "ignored_by_rule.txt\n")
        .file("ignored_by_rule.txt", "ig")
        .link("ln", "a")
        .link("ln_out", "../outside/secret.txt");
    // Rules above the root are never consulted.
    std::fs::write(w.base.join(".ignore"), "a.txt\nb\n").unwrap();
    std::fs::write(w.base.join(".gitignore"), "a.txt\nb\n").unwrap();
    std::fs::create_dir(w.base.join(".git")).unwrap();
    let _sock = std::os::unix::net::UnixListener::bind(w.path("sock")).unwrap();
    let sb = w.sandbox_with(|b| b.deny(".env").deny("*.secret"));
    let list = |args: ListArgs| sb.list_dir(&args).unwrap();

    let l = list({
        let mut args_ = ListArgs::default();
        args_.path = Some(".".into());
        args_
    });
    let names: Vec<&str> = l.entries.iter().map(|e| e.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    assert_eq!(names, sorted, "sorted by name bytes");
    assert_eq!(
        names,
        ["B", "Z", "_x", "a", "a.txt", "a0", "b", "ln", "ln_out", "sock", "sub", "~tilde", "é"]
    );
    assert_eq!(l.hidden, 2, ".hidden and .ignore are left out and counted");
    assert_eq!(l.ignored, 1, "ignored_by_rule.txt is left out and counted");
    assert_eq!(l.total, names.len() as u64);
    assert!(!l.truncated);
    let kind = |n: &str| {
        let e = l.entries.iter().find(|e| e.name == n).unwrap();
        (e.kind.as_str().to_string(), e.size)
    };
    assert_eq!(kind("a.txt"), ("file".into(), 5));
    assert_eq!(kind("sub").0, "dir");
    assert_eq!(
        kind("ln"),
        ("symlink".into(), 1),
        "a symlink is reported, not followed"
    );
    assert_eq!(kind("ln_out").0, "symlink");
    assert_eq!(kind("sock").0, "other");

    let l = list({
        let mut args_ = ListArgs::default();
        args_.path = Some(".".into());
        args_.hidden = Some(true);
        args_.no_ignore = Some(true);
        args_
    });
    let names: Vec<&str> = l.entries.iter().map(|e| e.name.as_str()).collect();
    assert!(names.contains(&".hidden") && names.contains(&".ignore"));
    assert!(names.contains(&"ignored_by_rule.txt"));
    assert!(
        !names.contains(&".env") && !names.contains(&"k.secret"),
        "denied: {names:?}"
    );
    assert_eq!((l.hidden, l.ignored), (0, 0));

    // No path with one root lists the root.
    let l = list(ListArgs::default());
    assert!(l.entries.iter().any(|e| e.name == "a.txt"));
    assert_eq!(l.path, w.root.display().to_string());
    assert_eq!(
        list({
            let mut args_ = ListArgs::default();
            args_.path = Some("sub".into());
            args_
        })
        .entries
        .len(),
        1
    );
}

#[test]
fn list_dir_pages_concatenate() {
    let w = World::new();
    for i in 0..23 {
        w.file(&format!("f{i:02}"), "x");
    }
    let sb = w.sandbox();
    let full = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_
        })
        .unwrap();
    assert_eq!(full.total, 23);
    for limit in [1u64, 2, 5, 7, 22, 23, 24] {
        let mut got = Vec::new();
        let mut offset = 0;
        loop {
            let p = sb
                .list_dir(&{
                    let mut args_ = ListArgs::default();
                    args_.path = Some(".".into());
                    args_.offset = Some(offset);
                    args_.limit = Some(limit);
                    args_
                })
                .unwrap();
            assert_eq!(p.offset, offset);
            assert!(p.entries.len() as u64 <= limit);
            assert_eq!(p.next_offset, offset + p.entries.len() as u64);
            assert_eq!(p.truncated, p.next_offset < 23);
            assert_eq!(p.total, 23);
            got.extend(p.entries);
            offset = p.next_offset;
            if !p.truncated {
                break;
            }
        }
        assert_eq!(got, full.entries, "limit {limit}");
    }
    let cap = w.sandbox_with(|b| {
        b.limits(Limits {
            max_list_entries: 4,
            ..Limits::default()
        })
    });
    let p = cap
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    assert_eq!(p.entries.len(), 4, "limit capped by max_list_entries");
    assert!(p.truncated);
}

/// `head_lines` is line mode from line 1; `tail_lines` reads the last lines from the end
/// (numbered when asked, by counting the lines before them).
#[test]
fn head_and_tail_lines() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(dir.path().join("n.txt"), &body).unwrap();
    std::fs::write(dir.path().join("nonl.txt"), "a\nb\nc").unwrap();
    std::fs::write(dir.path().join("crlf.txt"), "a\r\nb\r\nc\r\n").unwrap();
    let sb = rootbound::Sandbox::builder()
        .root(dir.path())
        .build()
        .unwrap();
    let call = |args: serde_json::Value| sb.call("read_file", args);
    let r = call(serde_json::json!({"path": "n.txt", "tail_lines": 3}));
    assert_eq!(r["content"], "line 4998\nline 4999\nline 5000\n");
    assert_eq!(r["truncated"], false);
    assert_eq!(r["next_offset"], body.len());
    let r = call(serde_json::json!({"path": "n.txt", "tail_lines": 2, "line_numbers": true}));
    assert_eq!(r["content"], "  4999\tline 4999\n  5000\tline 5000\n");
    assert_eq!(r["start_line"], 4999);
    let r = call(serde_json::json!({"path": "nonl.txt", "tail_lines": 2}));
    assert_eq!(r["content"], "b\nc");
    let r = call(serde_json::json!({"path": "nonl.txt", "tail_lines": 99}));
    assert_eq!(r["content"], "a\nb\nc");
    let r = call(serde_json::json!({"path": "nonl.txt", "head_lines": 5, "line_numbers": true}));
    assert_eq!(r["content"], "     1\ta\n     2\tb\n     3\tc");
    let r = call(serde_json::json!({"path": "crlf.txt", "tail_lines": 1}));
    assert_eq!(r["content"], "c\n");
    let r = call(serde_json::json!({"path": "n.txt", "head_lines": 2, "line_numbers": true}));
    assert_eq!(r["content"], "     1\tline 1\n     2\tline 2\n");
    assert_eq!(r["next_line"], 3);
    let r = call(serde_json::json!({"path": "n.txt", "head_lines": 2, "tail_lines": 2}));
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT");
    let r = call(serde_json::json!({"path": "n.txt", "tail_lines": 2, "offset": 3}));
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT");
}
