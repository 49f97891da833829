//! A large indexed file searched in its candidate chunks only: the answer is byte for byte the
//! unindexed one, with matches on either side of every chunk edge, in the first and the last
//! chunk, and in several chunks of one file (a count sums them all: a candidate chunk not
//! searched changes it).

use rootbound::{GrepArgs, IndexOptions, OutputMode, Sandbox};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// The index describes a file in chunks of whole lines of at least this many bytes.
const CHUNK: usize = 32 << 10;
/// Every line of the files below is this long, so each chunk is exactly `CHUNK` bytes.
const LINE: usize = 32;
const PER_CHUNK: usize = CHUNK / LINE;

/// Line `i` of a chunked file: filler, or `word` padded to [`LINE`] bytes.
fn line(i: usize, word: Option<&str>) -> String {
    let text = match word {
        Some(w) => format!("{w} {i}"),
        None => format!("filler {i:08} text"),
    };
    format!("{text:<width$}\n", width = LINE - 1)
}

/// A file of `chunks` chunks, with `words` at the given line numbers (0-based).
fn chunked(chunks: usize, words: &[(usize, &str)]) -> String {
    (0..chunks * PER_CHUNK)
        .map(|i| line(i, words.iter().find(|(at, _)| *at == i).map(|(_, w)| *w)))
        .collect()
}

/// Large files: 10 chunks, over the 256 KiB a search reads whole (`SLURP_MAX`), so that they are
/// searched by chunks.
const CHUNKS: usize = 10;

/// Words either side of each chunk edge, at the first and the last line, and `many_hit` in the
/// first, a middle and the last chunk.
fn tree(dir: &Path) {
    fs::create_dir(dir.join("sub")).unwrap();
    fs::write(dir.join("sub/small.txt"), "edge_before one\nmany_hit\n").unwrap();
    let e = PER_CHUNK;
    let words = [
        (0, "first_line many_hit"),
        (e - 1, "edge_before"),
        (e, "edge_after"),
        (2 * e - 1, "edge_before"),
        (2 * e + 7, "many_hit"),
        (2 * e + 8, "many_hit twice"),
        (3 * e, "edge_after MANY_HIT"),
        (CHUNKS * e - 1, "last_line many_hit"),
    ];
    fs::write(dir.join("big.txt"), chunked(CHUNKS, &words)).unwrap();
    // The same bytes under another name, and one with no needle at all.
    fs::write(dir.join("sub/big2.txt"), chunked(CHUNKS, &words)).unwrap();
    fs::write(dir.join("plain.txt"), chunked(3, &[])).unwrap();
}

fn sandboxes(dir: &Path) -> (Sandbox, Sandbox) {
    let build = || Sandbox::builder().root(dir).threads(2).build().unwrap();
    let root = dir.canonicalize().unwrap();
    rootbound::index_age_at(&root, Duration::from_millis(2100));
    let on = build().with_index_options(IndexOptions::default());
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert!(on.index_status().iter().all(|s| s.state == "ready"));
    (build(), on)
}

fn run(sb: &Sandbox, a: &GrepArgs) -> Value {
    serde_json::to_value(sb.grep_search(a).unwrap()).unwrap()
}

/// Both answers, every page; equal but for `stats.index`. The chunks the indexed one did not read.
fn same(off: &Sandbox, on: &Sandbox, a: &GrepArgs) -> u64 {
    let mut a = a.clone();
    let mut not_read = 0;
    for _ in 0..100 {
        let x = run(off, &a);
        let mut y = run(on, &a);
        if let Some(ix) = y
            .pointer_mut("/stats")
            .and_then(|s| s.as_object_mut())
            .and_then(|s| s.remove("index"))
        {
            not_read += ix["chunks_pruned"].as_u64().unwrap();
        }
        assert_eq!(x, y, "args {}", serde_json::to_string(&a).unwrap());
        match x["next_cursor"].as_str() {
            Some(c) => {
                a.cursor = Some(c.into());
                a.offset = None;
            }
            None => break,
        }
    }
    not_read
}

