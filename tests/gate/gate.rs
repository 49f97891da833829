//! One admission gate. Each test here reproduces a defect found on the layout before
//! the gate (deny rules, hard links and identity checked by read_file alone) and fails without it.
//!
//! Real temp trees; every sandbox is built from a `Policy` so the cases read like operator configs.

use rootbound::{
    DeleteArgs, ErrorCode, GlobArgs, GrepArgs, ListArgs, PathDisplay, Policy, ReadArgs, RootSpec,
    Sandbox, StatArgs, WriteArgs, WritePolicy,
};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

struct Tree {
    _tmp: tempfile::TempDir,
    base: PathBuf,
}

impl Tree {
    fn new() -> Tree {
        let tmp = tempfile::Builder::new()
            .prefix("rootbound-gate-")
            .tempdir()
            .unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        Tree { _tmp: tmp, base }
    }

    fn file(&self, rel: impl AsRef<Path>, content: &str) -> &Self {
        let p = self.base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
        self
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }
}

fn root(p: PathBuf) -> RootSpec {
    RootSpec {
        name: String::new(),
        path: p,
    }
}

fn named(name: &str, p: PathBuf) -> RootSpec {
    RootSpec {
        name: name.into(),
        path: p,
    }
}

fn sandbox(roots: Vec<RootSpec>, deny: &[&str]) -> Policy {
    Policy {
        roots,
        deny: deny.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

fn grep_all(sb: &Sandbox, pattern: &str) -> rootbound::GrepResult {
    sb.grep_search(&{
        let mut args_ = GrepArgs::new(pattern);
        args_.hidden = Some(true);
        args_.no_ignore = Some(true);
        args_.limit = Some(100);
        args_
    })
    .unwrap()
}

fn glob_all(sb: &Sandbox) -> rootbound::GrepResult {
    sb.glob(&{
        let mut args_ = GlobArgs::default();
        args_.pattern = "**".into();
        args_.hidden = Some(true);
        args_.no_ignore = Some(true);
        args_.limit = Some(100);
        args_
    })
    .unwrap()
}

fn list(sb: &Sandbox, path: &str) -> rootbound::ListResult {
    sb.list_dir(&{
        let mut args_ = ListArgs::default();
        args_.path = Some(path.into());
        args_.hidden = Some(true);
        args_.no_ignore = Some(true);
        args_
    })
    .unwrap()
}

fn code<T: std::fmt::Debug>(r: rootbound::Result<T>) -> ErrorCode {
    r.unwrap_err().code
}

/// `refuse_hardlinks` holds for grep, glob and list_dir, not only read_file.
#[test]
fn hard_links_are_refused_by_every_tool() {
    let t = Tree::new();
    t.file("out/secret", "SECRET hardlinked\n")
        .file("r/plain.txt", "plain\n");
    std::fs::hard_link(t.path("out/secret"), t.path("r/hl")).unwrap();
    let mut p = sandbox(vec![root(t.path("r"))], &[]);
    p.refuse_hardlinks = true;
    let sb = Sandbox::new(p).unwrap();
    assert_eq!(code(sb.read_file(&ReadArgs::path("hl"))), ErrorCode::Denied);
    let g = grep_all(&sb, "SECRET");
    assert_eq!(g.match_lines, 0, "{g:?}");
    assert!(!g.matches.contains("SECRET"));
    assert_eq!(g.stats.skipped.denied, 1, "refused by policy, and counted");
    let g = glob_all(&sb);
    assert!(!g.matches.contains("hl"), "{}", g.matches);
    assert!(g.matches.contains("plain.txt"));
    let l = list(&sb, ".");
    assert!(l.entries.iter().all(|e| e.name != "hl"), "{l:?}");
    // A search naming the file itself is refused too.
    let e = sb.grep_search(&{
        let mut args_ = GrepArgs::new("SECRET");
        args_.path = Some("hl".into());
        args_
    });
    assert_eq!(code(e), ErrorCode::Denied);
}

/// A root nested in another cannot bypass the outer root's rules, anchored or not.
#[test]
fn nested_roots_keep_every_roots_deny_rules() {
    for rule in ["cfg/", "/cfg/prod.key", "cfg/*.key"] {
        let t = Tree::new();
        t.file("R/cfg/prod.key", "KEY material\n")
            .file("R/readme.txt", "KEY is documented here\n");
        let p = sandbox(vec![root(t.path("R")), root(t.path("R/cfg"))], &[rule]);
        let sb = Sandbox::new(p).unwrap();
        assert_eq!(
            code(sb.read_file(&ReadArgs::path("prod.key"))),
            ErrorCode::Denied,
            "rule {rule}"
        );
        let abs = t.path("R/cfg/prod.key");
        assert_eq!(
            code(sb.read_file(&ReadArgs::path(abs.to_str().unwrap()))),
            ErrorCode::Denied,
            "rule {rule}"
        );
        assert_eq!(
            code(sb.stat(&{
                let mut args_ = StatArgs::default();
                args_.path = "cfg/prod.key".into();
                args_
            })),
            ErrorCode::Denied
        );
        let g = grep_all(&sb, "KEY");
        assert_eq!(g.match_lines, 1, "rule {rule}: {}", g.matches);
        assert!(g.matches.contains("readme.txt"));
        assert!(!glob_all(&sb).matches.contains("prod.key"), "rule {rule}");
    }
}

/// The other way round: a rule anchored in the inner root holds when the object is reached
/// through the outer root.
#[test]
fn inner_roots_rules_hold_through_the_outer_root() {
    let t = Tree::new();
    t.file("R/cfg/prod.key", "KEY\n")
        .file("R/prod.key", "fine\n");
    let p = sandbox(
        vec![root(t.path("R")), root(t.path("R/cfg"))],
        &["/prod.key"],
    );
    let sb = Sandbox::new(p).unwrap();
    // `/prod.key` relative to either root: both files are denied.
    assert_eq!(
        code(sb.read_file(&ReadArgs::path("cfg/prod.key"))),
        ErrorCode::Denied
    );
    assert_eq!(
        code(sb.read_file(&ReadArgs::path("prod.key"))),
        ErrorCode::Denied
    );
}

fn writer(t: &Tree, write_root: &str, deny: &[&str]) -> Sandbox {
    let mut p = sandbox(vec![root(t.path("repo"))], deny);
    let mut w = WritePolicy::new(t.path(write_root));
    w.allow_overwrite = true;
    w.allow_delete = true;
    p.write = Some(w);
    Sandbox::new(p).unwrap()
}

/// A write root inside a read root obeys the read root's rules, for writes and deletes.
#[test]
fn write_root_inside_a_read_root_obeys_its_rules() {
    let t = Tree::new();
    t.file("repo/sub/locked.txt", "keep me\n")
        .file("repo/sub/run.sh", "echo hi\n")
        .file("repo/.git/hooks/README", "hooks\n");
    let sb = writer(&t, "repo/sub", &["/sub/locked.txt", "sub/*.sh"]);
    let w = sb.write_file(&{
        let mut args_ = WriteArgs::default();
        args_.path = "locked.txt".into();
        args_.content = "pwned".into();
        args_.overwrite = Some(true);
        args_
    });
    assert_eq!(code(w), ErrorCode::Denied);
    assert_eq!(
        std::fs::read_to_string(t.path("repo/sub/locked.txt")).unwrap(),
        "keep me\n"
    );
    let d = sb.delete_file(&{
        let mut args_ = DeleteArgs::default();
        args_.path = "run.sh".into();
        args_
    });
    assert_eq!(code(d), ErrorCode::Denied);
    assert!(t.path("repo/sub/run.sh").exists());
    // A new file the rules do not name is fine.
    sb.write_file(&{
        let mut args_ = WriteArgs::default();
        args_.path = "new.txt".into();
        args_.content = "ok".into();
        args_
    })
    .unwrap();

    let sb = writer(&t, "repo/.git", &[".git/"]);
    let w = sb.write_file(&{
        let mut args_ = WriteArgs::default();
        args_.path = "hooks/pre-commit".into();
        args_.content = "#!/bin/sh\nevil\n".into();
        args_
    });
    assert_eq!(code(w), ErrorCode::Denied);
    assert!(!t.path("repo/.git/hooks/pre-commit").exists());
}

/// Denied objects are indistinguishable from absent ones in every result field.
#[test]
fn denied_objects_leave_no_trace_in_results() {
    let results = |with_env: bool| {
        let t = Tree::new();
        t.file("a.txt", "needle\n").file("sub/b.txt", "needle\n");
        if with_env {
            t.file(".env", "needle SECRET\n")
                .file("sub/.env", "x\n")
                .file("keys/k.pem", "needle\n");
        }
        let p = sandbox(vec![root(t.base.clone())], &[".env", "keys/"]);
        let sb = Sandbox::new(p).unwrap();
        let mut g = grep_all(&sb, "needle");
        g.matches = g.matches.replace(t.base.to_str().unwrap(), "ROOT");
        let mut gl = glob_all(&sb);
        gl.matches = gl.matches.replace(t.base.to_str().unwrap(), "ROOT");
        let mut l = list(&sb, ".");
        l.path = String::new();
        let ls = list(&sb, "sub");
        let errs = [".env", "keys/k.pem", "sub/.env"]
            .map(|p| sb.read_file(&ReadArgs::path(p)).unwrap_err().code);
        (
            g,
            gl,
            l.entries.len(),
            l.total,
            l.hidden,
            l.ignored,
            ls.total,
            errs,
        )
    };
    let (with, without) = (results(true), results(false));
    assert_eq!(format!("{with:?}"), format!("{without:?}"));
}

/// A path searched by grep is the object admitted, even when renames race the call.
#[test]
fn grep_with_a_path_searches_the_admitted_object() {
    let t = Tree::new();
    t.file("r/t.txt", "plain\n").file("out/secret", "SECRET\n");
    std::fs::hard_link(t.path("out/secret"), t.path("r/hl")).unwrap();
    let mut p = sandbox(vec![root(t.path("r"))], &[]);
    p.refuse_hardlinks = true;
    let sb = Sandbox::new(p).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut leaked = None;
    std::thread::scope(|s| {
        s.spawn(|| {
            // Swap the admitted name for the refused hard link and back, as fast as possible.
            let (a, b, tmp) = (t.path("r/t.txt"), t.path("r/hl"), t.path("r/tmp"));
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::rename(&a, &tmp);
                let _ = std::fs::rename(&b, &a);
                let _ = std::fs::rename(&a, &b);
                let _ = std::fs::rename(&tmp, &a);
            }
        });
        let end = Instant::now() + Duration::from_secs(3);
        let mut n = 0;
        // Leaks are collected, not asserted here: a panic inside the scope would wait forever for
        // the renaming thread.
        while Instant::now() < end && leaked.is_none() {
            for args in [
                {
                    let mut args_ = GrepArgs::new("SECRET");
                    args_.path = Some("t.txt".into());
                    args_
                },
                {
                    let mut args_ = GrepArgs::new("SECRET");
                    args_.path = Some(".".into());
                    args_
                },
            ] {
                if let Ok(r) = sb.grep_search(&args) {
                    if r.matches.contains("SECRET") {
                        leaked = Some(format!("grep after {n} calls: {r:?}"));
                    }
                }
                n += 1;
            }
            if let Ok(r) = sb.read_file(&ReadArgs::path("t.txt")) {
                if r.content.contains("SECRET") {
                    leaked = Some(format!("read_file after {n} calls"));
                }
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(leaked, None);
}

/// `.git/info/exclude` applies during a walk, and list_dir shows what the walker searches.
#[test]
fn git_exclude_and_whitelists_apply_everywhere() {
    let t = Tree::new();
    std::fs::create_dir_all(t.path(".git/info")).unwrap();
    t.file(".git/info/exclude", "secret.log\n")
        .file("secret.log", "needle excluded\n")
        .file("kept.txt", "needle kept\n")
        .file(".ignore", "!.keep\n")
        .file(".keep", "needle whitelisted\n");
    let sb = Sandbox::new(sandbox(vec![root(t.base.clone())], &[])).unwrap();
    let g = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.limit = Some(100);
            args_
        })
        .unwrap();
    assert!(!g.matches.contains("secret.log"), "{}", g.matches);
    assert!(g.matches.contains(".keep"), "{}", g.matches);
    if crate::support::rg::have_rg() {
        let files = crate::support::rg::rg_files(&t.base, &[]);
        assert_eq!(files, ".keep\nkept.txt\n", "ripgrep agrees");
    }
    let l = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_
        })
        .unwrap();
    let names: Vec<&str> = l.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, [".keep", "kept.txt"], "{l:?}");
}

