//! docs/ATTACKS.md class 19 for read_file (and stat, list_dir): a thread swaps a directory for a symlink to
//! outside while thousands of calls run through one `Sandbox`. Any result or error is fine; an outside
//! byte, an outside name, or an outside file's metadata is not. Also the deny-rule variant: a plain
//! name swapped for an alias of `.env` / `.git` must give the plain content or DENIED, never the secret.
//!
//! Each configuration runs for a fraction of a second by default (until at least `MIN_CALLS` calls and
//! both outcomes were seen); set `ROOTBOUND_STRESS_SECS` to run each for that many seconds.

use crate::support;

use rootbound::{ListArgs, ReadArgs, Sandbox, StatArgs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::read::*;

const INSIDE: &str = "INSIDE\n";
const MIN_CALLS: u64 = 2000;

#[derive(Clone, Copy, Debug)]
enum Swap {
    /// `renameat2(RENAME_EXCHANGE)` of the directory and a symlink: one is always in place.
    Exchange,
    /// rename d → d.real; rename d.lnk → d; rename d → d.lnk; rename d.real → d.
    Dance,
}

struct Tally {
    calls: AtomicU64,
    inside_ok: AtomicU64,
    refused: AtomicU64,
    codes: Mutex<BTreeMap<&'static str, u64>>,
    /// The first message seen for each code, for the log.
    examples: Mutex<BTreeMap<&'static str, String>>,
}

impl Tally {
    fn new() -> Self {
        Tally {
            calls: AtomicU64::new(0),
            inside_ok: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            codes: Mutex::new(BTreeMap::new()),
            examples: Mutex::new(BTreeMap::new()),
        }
    }
    fn error(&self, e: &rootbound::Error) {
        *self
            .codes
            .lock()
            .unwrap()
            .entry(e.code.as_str())
            .or_default() += 1;
        self.examples
            .lock()
            .unwrap()
            .entry(e.code.as_str())
            .or_insert_with(|| e.message.clone());
        self.refused.fetch_add(1, Ordering::Relaxed);
    }
}

/// Swaps `a` (a directory or file) and `b` (a symlink) until `stop`, by `how`.
fn swapper(a: &Path, b: &Path, how: Swap, stop: &AtomicBool, swaps: &AtomicU64) {
    let real = a.with_extension("real");
    while !stop.load(Ordering::Relaxed) {
        match how {
            Swap::Exchange => {
                rustix::fs::renameat_with(
                    rustix::fs::CWD,
                    a,
                    rustix::fs::CWD,
                    b,
                    rustix::fs::RenameFlags::EXCHANGE,
                )
                .expect("RENAME_EXCHANGE");
            }
            Swap::Dance => {
                std::fs::rename(a, &real).unwrap();
                std::fs::rename(b, a).unwrap();
                std::thread::yield_now();
                std::fs::rename(a, b).unwrap();
                std::fs::rename(&real, a).unwrap();
                std::thread::yield_now();
            }
        }
        swaps.fetch_add(1, Ordering::Relaxed);
    }
    // Leave the tree as it was built (the directory in place) for the next run's sanity.
    if matches!(how, Swap::Exchange)
        && std::fs::symlink_metadata(a)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false)
    {
        let _ = rustix::fs::renameat_with(
            rustix::fs::CWD,
            a,
            rustix::fs::CWD,
            b,
            rustix::fs::RenameFlags::EXCHANGE,
        );
    }
}