fn args(p: &str, mode: OutputMode, f: impl Fn(&mut GrepArgs)) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(mode);
    f(&mut a);
    a
}

#[test]
fn a_large_file_searched_in_its_candidate_chunks_gives_the_unindexed_answer() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    let (off, on) = sandboxes(dir.path());
    let patterns = [
        "edge_before",
        "edge_after",
        "first_line",
        "last_line",
        "many_hit",
        "edge_before|last_line",
        r"edge_\w+ \d+",
        "zzz_absent",
    ];
    let mut not_read = 0;
    for p in patterns {
        for mode in [OutputMode::FilesWithMatches, OutputMode::Count] {
            not_read += same(&off, &on, &args(p, mode, |_| {}));
            not_read += same(&off, &on, &args(p, mode, |a| a.limit = Some(1)));
            not_read += same(
                &off,
                &on,
                &args(p, mode, |a| a.case_insensitive = Some(true)),
            );
        }
        // Searched whole: line numbers, context, `max_count`.
        same(&off, &on, &args(p, OutputMode::Content, |_| {}));
        same(
            &off,
            &on,
            &args(p, OutputMode::Content, |a| a.context = Some(2)),
        );
        same(
            &off,
            &on,
            &args(p, OutputMode::Count, |a| a.max_count = Some(2)),
        );
    }
    // The index served these searches by chunks, not by searching every file whole.
    assert!(not_read > 0);
}

/// `count` sums the matching lines of every candidate chunk: one not searched, whichever, changes
/// the count of the file (here 5 lines in 4 chunks, case-insensitively).
#[test]
fn a_count_holds_every_candidate_chunk() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    let (off, on) = sandboxes(dir.path());
    let a = args("many_hit", OutputMode::Count, |a| {
        a.case_insensitive = Some(true)
    });
    let r = run(&on, &a);
    let counts = r["matches"].as_str().unwrap_or_default().to_string();
    assert!(counts.contains("big.txt:5"), "{r}");
    // 10 chunks each, six (the second, the fifth to the ninth) without the word: not read, in
    // both files.
    assert_eq!(same(&off, &on, &a), 12);
    let a = args("edge_after", OutputMode::FilesWithMatches, |_| {});
    assert!(same(&off, &on, &a) >= 2);
}

/// A line that begins a chunk with a byte order mark (UTF-16 `FF FE`, `FE FF`, UTF-8 `EF BB BF`):
/// the whole file's search sees those bytes in the middle of the file and decodes nothing; a chunk
/// searched alone must not be decoded either (it was: as UTF-16 its match was lost, and with the
/// UTF-8 mark taken off its line `^bom_needle` matched where the whole file has none).
#[test]
fn a_chunk_that_begins_with_a_byte_order_mark_is_searched_as_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let e = PER_CHUNK;
    let marks: [(&str, &[u8]); 3] = [
        ("le.txt", b"\xFF\xFE"),
        ("be.txt", b"\xFE\xFF"),
        ("u8.txt", b"\xEF\xBB\xBF"),
    ];
    for (name, bom) in marks {
        let mut text =
            chunked(CHUNKS, &[(e + 3, "bom_needle"), (2 * e + 9, "bom_needle")]).into_bytes();
        // Line `e` starts the second chunk: the mark, then the word.
        let at = e * LINE;
        text[at..at + bom.len()].copy_from_slice(bom);
        text[at + bom.len()..at + bom.len() + 10].copy_from_slice(b"bom_needle");
        fs::write(dir.path().join(name), text).unwrap();
    }
    let (off, on) = sandboxes(dir.path());
    let r = run(&off, &args("bom_needle", OutputMode::Count, |_| {}));
    assert!(r["matches"].as_str().unwrap().contains("le.txt:3"), "{r}");
    for p in ["bom_needle", "^bom_needle"] {
        for mode in [OutputMode::Count, OutputMode::FilesWithMatches] {
            same(&off, &on, &args(p, mode, |_| {}));
        }
    }
}

