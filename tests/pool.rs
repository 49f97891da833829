//! Searches on a shared rayon pool, cancellation, and a call that returns at its budget even while
//! one regex scan is stuck: no OS thread per call, no deadlock when a call is
//! made from a thread of the same pool, a small call is not starved by a huge one, a stuck scan does
//! not hold the call past its deadline, and a cancelled call returns promptly.

mod support;

use rootbound::{Budget, GrepArgs, GrepResult, Sandbox};
use serde_json::json;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::data::{XorShift, SLOW};
use support::read::within;

/// These tests measure time and thread counts: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// `len` bytes of pseudo-random `[a-j]` (the text [`SLOW`] is slow on), with a newline every
/// `line` bytes (0: none), from `seed`.
fn letters(len: usize, line: usize, seed: u64) -> Vec<u8> {
    support::data::letters(&mut XorShift::new(seed + 1), len, line)
}

/// `files` files of `kib` KiB of slow-to-scan text under `dir`.
fn slow_tree(dir: &Path, files: usize, kib: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..files {
        std::fs::write(
            dir.join(format!("f{i:04}.txt")),
            letters(kib * 1024, 1000, i as u64),
        )
        .unwrap();
    }
}

fn small_tree(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..5 {
        std::fs::write(
            dir.join(format!("s{i}.txt")),
            format!("alpha\nneedle {i}\nomega\n"),
        )
        .unwrap();
    }
}

fn sandbox(root: &Path, threads: usize) -> Sandbox {
    Sandbox::builder()
        .root(root)
        .threads(threads)
        .build()
        .unwrap()
}

fn threads_now() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

/// Threads of this process whose name starts with `prefix`.
fn named_threads(prefix: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|n| n.starts_with(prefix))
        .count()
}

#[test]
fn concurrent_calls_create_no_threads() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    for d in 0..10 {
        let sub = dir.path().join(format!("d{d}"));
        std::fs::create_dir(&sub).unwrap();
        for f in 0..40 {
            std::fs::write(
                sub.join(format!("f{f}.rs")),
                "fn x() {}\nneedle\n".repeat(50),
            )
            .unwrap();
        }
    }
    let named = named_threads("rootbound-searc");
    let sb = sandbox(dir.path(), 2);
    sb.grep_search(&GrepArgs::new("needle")).unwrap();
    assert!(named_threads("rootbound-searc") <= named + 2);
    let callers = 50;
    let base = threads_now();
    let peak = AtomicUsize::new(base);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(threads_now(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(500));
            }
        });
        let calls: Vec<_> = (0..callers)
            .map(|i| {
                let sb = &sb;
                s.spawn(move || {
                    for j in 0..10 {
                        let pat = if (i + j) % 2 == 0 {
                            "NOMATCH"
                        } else {
                            "needle"
                        };
                        let r = sb
                            .grep_search(&{
                                let mut args_ = GrepArgs::new(pat);
                                args_.limit = Some(100);
                                args_
                            })
                            .unwrap();
                        assert!(!r.timed_out);
                    }
                })
            })
            .collect();
        for c in calls {
            c.join().unwrap();
        }
        done.store(true, Ordering::Relaxed);
    });
    let peak = peak.into_inner();
    // The callers and the sampler; the pool's 2 threads were there before. A little slack for the
    // test harness.
    assert!(
        peak <= base + callers + 1 + 3,
        "threads: {base} before, peak {peak} with {callers} callers"
    );
    // A clone shares the pool.
    let clone = sb.clone().with_agent("other");
    clone.grep_search(&GrepArgs::new("needle")).unwrap();
    assert!(named_threads("rootbound-searc") <= named + 2);
}

#[test]
fn a_supplied_pool_is_used_and_a_call_from_inside_it_does_not_deadlock() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    small_tree(dir.path());
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "custom-pool".into())
            .build()
            .unwrap(),
    );
    let before = named_threads("rootbound-searc");
    let sb = Arc::new(
        Sandbox::builder()
            .root(dir.path())
            .thread_pool(Arc::clone(&pool))
            .build()
            .unwrap(),
    );
    let expect = sb.grep_search(&GrepArgs::new("needle")).unwrap();
    assert_eq!(expect.match_lines, 5);
    // From the pool's only thread: a call that queued its batches there and waited would never
    // see them run.
    let (p, s) = (Arc::clone(&pool), Arc::clone(&sb));
    let inside: GrepResult = within(Duration::from_secs(20), "the call (deadlock?)", move || {
        p.install(|| s.grep_search(&GrepArgs::new("needle")).unwrap())
    });
    assert_eq!(inside, expect);
    // Nested: the pool's thread is inside a task of its own while it calls.
    let (p, s) = (Arc::clone(&pool), Arc::clone(&sb));
    let nested = within(Duration::from_secs(20), "the call (deadlock?)", move || {
        p.install(|| rayon::join(|| s.grep_search(&GrepArgs::new("needle")).unwrap(), || 1).0)
    });
    assert_eq!(nested, expect);
    // From a thread of another pool: searched on ours, no deadlock either.
    let other = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let s = Arc::clone(&sb);
    assert_eq!(
        other.install(|| s.grep_search(&GrepArgs::new("needle")).unwrap()),
        expect
    );
    // (Pools of earlier tests may still be going away.)
    assert!(
        named_threads("rootbound-searc") <= before,
        "built a pool of its own"
    );
    // Two of the pool's threads calling at once (each runs inline).
    let two = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    let sb2 = Arc::new(
        Sandbox::builder()
            .root(dir.path())
            .build()
            .unwrap()
            .with_thread_pool(Arc::clone(&two)),
    );
    let (a, b) = within(Duration::from_secs(20), "the call (deadlock?)", move || {
        two.install(|| {
            rayon::join(
                || sb2.grep_search(&GrepArgs::new("needle")).unwrap(),
                || sb2.grep_search(&GrepArgs::new("needle")).unwrap(),
            )
        })
    });
    assert_eq!(a.match_lines, 5);
    assert_eq!(b.match_lines, 5);
}

