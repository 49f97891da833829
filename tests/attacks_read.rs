//! docs/ATTACKS.md classes 1–18, 20, 22, 26, 27 against read_file, stat and list_dir, on real trees.
//!
//! The escape tables run three times: with openat2 (`escape_suite_openat2`), with the portable resolver
//! selected by `force_portable_resolver(true)` (`escape_suite_portable`; note that on Linux ≥ 5.6
//! cap-std itself still uses openat2 underneath), and in a child process whose seccomp filter makes
//! openat2 fail with ENOSYS (`escape_suite_without_openat2`), which forces both our fallback and
//! cap-std's component-by-component resolver. Class 19 (races) is in `race_read.rs`.
//!
//! Every expectation is an `ErrorCode` (and, through `Sandbox::call`, the JSON `code` string); messages
//! are only checked for what they must not contain: outside bytes or host paths the agent did not give.

mod support;

use rootbound::{ErrorCode, ListArgs, ReadArgs, RootMode, Sandbox, StatArgs, SymlinkMode};
use serde_json::{json, Value};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::read::*;

// ---------------------------------------------------------------------------------------------------
// Expectations and the table runner
// ---------------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Want {
    /// read_file returns exactly this text; stat says `file`; list_dir says NOT_A_FILE.
    Text(&'static str),
    /// A directory: read_file NOT_A_FILE; stat `dir`; list_dir lists it (and shows this name).
    Dir(&'static str),
    /// Every tool fails with this code.
    Code(ErrorCode),
    /// Every tool fails with one of these codes.
    OneOf(&'static [ErrorCode]),
}

const OUT: Want = Want::Code(ErrorCode::OutOfSandbox);
const NOT_FOUND: Want = Want::Code(ErrorCode::NotFound);
const LOOP: Want = Want::Code(ErrorCode::SymlinkLoop);
const INVALID: Want = Want::Code(ErrorCode::InvalidArgument);
const DENIED: Want = Want::Code(ErrorCode::Denied);
const FILE_AS_DIR: Want = Want::OneOf(&[ErrorCode::NotAFile, ErrorCode::NotFound]);
const FILE_AS_DIR_OR_DENIED: Want =
    Want::OneOf(&[ErrorCode::Denied, ErrorCode::NotAFile, ErrorCode::NotFound]);

const ROOT_FILE: &str = "root file\n";
const SUB_FILE: &str = "sub file\n";

struct Case {
    class: u8,
    req: String,
    want: Want,
}

fn c(class: u8, req: impl Into<String>, want: Want) -> Case {
    Case {
        class,
        req: req.into(),
        want,
    }
}

/// Runs every case through read_file (typed and JSON), stat and list_dir; returns the mismatches.
fn run_table(w: &World, sb: &Sandbox, cases: &[Case], ctx: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for case in cases {
        let tag = format!("[{ctx}] class {} {:?}", case.class, case.req);
        check_read(w, sb, case, &tag, &mut bad);
        check_stat(w, sb, case, &tag, &mut bad);
        check_list(w, sb, case, &tag, &mut bad);
    }
    bad
}

fn code_ok(want: Want, got: ErrorCode) -> bool {
    match want {
        Want::Code(c) => c == got,
        Want::OneOf(cs) => cs.contains(&got),
        _ => false,
    }
}

fn check_read(w: &World, sb: &Sandbox, case: &Case, tag: &str, bad: &mut Vec<String>) {
    let typed = sb.read_file(&ReadArgs::path(&case.req));
    let js = sb.call("read_file", json!({ "path": case.req }));
    w.assert_no_canary(&js.to_string(), tag);
    match (&typed, json_code(&js)) {
        (Ok(r), None) => {
            assert_eq!(
                js["content"], r.content,
                "{tag}: call and read_file disagree"
            );
            assert!(
                sb.roots()
                    .iter()
                    .any(|(_, root)| r.path.starts_with(&root.display().to_string())),
                "{tag}: shown path {:?} is not under a root",
                r.path
            );
        }
        (Err(e), Some(code)) => {
            assert_eq!(code, e.code.as_str(), "{tag}: call and read_file disagree");
            w.assert_clean_error(e, &case.req, tag);
        }
        _ => bad.push(format!(
            "{tag}: read_file typed {typed:?} but call gave {js}"
        )),
    }
    let ok = match (case.want, &typed) {
        (Want::Text(t), Ok(r)) => r.content == t && !r.truncated,
        (Want::Dir(_), Err(e)) => e.code == ErrorCode::NotAFile,
        (want, Err(e)) => code_ok(want, e.code),
        _ => false,
    };
    if !ok {
        bad.push(format!(
            "{tag}: read_file wanted {:?}, got {}",
            case.want,
            brief(&typed.map(|r| r.content))
        ));
    }
}

fn check_stat(w: &World, sb: &Sandbox, case: &Case, tag: &str, bad: &mut Vec<String>) {
    let r = sb.stat(&{
        let mut args_ = StatArgs::default();
        args_.path = case.req.clone();
        args_
    });
    if let Err(e) = &r {
        w.assert_clean_error(e, &case.req, tag);
    }
    let ok = match (case.want, &r) {
        (Want::Text(t), Ok(s)) => s.kind == "file" && s.size == t.len() as u64,
        (Want::Dir(_), Ok(s)) => s.kind == "dir",
        (want, Err(e)) => code_ok(want, e.code),
        _ => false,
    };
    if !ok {
        bad.push(format!(
            "{tag}: stat wanted {:?}, got {}",
            case.want,
            brief(&r.map(|s| format!("{} {}", s.kind, s.size)))
        ));
    }
}

fn check_list(w: &World, sb: &Sandbox, case: &Case, tag: &str, bad: &mut Vec<String>) {
    let r = sb.list_dir(&{
        let mut args_ = ListArgs::default();
        args_.path = Some(case.req.clone());
        args_.hidden = Some(true);
        args_
    });
    match &r {
        Err(e) => w.assert_clean_error(e, &case.req, tag),
        Ok(l) => {
            for e in &l.entries {
                w.assert_no_canary(&e.name, tag);
            }
        }
    }
    let ok = match (case.want, &r) {
        (Want::Text(_), Err(e)) => e.code == ErrorCode::NotAFile,
        (Want::Dir(name), Ok(l)) => l.entries.iter().any(|e| e.name == name),
        (want, Err(e)) => code_ok(want, e.code),
        _ => false,
    };
    if !ok {
        bad.push(format!(
            "{tag}: list_dir wanted {:?}, got {}",
            case.want,
            brief(&r.map(|l| format!(
                "{:?}",
                l.entries.iter().map(|e| &e.name).collect::<Vec<_>>()
            )))
        ));
    }
}

fn brief<T: std::fmt::Debug>(r: &Result<T, rootbound::Error>) -> String {
    match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(e) => format!("Err({})", e.code),
    }
}

fn assert_table(w: &World, sb: &Sandbox, cases: &[Case], ctx: &str) {
    let bad = run_table(w, sb, cases, ctx);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------------
// The attack tree
// ---------------------------------------------------------------------------------------------------

/// Builds the shared tree: plain files, `..` fodder, and symlinks of every shape.
fn attack_world() -> World {
    let w = World::new();
    let root = w.root.display().to_string();
    let base = w.base.display().to_string();
    w.file("file.txt", ROOT_FILE)
        .file("sub/file", SUB_FILE)
        .file("sub/deep/x.txt", "deep\n")
        .file("a/b/leaf.txt", "leaf\n")
        // class 6: final component out
        .link("link_out", "../outside/secret.txt")
        .link("link_etc", "/etc/passwd")
        .link("link_abs_out", format!("{base}/outside/secret.txt"))
        .link("link_sibling", "../data_evil/x")
        .link("link_reenter", "../data/file.txt")
        .link("sub/deep_out", "../../outside/secret.txt")
        .link("sub/deep/far_out", "../../../outside/subdir/deep.txt")
        // class 7: intermediate component out
        .link("linkdir", "../outside")
        .link("sub/linkdir2", "../../outside")
        .link("linkdir_abs", format!("{base}/outside"))
        .link("linkdir_base", "..")
        // class 8: chains
        .link("ch_a", "ch_b")
        .link("ch_b", "sub/../ch_c")
        .link("ch_c", "../outside/x")
        .link("chd_a", "chd_b")
        .link("chd_b", "sub/../chd_c")
        .link("chd_c", "../outside")
        .link("ci_a", "ci_b")
        .link("ci_b", "sub/../ci_c")
        .link("ci_c", "sub/file")
        .link("sub/mix", "../ci_a")
        // class 9: inside to inside
        .link("in_link", "sub/file")
        .link("in_dirlink", "sub")
        .link("sub/up_link", "../file.txt")
        .link("sub/deep/up2", "../../a/b/leaf.txt")
        .link("sub/reenter_in", "../../data/sub/file")
        // class 10: absolute pointing inside
        .link("abs_in", format!("{root}/sub/file"))
        .link("abs_in_dir", format!("{root}/sub"))
        // class 11: loops
        .link("loop_a", "loop_b")
        .link("loop_b", "loop_a")
        .link("self_loop", "self_loop")
        .link("loopdir", "loopdir")
        .link("sub/loop_up", "../sub/loop_up");
    // class 11: a chain longer than any resolver's budget (40)
    for i in 0..45 {
        w.link(&format!("ln{i}"), format!("ln{}", i + 1));
    }
    w.link("ln45", "file.txt");
    // class 12: dangling
    w.link("dangling", "missing")
        .link("dangling_dir", "missingdir")
        .link("dangling_out", "../outside/missing")
        .link("dangling_abs", "/nonexistent-rootbound-target")
        // class 13: magic links reached through symlinks
        .link("proc_root", "/proc/self/root/etc/passwd")
        .link("proc_fd", "/proc/self/fd/3")
        .link(
            "proc_rel",
            format!("{}proc/self/root/etc/passwd", "../".repeat(24)),
        )
        .link("proc_rel_cwd", format!("{}proc/self/cwd", "../".repeat(24)));
    w
}

fn escape_cases(w: &World) -> Vec<Case> {
    let r = w.root.display().to_string();
    let b = w.base.display().to_string();
    let long_component = "c".repeat(256);
    vec![
        // 1: `..` above the root, re-entering included
        c(1, "..", OUT),
        c(1, "../x", OUT),
        c(1, "a/../../x", OUT),
        c(1, "../data/file.txt", OUT),
        c(1, "./../data/file.txt", OUT),
        c(1, ".././data/file.txt", OUT),
        c(1, "../outside/secret.txt", OUT),
        c(1, "../outside", OUT),
        c(1, "../data_evil/x", OUT),
        c(1, "sub/../../outside/secret.txt", OUT),
        c(1, "sub/deep/../../../outside/x", OUT),
        c(1, "a/b/../../../data/file.txt", OUT),
        c(1, "a/b/../../../../data/file.txt", OUT),
        c(1, "sub/..//../data/sub/file", OUT),
        c(1, "../../../../../../../../../../etc/passwd", OUT),
        c(1, "sub/../..", OUT),
        c(1, "a/b/../../..", OUT),
        // 2: `..` that stays inside
        c(2, "a/b/../../file.txt", Want::Text(ROOT_FILE)),
        c(2, "sub/./file", Want::Text(SUB_FILE)),
        c(2, "./file.txt", Want::Text(ROOT_FILE)),
        c(2, "././././file.txt", Want::Text(ROOT_FILE)),
        c(2, ".//file.txt", Want::Text(ROOT_FILE)),
        c(2, "sub//file", Want::Text(SUB_FILE)),
        c(2, "a/../sub/../file.txt", Want::Text(ROOT_FILE)),
        c(2, "sub/../sub/file", Want::Text(SUB_FILE)),
        c(2, "sub/deep/../file", Want::Text(SUB_FILE)),
        c(2, "a/b/../../sub/deep/x.txt", Want::Text("deep\n")),
        c(2, "sub/..", Want::Dir("file.txt")),
        c(2, "a/b/../..", Want::Dir("file.txt")),
        c(2, "a/b/..", Want::Dir("b")),
        // 3: absolute outside
        c(3, "/etc/passwd", OUT),
        c(3, "/", OUT),
        c(3, "/etc", OUT),
        c(3, "//etc/passwd", OUT),
        c(3, "/tmp", OUT),
        c(3, "/..", OUT),
        c(3, "/../etc/passwd", OUT),
        c(3, b.clone(), OUT),
        c(3, format!("{b}/"), OUT),
        c(3, format!("{b}/top.txt"), OUT),
        c(3, format!("{b}/outside/secret.txt"), OUT),
        c(3, format!("{b}/outside"), OUT),
        c(3, format!("{b}/./outside/secret.txt"), OUT),
        // 4: absolute inside a root
        c(4, format!("{r}/file.txt"), Want::Text(ROOT_FILE)),
        c(4, format!("{r}/sub/file"), Want::Text(SUB_FILE)),
        c(4, format!("{r}/./sub/../file.txt"), Want::Text(ROOT_FILE)),
        c(4, format!("{r}//sub//file"), Want::Text(SUB_FILE)),
        c(4, format!("{r}/in_link"), Want::Text(SUB_FILE)),
        c(4, r.clone(), Want::Dir("file.txt")),
        c(4, format!("{r}/"), Want::Dir("file.txt")),
        c(4, format!("{r}/."), Want::Dir("file.txt")),
        c(4, format!("{r}/sub"), Want::Dir("file")),
        c(4, format!("{r}/.."), OUT),
        c(4, format!("{r}/../data/file.txt"), OUT),
        c(4, format!("{r}/../outside/secret.txt"), OUT),
        c(4, format!("{r}/sub/../../outside/x"), OUT),
        c(4, format!("{r}/linkdir/secret.txt"), OUT),
        // 5: a sibling with the root's name as prefix
        c(5, format!("{b}/data_evil/x"), OUT),
        c(5, format!("{b}/data_evil"), OUT),
        c(5, format!("{b}/data2/x"), OUT),
        c(5, format!("{b}/dat/x"), OUT),
        c(5, format!("{b}/data.bak"), OUT),
        c(5, format!("{b}/data_evil/../data/file.txt"), OUT),
        // 6: symlink out, final component
        c(6, "link_out", OUT),
        c(6, "link_etc", OUT),
        c(6, "link_abs_out", OUT),
        c(6, "link_sibling", OUT),
        c(6, "link_reenter", OUT),
        c(6, "sub/deep_out", OUT),
        c(6, "sub/deep/far_out", OUT),
        c(6, "./sub/../link_out", OUT),
        c(6, format!("{r}/link_out"), OUT),
        // 7: symlink out, intermediate component (and trailing slash)
        c(7, "linkdir/secret.txt", OUT),
        c(7, "linkdir/", OUT),
        c(7, "linkdir", OUT),
        c(7, "linkdir/.", OUT),
        c(7, "linkdir/..", OUT),
        c(7, "linkdir/subdir/../secret.txt", OUT),
        c(7, "linkdir/subdir/deep.txt", OUT),
        c(7, "linkdir/missing", OUT),
        c(7, "sub/linkdir2/secret.txt", OUT),
        c(7, "sub/linkdir2/", OUT),
        c(7, "linkdir_abs/secret.txt", OUT),
        c(7, "linkdir_abs/", OUT),
        c(7, "linkdir_base/data/file.txt", OUT),
        c(7, "linkdir_base/outside/x", OUT),
        // 8: chains
        c(8, "ch_a", OUT),
        c(8, "ch_b", OUT),
        c(8, "ch_c", OUT),
        c(8, "chd_a/secret.txt", OUT),
        c(8, "chd_a/", OUT),
        c(8, "chd_b/subdir/deep.txt", OUT),
        c(8, "ci_a", Want::Text(SUB_FILE)),
        c(8, "sub/mix", Want::Text(SUB_FILE)),
        // 9: inside to inside
        c(9, "in_link", Want::Text(SUB_FILE)),
        c(9, "in_dirlink/file", Want::Text(SUB_FILE)),
        c(9, "in_dirlink/../file.txt", Want::Text(ROOT_FILE)),
        c(9, "sub/up_link", Want::Text(ROOT_FILE)),
        c(9, "sub/deep/up2", Want::Text("leaf\n")),
        c(9, "in_dirlink", Want::Dir("file")),
        c(9, "in_dirlink/", Want::Dir("file")),
        c(9, "sub/reenter_in", OUT),
        // 10: absolute symlink pointing inside
        c(10, "abs_in", OUT),
        c(10, "abs_in_dir/file", OUT),
        c(10, "abs_in_dir/", OUT),
        // 11: loops
        c(11, "loop_a", LOOP),
        c(11, "loop_b", LOOP),
        c(11, "self_loop", LOOP),
        c(11, "loopdir/x", LOOP),
        c(11, "loopdir/", LOOP),
        c(11, "sub/loop_up", LOOP),
        c(11, "ln0", LOOP),
        c(11, "ln30", Want::Text(ROOT_FILE)),
        // 12: dangling
        c(12, "dangling", NOT_FOUND),
        c(12, "dangling_dir/x", NOT_FOUND),
        c(12, "missing.txt", NOT_FOUND),
        c(12, "sub/missing/x", NOT_FOUND),
        c(12, "dangling_out", OUT),
        c(12, "dangling_abs", OUT),
        // 13: magic links
        c(13, "/proc/self/root/etc/passwd", OUT),
        c(13, "/proc/self/fd/3", OUT),
        c(13, "/proc/self/cwd", OUT),
        c(13, "/proc/thread-self/root/etc/passwd", OUT),
        c(13, "/dev/fd/3", OUT),
        c(13, "/dev/stdin", OUT),
        c(13, format!("/proc/self/root{r}/file.txt"), OUT),
        c(13, "proc_root", OUT),
        c(13, "proc_fd", OUT),
        c(13, "proc_rel", OUT),
        c(13, "proc_rel_cwd/Cargo.toml", OUT),
        // 14: NUL, empty, over-long
        c(14, "", INVALID),
        c(14, "a\0b", INVALID),
        c(14, "\0", INVALID),
        c(14, "file.txt\0", INVALID),
        c(14, "../\0/etc/passwd", INVALID),
        c(14, "x".repeat(5000), INVALID),
        c(14, "a/".repeat(2500), INVALID),
        c(14, format!("sub/{long_component}"), INVALID),
        c(
            14,
            "a/".repeat(2048),
            Want::OneOf(&[ErrorCode::InvalidArgument, ErrorCode::NotFound]),
        ),
        c(14, "z".repeat(255), NOT_FOUND),
        // 15: Windows spellings are literal names on Unix
        c(15, "~", NOT_FOUND),
        c(15, "~/file.txt", NOT_FOUND),
        c(15, "~root/.bashrc", NOT_FOUND),
        c(15, "$HOME/.bashrc", NOT_FOUND),
        c(15, "a\\b", NOT_FOUND),
        c(15, "..\\outside\\secret.txt", NOT_FOUND),
        c(15, "C:\\x", NOT_FOUND),
        c(15, "C:/x", NOT_FOUND),
        c(15, "\\\\server\\share", NOT_FOUND),
        c(15, "\\\\?\\C:\\x", NOT_FOUND),
        c(15, "file:stream", NOT_FOUND),
        c(15, "file.txt:stream", NOT_FOUND),
        c(15, "file:///etc/passwd", NOT_FOUND),
        c(15, "%2e%2e/outside/x", NOT_FOUND),
        c(15, "\u{ff0e}\u{ff0e}/outside/x", NOT_FOUND),
        c(15, "..\u{2215}outside\u{2215}x", NOT_FOUND),
        // 17: directory as a file, file as a directory
        c(17, "sub", Want::Dir("file")),
        c(17, "sub/", Want::Dir("file")),
        c(17, ".", Want::Dir("file.txt")),
        c(17, "./", Want::Dir("file.txt")),
        c(17, "file.txt/", FILE_AS_DIR),
        c(17, "file.txt/x", FILE_AS_DIR),
        c(17, "file.txt/.", FILE_AS_DIR),
        c(17, "file.txt/..", FILE_AS_DIR),
        c(17, "in_link/", FILE_AS_DIR),
    ]
}

/// Class 9 and every symlink case again, in `symlinks = never` mode: any symlink is OUT_OF_SANDBOX.
fn never_cases(w: &World) -> Vec<Case> {
    let r = w.root.display().to_string();
    let mut v = vec![
        c(9, "file.txt", Want::Text(ROOT_FILE)),
        c(9, "sub/file", Want::Text(SUB_FILE)),
        c(9, "a/b/../../file.txt", Want::Text(ROOT_FILE)),
        c(9, format!("{r}/sub/file"), Want::Text(SUB_FILE)),
        c(9, "sub", Want::Dir("file")),
        c(9, "missing.txt", NOT_FOUND),
        c(9, "../x", OUT),
    ];
    for link in [
        "in_link",
        "in_dirlink",
        "in_dirlink/",
        "in_dirlink/file",
        "in_dirlink/../file.txt",
        "sub/up_link",
        "sub/deep/up2",
        "ci_a",
        "sub/mix",
        "ln30",
        "loop_a",
        "self_loop",
        "loopdir/x",
        "ln0",
        "dangling",
        "dangling_dir/x",
        "abs_in",
        "abs_in_dir/file",
        "link_out",
        "linkdir/secret.txt",
        "linkdir/",
        "chd_a/secret.txt",
        "proc_root",
    ] {
        v.push(c(9, link, OUT));
    }
    v.push(c(9, format!("{r}/in_link"), OUT));
    v
}

// ---------------------------------------------------------------------------------------------------
// The suite, run per resolver mode
// ---------------------------------------------------------------------------------------------------

fn escape_suite(mode: &str) {
    let w = attack_world();
    let sb = w.sandbox();
    assert_table(&w, &sb, &escape_cases(&w), mode);
    let never = w.sandbox_with(|b| b.symlinks(SymlinkMode::Never));
    assert_table(&w, &never, &never_cases(&w), &format!("{mode}, never"));
    literal_windows_names(mode);
    configured_alias_root(mode);
    multi_root(mode);
    magic_link_root(mode);
    deny_suite(mode);
    special_files(mode);
    root_renamed(mode);
    root_listing_shows_links_unfollowed(&w, &sb, mode);
}

#[test]
fn escape_suite_openat2() {
    in_mode(false, escape_suite);
}

#[test]
fn escape_suite_portable() {
    in_mode(true, escape_suite);
}

/// Runs the suite in a child whose seccomp filter makes openat2 fail with ENOSYS, so the crate falls
/// back to its portable resolver and cap-std to its own component walk (which it skips when openat2
/// works). Skips with a note where the filter cannot be installed.
#[test]
fn escape_suite_without_openat2() {
    let out = run_child("child_without_openat2", "no_openat2", None);
    assert_child_ok(&out, "escape suite without openat2");
}

#[test]
fn child_without_openat2() {
    if std::env::var("ROOTBOUND_TEST_CHILD").as_deref() != Ok("no_openat2") {
        return;
    }
    if !deny_openat2() {
        println!("SKIP: could not install a seccomp filter denying openat2");
        return;
    }
    escape_suite("no-openat2");
    println!("CHILD-OK");
}

// --- class 15 ------------------------------------------------------------------------------------

/// Class 15: on Unix, `~`, backslashes, drive letters, UNC and stream names are literal names inside
/// the root: they read the in-root file of that name, never a host path. A name with a backslash is
/// given back in its displayed form (`\\` for each backslash, the reversible escape of README); a
/// lone backslash before an ordinary letter stays literal, and `\\server` spelled raw names
/// `\server`, which is absent here.
fn literal_windows_names(mode: &str) {
    let w = World::new();
    let names = [
        "a\\b",
        "C:\\x",
        "\\\\server\\share",
        "\\\\?\\C:\\x",
        "file:stream",
        "..\\outside\\secret.txt",
        "%2e%2e",
    ];
    for (i, n) in names.iter().enumerate() {
        w.file(n, format!("literal {i}\n"));
    }
    w.file("~/x", "tilde dir\n").file("C:/x", "drive dir\n");
    let sb = w.sandbox();
    let mut cases: Vec<Case> = Vec::new();
    let texts: Vec<&'static str> = (0..names.len())
        .map(|i| &*Box::leak(format!("literal {i}\n").into_boxed_str()))
        .collect();
    for (n, t) in names.iter().zip(&texts) {
        let shown: &'static str = Box::leak(n.replace('\\', "\\\\").into_boxed_str());
        cases.push(c(15, shown, Want::Text(t)));
    }
    cases.push(c(15, "a\\b", Want::Text(texts[0])));
    cases.push(c(15, "C:\\x", Want::Text(texts[1])));
    cases.push(c(15, "\\\\server\\share", NOT_FOUND));
    cases.push(c(15, "~/x", Want::Text("tilde dir\n")));
    cases.push(c(15, "C:/x", Want::Text("drive dir\n")));
    cases.push(c(15, "~/../~/x", Want::Text("tilde dir\n")));
    assert_table(&w, &sb, &cases, &format!("{mode}, literal names"));
}

// --- class 4 with a configured path that is not canonical ------------------------------------------

/// Class 4: a root configured through a symlinked path accepts absolute requests under either spelling;
/// `..` after the configured prefix still may not leave.
fn configured_alias_root(mode: &str) {
    let w = attack_world();
    let alias = w.base.join("alias");
    std::os::unix::fs::symlink(&w.root, &alias).unwrap();
    let sb = Sandbox::builder().root(&alias).build().unwrap();
    let a = alias.display().to_string();
    let r = w.root.display().to_string();
    let cases = vec![
        c(4, format!("{a}/file.txt"), Want::Text(ROOT_FILE)),
        c(4, format!("{a}/sub/../file.txt"), Want::Text(ROOT_FILE)),
        c(4, format!("{r}/sub/file"), Want::Text(SUB_FILE)),
        c(4, a.clone(), Want::Dir("file.txt")),
        c(4, format!("{a}/../outside/secret.txt"), OUT),
        c(4, format!("{a}/../data/file.txt"), OUT),
        c(4, format!("{a}/linkdir/x"), OUT),
        c(5, format!("{a}_evil/x"), OUT),
    ];
    assert_table(&w, &sb, &cases, &format!("{mode}, alias root"));
}

// --- several roots ------------------------------------------------------------------------------------

fn multi_root(mode: &str) {
    let w = attack_world();
    let second = w.base.join("second");
    std::fs::create_dir(&second).unwrap();
    std::fs::write(second.join("only2.txt"), "second root\n").unwrap();
    std::fs::write(second.join("file.txt"), "shadowed\n").unwrap();
    let sb = Sandbox::builder()
        .root(&w.root)
        .root(&second)
        .build()
        .unwrap();
    let s = second.display().to_string();
    let cases = vec![
        c(1, "../second/only2.txt", OUT),
        c(1, "../x", OUT),
        c(6, "link_out", OUT),
        c(2, "file.txt", Want::Text(ROOT_FILE)),
        c(2, "only2.txt", Want::Text("second root\n")),
        c(4, format!("{s}/only2.txt"), Want::Text("second root\n")),
        c(4, format!("{s}/file.txt"), Want::Text("shadowed\n")),
        c(4, format!("{s}/../data/file.txt"), OUT),
        c(12, "nowhere.txt", NOT_FOUND),
    ];
    // `second` is a host path for these checks only through its own requests.
    assert_table(&w, &sb, &cases, &format!("{mode}, two roots"));
    let roots = sb.list_dir(&ListArgs::default()).unwrap();
    assert_eq!(
        roots.entries.len(),
        2,
        "{mode}: list_dir without a path lists the roots"
    );
}

// --- class 13 with a root that itself lives in /proc -------------------------------------------------

/// Class 13: a root under /proc is full of magic links (`root`, `cwd`, `exe`, `fd/N`); none may be
/// followed, under any spelling, and /etc/passwd must never come back.
fn magic_link_root(mode: &str) {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let first = passwd.lines().next().unwrap_or("root:").to_string();
    let sb = Sandbox::builder().root("/proc/self").build().unwrap();
    // An fd that is surely open in this process: a file we hold.
    let held = std::fs::File::open("/etc/passwd").unwrap();
    use std::os::fd::AsRawFd;
    let fd = held.as_raw_fd();
    let reqs = [
        "root/etc/passwd".to_string(),
        "root".to_string(),
        "cwd/Cargo.toml".to_string(),
        "cwd".to_string(),
        "exe".to_string(),
        format!("fd/{fd}"),
        format!("fd/{fd}/"),
        "fd/0".to_string(),
        "/proc/self/root/etc/passwd".to_string(),
        format!("/proc/self/fd/{fd}"),
        format!("task/{}/root/etc/passwd", std::process::id()),
        "./root/./etc/passwd".to_string(),
    ];
    for req in &reqs {
        let r = sb.read_file(&ReadArgs::path(req));
        match &r {
            Ok(res) => panic!(
                "[{mode}] magic link {req:?} was followed: {:?}",
                &res.content[..res.content.len().min(80)]
            ),
            Err(e) => {
                assert!(!e.message.contains(&first));
                assert_eq!(
                    e.code,
                    ErrorCode::OutOfSandbox,
                    "[{mode}] magic link {req:?}: wanted OUT_OF_SANDBOX"
                );
            }
        }
        let l = sb.list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(req.clone());
            args_
        });
        assert!(
            matches!(&l, Err(e) if e.code == ErrorCode::OutOfSandbox || e.code == ErrorCode::NotAFile),
            "[{mode}] list_dir through magic link {req:?}: {:?}",
            l.map(|l| l.entries.len())
        );
    }
    drop(held);
    // Plain files of the root are still readable: the refusal above is about the links.
    let st = sb.read_file(&ReadArgs::path("status"));
    assert!(st.is_ok(), "[{mode}] /proc/self/status: {:?}", st.err());
}

