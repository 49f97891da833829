//! `rootbound mcp --http`: the MCP server over Streamable HTTP, spoken to with hand-written HTTP/1.1
//! over a `TcpStream` (so every header, the Host and the body size, is the test's to choose). Each
//! server listens on a free port of 127.0.0.1 (port 0, read back from its stderr) and is killed at
//! the end of its test. ATTACKS.md class 40.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(super) const PROTOCOL: &str = "2025-06-18";
const TOKEN_A: &str = "tok-alice-0123456789abcdef";
const TOKEN_B: &str = "tok-bob-fedcba9876543210";
const SECRET_A: &str = "ALICE-SECRET-7f3a";
const SECRET_B: &str = "BOB-SECRET-91c2";

/// A running `rootbound mcp --http 127.0.0.1:0` and everything it wrote on stderr.
pub(super) struct Server {
    child: Child,
    pub(super) addr: String,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    pub(super) fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rootbound"))
            .args(["mcp", "--http", "127.0.0.1:0"])
            .args(args)
            .env("ROOTBOUND_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn rootbound mcp --http");
        let stderr = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let mut lines = BufReader::new(child.stderr.take().unwrap());
        let all = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut line = String::new();
            while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
                if let Some(rest) = line.split("serving MCP over HTTP at http://").nth(1) {
                    let _ = tx.send(rest.split("/mcp").next().unwrap_or("").to_string());
                }
                all.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let Ok(addr) = rx.recv_timeout(Duration::from_secs(60)) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no address announced: {}", stderr.lock().unwrap());
        };
        Server {
            child,
            addr,
            stderr,
        }
    }

    /// The server's process id.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(super) fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    pub(super) fn assert_alive(&mut self) {
        assert!(
            self.child.try_wait().unwrap().is_none(),
            "the server exited: {}",
            self.stderr()
        );
    }

    /// One request on a fresh connection (`Connection: close`); a `Host` in `headers` replaces the
    /// default one.
    pub(super) fn request(&self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let mut head = format!("{method} /mcp HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        s.write_all(head.as_bytes()).unwrap();
        // The server may answer and close before reading a refused body.
        let _ = s.write_all(body);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        Reply::parse(&raw)
    }

    /// A JSON-RPC POST with the headers of an MCP client, `auth` as the bearer token.
    pub(super) fn post(&self, auth: Option<&str>, session: Option<&str>, msg: &Value) -> Reply {
        let bearer = auth.map(|t| format!("Bearer {t}"));
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", PROTOCOL),
        ];
        if let Some(b) = &bearer {
            headers.push(("Authorization", b));
        }
        if let Some(s) = session {
            headers.push(("Mcp-Session-Id", s));
        }
        self.request("POST", &headers, msg.to_string().as_bytes())
    }

    /// A POST of `body` as written (no bearer token), in `session` if given.
    pub(super) fn post_raw(&self, session: Option<&str>, body: &[u8]) -> Reply {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", PROTOCOL),
        ];
        if let Some(s) = session {
            headers.push(("Mcp-Session-Id", s));
        }
        self.request("POST", &headers, body)
    }

    /// initialize + notifications/initialized: the session id.
    pub(super) fn open_session(&self, auth: Option<&str>) -> String {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL, "capabilities": {},
            "clientInfo": {"name": "mcp_http test", "version": "0"}}});
        let r = self.post(auth, None, &init);
        assert_eq!(r.status, 200, "initialize: {}", r.text());
        let result = r.message(1);
        assert_eq!(
            result["result"]["serverInfo"]["name"], "rootbound",
            "{result}"
        );
        let session = r
            .header("mcp-session-id")
            .expect("a session id")
            .to_string();
        let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let r = self.post(auth, Some(&session), &done);
        assert_eq!(r.status, 202, "initialized: {}", r.text());
        session
    }

    /// tools/call in `session`: the response message.
    pub(super) fn call(
        &self,
        auth: Option<&str>,
        session: &str,
        id: u64,
        tool: &str,
        args: Value,
    ) -> Reply {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}});
        self.post(auth, Some(session), &msg)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A parsed HTTP response.
