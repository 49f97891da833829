//! A file with a NUL byte past its first buffer: what its search records (the lines before the
//! buffer holding the NUL, counted as searched and binary) is the file's own, whatever the search
//! thread read before it. grep-searcher's line buffer keeps the size a long line grew it to and
//! each read fills all of it, so a file searched after a long line in the same batch was read in
//! one fill, its NUL seen at once: no lines, counted only as binary. Batches are formed by timing
//! (and the index's pruning changes them), so the answer moved from one call to the next.

use rootbound::{GrepArgs, OutputMode};
use serde_json::Value;
use std::path::Path;

use crate::support;
use support::grep::{sandbox, write};

/// 350 KB of matching lines, then a NUL byte: larger than a fresh searcher's 64 KiB buffer.
fn late_nul() -> Vec<u8> {
    let mut b = b"text line\n".repeat(35_000);
    b.extend_from_slice(b"\0\n");
    b
}

fn answer(root: &Path, mode: OutputMode) -> Value {
    let sb = sandbox(root, 1);
    let mut a = GrepArgs::new("text");
    a.output_mode = Some(mode);
    a.limit = Some(1_000_000);
    serde_json::to_value(sb.grep_search(&a).unwrap()).unwrap()
}

fn late_nul_lines(v: &Value) -> usize {
    let text = v["matches"].as_str().unwrap_or_default();
    text.lines().filter(|l| l.contains("b_nul.txt")).count()
}

/// Many small files (so the batches grow to many files), a 600 KB line, then the late NUL file
/// `b_nul.txt` holding `late`: the NUL file is recorded as when it is searched alone (searched
/// and binary, with the same lines before the NUL's buffer).
fn recorded_alike_after_a_long_line(late: Vec<u8>) {
    let alone = tempfile::tempdir().unwrap();
    write(alone.path(), "b_nul.txt", &late);
    let alone_count = answer(alone.path(), OutputMode::Count);
    let alone_content = answer(alone.path(), OutputMode::Content);
    assert_eq!(alone_count["stats"]["files_searched"], 1, "{alone_count}");
    assert_eq!(
        alone_count["stats"]["skipped"]["binary"], 1,
        "{alone_count}"
    );
    let lines = late_nul_lines(&alone_content);
    assert!(lines > 0, "{alone_content}");

    let t = tempfile::tempdir().unwrap();
    for i in 0..200 {
        write(t.path(), &format!("{i:04}.txt"), "hi\n");
    }
    write(
        t.path(),
        "a_long.txt",
        [b"y".repeat(600_000), b"\n".to_vec()].concat(),
    );
    write(t.path(), "b_nul.txt", &late);
    for _ in 0..3 {
        let count = answer(t.path(), OutputMode::Count);
        assert_eq!(count["stats"]["files_searched"], 202, "{}", count["stats"]);
        assert_eq!(count["stats"]["skipped"]["binary"], 1, "{}", count["stats"]);
        let content = answer(t.path(), OutputMode::Content);
        assert_eq!(late_nul_lines(&content), lines);
    }
}

/// Streamed (larger than a file read whole): the searcher is the thread's, renewed.
#[test]
fn a_late_nul_file_is_recorded_alike_after_a_long_line() {
    recorded_alike_after_a_long_line(late_nul());
}

/// 150 KB, read whole and searched through a reader because of its NUL byte.
#[test]
fn a_late_nul_file_read_whole_is_recorded_alike_after_a_long_line() {
    let mut b = b"text line\n".repeat(15_000);
    b.extend_from_slice(b"\0\n");
    recorded_alike_after_a_long_line(b);
}

/// UTF-16 with a byte order mark, read whole (200 KB) and transcoded by grep-searcher through a
/// reader (100 KB of UTF-8, more than a fresh buffer), a U+0000 at its end: the slice has no NUL
/// byte of its own, only its transcoding has one.
#[test]
fn a_utf16_file_with_a_late_nul_is_recorded_alike_after_a_long_line() {
    let text = "text line\n".repeat(10_000) + "\0\n";
    let mut b = vec![0xFF, 0xFE];
    b.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    assert!(b.len() < 256 << 10);
    recorded_alike_after_a_long_line(b);
}