// --- class 26 ---------------------------------------------------------------------------------------

fn deny_world() -> World {
    let w = World::new();
    w.file("file.txt", ROOT_FILE)
        .file("sub/file", SUB_FILE)
        .file(".env", "ENV=secret-env\n")
        .file("sub/.env", "ENV=sub-secret\n")
        .file(".git/config", "[core] secret-git\n")
        .file(".git/HEAD", "ref: refs/heads/main\n")
        .file("key.pem", "-----BEGIN secret-pem\n")
        .file("sub/key.pem", "-----BEGIN sub-secret-pem\n")
        .file("secrets/token", "secret-token\n")
        .file("sub/secrets/ok.txt", "not anchored: allowed\n")
        .link("e", ".env")
        .link("e2", "e")
        .link("e_dot", "./sub/../.env")
        .link("g", ".git")
        .link("g2", "./.git/")
        .link("gd", ".git/config")
        .link("s", "sub")
        .link("k", "sub/key.pem")
        .link("sub/up_env", "../.env")
        .link("sec", "secrets");
    w
}

fn deny_sandbox(w: &World, symlinks: SymlinkMode) -> Sandbox {
    w.sandbox_with(|b| {
        b.deny(".env")
            .deny(".git/")
            .deny("*.pem")
            .deny("/secrets/")
            .symlinks(symlinks)
    })
}