/// Runs `reader` on two threads while `swapper` runs, until the budget is spent and both outcomes were
/// seen; returns the tally.
fn run_race(
    ctx: &str,
    a: &Path,
    b: &Path,
    how: Swap,
    reader: &(dyn Fn(u64, &Tally) + Sync),
) -> Tally {
    let tally = Tally::new();
    let stop = AtomicBool::new(false);
    let swaps = AtomicU64::new(0);
    let budget = stress_secs(0.4);
    // Bounds only a run that never sees both sides: a busy machine may take long to.
    let hard_cap = budget * 4 + crate::support::time::PROMPT * 6;
    let start = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| swapper(a, b, how, &stop, &swaps));
        let readers: Vec<_> = (0..2)
            .map(|t| {
                let tally = &tally;
                let stop = &stop;
                s.spawn(move || {
                    let mut i = t;
                    while !stop.load(Ordering::Relaxed) {
                        reader(i, tally);
                        tally.calls.fetch_add(1, Ordering::Relaxed);
                        i += 2;
                    }
                })
            })
            .collect();
        loop {
            std::thread::sleep(Duration::from_millis(20));
            let done = start.elapsed() >= budget
                && tally.calls.load(Ordering::Relaxed) >= MIN_CALLS
                && tally.inside_ok.load(Ordering::Relaxed) > 0
                && tally.refused.load(Ordering::Relaxed) > 0;
            if done || start.elapsed() > hard_cap || readers.iter().all(|r| r.is_finished()) {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    println!(
        "[{ctx}] {:?}: {} calls, {} swaps, {} inside, {} refused, codes {:?}, e.g. {:?}",
        start.elapsed(),
        tally.calls.load(Ordering::Relaxed),
        swaps.load(Ordering::Relaxed),
        tally.inside_ok.load(Ordering::Relaxed),
        tally.refused.load(Ordering::Relaxed),
        tally.codes.lock().unwrap(),
        tally.examples.lock().unwrap()
    );
    assert!(
        tally.calls.load(Ordering::Relaxed) >= MIN_CALLS,
        "[{ctx}] too few calls"
    );
    assert!(
        swaps.load(Ordering::Relaxed) > 0,
        "[{ctx}] the swapper never ran"
    );
    // Both sides of the race were seen: the test exercised something.
    assert!(
        tally.inside_ok.load(Ordering::Relaxed) > 0,
        "[{ctx}] no read saw the directory"
    );
    assert!(
        tally.refused.load(Ordering::Relaxed) > 0,
        "[{ctx}] no read saw the symlink"
    );
    tally
}

/// A directory `prefix/d` (with `f` and `sub/`) swapped for `prefix/d.swap -> ../…/outside`.
fn dir_swap_race(mode: &str, how: Swap, depth: usize) {
    let w = World::new();
    let prefix: String = (0..depth).map(|i| format!("p{i}/")).collect();
    let d = format!("{prefix}d");
    w.file(&format!("{d}/f"), INSIDE)
        .dir(&format!("{d}/sub"))
        .file(&format!("{d}/inside_name"), "n\n");
    std::fs::write(w.outside.join("f"), format!("{}\n", w.canary)).unwrap();
    std::fs::create_dir_all(w.outside.join("sub")).unwrap();
    let up = "../".repeat(depth + 1);
    let swap_name = match how {
        Swap::Exchange => format!("{d}.swap"),
        Swap::Dance => format!("{d}.lnk"),
    };
    w.link(&swap_name, format!("{up}outside"));
    let sb = w.sandbox();
    let r = w.root.display().to_string();
    let reqs = [
        format!("{d}/f"),
        format!("{d}/./f"),
        format!("{d}/sub/../f"),
        format!("{r}/{d}/f"),
        format!("./{d}/f"),
        format!("{d}/../d/f"),
        format!("{d}/sub/../../d/f"),
    ];
    let outside_len = w.canary.len() as u64 + 1;
    let ctx = format!("{mode}, {how:?}, depth {depth}");
    let reader = |i: u64, t: &Tally| {
        let req = &reqs[(i as usize) % reqs.len()];
        let args = if i % 5 == 4 {
            {
                let mut args_ = ReadArgs::path(req);
                args_.start_line = Some(1);
                args_
            }
        } else {
            ReadArgs::path(req)
        };
        match sb.read_file(&args) {
            Ok(res) => {
                w.assert_no_canary(&res.content, &ctx);
                assert_eq!(res.content, INSIDE, "[{ctx}] {req}");
                assert!(res.path.starts_with(&r), "[{ctx}] {}", res.path);
                t.inside_ok.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                w.assert_clean_error(&e, req, &ctx);
                t.error(&e);
            }
        }
        if i.is_multiple_of(16) {
            if let Ok(l) = sb.list_dir(&{
                let mut args_ = ListArgs::default();
                args_.path = Some(d.clone());
                args_.hidden = Some(true);
                args_
            }) {
                for e in &l.entries {
                    w.assert_no_canary(&e.name, &ctx);
                    assert!(
                        e.name != "secret.txt" && e.name != "subdir",
                        "[{ctx}] {}",
                        e.name
                    );
                }
            }
        }
        if i % 16 == 8 {
            if let Ok(s) = sb.stat(&{
                let mut args_ = StatArgs::default();
                args_.path = format!("{d}/f");
                args_
            }) {
                assert_ne!(s.size, outside_len, "[{ctx}] stat saw the outside file");
                assert_eq!(s.size, INSIDE.len() as u64, "[{ctx}] stat");
            }
        }
    };
    run_race(&ctx, &w.path(&d), &w.path(&swap_name), how, &reader);
    // After the race the tree is intact and the sandbox still answers normally.
    let after = sb.read_file(&ReadArgs::path(&format!("{d}/f")));
    if let Ok(res) = after {
        assert_eq!(res.content, INSIDE);
    }
}

/// Class 26 under class 19: `f` (a plain file) exchanged with a symlink to `.env`, and `gd` (a plain
/// directory with `config`) exchanged with a symlink to `.git`: plain content or DENIED, nothing else.
fn deny_swap_race(mode: &str) {
    let w = World::new();
    let env_canary = unique_canary("env");
    let git_canary = unique_canary("git");
    w.file(".env", format!("{env_canary}\n"))
        .file(".git/config", format!("{git_canary}\n"))
        .file("f", INSIDE)
        .file("gd/config", INSIDE)
        .link("f.swap", ".env")
        .link("gd.swap", ".git");
    let sb = w.sandbox_with(|b| b.deny(".env").deny(".git/"));
    for (a, b, req) in [("f", "f.swap", "f"), ("gd", "gd.swap", "gd/config")] {
        let ctx = format!("{mode}, deny swap {a}");
        let reader = |i: u64, t: &Tally| {
            let spelled = match i % 3 {
                0 => req.to_string(),
                1 => format!("./{req}"),
                _ => format!("{}/{req}", w.root.display()),
            };
            match sb.read_file(&ReadArgs::path(&spelled)) {
                Ok(res) => {
                    assert!(
                        !res.content.contains(&env_canary) && !res.content.contains(&git_canary),
                        "[{ctx}] a denied file was read through {spelled}"
                    );
                    assert_eq!(res.content, INSIDE);
                    t.inside_ok.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    // Any error is acceptable under a race (the component walk of the portable
                    // resolver can meet a half-swapped name); DENIED must be among them.
                    w.assert_clean_error(&e, &spelled, &ctx);
                    t.error(&e);
                }
            }
            if i.is_multiple_of(8) {
                if let Ok(s) = sb.stat(&{
                    let mut args_ = StatArgs::default();
                    args_.path = req.into();
                    args_
                }) {
                    assert_eq!(s.size, INSIDE.len() as u64, "[{ctx}] stat of a denied file");
                }
            }
        };
        let t = run_race(&ctx, &w.path(a), &w.path(b), Swap::Exchange, &reader);
        assert!(
            t.codes.lock().unwrap().get("DENIED").copied().unwrap_or(0) > 0,
            "[{ctx}] the alias was never refused as DENIED"
        );
    }
}

fn race_suite(mode: &str) {
    for how in [Swap::Exchange, Swap::Dance] {
        for depth in [0, 2] {
            dir_swap_race(mode, how, depth);
        }
    }
    deny_swap_race(mode);
}

#[test]
fn race_openat2() {
    in_mode(false, race_suite);
}

#[test]
fn race_portable() {
    in_mode(true, race_suite);
}

/// The same races with openat2 denied by seccomp: cap-std's own component walk under fire.
#[test]
fn race_without_openat2() {
    let out = run_child(
        "race_read::child_race_without_openat2",
        "race_no_openat2",
        None,
    );
    assert_child_ok(&out, "races without openat2");
}

#[test]
fn child_race_without_openat2() {
    if std::env::var("ROOTBOUND_TEST_CHILD").as_deref() != Ok("race_no_openat2") {
        return;
    }
    if !deny_openat2() {
        println!("SKIP: could not install a seccomp filter denying openat2");
        return;
    }
    race_suite("no-openat2");
    println!("CHILD-OK");
}

/// The root itself swapped: a sandbox over `base/data`, while `data` and a symlink `data.swap ->
/// outside` are exchanged. The sandbox holds the original directory's handle: it keeps reading it.
#[test]
fn root_swapped_for_symlink() {
    let w = World::new();
    w.file("f", INSIDE);
    std::fs::write(w.outside.join("f"), format!("{}\n", w.canary)).unwrap();
    let swap = w.base.join("data.swap");
    std::os::unix::fs::symlink(&w.outside, &swap).unwrap();
    let sb: Sandbox = w.sandbox();
    let root: PathBuf = w.root.clone();
    let r = root.display().to_string();
    let reader = |i: u64, t: &Tally| {
        let req = if i.is_multiple_of(2) {
            "f".to_string()
        } else {
            format!("{r}/f")
        };
        let res = sb.read_file(&ReadArgs::path(&req)).unwrap();
        assert_eq!(res.content, INSIDE, "the held root handle was left");
        t.inside_ok.fetch_add(1, Ordering::Relaxed);
        // Count a call on the "other side" too, so run_race's both-sides check passes: here the only
        // correct outcome is the held directory.
        t.refused.fetch_add(u64::from(i == 0), Ordering::Relaxed);
    };
    let _g = mode_lock();
    run_race("root swap", &root, &swap, Swap::Exchange, &reader);
}
