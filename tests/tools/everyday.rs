//! The everyday tools (edit_file, read_many_files, directory_tree, list_roots,
//! read_media_file, create_directory, move_file). For each: its success cases, every error it
//! documents, and the attacks of docs/ATTACKS.md that apply to it (`..`, absolute paths, symlinks at every
//! component, deny rules under every spelling and through nested roots, hard links, FIFOs), checking
//! after each that nothing outside the roots changed and no temporary file was left. Race tests: no
//! lost update between concurrent edits or an in-place writer, and a parent directory swapped for a
//! symlink to outside never makes a move or an edit land outside.
//!
//! Real temp trees: `base/w` (the write root; also the read root unless a test says otherwise),
//! `base/outside` (a canary and a subdirectory) and `base/w_evil` (a sibling with the write root's
//! name as a prefix, holding a canary).

use crate::support::time::assert_prompt;
use base64::Engine;
use rootbound::{
    Edit, EditArgs, EditResult, Error, ErrorCode, MediaArgs, MkdirArgs, MoveArgs, Policy, ReadArgs,
    ReadManyArgs, RootSpec, RootsArgs, Sandbox, TreeArgs, TreeNode, WritePolicy, MAX_MEDIA_BYTES,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_rootbound");
const TEMP_PREFIX: &str = ".rootbound-tmp-";
/// A 1x1 PNG.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

struct World {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    w: PathBuf,
    outside: PathBuf,
    canary: String,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::Builder::new()
            .prefix("rootbound-everyday-")
            .tempdir()
            .unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let (w, outside) = (base.join("w"), base.join("outside"));
        std::fs::create_dir(&w).unwrap();
        std::fs::create_dir_all(outside.join("sub")).unwrap();
        std::fs::create_dir(base.join("w_evil")).unwrap();
        let canary = format!("CANARY-everyday-{}", std::process::id());
        std::fs::write(outside.join("secret.txt"), format!("{canary}\n")).unwrap();
        std::fs::write(outside.join("sub/inner.txt"), format!("{canary} inner\n")).unwrap();
        std::fs::write(base.join("w_evil/x"), format!("{canary}\n")).unwrap();
        World {
            _tmp: tmp,
            base,
            w,
            outside,
            canary,
        }
    }

    /// Writes a file under the write root (parents made).
    fn file(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let p = self.w.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
        self
    }

    fn link(&self, rel: &str, to: impl AsRef<Path>) -> &Self {
        let p = self.w.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(to, p).unwrap();
        self
    }

    fn fifo(&self, rel: &str) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            self.w.join(rel),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .expect("mkfifo");
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.w.join(rel)
    }

    fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.p(rel)).unwrap()
    }

    fn text(&self, rel: &str) -> String {
        std::fs::read_to_string(self.p(rel)).unwrap()
    }

    /// Everything outside the write root that a test could damage.
    fn outside_state(&self) -> BTreeMap<String, String> {
        let mut m = snapshot(&self.outside);
        for (k, v) in snapshot(&self.base.join("w_evil")) {
            m.insert(format!("w_evil/{k}"), v);
        }
        m
    }

    /// Read root and write root both `w`, overwrite allowed.
    fn rw(&self) -> Policy {
        let mut wp = WritePolicy::new(&self.w);
        wp.allow_overwrite = true;
        Policy {
            roots: vec![root(&self.w)],
            write: Some(wp),
            ..Default::default()
        }
    }

    /// Only the write root (not readable), overwrite allowed.
    fn wo(&self) -> Policy {
        Policy {
            roots: vec![],
            ..self.rw()
        }
    }
}

fn root(p: &Path) -> RootSpec {
    RootSpec {
        name: String::new(),
        path: p.to_path_buf(),
    }
}

fn with(mut p: Policy, f: impl FnOnce(&mut Policy)) -> Policy {
    f(&mut p);
    p
}

fn deny(p: Policy, rules: &[&str]) -> Policy {
    with(p, |p| {
        p.deny = rules.iter().map(|s| s.to_string()).collect()
    })
}

fn sb(p: Policy) -> Sandbox {
    Sandbox::new(p).unwrap()
}

/// Path → what it is (file content, link target, dir), recursively, never following links.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, rel: &Path, out: &mut BTreeMap<String, String>) {
        let Ok(rd) = std::fs::read_dir(dir.join(rel)) else {
            return;
        };
        for e in rd {
            let e = e.unwrap();
            let r = rel.join(e.file_name());
            let full = dir.join(&r);
            let md = std::fs::symlink_metadata(&full).unwrap();
            let key = r.to_string_lossy().into_owned();
            if md.file_type().is_symlink() {
                let to = std::fs::read_link(&full).unwrap();
                out.insert(key, format!("link:{}", to.display()));
            } else if md.is_dir() {
                out.insert(key, "dir".into());
                walk(dir, &r, out);
            } else if md.is_file() {
                let c = std::fs::read(&full).unwrap();
                out.insert(key, format!("file:{}", String::from_utf8_lossy(&c)));
            } else {
                out.insert(key, "other".into());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, Path::new(""), &mut out);
    out
}

/// No temporary file of a write survives anywhere under `dir`.
fn no_temps(dir: &Path) {
    let left: Vec<String> = snapshot(dir)
        .into_keys()
        .filter(|k| {
            Path::new(k)
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(TEMP_PREFIX))
        })
        .collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
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

fn detail(e: &Error, key: &str) -> Option<Value> {
    e.details.as_ref().and_then(|d| d.get(key)).cloned()
}

fn replace(path: &str, old: &str, new: &str) -> EditArgs {
    EditArgs::replace(path, old, new)
}

fn edit_list(path: &str, list: &[(&str, &str, bool)]) -> EditArgs {
    let mut a = EditArgs::default();
    a.path = path.into();
    a.edits = Some(
        list.iter()
            .map(|(o, n, all)| {
                let mut e = Edit::default();
                e.old_string = o.to_string();
                e.new_string = n.to_string();
                e.replace_all = all.then_some(true);
                e
            })
            .collect(),
    );
    a
}

fn mkdir(path: &str) -> MkdirArgs {
    let mut a = MkdirArgs::default();
    a.path = path.into();
    a
}

fn mv(src: &str, dst: &str) -> MoveArgs {
    let mut a = MoveArgs::default();
    a.source = src.into();
    a.destination = dst.into();
    a
}

fn mv_over(src: &str, dst: &str) -> MoveArgs {
    let mut a = mv(src, dst);
    a.overwrite = Some(true);
    a
}

fn many(paths: &[&str], max: Option<u64>) -> ReadManyArgs {
    let mut a = ReadManyArgs::paths(paths);
    a.max_bytes = max;
    a
}

fn tree(path: Option<&str>) -> TreeArgs {
    let mut a = TreeArgs::default();
    a.path = path.map(str::to_string);
    a
}

// ------------------------------------------------------------------------------------------------
// edit_file

#[test]
fn edit_single_replacement() {
    let w = World::new();
    w.file("a.txt", "hello world\nsecond line\n");
    let s = sb(w.rw());
    let r: EditResult = s.edit_file(&replace("a.txt", "world", "there")).unwrap();
    assert_eq!(r.replacements, 1);
    assert!(!r.created && !r.dry_run);
    assert_eq!(w.text("a.txt"), "hello there\nsecond line\n");
    assert_eq!(r.size, w.read("a.txt").len() as u64);
    assert_eq!(r.path, w.p("a.txt").display().to_string());
    // Multi-line old_string, and an edit that deletes text.
    s.edit_file(&replace("a.txt", "there\nsecond", "there\n2nd"))
        .unwrap();
    s.edit_file(&replace("a.txt", " line", "")).unwrap();
    assert_eq!(w.text("a.txt"), "hello there\n2nd\n");
    // Absolute path inside the write root.
    let abs = w.p("a.txt").display().to_string();
    s.edit_file(&replace(&abs, "2nd", "two")).unwrap();
    assert_eq!(w.text("a.txt"), "hello there\ntwo\n");
    // `..` that stays inside.
    w.file("sub/b.txt", "x\n");
    s.edit_file(&replace("sub/../sub/b.txt", "x", "y")).unwrap();
    assert_eq!(w.text("sub/b.txt"), "y\n");
    no_temps(&w.w);
}

#[test]
fn edit_replace_all_and_expected_replacements() {
    let w = World::new();
    w.file("a.txt", "foo\nbar foo\nfoo\n");
    let s = sb(w.rw());
    let mut a = replace("a.txt", "foo", "baz");
    a.replace_all = Some(true);
    assert_eq!(s.edit_file(&a).unwrap().replacements, 3);
    assert_eq!(w.text("a.txt"), "baz\nbar baz\nbaz\n");

    let mut a = replace("a.txt", "baz", "qux");
    a.expected_replacements = Some(3);
    assert_eq!(s.edit_file(&a).unwrap().replacements, 3);
    assert_eq!(w.text("a.txt"), "qux\nbar qux\nqux\n");

    let before = w.read("a.txt");
    for want in [1, 2, 4] {
        let mut a = replace("a.txt", "qux", "zzz");
        a.expected_replacements = Some(want);
        let e = fails(s.edit_file(&a), ErrorCode::InvalidArgument);
        assert!(e.message.contains("3 times"), "{e}");
        assert_eq!(detail(&e, "lines"), Some(json!([1, 2, 3])), "{e:?}");
        assert_eq!(w.read("a.txt"), before);
    }
    // expected_replacements 1 with one match is fine.
    let mut a = replace("a.txt", "bar", "BAR");
    a.expected_replacements = Some(1);
    assert_eq!(s.edit_file(&a).unwrap().replacements, 1);
    no_temps(&w.w);
}

#[test]
fn edit_several_matches_is_invalid_with_lines() {
    let w = World::new();
    w.file("a.txt", "x = 1\ny = 2\nx = 1\n\nx = 1\n");
    let s = sb(w.rw());
    let before = w.read("a.txt");
    let e = fails(
        s.edit_file(&replace("a.txt", "x = 1", "x = 9")),
        ErrorCode::InvalidArgument,
    );
    assert_eq!(detail(&e, "lines"), Some(json!([1, 3, 5])), "{e:?}");
    assert!(e.message.contains("replace_all"), "{e}");
    assert_eq!(w.read("a.txt"), before);
    no_temps(&w.w);
}

#[test]
fn edit_zero_matches_is_not_found_with_closest_line_and_no_content() {
    let w = World::new();
    w.file(
        "a.rs",
        "fn main() {\n    let token = \"SECRET-XYZZY\";\n    println!(\"{token}\");\n}\n",
    );
    let s = sb(w.rw());
    let before = w.read("a.rs");
    let e = fails(
        s.edit_file(&replace("a.rs", "let token = \"other\";", "x")),
        ErrorCode::NotFound,
    );
    assert_eq!(detail(&e, "closest_line"), Some(json!(2)), "{e:?}");
    let j = e.to_json().to_string();
    assert!(!j.contains("XYZZY"), "an edit error leaks content: {j}");
    // Nothing alike: no closest line, still NOT_FOUND.
    let e = fails(
        s.edit_file(&replace("a.rs", "qqqq", "x")),
        ErrorCode::NotFound,
    );
    assert_eq!(detail(&e, "closest_line"), None);
    // Whitespace matters: a tab for spaces is not found.
    fails(
        s.edit_file(&replace("a.rs", "\tlet token", "x")),
        ErrorCode::NotFound,
    );
    assert_eq!(w.read("a.rs"), before);
    no_temps(&w.w);
}