fn deny_cases(w: &World) -> Vec<Case> {
    let r = w.root.display().to_string();
    let mut v = Vec::new();
    for req in [
        ".env",
        "./.env",
        "sub/../.env",
        ".//.env",
        "./sub/./../.env",
        "a/../.env",
        ".env/",
        ".env/.",
        "sub/.env",
        "sub/.env/",
        "s/.env",
        "s/../.env",
        "sub/up_env",
        "e",
        "e2",
        "e_dot",
        "g/config",
        "g/HEAD",
        "g/",
        "g",
        "g2/config",
        "gd",
        ".git",
        ".git/",
        ".git/config",
        ".git/./config",
        ".git/nonexistent",
        "sub/../.git/config",
        "key.pem",
        "sub/key.pem",
        "s/key.pem",
        "k",
        "nothere.pem",
        "secrets/token",
        "secrets",
        "secrets/",
        "secrets/../secrets/token",
        "sec/token",
        "sec",
        "missing/.env",
    ] {
        v.push(c(26, req, DENIED));
    }
    for req in [
        ".env",
        ".git/config",
        "sub/.env",
        "key.pem",
        "secrets/token",
    ] {
        v.push(c(26, format!("{r}/{req}"), DENIED));
        v.push(c(26, format!("{r}/./sub/../{req}"), DENIED));
    }
    // An alias with a trailing slash opens nothing: DENIED, or the ENOTDIR of `file/`.
    v.push(c(26, "e/", FILE_AS_DIR_OR_DENIED));
    v.push(c(26, "file.txt", Want::Text(ROOT_FILE)));
    v.push(c(26, "s/file", Want::Text(SUB_FILE)));
    v.push(c(
        26,
        "sub/secrets/ok.txt",
        Want::Text("not anchored: allowed\n"),
    ));
    v
}

