//! Edits keep the file's encoding (docs/ATTACKS.md class 41): a UTF-16 file (LE or BE, with a
//! byte-order mark) is matched as read_file decodes it and written back in UTF-16, with its mark and
//! line endings; a UTF-8 mark, CRLF, mixed endings and bytes that are not UTF-8 are kept; every byte
//! outside the change is the file's own. The expected bytes are built here, not by the crate.

use rootbound::{
    Edit, EditArgs, EditResult, Error, ErrorCode, ReadArgs, Sandbox, WriteArgs, WritePolicy,
};
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

struct Dir {
    _tmp: tempfile::TempDir,
    w: PathBuf,
}

fn dir() -> Dir {
    let tmp = tempfile::tempdir().unwrap();
    let w = std::fs::canonicalize(tmp.path()).unwrap();
    Dir { _tmp: tmp, w }
}

impl Dir {
    fn p(&self, rel: &str) -> PathBuf {
        self.w.join(rel)
    }
    fn put(&self, rel: &str, bytes: &[u8]) {
        std::fs::write(self.p(rel), bytes).unwrap();
    }
    fn get(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.p(rel)).unwrap()
    }
    /// Read and write root, overwrite allowed, with `max_write_bytes`.
    fn sb(&self, max_write: Option<u64>) -> Sandbox {
        let mut wp = WritePolicy::new(&self.w);
        wp.allow_overwrite = true;
        if let Some(m) = max_write {
            wp.max_write_bytes = m;
        }
        Sandbox::builder().root(&self.w).write(wp).build().unwrap()
    }
}