pub(super) struct Reply {
    pub(super) status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn parse(raw: &[u8]) -> Reply {
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n");
        let Some(split) = split else {
            return Reply {
                status: 0,
                headers: Vec::new(),
                body: raw.to_vec(),
            };
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let mut lines = head.split("\r\n");
        let status = lines.next().unwrap_or("").split(' ').nth(1).unwrap_or("0");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let mut body = raw[split + 4..].to_vec();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        if chunked {
            body = dechunk(&body);
        }
        Reply {
            status: status.parse().unwrap_or(0),
            headers,
            body,
        }
    }

    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }

    /// The JSON-RPC messages of the body: one JSON document, or the `data:` lines of an SSE stream.
    pub(super) fn messages(&self) -> Vec<Value> {
        if let Ok(v) = serde_json::from_slice::<Value>(&self.body) {
            return vec![v];
        }
        self.text()
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    }

    /// The response to request `id`.
    pub(super) fn message(&self, id: u64) -> Value {
        self.messages()
            .into_iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no response {id} in {} {}", self.status, self.text()))
    }
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = body.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&body[..eol]).unwrap_or("0");
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("0").trim(), 16);
        let size = size.unwrap_or(0);
        body = &body[eol + 2..];
        if size == 0 || body.len() < size {
            break;
        }
        out.extend_from_slice(&body[..size]);
        body = body.get(size + 2..).unwrap_or(&[]);
    }
    out
}

/// The text of a tools/call result (its first content block).
fn result_text(m: &Value) -> String {
    m["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {m}"))
        .to_string()
}

pub(super) fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Two agents (alice's roots `a/`, bob's `b/`) in a config file, and a private token file mapping
/// a token to each.
fn two_agents(dir: &Path) -> (String, String) {
    write(
        &dir.join("a/notes.txt"),
        &format!("{SECRET_A}\nneedle in a\n"),
    );
    write(
        &dir.join("b/notes.txt"),
        &format!("{SECRET_B}\nneedle in b\n"),
    );
    let tools = "[agents.{n}.tools.read_file]\n[agents.{n}.tools.grep_search]\n";
    let mut config = String::new();
    for (n, root) in [("alice", "a"), ("bob", "b")] {
        config.push_str(&format!("[agents.{n}]\nroots = [\"{root}\"]\n"));
        config.push_str(&tools.replace("{n}", n));
    }
    write(&dir.join("agents.toml"), &config);
    let tokens = dir.join("tokens");
    write(
        &tokens,
        &format!("# name token agent\nalice {TOKEN_A} alice\nbob {TOKEN_B} bob\n"),
    );
    set_mode(&tokens, 0o600);
    (
        dir.join("agents.toml").to_str().unwrap().to_string(),
        tokens.to_str().unwrap().to_string(),
    )
}

pub(super) fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Without tokens on loopback: the tools of stdio, called over HTTP; malformed bodies get the
/// JSON-RPC errors stdio gives.
#[test]
fn http_serves_the_tools_over_streamable_http() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), "hello over http\nneedle here\n");
    let root = tmp.path().to_str().unwrap();
    let mut server = Server::start(&["--root", root]);
    let session = server.open_session(None);

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let tools = server.post(None, Some(&session), &list).message(2);
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for t in ["read_file", "grep_search", "glob", "list_dir"] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }

    let read = server.call(None, &session, 3, "read_file", json!({"path": "a.txt"}));
    assert!(result_text(&read.message(3)).contains("hello over http"));
    let grep = server.call(
        None,
        &session,
        4,
        "grep_search",
        json!({"pattern": "needle"}),
    );
    assert!(result_text(&grep.message(4)).contains("needle here"));

    // Not JSON: -32700; JSON that is not a request: -32600; both with HTTP 400, nothing else run.
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    for (body, code) in [
        (&b"{not json"[..], -32700),
        (br#"{"id": 9, "method": 5}"#, -32600),
    ] {
        let r = server.request("POST", &headers, body);
        assert_eq!(r.status, 400, "{}", r.text());
        let m: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(m["error"]["code"], code, "{m}");
    }
    server.assert_alive();
}