#[test]
fn edits_apply_in_order_all_or_nothing() {
    let w = World::new();
    w.file("a.txt", "alpha\nbeta\ngamma\n");
    let s = sb(w.rw());
    // The second edit sees the first one's result.
    let r = s
        .edit_file(&edit_list(
            "a.txt",
            &[("alpha", "ALPHA", false), ("ALPHA\nbeta", "AB", false)],
        ))
        .unwrap();
    assert_eq!(r.replacements, 2);
    assert_eq!(w.text("a.txt"), "AB\ngamma\n");

    let before = w.read("a.txt");
    let mtime = std::fs::metadata(w.p("a.txt")).unwrap().mtime_nsec();
    let ino = std::fs::metadata(w.p("a.txt")).unwrap().ino();
    // First edit fine, second missing: nothing changes.
    let e = fails(
        s.edit_file(&edit_list(
            "a.txt",
            &[("gamma", "G", false), ("missing", "M", false)],
        )),
        ErrorCode::NotFound,
    );
    assert!(e.message.contains("edit 2 of 2"), "{e}");
    // Second ambiguous after the first made it so: nothing changes.
    let e = fails(
        s.edit_file(&edit_list(
            "a.txt",
            &[("gamma", "AB", false), ("AB", "x", false)],
        )),
        ErrorCode::InvalidArgument,
    );
    assert!(detail(&e, "lines").is_some(), "{e:?}");
    // An empty old_string in a later edit of an existing file.
    fails(
        s.edit_file(&edit_list(
            "a.txt",
            &[("gamma", "G", false), ("", "x", false)],
        )),
        ErrorCode::AlreadyExists,
    );
    assert_eq!(w.read("a.txt"), before);
    let md = std::fs::metadata(w.p("a.txt")).unwrap();
    assert_eq!(
        (md.ino(), md.mtime_nsec()),
        (ino, mtime),
        "the file was rewritten"
    );
    // replace_all inside an edit.
    w.file("b.txt", "a a a\n");
    let r = s
        .edit_file(&edit_list(
            "b.txt",
            &[("a", "b", true), ("b b b", "c", false)],
        ))
        .unwrap();
    assert_eq!(r.replacements, 4);
    assert_eq!(w.text("b.txt"), "c\n");
    no_temps(&w.w);
}

#[test]
fn edit_argument_shapes() {
    let w = World::new();
    w.file("a.txt", "abc\n");
    let s = sb(w.rw());
    let before = w.read("a.txt");
    // Both forms at once, an empty list, top-level options with a list, missing new_string.
    let mut both = edit_list("a.txt", &[("a", "b", false)]);
    both.old_string = Some("a".into());
    both.new_string = Some("b".into());
    fails(s.edit_file(&both), ErrorCode::InvalidArgument);
    fails(
        s.edit_file(&edit_list("a.txt", &[])),
        ErrorCode::InvalidArgument,
    );
    let mut opts = edit_list("a.txt", &[("a", "b", false)]);
    opts.replace_all = Some(true);
    fails(s.edit_file(&opts), ErrorCode::InvalidArgument);
    let mut opts = edit_list("a.txt", &[("a", "b", false)]);
    opts.expected_replacements = Some(1);
    fails(s.edit_file(&opts), ErrorCode::InvalidArgument);
    let mut half = replace("a.txt", "a", "b");
    half.new_string = None;
    fails(s.edit_file(&half), ErrorCode::InvalidArgument);
    // Through JSON: unknown fields (top level and inside an edit), wrong types.
    for args in [
        json!({"path": "a.txt", "old_string": "a", "new_string": "b", "bogus": 1}),
        json!({"path": "a.txt", "old_string": "a", "new_string": "b", "replaceAll": true}),
        json!({"path": "a.txt", "edits": [{"old_string": "a", "new_string": "b", "x": 1}]}),
        json!({"path": "a.txt", "old_string": 1, "new_string": "b"}),
        json!({"old_string": "a", "new_string": "b"}),
        json!(["a.txt", "a", "b"]),
    ] {
        let v = s.call("edit_file", args.clone());
        assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{args}: {v}");
    }
    // Bad paths.
    for p in ["", "a\0b", "sub/.", ".", "a.txt/"] {
        let e = s.edit_file(&replace(p, "a", "b")).unwrap_err();
        assert!(
            matches!(e.code, ErrorCode::InvalidArgument | ErrorCode::NotAFile),
            "{p:?}: {e}"
        );
    }
    assert_eq!(w.read("a.txt"), before);
    no_temps(&w.w);
}

#[test]
fn edit_keeps_crlf_bom_and_mode() {
    let w = World::new();
    w.file("crlf.txt", "one\r\ntwo\r\nthree\r\n");
    w.file("bom.txt", "\u{feff}hello\nworld\n");
    w.file("both.txt", "\u{feff}a\r\nb\r\n");
    w.file("mixed.txt", "a\r\nb\nc\r\n");
    w.file("exec.sh", "#!/bin/sh\necho hi\n");
    std::fs::set_permissions(w.p("exec.sh"), std::fs::Permissions::from_mode(0o751)).unwrap();
    std::fs::set_permissions(w.p("crlf.txt"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let s = sb(w.rw());

    // LF old_string matches CRLF lines; inserted lines get CRLF.
    s.edit_file(&replace("crlf.txt", "one\ntwo", "1\n1.5\n2"))
        .unwrap();
    assert_eq!(w.read("crlf.txt"), b"1\r\n1.5\r\n2\r\nthree\r\n");
    // An old_string given with CRLF matches too, and is not doubled.
    s.edit_file(&replace("crlf.txt", "2\r\nthree", "3"))
        .unwrap();
    assert_eq!(w.read("crlf.txt"), b"1\r\n1.5\r\n3\r\n");
    let mode = std::fs::metadata(w.p("crlf.txt")).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o600);

    // The BOM stays, and text at the start of the body matches without it.
    s.edit_file(&replace("bom.txt", "hello\n", "bye\nall\n"))
        .unwrap();
    assert_eq!(w.read("bom.txt"), "\u{feff}bye\nall\nworld\n".as_bytes());
    s.edit_file(&replace("both.txt", "a\nb", "x\ny\nz"))
        .unwrap();
    assert_eq!(w.read("both.txt"), "\u{feff}x\r\ny\r\nz\r\n".as_bytes());

    // A file with mixed endings is matched byte for byte.
    fails(
        s.edit_file(&replace("mixed.txt", "a\nb", "x")),
        ErrorCode::NotFound,
    );
    s.edit_file(&replace("mixed.txt", "b\nc", "B\nC")).unwrap();
    assert_eq!(w.read("mixed.txt"), b"a\r\nB\nC\r\n");

    s.edit_file(&replace("exec.sh", "hi", "there")).unwrap();
    let md = std::fs::metadata(w.p("exec.sh")).unwrap();
    assert_eq!(md.mode() & 0o7777, 0o751);
    assert_eq!(w.text("exec.sh"), "#!/bin/sh\necho there\n");
    no_temps(&w.w);
}

#[test]
fn edit_dry_run_writes_nothing() {
    let w = World::new();
    w.file("a.txt", "hello world\n");
    let s = sb(w.rw());
    let ino = std::fs::metadata(w.p("a.txt")).unwrap().ino();
    let mut a = replace("a.txt", "world", "there");
    a.dry_run = Some(true);
    let r = s.edit_file(&a).unwrap();
    assert!(r.dry_run);
    assert_eq!(r.replacements, 1);
    assert_eq!(r.size, "hello there\n".len() as u64);
    let diff = r.diff.expect("diff");
    assert!(
        diff.contains("-hello world") && diff.contains("+hello there"),
        "{diff}"
    );
    assert_eq!(w.text("a.txt"), "hello world\n");
    assert_eq!(std::fs::metadata(w.p("a.txt")).unwrap().ino(), ino);
    // A dry-run create makes neither the file nor its parents.
    let mut c = replace("new/dir/n.txt", "", "fresh\n");
    c.dry_run = Some(true);
    let r = s.edit_file(&c).unwrap();
    assert!(r.dry_run && r.created, "{r:?}");
    assert_eq!(r.path, w.p("new/dir/n.txt").display().to_string());
    let mut c = replace("n.txt", "", "fresh\n");
    c.dry_run = Some(true);
    let r = s.edit_file(&c).unwrap();
    assert!(r.dry_run && r.created);
    assert!(!w.p("n.txt").exists() && !w.p("new").exists());
    // A dry run still refuses what a real edit would.
    let mut bad = replace("a.txt", "nope", "x");
    bad.dry_run = Some(true);
    fails(s.edit_file(&bad), ErrorCode::NotFound);
    let mut outside = replace("../outside/secret.txt", "CANARY", "x");
    outside.dry_run = Some(true);
    fails(s.edit_file(&outside), ErrorCode::OutOfSandbox);
    // And without allow_overwrite, a dry run of a change is refused too.
    let s2 = sb(with(w.rw(), |p| {
        p.write.as_mut().unwrap().allow_overwrite = false
    }));
    fails(s2.edit_file(&a), ErrorCode::Denied);
    no_temps(&w.w);
}

#[test]
fn edit_creates_with_empty_old_string() {
    let w = World::new();
    w.file("exists.txt", "x\n");
    w.file("empty.txt", "");
    // Creating does not need allow_overwrite.
    let s = sb(with(w.rw(), |p| {
        p.write.as_mut().unwrap().allow_overwrite = false
    }));
    let r = s.edit_file(&replace("new.txt", "", "fresh\n")).unwrap();
    assert!(r.created);
    assert_eq!(r.replacements, 0);
    assert_eq!(r.size, 6);
    assert_eq!(w.text("new.txt"), "fresh\n");
    assert!(r.diff.unwrap().contains("+fresh"));
    // Existing files, empty or not: ALREADY_EXISTS (before the overwrite policy is consulted or not,
    // never a change).
    let sa = sb(w.rw());
    for p in ["exists.txt", "empty.txt", "new.txt"] {
        let before = w.read(p);
        fails(sa.edit_file(&replace(p, "", "y")), ErrorCode::AlreadyExists);
        assert_eq!(w.read(p), before);
    }
    // A non-empty old_string on a missing file: NOT_FOUND, nothing created.
    fails(
        s.edit_file(&replace("missing.txt", "a", "b")),
        ErrorCode::NotFound,
    );
    assert!(!w.p("missing.txt").exists());
    // Through an edits list of one.
    s.edit_file(&edit_list("list.txt", &[("", "L\n", false)]))
        .unwrap();
    assert_eq!(w.text("list.txt"), "L\n");
    no_temps(&w.w);
}

/// write_file makes missing parents (create_parents, the default); so must edit_file's create.
#[test]
fn edit_creates_missing_parents_like_write_file() {
    let w = World::new();
    let s = sb(w.rw());
    let r = s
        .edit_file(&replace("deep/er/new.txt", "", "fresh\n"))
        .unwrap();
    assert!(r.created);
    assert_eq!(w.text("deep/er/new.txt"), "fresh\n");
    // With create_parents off: NOT_FOUND and nothing made.
    let s = sb(with(w.rw(), |p| {
        p.write.as_mut().unwrap().create_parents = false
    }));
    fails(
        s.edit_file(&replace("other/new.txt", "", "x")),
        ErrorCode::NotFound,
    );
    assert!(!w.p("other").exists());
    no_temps(&w.w);
}

#[test]
fn edit_needs_allow_overwrite() {
    let w = World::new();
    w.file("a.txt", "hello\n");
    let s = sb(with(w.rw(), |p| {
        p.write.as_mut().unwrap().allow_overwrite = false
    }));
    let e = fails(
        s.edit_file(&replace("a.txt", "hello", "bye")),
        ErrorCode::Denied,
    );
    assert!(e.message.contains("does not allow"), "{e}");
    assert_eq!(w.text("a.txt"), "hello\n");
    // Even a failing match answers DENIED first (no oracle on the content).
    fails(
        s.edit_file(&replace("a.txt", "nope", "bye")),
        ErrorCode::Denied,
    );
    // No write root at all: the tool is not enabled.
    let ro = sb(Policy {
        roots: vec![root(&w.w)],
        ..Default::default()
    });
    let v = ro.call(
        "edit_file",
        json!({"path": "a.txt", "old_string": "hello", "new_string": "bye"}),
    );
    assert_eq!(v["error"]["code"], "DENIED", "{v}");
    fails(
        ro.edit_file(&replace("a.txt", "hello", "bye")),
        ErrorCode::Denied,
    );
    assert_eq!(w.text("a.txt"), "hello\n");
    no_temps(&w.w);
}

#[test]
fn edit_outside_the_write_root_is_refused_and_writes_nothing_outside() {
    let w = World::new();
    w.link("out", "../outside")
        .link("out_abs", &w.outside)
        .link("secret_link.txt", "../outside/secret.txt")
        .link("dangling_out.txt", "../outside/new.txt")
        .link("chain1", "chain2")
        .link("chain2", "sub/../../outside/secret.txt");
    std::fs::create_dir(w.p("sub")).unwrap();
    let before = w.outside_state();
    let secret = w.outside.join("secret.txt").display().to_string();
    let evil = w.base.join("w_evil/x").display().to_string();
    for policy in [w.rw(), w.rw()] {
        let s = sb(policy);
        for p in [
            "../outside/secret.txt",
            "../x",
            "a/../../x",
            "../w/../outside/secret.txt",
            secret.as_str(),
            evil.as_str(),
            "/etc/passwd",
            "out/secret.txt",
            "out/new.txt",
            "out_abs/secret.txt",
            "secret_link.txt",
            "dangling_out.txt",
            "chain1",
            "/proc/self/root/etc/passwd",
        ] {
            for (old, new) in [(w.canary.as_str(), "PWNED"), ("", "PWNED\n")] {
                let e = s.edit_file(&replace(p, old, new)).unwrap_err();
                assert_eq!(e.code, ErrorCode::OutOfSandbox, "{p} ({old:?}): {e}");
                let j = e.to_json().to_string();
                assert!(!j.contains(&w.canary), "{j}");
            }
        }
    }
    assert_eq!(w.outside_state(), before);
    assert!(!w.base.join("x").exists());
    no_temps(&w.w);
    no_temps(&w.outside);
}

#[test]
fn edit_denied_names_under_every_spelling() {
    let w = World::new();
    w.file(".env", "KEY=1\n")
        .file("sub/.env", "KEY=2\n")
        .file("keys/a.pem", "PEM\n")
        .file(".git/config", "[core]\n")
        .file("ok.txt", "fine\n")
        .link("e", ".env")
        .link("g", ".git")
        .link("sub/up", "../.env");
    let before = snapshot(&w.w);
    let s = sb(deny(w.rw(), &[".env", "*.pem", ".git/"]));
    for p in [
        ".env",
        "./.env",
        "sub/../.env",
        ".//.env",
        "sub/.env",
        "keys/a.pem",
        "keys/../keys/a.pem",
        ".git/config",
        "g/config",
        "e",
        "sub/up",
        "new.pem",
        ".git/hooks/pre-commit",
    ] {
        for (old, new) in [("KEY", "X"), ("", "X")] {
            let e = s.edit_file(&replace(p, old, new)).unwrap_err();
            assert_eq!(e.code, ErrorCode::Denied, "{p} ({old:?}): {e}");
        }
    }
    assert_eq!(snapshot(&w.w), before);
    s.edit_file(&replace("ok.txt", "fine", "good")).unwrap();
    no_temps(&w.w);
}

/// A write root nested in a read root obeys the read root's anchored rules (seen from the read root,
/// `/w/locked.txt` is the write root's `locked.txt`).
#[test]
fn edit_in_a_write_root_nested_in_a_read_root_obeys_anchored_rules() {
    let w = World::new();
    w.file("locked.txt", "locked\n")
        .file("free.txt", "free\n")
        .file("cfg/app.key", "k\n");
    let mut wp = WritePolicy::new(&w.w);
    wp.allow_overwrite = true;
    let s = sb(Policy {
        roots: vec![root(&w.base)],
        deny: vec!["/w/locked.txt".into(), "w/cfg/".into()],
        write: Some(wp),
        ..Default::default()
    });
    for p in ["locked.txt", "./locked.txt", "cfg/app.key", "cfg/new.key"] {
        for old in ["locked", ""] {
            fails(s.edit_file(&replace(p, old, "x")), ErrorCode::Denied);
        }
    }
    assert_eq!(w.text("locked.txt"), "locked\n");
    assert!(!w.p("cfg/new.key").exists());
    // The nested write root is readable through the outer read root: the diff comes back.
    let r = s.edit_file(&replace("free.txt", "free", "FREE")).unwrap();
    assert!(r.diff.unwrap().contains("+FREE"));
    no_temps(&w.w);
}

#[test]
fn edit_refuses_a_symlink_at_the_target() {
    let w = World::new();
    w.file("real.txt", "real\n")
        .link("l.txt", "real.txt")
        .link("dangling.txt", "missing.txt")
        .link("dir_link", "sub");
    std::fs::create_dir(w.p("sub")).unwrap();
    let s = sb(w.rw());
    for p in ["l.txt", "dangling.txt"] {
        for old in ["real", ""] {
            let e = s.edit_file(&replace(p, old, "PWNED")).unwrap_err();
            assert!(
                matches!(e.code, ErrorCode::NotAFile | ErrorCode::AlreadyExists),
                "{p} {old:?}: {e}"
            );
        }
        assert!(std::fs::symlink_metadata(w.p(p))
            .unwrap()
            .file_type()
            .is_symlink());
    }
    assert_eq!(w.text("real.txt"), "real\n");
    assert!(
        !w.p("missing.txt").exists(),
        "created through a dangling link"
    );
    // A directory, and a FIFO (answered at once, never opened for reading).
    std::fs::create_dir(w.p("d")).unwrap();
    fails(s.edit_file(&replace("d", "a", "b")), ErrorCode::NotAFile);
    fails(
        s.edit_file(&replace("dir_link", "a", "b")),
        ErrorCode::NotAFile,
    );
    w.fifo("fifo");
    let t = Instant::now();
    fails(s.edit_file(&replace("fifo", "a", "b")), ErrorCode::NotAFile);
    fails(s.edit_file(&replace("fifo", "", "b")), ErrorCode::NotAFile);
    assert_prompt(t.elapsed(), "an edit of a FIFO");
    no_temps(&w.w);
}

#[test]
fn edit_hard_link_to_outside() {
    let w = World::new();
    std::fs::hard_link(w.outside.join("secret.txt"), w.p("hl.txt")).unwrap();
    let before = w.outside_state();
    // Refused under refuse_hardlinks.
    let s = sb(with(w.rw(), |p| p.refuse_hardlinks = true));
    for old in [w.canary.as_str(), "nope", ""] {
        let e = s.edit_file(&replace("hl.txt", old, "PWNED")).unwrap_err();
        assert!(
            matches!(e.code, ErrorCode::Denied | ErrorCode::AlreadyExists),
            "{old:?}: {e}"
        );
        assert!(!e.to_json().to_string().contains(&w.canary));
    }
    assert_eq!(w.outside_state(), before);
    // Without it (not promised), the edit replaces the name and never writes the shared inode.
    let s = sb(w.rw());
    s.edit_file(&replace("hl.txt", &w.canary, "changed"))
        .unwrap();
    assert_eq!(w.outside_state(), before);
    assert_eq!(w.text("hl.txt"), "changed\n");
    no_temps(&w.w);
}

#[test]
fn edit_size_limit() {
    let w = World::new();
    w.file("a.txt", "0123456789\n");
    w.file("big.txt", "x".repeat(40));
    let s = sb(with(w.rw(), |p| {
        p.write.as_mut().unwrap().max_write_bytes = 20
    }));
    fails(
        s.edit_file(&replace("a.txt", "0123", "0123456789abcdef")),
        ErrorCode::TooLarge,
    );
    assert_eq!(w.text("a.txt"), "0123456789\n");
    fails(
        s.edit_file(&replace("big.txt", "x", "y")),
        ErrorCode::TooLarge,
    );
    fails(
        s.edit_file(&replace("new.txt", "", &"n".repeat(21))),
        ErrorCode::TooLarge,
    );
    assert!(!w.p("new.txt").exists());
    s.edit_file(&replace("a.txt", "0123", "ab")).unwrap();
    no_temps(&w.w);
}

#[test]
fn edit_diff_only_when_the_write_root_is_readable() {
    let w = World::new();
    w.file("a.txt", "hello world\n");
    // Write root only: no edit at all (whether old_string matches would reveal the file).
    let e = sb(w.wo())
        .edit_file(&replace("a.txt", "world", "there"))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Denied, "{e}");
    assert_eq!(w.text("a.txt"), "hello world\n");
    // A sibling read root does not make the write root readable.
    std::fs::create_dir(w.base.join("r")).unwrap();
    let sib = sb(Policy {
        roots: vec![root(&w.base.join("r"))],
        ..w.rw()
    });
    let e = sib
        .edit_file(&replace("a.txt", "world", "you"))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Denied, "{e}");
    w.file("a.txt", "hello you\n");
    // The same directory readable: a unified diff naming the file.
    let r = sb(w.rw())
        .edit_file(&replace("a.txt", "you", "all"))
        .unwrap();
    let d = r.diff.unwrap();
    assert!(d.contains("a/a.txt") && d.contains("b/a.txt"), "{d}");
    assert!(
        d.contains("-hello you\n") && d.contains("+hello all\n"),
        "{d}"
    );
    // The diff is bounded by max_bytes.
    let body: String = (0..2000).map(|i| format!("line {i}\n")).collect();
    w.file("big.txt", &body);
    let s = sb(with(w.rw(), |p| p.limits.max_bytes = 1024));
    let mut a = replace("big.txt", "line", "LINE");
    a.replace_all = Some(true);
    let r = s.edit_file(&a).unwrap();
    let d = r.diff.unwrap();
    assert!(d.len() < 1024 + 200, "{} bytes", d.len());
    assert!(d.contains("diff truncated"), "{d}");
    no_temps(&w.w);
}

