//! Fuzz target `read_args`: arbitrary `read_file` arguments over files with multibyte text, CRLF, long
//! lines, invalid UTF-8, UTF-16 and binary, through `Sandbox::call`.
//!
//! Input: a first line of JSON (the arguments), then raw bytes that become the file `fuzz.bin`. Without a
//! `path` key the call reads `fuzz.bin`. Harness keys, removed before the call: `_cap` (the policy's
//! `max_read_bytes`), `_line_chars` (the policy's `max_line_chars`).
//!
//! Properties: no panic; the page covers `[offset, next_offset)` of the file, its content is that range's
//! text, `next_offset` is a character boundary (a line start in line mode), a page that can make progress
//! does, and following `next_offset` (or `next_line`) to the end reassembles the file (or, in line mode,
//! the one-call rendering of the same lines).

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use rootbound::{Limits, ReadResult, Sandbox};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

struct Env {
    root: PathBuf,
}

fn env() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let tmp = common::scratch("read"); // root below it
        let root = tmp.join("root");
        std::fs::create_dir(&root).unwrap();
        let w = |n: &str, c: &[u8]| std::fs::write(root.join(n), c).unwrap();
        let mb: String = (0..200)
            .map(|i| format!("{i}: aé€🦀 Ελληνικά 日本語\n"))
            .collect();
        w("mb.txt", mb.as_bytes());
        w(
            "crlf.txt",
            b"one\r\ntwo\r\n\r\nthree\rnot a line end\r\nlast",
        );
        let mut long = "é".repeat(9000);
        long.push_str("\nshort\n");
        long.push_str(&"🦀".repeat(3000));
        w("long.txt", long.as_bytes());
        let mut bin = b"text first\n".to_vec();
        bin.extend_from_slice(&[0, 1, 2, 0xff, b'\n']);
        w("bin.dat", &bin);
        w(
            "lossy.txt",
            b"ok \xff\xfe bad \xe2\x82 cut \xf0\x9f\xa6 cut4 \xc3\xa9 fine\n\x80\x80\nend \xe2",
        );
        let mut le = vec![0xff, 0xfe];
        let mut be = vec![0xfe, 0xff];
        for u in "aé€🦀\nline two 🦀🦀\n".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
            be.extend_from_slice(&u.to_be_bytes());
        }
        w("utf16le.txt", &le);
        be.push(b'x'); // odd length: a stray last byte
        w("utf16be.txt", &be);
        w("empty.txt", b"");
        w("noeol.txt", b"no newline at the end");
        Env { root }
    })
}

fn sandbox(root: &Path, cap: u64, line_chars: usize) -> Sandbox {
    Sandbox::builder()
        .root(root)
        .limits(Limits {
            max_read_bytes: cap,
            max_line_chars: line_chars,
            ..Limits::default()
        })
        .build()
        .expect("sandbox")
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
            for k in 1..n {
                ok[i + k] = false;
            }
            i += n;
        } else {
            i += 1;
        }
    }
    ok
}

fn utf16_decode(b: &[u8], le: bool) -> String {
    let units = b.chunks_exact(2).map(|c| {
        if le {
            u16::from_le_bytes([c[0], c[1]])
        } else {
            u16::from_be_bytes([c[0], c[1]])
        }
    });
    let mut s: String = char::decode_utf16(units)
        .map(|c| c.unwrap_or('\u{FFFD}'))
        .collect();
    if b.len() % 2 == 1 {
        s.push('\u{FFFD}');
    }
    s
}