/// A source file of `lines` filler lines (about 30 bytes each: no trigram of `usb_` or `reset`
/// in any case), with `words` at the given line numbers.
fn source(lines: usize, words: &[(usize, &str)]) -> String {
    (0..lines)
        .map(|i| match words.iter().find(|(at, _)| *at == i) {
            Some((_, w)) => format!("{w}\n"),
            None => format!("\tfiller_value = compute({i});\n"),
        })
        .collect()
}

/// A file of about 300 KB in ten chunks (in two when chunks were 256 KiB, the first holding both
/// parts below): a `.*` gap, which position masks cannot close, is pruned when its two parts lie
/// in different chunks, and a file with a match is read in the chunks that hold the query only.
/// Every answer is the unindexed one.
#[test]
fn a_mid_sized_file_is_pruned_by_its_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = 10_000;
    // `usb_` at the top, `reset` 180 KB below: no line holds a match.
    let apart = [
        (2, "static int usb_probe(struct usb_device *d)"),
        (6_000, "\tdev_reset(d);"),
    ];
    fs::write(d.join("apart.c"), source(n, &apart)).unwrap();
    // The same, and a match in the middle.
    let near = [
        (2, "static int usb_probe(struct usb_device *d)"),
        (5_000, "\tusb_port_reset(d);"),
        (6_000, "\tdev_reset(d);"),
    ];
    fs::write(d.join("near.c"), source(n, &near)).unwrap();
    fs::write(d.join("none.txt"), "nothing here\n").unwrap();
    let size = fs::metadata(d.join("apart.c")).unwrap().len();
    assert!(size > 9 * CHUNK as u64 && size < 2 * (256 << 10), "{size}");
    let (off, on) = sandboxes(d);
    let a = args("usb_.*reset", OutputMode::FilesWithMatches, |a| {
        a.case_insensitive = Some(true)
    });
    // apart.c and none.txt are passed over unopened (with chunks of 256 KiB, apart.c was one
    // chunk holding both parts: searched).
    let r = run(&on, &a);
    assert_eq!(r["stats"]["index"]["files_pruned"], 2, "{r}");
    assert_eq!(r["matches"].as_str().unwrap().lines().count(), 1, "{r}");
    // near.c is read in the chunk of its match only: of its ten, the one with `usb_` alone, the
    // one with `reset` alone and the rest are not read.
    assert!(same(&off, &on, &a) >= 8);
    every_mode_same(
        &off,
        &on,
        &[
            "usb_.*reset",
            "usb_port_reset",
            "probe.*compute",
            "dev_reset",
            r"reset\(d\)",
        ],
    );
}

/// Every pattern of `patterns` in every mode, with and without `-i`, gives the unindexed answer.
fn every_mode_same(off: &Sandbox, on: &Sandbox, patterns: &[&str]) {
    for p in patterns {
        for mode in [
            OutputMode::FilesWithMatches,
            OutputMode::Count,
            OutputMode::Content,
        ] {
            same(off, on, &args(p, mode, |_| {}));
            same(off, on, &args(p, mode, |a| a.case_insensitive = Some(true)));
        }
    }
}

/// A file under the size read whole (256 KiB) but of several chunks is read in the chunks that may
/// hold a match, like a larger one, and one whose every chunk may hold one is read whole: every
/// answer is the unindexed one.
#[test]
fn a_file_read_whole_below_256_kib_is_read_in_its_candidate_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // About 100 KB: four chunks, `usb_port_reset` in the third only.
    let n = 3_300;
    let near = [(2_300, "\tusb_port_reset(d);")];
    fs::write(d.join("near.c"), source(n, &near)).unwrap();
    let size = fs::metadata(d.join("near.c")).unwrap().len();
    assert!(size > 3 * CHUNK as u64 && size < 256 << 10, "{size}");
    let (off, on) = sandboxes(d);
    for mode in [OutputMode::FilesWithMatches, OutputMode::Count] {
        // Three of its four chunks are not read.
        let a = args("usb_port_reset", mode, |_| {});
        assert_eq!(same(&off, &on, &a), 3, "{mode:?}");
        // `compute` is in every chunk: none is passed over, and the file is read whole.
        assert_eq!(same(&off, &on, &args("compute", mode, |_| {})), 0);
    }
    every_mode_same(
        &off,
        &on,
        &["usb_port_reset", "port_reset\\(d\\)", "compute\\(3"],
    );
}

