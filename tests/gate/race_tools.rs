//! Races against all five read tools at once through ONE shared `Sandbox` (docs/ATTACKS.md 19, 20, 22):
//!
//! - `dir_swap_*`: a thread swaps a directory for a symlink to outside (rename dance, and
//!   `RENAME_EXCHANGE`) while four threads run read_file, stat, list_dir, glob and grep_search on it (typed
//!   calls and JSON `call`s, several spellings). Zero outside bytes and zero outside names.
//! - `root_renamed_while_held`: the root itself is renamed away, a symlink to outside put in its place,
//!   and back, while the same calls run: the held handle keeps answering from the original directory.
//! - `files_truncated_and_rewritten`: files are truncated, rewritten, grown sparse and shrunk while they
//!   are read (byte and line mode), searched and stat'ed: no SIGBUS, no panic, only bytes the writer wrote.
//!
//! Every outside file's content and name carries the canary, so one substring check covers bytes and
//! names. Each race runs about 1.5 s (and until both sides of the race were seen); set
//! `ROOTBOUND_STRESS_SECS` to run each that many seconds.

use crate::support;

use rootbound::{GlobArgs, GrepArgs, ListArgs, OutputMode, ReadArgs, Sandbox, StatArgs};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::read::*;

const INSIDE: &str = "needle INSIDE\n";
const WORKERS: u64 = 4;

#[derive(Default)]
struct Tally {
    calls: AtomicU64,
    inside: AtomicU64,
    refused: AtomicU64,
    codes: Mutex<BTreeMap<String, u64>>,
}

impl Tally {
    fn ok(&self) {
        self.inside.fetch_add(1, Ordering::Relaxed);
    }
    fn err(&self, e: &rootbound::Error) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        *self
            .codes
            .lock()
            .unwrap()
            .entry(e.code.as_str().to_string())
            .or_default() += 1;
    }
}

/// The outside world must not show up in `text` (any result or message, serialized).
fn clean(w: &World, text: &str, ctx: &str) {
    w.assert_no_canary(text, ctx);
    assert!(!text.contains("secret.txt"), "{ctx}: outside name: {text}");
}

#[derive(Clone, Copy, Debug)]
enum Swap {
    /// `d → d.real`, `d.lnk → d`, `d → d.lnk`, `d.real → d`.
    Dance,
    /// `renameat2(RENAME_EXCHANGE)` of `d` and `d.lnk`.
    Exchange,
}

fn swap_loop(d: &Path, lnk: &Path, how: Swap, stop: &AtomicBool, swaps: &AtomicU64) {
    let real = d.with_extension("real");
    while !stop.load(Ordering::Relaxed) {
        match how {
            Swap::Dance => {
                std::fs::rename(d, &real).unwrap();
                std::fs::rename(lnk, d).unwrap();
                std::thread::yield_now();
                std::fs::rename(d, lnk).unwrap();
                std::fs::rename(&real, d).unwrap();
            }
            Swap::Exchange => {
                for _ in 0..2 {
                    rustix::fs::renameat_with(
                        rustix::fs::CWD,
                        d,
                        rustix::fs::CWD,
                        lnk,
                        rustix::fs::RenameFlags::EXCHANGE,
                    )
                    .unwrap();
                    std::thread::yield_now();
                }
            }
        }
        swaps.fetch_add(1, Ordering::Relaxed);
    }
}