/// Class 26: DENIED for every spelling and alias, in read_file and stat; list_dir of a denied name is
/// DENIED too (of an alias to a denied *file*, NOT_A_FILE is also acceptable: nothing is opened for
/// reading); denied entries never appear in listings, hidden or not.
fn deny_suite(mode: &str) {
    let w = deny_world();
    let sb = deny_sandbox(&w, SymlinkMode::Inside);
    let mut bad = Vec::new();
    for case in deny_cases(&w) {
        let tag = format!("[{mode}, deny] {:?}", case.req);
        check_read(&w, &sb, &case, &tag, &mut bad);
        check_stat(&w, &sb, &case, &tag, &mut bad);
        let l = sb.list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(case.req.clone());
            args_.hidden = Some(true);
            args_
        });
        match (case.want, &l) {
            (Want::Text(_), Err(e)) if e.code == ErrorCode::NotAFile => {}
            (Want::Code(_) | Want::OneOf(_), Err(e))
                if e.code == ErrorCode::Denied
                    || e.code == ErrorCode::NotAFile
                    || code_ok(case.want, e.code) => {}
            _ => bad.push(format!(
                "{tag}: list_dir gave {}",
                brief(&l.map(|l| l.total))
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );

    // Contents of denied files never come back through any spelling.
    for (dir, hidden) in [
        (".", true),
        (".", false),
        ("sub", true),
        ("s", true),
        ("sub/", true),
    ] {
        let l = sb
            .list_dir(&{
                let mut args_ = ListArgs::default();
                args_.path = Some(dir.into());
                args_.hidden = Some(hidden);
                args_
            })
            .unwrap();
        let names: Vec<&str> = l.entries.iter().map(|e| e.name.as_str()).collect();
        // `/secrets/` is anchored: only the root's `secrets` is denied, `sub/secrets` is not.
        let denied_here: &[&str] = if dir == "." {
            &[".env", ".git", "key.pem", "secrets"]
        } else {
            &[".env", "key.pem"]
        };
        for denied in denied_here {
            assert!(
                !names.contains(denied),
                "[{mode}] list_dir {dir:?} shows denied {denied:?}: {names:?}"
            );
        }
        if dir == "." {
            assert!(names.contains(&"file.txt") && names.contains(&"sub"));
        } else {
            assert!(
                names.contains(&"file") && names.contains(&"secrets"),
                "{names:?}"
            );
        }
    }
    // The default listing (no path) of a single root too.
    let l = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.hidden = Some(true);
            args_
        })
        .unwrap();
    assert!(!l
        .entries
        .iter()
        .any(|e| e.name == ".env" || e.name == ".git"));

    // In never mode, the aliases are refused as symlinks or denied; the plain spellings stay DENIED.
    let never = deny_sandbox(&w, SymlinkMode::Never);
    for req in ["e", "g/config", "gd", "k", "s/.env"] {
        let e = never.read_file(&ReadArgs::path(req)).unwrap_err();
        assert!(
            e.code == ErrorCode::Denied || e.code == ErrorCode::OutOfSandbox,
            "[{mode}, never] {req:?}: {}",
            e.code
        );
    }
    for req in [".env", "./.env", "sub/../.env", ".git/config", "key.pem"] {
        let e = never.read_file(&ReadArgs::path(req)).unwrap_err();
        assert_eq!(e.code, ErrorCode::Denied, "[{mode}, never] {req:?}");
    }

    // An operator who refuses hard links closes the hard-link alias of a denied file.
    std::fs::hard_link(w.path(".env"), w.path("hl")).unwrap();
    let mut p = Sandbox::builder().root(&w.root).deny(".env").policy();
    p.refuse_hardlinks = true;
    let strict = Sandbox::new(p).unwrap();
    let e = strict.read_file(&ReadArgs::path("hl")).unwrap_err();
    assert_eq!(
        e.code,
        ErrorCode::Denied,
        "[{mode}] hard link with refuse_hardlinks"
    );
}