/// Memory and output stay bounded whatever the match count: the edited size is known before it is
/// built (a 1 MB file of `a` with replace_all to a 4 KiB text would be a 4 GB buffer), and the
/// `lines` detail of an ambiguous match is cut.
#[test]
fn edit_bounds_growth_and_details() {
    let w = World::new();
    w.file("a.txt", "a".repeat(1_000_000));
    let s = sb(w.rw());
    let t = Instant::now();
    let mut a = replace("a.txt", "a", &"b".repeat(4096));
    a.replace_all = Some(true);
    fails(s.edit_file(&a), ErrorCode::TooLarge);
    let mut a = edit_list("a.txt", &[("a", &"b".repeat(4096), true)]);
    a.dry_run = Some(true);
    fails(s.edit_file(&a), ErrorCode::TooLarge);
    assert_prompt(t.elapsed(), "edits that would grow past the cap");
    assert_eq!(w.read("a.txt").len(), 1_000_000);

    w.file("lines.txt", "x\n".repeat(200_000));
    for args in [replace("lines.txt", "x", "y"), {
        let mut a = replace("lines.txt", "x", "y");
        a.expected_replacements = Some(3);
        a
    }] {
        let e = fails(s.edit_file(&args), ErrorCode::InvalidArgument);
        let j = e.to_json().to_string();
        assert!(j.len() < 64 * 1024, "error of {} bytes", j.len());
        assert!(e.message.contains("200000"), "{}", e.message);
    }
    no_temps(&w.w);
}

// ------------------------------------------------------------------------------------------------
// Races

const RACE: Duration = Duration::from_millis(1500);

/// Reads the fixed-width counter `key=NNNNNNN` from `text`.
fn counter(text: &str, key: &str) -> Option<u64> {
    let at = text.find(&format!("{key}="))? + key.len() + 1;
    text.get(at..at + 7)?.parse().ok()
}

