//! Load (docs/ATTACKS.md 28): 1,000 mixed concurrent calls on one `Sandbox` from many threads, and 1,000
//! concurrent JSON-RPC `tools/call` requests to one `rootbound mcp` server. Every call is answered, the
//! open file-descriptor count returns to its baseline (`/proc/self/fd`, `/proc/<pid>/fd`), and resident
//! memory stays under a cap (`VmRSS` from `/proc/.../status`).

mod support;

use rootbound::Sandbox;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use support::mcp::Mcp;

const CALLS: u64 = 1000;
const THREADS: u64 = 16;
/// Resident memory allowed on top of the process's size before the load.
const RSS_GROWTH_CAP_KB: u64 = 256 * 1024;
const SECRET: &str = "LOAD-OUTSIDE-SECRET";

/// The tests of this file measure process-wide numbers (fds, RSS): one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn fd_count(pid: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

fn rss_kb(pid: &str) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Threads of process `pid` doing the index's background work (all named `rootbound-index…`,
/// which the kernel keeps as `rootbound-index`).
fn index_threads(pid: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .map(|d| {
            d.filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                .filter(|n| n.starts_with("rootbound-index"))
                .count()
        })
        .unwrap_or(0)
}

/// Waits until the server's index has no background work under way: the descriptors its build
/// holds are no baseline (on a busy machine the build outlasts the warm-up). The cap bounds only
/// a failing run.
fn index_at_rest(pid: &str) {
    let until = Instant::now() + support::time::PROMPT * 6;
    while index_threads(pid) > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for the descriptor count to come back to `baseline`; returns the last count. A busy
/// machine may take a while to close the last calls' descriptors: the cap is generous, and bounds
/// only a failing run (a leak never comes back).
/// The descriptors of process `pid` once the count has held still for 200 ms (bounded): work a
/// warm-up call left on the pool (a search past its call's deadline finishing) may still hold
/// some, and a baseline taken with them would make the count after the load look short.
fn baseline_fds(pid: &str) -> usize {
    let until = Instant::now() + support::time::PROMPT * 6;
    let (mut last, mut same) = (fd_count(pid), 0);
    while same < 4 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
        let n = fd_count(pid);
        (last, same) = (n, if n == last { same + 1 } else { 0 });
    }
    last
}

fn settle_fds(pid: &str, baseline: usize) -> usize {
    let until = Instant::now() + support::time::PROMPT * 6;
    loop {
        let n = fd_count(pid);
        if n <= baseline || Instant::now() > until {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A tree of ~200 small files, a 2 MiB file, a FIFO, a symlink out, an ignored and a denied file.
fn tree() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(t.path()).unwrap();
    let root = base.join("root");
    for d in 0..10 {
        for f in 0..20 {
            let p = root.join(format!("d{d}/s{}/f{f}.txt", f % 3));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let body: String = (0..30)
                .map(|l| {
                    format!(
                        "line {l} of {d}/{f}: {}\n",
                        if l % 7 == 0 { "needle" } else { "hay" }
                    )
                })
                .collect();
            std::fs::write(p, body).unwrap();
        }
    }
    let big: String = (0..40_000)
        .map(|i| format!("big line {i} needle é\n"))
        .collect();
    std::fs::write(root.join("big.txt"), big).unwrap();
    std::fs::write(root.join(".gitignore"), "ignored.txt\n").unwrap();
    std::fs::write(root.join("ignored.txt"), "needle ignored\n").unwrap();
    std::fs::write(root.join(".env"), format!("needle {SECRET}\n")).unwrap();
    std::fs::create_dir(base.join("outside")).unwrap();
    std::fs::write(base.join("outside/x.txt"), format!("needle {SECRET}\n")).unwrap();
    std::os::unix::fs::symlink("../outside", root.join("out")).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    (t, root)
}

/// Call number `i` of the mix: (tool, arguments, whether it must succeed).
fn mixed(i: u64) -> (&'static str, Value, bool) {
    let d = i % 10;
    let f = i % 20;
    let file = format!("d{d}/s{}/f{f}.txt", f % 3);
    match i % 16 {
        0 => ("read_file", json!({"path": file}), true),
        1 => (
            "read_file",
            json!({"path": "big.txt", "offset": i * 997, "limit": 4096}),
            true,
        ),
        2 => (
            "read_file",
            json!({"path": "big.txt", "start_line": 1 + i * 31, "max_lines": 50, "line_numbers": true}),
            true,
        ),
        3 => (
            "grep_search",
            json!({"pattern": "needle", "limit": 20}),
            true,
        ),
        4 => (
            "grep_search",
            json!({"pattern": "line \\d+ of", "path": format!("d{d}"), "output_mode": "count"}),
            true,
        ),
        5 => (
            "grep_search",
            json!({"pattern": "needle", "context": 2, "path": "big.txt", "offset": i}),
            true,
        ),
        6 => (
            "grep_search",
            json!({"pattern": "NEEDLE", "case_insensitive": true, "output_mode": "files_with_matches", "include": "*.txt"}),
            true,
        ),
        7 => ("glob", json!({"pattern": "**/*.txt", "limit": 50}), true),
        8 => (
            "glob",
            json!({"pattern": "f1*.txt", "path": format!("d{d}")}),
            true,
        ),
        9 => ("list_dir", json!({"path": format!("d{d}")}), true),
        10 => ("list_dir", json!({}), true),
        11 => ("stat", json!({"path": file}), true),
        12 => ("stat", json!({"path": "big.txt"}), true),
        // Refusals: escape, denied, FIFO, bad pattern, bad arguments.
        13 => (
            "read_file",
            json!({"path": (["out/x.txt", "../outside/x.txt", ".env", "fifo"][(i / 16 % 4) as usize])}),
            false,
        ),
        14 => (
            "grep_search",
            json!({"pattern": (["(a)\\1", "a{100000}", "x", "("][(i / 16 % 4) as usize]), "path": ".."}),
            false,
        ),
        _ => ("stat", json!({"path": "d0", "bogus": true}), false),
    }
}

fn check(i: u64, tool: &str, must_ok: bool, v: &Value, codes: &Mutex<BTreeMap<String, u64>>) {
    let text = v.to_string();
    assert!(!text.contains(SECRET), "call {i} ({tool}) leaked: {text}");
    match v.get("error") {
        None => assert!(
            must_ok,
            "call {i} ({tool}) should have been refused: {text}"
        ),
        Some(e) => {
            assert!(!must_ok, "call {i} ({tool}) failed: {text}");
            let code = e["code"].as_str().expect("error code").to_string();
            *codes.lock().unwrap().entry(code).or_default() += 1;
        }
    }
}

#[test]
fn thousand_concurrent_calls_on_one_sandbox() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (_t, root) = tree();
    let sb = Sandbox::builder()
        .root(&root)
        .deny(".env")
        .threads(2)
        .build()
        .unwrap();
    // Warm up (lazily built regex caches, thread-locals, the allocator's arenas), then take baselines.
    for i in 0..32 {
        let (tool, args, _) = mixed(i);
        sb.call(tool, args);
    }
    let fds0 = baseline_fds("self");
    let rss0 = rss_kb("self");
    let next = AtomicU64::new(0);
    let answered = AtomicU64::new(0);
    let codes = Mutex::new(BTreeMap::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= CALLS {
                    break;
                }
                let (tool, args, ok) = mixed(i);
                let v = sb.call(tool, args);
                check(i, tool, ok, &v, &codes);
                answered.fetch_add(1, Ordering::Relaxed);
            });
        }
    });
    let elapsed = start.elapsed();
    let fds1 = settle_fds("self", fds0);
    let rss1 = rss_kb("self");
    println!(
        "in-process: {CALLS} calls on {THREADS} threads in {elapsed:?}; fds {fds0} -> {fds1}; \
         VmRSS {rss0} kB -> {rss1} kB; refusals {:?}",
        codes.lock().unwrap()
    );
    assert_eq!(
        answered.load(Ordering::Relaxed),
        CALLS,
        "not every call was answered"
    );
    // More after than at rest is a leak; fewer is work the warm-up left that has ended since.
    assert!(
        fds1 <= fds0,
        "descriptors leaked: {fds0} at rest, {fds1} after"
    );
    assert!(
        rss1 < rss0 + RSS_GROWTH_CAP_KB,
        "resident memory grew from {rss0} kB to {rss1} kB"
    );
    let refusals = (0..CALLS).filter(|i| !mixed(*i).2).count() as u64;
    assert_eq!(
        codes.lock().unwrap().values().sum::<u64>(),
        refusals,
        "every refusal is an error with a code"
    );
}

