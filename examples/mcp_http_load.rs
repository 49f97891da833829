//! Load benchmark for `rootbound mcp --http` against stdio (issue 41; figures in BENCHMARKS.md).
//!
//! ```text
//! cargo build --release
//! cargo run --release --example mcp_http_load -- http  BIN ROOT [CLIENTS] [CALLS]
//! cargo run --release --example mcp_http_load -- http-shared BIN ROOT [CLIENTS] [CALLS]
//! cargo run --release --example mcp_http_load -- stdio BIN ROOT [CLIENTS] [CALLS]
//! ```
//!
//! * `http`: one `BIN mcp --http 127.0.0.1:0 --root ROOT` server; CLIENTS (default 50) client
//!   threads start together, each opens its own session and makes CALLS (default 20)
//!   `grep_search` calls one after another (`\bN\b`, limit 20, N distinct per call), each on a
//!   fresh connection (`Connection: close`). Each client has a bearer token of its own (a token
//!   file in the temp directory), as 50 agents would.
//! * `http-shared`: the same without tokens: all clients share one token's bound on open requests
//!   (32); a 429 is retried after 10 ms, and the retries are counted.
//! * `stdio`: CLIENTS `BIN mcp --root ROOT` processes, one per client thread, the same calls.
//!
//! Every server runs with `--no-index` (the default index would make 50 stdio servers build 50
//! indexes of ROOT): the figures compare the transports, not the index.
//!
//! Prints the calls answered (every one must be, without a tool error), the wall time, the
//! latency of a call (sent -> answered) at p50/p99/max, and the server's peak threads (sampled
//! every 5 ms) and peak RSS (`VmRSS`, sampled likewise); for `stdio`, both summed over the
//! processes.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const PROTOCOL: &str = "2025-06-18";

fn init_msg() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "mcp_http_load", "version": "0"}}})
}

fn grep_msg(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "grep_search", "arguments": {"pattern": format!("\\b{id}\\b"), "limit": 20}}})
}

fn check(v: &Value) {
    assert_eq!(v["result"]["isError"], false, "{v}");
}

/// One POST on a fresh connection: the `Mcp-Session-Id` header and the JSON-RPC message of the
/// body (plain JSON or the last `data:` line of an SSE stream, dechunked).
fn post(
    addr: &str,
    auth: &str,
    session: Option<&str>,
    msg: &Value,
) -> (Option<String>, Option<Value>) {
    loop {
        let (status, reply) = post_once(addr, auth, session, msg);
        if status != 429 {
            return reply;
        }
        // Over the token's bound on open requests: wait a little and try again, as counted.
        REFUSED.fetch_add(1, Ordering::Relaxed);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// 429 answers received (and retried).
static REFUSED: AtomicU64 = AtomicU64::new(0);

type Answer = (Option<String>, Option<Value>);

fn post_once(addr: &str, auth: &str, session: Option<&str>, msg: &Value) -> (u16, Answer) {
    let mut s = TcpStream::connect(addr).expect("connect");
    let body = msg.to_string();
    let sid = session
        .map(|s| format!("Mcp-Session-Id: {s}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {PROTOCOL}\r\n{sid}{auth}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = dechunk(&body);
    }
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let session = head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id:"))
        .map(|v| v.trim().to_string());
    let text = String::from_utf8_lossy(&body);
    let message = serde_json::from_str(&text).ok().or_else(|| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .next_back()
    });
    (status, (session, message))
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = body.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&body[..end]).unwrap().trim(), 16);
        let size = size.unwrap_or(0);
        body = &body[end + 2..];
        if size == 0 || body.len() < size {
            break;
        }
        out.extend_from_slice(&body[..size]);
        body = body.get(size + 2..).unwrap_or(&[]);
    }
    out
}

/// `BIN mcp --http 127.0.0.1:0 --root ROOT` and the address it announced.
fn start_http(bin: &str, root: &str, extra: &[&str]) -> (Child, String) {
    let mut child = Command::new(bin)
        .args(["mcp", "--no-index", "--http", "127.0.0.1:0", "--root", root])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rootbound mcp --http");
    let mut lines = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while lines.read_line(&mut line).unwrap() > 0 {
        if let Some(rest) = line.split("at http://").nth(1) {
            let addr = rest.split("/mcp").next().unwrap().to_string();
            // Keep reading stderr so the server never blocks on it.
            std::thread::spawn(move || std::io::copy(&mut lines, &mut std::io::sink()));
            return (child, addr);
        }
        line.clear();
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("no address announced");
}

/// One client of the HTTP server: a session, then `calls` greps; the latency of each.
fn http_client(addr: &str, auth: &str, first: u64, calls: u64) -> Vec<Duration> {
    let (session, _) = post(addr, auth, None, &init_msg());
    let session = session.expect("a session id");
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post(addr, auth, Some(&session), &done);
    (first..first + calls)
        .map(|id| {
            let start = Instant::now();
            let (_, v) = post(addr, auth, Some(&session), &grep_msg(id));
            check(&v.expect("an answer"));
            start.elapsed()
        })
        .collect()
}

/// A stdio server of its own: `calls` greps, one at a time; the latency of each.
fn stdio_client(child: &mut Child, first: u64, calls: u64) -> Vec<Duration> {
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut send = |msg: &Value| {
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    };
    let mut answer = |id: u64| loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server closed");
        let v: Value = serde_json::from_str(&line).unwrap();
        if v["id"].as_u64() == Some(id) {
            return v;
        }
    };
    send(&init_msg());
    answer(0);
    send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    (first..first + calls)
        .map(|id| {
            let start = Instant::now();
            send(&grep_msg(id));
            check(&answer(id));
            start.elapsed()
        })
        .collect()
}

