//! `rootbound mcp` bounds the tool calls in flight. 300 grep calls written back to back
//! are all answered, while the server's thread count (`Threads:` in `/proc/PID/status`, sampled as
//! they run) stays within the search pool + the in-flight bound + a few fixed threads. Without the
//! bound each call would hold a thread of Tokio's blocking pool (up to 512) while it waits.

#![cfg(all(target_os = "linux", feature = "mcp", feature = "cli"))]

use crate::support::mcp::Mcp;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const CALLS: u64 = 300;
const POOL: usize = 2;
const IN_FLIGHT: usize = 3;

fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn pipelined_calls_are_bounded_and_all_answered() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    // ~300 files of text: each grep takes some milliseconds, so the calls overlap.
    for d in 0..10 {
        let dir = root.join(format!("d{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..30 {
            let body: String = (0..200)
                .map(|l| format!("line {l} of file {d}/{f}: lorem ipsum dolor sit amet\n"))
                .collect();
            std::fs::write(dir.join(format!("f{f}.txt")), body).unwrap();
        }
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    cmd.args(["mcp", "--root", root.to_str().unwrap(), "--threads"])
        .arg(POOL.to_string())
        .arg("--max-in-flight")
        .arg(IN_FLIGHT.to_string());
    let mut m = Mcp::spawn(cmd);
    let pid = m.pid();
    m.initialize("bound");

    // Sample the thread count while the calls run.
    let peak = Arc::new(AtomicUsize::new(threads(pid)));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
        std::thread::spawn(move || {
            let mut samples = 0u64;
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(threads(pid), Ordering::Relaxed);
                samples += 1;
                std::thread::sleep(Duration::from_millis(2));
            }
            samples
        })
    };
    let start = Instant::now();
    for id in 1..=CALLS {
        // Distinct patterns, some matching in every file.
        let pattern = format!("file {}/{}|ipsum {id}", id % 10, id % 30);
        m.request(
            id,
            "tools/call",
            json!({"name": "grep_search", "arguments": {"pattern": pattern, "limit": 5}}),
        );
    }
    let until = Instant::now() + Duration::from_secs(240);
    let answers: HashMap<u64, Value> = (1..=CALLS)
        .map(|id| (id, m.response_by(id, until)))
        .collect();
    let elapsed = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let samples = sampler.join().unwrap();
    for id in 1..=CALLS {
        let r = &answers[&id]["result"];
        assert_eq!(r["isError"], false, "call {id}: {}", answers[&id]);
        assert!(
            r["structuredContent"]["match_lines"].as_u64().unwrap() >= 1,
            "call {id}: {r}"
        );
    }
    // EOF: the server exits.
    assert!(m.finish(Duration::from_secs(60)).success());
    let peak = peak.load(Ordering::Relaxed);
    // main (the Tokio runtime) + a thread each for stdin and stdout + the search pool + the calls
    // in flight; 8 threads are allowed on top of the pool and the bound. The server indexes by
    // default: its build thread with a pool as large as the search pool, and one thread that
    // records a walk or describes changed files.
    let bound = POOL + IN_FLIGHT + 8 + (1 + POOL + 1);
    eprintln!("{CALLS} pipelined calls in {elapsed:?}: peak {peak} threads ({samples} samples)");
    assert!(
        samples > 10,
        "too few samples ({samples}) to trust the peak"
    );
    assert!(
        peak <= bound,
        "peak of {peak} threads with {POOL} search threads, the index's and at most {IN_FLIGHT} calls in flight"
    );
}