/// Files at and around the chunk sizes (32, 64, 256 KiB), with CRLF lines, a line longer than a
/// chunk, no final line end, long and non-ASCII needles at every offset mod 8 near chunk edges:
/// every mode and option gives the unindexed answer.
#[test]
fn chunk_edges_of_every_kind_give_the_unindexed_answer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = "the_quick_brown_fox_jumps_over_the_lazy_dog_again_and_again";
    let needles = [
        "edge_word",
        long,
        "h\u{e9}llo_w\u{f6}rld_caf\u{e9}",
        "\u{212a}elvin_sign_word",
    ];
    // Filler lines of varied lengths, needles placed near every 32 KiB multiple.
    let make = |size: usize, crlf: bool, final_eol: bool, seed: usize| -> Vec<u8> {
        let mut out = Vec::with_capacity(size + 256);
        let mut i = seed;
        while out.len() < size {
            i += 1;
            let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
            let pos = out.len();
            let near_edge = (pos % CHUNK) > CHUNK - 200 || (pos % CHUNK) < 200;
            let line = if near_edge && i.is_multiple_of(3) {
                let n = needles[i % needles.len()];
                format!("{}{} {}", "#".repeat(i % 8), n, i)
            } else {
                format!("filler {} {}", i, "x".repeat(i * 7 % 90))
            };
            out.extend_from_slice(line.as_bytes());
            out.extend_from_slice(eol);
        }
        out.truncate(size);
        if final_eol {
            if let Some(l) = out.last_mut() {
                *l = b'\n';
            }
        } else {
            while out.last() == Some(&b'\n') || out.last() == Some(&b'\r') {
                out.pop();
            }
            out.extend_from_slice(b"last_line edge_word");
        }
        out
    };
    let sizes = [
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        CHUNK + 3,
        2 * CHUNK,
        2 * CHUNK + 2,
        3 * CHUNK + 100,
        256 << 10,
        (256 << 10) + 1,
        300 << 10,
    ];
    for (k, &size) in sizes.iter().enumerate() {
        for (crlf, final_eol) in [(false, true), (true, true), (false, false), (true, false)] {
            let name = format!("f{k}_{}_{}.txt", crlf as u8, final_eol as u8);
            fs::write(d.join(name), make(size, crlf, final_eol, k * 5)).unwrap();
        }
    }
    // A line longer than a chunk, between two chunks holding the needle.
    let mut t = chunked(2, &[(5, "edge_word")]).into_bytes();
    t.extend_from_slice(format!("{} edge_word {}\n", "y".repeat(40_000), long).as_bytes());
    t.extend_from_slice(chunked(2, &[(PER_CHUNK + 3, "edge_word")]).as_bytes());
    fs::write(d.join("longline.txt"), t).unwrap();
    let (off, on) = sandboxes(d);
    let patterns = [
        "edge_word".to_string(),
        long.to_string(),
        long.to_uppercase(),
        needles[2].to_string(),
        "H\u{c9}LLO_W\u{d6}RLD".to_string(),
        "kelvin_sign".to_string(),
        format!(
            "{long}|absent_one_two_three_four_five_six_seven|{}",
            needles[2]
        ),
        (0..20)
            .map(|i| format!("long_alternative_number_{i:02}_that_is_absent_here"))
            .chain([long.to_string()])
            .collect::<Vec<_>>()
            .join("|"),
        "^edge_word".to_string(),
        "edge_word$".to_string(),
        "word \\d+\\r?$".to_string(),
    ];
    let mut not_read = 0;
    for p in &patterns {
        for mode in [
            OutputMode::FilesWithMatches,
            OutputMode::Count,
            OutputMode::Content,
        ] {
            let variants: [&dyn Fn(&mut GrepArgs); 11] = [
                &|_| {},
                &|a| a.case_insensitive = Some(true),
                &|a| a.word = Some(true),
                &|a| a.line_regexp = Some(true),
                &|a| a.limit = Some(1),
                &|a| {
                    a.offset = Some(3);
                    a.limit = Some(2)
                },
                &|a| a.max_count = Some(1),
                &|a| a.context = Some(1),
                &|a| a.multiline = Some(true),
                &|a| a.max_filesize = Some(2 * CHUNK as u64),
                &|a| a.fixed_strings = Some(true),
            ];
            for f in variants {
                not_read += same(&off, &on, &args(p, mode, f));
            }
        }
    }
    assert!(not_read > 0);
}