// --- class 16 ------------------------------------------------------------------------------------------

/// Class 16: FIFOs, sockets and device nodes are NOT_A_FILE at once, never read (the FIFO keeps the
/// bytes we put in it), reported as `other` by stat and list_dir.
fn special_files(mode: &str) {
    use rustix::fs::{FileType, Mode};
    let w = World::new();
    w.file("file.txt", ROOT_FILE);
    let fifo = w.path("fifo");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        FileType::Fifo,
        Mode::from_raw_mode(0o644),
        0,
    )
    .expect("mkfifo");
    let _sock = std::os::unix::net::UnixListener::bind(w.path("sock")).expect("bind socket");
    w.link("fifo_link", "fifo").link("sub/fifo_up", "../fifo");
    let mut names = vec!["fifo", "sock", "fifo_link", "sub/fifo_up", "sock/"];
    let mut devices = 0;
    for (name, ft, maj, min) in [
        ("zero", FileType::CharacterDevice, 1, 5),
        ("null", FileType::CharacterDevice, 1, 3),
        ("urandom", FileType::CharacterDevice, 1, 9),
        ("tty", FileType::CharacterDevice, 5, 0),
        ("loopdev", FileType::BlockDevice, 7, 0),
    ] {
        match rustix::fs::mknodat(
            rustix::fs::CWD,
            w.path(name),
            ft,
            Mode::from_raw_mode(0o666),
            rustix::fs::makedev(maj, min),
        ) {
            Ok(()) => {
                names.push(name);
                devices += 1;
            }
            Err(e) => println!("note: mknod {name} ({maj},{min}) failed ({e}); not tested"),
        }
    }
    if devices > 0 {
        w.link("zero_link", "zero");
        names.push("zero_link");
    }

    // Keep the FIFO open read-write ourselves, with bytes in it: a read by the sandbox would take them.
    use std::io::{Read, Write};
    use std::os::unix::fs::OpenOptionsExt;
    let mut end = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&fifo)
        .unwrap();
    end.write_all(b"FIFODATA").unwrap();

    // On a `nodev` mount the kernel refuses to open device nodes at all (EACCES): still refused at once.
    let nodev = rustix::fs::statvfs(&w.root)
        .map(|v| v.f_flag.contains(rustix::fs::StatVfsMountFlags::NODEV))
        .unwrap_or(false);
    if nodev && devices > 0 {
        println!(
            "note: {} is mounted nodev: device nodes may be PERMISSION_DENIED",
            w.root.display()
        );
    }
    let sb = Arc::new(w.sandbox());
    for name in &names {
        let is_device = !name.contains("fifo") && !name.starts_with("sock");
        for args in [
            json!({"path": name}),
            json!({"path": name, "start_line": 1}),
            json!({"path": name, "offset": 0, "limit": 10}),
        ] {
            let sb2 = Arc::clone(&sb);
            let a = args.clone();
            let v = within(
                Duration::from_secs(5),
                &format!("[{mode}] read_file {name}"),
                move || sb2.call("read_file", a),
            );
            let code = json_code(&v);
            assert!(
                code == Some("NOT_A_FILE")
                    || (nodev && is_device && code == Some("PERMISSION_DENIED")),
                "[{mode}] read_file {args} on a special file: {v}"
            );
        }
        if !name.ends_with('/') {
            let sb2 = Arc::clone(&sb);
            let n = name.to_string();
            let st = within(Duration::from_secs(5), "stat", move || {
                sb2.stat(&{
                    let mut args_ = StatArgs::default();
                    args_.path = n;
                    args_
                })
            });
            assert_eq!(
                st.map(|s| s.kind.as_str()).ok(),
                Some("other"),
                "[{mode}] stat {name}"
            );
        }
    }
    let mut buf = [0u8; 8];
    end.read_exact(&mut buf).unwrap();
    assert_eq!(&buf, b"FIFODATA", "[{mode}] the FIFO was read from");

    let l = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_
        })
        .unwrap();
    let kind = |n: &str| l.entries.iter().find(|e| e.name == n).map(|e| e.kind);
    assert_eq!(kind("fifo").map(|k| k.as_str()), Some("other"));
    assert_eq!(kind("sock").map(|k| k.as_str()), Some("other"));
    assert_eq!(kind("fifo_link").map(|k| k.as_str()), Some("symlink"));
    assert_eq!(kind("file.txt").map(|k| k.as_str()), Some("file"));
    assert_eq!(kind("sub").map(|k| k.as_str()), Some("dir"));
    if devices > 0 {
        assert_eq!(kind("zero").map(|k| k.as_str()), Some("other"));
    }
}

// --- class 20 ------------------------------------------------------------------------------------------

/// Class 20: the root is renamed, an impostor takes its old path, the root is replaced by a symlink
/// out, the root is deleted: the sandbox keeps working on its handle or refuses, never another directory.
fn root_renamed(mode: &str) {
    let w = World::new();
    w.file("file.txt", ROOT_FILE).file("sub/file", SUB_FILE);
    let sb = w.sandbox();
    let r = w.root.display().to_string();
    let moved = w.base.join("data_moved");
    std::fs::rename(&w.root, &moved).unwrap();
    let held = |req: &str, want: &str| {
        let got = sb.read_file(&ReadArgs::path(req));
        assert_eq!(
            got.as_ref().map(|r| r.content.as_str()).ok(),
            Some(want),
            "[{mode}] after the root moved, {req:?}: {:?}",
            got.as_ref().err().map(|e| e.code)
        );
    };
    held("file.txt", ROOT_FILE);
    held("sub/file", SUB_FILE);
    held(&format!("{r}/file.txt"), ROOT_FILE);
    assert_eq!(
        sb.read_file(&ReadArgs::path("../data_moved/file.txt"))
            .unwrap_err()
            .code,
        ErrorCode::OutOfSandbox
    );

    // An impostor at the old path: never read.
    std::fs::create_dir(&w.root).unwrap();
    std::fs::write(w.root.join("file.txt"), format!("{}\n", w.canary)).unwrap();
    std::fs::write(w.root.join(&w.canary), "impostor name\n").unwrap();
    held("file.txt", ROOT_FILE);
    held(&format!("{r}/file.txt"), ROOT_FILE);
    let l = sb.list_dir(&ListArgs::default()).unwrap();
    for e in &l.entries {
        w.assert_no_canary(&e.name, mode);
    }
    assert!(l.entries.iter().any(|e| e.name == "sub"));

    // The old path becomes a symlink to outside: still the held directory.
    std::fs::remove_dir_all(&w.root).unwrap();
    std::os::unix::fs::symlink(&w.outside, &w.root).unwrap();
    held("file.txt", ROOT_FILE);
    let e = sb.read_file(&ReadArgs::path("secret.txt")).unwrap_err();
    assert_eq!(
        e.code,
        ErrorCode::NotFound,
        "[{mode}] secret.txt via a re-pointed root path"
    );
    let e = sb
        .read_file(&ReadArgs::path(&format!("{r}/secret.txt")))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::NotFound);

    // The held root is deleted: errors, no panic, nothing from elsewhere.
    std::fs::remove_dir_all(&moved).unwrap();
    for req in ["file.txt", ".", "sub/file", "secret.txt"] {
        let v = sb.call("read_file", json!({ "path": req }));
        assert!(
            json_code(&v).is_some(),
            "[{mode}] {req:?} after deletion: {v}"
        );
        w.assert_no_canary(&v.to_string(), mode);
        let v = sb.call("list_dir", json!({ "path": req }));
        w.assert_no_canary(&v.to_string(), mode);
    }
}

