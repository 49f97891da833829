//! Searches for non-ASCII characters through the index: scripts, symbols, accented letters, smart
//! quotes, emoji, `[^\x00-\x7F]`, and bytes of files that are not UTF-8. Every page is byte for
//! byte the unindexed answer, including files whose only match is in their last two bytes or is
//! the whole (one- or two-byte) file, matches on either side of a chunk edge of a large file, and
//! a changed file described again; and these searches are pruned (before the index recorded keys
//! for bytes >= 0x80, `\p{Greek}` and `é` required nothing and every file was searched).

use rootbound::{GrepArgs, IndexOptions, OutputMode, Sandbox};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// The index describes a file in chunks of whole lines of at least this many bytes.
const CHUNK: usize = 32 << 10;
/// Every line of the large file is this many bytes, so each chunk is exactly `CHUNK` bytes.
const LINE: usize = 32;
const PER_CHUNK: usize = CHUNK / LINE;

/// `text` padded with spaces to `LINE - 1` bytes, and a newline.
fn line(text: &str) -> Vec<u8> {
    let mut l = text.as_bytes().to_vec();
    l.resize(LINE - 1, b' ');
    l.push(b'\n');
    l
}

/// 12 chunks of filler (over the 256 KiB a search reads whole: searched by chunks), with
/// non-ASCII text on both sides of the first and the third chunk edge, and one line ending in a
/// Greek letter right before the third edge's newline.
fn large() -> Vec<u8> {
    let e = PER_CHUNK;
    let mut out = Vec::new();
    for i in 0..12 * e {
        let special = match i {
            i if i == e - 1 => "before edge 中文".to_string(),
            i if i == e => "Ω after edge".to_string(),
            i if i == 3 * e - 1 => format!("{:<29}α", "x"),
            i if i == 3 * e => "😀 at the start".to_string(),
            _ => format!("filler {i:08} text"),
        };
        out.extend(line(&special));
    }
    out
}

fn tree(dir: &Path) {
    fs::create_dir(dir.join("sub")).unwrap();
    for i in 0..30 {
        let text = format!("plain ascii file {i}\nwith a few lines\nand cafe without accent\n");
        fs::write(dir.join(format!("ascii{i}.txt")), text).unwrap();
    }
    let files: &[(&str, &[u8])] = &[
        ("greek.txt", "let α = 1;\nΣ sum\n".as_bytes()),
        // The only match is the last two bytes: no trigram starts there.
        ("greek_end.txt", "x=α".as_bytes()),
        ("short.txt", "é".as_bytes()),
        ("one.bin", b"\xE9"),
        ("cjk.txt", "// 中文注释\nint x;\n".as_bytes()),
        ("sub/emoji.md", "ok 😀 done\n".as_bytes()),
        ("quotes.txt", "“smart” — dash\n".as_bytes()),
        ("accents.txt", "café crème naïve\n".as_bytes()),
        // Latin-1, not UTF-8.
        ("latin1.txt", b"caf\xE9 cr\xE8me\n"),
        ("latin1_end.txt", b"end in \xFF"),
        // Ends in a 2-byte character whose class below requires its pair key.
        ("polish.txt", "zażółć ą".as_bytes()),
        ("sub/symbols.txt", "© 2024 ™ → ≠ €\n".as_bytes()),
    ];
    for (name, bytes) in files {
        fs::write(dir.join(name), bytes).unwrap();
    }
    fs::write(dir.join("large.txt"), large()).unwrap();
}

fn sandboxes(dir: &Path) -> (Sandbox, Sandbox) {
    let build = || Sandbox::builder().root(dir).threads(2).build().unwrap();
    age(dir);
    let on = build().with_index_options(IndexOptions::default());
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert!(on.index_status().iter().all(|s| s.state == "ready"));
    (build(), on)
}

/// Past the index's racy window, by moving the root's index clock.
fn age(dir: &Path) {
    rootbound::index_age_at(&dir.canonicalize().unwrap(), Duration::from_millis(2100));
}

