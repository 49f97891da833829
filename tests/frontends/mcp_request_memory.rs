//! One request's memory over stdio: a `tools/call` is bounded by `max_request_bytes` (a longer
//! line is refused unread, and the next line is still read as the next request) and its parse by
//! the call's memory budget (`max_call_memory`): a 16 MiB line of small JSON values, which
//! serde_json's tree (and rmcp's copies of it) would inflate to over 1.5 GB, is refused before it
//! is parsed. The server's peak resident memory (`VmHWM`) stays far under that.

#![cfg(all(target_os = "linux", feature = "mcp", feature = "cli"))]

use crate::support::mcp::Mcp;
use serde_json::{json, Value};
use std::process::Command;

const MIB: usize = 1 << 20;

/// The most resident memory the server ever had, in bytes.
fn peak_rss(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    kb * 1024
}

/// A `tools/call` line of `id` with `arguments`, of about `len` bytes when the arguments are.
fn call_line(id: u64, tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
    .into_bytes()
}

fn server(extra: &[&str]) -> (tempfile::TempDir, Mcp) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    cmd.args(["mcp", "--no-index", "--root"]).arg(&root);
    cmd.arg("--write-root")
        .arg(&root)
        .args(["--max-write-bytes", "33554432"]);
    cmd.args(extra);
    let mut m = Mcp::spawn(cmd);
    m.initialize("request-memory");
    (tmp, m)
}

/// The server still reads the next line as the next request.
fn in_sync(m: &mut Mcp, id: u64) {
    m.request(id, "ping", json!({}));
    let pong = m.response(id);
    assert_eq!(pong["result"], json!({}), "{pong}");
}

#[test]
fn a_request_whose_parse_would_pass_the_call_memory_is_refused_unparsed() {
    let (_tmp, mut m) = server(&[]);
    // 8 million zeros in 16 MiB: about 0.5 GB as serde_json's tree, over the 256 MB budget.
    let zeros = format!(
        "{{\"pattern\":\"a\",\"x\":[{}0]}}",
        "0,".repeat(8 * MIB - 64)
    );
    let line = call_line(2, "grep_search", &zeros);
    assert!(line.len() < 16 * MIB);
    m.send_raw(&line);
    let r: Value = m.response(2);
    assert_eq!(r["error"]["code"], -32600, "{r}");
    let said = r["error"]["message"].as_str().unwrap();
    assert!(
        said.contains("memory budget") && said.contains("--max-call-memory"),
        "{said}"
    );
    in_sync(&mut m, 3);
    // Refused before the parse: the line itself and the server's own working set. The whole
    // parse (and rmcp's copies of it) peaked at about 1.6 GB.
    let peak = peak_rss(m.pid());
    assert!(peak < 300 * MIB, "peak resident memory {} MiB", peak / MIB);
}

#[test]
fn a_large_call_is_served_holding_about_its_size() {
    let (tmp, mut m) = server(&[]);
    let path = tmp.path().join("root/big.txt");
    let content = "x".repeat(16 * MIB - 400);
    let args = json!({"path": path, "content": content}).to_string();
    m.send_raw(&call_line(2, "write_file", &args));
    let r = m.response(2);
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        content.len() as u64
    );
    in_sync(&mut m, 3);
    // The line, one tree of the arguments and the file's write: about 45 MiB with the server's
    // own. rmcp's parse beside ours made it about 109 MiB.
    let peak = peak_rss(m.pid());
    assert!(peak < 96 * MIB, "peak resident memory {} MiB", peak / MIB);
}

#[test]
fn a_line_over_max_request_bytes_is_refused_unread_and_the_next_is_served() {
    let (_tmp, mut m) = server(&["--max-request-bytes", "4096"]);
    let args = json!({"pattern": "a".repeat(8192)}).to_string();
    m.send_raw(&call_line(2, "grep_search", &args));
    let refused = m.next_message("the refusal of the long line");
    assert_eq!(refused["error"]["code"], -32700, "{refused}");
    assert_eq!(refused["id"], Value::Null, "{refused}");
    let said = refused["error"]["message"].as_str().unwrap();
    assert!(
        said.contains("4096") && said.contains("--max-request-bytes"),
        "{said}"
    );
    in_sync(&mut m, 3);
    // A call under the limit is served as before.
    let r = m.call(4, "grep_search", json!({"pattern": "nothing here"}));
    assert_eq!(r["isError"], false, "{r}");
}