/// A file rewritten after it was indexed (its needle moved to another chunk, at the same size and
/// with its old mtime put back), grown, or shrunk: its indexed chunks no longer say where the
/// needle lies, and it must be searched whole at once (no wait for the change to be seen).
#[test]
fn a_file_changed_after_it_was_indexed_is_not_searched_by_its_old_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let e = PER_CHUNK;
    let names = ["same.txt", "grown.txt", "shrunk.txt"];
    for n in names {
        fs::write(d.join(n), chunked(4, &[(5, "moved_word")])).unwrap();
    }
    let (off, on) = sandboxes(d);
    let a = args("moved_word", OutputMode::Count, |_| {});
    same(&off, &on, &a);
    let old = fs::metadata(d.join("same.txt"))
        .unwrap()
        .modified()
        .unwrap();
    // Same size, the word two chunks later, the old mtime.
    fs::write(d.join("same.txt"), chunked(4, &[(2 * e + 5, "moved_word")])).unwrap();
    let f = fs::File::options()
        .write(true)
        .open(d.join("same.txt"))
        .unwrap();
    f.set_modified(old).unwrap();
    drop(f);
    fs::write(
        d.join("grown.txt"),
        chunked(6, &[(5, "moved_word"), (5 * e + 1, "moved_word")]),
    )
    .unwrap();
    fs::write(d.join("shrunk.txt"), chunked(2, &[(e + 5, "moved_word")])).unwrap();
    for mode in [OutputMode::Count, OutputMode::FilesWithMatches] {
        let r = run(&off, &args("moved_word", mode, |_| {}));
        same(&off, &on, &args("moved_word", mode, |_| {}));
        if mode == OutputMode::Count {
            let m = r["matches"].as_str().unwrap();
            assert!(m.contains("same.txt:1") && m.contains("grown.txt:2"), "{r}");
        }
    }
}

/// Restarts with a saved index in `cache` (a sandbox like [`sandboxes`]' indexed one, the saved
/// index loaded and its unchanged entries kept), waits for its build.
fn restarted(dir: &Path, cache: &Path) -> Sandbox {
    let o = IndexOptions::default().index_dir(rootbound::IndexDir::Path(cache.to_path_buf()));
    let on = Sandbox::builder()
        .root(dir)
        .threads(2)
        .build()
        .unwrap()
        .with_index_options(o);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let st = on.index_status().remove(0);
    assert!(
        st.state == "ready" && st.snapshot.as_deref() == Some("saved"),
        "{st:?}"
    );
    on
}