/// Two threads each bump their own counter in one file with edit_file (retrying when told the file
/// changed or the text is not there). A lost update would leave a counter below the number of edits
/// its thread saw succeed (or above it, if a refused edit was published anyway).
#[test]
fn race_concurrent_edits_lose_no_update() {
    let w = World::new();
    let keys = ["a", "b", "c"];
    let init: String = keys.iter().map(|k| format!("{k}=0000000\n")).collect();
    w.file("count.txt", &init);
    let s = sb(w.rw());
    let path = w.p("count.txt");
    let ok: Vec<AtomicU64> = keys.iter().map(|_| AtomicU64::new(0)).collect();
    let retries = AtomicU64::new(0);
    let end = Instant::now() + RACE;
    std::thread::scope(|sc| {
        for (i, key) in keys.iter().enumerate() {
            let (s, path, ok, retries) = (&s, &path, &ok, &retries);
            sc.spawn(move || {
                let mut mine = 0u64;
                while Instant::now() < end {
                    let Ok(text) = std::fs::read_to_string(path) else {
                        continue;
                    };
                    let Some(n) = counter(&text, key) else {
                        continue;
                    };
                    let old = format!("{key}={n:07}\n");
                    let new = format!("{key}={:07}\n", n + 1);
                    match s.edit_file(&replace("count.txt", &old, &new)) {
                        Ok(r) => {
                            assert_eq!(r.replacements, 1);
                            mine += 1;
                        }
                        Err(e)
                            if matches!(e.code, ErrorCode::AlreadyExists | ErrorCode::NotFound) =>
                        {
                            retries.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => panic!("{key}: {e}"),
                    }
                }
                ok[i].store(mine, Ordering::Relaxed);
            });
        }
    });
    let text = std::fs::read_to_string(&path).unwrap();
    let got: Vec<u64> = keys.iter().map(|k| counter(&text, k).unwrap()).collect();
    let want: Vec<u64> = ok.iter().map(|a| a.load(Ordering::Relaxed)).collect();
    println!(
        "edits {want:?}, retries {}, file {text:?}",
        retries.load(Ordering::Relaxed)
    );
    // The invariant, whatever the scheduling: every edit reported done is in the file, no refused
    // one is (a thread may have been refused every time while the others kept changing the file).
    assert_eq!(got, want, "lost or phantom updates: file {text:?}");
    // Progress without contention: each key's next edit succeeds.
    for (key, n) in keys.iter().zip(&got) {
        let old = format!("{key}={n:07}\n");
        let new = format!("{key}={:07}\n", n + 1);
        s.edit_file(&replace("count.txt", &old, &new)).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let after: Vec<u64> = keys.iter().map(|k| counter(&text, k).unwrap()).collect();
    assert_eq!(
        after,
        want.iter().map(|n| n + 1).collect::<Vec<_>>(),
        "{text:?}"
    );
    no_temps(&w.w);
}

/// One thread bumps `a` with edit_file while another rewrites `b` in place (pwrite on the same
/// inode, no truncation). A write that landed on the file the edit read must survive: an edit that
/// read the file before that write must notice the change and give up, not publish the old `b`.
///
/// Each edit also stamps `t` with its attempt number, so a write that landed in a refused edit's own
/// new file (visible at the name between the swap and its undo, which a descheduled editing thread
/// can stretch to milliseconds on a busy machine) is told apart: that is the window the edit's
/// contract leaves open (README, "Everyday tools"), counted and printed. Any other loss fails.
#[test]
fn race_edit_against_an_in_place_writer_loses_no_update() {
    use std::collections::HashSet;
    use std::os::unix::fs::FileExt;
    use std::sync::Mutex;
    // `b` starts after the 20 bytes of "a=NNNNNNN t=NNNNNNN\n".
    const B_AT: u64 = 20;
    let w = World::new();
    w.file("count.txt", "a=0000000 t=0000000\nb=0000000\n");
    let s = sb(w.rw());
    let path = w.p("count.txt");
    let stop = AtomicBool::new(false);
    // Attempts that ended (Ok or refused), and the refused ones.
    let ended = Mutex::new(HashSet::<u64>::from([0]));
    let refused_ids = Mutex::new(HashSet::<u64>::new());
    let end = Instant::now() + RACE;
    let (edits, refused, lost, in_window, writes) = std::thread::scope(|sc| {
        let editor = sc.spawn(|| {
            let (mut mine, mut refused, mut id) = (0u64, 0u64, 0u64);
            while !stop.load(Ordering::Relaxed) {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let (Some(n), Some(t)) = (counter(&text, "a"), counter(&text, "t")) else {
                    continue;
                };
                id += 1;
                let old = format!("a={n:07} t={t:07}\n");
                let new = format!("a={:07} t={id:07}\n", n + 1);
                match s.edit_file(&replace("count.txt", &old, &new)) {
                    Ok(_) => mine += 1,
                    // The file changed under the edit: a clear refusal, nothing written.
                    Err(e) if e.code == ErrorCode::AlreadyExists => {
                        assert!(e.message.contains("changed"), "{e}");
                        refused_ids.lock().unwrap().insert(id);
                        refused += 1;
                    }
                    // The text to replace was gone by the time the edit read the file.
                    Err(e) if e.code == ErrorCode::NotFound => refused += 1,
                    Err(e) => panic!("{e}"),
                }
                ended.lock().unwrap().insert(id);
            }
            (mine, refused)
        });
        let (mut lost, mut in_window) = (Vec::new(), 0u64);
        let mut k = 0u64;
        let mut writes = 0u64;
        // At least one write, however late this thread gets to run.
        while writes == 0 || Instant::now() < end {
            k += 1;
            // Write k until it lands on the file that is at the name after the write; keep that
            // file open so what it holds can be read if the write goes missing.
            let landed = loop {
                let f = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .unwrap();
                f.write_all_at(format!("b={k:07}\n").as_bytes(), B_AT)
                    .unwrap();
                let mine = f.metadata().unwrap().ino();
                if std::fs::metadata(&path).map(|m| m.ino()).ok() == Some(mine) {
                    break f;
                }
            };
            writes += 1;
            // Let edits run, then check the write is still there (a refused edit's undo may show
            // another content for an instant: look again before calling it lost).
            std::thread::sleep(Duration::from_micros(300));
            // However long a descheduled undo takes on a busy machine: a lost write never comes
            // back (nothing else writes b), so the generous cap only bounds a failing run.
            let look = Instant::now();
            let mut seen = None;
            while look.elapsed() < crate::support::time::PROMPT {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                seen = counter(&text, "b");
                if seen == Some(k) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(4));
            }
            if seen != Some(k) {
                let mut held = vec![0u8; 64];
                let n = landed.read_at(&mut held, 0).unwrap();
                let stamp = counter(&String::from_utf8_lossy(&held[..n]), "t").unwrap();
                // The attempt that made the file the write landed in has ended by now (its file is
                // gone from the name); wait for its outcome to be recorded.
                let look = Instant::now();
                while !ended.lock().unwrap().contains(&stamp)
                    && look.elapsed() < crate::support::time::PROMPT
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                if refused_ids.lock().unwrap().contains(&stamp) {
                    in_window += 1;
                } else {
                    lost.push((k, seen, stamp));
                }
                // Put it back so later checks test later writes.
                let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
                f.write_all_at(format!("b={k:07}\n").as_bytes(), B_AT)
                    .unwrap();
            }
        }
        stop.store(true, Ordering::Relaxed);
        let (edits, refused) = editor.join().unwrap();
        (edits, refused, lost, in_window, writes)
    });
    let text = std::fs::read_to_string(&path).unwrap();
    println!(
        "edits {edits}, refused {refused}, in-place writes {writes}, lost {lost:?}, \
         written into a refused edit's file before its undo {in_window}, file {text:?}"
    );
    // The invariants, whatever the scheduling (on a busy machine every edit may be refused because
    // the writer kept changing the file): no in-place write into a file an edit read is lost, every
    // edit reported done is in the file and no refused one.
    assert!(writes > 0);
    assert!(
        lost.is_empty(),
        "in-place writes lost to edits (k, seen, stamp): {lost:?}"
    );
    assert_eq!(counter(&text, "a"), Some(edits), "{text:?}");
    // Without a writer the next edit succeeds.
    let t = counter(&text, "t").unwrap();
    let old = format!("a={edits:07} t={t:07}\n");
    let new = format!("a={:07} t=9999999\n", edits + 1);
    s.edit_file(&replace("count.txt", &old, &new)).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(counter(&text, "a"), Some(edits + 1), "{text:?}");
    assert_eq!(counter(&text, "b"), Some(writes), "{text:?}");
    no_temps(&w.w);
}

/// A thread swaps the parent directory of the source (and of the destination) for a symlink to
/// outside while move_file and edit_file run: nothing lands outside, nothing outside moves or changes.
#[test]
fn race_parent_swapped_for_a_symlink_to_outside() {
    let w = World::new();
    for i in 0..8 {
        w.file(&format!("d/f{i}"), format!("inside {i}\n"));
    }
    std::fs::create_dir(w.p("e")).unwrap();
    w.file("e2/kept", "inside e2\n");
    // Outside names that a followed link would hit.
    for i in 0..8 {
        std::fs::write(
            w.outside.join(format!("f{i}")),
            format!("{} f{i}\n", w.canary),
        )
        .unwrap();
    }
    let before = w.outside_state();
    let s = sb(w.rw());
    let stop = AtomicBool::new(false);
    let moved = AtomicU64::new(0);
    let end = Instant::now() + RACE;
    std::thread::scope(|sc| {
        let swapper = sc.spawn(|| {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                if std::fs::rename(w.p("d"), w.p("d_aside")).is_ok() {
                    let _ = symlink(&w.outside, w.p("d"));
                    std::thread::sleep(Duration::from_micros(50 * (n % 4)));
                    let _ = std::fs::remove_file(w.p("d"));
                    // An edit's create may have made a new `d` in the gap: keep it aside too.
                    let mut m = 0;
                    while std::fs::rename(w.p("d_aside"), w.p("d")).is_err() {
                        m += 1;
                        std::fs::rename(w.p("d"), w.p(&format!("d_made{n}_{m}"))).unwrap();
                    }
                    n += 1;
                }
                // Leave the real directory in place for a while too, so moves succeed.
                std::thread::sleep(Duration::from_micros(100 * (n % 3)));
            }
            n
        });
        let workers: Vec<_> = (0..2)
            .map(|t| {
                let (s, w, moved) = (&s, &w, &moved);
                sc.spawn(move || {
                    let mut i = t;
                    while Instant::now() < end {
                        let f = format!("f{}", i % 8);
                        let (a, b) = (format!("d/{f}"), format!("e/{f}"));
                        if s.move_file(&mv(&a, &b)).is_ok() {
                            moved.fetch_add(1, Ordering::Relaxed);
                        }
                        let _ = s.move_file(&mv(&b, &a));
                        // Destination under the swapped parent.
                        let _ = s.move_file(&mv(&format!("e/{f}"), &format!("d/x{f}")));
                        let _ = s.move_file(&mv(&format!("d/x{f}"), &format!("e/{f}")));
                        let _ = s.move_file(&mv(&format!("e/{f}"), &a));
                        // A whole directory into the swapped one and back, and outside names as
                        // sources.
                        let _ = s.move_file(&mv("e2", "d/e2"));
                        let _ = s.move_file(&mv("d/e2", "e2"));
                        let _ = s.move_file(&mv("d/secret.txt", "e/stolen"));
                        let _ = s.move_file(&mv("d/sub", "e/stolen_dir"));
                        let _ = s.edit_file(&replace(&a, &w.canary, "PWNED"));
                        let _ = s.edit_file(&replace("d/new.txt", "", "planted\n"));
                        i += 2;
                    }
                })
            })
            .collect();
        // The read tools (read_many_files, directory_tree), on the same swapped directory.
        let reader = sc.spawn(|| {
            let mut n = 0u64;
            let mut tree_args = tree(Some("d"));
            tree_args.hidden = Some(true);
            while Instant::now() < end {
                let t = serde_json::to_string(&s.directory_tree(&tree_args).ok()).unwrap();
                let m = serde_json::to_string(
                    &s.read_many_files(&many(&["d/*", "d/f0", "d/secret.txt"], None))
                        .unwrap(),
                )
                .unwrap();
                for leak in [w.canary.as_str(), "secret.txt", "inner.txt"] {
                    assert!(!t.contains(leak), "{leak} in {t}");
                }
                assert!(!m.contains(&w.canary), "{m}");
                n += 1;
            }
            n
        });
        for h in workers {
            h.join().unwrap();
        }
        let reads = reader.join().unwrap();
        stop.store(true, Ordering::Relaxed);
        let swaps = swapper.join().unwrap();
        println!("reads {reads}");
        println!("swaps {swaps}, moves {}", moved.load(Ordering::Relaxed));
    });
    assert_eq!(w.outside_state(), before, "something changed outside");
    assert!(!w.p("e/stolen").exists() && !w.p("e/stolen_dir").exists());
    // Every inside file is still inside, under one name or another.
    let inside = snapshot(&w.w);
    for i in 0..8 {
        let n = inside
            .iter()
            .filter(|(_, v)| *v == &format!("file:inside {i}\n"))
            .count();
        assert_eq!(n, 1, "f{i}: {inside:?}");
    }
    // (How many moves succeeded is scheduling luck, not a property: printed above, not asserted.
    // Uncontended moves are tested below.)
    no_temps(&w.w);
}

// ------------------------------------------------------------------------------------------------
// move_file