/// With several roots, a relative displayed path names its own root's file.
#[test]
fn relative_paths_name_their_root() {
    let t = Tree::new();
    t.file("one/a.txt", "needle one\n")
        .file("two/a.txt", "needle two\n");
    let mut p = sandbox(
        vec![named("one", t.path("one")), named("two", t.path("two"))],
        &[],
    );
    p.path_display = PathDisplay::Relative;
    let sb = Sandbox::new(p).unwrap();
    let g = grep_all(&sb, "needle");
    let lines: Vec<&str> = g.matches.lines().collect();
    assert_eq!(lines, ["one:a.txt:1:needle one", "two:a.txt:1:needle two"]);
    for (shown, want) in [("one:a.txt", "needle one\n"), ("two:a.txt", "needle two\n")] {
        assert_eq!(sb.read_file(&ReadArgs::path(shown)).unwrap().content, want);
    }
    let globbed = glob_all(&sb);
    for shown in globbed.matches.lines() {
        let r = sb.read_file(&ReadArgs::path(shown)).unwrap();
        assert_eq!(r.path, shown, "a displayed path reads back as itself");
    }
    // The roots listed by list_dir can be listed in turn.
    let roots = sb.list_dir(&ListArgs::default()).unwrap();
    for e in &roots.entries {
        assert_eq!(list(&sb, &e.name).total, 1, "{e:?}");
    }
}

