//! The one MCP stdio client of the tests: `rootbound mcp` as a child, newline-delimited JSON-RPC
//! over its stdin and stdout, every wait bounded (a missing reply fails the test, never hangs it).
#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a reply may take before the test fails.
pub const REPLY: Duration = Duration::from_secs(60);

/// A running server, the lines it wrote and the responses not yet asked for.
pub struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<()>>,
    /// What the server wrote to stderr so far (read as it comes, so a test can wait for a line).
    errors: Arc<Mutex<Vec<u8>>>,
    /// Responses read while waiting for another id.
    pending: HashMap<u64, Value>,
    /// Every stdout line, in order of arrival.
    pub all: Vec<String>,
    /// Response ids in order of arrival.
    pub order: Vec<u64>,
    /// The id [`Mcp::rpc`] gives its next request (far above the ids tests choose themselves).
    next: u64,
}

/// How a server ended: its status (`None`: killed after the wait), its stderr, and the stdout
/// lines it wrote after the last one the test read (`all[rest..]`).
pub struct Exit {
    pub status: Option<ExitStatus>,
    pub stderr: String,
    pub all: Vec<String>,
    pub rest: usize,
}

impl Exit {
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }
}

impl Mcp {
    /// `rootbound ARGS` (ARGS name the subcommand, `mcp`), with the environment as it is.
    pub fn start(args: &[&str]) -> Mcp {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
        cmd.args(args);
        Mcp::spawn(cmd)
    }

    /// Runs `cmd` (its program, arguments and environment set) with piped stdio.
    pub fn spawn(mut cmd: Command) -> Mcp {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn rootbound mcp");
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&errors);
        let stderr = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            errors,
            pending: HashMap::new(),
            all: Vec::new(),
            order: Vec::new(),
            next: 1 << 40,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one message as a line.
    pub fn send(&mut self, msg: Value) {
        self.send_raw(msg.to_string().as_bytes());
    }

    /// Writes one line as it is (a newline is added).
    pub fn send_raw(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write to the server");
        stdin.write_all(b"\n").expect("write to the server");
        stdin.flush().unwrap();
    }

    /// Closes the server's stdin (EOF: it answers what it accepted and exits).
    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// The next line the server writes within `limit`, kept in [`Mcp::all`].
    pub fn line(&mut self, limit: Duration) -> Option<String> {
        let line = self.lines.recv_timeout(limit).ok()?;
        self.all.push(line.clone());
        Some(line)
    }

    /// The next line the server writes, whatever its id, as a JSON-RPC message (waiting up to
    /// 20 s; `after` names what it answers, for the failure message).
    pub fn next_message(&mut self, after: &str) -> Value {
        let line = self
            .line(Duration::from_secs(20))
            .unwrap_or_else(|| panic!("no reply to {after}; stdout so far: {:?}", self.all));
        jsonrpc(&line)
    }

    /// Sends a request with `id`.
    pub fn request(&mut self, id: u64, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    }

    /// The response with `id` (waiting up to [`REPLY`]).
    pub fn response(&mut self, id: u64) -> Value {
        self.response_by(id, Instant::now() + REPLY)
    }

    /// The response with `id`, read by `until`; responses to other ids are kept for later.
    pub fn response_by(&mut self, id: u64, until: Instant) -> Value {
        loop {
            if let Some(v) = self.pending.remove(&id) {
                return v;
            }
            let left = until.saturating_duration_since(Instant::now());
            let Some(line) = self.line(left) else {
                panic!(
                    "no response with id {id} ({} other responses waiting); stdout so far: {:?}",
                    self.pending.len(),
                    self.all.iter().rev().take(20).collect::<Vec<_>>()
                )
            };
            let v = jsonrpc(&line);
            if let Some(rid) = v["id"].as_u64() {
                self.order.push(rid);
                self.pending.insert(rid, v);
            }
        }
    }

    /// A request with the next free id, and its response.
    pub fn rpc(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.request(id, method, params);
        self.response(id)
    }

    /// `initialize` as client `name`, then `notifications/initialized`; the initialize response.
    pub fn initialize(&mut self, name: &str) -> Value {
        let init = self.rpc(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": name, "version": "0"}}),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        init
    }

    /// `tools/call` with `id`: the result (a protocol error fails the test).
    pub fn call(&mut self, id: u64, tool: &str, args: Value) -> Value {
        self.request(id, "tools/call", json!({"name": tool, "arguments": args}));
        let v = self.response(id);
        assert!(
            v.get("error").is_none(),
            "{tool} gave a protocol error, not a tool result: {v}"
        );
        v["result"].clone()
    }

    /// Waits up to `limit` for a stderr line that `wanted` accepts (an audit event, say): the
    /// line, or (as the error) what stderr held by then.
    pub fn stderr_line(
        &self,
        limit: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let until = Instant::now() + limit;
        loop {
            let text = self.stderr_so_far();
            if let Some(l) = text.lines().find(|l| wanted(l)) {
                return Ok(l.to_string());
            }
            if Instant::now() > until {
                return Err(text);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What the server wrote to stderr so far.
    pub fn stderr_so_far(&self) -> String {
        String::from_utf8_lossy(&self.errors.lock().unwrap()).into_owned()
    }

    /// Closes stdin and waits up to `limit` for the server to exit (killed past it); reads what
    /// it wrote after the test's last read, and its stderr.
    pub fn finish(mut self, limit: Duration) -> Exit {
        self.close_stdin();
        let status = super::child::wait_within(&mut self.child, limit);
        let rest = self.all.len();
        while self.line(Duration::from_millis(200)).is_some() {}
        if let Some(h) = self.stderr.take() {
            h.join().unwrap();
        }
        let stderr = self.stderr_so_far();
        Exit {
            status,
            stderr,
            all: std::mem::take(&mut self.all),
            rest,
        }
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A stdout line as a JSON-RPC message (anything else there fails the test).
pub fn jsonrpc(line: &str) -> Value {
    let v: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
    assert_eq!(v["jsonrpc"], "2.0", "not a JSON-RPC message: {line}");
    v
}