#[test]
fn move_renames_and_moves_into_a_directory() {
    let w = World::new();
    w.file("a.txt", "A\n").file("sub/keep.txt", "K\n");
    let s = sb(w.rw());
    let r = s.move_file(&mv("a.txt", "b.txt")).unwrap();
    assert_eq!(r.path, w.p("b.txt").display().to_string());
    assert_eq!(r.moved_from, Some(w.p("a.txt").display().to_string()));
    assert!(!r.replaced);
    assert!(!w.p("a.txt").exists());
    assert_eq!(w.text("b.txt"), "A\n");
    s.move_file(&mv("b.txt", "sub/b.txt")).unwrap();
    assert_eq!(w.text("sub/b.txt"), "A\n");
    // A directory, with its contents.
    s.move_file(&mv("sub", "moved")).unwrap();
    assert_eq!(w.text("moved/b.txt"), "A\n");
    assert_eq!(w.text("moved/keep.txt"), "K\n");
    // Naming an existing directory as the destination does not move into it.
    std::fs::create_dir(w.p("target")).unwrap();
    w.file("c.txt", "C\n");
    fails(
        s.move_file(&mv("c.txt", "target")),
        ErrorCode::AlreadyExists,
    );
    assert_eq!(w.text("c.txt"), "C\n");
    // The destination's parent must exist.
    fails(s.move_file(&mv("c.txt", "nope/c.txt")), ErrorCode::NotFound);
    assert!(!w.p("nope").exists());
    // A missing source.
    fails(s.move_file(&mv("missing", "x")), ErrorCode::NotFound);
    // Same path.
    fails(
        s.move_file(&mv("c.txt", "./c.txt")),
        ErrorCode::InvalidArgument,
    );
    // A symlink moves as itself (its target untouched).
    w.link("l", "c.txt");
    s.move_file(&mv("l", "l2")).unwrap();
    assert!(std::fs::symlink_metadata(w.p("l2"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(w.text("c.txt"), "C\n");
    // The write root itself is not a source.
    for p in [".", "", "./", w.w.to_str().unwrap()] {
        assert!(s.move_file(&mv(p, "rootmoved")).is_err(), "{p:?}");
    }
    assert!(w.w.is_dir() && !w.p("rootmoved").exists());
    no_temps(&w.w);
}

#[test]
fn move_overwrite_needs_both_approvals() {
    let w = World::new();
    w.file("a.txt", "A\n").file("b.txt", "B\n");
    let s = sb(w.rw());
    let e = fails(s.move_file(&mv("a.txt", "b.txt")), ErrorCode::AlreadyExists);
    assert!(e.message.contains("overwrite"), "{e}");
    let no_policy = sb(with(w.rw(), |p| {
        p.write.as_mut().unwrap().allow_overwrite = false
    }));
    fails(
        no_policy.move_file(&mv("a.txt", "b.txt")),
        ErrorCode::AlreadyExists,
    );
    fails(
        no_policy.move_file(&mv_over("a.txt", "b.txt")),
        ErrorCode::Denied,
    );
    assert_eq!(w.text("a.txt"), "A\n");
    assert_eq!(w.text("b.txt"), "B\n");
    let r = s.move_file(&mv_over("a.txt", "b.txt")).unwrap();
    assert!(r.replaced);
    assert_eq!(w.text("b.txt"), "A\n");
    assert!(!w.p("a.txt").exists());
    no_temps(&w.w);
}

#[test]
fn move_never_replaces_a_directory() {
    let w = World::new();
    w.file("f.txt", "F\n")
        .file("full/x", "x\n")
        .file("src_dir/y", "y\n");
    std::fs::create_dir(w.p("empty")).unwrap();
    let s = sb(w.rw());
    for (src, dst) in [
        ("f.txt", "empty"),
        ("f.txt", "full"),
        ("src_dir", "empty"),
        ("src_dir", "full"),
    ] {
        for a in [mv(src, dst), mv_over(src, dst)] {
            let e = s.move_file(&a).unwrap_err();
            assert!(
                matches!(e.code, ErrorCode::AlreadyExists | ErrorCode::NotAFile),
                "{src} -> {dst}: {e}"
            );
        }
    }
    // A directory over a file.
    let e = s.move_file(&mv_over("src_dir", "f.txt")).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotAFile, "{e}");
    assert!(w.p("empty").is_dir());
    assert_eq!(w.text("full/x"), "x\n");
    assert_eq!(w.text("f.txt"), "F\n");
    assert_eq!(w.text("src_dir/y"), "y\n");
    no_temps(&w.w);
}

#[test]
fn move_a_directory_into_itself_is_refused() {
    let w = World::new();
    w.file("a/b/c.txt", "c\n").link("alias", "a");
    let s = sb(w.rw());
    for dst in ["a/inner", "a/b/inner", "alias/inner", "a/b/../inner"] {
        let e = s.move_file(&mv("a", dst)).unwrap_err();
        assert!(matches!(e.code, ErrorCode::InvalidArgument), "{dst}: {e}");
    }
    assert_eq!(w.text("a/b/c.txt"), "c\n");
    // A name that merely starts with the source's name is not inside it.
    s.move_file(&mv("a", "ab")).unwrap();
    assert_eq!(w.text("ab/b/c.txt"), "c\n");
    no_temps(&w.w);
}

#[test]
fn move_denied_source_or_destination() {
    let w = World::new();
    w.file(".env", "KEY\n")
        .file("ok.txt", "ok\n")
        .file("keys/a.pem", "PEM\n")
        .file(".git/config", "cfg\n")
        .link("e", ".env");
    let s = sb(deny(w.rw(), &[".env", "*.pem", ".git/"]));
    let before = snapshot(&w.w);
    for (src, dst) in [
        (".env", "env.txt"),
        ("./.env", "env.txt"),
        ("sub/../.env", "env.txt"),
        ("e", "env_link"),
        ("keys/a.pem", "a.txt"),
        (".git/config", "config"),
        ("ok.txt", ".env"),
        ("ok.txt", "sub/.env"),
        ("ok.txt", "x.pem"),
        ("ok.txt", ".git/ok.txt"),
        ("ok.txt", ".git/hooks/pre-commit"),
    ] {
        let e = s.move_file(&mv_over(src, dst)).unwrap_err();
        assert!(matches!(e.code, ErrorCode::Denied), "{src} -> {dst}: {e}");
    }
    assert_eq!(snapshot(&w.w), before);
    no_temps(&w.w);
}

#[test]
fn move_a_directory_holding_a_denied_file_is_refused() {
    let w = World::new();
    w.file("proj/src/main.rs", "fn main() {}\n")
        .file("proj/deep/er/.env", "KEY\n")
        .file("clean/a.txt", "a\n");
    // Name rules deny the name wherever it goes, so the move is allowed and says nothing about what
    // the directory holds (refusing it would be an existence oracle); the file stays denied.
    let s = sb(deny(w.rw(), &[".env", "*.pem"]));
    s.move_file(&mv("proj", "moved")).unwrap();
    let mut a = ReadArgs::default();
    a.path = "moved/deep/er/.env".into();
    assert_eq!(s.read_file(&a).unwrap_err().code, ErrorCode::Denied);
    // A path rule can change with a move: then a directory holding a denied object is refused.
    let s = sb(deny(w.rw(), &["/moved/deep/er/.env"]));
    let before = snapshot(&w.w);
    let e = fails(s.move_file(&mv("moved", "proj2")), ErrorCode::Denied);
    assert!(!e.message.contains(".env"), "names a denied file: {e}");
    assert_eq!(snapshot(&w.w), before);
    s.move_file(&mv("clean", "moved2")).unwrap();
    assert_eq!(w.text("moved2/a.txt"), "a\n");
    no_temps(&w.w);
}

/// A directory must not be moved to a name where it, or anything in it, is denied: a `.git/` rule
/// holds for a directory renamed to `.git` (an agent could plant `.git/hooks/pre-commit`), and an
/// anchored rule for what a directory's contents become after the move.
#[test]
fn move_a_directory_to_a_denied_place_is_refused() {
    let w = World::new();
    w.file("hooks_src/hooks/pre-commit", "#!/bin/sh\necho pwned\n")
        .file("wf/ci.yml", "on: push\n")
        .file("plain.txt", "p\n");
    let s = sb(deny(w.rw(), &[".git/", "/.github/workflows/*.yml"]));
    std::fs::create_dir_all(w.p(".github")).unwrap();
    fails(s.move_file(&mv("hooks_src", ".git")), ErrorCode::Denied);
    assert!(!w.p(".git").exists(), "a .git directory was planted");
    // `wf/ci.yml` would become `.github/workflows/ci.yml`.
    fails(
        s.move_file(&mv("wf", ".github/workflows")),
        ErrorCode::Denied,
    );
    assert!(!w.p(".github/workflows").exists());
    std::fs::create_dir_all(w.p(".github/workflows")).unwrap();
    // The same through create_directory: no denied directory is made.
    fails(s.create_directory(&mkdir(".git")), ErrorCode::Denied);
    fails(s.create_directory(&mkdir("sub/.git")), ErrorCode::Denied);
    assert!(!w.p(".git").exists() && !w.p("sub").exists());
    // A symbolic link to a directory stands for one: not renamed to `.git` either.
    w.link("fake", "hooks_src");
    fails(s.move_file(&mv("fake", ".git")), ErrorCode::Denied);
    assert!(std::fs::symlink_metadata(w.p(".git")).is_err());
    // Files moved into the anchored place: denied as for write_file.
    fails(
        s.move_file(&mv("plain.txt", ".github/workflows/p.yml")),
        ErrorCode::Denied,
    );
    assert_eq!(w.text("plain.txt"), "p\n");
    no_temps(&w.w);
}

#[test]
fn move_outside_paths_are_refused() {
    let w = World::new();
    w.file("a.txt", "A\n")
        .file("dir/x", "x\n")
        .link("out", "../outside")
        .link("out_abs", &w.outside)
        .link("secret_link", "../outside/secret.txt");
    let before = w.outside_state();
    let inside = snapshot(&w.w);
    let secret = w.outside.join("secret.txt").display().to_string();
    let evil = w.base.join("w_evil/x").display().to_string();
    let s = sb(w.rw());
    // Outside sources.
    for src in [
        "../outside/secret.txt",
        secret.as_str(),
        evil.as_str(),
        "out/secret.txt",
        "out_abs/sub",
        "out/sub/inner.txt",
        "/etc/hostname",
        "/proc/self/root/etc/hostname",
    ] {
        let e = s.move_file(&mv_over(src, "stolen")).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfSandbox, "{src}: {e}");
    }
    // Outside destinations (files and a directory).
    for src in ["a.txt", "dir"] {
        for dst in [
            "../outside/new",
            "../x",
            "../w_evil/new",
            "out/new",
            "out_abs/new",
            "out/sub/new",
            "secret_link",
            "/tmp/rootbound-everyday-new",
        ] {
            let e = s.move_file(&mv_over(src, dst)).unwrap_err();
            assert_eq!(e.code, ErrorCode::OutOfSandbox, "{src} -> {dst}: {e}");
        }
    }
    assert_eq!(w.outside_state(), before);
    assert_eq!(snapshot(&w.w), inside);
    assert!(!w.p("stolen").exists() && !Path::new("/tmp/rootbound-everyday-new").exists());
    // A symlink leading out is not a source to move (it would keep pointing out from elsewhere).
    fails(
        s.move_file(&mv("secret_link", "moved_link")),
        ErrorCode::OutOfSandbox,
    );
    no_temps(&w.w);
}

#[test]
fn move_refuses_a_fifo() {
    let w = World::new();
    w.fifo("fifo");
    let s = sb(w.rw());
    let t = Instant::now();
    fails(s.move_file(&mv("fifo", "fifo2")), ErrorCode::NotAFile);
    assert_prompt(t.elapsed(), "a move of a FIFO");
    assert!(w.p("fifo").exists() && !w.p("fifo2").exists());
}

// ------------------------------------------------------------------------------------------------
// create_directory

#[test]
fn create_directory_cases() {
    let w = World::new();
    w.file("f.txt", "F\n");
    let s = sb(w.rw());
    let r = s.create_directory(&mkdir("a/b/c")).unwrap();
    assert!(r.created);
    assert_eq!(r.path, w.p("a/b/c").display().to_string());
    assert!(w.p("a/b/c").is_dir());
    // Existing: fine, created false (with or without a trailing slash).
    for p in ["a/b/c", "a/b/c/", "a", "a/b/../b"] {
        assert!(!s.create_directory(&mkdir(p)).unwrap().created, "{p}");
    }
    // An existing file, or a path through one.
    fails(
        s.create_directory(&mkdir("f.txt")),
        ErrorCode::AlreadyExists,
    );
    let e = s.create_directory(&mkdir("f.txt/sub")).unwrap_err();
    assert!(
        matches!(
            e.code,
            ErrorCode::NotAFile | ErrorCode::NotFound | ErrorCode::AlreadyExists
        ),
        "{e}"
    );
    assert_eq!(w.text("f.txt"), "F\n");
    // A symlink (even to a directory inside) is an existing name that is not a directory.
    w.link("l", "a");
    fails(s.create_directory(&mkdir("l")), ErrorCode::AlreadyExists);
    assert!(std::fs::symlink_metadata(w.p("l"))
        .unwrap()
        .file_type()
        .is_symlink());
    // Empty or the root itself.
    for p in ["", "/", "."] {
        assert!(s.create_directory(&mkdir(p)).is_err(), "{p:?}");
    }
    // Write-only roots work too.
    assert!(sb(w.wo()).create_directory(&mkdir("wo/x")).unwrap().created);
    no_temps(&w.w);
}

#[test]
fn create_directory_denied_and_outside() {
    let w = World::new();
    w.link("out", "../outside")
        .link("dangling", "../outside/newdir");
    let before = w.outside_state();
    let s = sb(deny(w.rw(), &[".env", ".git/", "secrets/"]));
    for p in [".git/hooks", ".env", "secrets", "x/secrets/y", ".git/"] {
        fails(s.create_directory(&mkdir(p)), ErrorCode::Denied);
    }
    assert!(!w.p(".git").exists() && !w.p(".env").exists() && !w.p("secrets").exists());
    assert!(!w.p("x/secrets").exists());
    let outside_abs = w.outside.join("made").display().to_string();
    for p in [
        "../made",
        "../outside/made",
        "a/../../made",
        outside_abs.as_str(),
        "out/made",
        "out/sub/made",
        "dangling",
        "dangling/below",
        "/tmp/rootbound-everyday-mkdir",
    ] {
        let e = s.create_directory(&mkdir(p)).unwrap_err();
        assert!(matches!(e.code, ErrorCode::OutOfSandbox), "{p}: {e}");
    }
    assert_eq!(w.outside_state(), before);
    assert!(!w.base.join("made").exists() && !Path::new("/tmp/rootbound-everyday-mkdir").exists());
}

// ------------------------------------------------------------------------------------------------
// read_many_files

#[test]
fn read_many_keeps_order_and_expands_globs_in_path_order() {
    let w = World::new();
    w.file("c.txt", "C\n")
        .file("a.txt", "A\n")
        .file("b.txt", "B\n")
        .file("docs/z.md", "Z\n")
        .file("docs/a.md", "AM\n")
        .file("docs/sub/m.md", "M\n");
    let s = sb(w.rw());
    let r = s
        .read_many_files(&many(&["c.txt", "a.txt", "docs/**/*.md", "b.txt"], None))
        .unwrap();
    let got: Vec<(String, Option<String>)> = r
        .files
        .iter()
        .map(|f| (f.path.clone(), f.content.clone()))
        .collect();
    let abs = |p: &str| w.p(p).display().to_string();
    assert_eq!(
        got,
        vec![
            (abs("c.txt"), Some("C\n".into())),
            (abs("a.txt"), Some("A\n".into())),
            (abs("docs/a.md"), Some("AM\n".into())),
            (abs("docs/sub/m.md"), Some("M\n".into())),
            (abs("docs/z.md"), Some("Z\n".into())),
            (abs("b.txt"), Some("B\n".into())),
        ]
    );
    assert!(!r.truncated);
    assert_eq!(r.bytes_returned, 2 + 2 + 3 + 2 + 2 + 2);
    for f in &r.files {
        assert!(f.error.is_none() && !f.truncated && !f.binary);
        assert_eq!(f.bytes_returned, f.total_bytes);
        assert_eq!(f.encoding, "utf-8");
    }
    // `?` and `[` are globs too; a glob matching nothing adds nothing.
    let r = s
        .read_many_files(&many(&["?.txt", "[ab].txt", "*.none"], None))
        .unwrap();
    let names: Vec<&str> = r
        .files
        .iter()
        .map(|f| f.content.as_deref().unwrap())
        .collect();
    assert_eq!(names, vec!["A\n", "B\n", "C\n", "A\n", "B\n"]);
    // Errors in the arguments themselves.
    fails(
        s.read_many_files(&many(&[], None)),
        ErrorCode::InvalidArgument,
    );
    let v = s.call(
        "read_many_files",
        json!({"paths": ["a.txt"], "bogus": true}),
    );
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
    let v = s.call("read_many_files", json!({"paths": "a.txt"}));
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
}

#[test]
fn read_many_shares_one_budget() {
    let w = World::new();
    let body = |c: char| format!("{}\n", c.to_string().repeat(99));
    w.file("1.txt", body('a'))
        .file("2.txt", body('b'))
        .file("3.txt", body('c'));
    let s = sb(w.rw());
    let r = s
        .read_many_files(&many(&["1.txt", "2.txt", "3.txt"], Some(150)))
        .unwrap();
    let sum: u64 = r.files.iter().map(|f| f.bytes_returned).sum();
    assert!(sum <= 150, "{sum}");
    assert_eq!(r.bytes_returned, sum);
    assert!(r.truncated);
    assert_eq!(r.files.len(), 3);
    let f = &r.files;
    assert_eq!(f[0].bytes_returned, 100);
    assert!(!f[0].truncated);
    assert_eq!(f[1].bytes_returned, 50);
    assert!(f[1].truncated);
    assert_eq!(f[1].next_offset, 50);
    assert_eq!(f[1].total_bytes, 100);
    assert_eq!(f[1].content.as_deref(), Some(&"b".repeat(50)[..]));
    assert!(f[2].truncated);
    assert_eq!(f[2].bytes_returned, 0);
    assert!(f[2].content.as_deref().unwrap_or("").is_empty());
    assert!(f[2].error.is_some(), "{:?}", f[2]);
    // The budget is capped by the policy's max_read_bytes.
    let s = sb(with(w.rw(), |p| p.limits.max_read_bytes = 120));
    let r = s
        .read_many_files(&many(&["*.txt"], Some(1_000_000)))
        .unwrap();
    let sum: u64 = r.files.iter().map(|f| f.bytes_returned).sum();
    assert!(sum <= 120, "{sum}");
    assert!(r.truncated);
    // A multi-byte character is never split at the budget's edge.
    w.file("u.txt", "é".repeat(10));
    let r = sb(w.rw())
        .read_many_files(&many(&["u.txt"], Some(5)))
        .unwrap();
    let c = r.files[0].content.clone().unwrap();
    assert_eq!(c, "éé");
    assert_eq!(r.files[0].bytes_returned, 4);
}

#[test]
fn read_many_per_file_errors_never_leak() {
    let w = World::new();
    w.file("ok.txt", "OK\n")
        .file(".env", "SECRET-ENV-VALUE\n")
        .file("keys/a.pem", "SECRET-PEM\n")
        .file("dir/x.txt", "x\n")
        .file("bin.dat", b"\x00\x01BINARY-PAYLOAD\x00".as_slice())
        .link("out", "../outside")
        .link("secret_link", "../outside/secret.txt");
    w.fifo("fifo");
    let s = sb(deny(w.rw(), &[".env", "*.pem"]));
    let secret = w.outside.join("secret.txt").display().to_string();
    let t = Instant::now();
    let r = s
        .read_many_files(&many(
            &[
                "missing.txt",
                ".env",
                "sub/../.env",
                "keys/a.pem",
                "dir",
                "../outside/secret.txt",
                &secret,
                "out/secret.txt",
                "secret_link",
                "fifo",
                "bin.dat",
                "[",
                "**/*.pem",
                "ok.txt",
            ],
            None,
        ))
        .unwrap();
    assert_prompt(t.elapsed(), "read_many_files of refused paths");
    let codes: Vec<Option<String>> = r
        .files
        .iter()
        .map(|f| {
            f.error
                .as_ref()
                .map(|e| e["code"].as_str().unwrap().to_string())
        })
        .collect();
    let want = |c: &str| Some(c.to_string());
    // `**/*.pem` lists nothing: a denied file is never matched.
    assert_eq!(
        codes,
        vec![
            want("NOT_FOUND"),
            want("DENIED"),
            want("DENIED"),
            want("DENIED"),
            want("NOT_A_FILE"),
            want("OUT_OF_SANDBOX"),
            want("OUT_OF_SANDBOX"),
            want("OUT_OF_SANDBOX"),
            want("OUT_OF_SANDBOX"),
            want("NOT_A_FILE"),
            None,
            want("INVALID_ARGUMENT"),
            None,
        ],
        "{r:#?}"
    );
    assert_eq!(r.files.len(), 13, "the denied .pem was matched: {r:#?}");
    let bin = r
        .files
        .iter()
        .find(|f| f.path.ends_with("bin.dat"))
        .unwrap();
    assert!(bin.binary && bin.content.is_none(), "{bin:?}");
    assert_eq!(r.files.last().unwrap().content.as_deref(), Some("OK\n"));
    let j = serde_json::to_string(&r).unwrap();
    for leak in [
        w.canary.as_str(),
        "SECRET-ENV-VALUE",
        "SECRET-PEM",
        "BINARY-PAYLOAD",
    ] {
        assert!(!j.contains(leak), "leaked {leak}: {j}");
    }
}

#[test]
fn read_many_bounds_and_hostile_globs() {
    let w = World::new();
    for i in 0..250 {
        w.file(&format!("many/{i:03}.t"), "x");
    }
    // UTF-16LE with a BOM: "hi" repeated.
    let mut utf16 = vec![0xff, 0xfe];
    for _ in 0..50 {
        utf16.extend_from_slice(&[b'h', 0, b'i', 0]);
    }
    w.file("u16.txt", &utf16);
    let s = sb(w.rw());
    // At most 200 files a call, the rest reported as truncation.
    let r = s.read_many_files(&many(&["many/*.t"], None)).unwrap();
    assert_eq!(r.files.len(), 200);
    assert!(r.truncated);
    assert!(
        r.files[199].path.ends_with("many/199.t"),
        "{}",
        r.files[199].path
    );
    // Hostile globs: refused or matching only inside; never an outside byte.
    let r = s
        .read_many_files(&many(
            &[
                "../*",
                "../outside/*",
                "/etc/*",
                "{a,../outside/*}",
                "**/../../outside/*",
                "out*/secret*",
            ],
            None,
        ))
        .unwrap();
    let j = serde_json::to_string(&r).unwrap();
    assert!(!j.contains(&w.canary), "{j}");
    for f in &r.files {
        assert!(
            f.error.is_some() || f.path.starts_with(w.w.to_str().unwrap()),
            "{f:?}"
        );
    }
    // Transcoded text counts file bytes against the budget.
    let r = s.read_many_files(&many(&["u16.txt"], Some(10))).unwrap();
    let f = &r.files[0];
    assert!(f.bytes_returned <= 10, "{f:?}");
    assert!(f.truncated);
    assert!(f.content.as_deref().unwrap().starts_with("hi"), "{f:?}");
}

// ------------------------------------------------------------------------------------------------
// directory_tree

fn child<'a>(n: &'a TreeNode, name: &str) -> &'a TreeNode {
    n.children
        .as_ref()
        .unwrap_or_else(|| panic!("{} has no children", n.name))
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{name} not under {}: {n:?}", n.name))
}