fn status_kb(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Samples the summed `Threads:` and `VmRSS:` of `pids` every 5 ms until told to stop: the peaks
/// (a stdio server exits when its client is done, so its `VmHWM` cannot be read at the end).
fn sample(pids: Vec<u32>, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<(u64, u64)> {
    std::thread::spawn(move || {
        let (mut threads, mut rss) = (0, 0);
        while !stop.load(Ordering::Relaxed) {
            let sum = |key| pids.iter().map(|&p| status_kb(p, key)).sum::<u64>();
            threads = sum("Threads:").max(threads);
            rss = sum("VmRSS:").max(rss);
            std::thread::sleep(Duration::from_millis(5));
        }
        (threads, rss)
    })
}

fn load_average() -> String {
    let l = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, bin, root, rest @ ..] = &args[..] else {
        eprintln!("usage: mcp_http_load http|http-shared|stdio BIN ROOT [CLIENTS] [CALLS]");
        std::process::exit(2);
    };
    let num = |i: usize, d: u64| rest.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (clients, calls) = (num(0, 50), num(1, 20));
    let load0 = load_average();
    // One token per client (`http`); none (`http-shared`: all clients share one bound).
    let token_file = std::env::temp_dir().join(format!("mcp_http_load.{}", std::process::id()));
    let token_file = token_file.to_str().unwrap().to_string();
    write_tokens(&token_file, clients);
    let auth = |c: u64| match mode.as_str() {
        "http" => format!("Authorization: Bearer {}\r\n", token(c)),
        _ => String::new(),
    };
    let (mut children, addr) = match mode.as_str() {
        "http" | "http-shared" => {
            let extra = [String::from("--http-token-file"), token_file.clone()];
            let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
            let (child, addr) = start_http(bin, root, if mode == "http" { &extra } else { &[] });
            // Warm-up: the pool, the page cache of the tree.
            http_client(&addr, &auth(0), 1_000_000, 4);
            (vec![child], Some(addr))
        }
        "stdio" => {
            let spawn = |_| {
                Command::new(bin)
                    .args(["mcp", "--no-index", "--root", root])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("spawn rootbound mcp")
            };
            (((0..clients).map(spawn)).collect::<Vec<_>>(), None)
        }
        other => panic!("unknown mode {other}"),
    };
    let pids: Vec<u32> = children.iter().map(Child::id).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = sample(pids.clone(), Arc::clone(&stop));
    let barrier = Barrier::new(clients as usize);
    let start = Instant::now();
    let mut lat: Vec<Duration> = std::thread::scope(|s| {
        let mut handles = Vec::new();
        let mut stdio = children.iter_mut();
        for c in 0..clients {
            let (addr, barrier, auth) = (addr.as_deref(), &barrier, auth(c));
            let child = if addr.is_none() { stdio.next() } else { None };
            handles.push(s.spawn(move || {
                barrier.wait();
                match (addr, child) {
                    (Some(addr), _) => http_client(addr, &auth, c * calls + 1, calls),
                    (None, Some(child)) => stdio_client(child, c * calls + 1, calls),
                    _ => unreachable!(),
                }
            }));
        }
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let wall = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    let (threads, rss) = sampler.join().unwrap();
    lat.sort();
    let ms = |q: f64| lat[((lat.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{mode}: {clients} clients x {calls} grep_search = {} calls, all answered, in {:.2} s \
         ({:.1} calls/s); latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; peak threads {threads}; \
         peak RSS {:.1} MiB ({} process{}); {} answers 429 retried; load average {load0} -> {}",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        ms(0.5),
        ms(0.99),
        ms(1.0),
        rss as f64 / 1024.0,
        pids.len(),
        if pids.len() == 1 { "" } else { "es" },
        REFUSED.load(Ordering::Relaxed),
        load_average()
    );
    for mut c in children {
        let _ = c.kill();
        let _ = c.wait();
    }
    let _ = std::fs::remove_file(&token_file);
}

fn token(client: u64) -> String {
    format!("tok-load-{client:03}-0123456789abcdef")
}

/// A private token file with a token per client (`NAME TOKEN`).
fn write_tokens(path: &str, clients: u64) {
    use std::os::unix::fs::OpenOptionsExt;
    let text: String = (0..clients)
        .map(|c| format!("c{c} {}\n", token(c)))
        .collect();
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .expect("a fresh token file");
    f.write_all(text.as_bytes()).unwrap();
}