fn odd_tree() -> (Tree, Vec<&'static [u8]>) {
    let t = Tree::new();
    let names: Vec<&'static [u8]> = vec![
        b"bad\xff.txt",
        "bad\u{fffd}.txt".as_bytes(),
        b"x\n/etc/shadow:1:root:$6$forged",
        b"tab\there",
        b"back\\slash",
        b"esc\x1b[31mred",
    ];
    for (i, n) in names.iter().enumerate() {
        let p = t.base.join(OsStr::from_bytes(n));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, format!("needle {i}\n")).unwrap();
    }
    (t, names)
}

/// Items 8 and 9: odd names are shown escaped, one result per line, distinct, and each shown path
/// reads back the file it names.
#[test]
fn odd_names_are_escaped_and_read_back() {
    let (t, names) = odd_tree();
    for display in [PathDisplay::Absolute, PathDisplay::Relative] {
        let mut p = sandbox(vec![root(t.base.clone())], &[]);
        p.path_display = display;
        let sb = Sandbox::new(p).unwrap();
        let g = grep_all(&sb, "needle");
        assert_eq!(g.match_lines as usize, names.len());
        let lines: Vec<&str> = g.matches.lines().collect();
        assert_eq!(
            lines.len(),
            names.len(),
            "one result, one line: {}",
            g.matches
        );
        assert!(lines.iter().all(|l| !l.starts_with("/etc/shadow")));
        for line in &lines {
            let (path, rest) = line.rsplit_once(":1:").unwrap();
            let n: usize = rest.strip_prefix("needle ").unwrap().parse().unwrap();
            let r = sb.read_file(&ReadArgs::path(path)).unwrap();
            assert_eq!(r.content, format!("needle {n}\n"), "{path}");
            assert!(!path.contains('\u{fffd}') || n == 1, "{path}");
        }
        let gl = glob_all(&sb);
        let shown: Vec<&str> = gl.matches.lines().collect();
        assert_eq!(shown.len(), names.len(), "{}", gl.matches);
        let mut distinct = shown.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), shown.len());
        for s in &shown {
            assert!(
                sb.stat(&{
                    let mut args_ = StatArgs::default();
                    args_.path = s.to_string();
                    args_
                })
                .is_ok(),
                "{s}"
            );
        }
        let l = list(&sb, ".");
        assert_eq!(l.entries.len(), names.len());
        for e in &l.entries {
            assert!(!e.name.chars().any(char::is_control), "{:?}", e.name);
            if e.kind == "dir" {
                // `x\n`, holding `etc/shadow:1:...`: listed, and listable by its shown name.
                assert_eq!(e.name, "x\\n");
                assert_eq!(list(&sb, &e.name).total, 1);
                continue;
            }
            let r = sb.read_file(&ReadArgs::path(&e.name)).unwrap();
            assert!(r.content.starts_with("needle "));
        }
    }
}