/// How long a call with a 100 ms deadline (or a small search beside stuck scans) may take to
/// return: many times the deadline plus slack for a loaded 2-core machine, still well under the
/// seconds of work a stuck scan (or the huge search) would hold it for.
const RETURNS_BY: Duration = Duration::from_secs(3);

#[test]
fn a_stuck_scan_does_not_hold_the_call_past_its_deadline() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    // One 16 MiB line (streaming path: one regex call over the whole line, seconds of work, far
    // past the bound below) and a 200 KiB line (slice path: one regex call over the whole file).
    std::fs::write(dir.path().join("a_long.txt"), letters(16 << 20, 0, 1)).unwrap();
    std::fs::write(dir.path().join("b_slice.txt"), letters(200 << 10, 0, 2)).unwrap();
    small_tree(&dir.path().join("c"));
    let named = named_threads("rootbound-s");
    let sb = sandbox(dir.path(), 2);
    for file in ["a_long.txt", "b_slice.txt"] {
        let t = Instant::now();
        let r = sb
            .grep_search(&{
                let mut args_ = GrepArgs::new(SLOW);
                args_.path = Some(file.into());
                args_.timeout_ms = Some(100);
                args_
            })
            .unwrap();
        let took = t.elapsed();
        assert!(r.timed_out && r.truncated, "{file}: {r:?}");
        assert!(r.next_cursor.is_some(), "{file}: {r:?}");
        assert!(
            took < RETURNS_BY,
            "{file}: returned after {took:?} with timeout_ms 100"
        );
    }
    // The stuck scans go on in the background and hold the pool's threads; a call now still
    // completes at once (on a spill thread while every pool thread is held by such a scan).
    let t = Instant::now();
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.path = Some("c".into());
            args_
        })
        .unwrap();
    assert_eq!(r.match_lines, 5, "{r:?}");
    assert!(t.elapsed() < RETURNS_BY, "{:?}", t.elapsed());
    // The same with a one-thread pool.
    let one = sandbox(dir.path(), 1);
    let r = one
        .grep_search(&{
            let mut args_ = GrepArgs::new(SLOW);
            args_.path = Some("b_slice.txt".into());
            args_.timeout_ms = Some(100);
            args_
        })
        .unwrap();
    assert!(r.timed_out);
    // Another stuck call returns at its deadline too (on a spill thread: the pool's only thread is
    // held by the first scan).
    let t = Instant::now();
    let r = one
        .grep_search(&{
            let mut args_ = GrepArgs::new(SLOW);
            args_.path = Some("b_slice.txt".into());
            args_.timeout_ms = Some(100);
            args_
        })
        .unwrap();
    assert!(r.timed_out);
    assert!(t.elapsed() < RETURNS_BY, "{:?}", t.elapsed());
    let t = Instant::now();
    let r = one
        .grep_search(&{
            let mut args_ = GrepArgs::new("needle");
            args_.path = Some("c".into());
            args_
        })
        .unwrap();
    assert_eq!(r.match_lines, 5, "{r:?}");
    assert!(t.elapsed() < RETURNS_BY, "{:?}", t.elapsed());
    // The scans end in the background; then the pools go with their sandboxes (the scans hold
    // clones). Wait for that, so that the next test does not share the cores with them.
    drop((sb, one));
    let until = Instant::now() + Duration::from_secs(60);
    while named_threads("rootbound-s") > named && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        named_threads("rootbound-s") <= named,
        "the pools or spill threads outlived their scans"
    );
}

