//! The n-gram index against the unindexed search and rg, in one run (BENCHMARKS.md, "Index").
//!
//! `cargo run --release --example index_bench -- DIR [--touch N]`: builds the index of DIR (time,
//! memory, RSS), then for each query the full listing (files_with_matches and count, every page by
//! cursor) indexed (median of 3), indexed in strict mode (no replay), unindexed and by `rg -l` /
//! `rg -c` (`-j2`, once each); the first content page; and with `--touch N`, the same after
//! changing the mtime of N files; with `--create N`, the same after copying N `.c` files into a new
//! directory of DIR (`rootbound-bench-new/`, removed at the end); `--no-strict` skips the strict
//! index (and its build). Prints the median ratio over the selective queries (files matching in
//! at most 1% of the indexed files) too, and with `--touch` the unindexed listing beside (same
//! answer asserted). `--touch` changes files of DIR: run it on a copy of the tree. `--loop N [--only TEXT]`: only the indexed listings, N times
//! each, of the queries whose pattern contains TEXT (or one of several, separated by commas) (to profile under `perf record`); `--limit N`
//! sets their page size (100).

use rootbound::{GrepArgs, IndexOptions, IndexVerify, OutputMode, Sandbox};
use std::process::Command;
use std::time::{Duration, Instant};

/// CPU seconds of this process so far (user + system, all threads: the build's included).
fn cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let f: Vec<&str> = s
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let t = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn rss_kib() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Pages fetched and walks replayed, over the run.
static REPLAYED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static PAGES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// The page size of a listing (`--limit`; 100 unless given).
static LIMIT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(100);

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Every page of the listing; (seconds, units, files pruned).
fn listing(sb: &Sandbox, a: &GrepArgs) -> (f64, u64, u64) {
    let mut a = a.clone();
    a.limit = Some(LIMIT.load(std::sync::atomic::Ordering::Relaxed));
    let t = Instant::now();
    let (mut units, mut pruned) = (0, 0);
    loop {
        let r = sb.grep_search(&a).unwrap();
        units += r.match_lines;
        pruned += r.stats.index.map_or(0, |i| i.files_pruned);
        REPLAYED.fetch_add(
            r.stats.index.map_or(0, |i| i.walks_replayed),
            std::sync::atomic::Ordering::Relaxed,
        );
        PAGES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match r.next_cursor {
            Some(c) => a.cursor = Some(c),
            None => break,
        }
    }
    (t.elapsed().as_secs_f64(), units, pruned)
}

fn rg(dir: &str, flag: &str, q: &(&str, &[&str])) -> f64 {
    let mut v = Vec::new();
    for _ in 0..1 {
        let t = Instant::now();
        let out = Command::new("rg")
            .args(["-j2", flag])
            .args(q.1)
            .arg("--")
            .arg(q.0)
            .arg(dir)
            .output()
            .unwrap();
        assert!(out.status.code().unwrap_or(2) < 2);
        v.push(t.elapsed().as_secs_f64());
    }
    median(v)
}

fn args(q: &(&str, &[&str]), mode: OutputMode) -> GrepArgs {
    let mut a = GrepArgs::new(q.0);
    a.output_mode = Some(mode);
    for f in q.1 {
        match *f {
            "-i" => a.case_insensitive = Some(true),
            "-w" => a.word = Some(true),
            "-F" => a.fixed_strings = Some(true),
            "-S" => a.smart_case = Some(true),
            _ => {}
        }
    }
    a
}