/// Tokens: none or a wrong one is 401 with a Bearer challenge and runs nothing; each token reaches
/// only its agent's roots; a session opened with one token is unknown to another; the token never
/// shows in the log, its name does.
#[test]
fn http_tokens_admit_only_their_agent() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, tokens) = two_agents(tmp.path());
    let mut server = Server::start(&["--config", &config, "--http-token-file", &tokens]);
    let session = server.open_session(Some(TOKEN_A));
    let read_a = json!({"path": "notes.txt"});

    for auth in [
        None,
        Some("tok-wrong-0123456789abcdef"),
        Some(&TOKEN_A[..20]),
    ] {
        let r = server.call(auth, &session, 2, "read_file", read_a.clone());
        assert_eq!(r.status, 401, "{auth:?}: {}", r.text());
        assert!(r
            .header("www-authenticate")
            .is_some_and(|v| v.starts_with("Bearer")));
        assert!(!r.text().contains(SECRET_A));
    }

    let mine = server.call(Some(TOKEN_A), &session, 3, "read_file", read_a.clone());
    assert!(result_text(&mine.message(3)).contains(SECRET_A));

    // Bob's file by its absolute path, and grep over everything: alice sees none of b/.
    let b_file = tmp.path().join("b/notes.txt");
    let theirs = json!({"path": b_file.to_str().unwrap()});
    let r = server.call(Some(TOKEN_A), &session, 4, "read_file", theirs);
    let m = r.message(4);
    assert_eq!(m["result"]["isError"], true, "{m}");
    assert!(!r.text().contains(SECRET_B));
    let r = server.call(
        Some(TOKEN_A),
        &session,
        5,
        "grep_search",
        json!({"pattern": "SECRET"}),
    );
    assert!(
        r.text().contains(SECRET_A) && !r.text().contains(SECRET_B),
        "{}",
        r.text()
    );

    // Bob presenting alice's session reads nothing; with a session of his own, only b/.
    let r = server.call(Some(TOKEN_B), &session, 6, "read_file", read_a.clone());
    assert_eq!(r.status, 404, "{}", r.text());
    assert!(!r.text().contains(SECRET_A));
    let bobs = server.open_session(Some(TOKEN_B));
    let r = server.call(Some(TOKEN_B), &bobs, 7, "read_file", read_a);
    assert!(result_text(&r.message(7)).contains(SECRET_B));

    server.assert_alive();
    // The audit line of a call may be written after its answer was sent: wait for bob's.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !server.stderr().contains("token=bob") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = server.stderr();
    assert!(!log.contains(TOKEN_A) && !log.contains(TOKEN_B), "{log}");
    assert!(
        log.contains("token=alice") && log.contains("token=bob"),
        "{log}"
    );
    // The unauthenticated calls ran no tool: alice's read_file ran exactly once (call 3).
    let reads = log
        .lines()
        .filter(|l| l.contains("rootbound::audit") && l.contains("tool=\"read_file\""))
        .filter(|l| l.contains("path=notes.txt") && l.contains("token=alice"))
        .count();
    assert_eq!(reads, 1, "{log}");
}

/// DNS rebinding (a foreign Host) and a foreign Origin are refused with 403, a body over the limit
/// with 413 before it is read, and the server serves on afterwards.
#[test]
fn http_refuses_foreign_hosts_origins_and_huge_bodies() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, tokens) = two_agents(tmp.path());
    let mut server = Server::start(&["--config", &config, "--http-token-file", &tokens]);
    let session = server.open_session(Some(TOKEN_A));
    let bearer = format!("Bearer {TOKEN_A}");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "read_file", "arguments": {"path": "notes.txt"}}})
    .to_string();
    let base = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Authorization", bearer.as_str()),
        ("Mcp-Session-Id", session.as_str()),
    ];
    for extra in [
        ("Host", "evil.example"),
        ("Host", "evil.example:80"),
        ("Origin", "http://evil.example"),
        ("Origin", "null"),
    ] {
        let mut headers = base.to_vec();
        headers.push(extra);
        let r = server.request("POST", &headers, call.as_bytes());
        assert_eq!(r.status, 403, "{extra:?}: {}", r.text());
        assert!(!r.text().contains(SECRET_A));
    }

    // 64 MiB declared: refused before the body is read (the client sends only its first MiB).
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: {bearer}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        64 << 20
    );
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(&vec![b' '; 1 << 20]);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    assert_eq!(Reply::parse(&raw).status, 413);

    // The same without a length (chunked): refused once the limit is passed.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = head.replace(
        &format!("Content-Length: {}", 64 << 20),
        "Transfer-Encoding: chunked",
    );
    s.write_all(head.as_bytes()).unwrap();
    let chunk = [
        format!("{:x}\r\n", 1 << 20).into_bytes(),
        vec![b' '; 1 << 20],
        b"\r\n".to_vec(),
    ]
    .concat();
    for _ in 0..64 {
        if s.write_all(&chunk).is_err() {
            break;
        }
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    assert_eq!(Reply::parse(&raw).status, 413);

    server.assert_alive();
    let r = server.call(
        Some(TOKEN_A),
        &session,
        3,
        "read_file",
        json!({"path": "notes.txt"}),
    );
    assert!(result_text(&r.message(3)).contains(SECRET_A));
}