fn names(n: &TreeNode) -> Vec<&str> {
    n.children
        .as_ref()
        .map(|c| c.iter().map(|c| c.name.as_str()).collect())
        .unwrap_or_default()
}

fn all_names(n: &TreeNode, out: &mut Vec<String>) {
    out.push(n.name.clone());
    for c in n.children.iter().flatten() {
        all_names(c, out);
    }
}

#[test]
fn tree_is_sorted_breadth_first_and_deterministic() {
    let w = World::new();
    for p in ["b", "a", "B", "_", "dir/z", "dir/y", "dir/sub/deep/x"] {
        w.file(p, "x");
    }
    std::fs::create_dir(w.p("emptydir")).unwrap();
    let s = sb(w.rw());
    let r = s.directory_tree(&tree(None)).unwrap();
    assert_eq!(r, s.directory_tree(&tree(None)).unwrap());
    assert_eq!(r.path, w.w.display().to_string());
    assert_eq!(r.tree.kind, "dir");
    assert_eq!(names(&r.tree), ["B", "_", "a", "b", "dir", "emptydir"]);
    let dir = child(&r.tree, "dir");
    assert_eq!(dir.kind, "dir");
    assert_eq!(names(dir), ["sub", "y", "z"]);
    assert_eq!(child(dir, "y").size, Some(1));
    assert_eq!(child(&r.tree, "emptydir").children, Some(vec![]));
    // Default depth 3: `dir/sub/deep` is listed as a directory but not read.
    let deep = child(child(dir, "sub"), "deep");
    assert_eq!(deep.not_listed.as_deref(), Some("max_depth"));
    assert!(deep.children.is_none());
    assert_eq!(r.omitted.depth_limited, 1);
    assert_eq!(r.entries, 10);
    assert!(!r.truncated);
    // A subdirectory as the top, relative or absolute.
    let r = s.directory_tree(&tree(Some("dir"))).unwrap();
    assert_eq!(names(&r.tree), ["sub", "y", "z"]);
    let abs = w.p("dir").display().to_string();
    assert_eq!(s.directory_tree(&tree(Some(&abs))).unwrap(), r);
}