/// list_dir reports symlinks as symlinks (never following them) and shows nothing from outside.
fn root_listing_shows_links_unfollowed(w: &World, sb: &Sandbox, mode: &str) {
    let l = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_
        })
        .unwrap();
    for e in &l.entries {
        w.assert_no_canary(&e.name, mode);
        if e.name.starts_with("link") || e.name.starts_with("ch") || e.name.starts_with("proc") {
            assert_eq!(e.kind, "symlink", "[{mode}] {}", e.name);
            let target = std::fs::read_link(w.path(&e.name)).unwrap();
            assert_eq!(
                e.size,
                target.as_os_str().len() as u64,
                "[{mode}] {}",
                e.name
            );
        }
    }
    let l = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some("sub".into());
            args_
        })
        .unwrap();
    let kinds: Vec<(&str, &str)> = l
        .entries
        .iter()
        .map(|e| (e.name.as_str(), e.kind.as_str()))
        .collect();
    assert!(kinds.contains(&("linkdir2", "symlink")), "{kinds:?}");
    assert!(kinds.contains(&("deep", "dir")), "{kinds:?}");
    assert!(kinds.contains(&("file", "file")), "{kinds:?}");
}

// ---------------------------------------------------------------------------------------------------
// Class 18: EACCES, as an unprivileged user
// ---------------------------------------------------------------------------------------------------

const NOBODY: u32 = 65534;

/// Builds a tree an unprivileged user can reach, with unreadable parts.
fn eacces_world() -> World {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    w.file("file.txt", ROOT_FILE)
        .file("locked.txt", "locked\n")
        .file("lockeddir/f", "in locked dir\n")
        .file("noexec/f", "in unsearchable dir\n")
        .link("to_locked", "locked.txt");
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    mode(&w.base, 0o755).unwrap();
    mode(&w.outside, 0o755).unwrap();
    mode(&w.path("locked.txt"), 0o000).unwrap();
    mode(&w.path("lockeddir"), 0o000).unwrap();
    mode(&w.path("noexec"), 0o644).unwrap();
    w
}

/// Class 18: as a non-root user, chmod 000 gives PERMISSION_DENIED (never OUT_OF_SANDBOX), escapes
/// stay OUT_OF_SANDBOX, and readable files stay readable. Runs in a child with uid 65534.
#[test]
fn permission_denied_as_unprivileged_user() {
    let w = eacces_world();
    for role in ["eacces", "eacces_no_openat2"] {
        let exe = std::env::current_exe().unwrap();
        let mut cmd = Command::new(exe);
        cmd.args(["--exact", "child_eacces", "--nocapture", "--test-threads=1"])
            .env("ROOTBOUND_TEST_CHILD", role)
            .env("ROOTBOUND_TEST_ROOT", &w.root);
        // As root, drop to nobody (root ignores file modes); otherwise we already are unprivileged.
        if rustix::process::geteuid().is_root() {
            cmd.uid(NOBODY).gid(NOBODY);
        }
        let out = cmd.output();
        match out {
            Ok(o) => assert_child_ok(&Some(o), &format!("class 18 ({role})")),
            Err(e) => support::child::skip(
                &format!("class 18 ({role})"),
                &format!("cannot run a child as uid {NOBODY}: {e}"),
            ),
        }
    }
}

#[test]
fn child_eacces() {
    let role = std::env::var("ROOTBOUND_TEST_CHILD").unwrap_or_default();
    if !role.starts_with("eacces") {
        return;
    }
    assert!(
        !rustix::process::geteuid().is_root(),
        "the child must not be root"
    );
    if role == "eacces_no_openat2" && !deny_openat2() {
        println!("SKIP: could not install a seccomp filter denying openat2");
        return;
    }
    let root = std::path::PathBuf::from(std::env::var("ROOTBOUND_TEST_ROOT").unwrap());
    let sb = Sandbox::builder().root(&root).build().unwrap();
    for portable in [false, true] {
        rootbound::force_portable_resolver(portable);
        let tag = format!("{role}, portable={portable}");
        let code = |tool: &str, path: &str| {
            let v = sb.call(tool, json!({ "path": path }));
            json_code(&v)
                .map(str::to_string)
                .unwrap_or_else(|| "OK".into())
        };
        for (tool, path, want) in [
            ("read_file", "locked.txt", "PERMISSION_DENIED"),
            ("read_file", "to_locked", "PERMISSION_DENIED"),
            ("read_file", "./sub/../locked.txt", "NOT_FOUND"),
            ("read_file", "lockeddir/f", "PERMISSION_DENIED"),
            ("read_file", "lockeddir/../file.txt", "PERMISSION_DENIED"),
            ("read_file", "noexec/f", "PERMISSION_DENIED"),
            ("list_dir", "lockeddir", "PERMISSION_DENIED"),
            ("stat", "lockeddir/f", "PERMISSION_DENIED"),
            ("read_file", "../outside/secret.txt", "OUT_OF_SANDBOX"),
            ("read_file", "file.txt", "OK"),
            ("stat", "locked.txt", "OK"),
            ("list_dir", ".", "OK"),
        ] {
            assert_eq!(code(tool, path), want, "[{tag}] {tool} {path:?}");
        }
    }
    rootbound::force_portable_resolver(false);
    println!("CHILD-OK");
}

// ---------------------------------------------------------------------------------------------------
// Class 22: huge inputs
// ---------------------------------------------------------------------------------------------------

const GIB: u64 = 1 << 30;

/// Class 22: a 10 GB sparse file costs one page: bounded bytes, `truncated`, quick.
#[test]
fn huge_sparse_file_reads_are_bounded() {
    use std::os::unix::fs::FileExt;
    let w = World::new();
    let path = w.path("sparse.txt");
    let f = std::fs::File::create(&path).unwrap();
    // 1000 lines of text (18 KB): the first 8 KiB have no NUL, so the file is text, then 10 GB of hole.
    let head: String = (0..1000)
        .map(|i| format!("line {i:04} of text\n"))
        .collect();
    f.write_all_at(head.as_bytes(), 0).unwrap();
    f.write_all_at(b"MIDDLE", 5 * GIB).unwrap();
    f.set_len(10 * GIB).unwrap();
    drop(f);
    let bin = std::fs::File::create(w.path("sparse.bin")).unwrap();
    bin.set_len(10 * GIB).unwrap();
    drop(bin);
    let sb = w.sandbox_with(|b| b.timeout_ms(300));
    let t = Instant::now();

    let r = sb.read_file(&ReadArgs::path("sparse.txt")).unwrap();
    assert_eq!(r.total_bytes, 10 * GIB);
    assert_eq!(r.bytes_returned, 64 * 1024);
    assert_eq!(r.content.len(), 64 * 1024);
    assert!(r.truncated);
    assert!(r.content.starts_with("line 0000"));

    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("sparse.txt");
            args_.offset = Some(5 * GIB);
            args_.limit = Some(6);
            args_
        })
        .unwrap();
    assert_eq!(r.content, "MIDDLE");
    assert!(r.truncated);

    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("sparse.txt");
            args_.offset = Some(10 * GIB - 10);
            args_.limit = Some(1 << 40);
            args_
        })
        .unwrap();
    assert_eq!(r.bytes_returned, 10);
    assert!(!r.truncated);
    assert_eq!(r.next_offset, 10 * GIB);

    // Line mode: the first lines come at once; a line far past the text hits the deadline (or ends),
    // in bounded time either way.
    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("sparse.txt");
            args_.start_line = Some(2);
            args_.max_lines = Some(3);
            args_
        })
        .unwrap();
    assert_eq!(
        r.content,
        "line 0001 of text\nline 0002 of text\nline 0003 of text\n"
    );
    assert_eq!(r.next_line, Some(5));
    let t2 = Instant::now();
    let far = sb.read_file(&{
        let mut args_ = ReadArgs::path("sparse.txt");
        args_.start_line = Some(1_000_000);
        args_
    });
    // The bound is the guarantee: the call returns at its 300 ms deadline (or sooner).
    support::time::assert_prompt(t2.elapsed(), "line mode far past the text");
    match far {
        Ok(r) => assert!(r.content.len() <= 64 * 1024 + 2048),
        Err(e) => assert_eq!(e.code, ErrorCode::IoError),
    }
    // One enormous line: cut, bounded content.
    let t3 = Instant::now();
    let long = sb.read_file(&{
        let mut args_ = ReadArgs::path("sparse.txt");
        args_.start_line = Some(1001);
        args_.max_lines = Some(1);
        args_
    });
    support::time::assert_prompt(t3.elapsed(), "line mode on one enormous line");
    if let Ok(r) = long {
        assert!(r.content.len() <= 64 * 1024 + 2048);
    }

    let b = sb.read_file(&ReadArgs::path("sparse.bin")).unwrap();
    assert!(b.binary);
    assert!(b.content.is_empty());
    assert_eq!(b.total_bytes, 10 * GIB);

    let s = sb
        .stat(&{
            let mut args_ = StatArgs::default();
            args_.path = "sparse.txt".into();
            args_
        })
        .unwrap();
    assert_eq!(s.size, 10 * GIB);
    assert_eq!(s.lines, None);
    // Reading the 10 GiB would take minutes; a handful of bounded calls, well under three
    // prompt bounds however busy the machine.
    assert!(
        t.elapsed() < support::time::PROMPT * 3,
        "took {:?}",
        t.elapsed()
    );
}