/// A saved index whose chunk starts pass its load's checks (the first at 0, each after the one
/// before and within the file) but lie inside a line, its checksum made right: the build after
/// the restart keeps the file's entry (its stat is unchanged) with those starts. A chunk read
/// from a start inside a line would make its tail a line of its own (`^caret_word` matched where
/// no line begins with it) and count a line cut in two twice: crafted postings can only prune,
/// so these starts must not add to an answer either. Every answer is the unindexed one.
#[test]
fn crafted_chunk_starts_inside_lines_do_not_change_an_answer() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let d = dir.path();
    let e = PER_CHUNK;
    let words = [
        (3 * e, "acaret_word"),
        (5 * e + 3, "twice_word"),
        (6 * e, "twice_word twice_word"),
    ];
    let text = chunked(CHUNKS, &words);
    fs::write(d.join("big.txt"), &text).unwrap();
    rootbound::index_age_at(&d.canonicalize().unwrap(), Duration::from_millis(2100));
    drop(restarted(d, cache.path()));
    // The file's starts as saved (every chunk exactly `CHUNK` bytes), moved into lines 3 * e
    // (after its first byte) and 6 * e (after its first word).
    let path = saved_file(cache.path());
    let mut bytes = fs::read(&path).unwrap();
    let starts: Vec<u8> = (0..CHUNKS as u64)
        .flat_map(|c| (c * CHUNK as u64).to_le_bytes())
        .collect();
    let at = bytes
        .windows(starts.len())
        .position(|w| w == starts)
        .expect("the saved starts");
    let mut put = |c: usize, start: usize| {
        bytes[at + 8 * c..at + 8 * c + 8].copy_from_slice(&(start as u64).to_le_bytes())
    };
    put(3, 3 * CHUNK + 1);
    put(6, 6 * CHUNK + "twice_word ".len());
    write_resummed(&path, &mut bytes);
    let on = restarted(d, cache.path());
    let off = Sandbox::builder().root(d).threads(2).build().unwrap();
    let mut not_read = 0;
    for mode in [OutputMode::FilesWithMatches, OutputMode::Count] {
        for p in [
            "^caret_word",
            "twice_word",
            "^twice_word \\d",
            "filler 00000100 ",
        ] {
            not_read += same(&off, &on, &args(p, mode, |_| {}));
        }
    }
    let r = run(&off, &args("twice_word", OutputMode::Count, |_| {}));
    assert!(r["matches"].as_str().unwrap().contains("big.txt:2"), "{r}");
    assert!(not_read > 0);
}

/// `n` lines of `width` bytes (its line end included), `words` at the given line numbers: lines
/// of another width than [`LINE`] put a file's chunk starts elsewhere.
fn lines_of(n: usize, width: usize, words: &[(usize, &str)]) -> String {
    (0..n)
        .map(|i| {
            let text = match words.iter().find(|(at, _)| *at == i) {
                Some((_, w)) => format!("{w} {i}"),
                None => format!("pad {i:08}"),
            };
            format!("{text:<w$}\n", w = width - 1)
        })
        .collect()
}

/// The answer's `stats.index.chunks_pruned`.
fn chunks_not_read(sb: &Sandbox, a: &GrepArgs) -> u64 {
    run(sb, a)["stats"]["index"]["chunks_pruned"]
        .as_u64()
        .unwrap_or(0)
}

/// A restart whose build keeps most entries from the saved index and reads a few files again
/// (two rewritten, one new, one gone): the read files' entries come first, the kept ones after
/// them, renumbered with their units, and each kept unit's start must stay its own (`reuse`).
/// The files' lines are of different widths, so each file's chunks start elsewhere: a start
/// taken from another unit or file lies inside a line (the chunk is then read whole, fewer chunks
/// not read) or at another line's end (a candidate chunk's lines not read: a match lost). Every
/// answer is the unindexed one, and the chunks not read are those of an index built afresh.
#[test]
fn a_restart_keeping_most_entries_keeps_each_units_start() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let d = dir.path();
    let widths = [32usize, 40, 48, 57, 100, 33, 71];
    let file = |w: usize, tag: &str| {
        let n = 7 * CHUNK / w;
        let words = [
            (CHUNK / w - 1, format!("kept_needle edge {tag}")),
            (CHUNK / w + 1, format!("kept_needle after {tag}")),
            (3 * CHUNK / w + 2, format!("only_{tag}")),
            (5 * CHUNK / w, format!("kept_needle late {tag}")),
            (n - 1, format!("last_{tag} kept_needle")),
        ];
        let words: Vec<(usize, &str)> = words.iter().map(|(i, s)| (*i, s.as_str())).collect();
        lines_of(n, w, &words)
    };
    for (i, &w) in widths.iter().enumerate() {
        fs::write(d.join(format!("f{i}.txt")), file(w, &format!("f{i}"))).unwrap();
    }
    fs::write(d.join("gone.txt"), file(44, "gone")).unwrap();
    let canonical = d.canonicalize().unwrap();
    rootbound::index_age_at(&canonical, Duration::from_millis(2100));
    drop(restarted(d, cache.path()));
    // Two files rewritten (their lines now of other widths), one new, one gone.
    fs::write(d.join("f1.txt"), file(36, "f1")).unwrap();
    fs::write(d.join("f4.txt"), file(64, "f4")).unwrap();
    fs::write(d.join("new.txt"), file(52, "new")).unwrap();
    fs::remove_file(d.join("gone.txt")).unwrap();
    rootbound::index_age_at(&canonical, Duration::from_secs(5));
    let on = restarted(d, cache.path());
    let st = on.index_status().remove(0);
    let read_again: u64 = ["f1.txt", "f4.txt", "new.txt"]
        .iter()
        .map(|f| fs::metadata(d.join(f)).unwrap().len())
        .sum();
    assert_eq!(st.bytes_read, read_again, "{st:?}");
    let off = Sandbox::builder().root(d).threads(2).build().unwrap();
    let fresh = Sandbox::builder()
        .root(d)
        .threads(2)
        .build()
        .unwrap()
        .with_index_options(IndexOptions::default());
    assert!(fresh.wait_for_index(crate::support::time::INDEX_WORK));
    let mut patterns = vec!["kept_needle".to_string(), "^kept_needle (edge|late)".into()];
    for t in (0..widths.len())
        .map(|i| format!("f{i}"))
        .chain(["new".into()])
    {
        patterns.push(format!("only_{t}"));
        patterns.push(format!("^last_{t} "));
    }
    let mut not_read = 0;
    for mode in [OutputMode::FilesWithMatches, OutputMode::Count] {
        for p in &patterns {
            let a = args(p, mode, |_| {});
            let n = same(&off, &on, &a);
            assert_eq!(n, chunks_not_read(&fresh, &a), "{p} {mode:?}");
            not_read += n;
        }
    }
    assert!(not_read > 0);
}