/// `s` in UTF-16 with its byte-order mark, unit by unit.
fn utf16(s: &str, be: bool) -> Vec<u8> {
    let mut out = if be {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for u in s.encode_utf16() {
        out.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
    }
    out
}

fn replace(path: &str, old: &str, new: &str) -> EditArgs {
    EditArgs::replace(path, old, new)
}

#[track_caller]
fn fails<T: std::fmt::Debug>(r: rootbound::Result<T>, code: ErrorCode) -> Error {
    match r {
        Ok(v) => panic!("expected {code:?}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!(e.code, code, "{e}");
            e
        }
    }
}

const TEXT: &str = "line one\r\nna\u{EF}ve caf\u{E9} \u{1F600}\r\nthird\r\n";

#[test]
fn utf16_le_and_be_edits_round_trip_byte_for_byte() {
    let d = dir();
    let s = d.sb(None);
    for (be, name) in [(false, "utf-16le"), (true, "utf-16be")] {
        let f = format!("{name}.txt");
        d.put(&f, &utf16(TEXT, be));
        // The text as read_file shows it (CRLF included) is what old_string is copied from.
        let shown = s.read_file(&ReadArgs::path(&f)).unwrap();
        assert_eq!(
            (shown.content.as_str(), shown.encoding.as_str()),
            (TEXT, name)
        );
        // LF in old_string matches the CRLF lines; the lines it adds get CRLF.
        let r = s
            .edit_file(&replace(
                &f,
                "caf\u{E9} \u{1F600}\nthird",
                "CAF\u{C9}\nthird\nfourth",
            ))
            .unwrap();
        let want = utf16(
            "line one\r\nna\u{EF}ve CAF\u{C9}\r\nthird\r\nfourth\r\n",
            be,
        );
        assert_eq!(d.get(&f), want, "{name}");
        assert_eq!(r.replacements, 1);
        assert_eq!(r.size, want.len() as u64);
        assert_eq!(r.encoding.as_deref(), Some(name));
        let diff = r.diff.unwrap();
        assert!(
            diff.contains("-na\u{EF}ve caf\u{E9} \u{1F600}\r\n+na\u{EF}ve CAF\u{C9}\r\n"),
            "{diff:?}"
        );
        // Copied with its CRLF, old_string matches too; the BOM stays when the first line goes.
        s.edit_file(&replace(&f, "line one\r\n", "")).unwrap();
        assert_eq!(
            d.get(&f),
            want[..2]
                .iter()
                .chain(&want[2 + 20..])
                .copied()
                .collect::<Vec<_>>()
        );
    }
    // The same from hand-written bytes: `hi` in UTF-16LE and BE, `i` replaced by `o`.
    d.put("le", b"\xFF\xFEh\0i\0");
    d.put("be", b"\xFE\xFF\0h\0i");
    s.edit_file(&replace("le", "i", "o")).unwrap();
    s.edit_file(&replace("be", "i", "o")).unwrap();
    assert_eq!(d.get("le"), b"\xFF\xFEh\0o\0");
    assert_eq!(d.get("be"), b"\xFE\xFF\0h\0o");
}

#[test]
fn utf16_replace_all_edit_lists_and_counts() {
    let d = dir();
    let s = d.sb(None);
    d.put("a", &utf16("x=1\nx=2\ny=x\n", true));
    let mut all = replace("a", "x", "\u{3B1}");
    all.replace_all = Some(true);
    assert_eq!(s.edit_file(&all).unwrap().replacements, 3);
    assert_eq!(d.get("a"), utf16("\u{3B1}=1\n\u{3B1}=2\ny=\u{3B1}\n", true));
    // Several matches without replace_all: refused with the decoded text's line numbers.
    let e = fails(
        s.edit_file(&replace("a", "\u{3B1}", "b")),
        ErrorCode::InvalidArgument,
    );
    assert!(e.message.contains("lines 1, 2, 3"), "{e}");
    let mut list = EditArgs::default();
    list.path = "a".into();
    list.edits = Some(
        [("=1", "=one"), ("y=", "z=")]
            .iter()
            .map(|(o, n)| {
                let mut e = Edit::default();
                e.old_string = o.to_string();
                e.new_string = n.to_string();
                e
            })
            .collect(),
    );
    assert_eq!(s.edit_file(&list).unwrap().replacements, 2);
    assert_eq!(
        d.get("a"),
        utf16("\u{3B1}=one\n\u{3B1}=2\nz=\u{3B1}\n", true)
    );
    // Not found: the hint names a line of the decoded text.
    let e = fails(s.edit_file(&replace("a", "z=q", "x")), ErrorCode::NotFound);
    assert!(e.message.contains("line 3 is the closest"), "{e}");
}

#[test]
fn utf16_dry_run_diff_shows_decoded_text_and_writes_nothing() {
    let d = dir();
    let s = d.sb(None);
    let before = utf16(TEXT, false);
    d.put("a.txt", &before);
    let ino = std::fs::metadata(d.p("a.txt")).unwrap().ino();
    let mut a = replace("a.txt", "third", "3rd");
    a.dry_run = Some(true);
    let r = s.edit_file(&a).unwrap();
    assert!(r.dry_run);
    assert_eq!(
        r.size,
        utf16(&TEXT.replace("third", "3rd"), false).len() as u64
    );
    let diff = r.diff.unwrap();
    assert!(diff.contains("-third\r\n+3rd\r\n"), "{diff:?}");
    assert!(
        diff.contains(" na\u{EF}ve caf\u{E9} \u{1F600}\r\n"),
        "{diff:?}"
    );
    assert!(!diff.contains('\0') && !diff.contains('\u{FFFD}') && !diff.contains('\u{FEFF}'));
    assert_eq!(d.get("a.txt"), before);
    assert_eq!(std::fs::metadata(d.p("a.txt")).unwrap().ino(), ino);
}

#[test]
fn invalid_utf16_is_refused_and_kept() {
    let d = dir();
    let s = d.sb(None);
    let odd = b"\xFF\xFEa\0b\0c".to_vec();
    let lone_high = b"\xFF\xFEa\0\x3D\xD8b\0".to_vec();
    let lone_low = b"\xFE\xFF\0a\xDE\x00".to_vec();
    for (name, bytes, what) in [
        ("odd", &odd, "odd number of bytes"),
        ("high", &lone_high, "unpaired surrogate 0xD83D at byte 4"),
        ("low", &lone_low, "unpaired surrogate 0xDE00 at byte 4"),
    ] {
        d.put(name, bytes);
        let e = fails(
            s.edit_file(&replace(name, "a", "z")),
            ErrorCode::InvalidArgument,
        );
        assert!(
            e.message.contains("not valid UTF-16") && e.message.contains(what),
            "{e}"
        );
        assert!(!e.message.contains(&*d.w.to_string_lossy()), "{e}");
        assert_eq!(&d.get(name), bytes);
    }
}

/// A file, an edit (old, new), and the change it makes in the file's bytes (from, to).
type Case<'a> = (&'a str, &'a [u8], &'a str, &'a str, &'a [u8], &'a [u8]);

#[test]
fn utf8_forms_keep_every_byte_outside_the_change() {
    let d = dir();
    let s = d.sb(None);
    // Each: the file, the edit, and where the change is (old bytes -> new bytes) in the file.
    let cases: [Case; 4] = [
        (
            "bom-crlf",
            b"\xEF\xBB\xBFone\r\ntwo\r\nthree\r\n",
            "two\nthree",
            "2\n3\n3.5",
            b"two\r\nthree",
            b"2\r\n3\r\n3.5",
        ),
        (
            "mixed",
            b"a\r\nb\nc\r\nd\n",
            "b\nc",
            "B\nC",
            b"b\nc",
            b"B\nC",
        ),
        (
            "latin1",
            b"caf\xE9 na\xEFve\r\nline two \xA9 2024\nend \xFF\n",
            "line two",
            "line 2",
            b"line two",
            b"line 2",
        ),
        (
            "cp1252",
            b"\x93quoted\x94\n\x80 5\nx\n",
            "x",
            "y",
            b"x\n",
            b"y\n",
        ),
    ];
    for (name, bytes, old, new, from, to) in cases {
        d.put(name, bytes);
        let r = s.edit_file(&replace(name, old, new)).unwrap();
        let at = bytes.windows(from.len()).position(|w| w == from).unwrap();
        let want = [&bytes[..at], to, &bytes[at + from.len()..]].concat();
        assert_eq!(d.get(name), want, "{name}");
        assert_eq!(r.size, want.len() as u64);
    }
}

#[test]
fn latin1_diff_shows_unchanged_bytes_as_they_decode() {
    let d = dir();
    let s = d.sb(None);
    d.put(
        "l.txt",
        b"caf\xE9 na\xEFve\nline two \xA9 2024\n\x93end\x94\n",
    );
    let shown = s.read_file(&ReadArgs::path("l.txt")).unwrap();
    assert_eq!(shown.encoding, "utf-8-lossy");
    let mut a = replace("l.txt", "line two", "line \u{E9}");
    a.dry_run = Some(true);
    let r: EditResult = s.edit_file(&a).unwrap();
    // The result says what read_file says: the file is not UTF-8.
    assert_eq!(r.encoding.as_deref(), Some("utf-8-lossy"));
    let diff = r.diff.unwrap();
    assert!(!diff.contains('\u{FFFD}'), "{diff}");
    assert!(diff.contains(" caf\u{E9} na\u{EF}ve\n"), "{diff}");
    assert!(
        diff.contains("-line two \u{A9} 2024\n+line \u{E9} \u{A9} 2024\n"),
        "{diff}"
    );
    assert!(diff.contains(" \u{201C}end\u{201D}\n"), "{diff}");
    // A UTF-8 file says nothing of its encoding.
    d.put("u.txt", "caf\u{E9}\n".as_bytes());
    assert_eq!(
        s.edit_file(&replace("u.txt", "caf", "CAF"))
            .unwrap()
            .encoding,
        None
    );
}

#[test]
fn utf16_edits_stay_within_the_write_limit() {
    let d = dir();
    // 2 + 2 * 40 = 82 bytes of UTF-16; the limit is 100.
    let s = d.sb(Some(100));
    d.put("a", &utf16(&format!("x{}", "a".repeat(39)), false));
    // 49 characters: 49 bytes of UTF-8 (under the limit), 100 of UTF-16 (at it).
    let ten = "b".repeat(10);
    let r = s.edit_file(&replace("a", "x", &ten)).unwrap();
    assert_eq!(r.size, 100);
    assert_eq!(d.get("a"), utf16(&(ten.clone() + &"a".repeat(39)), false));
    // One more character is over it in UTF-16, though 50 bytes of UTF-8 are not.
    let e = fails(
        s.edit_file(&replace("a", &ten, &"b".repeat(11))),
        ErrorCode::TooLarge,
    );
    assert!(
        e.message.contains("102 bytes") && e.message.contains("100 bytes"),
        "{e}"
    );
    // Many matches replaced by long text: refused before the text is built.
    let mut all = replace("a", "a", &"c".repeat(1000));
    all.replace_all = Some(true);
    let e = fails(s.edit_file(&all), ErrorCode::TooLarge);
    assert!(
        e.message
            .contains("would be over the write limit of 100 bytes"),
        "{e}"
    );
    assert_eq!(d.get("a").len(), 100);
    // A file over the limit is not read for an edit at all.
    d.put("big", &utf16(&"z".repeat(60), true));
    fails(s.edit_file(&replace("big", "z", "y")), ErrorCode::TooLarge);
}

/// A counter of `key` in a UTF-16LE file's text.
fn counter(bytes: &[u8], key: &str) -> Option<u64> {
    let units: Vec<u16> = bytes
        .get(2..)?
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let text = String::from_utf16(&units).ok()?;
    let line = text.lines().find(|l| l.starts_with(&format!("{key}=")))?;
    line[key.len() + 1..].parse().ok()
}

/// The race check of an edit compares the bytes the file had, not the re-encoded text: an edit of
/// a UTF-16 file that another process rewrites in place never loses that write, and an edit with no
/// writer succeeds (so the check does not refuse every re-encoded edit).
#[test]
fn race_utf16_edit_against_an_in_place_writer_loses_no_update() {
    use std::os::unix::fs::FileExt;
    let d = dir();
    d.put("count.txt", &utf16("a=0000000\nb=0000000\n", false));
    let s = d.sb(None);
    let path = d.p("count.txt");
    let stop = AtomicBool::new(false);
    let end = Instant::now() + Duration::from_millis(1500);
    let b_at = 2 + 2 * "a=0000000\n".len() as u64;
    let write_b = |k: u64| {
        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.write_all_at(&utf16(&format!("b={k:07}\n"), false)[2..], b_at)
            .unwrap();
        f.metadata().unwrap().ino()
    };
    let (edits, lost, writes) = std::thread::scope(|sc| {
        let editor = sc.spawn(|| {
            let mut mine = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let Some(n) = counter(&std::fs::read(&path).unwrap_or_default(), "a") else {
                    continue;
                };
                let (old, new) = (format!("a={n:07}\n"), format!("a={:07}\n", n + 1));
                match s.edit_file(&replace("count.txt", &old, &new)) {
                    Ok(_) => mine += 1,
                    Err(e) if e.code == ErrorCode::AlreadyExists => {
                        assert!(e.message.contains("changed"), "{e}")
                    }
                    Err(e) if e.code == ErrorCode::NotFound => {}
                    Err(e) => panic!("{e}"),
                }
            }
            mine
        });
        let (mut lost, mut k, mut writes) = (Vec::new(), 0u64, 0u64);
        while writes == 0 || Instant::now() < end {
            k += 1;
            // Write k until it lands on the file that is at the name after the write (the name
            // looked up after the write: a write into a file an edit just replaced is not landed).
            loop {
                let mine = write_b(k);
                if std::fs::metadata(&path).map(|m| m.ino()).ok() == Some(mine) {
                    break;
                }
            }
            writes += 1;
            std::thread::sleep(Duration::from_micros(300));
            // However long a descheduled undo takes on a busy machine: a lost write never comes
            // back (nothing else writes b), so the generous cap only bounds a failing run.
            let look = Instant::now();
            let mut seen = None;
            while look.elapsed() < crate::support::time::PROMPT {
                seen = counter(&std::fs::read(&path).unwrap_or_default(), "b");
                if seen == Some(k) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(4));
            }
            if seen != Some(k) {
                lost.push((k, seen));
                write_b(k);
            }
        }
        stop.store(true, Ordering::Relaxed);
        (editor.join().unwrap(), lost, writes)
    });
    let bytes = std::fs::read(&path).unwrap();
    assert!(lost.is_empty(), "in-place writes lost to edits: {lost:?}");
    assert_eq!(counter(&bytes, "a"), Some(edits), "{bytes:?}");
    let (old, new) = (format!("a={edits:07}\n"), format!("a={:07}\n", edits + 1));
    s.edit_file(&replace("count.txt", &old, &new)).unwrap();
    let want = utf16(&format!("a={:07}\nb={writes:07}\n", edits + 1), false);
    assert_eq!(std::fs::read(&path).unwrap(), want);
}

