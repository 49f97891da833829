//! The opt-in write root. `write_file` is create-only by default, replaces a file only with
//! the double approval (the call says `overwrite: true` AND the policy allows it), replaces atomically,
//! and leaves no temporary file behind; `delete_file` is gated and removes regular files only. Every
//! attack class of docs/ATTACKS.md that applies to a path is applied to writes (and deletes), in both
//! resolvers, and after each one nothing outside the write root has changed.
//!
//! Real temp trees: `base/read` (a read root), `base/write` (the write root), `base/write_evil` (a
//! sibling with the write root's name as prefix) and `base/outside`, holding a canary.

mod support;

use rootbound::{
    ContentEncoding, DeleteArgs, Error, ErrorCode, PathDisplay, ReadArgs, Sandbox, SymlinkMode,
    WriteArgs, WritePolicy, WriteResult,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_rootbound");
/// The temporary files write_file makes beside its target (none may survive a call).
const TEMP_PREFIX: &str = ".rootbound-tmp-";

/// `force_portable_resolver` is process-global: the test that switches it holds this for writing,
/// every other in-process test for reading.
static MODE: RwLock<()> = RwLock::new(());

fn shared() -> RwLockReadGuard<'static, ()> {
    MODE.read().unwrap_or_else(|e| e.into_inner())
}

struct World {
    _tmp: tempfile::TempDir,
    base: PathBuf,
    read: PathBuf,
    write: PathBuf,
    outside: PathBuf,
    canary: String,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::Builder::new()
            .prefix("rootbound-write-")
            .tempdir()
            .unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let (read, write, outside) = (base.join("read"), base.join("write"), base.join("outside"));
        std::fs::create_dir(&read).unwrap();
        std::fs::create_dir(&write).unwrap();
        std::fs::create_dir_all(outside.join("subdir")).unwrap();
        std::fs::create_dir(base.join("write_evil")).unwrap();
        let canary = format!("CANARY-write-{}", std::process::id());
        std::fs::write(read.join("r.txt"), "readable\n").unwrap();
        std::fs::write(outside.join("secret.txt"), &canary).unwrap();
        std::fs::write(base.join("write_evil/x"), &canary).unwrap();
        World {
            _tmp: tmp,
            base,
            read,
            write,
            outside,
            canary,
        }
    }

    /// A sandbox with the read root, the write root (policy adjusted by `f`) and deny rules.
    fn sandbox(&self, f: impl FnOnce(&mut WritePolicy)) -> Sandbox {
        let mut w = WritePolicy::new(&self.write);
        f(&mut w);
        Sandbox::builder()
            .root(&self.read)
            .deny(".env")
            .deny(".git/")
            .deny("*.pem")
            .write(w)
            .build()
            .unwrap()
    }

    fn w(&self, rel: &str) -> PathBuf {
        self.write.join(rel)
    }

    fn file(&self, rel: &str, content: &str) {
        let p = self.w(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    fn link(&self, rel: &str, target: impl AsRef<Path>) {
        let p = self.w(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(target, p).unwrap();
    }

    fn content(&self, rel: &str) -> String {
        std::fs::read_to_string(self.w(rel)).unwrap()
    }

    /// Everything under `base` except the write root's regular files and directories: names, kinds,
    /// contents, link targets. The write root's own symlinks are included (a write must never turn one
    /// into something else unless it was approved to replace it).
    fn snapshot(&self) -> BTreeMap<PathBuf, String> {
        let mut out = BTreeMap::new();
        walk(&self.base, &mut |p, meta| {
            let in_write = p.starts_with(&self.write);
            let desc = if meta.file_type().is_symlink() {
                format!("link -> {}", std::fs::read_link(p).unwrap().display())
            } else if in_write {
                return;
            } else if meta.is_dir() {
                "dir".to_string()
            } else {
                format!("file {:?}", std::fs::read(p).unwrap_or_default())
            };
            out.insert(p.to_path_buf(), desc);
        });
        out
    }

    /// Every temporary file left anywhere under `base`.
    fn temps(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        walk(&self.base, &mut |p, _| {
            if p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(TEMP_PREFIX))
            {
                out.push(p.to_path_buf());
            }
        });
        out
    }

    fn assert_no_temps(&self, ctx: &str) {
        assert_eq!(
            self.temps(),
            Vec::<PathBuf>::new(),
            "{ctx}: temp files left"
        );
    }

    /// The message names no host path the agent did not give and no outside byte.
    fn assert_clean(&self, e: &Error, request: &str, ctx: &str) {
        assert!(!e.message.contains(&self.canary), "{ctx}: {e}");
        for host in [&self.outside, &self.write, &self.base] {
            let host = host.display().to_string();
            if !request.contains(&host) {
                assert!(!e.message.contains(&host), "{ctx}: names {host}: {e}");
            }
        }
    }
}

/// Visits every entry under `dir` without following symlinks.
fn walk(dir: &Path, f: &mut dyn FnMut(&Path, &std::fs::Metadata)) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        f(&p, &meta);
        if meta.is_dir() {
            walk(&p, f);
        }
    }
}

fn args(path: &str, content: &str) -> WriteArgs {
    {
        let mut args_ = WriteArgs::default();
        args_.path = path.into();
        args_.content = content.into();
        args_
    }
}

fn over(path: &str, content: &str) -> WriteArgs {
    {
        let mut args_ = args(path, content);
        args_.overwrite = Some(true);
        args_
    }
}

fn del(path: &str) -> DeleteArgs {
    {
        let mut args_ = DeleteArgs::default();
        args_.path = path.into();
        args_
    }
}