#[test]
fn thousand_concurrent_requests_to_the_mcp_server() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (_t, root) = tree();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    cmd.args(["mcp", "--root", root.to_str().unwrap(), "--deny", ".env"]);
    let mut m = Mcp::spawn(cmd);
    let pid = m.pid().to_string();
    let mut responses: HashMap<u64, Value> = HashMap::new();
    let mut wait_for = |m: &mut Mcp, ids: std::ops::Range<u64>| {
        let until = Instant::now() + Duration::from_secs(120);
        for id in ids {
            responses.insert(id, m.response_by(id, until));
        }
    };
    m.initialize("load");
    let call = |id: u64| {
        let (tool, args, _) = mixed(id);
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": tool, "arguments": args}})
    };
    // Warm-up, then baselines.
    for id in 1..33 {
        m.send(call(id));
    }
    wait_for(&mut m, 1..33);
    index_at_rest(&pid);
    let fds0 = baseline_fds(&pid);
    let rss0 = rss_kb(&pid);
    // 1,000 requests written back to back: they are all in flight at once.
    let first = 1000;
    let start = Instant::now();
    for id in first..first + CALLS {
        m.send(call(id));
    }
    wait_for(&mut m, first..first + CALLS);
    let elapsed = start.elapsed();
    let fds1 = settle_fds(&pid, fds0);
    let rss1 = rss_kb(&pid);
    let codes = Mutex::new(BTreeMap::new());
    for id in first..first + CALLS {
        let v = &responses[&id];
        assert!(v.get("error").is_none(), "request {id}: protocol error {v}");
        let r = &v["result"];
        let (tool, _, ok) = mixed(id);
        assert_eq!(r["isError"], !ok, "request {id} ({tool}): {r}");
        let sc = r["structuredContent"].clone();
        check(id, tool, ok, &sc, &codes);
    }
    println!(
        "mcp: {CALLS} concurrent requests in {elapsed:?}; server fds {fds0} -> {fds1}; \
         VmRSS {rss0} kB -> {rss1} kB; refusals {:?}",
        codes.lock().unwrap()
    );
    // EOF: the server exits.
    let exit = m.finish(Duration::from_secs(60));
    assert!(exit.success(), "server exit: {:?}", exit.status);
    assert!(
        fds1 <= fds0,
        "the server leaked descriptors: {fds0} at rest, {fds1} after"
    );
    assert!(
        rss1 < rss0 + RSS_GROWTH_CAP_KB,
        "server memory grew from {rss0} kB to {rss1} kB"
    );
}