/// A limit of the design, outside the threat model (docs/index.md, "What a saved file is trusted
/// for"): a saved index whose entry says "no NUL byte" for a file that holds one (its checksum
/// made right, which takes write access to the operator's private cache directory) has the file
/// searched by its candidate chunks, none holding the NUL, and a match after the NUL is reported
/// where the whole file's search stops at the NUL and skips the file as binary. Only reading the
/// whole file would tell. Ignored: it shows the limit, and passes only if the saved NUL fact stops
/// being believed.
#[test]
#[ignore = "outside the threat model: a forged saved index is the operator's (docs/index.md)"]
fn a_crafted_no_nul_fact_does_not_change_an_answer() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let d = dir.path();
    let e = PER_CHUNK;
    let mut text = chunked(CHUNKS, &[(6 * e, "after_nul")]).into_bytes();
    text[e + 5] = 0;
    fs::write(d.join("bin.txt"), &text).unwrap();
    rootbound::index_age_at(&d.canonicalize().unwrap(), Duration::from_millis(2100));
    drop(restarted(d, cache.path()));
    let path = saved_file(cache.path());
    let mut bytes = fs::read(&path).unwrap();
    let name = b"bin.txt";
    let at = bytes.windows(name.len()).position(|w| w == name).unwrap();
    assert_eq!(bytes[at + name.len() + 48], 1);
    bytes[at + name.len() + 48] = 0;
    write_resummed(&path, &mut bytes);
    let on = restarted(d, cache.path());
    let off = Sandbox::builder().root(d).threads(2).build().unwrap();
    for mode in [OutputMode::FilesWithMatches, OutputMode::Count] {
        same(&off, &on, &args("after_nul", mode, |_| {}));
    }
}

/// The saved index in `cache` (one root: one file).
fn saved_file(cache: &std::path::Path) -> std::path::PathBuf {
    fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "rbindex"))
        .unwrap()
}

/// Writes the changed saved index `bytes` at `path` with its checksum made right again (a
/// crafted file, as the load sees it).
fn write_resummed(path: &std::path::Path, bytes: &mut [u8]) {
    let body = 16 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize + 20;
    let crc = crc32fast::hash(&bytes[body..]);
    bytes[body - 4..body].copy_from_slice(&crc.to_le_bytes());
    fs::write(path, bytes).unwrap();
}