/// A walk through many empty directories, and a listing of a huge directory, are bounded
/// by the call's time budget: the deadline is checked per entry, not per file found. The budget is
/// spent before the calls start, so whether they stop does not depend on how many directories a
/// machine reads in a millisecond (a walk deals with one entry before it honours the deadline, so
/// it stops at the second of the 3,000).
#[test]
fn walks_and_listings_without_files_are_bounded() {
    let t = Tree::new();
    for i in 0..3_000 {
        std::fs::create_dir(t.base.join(format!("d{i:05}"))).unwrap();
    }
    let mut p = sandbox(vec![root(t.base.clone())], &[]);
    p.limits.timeout_ms = 0;
    let sb = Sandbox::new(p).unwrap();
    let start = Instant::now();
    let g = sb
        .glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "*.rs".into();
            args_
        })
        .unwrap();
    assert!(g.timed_out && g.truncated, "{g:?}");
    crate::support::time::assert_prompt(start.elapsed(), "a glob with its budget spent");
    let g = sb.grep_search(&GrepArgs::new("x")).unwrap();
    assert!(g.timed_out && g.truncated, "{g:?}");
    // A listing filters names without metadata (only the page is stat'ed).
    let l = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_.limit = Some(1);
            args_
        })
        .unwrap();
    assert!(l.timed_out && l.truncated, "{l:?}");
    assert!(l.entries.len() <= 1);
}