fn parse(v: &Value, ctx: &str) -> Option<ReadResult> {
    if v.get("error").is_some() {
        return None;
    }
    Some(serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{ctx}: {e}: {v}")))
}

fn run(data: &[u8]) {
    let (head, body) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(Value::Object(mut args)) = serde_json::from_slice::<Value>(head) else {
        return;
    };
    let e = env();
    std::fs::write(e.root.join("fuzz.bin"), body).unwrap();
    let cap = args
        .remove("_cap")
        .and_then(|v| v.as_u64())
        .unwrap_or(64 * 1024);
    let line_chars = args
        .remove("_line_chars")
        .and_then(|v| v.as_u64())
        .unwrap_or(2000)
        .min(1 << 20) as usize;
    args.entry("path").or_insert(json!("fuzz.bin"));
    let sb = sandbox(&e.root, cap, line_chars);
    let ctx = format!(
        "read_file {} (cap {cap}, line chars {line_chars})",
        Value::Object(args.clone())
    );
    let v = sb.call("read_file", Value::Object(args.clone()));
    let Some(r) = parse(&v, &ctx) else {
        return;
    };
    // What the call meant: a zero or null in these fields means "not set" (read_file's row,
    // `UNSET` in src/tools/read/mod.rs), so the checks below read the arguments without them.
    args.retain(|k, v| {
        let unset = [
            "offset",
            "limit",
            "start_line",
            "max_lines",
            "head_lines",
            "tail_lines",
        ];
        !(v.is_null() || (unset.contains(&k.as_str()) && v.as_f64() == Some(0.0)))
    });
    // `head_lines: N` is the page `start_line: 1, max_lines: N`: the line-mode checks read it so.
    if let Some(n) = args.remove("head_lines") {
        args.insert("start_line".into(), json!(1));
        args.insert("max_lines".into(), n);
    }
    // A tail page reports no line numbers (counting them would read the whole file): it is checked
    // as text from a line start.
    let tail = args.remove("tail_lines").is_some();
    // The file as it is (only names the harness made can be read).
    let file = Path::new(&r.path);
    assert!(file.starts_with(&e.root), "{ctx}: read {}", r.path);
    let bytes = std::fs::read(file).unwrap();
    let total = bytes.len() as u64;
    assert_eq!(r.total_bytes, total, "{ctx}");
    assert!(
        r.offset <= r.next_offset && r.next_offset <= total,
        "{ctx}: {r:?}"
    );
    if r.binary {
        assert!(
            r.content.is_empty() && !r.truncated,
            "{ctx}: binary content"
        );
        return;
    }
    assert_eq!(r.truncated, r.next_offset < total, "{ctx}: truncated flag");
    if tail {
        let (lo, hi) = (r.offset as usize, r.next_offset as usize);
        assert!(lo == 0 || bytes[lo - 1] == b'\n', "{ctx}: tail offset {lo} is not a line start");
        // The same lines read in line mode (which ends lines with `\n` and cuts long ones) with
        // no byte cap: the tail shows them alike.
        let slice = &bytes[lo..hi];
        let newlines = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count();
        let lines = newlines(slice) + usize::from(slice.last().is_some_and(|&c| c != b'\n'));
        if lines == 0 {
            assert!(r.content.is_empty(), "{ctx}: an empty tail range with content");
            return;
        }
        let root = file.parent().unwrap();
        let big = sandbox(root, 1 << 30, line_chars);
        let one = json!({
            "path": r.path,
            "start_line": newlines(&bytes[..lo]) + 1,
            "max_lines": lines,
        });
        let v = big.call("read_file", one);
        let same = parse(&v, &ctx).unwrap_or_else(|| panic!("{ctx}: line-mode read failed: {v}"));
        assert_eq!(r.content, same.content, "{ctx}: tail text");
        return;
    }
    let line_mode = ["start_line", "max_lines", "line_numbers"]
        .iter()
        .any(|k| args.get(*k).is_some_and(|v| !v.is_null()));
    if line_mode {
        check_lines(&sb, &args, &r, &bytes, &ctx, line_chars);
    } else {
        check_bytes(&sb, &args, &r, &bytes, &ctx, cap);
    }
}

fn check_bytes(
    sb: &Sandbox,
    args: &Map<String, Value>,
    r: &ReadResult,
    bytes: &[u8],
    ctx: &str,
    cap: u64,
) {
    let total = bytes.len() as u64;
    let cap = cap.max(1);
    let limit = args
        .get("limit")
        .and_then(Value::as_u64)
        .filter(|&n| n > 0) // zero means not set (the dialects' convention)
        .unwrap_or(cap)
        .clamp(1, cap);
    let asked = args.get("offset").and_then(Value::as_u64).unwrap_or(0);
    let utf16 = r.encoding.starts_with("utf-16");
    let (lo, hi) = (r.offset as usize, r.next_offset as usize);
    assert_eq!(r.bytes_returned, r.next_offset - r.offset, "{ctx}");
    if r.offset < total {
        assert!(r.bytes_returned > 0, "{ctx}: no progress: {r:?}");
    }
    if utf16 {
        let le = r.encoding == "utf-16le";
        assert!(
            hi % 2 == 0 || r.next_offset == total,
            "{ctx}: odd next_offset {r:?}"
        );
        assert!(lo >= 2 || total < 2, "{ctx}: the BOM was returned");
        if hi < bytes.len() && hi >= 2 {
            let unit = if le {
                u16::from_le_bytes([bytes[hi - 2], bytes[hi - 1]])
            } else {
                u16::from_be_bytes([bytes[hi - 2], bytes[hi - 1]])
            };
            let next = bytes.get(hi..hi + 2).map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            });
            assert!(
                !((0xD800..0xDC00).contains(&unit)
                    && next.is_some_and(|n| (0xDC00..0xE000).contains(&n))),
                "{ctx}: next_offset {hi} splits a surrogate pair"
            );
        }
        assert_eq!(
            r.content,
            utf16_decode(&bytes[lo..hi], le),
            "{ctx}: page text"
        );
    } else {
        let ok = utf8_boundaries(bytes);
        assert!(ok[hi], "{ctx}: next_offset {hi} is inside a character");
        assert!(ok[lo], "{ctx}: offset {lo} is inside a character");
        let asked = asked.min(total);
        assert!(
            r.offset <= asked && asked - r.offset <= 3,
            "{ctx}: asked {asked}, got {r:?}"
        );
        assert_eq!(
            r.content,
            String::from_utf8_lossy(&bytes[lo..hi]),
            "{ctx}: page text"
        );
        assert!(
            r.bytes_returned <= limit + 3 || r.bytes_returned <= 4,
            "{ctx}: {} bytes for limit {limit}",
            r.bytes_returned
        );
    }
    // Follow next_offset to the end: the pages cover the rest of the file, in order.
    if (total - r.next_offset) / limit > 4000 {
        return;
    }
    let mut text = r.content.clone();
    let mut at = r.next_offset;
    let mut truncated = r.truncated;
    while truncated {
        let v = sb.call(
            "read_file",
            json!({"path": r.path, "offset": at, "limit": limit}),
        );
        let p = parse(&v, ctx).unwrap_or_else(|| panic!("{ctx}: page at {at} failed: {v}"));
        assert_eq!(p.offset, at, "{ctx}: a page starting at a boundary moved");
        assert!(p.next_offset > at, "{ctx}: no progress at {at}");
        text.push_str(&p.content);
        at = p.next_offset;
        truncated = p.truncated;
    }
    assert_eq!(at, total, "{ctx}");
    let whole = if utf16 {
        utf16_decode(&bytes[lo..], r.encoding == "utf-16le")
    } else {
        String::from_utf8_lossy(&bytes[lo..]).into_owned()
    };
    // (for invalid UTF-8 too: a page never splits a sequence the decoder would treat as one)
    assert_eq!(text, whole, "{ctx}: pages do not reassemble the file");
}