#[track_caller]
fn err<T: std::fmt::Debug>(r: rootbound::Result<T>, ctx: &str) -> Error {
    match r {
        Ok(v) => panic!("{ctx}: expected an error, got {v:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn code<T: std::fmt::Debug>(r: rootbound::Result<T>, ctx: &str) -> ErrorCode {
    err(r, ctx).code
}

// ---------------------------------------------------------------------------------------------------
// Create, exclusive refusal, double approval

#[test]
fn creates_a_new_file_exclusively() {
    let _g = shared();
    let w = World::new();
    let sb = w.sandbox(|_| {});
    let r = sb.write_file(&args("a.txt", "hello\n")).unwrap();
    assert_eq!(
        r,
        WriteResult {
            path: w.w("a.txt").display().to_string(),
            bytes_written: 6,
            created: true,
            replaced: false,
            deleted: false,
            encoding: None,
        }
    );
    assert_eq!(w.content("a.txt"), "hello\n");
    // Empty content is a file too.
    assert!(sb.write_file(&args("empty", "")).unwrap().created);
    assert_eq!(w.content("empty"), "");

    // Absolute inside the write root: allowed, and the result names the canonical path.
    let abs = w.w("abs.txt").display().to_string();
    assert_eq!(sb.write_file(&args(&abs, "abs")).unwrap().path, abs);
    assert_eq!(w.content("abs.txt"), "abs");

    // The second write of the same name, not asking: ALREADY_EXISTS, content untouched.
    for a in [args("a.txt", "other"), {
        let mut args_ = args("a.txt", "other");
        args_.overwrite = Some(false);
        args_
    }] {
        let e = err(sb.write_file(&a), "second create");
        assert_eq!(e.code, ErrorCode::AlreadyExists, "{e}");
        assert!(e.message.contains("a.txt"), "{e}");
    }
    assert_eq!(w.content("a.txt"), "hello\n");
    // A directory is not a file to replace.
    std::fs::create_dir(w.w("d")).unwrap();
    assert_eq!(
        code(sb.write_file(&over("d", "x")), "dir"),
        ErrorCode::NotAFile
    );
    w.assert_no_temps("create");
}

#[test]
fn write_root_given_by_a_symlinked_path_and_relative_display() {
    let _g = shared();
    let w = World::new();
    symlink(&w.write, w.base.join("wlink")).unwrap();
    let sb = Sandbox::builder()
        .write(WritePolicy::new(w.base.join("wlink")))
        .path_display(PathDisplay::Relative)
        .build()
        .unwrap();
    // Both the configured and the canonical spelling of the root are accepted; shown root-relative.
    let via_link = w.base.join("wlink/one.txt").display().to_string();
    assert_eq!(
        sb.write_file(&args(&via_link, "1")).unwrap().path,
        "one.txt"
    );
    let canonical = w.w("sub/two.txt").display().to_string();
    assert_eq!(
        sb.write_file(&args(&canonical, "2")).unwrap().path,
        "sub/two.txt"
    );
    assert_eq!(w.content("one.txt"), "1");
    assert_eq!(w.content("sub/two.txt"), "2");
}

#[test]
fn double_approval_each_half_alone_is_refused() {
    let _g = shared();
    let w = World::new();
    w.file("f.txt", "original");

    // The call asks, the policy forbids: DENIED.
    let strict = w.sandbox(|_| {});
    let e = err(strict.write_file(&over("f.txt", "new")), "policy forbids");
    assert_eq!(e.code, ErrorCode::Denied, "{e}");
    assert_eq!(w.content("f.txt"), "original");

    // The policy allows, the call does not ask: ALREADY_EXISTS.
    let lax = w.sandbox(|p| p.allow_overwrite = true);
    for a in [args("f.txt", "new"), {
        let mut args_ = args("f.txt", "new");
        args_.overwrite = Some(false);
        args_
    }] {
        let e = err(lax.write_file(&a), "call did not ask");
        assert_eq!(e.code, ErrorCode::AlreadyExists, "{e}");
    }
    assert_eq!(w.content("f.txt"), "original");

    // Both: replaced.
    let r = lax.write_file(&over("f.txt", "new")).unwrap();
    assert!(r.replaced && !r.created, "{r:?}");
    assert_eq!(r.bytes_written, 3);
    assert_eq!(w.content("f.txt"), "new");
    // overwrite: true on a name that does not exist simply creates it.
    assert!(lax.write_file(&over("fresh.txt", "x")).unwrap().created);
    w.assert_no_temps("double approval");
}

#[test]
fn replace_keeps_an_in_root_symlink_target_untouched() {
    // The final component is never followed: an approved overwrite of a symlink replaces the link.
    let _g = shared();
    let w = World::new();
    w.file("sub/target.txt", "target");
    w.link("l", "sub/target.txt");
    w.link("dangling", "nothing-here");
    let sb = w.sandbox(|p| p.allow_overwrite = true);
    assert_eq!(
        code(sb.write_file(&args("l", "x")), "link, not asked"),
        ErrorCode::AlreadyExists
    );
    assert_eq!(
        code(sb.write_file(&args("dangling", "x")), "dangling, not asked"),
        ErrorCode::AlreadyExists
    );
    assert!(sb.write_file(&over("l", "replaced")).unwrap().replaced);
    assert!(!std::fs::symlink_metadata(w.w("l"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(w.content("l"), "replaced");
    assert_eq!(w.content("sub/target.txt"), "target");
    assert!(sb.write_file(&over("dangling", "d")).unwrap().replaced);
    assert!(!w.w("nothing-here").exists());
}

// ---------------------------------------------------------------------------------------------------
// Atomic replace

#[test]
fn replace_is_atomic_for_a_concurrent_reader() {
    let _g = shared();
    let w = World::new();
    let a = "A".repeat(256 * 1024);
    let b = format!("{}\n", "B".repeat(96 * 1024));
    w.file("f.txt", &a);
    let sb = w.sandbox(|p| p.allow_overwrite = true);
    let stop = Arc::new(AtomicBool::new(false));
    // What the reader has seen so far (reads, version a, version b): the writer goes on until
    // the reader has seen both versions, however the machine schedules the two threads.
    let seen = Arc::new((
        AtomicU64::new(0),
        AtomicBool::new(false),
        AtomicBool::new(false),
    ));
    let reader = {
        let (stop, seen, path) = (stop.clone(), seen.clone(), w.w("f.txt"));
        let (a, b) = (a.clone(), b.clone());
        std::thread::spawn(move || {
            let mut bad = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                // The name must always be there, holding one whole version.
                let got = std::fs::read_to_string(&path).expect("the file vanished mid-replace");
                seen.0.fetch_add(1, Ordering::Relaxed);
                if got == a {
                    seen.1.store(true, Ordering::Relaxed);
                } else if got == b {
                    seen.2.store(true, Ordering::Relaxed);
                } else if bad.len() < 3 {
                    bad.push(format!("{} bytes", got.len()));
                }
            }
            bad
        })
    };
    let enough = || {
        seen.0.load(Ordering::Relaxed) > 10
            && seen.1.load(Ordering::Relaxed)
            && seen.2.load(Ordering::Relaxed)
    };
    let cap = Instant::now() + support::time::PROMPT * 6;
    let mut i = 0;
    // At least 150 replaces, and more until the reader saw both versions; the last one writes a.
    while i < 150 || !enough() && Instant::now() < cap || i % 2 == 1 {
        let content = if i % 2 == 0 { &b } else { &a };
        let r = sb.write_file(&over("f.txt", content)).unwrap();
        assert!(r.replaced);
        i += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let bad = reader.join().unwrap();
    assert!(bad.is_empty(), "a reader saw a torn file: {bad:?}");
    assert!(enough(), "the reader did not see both versions: {seen:?}");
    assert_eq!(w.content("f.txt"), a);
    w.assert_no_temps("atomic");
}

// ---------------------------------------------------------------------------------------------------
// Parents

#[test]
fn parents_are_created_through_the_handle() {
    let _g = shared();
    let w = World::new();
    let sb = w.sandbox(|_| {});
    assert!(sb.write_file(&args("a/b/c/d.txt", "deep")).unwrap().created);
    assert_eq!(w.content("a/b/c/d.txt"), "deep");
    // `..` that stays inside (ATTACKS class 2), with missing directories around it.
    let r = sb.write_file(&args("x/y/../z/f.txt", "dots")).unwrap();
    assert_eq!(r.path, w.w("x/z/f.txt").display().to_string());
    assert_eq!(w.content("x/z/f.txt"), "dots");
    // Through an in-root symlinked directory, then a missing one.
    std::fs::create_dir(w.w("real")).unwrap();
    w.link("sub/up", "../real");
    let r = sb
        .write_file(&args("sub/up/new/g.txt", "via link"))
        .unwrap();
    assert_eq!(r.path, w.w("real/new/g.txt").display().to_string());
    // A file where a directory is needed.
    assert_eq!(
        code(sb.write_file(&args("a/b/c/d.txt/e", "x")), "file as dir"),
        ErrorCode::NotAFile
    );
    // A dangling in-root symlink as a directory: nothing is created through it.
    w.link("dl", "missing-dir");
    assert_eq!(
        code(sb.write_file(&args("dl/f.txt", "x")), "dangling dir link"),
        ErrorCode::NotFound
    );
    assert!(!w.w("missing-dir").exists());

    // create_parents = false: a missing parent is NOT_FOUND and nothing is made.
    let flat = w.sandbox(|p| p.create_parents = false);
    let e = err(flat.write_file(&args("p/q/r.txt", "x")), "no parents");
    assert_eq!(e.code, ErrorCode::NotFound, "{e}");
    assert!(!w.w("p").exists());
    assert!(flat.write_file(&args("a/new.txt", "x")).unwrap().created);
    w.assert_no_temps("parents");
}

// ---------------------------------------------------------------------------------------------------
// Escapes (docs/ATTACKS.md) applied to writes and deletes, in both resolvers

/// Plants the symlinks of the escape table in the write root.
fn plant_escapes(w: &World) {
    let out = w.outside.display().to_string();
    w.file("target.txt", "in-root target");
    w.file("sub/keep.txt", "keep");
    w.link("linkdir", "../outside"); // class 7
    w.link("absdir", &w.outside); // class 7, absolute
    w.link("lf", "../outside/secret.txt"); // class 6
    w.link("labs", format!("{out}/secret.txt")); // class 6, absolute
    w.link("lin_abs", w.w("target.txt")); // class 10: absolute, pointing inside
    w.link("dl", "../outside/new.txt"); // dangling, out
    w.link("dla", format!("{out}/new_abs.txt")); // dangling, out, absolute
    w.link("dd", "../outside/newdir"); // dangling directory, out
    w.link("c1", "c2"); // class 8: a chain that ends outside
    w.link("c2", "sub/../c3");
    w.link("c3", "../outside/secret.txt");
    w.link("toread", "../read"); // into the read root
    w.link("sub/up2", "../../outside"); // nested
    w.link("pl", "/proc/self/cwd"); // class 13: a magic link
    w.link("loop", "loop"); // class 11
}

fn escape_table(w: &World) -> Vec<(String, ErrorCode)> {
    use ErrorCode::*;
    let (o, wr, b, r) = (
        w.outside.display().to_string(),
        w.write.display().to_string(),
        w.base.display().to_string(),
        w.read.display().to_string(),
    );
    let mut t: Vec<(String, ErrorCode)> = [
        ("../x.txt", OutOfSandbox),
        ("a/../../x.txt", OutOfSandbox),
        ("sub/../../outside/new.txt", OutOfSandbox),
        ("../outside/new.txt", OutOfSandbox),
        ("../outside/secret.txt", OutOfSandbox),
        ("../write/reenter.txt", OutOfSandbox),
        ("../read/new.txt", OutOfSandbox),
        ("../read/r.txt", OutOfSandbox),
        ("linkdir/new.txt", OutOfSandbox),
        ("linkdir/secret.txt", OutOfSandbox),
        ("linkdir/subdir/new.txt", OutOfSandbox),
        ("linkdir/made/new.txt", OutOfSandbox),
        ("absdir/new.txt", OutOfSandbox),
        ("lf", OutOfSandbox),
        ("labs", OutOfSandbox),
        ("lin_abs", OutOfSandbox),
        ("dl", OutOfSandbox),
        ("dla", OutOfSandbox),
        ("dd/f.txt", OutOfSandbox),
        ("dd/deeper/f.txt", OutOfSandbox),
        ("c1", OutOfSandbox),
        ("toread/new.txt", OutOfSandbox),
        ("toread/r.txt", OutOfSandbox),
        ("sub/up2/new.txt", OutOfSandbox),
        ("sub/up2/secret.txt", OutOfSandbox),
        ("pl/new.txt", OutOfSandbox),
        ("loop", SymlinkLoop),
        ("loop/x", SymlinkLoop),
        ("", InvalidArgument),
        ("a\0b", InvalidArgument),
        (".", InvalidArgument),
        ("..", OutOfSandbox),
        ("sub/.", InvalidArgument),
        ("sub/..", InvalidArgument),
        ("sub/", NotAFile),
    ]
    .into_iter()
    .map(|(p, c)| (p.to_string(), c))
    .collect();
    t.extend([
        ("x".repeat(5000), InvalidArgument),
        (format!("a/{}", "y".repeat(300)), InvalidArgument),
        // Absolute outside, a sibling with the root as prefix, re-entry, the read root.
        (format!("{o}/new.txt"), OutOfSandbox),
        (format!("{o}/secret.txt"), OutOfSandbox),
        (format!("{b}/write_evil/x"), OutOfSandbox),
        (format!("{b}/write_evil/new.txt"), OutOfSandbox),
        (format!("{wr}/../outside/new.txt"), OutOfSandbox),
        (format!("{r}/r.txt"), OutOfSandbox),
        (format!("{r}/new.txt"), OutOfSandbox),
        (format!("/proc/self/root{o}/new.txt"), OutOfSandbox),
        (format!("/proc/self/root{wr}/new.txt"), OutOfSandbox),
        (wr.clone(), InvalidArgument),
    ]);
    t
}

fn run_escapes(w: &World, resolver: &str) {
    let sb = w.sandbox(|p| {
        p.allow_overwrite = true;
        p.allow_delete = true;
    });
    let before = w.snapshot();
    for (path, want) in escape_table(w) {
        let ctx = format!("{resolver}: write_file {path:?}");
        for a in [args(&path, "PWNED"), over(&path, "PWNED")] {
            let e = err(sb.write_file(&a), &ctx);
            assert_eq!(e.code, want, "{ctx}: {e}");
            w.assert_clean(&e, &path, &ctx);
        }
        // The same request as a delete: refused the same way (or, for names that are no file at
        // all, as such).
        let ctx = format!("{resolver}: delete_file {path:?}");
        let e = err(sb.delete_file(&del(&path)), &ctx);
        let ok = e.code == want
            || (want == ErrorCode::SymlinkLoop && e.code == ErrorCode::NotAFile)
            || (path == "sub/" && e.code == ErrorCode::NotAFile);
        assert!(ok, "{ctx}: want {want}, got {e}");
        assert_eq!(
            w.snapshot(),
            before,
            "{ctx}: something changed outside the write root"
        );
        w.assert_no_temps(&ctx);
    }
    assert!(!w.outside.join("new.txt").exists());
    assert!(!w.outside.join("newdir").exists());
    assert!(!w.outside.join("made").exists());
    assert_eq!(
        std::fs::read_to_string(w.outside.join("secret.txt")).unwrap(),
        w.canary
    );
    // Nothing the table asked for was created in the write root either (no stray parents).
    for stray in ["a", "x.txt", "made", "reenter.txt"] {
        assert!(!w.w(stray).exists(), "{resolver}: {stray} was created");
    }

    // What must still work in the same tree.
    let r = sb.write_file(&args("a/b/../../in.txt", "in")).unwrap();
    assert_eq!(r.path, w.w("in.txt").display().to_string());
    let abs = w.w("abs_in.txt").display().to_string();
    assert!(sb.write_file(&args(&abs, "in")).unwrap().created);
    // A relative in-root symlinked directory is followed (symlinks = inside).
    w.link("ls", "sub");
    assert_eq!(
        sb.write_file(&args("ls/via.txt", "via")).unwrap().path,
        w.w("sub/via.txt").display().to_string()
    );
    for f in ["in.txt", "abs_in.txt", "sub/via.txt"] {
        sb.delete_file(&del(f)).unwrap();
    }
    std::fs::remove_file(w.w("ls")).unwrap();
}

#[test]
fn escapes_are_refused_and_nothing_is_created_outside() {
    let _g = MODE.write().unwrap_or_else(|e| e.into_inner());
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            rootbound::force_portable_resolver(false);
        }
    }
    let _r = Reset;
    for (portable, name) in [(false, "openat2"), (true, "portable")] {
        rootbound::force_portable_resolver(portable);
        let w = World::new();
        plant_escapes(&w);
        run_escapes(&w, name);
    }
}

#[test]
fn symlinks_never_mode_refuses_every_link_on_writes() {
    let _g = shared();
    let w = World::new();
    std::fs::create_dir(w.w("sub")).unwrap();
    w.link("ls", "sub");
    w.file("t.txt", "t");
    w.link("lt", "t.txt");
    let mut p = WritePolicy::new(&w.write);
    p.allow_overwrite = true;
    let sb = Sandbox::builder()
        .symlinks(SymlinkMode::Never)
        .write(p)
        .build()
        .unwrap();
    for path in ["ls/x.txt", "ls/new/x.txt", "lt"] {
        assert_eq!(
            code(sb.write_file(&over(path, "x")), path),
            ErrorCode::OutOfSandbox,
            "{path}"
        );
    }
    assert!(!w.w("sub/x.txt").exists() && !w.w("sub/new").exists());
    assert_eq!(w.content("t.txt"), "t");
}

// ---------------------------------------------------------------------------------------------------
// Size cap, encodings, arguments

#[test]
fn size_cap_refuses_and_writes_nothing() {
    let _g = shared();
    let w = World::new();
    let sb = w.sandbox(|p| {
        p.max_write_bytes = 10;
        p.allow_overwrite = true;
    });
    let e = err(sb.write_file(&args("big.txt", "0123456789X")), "11 bytes");
    assert_eq!(e.code, ErrorCode::TooLarge, "{e}");
    assert!(!w.w("big.txt").exists());
    assert!(!w.w("deep").exists());
    assert_eq!(
        code(sb.write_file(&args("deep/big.txt", "0123456789X")), "deep"),
        ErrorCode::TooLarge
    );
    assert!(!w.w("deep").exists(), "no parent made for refused content");
    // Exactly at the cap is fine; a replacement over the cap leaves the old content.
    assert!(
        sb.write_file(&args("ten.txt", "0123456789"))
            .unwrap()
            .created
    );
    assert_eq!(
        code(sb.write_file(&over("ten.txt", "0123456789AB")), "replace"),
        ErrorCode::TooLarge
    );
    assert_eq!(w.content("ten.txt"), "0123456789");
    // base64 is measured after decoding: 12 characters are 9 bytes (fits), 16 are 12 (does not).
    let b64 = |s: &str| {
        let mut args_ = args("b.bin", s);
        args_.encoding = Some(ContentEncoding::Base64);
        args_
    };
    assert_eq!(
        sb.write_file(&b64("AAAAAAAAAAAA")).unwrap().bytes_written,
        9
    );
    std::fs::remove_file(w.w("b.bin")).unwrap();
    assert_eq!(
        code(sb.write_file(&b64("AAAAAAAAAAAAAAAA")), "b64 over"),
        ErrorCode::TooLarge
    );
    assert!(!w.w("b.bin").exists());
    // Multi-byte UTF-8 counts bytes, not characters: 4 x 3 bytes.
    assert_eq!(
        code(sb.write_file(&args("u.txt", "€€€€")), "utf8"),
        ErrorCode::TooLarge
    );
    w.assert_no_temps("size cap");
}

#[test]
fn base64_content_and_argument_checks_through_call() {
    let _g = shared();
    let w = World::new();
    let sb = w.sandbox(|_| {});
    let bytes: Vec<u8> = vec![0, 255, 1, 2, b'\n', 0x80, 0xfe, b'z'];
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let r = sb.call(
        "write_file",
        json!({"path": "bin/b.dat", "content": text, "encoding": "base64"}),
    );
    assert_eq!(r["bytes_written"], 8, "{r}");
    assert_eq!(std::fs::read(w.w("bin/b.dat")).unwrap(), bytes);
    // Wrapped base64 (line breaks) is accepted.
    let wrapped = format!("{}\n{}\n", &text[..4], &text[4..]);
    let r = sb.call(
        "write_file",
        json!({"path": "bin/w.dat", "content": wrapped, "encoding": "base64"}),
    );
    assert_eq!(r["created"], true, "{r}");
    assert_eq!(std::fs::read(w.w("bin/w.dat")).unwrap(), bytes);
    // utf-8 spelled out is the default.
    let r = sb.call(
        "write_file",
        json!({"path": "t.txt", "content": "é\n", "encoding": "utf-8"}),
    );
    assert_eq!(r["bytes_written"], 3, "{r}");
    for (a, what) in [
        (
            json!({"path": "bad.dat", "content": "!!!notbase64", "encoding": "base64"}),
            "bad base64",
        ),
        (
            json!({"path": "bad.dat", "content": "x", "encoding": "latin1"}),
            "unknown encoding",
        ),
        (
            json!({"path": "bad.dat", "content": "x", "bogus": 1}),
            "unknown field",
        ),
        (json!({"path": "bad.dat"}), "missing content"),
        (json!({"content": "x"}), "missing path"),
        (
            json!({"path": "bad.dat", "content": "x", "overwrite": "yes"}),
            "overwrite not a bool",
        ),
    ] {
        let r = sb.call("write_file", a);
        assert_eq!(r["error"]["code"], "INVALID_ARGUMENT", "{what}: {r}");
    }
    assert!(!w.w("bad.dat").exists());
    w.assert_no_temps("base64");
}

// ---------------------------------------------------------------------------------------------------
// The capability split

#[test]
fn write_root_grants_no_read_and_read_root_no_write() {
    let _g = shared();
    let w = World::new();
    let sb = w.sandbox(|_| {});
    sb.write_file(&args("w.txt", "written")).unwrap();
    let abs_w = w.w("w.txt").display().to_string();
    // Not readable: relative names go to the read roots, absolute ones are outside them.
    assert_eq!(
        code(sb.read_file(&ReadArgs::path("w.txt")), "read rel"),
        ErrorCode::NotFound
    );
    for tool in ["read_file", "stat", "list_dir"] {
        let r = sb.call(tool, json!({"path": abs_w}));
        assert_eq!(r["error"]["code"], "OUT_OF_SANDBOX", "{tool}: {r}");
    }
    let r = sb.call(
        "grep_search",
        json!({"pattern": "written", "path": w.write.display().to_string()}),
    );
    assert_eq!(r["error"]["code"], "OUT_OF_SANDBOX", "grep: {r}");
    let r = sb.call("grep_search", json!({"pattern": "written"}));
    assert_eq!(r["match_lines"], 0, "grep over the read roots: {r}");

    // Not writable through the read root: a relative name lands in the write root, an absolute
    // read-root path is outside the write root.
    let r = sb.write_file(&args("r.txt", "shadow")).unwrap();
    assert_eq!(r.path, w.w("r.txt").display().to_string());
    assert_eq!(
        std::fs::read_to_string(w.read.join("r.txt")).unwrap(),
        "readable\n"
    );
    let abs_r = w.read.join("r.txt").display().to_string();
    let lax = w.sandbox(|p| {
        p.allow_overwrite = true;
        p.allow_delete = true;
    });
    assert_eq!(
        code(lax.write_file(&over(&abs_r, "x")), "read root"),
        ErrorCode::OutOfSandbox
    );
    assert_eq!(
        code(lax.delete_file(&del(&abs_r)), "delete in read root"),
        ErrorCode::OutOfSandbox
    );
    assert_eq!(
        std::fs::read_to_string(w.read.join("r.txt")).unwrap(),
        "readable\n"
    );

    // A read-only sandbox has no write tools at all.
    let ro = Sandbox::builder().root(&w.read).build().unwrap();
    assert!(ro.tools().iter().all(|t| t.read_only));
    let r = ro.call("write_file", json!({"path": "n.txt", "content": "x"}));
    assert!(r["error"].is_object(), "{r}");
    assert_eq!(
        code(ro.write_file(&args("n.txt", "x")), "direct"),
        ErrorCode::Denied
    );
    assert!(!w.read.join("n.txt").exists());

    // A write-only sandbox lists only write_file and refuses reads.
    let wo = Sandbox::builder()
        .write(WritePolicy::new(&w.write))
        .build()
        .unwrap();
    let names: Vec<&str> = wo.tools().iter().map(|t| t.name).collect();
    assert_eq!(names, ["write_file", "create_directory", "move_file"]);
    let r = wo.call("read_file", json!({"path": "w.txt"}));
    assert_eq!(r["error"]["code"], "OUT_OF_SANDBOX", "{r}");

    // The write root is readable when it is also a read root.
    let both = Sandbox::builder()
        .root(&w.write)
        .write(WritePolicy::new(&w.write))
        .build()
        .unwrap();
    assert_eq!(
        both.read_file(&ReadArgs::path("w.txt")).unwrap().content,
        "written"
    );
}

// ---------------------------------------------------------------------------------------------------
// Delete

#[test]
fn delete_is_gated_and_removes_regular_files_only() {
    let _g = shared();
    let w = World::new();
    w.file("f.txt", "f");
    w.file("d/inner.txt", "i");
    std::fs::create_dir(w.w("empty")).unwrap();
    w.link("lk", "f.txt");
    w.link("lout", "../outside/secret.txt");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        w.w("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();

    let no = w.sandbox(|p| p.allow_overwrite = true);
    assert!(no.tools().iter().all(|t| t.name != "delete_file"));
    let e = err(no.delete_file(&del("f.txt")), "not allowed");
    assert_eq!(e.code, ErrorCode::Denied, "{e}");
    let r = no.call("delete_file", json!({"path": "f.txt"}));
    assert!(r["error"].is_object(), "{r}");
    assert!(w.w("f.txt").exists());

    let yes = w.sandbox(|p| p.allow_delete = true);
    let t = yes
        .tools()
        .into_iter()
        .find(|t| t.name == "delete_file")
        .expect("delete_file listed");
    assert!(t.destructive && !t.read_only);
    for (path, want) in [
        ("d", ErrorCode::NotAFile),
        ("empty", ErrorCode::NotAFile),
        ("lk", ErrorCode::NotAFile),
        ("fifo", ErrorCode::NotAFile),
        ("lout", ErrorCode::OutOfSandbox),
        ("missing.txt", ErrorCode::NotFound),
        ("d/", ErrorCode::NotAFile),
        (".env", ErrorCode::Denied),
    ] {
        assert_eq!(code(yes.delete_file(&del(path)), path), want, "{path}");
    }
    assert!(w.w("d/inner.txt").exists() && w.w("empty").is_dir());
    assert!(std::fs::symlink_metadata(w.w("lk")).is_ok() && w.w("f.txt").exists());
    assert!(w.outside.join("secret.txt").exists());

    let r = yes.delete_file(&del("f.txt")).unwrap();
    assert!(r.deleted && r.bytes_written == 0, "{r:?}");
    assert_eq!(r.path, w.w("f.txt").display().to_string());
    assert!(!w.w("f.txt").exists());
    yes.delete_file(&del("d/inner.txt")).unwrap();
    assert!(w.w("d").is_dir(), "the directory stays");
    assert_eq!(
        code(yes.delete_file(&del("f.txt")), "twice"),
        ErrorCode::NotFound
    );
}

// ---------------------------------------------------------------------------------------------------
// Deny rules

#[test]
fn deny_rules_hold_for_writes() {
    let _g = shared();
    let w = World::new();
    w.file(".env", "SECRET=1");
    w.file(".git/config", "[core]");
    std::fs::create_dir(w.w("sub")).unwrap();
    w.link("g", ".git");
    w.link("e", ".env");
    let sb = w.sandbox(|p| {
        p.allow_overwrite = true;
        p.allow_delete = true;
    });
    for path in [
        ".env",
        "./.env",
        ".//.env",
        "sub/../.env",
        "sub/.env",
        "new/.env",
        ".git/config",
        ".git/new.txt",
        ".git/hooks/new",
        "key.pem",
        "sub/x.pem",
        "g/config",
        "g/newdir/x",
        "e",
    ] {
        for a in [args(path, "PWNED"), over(path, "PWNED")] {
            let e = err(sb.write_file(&a), path);
            assert_eq!(e.code, ErrorCode::Denied, "{path}: {e}");
        }
        // (A delete never creates parents: under a missing directory it is NOT_FOUND, as a read is.)
        let e = err(sb.delete_file(&del(path)), path);
        let missing_parent = path == "g/newdir/x" && e.code == ErrorCode::NotFound;
        assert!(
            e.code == ErrorCode::Denied || missing_parent,
            "delete {path}: {e}"
        );
    }
    assert_eq!(w.content(".env"), "SECRET=1");
    assert_eq!(w.content(".git/config"), "[core]");
    for never in [
        "sub/.env",
        "new",
        ".git/new.txt",
        ".git/hooks",
        ".git/newdir",
        "key.pem",
    ] {
        assert!(!w.w(never).exists(), "{never} was created");
    }
    assert!(std::fs::symlink_metadata(w.w("e"))
        .unwrap()
        .file_type()
        .is_symlink());
    w.assert_no_temps("deny");
}

// ---------------------------------------------------------------------------------------------------
// No temporary files after failures

#[test]
fn no_temp_files_after_failures_or_races() {
    let _g = shared();
    let w = World::new();
    w.file("exists.txt", "old");
    std::fs::create_dir(w.w("adir")).unwrap();
    let sb = w.sandbox(|p| {
        p.max_write_bytes = 64;
        p.allow_overwrite = true;
    });
    for (a, want) in [
        (args("exists.txt", "x"), ErrorCode::AlreadyExists),
        (over("adir", "x"), ErrorCode::NotAFile),
        (args("big.txt", &"z".repeat(65)), ErrorCode::TooLarge),
        (over("exists.txt", &"z".repeat(65)), ErrorCode::TooLarge),
        (args("../out.txt", "x"), ErrorCode::OutOfSandbox),
        (args("exists.txt/x", "x"), ErrorCode::NotAFile),
    ] {
        let path = a.path.clone();
        assert_eq!(code(sb.write_file(&a), &path), want, "{path}");
        w.assert_no_temps(&path);
    }

    // Races: the target flips between a file, nothing and a directory while writes run, so the rename
    // (over a directory) and the exclusive create (ALREADY_EXISTS) fail after the temporary file was
    // written. Whatever each call answers, no temporary file survives.
    let stop = Arc::new(AtomicBool::new(false));
    let flipper = {
        let (stop, t) = (stop.clone(), w.w("t"));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let _ = std::fs::create_dir(&t);
                let _ = std::fs::remove_dir(&t);
                let _ = std::fs::write(&t, "flip");
                let _ = std::fs::remove_file(&t);
            }
        })
    };
    let mut seen = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_millis(600);
    let mut i = 0u32;
    while Instant::now() < deadline || i < 50 {
        let a = if i.is_multiple_of(2) {
            over("t", "new")
        } else {
            args("t", "new")
        };
        let outcome = match sb.write_file(&a) {
            Ok(_) => "ok",
            Err(e) => e.code.as_str(),
        };
        *seen.entry(outcome).or_insert(0u32) += 1;
        i += 1;
        // Each call is over: whatever it answered, its temporary file is gone.
        let left = w.temps();
        assert!(left.is_empty(), "after {outcome}: {left:?}");
    }
    stop.store(true, Ordering::Relaxed);
    flipper.join().unwrap();
    for k in seen.keys() {
        assert!(
            ["ok", "ALREADY_EXISTS", "NOT_A_FILE"].contains(k),
            "unexpected outcome {k}: {seen:?}"
        );
    }
    w.assert_no_temps(&format!("after the race ({seen:?})"));
}

// ---------------------------------------------------------------------------------------------------
// Front ends: the CLI flags (and the audit event), and the MCP listing

fn cli(args: &[&str], log: bool) -> (i32, Value, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args).stdin(Stdio::null());
    if log {
        cmd.env("ROOTBOUND_LOG", "rootbound::audit=info");
    } else {
        cmd.env_remove("ROOTBOUND_LOG");
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let v = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        v,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_write_flags() {
    let w = World::new();
    let wr = w.write.to_str().unwrap();
    let rd = w.read.to_str().unwrap();
    let call = |tool: &str, a: Value, extra: &[&str]| {
        let a = a.to_string();
        let mut v = vec!["call", tool, a.as_str(), "--write-root", wr];
        v.extend_from_slice(extra);
        cli(&v, false)
    };

    let (code, v, err) = cli(
        &[
            "call",
            "write_file",
            r#"{"path":"a.txt","content":"x"}"#,
            "--write-root",
            wr,
        ],
        true,
    );
    assert_eq!(code, 0, "{v} {err}");
    assert_eq!(v["created"], true);
    assert_eq!(w.content("a.txt"), "x");
    // The audit event: tool, root-relative path, bytes written.
    let line = err
        .lines()
        .find(|l| l.contains("rootbound::audit"))
        .unwrap_or_else(|| panic!("no audit event: {err}"));
    assert!(
        line.contains("write_file") && line.contains("path=a.txt") && line.contains("bytes=1"),
        "{line}"
    );

    let (code, v, _) = call("write_file", json!({"path": "a.txt", "content": "y"}), &[]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("ALREADY_EXISTS"))
    );
    let (code, v, _) = call(
        "write_file",
        json!({"path": "a.txt", "content": "y", "overwrite": true}),
        &[],
    );
    assert_eq!((code, v["error"]["code"].as_str()), (1, Some("DENIED")));
    let (code, v, _) = call(
        "write_file",
        json!({"path": "a.txt", "content": "yz", "overwrite": true}),
        &["--allow-overwrite"],
    );
    assert_eq!((code, &v["replaced"]), (0, &json!(true)), "{v}");
    assert_eq!(w.content("a.txt"), "yz");
    let (code, v, _) = call(
        "write_file",
        json!({"path": "big.txt", "content": "abcd"}),
        &["--max-write-bytes", "3"],
    );
    assert_eq!((code, v["error"]["code"].as_str()), (1, Some("TOO_LARGE")));
    let (code, v, _) = call("delete_file", json!({"path": "a.txt"}), &[]);
    assert_eq!(code, 1, "{v}");
    assert!(w.w("a.txt").exists());
    let (code, v, _) = call("delete_file", json!({"path": "a.txt"}), &["--allow-delete"]);
    assert_eq!((code, &v["deleted"]), (0, &json!(true)), "{v}");
    assert!(!w.w("a.txt").exists());

    // Write-only: no read tools, and the schema lists write_file alone.
    let (code, v, _) = call("read_file", json!({"path": "a.txt"}), &[]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("OUT_OF_SANDBOX"))
    );
    let (code, v, err) = cli(&["schema", "--write-root", wr], false);
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["write_file", "create_directory", "move_file"]);
    // With a read root too: both, each confined to its own root.
    let (code, v, _) = call(
        "write_file",
        json!({"path": "w.txt", "content": "w"}),
        &["--root", rd],
    );
    assert_eq!(code, 0, "{v}");
    let (_, v, _) = call("read_file", json!({"path": "w.txt"}), &["--root", rd]);
    assert_eq!(v["error"]["code"], "NOT_FOUND", "{v}");
    let (_, v, _) = call("read_file", json!({"path": "r.txt"}), &["--root", rd]);
    assert_eq!(v["content"], "readable\n", "{v}");

    // Usage errors (exit 2): write flags without a write root, or next to --config.
    for bad in [
        vec!["call", "write_file", "{}", "--allow-overwrite"],
        vec!["call", "write_file", "{}", "--allow-delete"],
        vec!["call", "write_file", "{}", "--max-write-bytes", "5"],
        vec![
            "call",
            "write_file",
            "{}",
            "--write-root",
            wr,
            "--config",
            "x.toml",
        ],
        vec!["call", "write_file", "{}"],
    ] {
        let (code, _, err) = cli(&bad, false);
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    // A write root that does not exist fails loudly.
    let missing = w.base.join("nope");
    let (code, _, err) = cli(
        &[
            "call",
            "write_file",
            "{}",
            "--write-root",
            missing.to_str().unwrap(),
        ],
        false,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("write root"), "{err}");
}

