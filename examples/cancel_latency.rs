//! Cancel latency in-process (issue 13; figures in BENCHMARKS.md):
//! `cargo run --release --example cancel_latency -- ROOT [RUNS] [THREADS]`.
//!
//! Starts a grep over ROOT that scans every file (`\w{5}(\s+\w{5}){4}`: no literal to skip by, count
//! mode, pages of up to 1,000,000 entries), cancels its `Budget` from another thread after 300 ms, and times how long the call takes
//! to return after the cancel. RUNS times (default 10); prints the median and the maximum.

use rootbound::{Budget, GrepArgs, Limits, OutputMode, Sandbox};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = args
        .next()
        .expect("usage: cancel_latency ROOT [RUNS] [THREADS]");
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let threads: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    // Pages large enough that the search cannot fill one before the cancel.
    let limits = Limits {
        max_results: 1_000_000,
        max_bytes: 256 << 20,
        ..Limits::default()
    };
    let sb = Sandbox::builder()
        .root(&root)
        .limits(limits)
        .threads(threads)
        .timeout_ms(600_000)
        .build()
        .expect("a readable root");
    let mut grep = GrepArgs::new(r"\w{5}(\s+\w{5}){4}");
    grep.output_mode = Some(OutputMode::Count);
    grep.limit = Some(1_000_000);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut lat = Vec::new();
    for _ in 0..runs {
        let budget = Budget::new();
        let canceller = budget.clone();
        let at = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            canceller.cancel();
            Instant::now()
        });
        let page = sb.within(&budget).grep_search(&grep).expect("grep");
        let returned = Instant::now();
        let cancelled = at.join().unwrap();
        assert!(page.timed_out, "the grep finished before the cancel");
        lat.push(returned.saturating_duration_since(cancelled));
    }
    lat.sort();
    println!(
        "library cancel -> return: {runs} runs, median {:.2} ms, max {:.2} ms; load average {}",
        lat[runs / 2].as_secs_f64() * 1e3,
        lat[runs - 1].as_secs_f64() * 1e3,
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
}