#[test]
fn cancel_from_another_thread_returns_promptly() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    slow_tree(dir.path(), 120, 32);
    // One search thread: on a 2-core machine the calling thread then has a core of its own, and
    // what is measured is the call's reaction, not how long the scheduler lets a scan run first.
    let sb = Arc::new(sandbox(dir.path(), 1));
    let mut lags = Vec::new();
    for trial in 0..6 {
        // Let the scans of the previous trial end: while they hold every pool thread a call
        // searches on its own thread, and a scan there checks no budget until it ends.
        std::thread::sleep(Duration::from_millis(400));
        let json = trial % 2 == 1;
        let budget = Budget::new();
        let (s, b) = (Arc::clone(&sb), budget.clone());
        let call = std::thread::spawn(move || {
            let args = {
                let mut args_ = GrepArgs::new(SLOW);
                args_.limit = Some(100);
                args_
            };
            let r = if json {
                let v = s
                    .within(&b)
                    .call_result("grep_search", serde_json::to_value(&args).unwrap());
                serde_json::from_value::<GrepResult>(v.unwrap()).unwrap()
            } else {
                s.within(&b).grep_search(&args).unwrap()
            };
            (r, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(100));
        let cancelled = Instant::now();
        budget.cancel();
        let (r, returned) = call.join().unwrap();
        lags.push(returned.saturating_duration_since(cancelled));
        assert!(
            r.timed_out && r.truncated && r.next_cursor.is_some(),
            "{r:?}"
        );
    }
    lags.sort();
    println!("returned after the cancel: {lags:?}");
    // The calling thread looks at the cancel switch every 5 ms; the rest is scheduling, which on a
    // loaded shared machine can add anything from tens of ms to a second or more. The property is
    // that the cancel cut the call short (each call has seconds of work left, checked above by
    // `timed_out`), not the scheduler's latency: a bound far below the work, far above a stall.
    assert!(
        lags[lags.len() / 2] < Duration::from_millis(1000),
        "{lags:?}"
    );
    assert!(
        lags[lags.len() - 1] < Duration::from_millis(3000),
        "{lags:?}"
    );
    // Cancelled before it starts: CANCELLED, whatever the tool.
    let budget = Budget::new();
    budget.cancel();
    assert_eq!(
        sb.within(&budget)
            .grep_search(&GrepArgs::new("x"))
            .unwrap_err()
            .code,
        rootbound::ErrorCode::Cancelled
    );
    for (tool, args) in [
        ("read_file", json!({"path": "f0000.txt"})),
        ("glob", json!({"pattern": "*.txt"})),
        ("list_dir", json!({})),
        ("stat", json!({"path": "f0000.txt"})),
    ] {
        let v = sb.within(&budget).call(tool, args);
        assert_eq!(v["error"]["code"], "CANCELLED", "{tool}: {v}");
    }
}

#[test]
fn a_budget_deadline_shortens_the_call() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    slow_tree(dir.path(), 40, 64);
    let sb = sandbox(dir.path(), 2);
    let t = Instant::now();
    let r = sb
        .within(&Budget::new().with_timeout(Duration::from_millis(100)))
        .grep_search(&GrepArgs::new(SLOW))
        .unwrap();
    assert!(r.timed_out, "{r:?}");
    assert!(t.elapsed() < RETURNS_BY, "{:?}", t.elapsed());
    // Resuming with the cursor makes progress and does not skip a file.
    let next = sb
        .grep_search(&{
            let mut args_ = GrepArgs::new(SLOW);
            args_.cursor = r.next_cursor.clone();
            args_.timeout_ms = Some(300);
            args_
        })
        .unwrap();
    assert!(
        next.stats.files_searched + r.stats.files_searched <= 40,
        "{r:?} {next:?}"
    );
}

#[test]
fn a_small_search_is_not_starved_by_a_huge_one() {
    let _s = serial();
    let dir = tempfile::tempdir().unwrap();
    // Many small slow files: a small call waits behind the scans in progress, and one 64 KiB scan
    // of this pattern takes most of a second in a debug build on a slow machine. Enough of them
    // that the huge search cannot end before its deadline: 800 files of 16 KiB were searched
    // through in 3.4 s once line counting was left out of searches that show no line numbers.
    slow_tree(&dir.path().join("big"), 2_400, 16);
    small_tree(&dir.path().join("small"));
    let sb = Arc::new(sandbox(dir.path(), 2));
    let s = Arc::clone(&sb);
    let big = std::thread::spawn(move || {
        let t = Instant::now();
        let r = s
            .grep_search(&{
                let mut args_ = GrepArgs::new(SLOW);
                args_.path = Some("big".into());
                args_.timeout_ms = Some(4000);
                args_
            })
            .unwrap();
        (r, t.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        let t = Instant::now();
        let r = sb
            .grep_search(&{
                let mut args_ = GrepArgs::new("needle");
                args_.path = Some("small".into());
                args_
            })
            .unwrap();
        worst = worst.max(t.elapsed());
        assert_eq!(r.match_lines, 5);
    }
    let (r, big_took) = big.join().unwrap();
    // The huge search was still running throughout (it runs to its deadline).
    assert!(
        r.timed_out && big_took > Duration::from_secs(3),
        "{big_took:?}"
    );
    // Not starved: each small search ended long before the huge one (which ran > 3 s) would have
    // let it, rather than within a wall-clock bound a busy machine can stretch.
    assert!(
        worst < big_took / 3,
        "a 5-file search took {worst:?} beside a huge one of {big_took:?}"
    );
}