/// Runs `op(i)` on `WORKERS` threads while `mutator` runs, for the stress budget and until `enough`.
fn race(
    ctx: &str,
    tally: &Tally,
    mutator: &(dyn Fn(&AtomicBool) + Sync),
    op: &(dyn Fn(u64) + Sync),
    enough: &(dyn Fn() -> bool + Sync),
) {
    let budget = stress_secs(1.5);
    // Bounds only a run that never sees both sides: a busy machine may take long to.
    let hard_cap = budget * 3 + crate::support::time::PROMPT * 6;
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|s| {
        let m = s.spawn(|| mutator(&stop));
        let workers: Vec<_> = (0..WORKERS)
            .map(|t| {
                let stop = &stop;
                s.spawn(move || {
                    let mut i = t;
                    while !stop.load(Ordering::Relaxed) {
                        op(i);
                        tally.calls.fetch_add(1, Ordering::Relaxed);
                        i += WORKERS;
                    }
                })
            })
            .collect();
        while (start.elapsed() < budget || !enough())
            && start.elapsed() < hard_cap
            && !workers.iter().any(|w| w.is_finished())
            && !m.is_finished()
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Ordering::Relaxed);
    });
    println!(
        "[{ctx}] {:?}: {} calls, {} inside, {} refused, codes {:?}",
        start.elapsed(),
        tally.calls.load(Ordering::Relaxed),
        tally.inside.load(Ordering::Relaxed),
        tally.refused.load(Ordering::Relaxed),
        tally.codes.lock().unwrap()
    );
}