const QUERIES: &[(&str, &[&str])] = &[
    ("PM_RESUME", &[]),
    ("mutex_lock", &[]),
    (r"static int .*_probe\(", &[]),
    ("TODO", &[]),
    ("EXPORT_SYMBOL_GPL", &[]),
    (r"\bkmalloc\(", &[]),
    ("struct file_operations", &[]),
    ("usb_.*reset", &["-i"]),
    ("copy_from_user", &[]),
    ("#include <linux/module.h>", &["-F"]),
    (r"\w+_lock_irq\w*\(", &[]),
    ("PM_RESUME", &["-w"]),
    ("ERR_SYS|PME_TURN_OFF", &[]),
    ("fixme", &["-i"]),
    ("zqxjkv_no_such_thing", &[]),
    ("spin_lock_irqsave", &["-S"]),
    (r"\p{Greek}", &[]),
    (r"\w{5}(\s+\w{5}){4}", &[]),
];

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let dir = argv.get(1).expect("DIR").clone();
    let touch: Option<usize> = argv
        .iter()
        .position(|a| a == "--touch")
        .and_then(|i| argv.get(i + 1))
        .and_then(|n| n.parse().ok());
    let create: Option<usize> = argv
        .iter()
        .position(|a| a == "--create")
        .and_then(|i| argv.get(i + 1))
        .and_then(|n| n.parse().ok());
    let only_idx = argv.iter().any(|a| a == "--quick");
    let no_strict = argv.iter().any(|a| a == "--no-strict");
    println!("load average at the start: {}", loadavg());
    let build = || Sandbox::builder().root(&dir).threads(2).build().unwrap();
    let off = build();
    let rss0 = rss_kib();
    let (t, cpu0) = (Instant::now(), cpu_secs());
    let on = build().with_index();
    assert!(on.wait_for_index(Duration::from_secs(3600)));
    let st = on.index_status();
    println!(
        "build: {:.1} s (CPU {:.1} s, load average after it {}), files {}, index memory {:.1} MB, RSS +{:.1} MB, state {}",
        t.elapsed().as_secs_f64(),
        cpu_secs() - cpu0,
        loadavg(),
        st[0].files,
        st[0].memory as f64 / 1e6,
        (rss_kib().saturating_sub(rss0)) as f64 / 1024.0,
        st[0].state
    );
    if let Some(i) = argv.iter().position(|a| a == "--loop") {
        // Profiling aid: the full listing of the queries whose pattern contains `--only`'s text, N
        // times each (run under `perf record`), indexed only.
        let n: usize = argv[i + 1].parse().expect("--loop N");
        if let Some(l) = argv.iter().position(|a| a == "--limit") {
            let limit = argv[l + 1].parse().expect("--limit N");
            LIMIT.store(limit, std::sync::atomic::Ordering::Relaxed);
        }
        let only = argv
            .iter()
            .position(|a| a == "--only")
            .map(|i| argv[i + 1].clone())
            .unwrap_or_default();
        // Several texts, separated by commas: the queries that contain any of them.
        let wanted = |q: &&(&str, &[&str])| only.split(',').any(|t| q.0.contains(t));
        for q in QUERIES.iter().filter(wanted) {
            for mode in [OutputMode::FilesWithMatches, OutputMode::Count] {
                let a = args(q, mode);
                listing(&on, &a);
                assert!(on.wait_for_index(Duration::from_secs(600)));
                let cpu = cpu_secs();
                let v: Vec<f64> = (0..n).map(|_| listing(&on, &a).0).collect();
                // CPU time says more than wall time on a loaded machine.
                let cpu = (cpu_secs() - cpu) / n as f64;
                println!(
                    "{} {:?}: median {:.1} ms, CPU {:.1} ms a listing (load {})",
                    q.0,
                    mode,
                    median(v) * 1e3,
                    cpu * 1e3,
                    loadavg()
                );
            }
        }
        if let Some(n) = touch {
            touched(&on, &off, &dir, n);
        }
        return;
    }
    let strict = if no_strict {
        build()
    } else {
        build().with_index_options(IndexOptions::default().verify(IndexVerify::Strict))
    };
    assert!(strict.wait_for_index(Duration::from_secs(3600)));
    let files = st[0].files as f64;
    let mut selective = Vec::new();
    // Warm both.
    listing(&off, &args(&QUERIES[0], OutputMode::FilesWithMatches));
    listing(&on, &args(&QUERIES[0], OutputMode::FilesWithMatches));
    let mut ratios = Vec::new();
    let mut sel_ratios = Vec::new();
    println!("| query | mode | indexed s | strict s | unindexed s | rg s | rg/indexed | rg/strict | unindexed/indexed | units | pruned |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for q in QUERIES {
        for (mode, flag) in [
            (OutputMode::FilesWithMatches, "-l"),
            (OutputMode::Count, "-c"),
        ] {
            let a = args(q, mode);
            // The first indexed run of a new walk key records the walk in the background; the
            // timed runs replay it (the figures are the repeated search an agent makes).
            listing(&on, &a);
            assert!(on.wait_for_index(Duration::from_secs(600)));
            let mut ti = Vec::new();
            let mut tu = Vec::new();
            let (mut units, mut pruned) = (0, 0);
            for _ in 0..3 {
                let (s, u, p) = listing(&on, &a);
                ti.push(s);
                units = u;
                pruned = p;
                if !only_idx && tu.is_empty() {
                    let (s2, u2, _) = listing(&off, &a);
                    assert_eq!(u, u2, "{q:?}");
                    tu.push(s2);
                }
            }
            if flag == "-l" && units as f64 <= files / 100.0 {
                selective.push(q.0);
            }
            let st = if only_idx || no_strict {
                f64::NAN
            } else {
                listing(&strict, &a).0
            };
            let (i, u) = (median(ti), if only_idx { f64::NAN } else { median(tu) });
            let r = if only_idx {
                f64::NAN
            } else {
                rg(&dir, flag, q)
            };
            ratios.push((r / i, u / i, r / st));
            if selective.last() == Some(&q.0) {
                sel_ratios.push(r / i);
            }
            println!(
                "| `{}` {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.1}x | {:.1}x | {:.2}x | {} | {} |",
                q.0,
                q.1.join(" "),
                flag,
                i,
                st,
                u,
                r,
                r / i,
                r / st,
                u / i,
                units,
                pruned
            );
        }
    }
    let mut rr: Vec<f64> = ratios.iter().map(|r| r.0).collect();
    let mut ru: Vec<f64> = ratios.iter().map(|r| r.1).collect();
    let mut rs: Vec<f64> = ratios.iter().map(|r| r.2).collect();
    rr.sort_by(f64::total_cmp);
    ru.sort_by(f64::total_cmp);
    rs.sort_by(f64::total_cmp);
    println!(
        "median rg/indexed {:.1}x (min {:.1}x), median unindexed/indexed {:.2}x (min {:.2}x), median rg/strict {:.1}x (min {:.1}x)",
        rr[rr.len() / 2],
        rr[0],
        ru[ru.len() / 2],
        ru[0],
        rs[rs.len() / 2],
        rs[0]
    );
    sel_ratios.sort_by(f64::total_cmp);
    if !sel_ratios.is_empty() {
        println!(
            "selective rows (files matching <= 1% of {files}): {}, median rg/indexed {:.1}x (min {:.1}x); {:?}",
            sel_ratios.len(),
            sel_ratios[sel_ratios.len() / 2],
            sel_ratios[0],
            selective
        );
    }
    println!(
        "pages fetched {}, walks replayed {} (the unindexed pages replay none)",
        PAGES.load(std::sync::atomic::Ordering::Relaxed),
        REPLAYED.load(std::sync::atomic::Ordering::Relaxed)
    );
    for sb in [("indexed", &on), ("unindexed", &off)] {
        let mut a = GrepArgs::new("mutex_lock");
        a.limit = Some(10);
        let mut v = Vec::new();
        for _ in 0..9 {
            let t = Instant::now();
            sb.1.grep_search(&a).unwrap();
            v.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let mut b = GrepArgs::new("PM_RESUME");
        b.limit = Some(10);
        let mut w = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            sb.1.grep_search(&b).unwrap();
            w.push(t.elapsed().as_secs_f64() * 1e3);
        }
        println!(
            "first content page ({}): mutex_lock {:.1} ms, PM_RESUME {:.1} ms",
            sb.0,
            median(v),
            median(w)
        );
    }
    if let Some(n) = touch {
        touched(&on, &off, &dir, n);
    }
    println!("load average at the end: {}", loadavg());
    if let Some(n) = create {
        created(&on, &dir, n);
    }
}