/// Found by tests/gate/policy_props.rs: list_dir of a refused hard link, or of a symlink alias to a denied
/// file, answered NOT_A_FILE (the kernel's ENOTDIR came before the gate), where every other tool
/// answers DENIED.
#[test]
fn list_dir_of_a_refused_or_denied_non_directory_is_denied() {
    let t = Tree::new();
    t.file("out/secret", "SECRET\n")
        .file("r/.env", "KEY\n")
        .file("r/a.txt", "a\n");
    std::fs::hard_link(t.path("out/secret"), t.path("r/hl")).unwrap();
    std::os::unix::fs::symlink(".env", t.path("r/alias")).unwrap();
    let mut p = sandbox(vec![root(t.path("r"))], &[".env"]);
    p.refuse_hardlinks = true;
    let sb = Sandbox::new(p).unwrap();
    for path in ["hl", "alias", ".env"] {
        assert_eq!(
            code(sb.read_file(&ReadArgs::path(path))),
            ErrorCode::Denied,
            "{path}"
        );
        assert_eq!(code(list_any(&sb, path)), ErrorCode::Denied, "{path}");
    }
    // An admitted file is still not a directory, and a file used as a directory is no object.
    assert_eq!(code(list_any(&sb, "a.txt")), ErrorCode::NotAFile);
    assert_eq!(code(list_any(&sb, "a.txt/x")), ErrorCode::NotAFile);
}

