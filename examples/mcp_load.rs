//! Benchmark harness for `rootbound mcp` (issue 13; figures in BENCHMARKS.md).
//!
//! ```text
//! cargo build --release
//! cargo run --release --example mcp_load -- load   BIN ROOT [CALLS] [-- extra mcp args]
//! cargo run --release --example mcp_load -- seq    BIN ROOT [CALLS] [-- extra mcp args]
//! cargo run --release --example mcp_load -- cancel BIN ROOT [RUNS]  [-- extra mcp args]
//! ```
//!
//! * `load`: one server, CALLS (default 1000) `grep_search` requests with distinct patterns
//!   (`\bN\b`, limit 20) written back to back; prints the wall time, the calls per second, and the
//!   server's peak threads (`Threads:` sampled every 2 ms) and peak RSS (`VmHWM`).
//! * `seq`: the same calls one at a time (each sent when the previous one is answered).
//! * `cancel`: a grep that scans the whole tree (`\w{5}(\s+\w{5}){4}`, no literal), cancelled with
//!   `notifications/cancelled` after 300 ms, on a server with `--max-in-flight 1`; a small call
//!   sent right after the cancel can only run once the cancelled one has released its slot, so the
//!   time from the cancel to its answer bounds how long the cancelled call ran on. RUNS times.
//!
//! BIN is the `rootbound` binary (target/release/rootbound).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Server {
    fn start(bin: &str, root: &str, extra: &[String]) -> Server {
        let mut child = Command::new(bin)
            .args(["mcp", "--no-index", "--root", root])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn rootbound mcp");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut s = Server {
            child,
            stdin,
            lines,
        };
        s.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "mcp_load", "version": "0"}}}),
        );
        s.wait_id(0);
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, v: Value) {
        writeln!(self.stdin, "{v}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}}));
    }

    /// Waits for the response with `id`; returns when it arrived and the response.
    fn wait_id(&mut self, id: u64) -> (Instant, Value) {
        loop {
            let (at, line) = self
                .lines
                .recv_timeout(Duration::from_secs(600))
                .expect("an answer");
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"].as_u64() == Some(id) {
                return (at, v);
            }
        }
    }

    fn finish(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

fn status_kb(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn grep_args(i: u64) -> Value {
    json!({"pattern": format!("\\b{i}\\b"), "limit": 20})
}

fn check(i: u64, v: &Value) {
    let r = &v["result"];
    assert_eq!(r["isError"], false, "call {i}: {v}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (args, extra) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let [mode, bin, root, rest @ ..] = args else {
        eprintln!("usage: mcp_load load|seq|cancel BIN ROOT [N] [-- mcp args]");
        std::process::exit(2);
    };
    let n: Option<u64> = rest.first().and_then(|s| s.parse().ok());
    let load0 = load_average();
    match mode.as_str() {
        "load" | "seq" => {
            let n = n.unwrap_or(1000);
            let mut s = Server::start(bin, root, extra);
            let pid = s.child.id();
            // Warm-up: the pool, the page cache of the first directories.
            for i in 0..4 {
                s.call(100_000 + i, "grep_search", grep_args(i));
                s.wait_id(100_000 + i);
            }
            let peak_threads = Arc::new(AtomicU64::new(0));
            let done = Arc::new(AtomicBool::new(false));
            let sampler = {
                let (peak, done) = (Arc::clone(&peak_threads), Arc::clone(&done));
                std::thread::spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        peak.fetch_max(status_kb(pid, "Threads:"), Ordering::Relaxed);
                        std::thread::sleep(Duration::from_millis(2));
                    }
                })
            };
            let start = Instant::now();
            if mode == "load" {
                for i in 1..=n {
                    s.call(i, "grep_search", grep_args(i));
                }
                let mut answered = 0;
                while answered < n {
                    let (_, line) = s.lines.recv_timeout(Duration::from_secs(600)).unwrap();
                    let v: Value = serde_json::from_str(&line).unwrap();
                    if let Some(i) = v["id"].as_u64().filter(|i| (1..=n).contains(i)) {
                        check(i, &v);
                        answered += 1;
                    }
                }
            } else {
                for i in 1..=n {
                    s.call(i, "grep_search", grep_args(i));
                    let (_, v) = s.wait_id(i);
                    check(i, &v);
                }
            }
            let elapsed = start.elapsed();
            done.store(true, Ordering::Relaxed);
            sampler.join().unwrap();
            let hwm = status_kb(pid, "VmHWM:");
            println!(
                "{mode}: {n} grep_search calls, all answered, in {:.2} s = {:.1} calls/s; \
                 peak threads {}; peak RSS {:.1} MiB; load average {load0} -> {}",
                elapsed.as_secs_f64(),
                n as f64 / elapsed.as_secs_f64(),
                peak_threads.load(Ordering::Relaxed),
                hwm as f64 / 1024.0,
                load_average()
            );
            s.finish();
        }
        "cancel" => {
            let runs = n.unwrap_or(5);
            let mut extra = extra.to_vec();
            extra.extend(["--max-in-flight".into(), "1".into()]);
            extra.extend(["--timeout-ms".into(), "600000".into()]);
            // Pages large enough that the search cannot fill one before the cancel.
            extra.extend(["--max-results".into(), "1000000".into()]);
            extra.extend(["--max-bytes".into(), "268435456".into()]);
            let mut s = Server::start(bin, root, &extra);
            let mut lat = Vec::new();
            for r in 0..runs {
                let id = 10 * r + 1;
                s.call(
                    id,
                    "grep_search",
                    json!({"pattern": r"\w{5}(\s+\w{5}){4}", "output_mode": "count",
                        "limit": 1_000_000}),
                );
                std::thread::sleep(Duration::from_millis(300));
                let cancelled = Instant::now();
                s.send(
                    json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": id, "reason": "bench"}}),
                );
                s.call(id + 1, "stat", json!({"path": "."}));
                // The cancelled call is not answered (rmcp drops the response of a cancelled
                // request): an answer to it means it finished before the cancel.
                let at = loop {
                    let (at, line) = s.lines.recv_timeout(Duration::from_secs(600)).unwrap();
                    let v: Value = serde_json::from_str(&line).unwrap();
                    assert_ne!(
                        v["id"].as_u64(),
                        Some(id),
                        "the grep finished before the cancel"
                    );
                    if v["id"].as_u64() == Some(id + 1) {
                        check(id + 1, &v);
                        break at;
                    }
                };
                lat.push(at.duration_since(cancelled));
            }
            lat.sort();
            println!(
                "cancel over MCP: {runs} runs, cancel -> next call answered: median {:.1} ms, max {:.1} ms \
                 (all: {:?}); load average {load0}",
                lat[lat.len() / 2].as_secs_f64() * 1e3,
                lat[lat.len() - 1].as_secs_f64() * 1e3,
                lat.iter().map(|d| (d.as_secs_f64() * 1e4).round() / 10.0).collect::<Vec<_>>()
            );
            s.finish();
        }
        other => {
            eprintln!("unknown mode {other}");
            std::process::exit(2);
        }
    }
}