/// `rootbound mcp ARGS`, initialized, on the shared stdio client.
struct Mcp(support::mcp::Mcp);

impl Mcp {
    fn start(args: &[&str]) -> Mcp {
        let mut cmd = Command::new(BIN);
        cmd.arg("mcp").args(args).env_remove("ROOTBOUND_LOG");
        let mut m = support::mcp::Mcp::spawn(cmd);
        let init = m.initialize("write-test");
        assert_eq!(init["result"]["serverInfo"]["name"], "rootbound", "{init}");
        Mcp(m)
    }

    fn rpc(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.0.request(id, method, params);
        self.0.response(id)
    }

    fn tools(&mut self, id: u64) -> Vec<Value> {
        self.rpc(id, "tools/list", json!({}))["result"]["tools"]
            .as_array()
            .unwrap()
            .clone()
    }

    fn finish(self) {
        let exit = self.0.finish(Duration::from_secs(10));
        assert!(exit.status.is_some(), "the server did not exit");
    }
}

fn names(tools: &[Value]) -> Vec<&str> {
    tools.iter().map(|t| t["name"].as_str().unwrap()).collect()
}

#[test]
fn mcp_lists_write_tools_with_annotations() {
    let w = World::new();
    let wr = w.write.to_str().unwrap();
    let rd = w.read.to_str().unwrap();

    // Write-only, create-only: write_file alone, not read-only, not destructive; no delete_file.
    let mut m = Mcp::start(&["--write-root", wr]);
    let tools = m.tools(2);
    assert_eq!(
        names(&tools),
        ["write_file", "create_directory", "move_file"]
    );
    assert_eq!(tools[0]["annotations"]["readOnlyHint"], false, "{tools:?}");
    assert_eq!(tools[0]["annotations"]["destructiveHint"], false);
    assert_eq!(tools[0]["annotations"]["openWorldHint"], false);
    let mut required: Vec<&str> = tools[0]["inputSchema"]["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    required.sort();
    assert_eq!(required, ["content", "path"]);
    let r = m.rpc(
        3,
        "tools/call",
        json!({"name": "write_file", "arguments": {"path": "m/new.txt", "content": "over mcp"}}),
    );
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert_eq!(r["result"]["structuredContent"]["created"], true, "{r}");
    assert_eq!(w.content("m/new.txt"), "over mcp");
    let r = m.rpc(
        4,
        "tools/call",
        json!({"name": "write_file", "arguments": {"path": "../outside/x.txt", "content": "x"}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("OUT_OF_SANDBOX"),
        "{r}"
    );
    assert!(!w.outside.join("x.txt").exists());
    let r = m.rpc(
        5,
        "tools/call",
        json!({"name": "delete_file", "arguments": {"path": "m/new.txt"}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    m.finish();
    assert!(w.w("m/new.txt").exists());

    // Read root, write root, overwrite and delete allowed: read tools read-only; write_file destructive
    // (it may replace content); delete_file destructive.
    let mut m = Mcp::start(&[
        "--root",
        rd,
        "--write-root",
        wr,
        "--allow-delete",
        "--allow-overwrite",
    ]);
    let tools = m.tools(2);
    assert_eq!(
        names(&tools),
        [
            "read_file",
            "grep_search",
            "glob",
            "list_dir",
            "stat",
            "read_many_files",
            "directory_tree",
            "list_roots",
            "read_media_file",
            "write_file",
            "create_directory",
            "move_file",
            "delete_file"
        ]
    );
    for t in &tools[..9] {
        assert_eq!(t["annotations"]["readOnlyHint"], true, "{t}");
    }
    // write_file, move_file (they may replace with overwrite allowed) and delete_file destroy;
    // create_directory only adds.
    for (i, destructive) in [(9, true), (10, false), (11, true), (12, true)] {
        assert_eq!(
            tools[i]["annotations"]["readOnlyHint"], false,
            "{}",
            tools[i]
        );
        assert_eq!(
            tools[i]["annotations"]["destructiveHint"], destructive,
            "{}",
            tools[i]
        );
    }
    let r = m.rpc(
        3,
        "tools/call",
        json!({"name": "delete_file", "arguments": {"path": "m/new.txt"}}),
    );
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert!(!w.w("m/new.txt").exists());
    m.finish();

    // Delete only: delete_file destructive, write_file (create-only) not.
    let mut m = Mcp::start(&["--write-root", wr, "--allow-delete"]);
    let tools = m.tools(2);
    assert_eq!(
        names(&tools),
        ["write_file", "create_directory", "move_file", "delete_file"]
    );
    assert_eq!(tools[0]["annotations"]["destructiveHint"], false);
    assert_eq!(tools[2]["annotations"]["destructiveHint"], false);
    assert_eq!(tools[3]["annotations"]["destructiveHint"], true);
    m.finish();
}

/// A known tool that the policy does not permit (`delete_file` without `allow_delete`,
/// `write_file` / `delete_file` without a write root) is `DENIED` on every surface, as
/// docs/capabilities.md says; an unknown tool name stays `INVALID_ARGUMENT`.
#[test]
fn a_known_tool_the_policy_does_not_permit_is_denied() {
    let _g = shared();
    let w = World::new();
    w.file("keep.txt", "k");
    let wr = w.write.to_str().unwrap();
    let rd = w.read.to_str().unwrap();

    // The library router, on a Sandbox and on AgentTools built from it.
    let no_delete = w.sandbox(|_| {});
    let read_only = Sandbox::builder().root(&w.read).build().unwrap();
    for (sb, tool, args, what) in [
        (
            &no_delete,
            "delete_file",
            json!({"path": "keep.txt"}),
            "no allow_delete",
        ),
        (
            &read_only,
            "write_file",
            json!({"path": "n.txt", "content": "x"}),
            "no write root",
        ),
        (
            &read_only,
            "delete_file",
            json!({"path": "keep.txt"}),
            "no write root",
        ),
    ] {
        let r = sb.call(tool, args.clone());
        assert_eq!(r["error"]["code"], "DENIED", "{tool} ({what}): {r}");
        let e = sb.call_result(tool, args).unwrap_err();
        assert_eq!(e.code, ErrorCode::Denied, "{tool} ({what}): {e}");
    }
    assert_eq!(
        no_delete.call("no_such_tool", json!({}))["error"]["code"],
        "INVALID_ARGUMENT"
    );
    let tools = rootbound::config::AgentTools::from_sandbox(w.sandbox(|_| {}));
    let r = tools.call("delete_file", json!({"path": "keep.txt"}));
    assert_eq!(r["error"]["code"], "DENIED", "{r}");
    assert_eq!(
        tools.call("no_such_tool", json!({}))["error"]["code"],
        "INVALID_ARGUMENT"
    );
    assert!(w.w("keep.txt").exists());

    // The CLI: a tool error (exit 1) with the DENIED JSON.
    for (tool, a, flags) in [
        (
            "delete_file",
            r#"{"path":"keep.txt"}"#,
            vec!["--write-root", wr],
        ),
        (
            "write_file",
            r#"{"path":"n.txt","content":"x"}"#,
            vec!["--root", rd],
        ),
        ("delete_file", r#"{"path":"r.txt"}"#, vec!["--root", rd]),
    ] {
        let mut argv = vec!["call", tool, a];
        argv.extend(flags.iter().copied());
        let (code, v, err) = cli(&argv, false);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("DENIED")),
            "{argv:?}: {v} {err}"
        );
    }
    let (code, v, _) = cli(&["call", "no_such_tool", "{}", "--root", rd], false);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("INVALID_ARGUMENT")),
        "{v}"
    );
    assert!(w.w("keep.txt").exists() && w.read.join("r.txt").exists());
    assert!(!w.read.join("n.txt").exists());

    // MCP: a tool error whose text starts with DENIED.
    let mut m = Mcp::start(&["--write-root", wr]);
    let r = m.rpc(
        2,
        "tools/call",
        json!({"name": "delete_file", "arguments": {"path": "keep.txt"}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("DENIED: "),
        "{r}"
    );
    assert_eq!(r["result"]["structuredContent"]["error"]["code"], "DENIED");
    m.finish();
    let mut m = Mcp::start(&["--root", rd]);
    let r = m.rpc(
        2,
        "tools/call",
        json!({"name": "write_file", "arguments": {"path": "n.txt", "content": "x"}}),
    );
    assert_eq!(
        r["result"]["structuredContent"]["error"]["code"], "DENIED",
        "{r}"
    );
    m.finish();
    assert!(w.w("keep.txt").exists());
    assert!(!w.read.join("n.txt").exists());
}