fn list_any(sb: &Sandbox, path: &str) -> rootbound::Result<rootbound::ListResult> {
    sb.list_dir(&{
        let mut args_ = ListArgs::default();
        args_.path = Some(path.into());
        args_
    })
}

/// Found by tests/gate/policy_props.rs: a write through an in-root symlink made directories on its way to
/// a denied name (an anchored rule, which the lexical check cannot apply through the link), and only
/// then answered DENIED.
#[test]
fn a_denied_write_through_a_symlink_makes_no_directory() {
    // The directory to be made is denied itself (`src/x.env`), or the file in it is (`new/x.env`).
    for (rule, link_to, path, made) in [
        ("src/*.env", "src", "l/x.env/new.txt", "repo/src/x.env"),
        ("new/*.env", ".", "l/new/x.env", "repo/new"),
    ] {
        let t = Tree::new();
        t.file("repo/src/main.rs", "fn main() {}\n");
        std::os::unix::fs::symlink(link_to, t.path("repo/l")).unwrap();
        let sb = writer(&t, "repo", &[rule]);
        let w = sb.write_file(&{
            let mut args_ = WriteArgs::default();
            args_.path = path.into();
            args_.content = "x".into();
            args_
        });
        assert_eq!(code(w), ErrorCode::Denied, "{rule} {path}");
        assert!(!t.path(made).exists(), "{rule} {path}: {made} was made");
        // Spelled without the link, the lexical check refuses it before any I/O, as before.
        let direct = path.replacen("l/", if link_to == "." { "" } else { "src/" }, 1);
        let w = sb.write_file(&{
            let mut args_ = WriteArgs::default();
            args_.path = direct.clone();
            args_.content = "x".into();
            args_
        });
        assert_eq!(code(w), ErrorCode::Denied, "{rule} {direct}");
        // A name the rule does not cover is still written through the link.
        sb.write_file(&{
            let mut args_ = WriteArgs::default();
            args_.path = "l/ok/new.txt".into();
            args_.content = "x".into();
            args_
        })
        .unwrap();
    }
}

/// Items 13 and 14: a walk the deadline cuts in directories without files resumes after the last
/// entry it looked at, so paging by cursor through them advances and ends.
#[test]
fn timed_out_walks_resume_and_advance() {
    let t = Tree::new();
    for i in 0..3_000 {
        std::fs::create_dir(t.base.join(format!("d{i:05}"))).unwrap();
    }
    t.file("d02999/x.rs", "needle\n");
    let mut p = sandbox(vec![root(t.base.clone())], &[]);
    p.limits.timeout_ms = 5;
    let sb = Sandbox::new(p).unwrap();
    for tool in ["glob", "grep_search"] {
        let mut cursor: Option<String> = None;
        let mut found = String::new();
        let mut calls = 0;
        loop {
            calls += 1;
            assert!(calls < 3_000, "{tool}: no end after {calls} calls");
            let mut args = match tool {
                "glob" => serde_json::json!({"pattern": "*.rs"}),
                _ => serde_json::json!({"pattern": "needle"}),
            };
            if let Some(c) = &cursor {
                args["cursor"] = c.clone().into();
            }
            let r = sb.call(tool, args);
            assert!(r.get("error").is_none(), "{r}");
            found.push_str(r["matches"].as_str().unwrap());
            if r["truncated"] == false {
                break;
            }
            let next = r["next_cursor"]
                .as_str()
                .expect("a truncated page has a cursor");
            cursor = Some(next.to_string());
        }
        assert!(
            found.contains("x.rs"),
            "{tool} after {calls} calls: {found}"
        );
        assert_eq!(found.matches("x.rs").count(), 1, "{tool}: {found}");
    }
}