#[test]
fn tree_depth_and_entry_limits() {
    let w = World::new();
    for i in 0..5 {
        w.file(&format!("d{i}/f{i}"), "x")
            .file(&format!("d{i}/e/g"), "x");
    }
    w.file("top.txt", "x");
    let s = sb(w.rw());
    let mut a = tree(None);
    a.max_depth = Some(1);
    let r = s.directory_tree(&a).unwrap();
    assert_eq!(r.entries, 6);
    assert_eq!(r.omitted.depth_limited, 5);
    for i in 0..5 {
        let d = child(&r.tree, &format!("d{i}"));
        assert_eq!(d.not_listed.as_deref(), Some("max_depth"));
        assert!(d.children.is_none());
    }
    assert!(!r.truncated, "max_depth alone is not truncation: {r:?}");

    // max_entries: breadth first, so every top-level entry comes before any deeper one.
    let mut a = tree(None);
    a.max_entries = Some(8);
    let r = s.directory_tree(&a).unwrap();
    assert_eq!(r.entries, 8);
    assert!(r.truncated);
    assert_eq!(names(&r.tree).len(), 6, "{r:?}");
    // d0 was read (its 2 entries fill the cap), d1 was read but over the cap, the rest not read.
    assert_eq!(names(child(&r.tree, "d0")), ["e", "f0"]);
    let mut over = 0;
    let mut unread = 0;
    for i in 1..5 {
        let d = child(&r.tree, &format!("d{i}"));
        match d.not_listed.as_deref() {
            Some("max_entries") => unread += 1,
            None => over += 2 - d.children.as_ref().map_or(0, |c| c.len()),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(r.omitted.over_limit, over as u64);
    assert!(unread >= 3, "{r:?}");
    // Through JSON, max_entries 0 and max_depth 0 mean "not set" (strict-mode
    // converters send zeros for unset fields); bad values are refused.
    let v = s.call("directory_tree", json!({"max_entries": 0, "max_depth": 0}));
    assert_eq!(v, s.call("directory_tree", json!({})), "{v}");
    // The library's own arguments still clamp a 0 to 1.
    let r = s
        .directory_tree(&{
            let mut a = rootbound::TreeArgs::default();
            a.max_entries = Some(0);
            a.max_depth = Some(0);
            a
        })
        .unwrap();
    assert_eq!(r.entries, 1, "{r:?}");
    assert_eq!(r.tree.children.as_ref().unwrap()[0].name, "d0", "{r:?}");
    let v = s.call("directory_tree", json!({"max_depth": -1}));
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
    let v = s.call("directory_tree", json!({"depth": 2}));
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
}

#[test]
fn tree_exclude_hidden_and_ignore() {
    let w = World::new();
    w.file("src/main.rs", "x")
        .file("app.log", "x")
        .file("src/debug.log", "x")
        .file(".hidden/inner", "x")
        .file(".dotfile", "x")
        .file(".ignore", "ignored_dir/\n*.tmp\n")
        .file("ignored_dir/a", "x")
        .file("scratch.tmp", "x")
        .file("keep.txt", "x");
    let s = sb(w.rw());
    let mut a = tree(None);
    a.exclude = Some(rootbound::Globs::One("*.log".into()));
    let r = s.directory_tree(&a).unwrap();
    assert_eq!(names(&r.tree), ["keep.txt", "src"]);
    assert_eq!(names(child(&r.tree, "src")), ["main.rs"]);
    assert_eq!(r.omitted.excluded, 2);
    assert_eq!(r.omitted.hidden, 3, "{:?}", r.omitted);
    assert_eq!(r.omitted.ignored, 2, "{:?}", r.omitted);
    // hidden and no_ignore bring them back.
    let mut a = tree(None);
    a.hidden = Some(true);
    a.no_ignore = Some(true);
    let r = s.directory_tree(&a).unwrap();
    assert_eq!(
        names(&r.tree),
        [
            ".dotfile",
            ".hidden",
            ".ignore",
            "app.log",
            "ignored_dir",
            "keep.txt",
            "scratch.tmp",
            "src"
        ]
    );
    assert_eq!(names(child(&r.tree, ".hidden")), ["inner"]);
    assert_eq!(r.omitted, rootbound::TreeOmitted::default());
    // Several globs; a directory excluded is not descended.
    let mut a = tree(None);
    a.exclude = Some(rootbound::Globs::Many(vec!["src".into(), "keep.*".into()]));
    let r = s.directory_tree(&a).unwrap();
    assert_eq!(names(&r.tree), ["app.log"]);
    // A hostile exclude glob.
    let mut a = tree(None);
    a.exclude = Some(rootbound::Globs::One("[".into()));
    fails(s.directory_tree(&a), ErrorCode::InvalidArgument);
}

#[test]
fn tree_never_lists_or_counts_denied_objects() {
    let build = |with_denied: bool| {
        let w = World::new();
        w.file("src/a.rs", "x")
            .file("README", "x")
            .file(".visible", "x");
        // A directory holding only denied files is itself listed (empty).
        std::fs::create_dir(w.p("keys")).unwrap();
        if with_denied {
            w.file(".env", "x")
                .file("src/.env", "x")
                .file("keys/k.pem", "x")
                .file("secrets/one", "x")
                .file("secrets/two/three", "x")
                .file(".git/config", "x")
                .link("alias_env", ".env");
            std::fs::hard_link(w.outside.join("secret.txt"), w.p("src/hl")).unwrap();
        }
        w
    };
    let rules = &[".env", "*.pem", "secrets/", ".git/", "alias_env"];
    for (hidden, no_ignore) in [(false, false), (true, true), (true, false)] {
        let mut a = tree(None);
        a.hidden = Some(hidden);
        a.no_ignore = Some(no_ignore);
        a.max_depth = Some(8);
        let clean = build(false);
        let dirty = build(true);
        let pol = |w: &World| with(deny(w.rw(), rules), |p| p.refuse_hardlinks = true);
        let mut r1 = sb(pol(&clean)).directory_tree(&a).unwrap();
        let mut r2 = sb(pol(&dirty)).directory_tree(&a).unwrap();
        r1.path.clear();
        r2.path.clear();
        r1.tree.name.clear();
        r2.tree.name.clear();
        assert_eq!(r1, r2, "hidden={hidden} no_ignore={no_ignore}");
        let mut all = Vec::new();
        all_names(&r2.tree, &mut all);
        for bad in [".env", "k.pem", "secrets", "one", ".git", "config", "hl"] {
            assert!(!all.contains(&bad.to_string()), "{bad} listed: {all:?}");
        }
        // A denied directory as the top.
        let s = sb(pol(&dirty));
        for p in ["secrets", ".git", "secrets/two"] {
            fails(s.directory_tree(&tree(Some(p))), ErrorCode::Denied);
        }
    }
}

#[test]
fn tree_reports_symlinks_without_following_them() {
    let w = World::new();
    w.file("sub/inner.txt", "x")
        .link("in_link", "sub")
        .link("out_link", "../outside")
        .link("abs_out", &w.outside)
        .link("dangling", "missing")
        .link("loop", "loop");
    w.fifo("fifo");
    let s = sb(w.rw());
    let mut a = tree(None);
    a.max_depth = Some(5);
    let r = s.directory_tree(&a).unwrap();
    for l in ["in_link", "out_link", "abs_out", "dangling", "loop"] {
        let n = child(&r.tree, l);
        assert_eq!(n.kind, "symlink", "{l}");
        assert!(n.children.is_none(), "{l} followed");
    }
    assert_eq!(child(&r.tree, "fifo").kind, "other");
    let mut all = Vec::new();
    all_names(&r.tree, &mut all);
    assert!(!all.iter().any(|n| n == "secret.txt"), "{all:?}");
    assert!(!serde_json::to_string(&r).unwrap().contains("secret.txt"));
    // The top given through a symlink: inside is fine, outside is refused.
    let r = s.directory_tree(&tree(Some("in_link"))).unwrap();
    assert_eq!(names(&r.tree), ["inner.txt"]);
    for p in ["out_link", "abs_out", "../outside", "/etc", "out_link/sub"] {
        fails(s.directory_tree(&tree(Some(p))), ErrorCode::OutOfSandbox);
    }
    fails(
        s.directory_tree(&tree(Some("sub/inner.txt"))),
        ErrorCode::NotAFile,
    );
    fails(
        s.directory_tree(&tree(Some("missing"))),
        ErrorCode::NotFound,
    );
    // The write root alone is not readable.
    let v = sb(w.wo()).call("directory_tree", json!({}));
    assert!(v.get("error").is_some(), "{v}");
}

// ------------------------------------------------------------------------------------------------
// list_roots

#[test]
fn list_roots_lists_read_roots_then_the_write_root() {
    let w = World::new();
    std::fs::create_dir(w.base.join("r2")).unwrap();
    let s = sb(Policy {
        roots: vec![
            RootSpec {
                name: "main".into(),
                path: w.w.clone(),
            },
            RootSpec {
                name: "other".into(),
                path: w.base.join("r2"),
            },
        ],
        ..w.rw()
    });
    let r = s.list_roots(&RootsArgs::default()).unwrap();
    let got: Vec<(&str, &str, bool, bool)> = r
        .roots
        .iter()
        .map(|e| (e.name.as_str(), e.path.as_str(), e.readable, e.writable))
        .collect();
    let (wp, r2) = (
        w.w.display().to_string(),
        w.base.join("r2").display().to_string(),
    );
    assert_eq!(
        got[..2],
        [
            ("main", wp.as_str(), true, false),
            ("other", r2.as_str(), true, false)
        ]
    );
    assert_eq!(got.len(), 3);
    assert_eq!((got[2].1, got[2].2, got[2].3), (wp.as_str(), true, true));
    // Every listed path is accepted back.
    for e in &r.roots {
        if e.readable {
            s.directory_tree(&tree(Some(&e.path))).unwrap();
        }
    }
    // With `path`: only the read root it resolves in, by the rules every tool resolves by (the
    // first root that holds a relative path; an absolute one by its root; an error outside).
    let only = |p: &str| {
        let mut a = RootsArgs::default();
        a.path = Some(p.into());
        s.list_roots(&a)
    };
    std::fs::write(w.base.join("r2/only_here.txt"), "x").unwrap();
    let names = |r: rootbound::RootsResult| -> Vec<String> {
        r.roots.into_iter().map(|e| e.name).collect()
    };
    assert_eq!(names(only("only_here.txt").unwrap()), ["other"]);
    assert_eq!(names(only(".").unwrap()), ["main"]);
    assert_eq!(names(only(&r2).unwrap()), ["other"]);
    assert_eq!(
        only("../outside").unwrap_err().code,
        ErrorCode::OutOfSandbox
    );
    assert_eq!(only("/etc").unwrap_err().code, ErrorCode::OutOfSandbox);
    // Through the dispatcher, an empty path (a strict-mode client's zero value) is unset.
    let all = s.call("list_roots", json!({"path": ""}));
    assert_eq!(all["roots"].as_array().unwrap().len(), 3, "{all}");
    // A write-only sandbox: the write root, not readable.
    let r = sb(w.wo()).list_roots(&RootsArgs::default()).unwrap();
    assert_eq!(r.roots.len(), 1);
    assert!(r.roots[0].writable && !r.roots[0].readable);
    // A read root inside a denied part of another is not offered.
    std::fs::create_dir_all(w.p(".git")).unwrap();
    let s = sb(Policy {
        roots: vec![root(&w.w), root(&w.p(".git"))],
        deny: vec![".git/".into()],
        ..Default::default()
    });
    let r = s.list_roots(&RootsArgs::default()).unwrap();
    assert_eq!(r.roots.len(), 1, "{r:?}");
    // A write root inside a denied part of a read root is not readable.
    let mut wp = WritePolicy::new(w.p(".git"));
    wp.allow_overwrite = true;
    let s = sb(Policy {
        roots: vec![root(&w.w)],
        deny: vec![".git/".into()],
        write: Some(wp),
        ..Default::default()
    });
    let r = s.list_roots(&RootsArgs::default()).unwrap();
    let wr = r.roots.iter().find(|e| e.writable).unwrap();
    assert!(!wr.readable, "{r:?}");
    let v = s.call("list_roots", json!({"x": 1}));
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
}

// ------------------------------------------------------------------------------------------------
// read_media_file

#[test]
fn media_is_sniffed_by_content() {
    let w = World::new();
    w.file("pic.txt", PNG)
        .file("a.gif", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".as_slice())
        .file("photo", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00".as_slice())
        .file("s.bin", b"RIFF\x24\x00\x00\x00WAVEfmt ".as_slice())
        .file("text.png", "just some text\n")
        .file("empty.png", "");
    let s = sb(w.rw());
    let r = s.read_media_file(&MediaArgs::path("pic.txt")).unwrap();
    assert_eq!(
        (r.kind.as_str(), r.mime_type.as_str()),
        ("image", "image/png")
    );
    assert_eq!(r.size, PNG.len() as u64);
    let data = base64::engine::general_purpose::STANDARD
        .decode(&r.data)
        .unwrap();
    assert_eq!(data, PNG);
    assert_eq!(r.path, w.p("pic.txt").display().to_string());
    for (p, mime) in [
        ("a.gif", "image/gif"),
        ("photo", "image/jpeg"),
        ("s.bin", "audio/wav"),
    ] {
        assert_eq!(
            s.read_media_file(&MediaArgs::path(p)).unwrap().mime_type,
            mime
        );
    }
    for p in ["text.png", "empty.png"] {
        let e = fails(
            s.read_media_file(&MediaArgs::path(p)),
            ErrorCode::InvalidArgument,
        );
        assert!(!e.message.contains("just some text"), "{e}");
    }
}

#[test]
fn media_limits_and_refusals() {
    let w = World::new();
    w.file("ok.png", PNG);
    // Over the cap (sparse: no 8 MiB written).
    let f = std::fs::File::create(w.p("huge.png")).unwrap();
    {
        use std::io::Write;
        (&f).write_all(PNG).unwrap();
    }
    f.set_len(MAX_MEDIA_BYTES + 1).unwrap();
    w.file("key.pem", PNG).file(".env", PNG);
    std::fs::write(w.outside.join("o.png"), PNG).unwrap();
    w.link("out.png", "../outside/o.png")
        .link("alias.png", "key.pem")
        .link("outdir", "../outside");
    std::fs::create_dir(w.p("d")).unwrap();
    w.fifo("fifo.png");
    std::fs::hard_link(w.outside.join("o.png"), w.p("hl.png")).unwrap();
    let s = sb(with(deny(w.rw(), &["*.pem", ".env"]), |p| {
        p.refuse_hardlinks = true
    }));
    let t = Instant::now();
    fails(
        s.read_media_file(&MediaArgs::path("huge.png")),
        ErrorCode::TooLarge,
    );
    assert_prompt(t.elapsed(), "a huge image");
    let o = w.outside.join("o.png").display().to_string();
    for (p, code) in [
        ("key.pem", ErrorCode::Denied),
        ("./.env", ErrorCode::Denied),
        ("alias.png", ErrorCode::Denied),
        ("hl.png", ErrorCode::Denied),
        ("out.png", ErrorCode::OutOfSandbox),
        ("outdir/o.png", ErrorCode::OutOfSandbox),
        ("../outside/o.png", ErrorCode::OutOfSandbox),
        (o.as_str(), ErrorCode::OutOfSandbox),
        ("/proc/self/root/etc/passwd", ErrorCode::OutOfSandbox),
        ("d", ErrorCode::NotAFile),
        ("fifo.png", ErrorCode::NotAFile),
        ("missing.png", ErrorCode::NotFound),
    ] {
        let e = fails(s.read_media_file(&MediaArgs::path(p)), code);
        assert!(!e.to_json().to_string().contains("iVBOR"), "{p}: {e}");
    }
    assert_prompt(t.elapsed(), "refused media reads");
    s.read_media_file(&MediaArgs::path("ok.png")).unwrap();
    // The write root alone grants no read.
    let v = sb(w.wo()).call("read_media_file", json!({"path": "ok.png"}));
    assert!(v.get("error").is_some(), "{v}");
    let v = s.call(
        "read_media_file",
        json!({"path": "ok.png", "mime": "image/png"}),
    );
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
}

// ------------------------------------------------------------------------------------------------
// JSON dispatch and the CLI

#[test]
fn every_new_tool_through_call() {
    let w = World::new();
    w.file("a.txt", "hello world\n").file("pic", PNG);
    let s = sb(w.rw());
    let v = s.call(
        "edit_file",
        json!({"path": "a.txt", "old_string": "world", "new_string": "there"}),
    );
    assert_eq!(v["replacements"], 1, "{v}");
    assert!(v["diff"].as_str().unwrap().contains("+hello there"), "{v}");
    let v = s.call(
        "edit_file",
        json!({"path": "a.txt", "edits": [{"old_string": "hello", "new_string": "hi"},
                                          {"old_string": "there", "new_string": "you", "replace_all": true}],
               "dry_run": true}),
    );
    assert_eq!(
        (v["replacements"].clone(), v["dry_run"].clone()),
        (json!(2), json!(true)),
        "{v}"
    );
    let v = s.call(
        "edit_file",
        json!({"path": "a.txt", "old_string": "nope", "new_string": "x"}),
    );
    assert_eq!(v["error"]["code"], "NOT_FOUND", "{v}");
    let v = s.call(
        "read_many_files",
        json!({"paths": ["missing", "a.txt"], "max_bytes": 5}),
    );
    assert_eq!(v["files"][0]["error"]["code"], "NOT_FOUND", "{v}");
    assert_eq!(v["files"][1]["content"], "hello", "{v}");
    let v = s.call("directory_tree", json!({"max_depth": 1}));
    assert_eq!(v["tree"]["children"][0]["name"], "a.txt", "{v}");
    let v = s.call("list_roots", json!({}));
    assert_eq!(v["roots"][1]["writable"], true, "{v}");
    let v = s.call("read_media_file", json!({"path": "pic"}));
    assert_eq!(v["mime_type"], "image/png", "{v}");
    let v = s.call("create_directory", json!({"path": "n/m"}));
    assert_eq!(v["created"], true, "{v}");
    let v = s.call(
        "move_file",
        json!({"source": "a.txt", "destination": "n/m/a.txt"}),
    );
    assert!(v["path"].as_str().unwrap().ends_with("n/m/a.txt"), "{v}");
    let v = s.call(
        "move_file",
        json!({"source": "pic", "destination": "n", "overwrite": true}),
    );
    assert_eq!(v["error"]["code"], "ALREADY_EXISTS", "{v}");
    for (tool, args) in [
        ("create_directory", json!({"path": "x", "parents": true})),
        ("move_file", json!({"src": "a", "destination": "b"})),
        ("directory_tree", json!({"path": ".", "follow": true})),
    ] {
        let v = s.call(tool, args);
        assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{tool}: {v}");
    }
    // The write tools are listed only with a write root.
    let ro = sb(Policy {
        roots: vec![root(&w.w)],
        ..Default::default()
    });
    let names: Vec<&str> = ro.tools().iter().map(|t| t.name).collect();
    for t in ["edit_file", "create_directory", "move_file"] {
        assert!(!names.contains(&t), "{names:?}");
        assert_eq!(ro.call(t, json!({"path": "x"}))["error"]["code"], "DENIED");
    }
    for t in [
        "read_many_files",
        "directory_tree",
        "list_roots",
        "read_media_file",
    ] {
        assert!(names.contains(&t), "{names:?}");
    }
}

#[test]
fn cli_call_edit_and_move() {
    let w = World::new();
    w.file("a.txt", "hello world\n");
    let wr = w.w.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(BIN).args(args).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{e}: {} / {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code(), v)
    };
    let args = r#"{"path":"a.txt","old_string":"world","new_string":"there"}"#;
    // Without --allow-overwrite: DENIED, nonzero exit, unchanged.
    let (code, v) = run(&["call", "edit_file", args, "--write-root", wr]);
    assert_eq!(v["error"]["code"], "DENIED", "{v}");
    assert_ne!(code, Some(0));
    assert_eq!(w.text("a.txt"), "hello world\n");
    // Write root only: editing would reveal the file, so it is not offered.
    let (code, v) = run(&[
        "call",
        "edit_file",
        args,
        "--write-root",
        wr,
        "--allow-overwrite",
    ]);
    assert_eq!(v["error"]["code"], "DENIED", "{v}");
    assert_ne!(code, Some(0));
    assert_eq!(w.text("a.txt"), "hello world\n");
    let (code, v) = run(&[
        "call",
        "edit_file",
        args,
        "--root",
        wr,
        "--write-root",
        wr,
        "--allow-overwrite",
    ]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["replacements"], 1, "{v}");
    assert_eq!(w.text("a.txt"), "hello there\n");
    // Readable too: the diff comes back.
    let args = r#"{"path":"a.txt","old_string":"there","new_string":"you"}"#;
    let (_, v) = run(&[
        "call",
        "edit_file",
        args,
        "--root",
        wr,
        "--write-root",
        wr,
        "--allow-overwrite",
    ]);
    assert!(v["diff"].as_str().unwrap().contains("+hello you"), "{v}");
    let (code, v) = run(&[
        "call",
        "move_file",
        r#"{"source":"a.txt","destination":"../outside/a.txt"}"#,
        "--write-root",
        wr,
    ]);
    assert_eq!(v["error"]["code"], "OUT_OF_SANDBOX", "{v}");
    assert_ne!(code, Some(0));
    let (code, v) = run(&[
        "call",
        "create_directory",
        r#"{"path":"made/here"}"#,
        "--write-root",
        wr,
    ]);
    assert_eq!((code, v["created"].clone()), (Some(0), json!(true)), "{v}");
    assert!(w.p("made/here").is_dir());
    assert!(!w.outside.join("a.txt").exists());
    no_temps(&w.w);
}

/// Review findings: a huge `old_string` that matches nothing answers within the budget (the closest
/// line hint is bounded), and read_many_files keeps one deadline for all its globs.
#[test]
fn hints_and_many_globs_are_bounded_in_time() {
    let w = World::new();
    w.file("f.txt", "a\n".repeat(500_000));
    let s = sb(with(w.rw(), |p| p.limits.timeout_ms = 50));
    let old: String = (0..100_000).map(|i| format!("w{i} ")).collect();
    let start = std::time::Instant::now();
    let e = s.edit_file(&replace("f.txt", &old, "x")).unwrap_err();
    assert_eq!(e.code, ErrorCode::NotFound);
    assert_prompt(start.elapsed(), "a call with a 50 ms budget");
    for i in 0..300 {
        std::fs::create_dir_all(w.p(&format!("d{i}"))).unwrap();
    }
    let paths: Vec<String> = (0..200).map(|i| format!("zz{i}*")).collect();
    let start = std::time::Instant::now();
    let r = s.call("read_many_files", serde_json::json!({ "paths": paths }));
    assert!(r.get("error").is_none(), "{r}");
    assert_prompt(start.elapsed(), "a call with a 50 ms budget");
    let too_many: Vec<String> = (0..201).map(|i| format!("f{i}")).collect();
    let r = s.call("read_many_files", serde_json::json!({ "paths": too_many }));
    assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{r}");
}

/// Review finding: a displayed name with glob characters, given back to read_many_files, reads that
/// file; an entry that names nothing is a glob.
#[test]
fn read_many_reads_existing_names_with_glob_characters() {
    let w = World::new();
    w.file("a[1].txt", "BRACKET\n").file("a1.txt", "OTHER\n");
    let s = sb(w.rw());
    let r = s.call(
        "read_many_files",
        serde_json::json!({"paths": ["a[1].txt", "a?.txt"]}),
    );
    let files = r["files"].as_array().unwrap();
    assert_eq!(files[0]["content"], "BRACKET\n", "{r}");
    assert_eq!(files[1]["content"], "OTHER\n", "{r}");
    assert_eq!(files.len(), 2, "{r}");
}
