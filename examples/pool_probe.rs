//! Measures what issue 13 is about: OS threads during concurrent grep calls on one `Sandbox`, and
//! the in-process latency of a grep on a tiny tree.
//!
//! `cargo run --release --example pool_probe` prints:
//! - the peak of `Threads:` in /proc/self/status while 50 threads each run grep calls on one sandbox
//!   (minus the 50 callers, the sampler and main: the threads the library itself added);
//! - the median and p90 of one `grep_search` on a 5-file tree, in microseconds.

use rootbound::{GrepArgs, Sandbox};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn threads_now() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:").map(|v| v.trim().parse().ok()))
                .flatten()
        })
        .unwrap_or(0)
}

fn main() {
    let callers = 50;
    let dir = tempfile::tempdir().unwrap();
    for d in 0..20 {
        let sub = dir.path().join(format!("d{d:02}"));
        std::fs::create_dir(&sub).unwrap();
        for f in 0..50 {
            let body = format!("line one\nfn item_{d}_{f}() {{}}\nneedle {f}\nlast\n").repeat(20);
            std::fs::write(sub.join(format!("f{f:02}.rs")), body).unwrap();
        }
    }
    let sb = Sandbox::builder().root(dir.path()).build().unwrap();
    // Warm up (and build the pool, if it is built lazily).
    sb.grep_search(&GrepArgs::new("needle")).unwrap();
    let base = threads_now();
    let peak = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    let calls = 20;
    let t0 = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(threads_now(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(200));
            }
        });
        let handles: Vec<_> = (0..callers)
            .map(|i| {
                let sb = &sb;
                s.spawn(move || {
                    for j in 0..calls {
                        // A full search (no match: every file is searched) and a first page.
                        let pat = if (i + j) % 2 == 0 {
                            "NOMATCH_x"
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
        for h in handles {
            h.join().unwrap();
        }
        done.store(true, Ordering::Relaxed);
    });
    let elapsed = t0.elapsed();
    let peak = peak.load(Ordering::Relaxed);
    println!(
        "concurrent: {callers} callers x {calls} greps over 1000 files in {elapsed:?}; threads before {base} \
         (main, and the search pool once built), peak {peak}; added at peak beyond the callers and the \
         sampler: {}",
        peak.saturating_sub(base + callers + 1)
    );

    let small = tempfile::tempdir().unwrap();
    for i in 0..5 {
        std::fs::write(
            small.path().join(format!("f{i}.txt")),
            format!("alpha\nbeta {i}\ngamma needle\n"),
        )
        .unwrap();
    }
    let sb = Sandbox::builder().root(small.path()).build().unwrap();
    let args = GrepArgs::new("needle");
    for _ in 0..200 {
        sb.grep_search(&args).unwrap();
    }
    let mut times: Vec<Duration> = (0..5000)
        .map(|_| {
            let t = Instant::now();
            let r = sb.grep_search(&args).unwrap();
            let e = t.elapsed();
            assert_eq!(r.match_lines, 5);
            e
        })
        .collect();
    times.sort();
    println!(
        "5-file tree: median {:.1} us, p90 {:.1} us, p99 {:.1} us ({} calls)",
        times[times.len() / 2].as_secs_f64() * 1e6,
        times[times.len() * 9 / 10].as_secs_f64() * 1e6,
        times[times.len() * 99 / 100].as_secs_f64() * 1e6,
        times.len()
    );
}