/// One call of a mix of the five tools on `d` (a directory that may be a symlink to outside at any
/// moment). Returns nothing: every outcome is checked here.
fn mixed_call(w: &World, sb: &Sandbox, d: &str, i: u64, t: &Tally, ctx: &str) {
    let abs = format!("{}/{d}", w.root.display());
    let spell = |rest: &str| match (i / 7) % 5 {
        0 => format!("{d}/{rest}"),
        1 => format!("./{d}/{rest}"),
        2 => format!("{d}/sub/../{rest}"),
        3 => format!("{abs}/{rest}"),
        _ => format!("{d}//./{rest}"),
    };
    match i % 7 {
        0 => match sb.read_file(&ReadArgs::path(&spell("f"))) {
            Ok(r) => {
                clean(w, &r.content, ctx);
                assert_eq!(r.content, INSIDE, "[{ctx}] read");
                t.ok();
            }
            Err(e) => {
                clean(w, &e.message, ctx);
                t.err(&e);
            }
        },
        1 => match sb.stat(&{
            let mut args_ = StatArgs::default();
            args_.path = spell("sub/g");
            args_
        }) {
            Ok(s) => {
                assert_eq!(s.size, INSIDE.len() as u64, "[{ctx}] stat saw another file");
                assert!(s.path.starts_with(&w.root.display().to_string()));
                t.ok();
            }
            Err(e) => {
                clean(w, &e.message, ctx);
                t.err(&e);
            }
        },
        2 => match sb.list_dir(&{
            let mut args_ = ListArgs::default();
            args_.path = Some(if i.is_multiple_of(2) {
                d.to_string()
            } else {
                format!("{d}/")
            });
            args_.hidden = Some(true);
            args_.no_ignore = Some(true);
            args_
        }) {
            Ok(l) => {
                let names: Vec<&str> = l.entries.iter().map(|e| e.name.as_str()).collect();
                clean(w, &names.join(","), ctx);
                assert_eq!(names, ["f", "inside_name.txt", "sub"], "[{ctx}] list");
                t.ok();
            }
            Err(e) => {
                clean(w, &e.message, ctx);
                t.err(&e);
            }
        },
        3 => {
            let r = sb.glob(&{
                let mut args_ = GlobArgs::default();
                args_.pattern = "**".into();
                args_.path = Some(d.to_string());
                args_.hidden = Some(true);
                args_.no_ignore = Some(true);
                args_.limit = Some(100);
                args_
            });
            match r {
                Ok(g) => {
                    clean(w, &g.matches, ctx);
                    t.ok();
                }
                Err(e) => {
                    clean(w, &e.message, ctx);
                    t.err(&e);
                }
            }
        }
        4 => {
            // The whole root, walked while a directory in it flips.
            let r = sb.grep_search(&{
                let mut args_ = GrepArgs::new("needle|CANARY");
                args_.hidden = Some(true);
                args_.no_ignore = Some(true);
                args_.limit = Some(100);
                args_
            });
            match r {
                Ok(g) => {
                    clean(w, &g.matches, ctx);
                    for line in g.matches.lines() {
                        assert!(line.ends_with(":needle INSIDE"), "[{ctx}] grep line {line}");
                    }
                    t.ok();
                }
                Err(e) => {
                    clean(w, &e.message, ctx);
                    t.err(&e);
                }
            }
        }
        5 => {
            let r = sb.grep_search(&{
                let mut args_ = GrepArgs::new("needle|CANARY");
                args_.path = Some(spell(""));
                args_.output_mode = Some(if i.is_multiple_of(2) {
                    OutputMode::FilesWithMatches
                } else {
                    OutputMode::Content
                });
                args_.hidden = Some(true);
                args_.no_ignore = Some(true);
                args_
            });
            match r {
                Ok(g) => {
                    clean(w, &g.matches, ctx);
                    t.ok();
                }
                Err(e) => {
                    clean(w, &e.message, ctx);
                    t.err(&e);
                }
            }
        }
        _ => {
            // The JSON surface an agent loop uses.
            let tools = [
                (
                    "read_file",
                    json!({"path": spell("sub/g"), "start_line": 1}),
                ),
                ("list_dir", json!({"path": spell("sub")})),
                ("glob", json!({"pattern": "*", "path": spell("sub")})),
                (
                    "grep_search",
                    json!({"pattern": "needle|CANARY", "path": spell("sub/g")}),
                ),
                ("stat", json!({"path": spell("f")})),
            ];
            let (name, args) = &tools[(i as usize / 7) % tools.len()];
            let v = sb.call(name, args.clone());
            clean(w, &v.to_string(), ctx);
            if v.get("error").is_none() {
                t.ok();
            } else {
                t.refused.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

fn inside_tree(w: &World, d: &str) {
    w.file(&format!("{d}/f"), INSIDE)
        .file(&format!("{d}/sub/g"), INSIDE)
        .file(&format!("{d}/inside_name.txt"), INSIDE);
    // The outside mirror has the same names (so a stray walk finds them) and canary bytes and names.
    let bad = format!("needle {}\n", w.canary);
    std::fs::write(w.outside.join("f"), &bad).unwrap();
    std::fs::create_dir_all(w.outside.join("sub")).unwrap();
    std::fs::write(w.outside.join("sub/g"), &bad).unwrap();
    std::fs::write(w.outside.join("sub/secret.txt"), &bad).unwrap();
    std::fs::write(w.outside.join(format!("sub/{}", w.canary)), &bad).unwrap();
}

fn dir_swap(how: Swap, portable: bool) {
    let w = World::new();
    let d = "p/d";
    inside_tree(&w, d);
    w.link("p/d.lnk", "../../outside");
    let sb = Sandbox::builder().root(&w.root).threads(2).build().unwrap();
    let ctx = format!("dir swap {how:?}, portable {portable}");
    let tally = Tally::default();
    let swaps = AtomicU64::new(0);
    let (dp, lp) = (w.path(d), w.path("p/d.lnk"));
    in_mode(portable, |_| {
        race(
            &ctx,
            &tally,
            &|stop| swap_loop(&dp, &lp, how, stop, &swaps),
            &|i| mixed_call(&w, &sb, d, i, &tally, &ctx),
            &|| {
                tally.inside.load(Ordering::Relaxed) > 50
                    && tally.refused.load(Ordering::Relaxed) > 50
            },
        )
    });
    assert!(
        swaps.load(Ordering::Relaxed) > 0,
        "[{ctx}] the swapper never ran"
    );
    assert!(
        tally.inside.load(Ordering::Relaxed) > 0,
        "[{ctx}] never saw the directory"
    );
    assert!(
        tally.refused.load(Ordering::Relaxed) > 0,
        "[{ctx}] never saw the symlink"
    );
}

#[test]
fn dir_swap_dance() {
    dir_swap(Swap::Dance, false);
}

#[test]
fn dir_swap_exchange() {
    dir_swap(Swap::Exchange, false);
}

#[test]
fn dir_swap_dance_portable_resolver() {
    dir_swap(Swap::Dance, true);
}

/// ATTACKS 20: `data` (the root) is renamed to `data.moved` and a symlink `data -> outside` put in its
/// place, then undone, in a loop. Relative and absolute requests (the absolute ones name the root by
/// its old path) must keep reaching the held directory, or fail; never the outside.
#[test]
fn root_renamed_while_held() {
    let w = World::new();
    w.file("f", INSIDE)
        .file("sub/g", INSIDE)
        .file("inside_name.txt", INSIDE);
    inside_tree(&w, "x"); // the outside mirror (the x/ subtree is just more inside content)
    let sb = Sandbox::builder().root(&w.root).threads(2).build().unwrap();
    let ctx = "root renamed";
    let tally = Tally::default();
    let swaps = AtomicU64::new(0);
    let root: PathBuf = w.root.clone();
    let moved = w.base.join("data.moved");
    let outside = w.outside.clone();
    let mutator = |stop: &AtomicBool| {
        while !stop.load(Ordering::Relaxed) {
            std::fs::rename(&root, &moved).unwrap();
            std::os::unix::fs::symlink(&outside, &root).unwrap();
            std::thread::yield_now();
            std::fs::remove_file(&root).unwrap();
            std::fs::rename(&moved, &root).unwrap();
            swaps.fetch_add(1, Ordering::Relaxed);
        }
    };
    let abs = w.root.display().to_string();
    let op = |i: u64| {
        let p = |rest: &str| {
            if i.is_multiple_of(2) {
                rest.to_string()
            } else {
                format!("{abs}/{rest}")
            }
        };
        let v = match i % 5 {
            0 => sb.call("read_file", json!({"path": p("f")})),
            1 => sb.call("stat", json!({"path": p("sub/g")})),
            2 => sb.call("list_dir", json!({"path": p("sub"), "hidden": true})),
            3 => sb.call(
                "glob",
                json!({"pattern": "**", "hidden": true, "limit": 100}),
            ),
            _ => sb.call(
                "grep_search",
                json!({"pattern": "needle|CANARY", "hidden": true}),
            ),
        };
        clean(&w, &v.to_string(), ctx);
        // The held handle answers every call: nothing here can fail.
        assert!(v.get("error").is_none(), "[{ctx}] {v}");
        if i.is_multiple_of(5) {
            assert_eq!(v["content"], INSIDE);
        }
        tally.ok();
    };
    // (the mode lock: another test of this binary may be using the portable resolver)
    in_mode(false, |_| {
        race(ctx, &tally, &mutator, &op, &|| {
            tally.inside.load(Ordering::Relaxed) > 200 && swaps.load(Ordering::Relaxed) > 0
        })
    });
    assert!(swaps.load(Ordering::Relaxed) > 0, "the renamer never ran");
}

/// ATTACKS 22 (growing/shrinking files): a writer truncates, rewrites, shrinks and grows (sparse) files
/// while they are read in both modes, searched and stat'ed. Any page is fine as long as it holds only
/// bytes the writer wrote (or zeros of a sparse hole, which make the file binary) and nothing panics.
#[test]
fn files_truncated_and_rewritten() {
    let w = World::new();
    let line_a = "needle aaaa é 🦀 aaaa\n";
    let line_b = "needle bbbb\r\n";
    let version = |k: u64| -> String {
        if k.is_multiple_of(2) {
            line_a.repeat(2000 + (k % 7) as usize * 500)
        } else {
            line_b.repeat(5000 + (k % 5) as usize * 700)
        }
    };
    for n in ["f0.txt", "f1.txt", "sub/f2.txt"] {
        w.file(n, version(0));
    }
    let sb = Sandbox::builder().root(&w.root).threads(2).build().unwrap();
    let ctx = "truncate";
    let tally = Tally::default();
    let writes = AtomicU64::new(0);
    let root = w.root.clone();
    let mutator = |stop: &AtomicBool| {
        use std::io::Write;
        let mut k = 1u64;
        while !stop.load(Ordering::Relaxed) {
            for n in ["f0.txt", "f1.txt", "sub/f2.txt"] {
                let p = root.join(n);
                let mut f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
                match k % 4 {
                    // Truncate, then write in chunks (readers see every length in between).
                    0 | 1 => {
                        f.set_len(0).unwrap();
                        for chunk in version(k).as_bytes().chunks(4096) {
                            f.write_all(chunk).unwrap();
                        }
                    }
                    // Shrink to a cut inside a character.
                    2 => f.set_len(1001).unwrap(),
                    // Grow with a sparse hole (zeros) past the end.
                    _ => f.set_len(300_000).unwrap(),
                }
                k += 1;
            }
            writes.fetch_add(1, Ordering::Relaxed);
            std::thread::yield_now();
        }
    };
    let allowed = |s: &str| {
        s.chars()
            .all(|c| "needle abé🦀\r\n\u{FFFD}".contains(c) || c == '\0')
    };
    let op = |i: u64| {
        let name = ["f0.txt", "f1.txt", "sub/f2.txt"][(i / 5 % 3) as usize];
        match i % 5 {
            0 => match sb.read_file(&{
                let mut args_ = ReadArgs::path(name);
                args_.offset = Some(i * 37 % 120_000);
                args_.limit = Some(1 + i % 9000);
                args_
            }) {
                Ok(r) => {
                    assert!(allowed(&r.content), "[{ctx}] {:?}", r.content);
                    assert!(r.next_offset >= r.offset, "[{ctx}] {r:?}");
                    tally.ok();
                }
                Err(e) => tally.err(&e),
            },
            1 => match sb.read_file(&{
                let mut args_ = ReadArgs::path(name);
                args_.start_line = Some(1 + i % 3000);
                args_.max_lines = Some(1 + i % 200);
                args_.line_numbers = Some(i.is_multiple_of(2));
                args_
            }) {
                Ok(r) => {
                    let body: String = r
                        .content
                        .lines()
                        .map(|l| l.split_once('\t').map_or(l, |(_, b)| b))
                        .collect();
                    assert!(
                        allowed(&body) || body.contains("[... line truncated"),
                        "[{ctx}] {:?}",
                        r.content
                    );
                    tally.ok();
                }
                Err(e) => tally.err(&e),
            },
            2 | 3 => match sb.grep_search(&{
                let mut args_ = GrepArgs::new("needle");
                args_.path = if i.is_multiple_of(2) {
                    Some(name.into())
                } else {
                    None
                };
                args_.limit = Some(100);
                args_
            }) {
                Ok(g) => {
                    for line in g.matches.lines() {
                        let text = line.splitn(3, ':').nth(2).unwrap_or("");
                        assert!(allowed(text), "[{ctx}] grep line {line:?}");
                    }
                    tally.ok();
                }
                Err(e) => tally.err(&e),
            },
            _ => match sb.stat(&{
                let mut args_ = StatArgs::default();
                args_.path = name.into();
                args_
            }) {
                Ok(_) => tally.ok(),
                Err(e) => tally.err(&e),
            },
        }
    };
    in_mode(false, |_| {
        race(ctx, &tally, &mutator, &op, &|| {
            writes.load(Ordering::Relaxed) > 20 && tally.inside.load(Ordering::Relaxed) > 100
        })
    });
    assert!(writes.load(Ordering::Relaxed) > 0, "the writer never ran");
    assert!(
        tally.inside.load(Ordering::Relaxed) > 0,
        "no call succeeded"
    );
}