fn write(path: &str, content: &str) -> WriteArgs {
    let mut a = WriteArgs::default();
    a.path = path.into();
    a.content = content.into();
    a.overwrite = Some(true);
    a
}

/// write_file over a UTF-16 file writes the text in that encoding, with its mark, and says so;
/// anything else is written as given.
#[test]
fn write_file_over_utf16_keeps_its_encoding() {
    let d = dir();
    let s = d.sb(None);
    for (be, name) in [(false, "utf-16le"), (true, "utf-16be")] {
        d.put(name, &utf16("old\r\n", be));
        let r = s
            .write_file(&write(name, "new \u{1F600}\r\ntext\n"))
            .unwrap();
        let want = utf16("new \u{1F600}\r\ntext\n", be);
        assert_eq!(d.get(name), want);
        assert_eq!(
            (r.bytes_written, r.encoding.as_deref()),
            (want.len() as u64, Some(name))
        );
        // The text read back whole and written again is the same file; a leading U+FEFF is the
        // mark, not a second one.
        let shown = s.read_file(&ReadArgs::path(name)).unwrap().content;
        s.write_file(&write(name, &shown)).unwrap();
        s.write_file(&write(name, &format!("\u{FEFF}{shown}")))
            .unwrap();
        assert_eq!(d.get(name), want);
    }
    // base64 is the bytes as given; a new file and a UTF-8 one get the text as given.
    let mut b = write("utf-16le", "aGk=");
    b.encoding = Some(rootbound::ContentEncoding::Base64);
    assert_eq!(s.write_file(&b).unwrap().encoding, None);
    assert_eq!(d.get("utf-16le"), b"hi");
    d.put("u8", b"old");
    assert_eq!(s.write_file(&write("u8", "new")).unwrap().encoding, None);
    assert_eq!(s.write_file(&write("fresh", "new")).unwrap().encoding, None);
    assert_eq!(
        (d.get("u8"), d.get("fresh")),
        (b"new".to_vec(), b"new".to_vec())
    );
    // Over the limit in UTF-16 though not in UTF-8: refused, the file kept.
    let small = d.sb(Some(10));
    d.put("s", &utf16("ab", false));
    let e = fails(small.write_file(&write("s", "abcde")), ErrorCode::TooLarge);
    assert!(e.message.contains("12 bytes"), "{e}");
    assert_eq!(d.get("s"), utf16("ab", false));
}

/// Where the write root cannot be read, write_file never looks at what it replaces: the text is
/// written as given (the agent could not have read the UTF-16 text to begin with).
#[test]
fn write_file_in_an_unreadable_write_root_writes_as_given() {
    let d = dir();
    let mut wp = WritePolicy::new(&d.w);
    wp.allow_overwrite = true;
    let s = Sandbox::builder().write(wp).build().unwrap();
    d.put("a", &utf16("old", false));
    let r = s.write_file(&write("a", "new")).unwrap();
    assert_eq!((r.encoding, d.get("a")), (None, b"new".to_vec()));
}