/// `n` `.c` files of `dir`, spread over the tree.
fn spread_c_files(dir: &str, n: usize) -> Vec<std::path::PathBuf> {
    fn c_files(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let t = e.file_type().unwrap();
            if t.is_dir() {
                c_files(&e.path(), out);
            } else if t.is_file() && e.path().extension().is_some_and(|x| x == "c") {
                out.push(e.path());
            }
        }
    }
    let mut files = Vec::new();
    c_files(std::path::Path::new(&dir), &mut files);
    let step = (files.len() / n.max(1)).max(1);
    files.into_iter().step_by(step).take(n).collect()
}

/// Copies `n` `.c` files of `dir` into a new directory of it, then times three queries at once
/// (a new tree shape: walked, then recorded again) and once the new files are described in the
/// background (before that was built, they were searched at every query); removes the directory
/// at the end.
fn created(on: &Sandbox, dir: &str, n: usize) {
    let new = std::path::Path::new(dir).join("rootbound-bench-new");
    std::fs::create_dir(&new).expect("a new directory in DIR");
    for (i, f) in spread_c_files(dir, n).iter().enumerate() {
        std::fs::copy(f, new.join(format!("{i}.c"))).unwrap();
    }
    for phase in ["at once", "described"] {
        if phase == "described" {
            std::thread::sleep(Duration::from_millis(2100));
            let t = Instant::now();
            listing(on, &args(&QUERIES[0], OutputMode::FilesWithMatches));
            assert!(on.wait_for_index(Duration::from_secs(600)));
            println!("described in {:.2} s", t.elapsed().as_secs_f64());
        }
        for q in [&QUERIES[0], &QUERIES[1], &QUERIES[8]] {
            let a = args(q, OutputMode::FilesWithMatches);
            let i = if phase == "at once" {
                listing(on, &a).0
            } else {
                median((0..3).map(|_| listing(on, &a).0).collect())
            };
            let r = rg(dir, "-l", q);
            println!(
                "after creating {n} files, {phase}: `{}` indexed {:.3} s, rg {:.3} s, {:.1}x",
                q.0,
                i,
                r,
                r / i
            );
        }
        if phase == "at once" {
            assert!(on.wait_for_index(Duration::from_secs(600)));
        }
    }
    std::fs::remove_dir_all(&new).unwrap();
}