/// Class 22: a 64 MiB single line: a byte page is one page; line mode cuts the line with a marker and
/// returns a bounded page.
#[test]
fn single_64mib_line_is_bounded() {
    let w = World::new();
    let mut line = vec![b'x'; 64 << 20];
    line[..6].copy_from_slice(b"START ");
    w.file("one_line.txt", &line);
    line.extend_from_slice(b"\nsecond line\n");
    w.file("two_lines.txt", &line);
    drop(line);
    let sb = w.sandbox();
    let t = Instant::now();
    let r = sb.read_file(&ReadArgs::path("one_line.txt")).unwrap();
    assert_eq!(r.bytes_returned, 64 * 1024);
    assert!(r.truncated);
    assert_eq!(r.total_bytes, 64 << 20);

    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("one_line.txt");
            args_.start_line = Some(1);
            args_
        })
        .unwrap();
    assert!(r.content.starts_with("START xxxx"));
    assert!(
        r.content.len() < 4096,
        "line mode returned {} bytes",
        r.content.len()
    );
    assert!(!r.content.contains(&"x".repeat(2001)));
    assert!(!r.truncated, "the only line was returned (cut)");

    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("two_lines.txt");
            args_.start_line = Some(1);
            args_.line_numbers = Some(true);
            args_
        })
        .unwrap();
    assert!(r.content.len() < 4096);
    assert!(
        r.content.ends_with("     2\tsecond line\n"),
        "{:?}",
        &r.content[r.content.len() - 40..]
    );

    let r = sb
        .read_file(&{
            let mut args_ = ReadArgs::path("two_lines.txt");
            args_.start_line = Some(2);
            args_
        })
        .unwrap();
    assert_eq!(r.content, "second line\n");
    // Four bounded reads of the 64 MiB line: well under three prompt bounds however busy the
    // machine.
    assert!(
        t.elapsed() < support::time::PROMPT * 3,
        "took {:?}",
        t.elapsed()
    );
}