/// A client stalled in its headers, or in its body, is cut off (the read timeout is 1 s here; the
/// bound below is generous for a busy machine).
#[test]
fn http_closes_stalled_clients() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_str().unwrap();
    let mut server = Server::start(&["--root", root, "--http-read-timeout", "1"]);
    for partial in [
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_string(),
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\""
            .to_string(),
    ] {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.write_all(partial.as_bytes()).unwrap();
        let start = Instant::now();
        let mut raw = Vec::new();
        let read = s.read_to_end(&mut raw);
        assert!(read.is_ok(), "not closed: {read:?}");
        let status = Reply::parse(&raw).status;
        assert!(status == 0 || status == 408, "{status}");
        assert!(start.elapsed() < Duration::from_secs(50));
    }
    server.assert_alive();
}

/// What the server refuses to start with: a public address without tokens, a token file others
/// may read (its token not echoed).
#[test]
fn http_refuses_unsafe_startups() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, tokens) = two_agents(tmp.path());
    // Each must exit at once; one still serving after a minute is killed and fails the test.
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rootbound"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Killed past the minute: the status then says so, and the asserts below fail.
        crate::support::child::wait_within(&mut child, Duration::from_secs(60));
        child.wait_with_output().unwrap()
    };
    let root = tmp.path().to_str().unwrap();
    let o = run(&["--root", root, "--http", "0.0.0.0:0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a loopback address"));

    set_mode(Path::new(&tokens), 0o644);
    let o = run(&[
        "--config",
        &config,
        "--http",
        "127.0.0.1:0",
        "--http-token-file",
        &tokens,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("chmod 600") && !err.contains(TOKEN_A), "{err}");
}

/// A client that closes a tools/call's response stream while the call runs cancels it: the grep
/// (seconds of work: a pattern that falls back to the slowest regex engine) stops, and its audit
/// line says cancelled. Uncancelled, it would run to its end and say ok.
#[test]
fn http_a_closed_stream_cancels_its_call() {
    let tmp = tempfile::tempdir().unwrap();
    crate::support::data::slow_files(tmp.path(), 12, 256 * 1024, 0);
    let root = tmp.path().to_str().unwrap();
    let mut server = Server::start(&["--root", root, "--timeout-ms", "60000"]);
    let session = server.open_session(None);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "grep_search",
        "arguments": {"pattern": "(?:a|b)[a-j]{500}(?:c|d)z", "limit": 100}}})
    .to_string();
    // The stream has begun (its headers came): the call is under way. Then the client goes away.
    let (s, _) = start_call_stream(&server, &session, &call, "");
    std::thread::sleep(Duration::from_millis(300));
    drop(s);

    let deadline = Instant::now() + Duration::from_secs(120);
    let audit = loop {
        let log = server.stderr();
        let line = log
            .lines()
            .find(|l| l.contains("rootbound::audit") && l.contains("grep_search"))
            .map(str::to_string);
        if let Some(line) = line {
            break line;
        }
        assert!(
            Instant::now() < deadline,
            "no audit line for the grep: {log}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(audit.contains("cancelled"), "{audit}");
    server.assert_alive();
}

/// Waits (at most 120 s) for the first audit line of `tool` in the server's log.
/// Posts `call` on a connection of its own (with `extra` headers, each ending in CRLF) and reads
/// until the response's headers came: the call's stream has begun. The connection and its bytes.
pub(super) fn start_call_stream(
    server: &Server,
    session: &str,
    call: &str,
    extra: &str,
) -> (TcpStream, Vec<u8>) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {PROTOCOL}\r\n\
         Mcp-Session-Id: {session}\r\n{extra}Content-Length: {}\r\n\r\n{call}",
        server.addr,
        call.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "closed before the stream began");
        seen.extend_from_slice(&buf[..n]);
    }
    (s, seen)
}