fn check_lines(
    sb: &Sandbox,
    args: &Map<String, Value>,
    r: &ReadResult,
    bytes: &[u8],
    ctx: &str,
    line_chars: usize,
) {
    let total = bytes.len() as u64;
    let line_start = |o: u64| o == 0 || o == total || bytes[o as usize - 1] == b'\n';
    assert!(
        line_start(r.offset),
        "{ctx}: offset {} is not a line start",
        r.offset
    );
    assert!(
        line_start(r.next_offset),
        "{ctx}: next_offset {} is not a line start",
        r.next_offset
    );
    let start = r.start_line.expect("start_line");
    let end = r.end_line.expect("end_line");
    // Past the end, end_line is the file's last line (the page is empty).
    assert!(
        end + 1 >= start || (r.content.is_empty() && !r.truncated),
        "{ctx}: {r:?}"
    );
    if r.truncated {
        assert_eq!(r.next_line, Some(end + 1), "{ctx}: next_line");
        assert!(
            end >= start,
            "{ctx}: a truncated line page made no progress"
        );
    } else {
        assert_eq!(r.next_line, None, "{ctx}");
    }
    // Pages by next_line, concatenated, equal the same lines read in one call with no byte cap.
    let mut base = args.clone();
    base.remove("offset");
    base.remove("limit");
    let max_lines = args
        .get("max_lines")
        .and_then(Value::as_u64)
        .unwrap_or(2000)
        .max(1);
    if (total - r.next_offset) / 2 > 4000 * max_lines.min(1 << 20) {
        return;
    }
    let mut text = r.content.clone();
    let mut next = r.next_line;
    let mut pages = 0;
    while let Some(n) = next {
        base.insert("start_line".into(), json!(n));
        let v = sb.call("read_file", Value::Object(base.clone()));
        let p = parse(&v, ctx).unwrap_or_else(|| panic!("{ctx}: page at line {n} failed: {v}"));
        assert_eq!(p.start_line, Some(n), "{ctx}");
        text.push_str(&p.content);
        next = p.next_line;
        pages += 1;
        if pages > 4000 {
            return;
        }
    }
    let root = Path::new(&r.path).parent().unwrap();
    let big = sandbox(root, 1 << 30, line_chars);
    let mut one = args.clone();
    one.insert("path".into(), json!(r.path));
    one.insert("start_line".into(), json!(start));
    one.insert("max_lines".into(), json!(u64::MAX));
    let v = big.call("read_file", Value::Object(one));
    let whole = parse(&v, ctx).unwrap_or_else(|| panic!("{ctx}: one-call read failed: {v}"));
    assert_eq!(text, whole.content, "{ctx}: line pages do not reassemble");
}

fuzz_target!(|data: &[u8]| run(data));