/// Class 22: a file growing (and shrinking) while it is read: every page is consistent with what was
/// written, bounded by the limit, and no call hangs or panics.
#[test]
fn file_changing_while_read() {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    const PAT: &[u8] = b"0123456789abcdef\n";
    let w = World::new();
    w.file("grow.txt", "").file("shrink.txt", PAT.repeat(4096));
    let sb = w.sandbox();
    let stop = AtomicBool::new(false);
    let dur = stress_secs(1.0);
    // Stops the writers however the reading loop ends: a failed assertion must fail the test,
    // not leave the scope waiting for writers that never stop.
    struct StopOnDrop<'a>(&'a AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    std::thread::scope(|s| {
        let _stop = StopOnDrop(&stop);
        s.spawn(|| {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(w.path("grow.txt"))
                .unwrap();
            while !stop.load(Ordering::Relaxed) {
                f.write_all(&PAT.repeat(64)).unwrap();
                if f.metadata().unwrap().len() > 16 << 20 {
                    f.set_len(0).unwrap();
                }
                std::thread::sleep(Duration::from_micros(20));
            }
        });
        s.spawn(|| {
            let p = w.path("shrink.txt");
            let mut n = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
                f.set_len(((n * 7919) % 4096 * PAT.len()) as u64).unwrap();
                n += 1;
                std::fs::write(&p, PAT.repeat(4096)).unwrap();
            }
        });
        let start = Instant::now();
        let mut calls = 0;
        while start.elapsed() < dur || calls < 200 {
            for name in ["grow.txt", "shrink.txt"] {
                let offset = (calls as u64 * 4099) % (64 * 1024);
                let byte = sb.read_file(&{
                    let mut args_ = ReadArgs::path(name);
                    args_.offset = Some(offset);
                    args_.limit = Some(1000);
                    args_
                });
                if let Ok(r) = byte {
                    assert!(r.bytes_returned <= 1000);
                    assert_eq!(r.bytes_returned as usize, r.content.len());
                    let expect: Vec<u8> = (r.offset..r.offset + r.bytes_returned)
                        .map(|i| PAT[(i % PAT.len() as u64) as usize])
                        .collect();
                    assert_eq!(r.content.as_bytes(), &expect[..], "{name} at {}", r.offset);
                } else if let Err(e) = byte {
                    panic!("{name}: {e}");
                }
                let lines = sb
                    .read_file(&{
                        let mut args_ = ReadArgs::path(name);
                        args_.start_line = Some(1 + calls as u64 % 50);
                        args_.max_lines = Some(20);
                        args_
                    })
                    .unwrap();
                // Whole lines are the pattern; only the file's last line may be caught half-written.
                let got: Vec<&str> = lines.content.lines().collect();
                for (i, l) in got.iter().enumerate() {
                    let whole = l.as_bytes() == &PAT[..PAT.len() - 1];
                    let tail = i + 1 == got.len() && PAT.starts_with(l.as_bytes());
                    assert!(whole || tail, "{name} line mode: {l:?}");
                }
                assert!(lines.content.len() <= 20 * PAT.len());
                calls += 1;
            }
            if start.elapsed() > dur * 10 + Duration::from_secs(10) {
                break;
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------------
// Class 27: hostile offsets (read_file and list_dir)
// ---------------------------------------------------------------------------------------------------

#[test]
fn hostile_offsets_and_arguments() {
    let w = World::new();
    w.file("file.txt", ROOT_FILE);
    for i in 0..25 {
        w.file(&format!("d/f{i:02}"), "x");
    }
    let sb = w.sandbox();
    let total = ROOT_FILE.len() as u64;

    // Huge offsets: an empty page, truncated false, next_offset clamped to the end.
    for off in [
        total,
        total + 1,
        1 << 40,
        i64::MAX as u64,
        u64::MAX - 1,
        u64::MAX,
    ] {
        let v = sb.call("read_file", json!({"path": "file.txt", "offset": off}));
        assert_eq!(json_code(&v), None, "offset {off}: {v}");
        assert_eq!(v["content"], "", "offset {off}");
        assert_eq!(v["truncated"], false, "offset {off}");
        assert_eq!(v["next_offset"], total, "offset {off}");
        assert_eq!(v["bytes_returned"], 0);
        let v = sb.call(
            "read_file",
            json!({"path": "file.txt", "offset": off, "limit": u64::MAX}),
        );
        assert_eq!(v["content"], "", "offset {off} limit max");
    }
    for line in [100u64, 1 << 40, u64::MAX] {
        let v = sb.call("read_file", json!({"path": "file.txt", "start_line": line}));
        assert_eq!(json_code(&v), None, "start_line {line}: {v}");
        assert_eq!(v["content"], "");
        assert_eq!(v["truncated"], false);
    }
    let v = sb.call(
        "read_file",
        json!({"path": "file.txt", "limit": u64::MAX, "offset": 0}),
    );
    assert_eq!(v["content"], ROOT_FILE);

    // Negative, fractional, mistyped, overflowing: INVALID_ARGUMENT.
    let bad: Vec<Value> = vec![
        json!({"path": "file.txt", "offset": -1}),
        json!({"path": "file.txt", "offset": i64::MIN}),
        json!({"path": "file.txt", "offset": 1.5}),
        json!({"path": "file.txt", "offset": "ten"}),
        json!({"path": "file.txt", "offset": "1e3"}),
        json!({"path": "file.txt", "offset": 1e30}),
        json!({"path": "file.txt", "limit": -5}),
        json!({"path": "file.txt", "start_line": -1}),
        json!({"path": "file.txt", "max_lines": -1}),
        json!({"path": "file.txt", "line_numbers": "yes"}),
        json!({"path": "file.txt", "offset": 3, "start_line": 2}),
        json!({"path": "file.txt", "bogus": 1}),
        json!({"path": 7}),
        json!({"path": null}),
        json!({}),
        json!([]),
        json!("file.txt"),
    ];
    for args in bad {
        let v = sb.call("read_file", args.clone());
        assert_eq!(
            json_code(&v),
            Some("INVALID_ARGUMENT"),
            "read_file {args}: {v}"
        );
    }
    // Models send numbers and booleans as strings: exactly such a string is taken.
    let v = sb.call(
        "read_file",
        json!({"path": "file.txt", "offset": "2", "limit": "3"}),
    );
    assert_eq!(v["offset"], 2, "{v}");
    assert_eq!(v["bytes_returned"], 3, "{v}");
    let big: Value =
        serde_json::from_str(r#"{"path": "file.txt", "offset": 18446744073709551616}"#).unwrap();
    let v = sb.call("read_file", big);
    assert_eq!(json_code(&v), Some("INVALID_ARGUMENT"), "offset 2^64: {v}");

    // list_dir: huge offset → empty page, truncated false; negative → INVALID_ARGUMENT.
    for off in [25u64, 26, 1 << 40, u64::MAX] {
        let v = sb.call("list_dir", json!({"path": "d", "offset": off}));
        assert_eq!(json_code(&v), None, "list offset {off}: {v}");
        assert_eq!(v["entries"].as_array().map(Vec::len), Some(0));
        assert_eq!(v["truncated"], false);
        assert_eq!(v["total"], 25);
    }
    let v = sb.call(
        "list_dir",
        json!({"path": "d", "offset": 24, "limit": u64::MAX}),
    );
    assert_eq!(v["entries"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["truncated"], false);
    // limit 0 means "not set" (what strict-mode converters send): the default page.
    let v = sb.call("list_dir", json!({"path": "d", "limit": 0}));
    let default = sb.call("list_dir", json!({"path": "d"}));
    assert_eq!(v, default, "{v}");
    for args in [
        json!({"path": "d", "offset": -1}),
        json!({"path": "d", "limit": -1}),
        json!({"path": "d", "offset": 0.5}),
        json!({"path": "d", "hidden": "yes"}),
        json!({"path": "d", "cursor": "abc"}),
        json!({"path": ["d"]}),
    ] {
        let v = sb.call("list_dir", args.clone());
        assert_eq!(
            json_code(&v),
            Some("INVALID_ARGUMENT"),
            "list_dir {args}: {v}"
        );
    }
    for args in [
        json!({"path": "file.txt", "offset": 1}),
        json!({}),
        json!({"path": 1}),
    ] {
        let v = sb.call("stat", args.clone());
        assert_eq!(json_code(&v), Some("INVALID_ARGUMENT"), "stat {args}: {v}");
    }
}

// ---------------------------------------------------------------------------------------------------
// Roots that cannot be opened; no roots at all
// ---------------------------------------------------------------------------------------------------

#[test]
fn no_roots_left_refuses_everything() {
    let w = World::new();
    let missing = w.base.join("no-such-root");
    let e = Sandbox::builder().root(&missing).build().unwrap_err();
    assert_eq!(
        e.code,
        ErrorCode::InvalidArgument,
        "strict mode fails construction"
    );
    let sb = Sandbox::builder()
        .root(&missing)
        .root_mode(RootMode::Lenient)
        .build()
        .unwrap();
    for (tool, args) in [
        ("read_file", json!({"path": "x"})),
        ("read_file", json!({"path": w.outside.join("secret.txt")})),
        ("stat", json!({"path": "."})),
        ("list_dir", json!({"path": "."})),
    ] {
        let v = sb.call(tool, args.clone());
        assert_eq!(json_code(&v), Some("OUT_OF_SANDBOX"), "{tool} {args}: {v}");
        w.assert_no_canary(&v.to_string(), tool);
    }
    let e = sb.read_file(&ReadArgs::path("x")).unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfSandbox);
    let e = sb
        .list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(".".into());
            args_
        })
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfSandbox);
}

// ---------------------------------------------------------------------------------------------------
// Every error code is reachable
// ---------------------------------------------------------------------------------------------------

/// Every code of the contract is produced by some real call here (through `Sandbox::call`, so the JSON
/// string is what is checked). Codes of tools tested elsewhere (write, grep patterns) are excluded.
/// A code added to `ErrorCode` without a scenario here fails this test.
#[test]
fn every_error_code_is_reached() {
    let w = attack_world();
    w.file(".env", "x").file("small.txt", "x\n");
    let sb = w.sandbox_with(|b| b.deny(".env").timeout_ms(50));
    let elsewhere = [
        ErrorCode::AlreadyExists,
        ErrorCode::TooLarge,
        ErrorCode::InvalidPattern,
        ErrorCode::PatternTooLarge,
    ];
    let mut missing = Vec::new();
    for &code in ErrorCode::ALL {
        if elsewhere.contains(&code) {
            continue;
        }
        let got: Option<Value> = match code {
            ErrorCode::OutOfSandbox => Some(sb.call("read_file", json!({"path": "../outside/x"}))),
            ErrorCode::NotFound => Some(sb.call("read_file", json!({"path": "nope"}))),
            ErrorCode::NotAFile => Some(sb.call("read_file", json!({"path": "sub"}))),
            ErrorCode::Denied => Some(sb.call("read_file", json!({"path": "./.env"}))),
            ErrorCode::InvalidArgument => Some(sb.call("read_file", json!({"path": "a\u{0}b"}))),
            ErrorCode::SymlinkLoop => Some(sb.call("read_file", json!({"path": "loop_a"}))),
            // Out of descriptors when opening the file (the line-mode deadline is not an
            // IO_ERROR: it returns the partial page with `timed_out`).
            ErrorCode::IoError => io_error_via_cli(&w.root),
            ErrorCode::PermissionDenied => permission_denied_via_cli(),
            // A call made with a budget its caller already cancelled.
            ErrorCode::Cancelled => {
                let budget = rootbound::Budget::new();
                budget.cancel();
                Some(
                    sb.within(&budget)
                        .call("read_file", json!({"path": "big.txt"})),
                )
            }
            _ => None,
        };
        match got {
            Some(v) => assert_eq!(json_code(&v), Some(code.as_str()), "{code}: {v}"),
            None if code == ErrorCode::PermissionDenied => support::child::skip(
                "PERMISSION_DENIED",
                "it needs a non-root user, which is unavailable here",
            ),
            None => missing.push(code),
        }
    }
    assert!(missing.is_empty(), "no test reaches {missing:?}");
}

/// IO_ERROR through the CLI run with so few descriptors that, once the root is open, the file cannot
/// be (EMFILE): the smallest descriptor limit under which the process starts.
fn io_error_via_cli(root: &Path) -> Option<Value> {
    let bin = env!("CARGO_BIN_EXE_rootbound");
    for n in 3..32u64 {
        let mut cmd = Command::new(bin);
        cmd.args(["call", "read_file", r#"{"path": "small.txt"}"#, "--root"])
            .arg(root);
        support::child::limit(&mut cmd, rustix::process::Resource::Nofile, n);
        let out = cmd.output().ok()?;
        match out.status.code() {
            Some(1) => return serde_json::from_slice(&out.stdout).ok(),
            Some(0) => return None,
            _ => {}
        }
    }
    None
}

/// PERMISSION_DENIED through the CLI run as uid 65534 (root ignores file modes).
fn permission_denied_via_cli() -> Option<Value> {
    let w = eacces_world();
    let bin = env!("CARGO_BIN_EXE_rootbound");
    let mut cmd = Command::new(bin);
    cmd.args(["call", "read_file", r#"{"path": "locked.txt"}"#, "--root"])
        .arg(&w.root);
    if rustix::process::geteuid().is_root() {
        cmd.uid(NOBODY).gid(NOBODY);
    }
    let out = cmd.output().ok()?;
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    serde_json::from_slice(&out.stdout).ok()
}