fn run(sb: &Sandbox, a: &GrepArgs) -> Value {
    match sb.grep_search(a) {
        Ok(r) => serde_json::to_value(&r).unwrap(),
        Err(e) => serde_json::json!({"error": format!("{:?}", e.code)}),
    }
}

/// Both answers, every page, equal but for `stats.index`: the files and chunks the index passed
/// over.
fn same(off: &Sandbox, on: &Sandbox, a: &GrepArgs) -> (u64, u64) {
    let mut a = a.clone();
    let (mut files, mut chunks) = (0, 0);
    for _ in 0..200 {
        let x = run(off, &a);
        let mut y = run(on, &a);
        if let Some(ix) = y
            .pointer_mut("/stats")
            .and_then(|s| s.as_object_mut())
            .and_then(|s| s.remove("index"))
        {
            files += ix["files_pruned"].as_u64().unwrap();
            chunks += ix["chunks_pruned"].as_u64().unwrap();
        }
        assert_eq!(x, y, "args {}", serde_json::to_string(&a).unwrap());
        match x["next_cursor"].as_str() {
            Some(c) => a.cursor = Some(c.into()),
            None => break,
        }
    }
    (files, chunks)
}

fn args(p: &str, mode: OutputMode, f: impl Fn(&mut GrepArgs)) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(mode);
    f(&mut a);
    a
}

const PATTERNS: &[&str] = &[
    r"\p{Greek}",
    r"\p{Han}",
    r"[^\x00-\x7F]",
    r"\p{So}",
    r"[“”]",
    "—",
    "é",
    "α$",
    "^Ω",
    "😀",
    "€|™",
    r"(?-u:\xE9)",
    r"(?-u:[\x80-\xFF])",
    r"(?-u:\xFF)$",
    r"caf[^\x00-\x7F]",
    r"\p{Cyrillic}",
    "[àáâãäåāăą]",
];

/// Every page of every mode, case-sensitive or not, is the unindexed answer; and the index passed
/// over files and chunks (each of these patterns required nothing before).
#[test]
fn non_ascii_searches_are_pruned_and_exact() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    let (off, on) = sandboxes(dir.path());
    for p in PATTERNS {
        let mut pruned = (0, 0);
        for mode in [
            OutputMode::FilesWithMatches,
            OutputMode::Count,
            OutputMode::Content,
        ] {
            let variants: [fn(&mut GrepArgs); 4] = [
                |_| {},
                |a| a.limit = Some(1),
                |a| a.case_insensitive = Some(true),
                |a| a.multiline = Some(true),
            ];
            for f in variants {
                let (files, chunks) = same(&off, &on, &args(p, mode, f));
                pruned = (pruned.0 + files, pruned.1 + chunks);
            }
        }
        // The 30 ASCII files at least, in every one of the 12 listings.
        assert!(pruned.0 >= 12 * 30, "{p}: {pruned:?}");
        if ["^Ω", "α$", "😀", r"\p{Han}"].contains(p) {
            // The large file's chunks without the character are not read.
            assert!(pruned.1 > 0, "{p}: {pruned:?}");
        }
    }
}

/// A file changed after indexing is described again with its non-ASCII keys: from then on it is
/// pruned by what it holds now, and never for a character it holds (here in its last two bytes).
#[test]
fn a_changed_file_is_described_again_with_its_non_ascii_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    fs::write(d.join("x.txt"), "plain\n").unwrap();
    let (off, on) = sandboxes(d);
    let listing = |p: &str| {
        let a = args(p, OutputMode::FilesWithMatches, |a| a.limit = Some(10_000));
        same(&off, &on, &a).0
    };
    let (greek, han) = (listing(r"\p{Greek}"), listing(r"\p{Han}"));
    fs::write(d.join("x.txt"), "now ω").unwrap();
    // Searched while changed (and not described in its first two seconds).
    assert_eq!(listing(r"\p{Greek}"), greek - 1);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    age(d);
    // This query starts the description.
    assert_eq!(listing(r"\p{Greek}"), greek - 1);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(listing(r"\p{Han}"), han, "x.txt was described again");
    assert_eq!(listing(r"\p{Greek}"), greek - 1, "x.txt holds ω");
}