/// Changes the mtime of `n` `.c` files of `dir`, then times three queries at once and once the
/// changed files are described again.
fn touched(on: &Sandbox, off: &Sandbox, dir: &str, n: usize) {
    // Change the mtime (and so the ctime) of n files spread over the tree.
    let now = std::time::SystemTime::now();
    for f in spread_c_files(dir, n).iter() {
        let _ = std::fs::File::options()
            .write(true)
            .open(f)
            .and_then(|f| f.set_modified(now));
    }
    // At once (the changed files are searched), then once they are described again in the
    // background (which waits until they are two seconds old).
    for phase in ["at once", "described again"] {
        if phase == "described again" {
            std::thread::sleep(Duration::from_millis(2100));
            let t = Instant::now();
            listing(on, &args(&QUERIES[0], OutputMode::FilesWithMatches));
            assert!(on.wait_for_index(Duration::from_secs(600)));
            println!("described again in {:.2} s", t.elapsed().as_secs_f64());
        }
        for q in [&QUERIES[0], &QUERIES[1], &QUERIES[8]] {
            let a = args(q, OutputMode::FilesWithMatches);
            // Changed mtimes are content changes: the recorded walk still holds.
            let (p0, r0) = (
                PAGES.load(std::sync::atomic::Ordering::Relaxed),
                REPLAYED.load(std::sync::atomic::Ordering::Relaxed),
            );
            // The first listing right after the change, then the median of it and two more.
            let first = listing(on, &a);
            let mut v = vec![first.0];
            v.extend((0..2).map(|_| listing(on, &a).0));
            let i = median(v);
            let pages = PAGES.load(std::sync::atomic::Ordering::Relaxed) - p0;
            let replayed = REPLAYED.load(std::sync::atomic::Ordering::Relaxed) - r0;
            let (u, units, _) = listing(off, &a);
            assert_eq!(
                first.1, units,
                "{q:?} after touching: indexed and unindexed differ"
            );
            let r = rg(dir, "-l", q);
            println!(
                "after touching {n} files, {phase}: `{}` first indexed {:.3} s, median {:.3} s, unindexed {:.3} s ({:.2}x first), rg {:.3} s, {:.1}x rg/median ({replayed} of {pages} pages replayed, {units} files, same answer)",
                q.0,
                first.0,
                i,
                u,
                u / first.0,
                r,
                r / i
            );
        }
    }
}