pub(super) fn audit_line(server: &Server, tool: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let log = server.stderr();
        let found = log
            .lines()
            .find(|l| l.contains("rootbound::audit") && l.contains(&format!("tool=\"{tool}\"")))
            .map(str::to_string);
        if let Some(line) = found {
            return line;
        }
        assert!(Instant::now() < deadline, "no audit line for {tool}: {log}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A greedy, silent client: it asks for a grep page of tens of MiB (more than the loopback
/// socket buffers of both ends hold) and never reads it, so the server cannot finish writing it.
/// Meanwhile another client's session opens and its calls are answered; the greedy client's
/// answer is still there to read afterwards.
#[test]
fn http_a_client_that_never_reads_stalls_no_one_else() {
    let tmp = tempfile::tempdir().unwrap();
    // 300 000 matching lines of 100 bytes: a page of ~30 MiB of text, more once JSON-escaped.
    let line = format!("needle {}\n", "x".repeat(92));
    write(&tmp.path().join("big.txt"), &line.repeat(300_000));
    write(
        &tmp.path().join("small.txt"),
        "hello from the other client\n",
    );
    let root = tmp.path().to_str().unwrap();
    let big = ["--max-results", "1000000", "--max-bytes", "268435456"];
    let mut server =
        Server::start(&[&["--root", root, "--timeout-ms", "120000"], &big[..]].concat());
    let session = server.open_session(None);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "grep_search", "arguments": {"pattern": "needle", "path": "big.txt",
        "limit": 1_000_000, "max_bytes": 268_435_456_u64}}})
    .to_string();
    let mut greedy = TcpStream::connect(&server.addr).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {PROTOCOL}\r\n\
         Mcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{call}",
        server.addr,
        call.len()
    );
    greedy.write_all(head.as_bytes()).unwrap();
    // The grep has run to its end: its answer is being written to a client that does not read.
    let audit = audit_line(&server, "grep_search");
    assert!(audit.contains("ok"), "{audit}");

    let other = server.open_session(None);
    let r = server.call(None, &other, 3, "read_file", json!({"path": "small.txt"}));
    assert!(result_text(&r.message(3)).contains("hello from the other client"));
    let r = server.call(
        None,
        &other,
        4,
        "grep_search",
        json!({"pattern": "hello", "path": "small.txt"}),
    );
    assert!(result_text(&r.message(4)).contains("hello from the other client"));
    // The greedy client's own session serves it on too (on another connection).
    let r = server.call(None, &session, 5, "stat", json!({"path": "small.txt"}));
    assert_eq!(r.message(5)["result"]["isError"], false);
    server.assert_alive();

    // Its answer was indeed larger than what the sockets could buffer: it is all there now.
    greedy
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut raw = Vec::new();
    let _ = greedy.read_to_end(&mut raw);
    let reply = Reply::parse(&raw);
    assert_eq!(reply.status, 200);
    assert!(reply.body.len() > 30 << 20, "{} bytes", reply.body.len());
    let page = result_text(&reply.message(2));
    assert_eq!(page.matches("needle").count(), 300_000);
}

/// 50 clients at once, each an agent with a token of its own (one token admits 32 open requests
/// at once, more get 429), each opening its own session and making a few calls on fresh
/// connections: all are answered, each with its own result, and the server stays up.
#[test]
fn http_fifty_clients_at_once_are_all_answered() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let mut tokens = String::new();
    for i in 0..50 {
        write(
            &root.join(format!("f{i}.txt")),
            &format!("file {i}\nneedle{i}\n"),
        );
        tokens.push_str(&format!("c{i} tok-client-{i:02}-0123456789abcdef\n"));
    }
    let token_file = tmp.path().join("tokens");
    write(&token_file, &tokens);
    set_mode(&token_file, 0o600);
    let mut server = Server::start(&[
        "--root",
        root.to_str().unwrap(),
        "--http-token-file",
        token_file.to_str().unwrap(),
    ]);
    let server_ref = &server;
    let answered: usize = std::thread::scope(|s| {
        let clients: Vec<_> = (0..50)
            .map(|i| s.spawn(move || one_client(server_ref, i)))
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).sum()
    });
    assert_eq!(answered, 150);
    server.assert_alive();
}