/// Pages cut by a tiny time budget, walked by cursor, together hold every result exactly once, in
/// order: no file found by the walk but not yet searched when the deadline passed is passed over,
/// and every call advances, however slow the machine.
#[test]
fn pages_cut_by_the_deadline_lose_no_file_and_always_advance() {
    let t = Tree::new();
    let mut want = Vec::new();
    for d in 0..30 {
        for f in 0..40 {
            let rel = format!("d{d:02}/f{f:02}.txt");
            t.file(&rel, "needle\n");
            want.push(rel);
        }
    }
    want.sort();
    let mut p = sandbox(vec![root(t.base.clone())], &[]);
    p.limits.timeout_ms = 20;
    let sb = Sandbox::new(p).unwrap();
    let runs = [1, 2, 4, 8, 15].into_iter().flat_map(|ms| {
        ["glob", "files_with_matches", "content", "count"].map(move |mode| (ms, mode))
    });
    for (ms, mode) in runs {
        let tool = if mode == "glob" {
            "glob"
        } else {
            "grep_search"
        };
        let mut cursor: Option<String> = None;
        let mut found = Vec::new();
        let mut calls = 0;
        loop {
            calls += 1;
            // Each call takes at least one file or entry: 1,200 files in 30 directories.
            assert!(calls <= 1_300, "{tool}: no end after {calls} calls");
            let mut args = match tool {
                "glob" => serde_json::json!({"pattern": "*.txt", "limit": 50, "timeout_ms": ms}),
                _ => serde_json::json!({"pattern": "needle", "limit": 50, "output_mode": mode,
                                        "timeout_ms": ms}),
            };
            if let Some(c) = &cursor {
                args["cursor"] = c.clone().into();
            }
            let r = sb.call(tool, args);
            assert!(r.get("error").is_none(), "{r}");
            for l in r["matches"].as_str().unwrap().lines() {
                let base = t.base.to_str().unwrap();
                let l = l.strip_suffix(":1:needle").unwrap_or(l);
                let l = l.strip_suffix(":1").unwrap_or(l);
                found.push(
                    l.strip_prefix(base)
                        .unwrap()
                        .trim_start_matches('/')
                        .to_string(),
                );
            }
            if r["truncated"] == false {
                break;
            }
            cursor = Some(r["next_cursor"].as_str().expect("a cursor").to_string());
        }
        let missing: Vec<_> = want.iter().filter(|w| !found.contains(w)).collect();
        assert!(
            missing.is_empty(),
            "{mode} in {ms} ms: {calls} calls lost {missing:?}"
        );
        assert_eq!(
            found.len(),
            want.len(),
            "{mode} in {ms} ms: repeated results"
        );
        assert!(found.is_sorted(), "{mode} in {ms} ms: out of order");
    }
}

/// A denied `.git` (or ignore file) is never consulted: its rules and its mere presence (which
/// switches `.gitignore` on) change no result.
#[test]
fn denied_ignore_files_are_not_consulted() {
    let results = |with_git: bool| {
        let t = Tree::new();
        t.file("leak_1", "content\n")
            .file("other", "content\n")
            .file(".gitignore", "other\n")
            .file("sub/.ignore.pem", "x\n");
        if with_git {
            t.file(".git/info/exclude", "leak_*\n");
        }
        let p = sandbox(vec![root(t.base.clone())], &[".git/", ".gitignore"]);
        let sb = Sandbox::new(p).unwrap();
        let mut g = grep_all(&sb, "content");
        g.matches = g.matches.replace(t.base.to_str().unwrap(), "ROOT");
        let l = sb.list_dir(&ListArgs::default()).unwrap();
        let tree = sb.directory_tree(&rootbound::TreeArgs::default()).unwrap();
        (g, l.total, l.ignored, tree.entries, tree.omitted)
    };
    let (with, without) = (results(true), results(false));
    assert_eq!(format!("{with:?}"), format!("{without:?}"));
    assert_eq!(with.0.match_lines, 2, "{:?}", with.0);
}