/// Client `i` of the test above: a session, a read, a grep and a stat, each checked.
fn one_client(server: &Server, i: usize) -> usize {
    let token = format!("tok-client-{i:02}-0123456789abcdef");
    let auth = Some(token.as_str());
    let session = server.open_session(auth);
    let path = format!("f{i}.txt");
    let r = server.call(auth, &session, 2, "read_file", json!({"path": path}));
    assert!(result_text(&r.message(2)).contains(&format!("file {i}")));
    let pattern = format!("needle{i}$");
    let r = server.call(
        auth,
        &session,
        3,
        "grep_search",
        json!({"pattern": pattern}),
    );
    let text = result_text(&r.message(3));
    assert!(
        text.contains(&path) && text.matches("needle").count() == 1,
        "{text}"
    );
    let r = server.call(auth, &session, 4, "stat", json!({"path": path}));
    assert_eq!(r.message(4)["result"]["isError"], false);
    3
}

/// A session's standalone GET stream runs nothing and lasts as long as the session: 40 idle
/// clients sharing one (here: no) token, each holding its stream open, do not use up the 32
/// request slots of that token, so a 41st client is still served.
#[test]
fn http_idle_session_streams_take_no_request_slot() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), "needle\n");
    let mut server = Server::start(&["--root", tmp.path().to_str().unwrap()]);
    let mut streams = Vec::new();
    for _ in 0..40 {
        let session = server.open_session(None);
        // The stream is open once its headers came back.
        let (s, status) = open_stream(&server, &session);
        assert_eq!(status, "HTTP/1.1 200");
        streams.push(s);
    }
    let last = server.open_session(None);
    let r = server.call(None, &last, 7, "grep_search", json!({"pattern": "needle"}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(result_text(&r.message(7)).contains("needle"));
    server.assert_alive();
    drop(streams);
}

/// A GET stream on a fresh connection in `session`: the first bytes of its status line.
fn open_stream(server: &Server, session: &str) -> (TcpStream, String) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    let head = format!(
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\
         MCP-Protocol-Version: {PROTOCOL}\r\nMcp-Session-Id: {session}\r\n\r\n",
        server.addr
    );
    s.write_all(head.as_bytes()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut first = [0u8; 12];
    let status = match s.read_exact(&mut first) {
        Ok(()) => String::from_utf8_lossy(&first).into_owned(),
        Err(e) => format!("no answer: {e}"),
    };
    (s, status)
}

/// One session may open any number of standalone GET streams, each holding a connection for as
/// long as it is open: past the token's bound (`http_sessions_per_token`) they are refused, so that
/// they cannot hold every connection of the server and lock every other client out.
#[test]
fn http_one_session_s_streams_cannot_take_every_connection() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), "needle\n");
    let mut server = Server::start(&[
        "--root",
        tmp.path().to_str().unwrap(),
        "--http-max-connections",
        "6",
        "--http-sessions-per-token",
        "2",
    ]);
    let session = server.open_session(None);
    let mut streams = Vec::new();
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let (s, status) = open_stream(&server, &session);
        statuses.push(status);
        streams.push(s);
    }
    let open = statuses.iter().filter(|s| *s == "HTTP/1.1 200").count();
    assert_eq!(open, 2, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|s| s == "HTTP/1.1 200" || s == "HTTP/1.1 429"),
        "{statuses:?}"
    );
    // Another client is served while the streams stay open (a raw request: without the bound it
    // would wait for a connection forever).
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let ping = r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {PROTOCOL}\r\n\
         Mcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{ping}",
        server.addr,
        ping.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let r = Reply::parse(&raw);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&raw));
    server.assert_alive();
    drop(streams);
}
