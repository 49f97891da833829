//! `rootbound mcp` spoken to by hand: newline-delimited JSON-RPC over the child's stdin/stdout.

use crate::support::data::XorShift;
use crate::support::mcp::{jsonrpc, Mcp};
use serde_json::{json, Value};
use std::process::{Command, Stdio};
use std::time::Duration;

const SECRET: &str = "TOP-SECRET-0xBADF00D";

/// `rootbound ARGS` with logging on (the audit lines on stderr are checked).
fn server(args: &[&str]) -> Mcp {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    cmd.args(args).env("ROOTBOUND_LOG", "info");
    Mcp::spawn(cmd)
}

/// Closes stdin and returns (exit success, stderr); anything else the server printed must be
/// JSON-RPC too.
fn finish(s: Mcp) -> (bool, String) {
    let exit = s.finish(Duration::from_secs(20));
    for line in &exit.all[exit.rest..] {
        jsonrpc(line);
    }
    (exit.success(), exit.stderr)
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content: {result}"))
        .to_string()
}

fn tree() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/main.rs"),
        "fn main() {\n    println!(\"hello\");\n}\n",
    )
    .unwrap();
    std::fs::write(root.join("notes.txt"), "hello again\n").unwrap();
    std::fs::write(tmp.path().join("x"), format!("{SECRET}\n")).unwrap();
    (tmp, root)
}

fn initialize(s: &mut Mcp) {
    s.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "by-hand", "version": "0"}}),
    );
    let init = s.response(1);
    assert_eq!(init["result"]["serverInfo"]["name"], "rootbound", "{init}");
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
}

#[test]
fn handshake_list_call_and_escape() {
    let (_tmp, root) = tree();
    let root_s = root.to_str().unwrap();
    let mut s = server(&["mcp", "--root", root_s]);
    initialize(&mut s);

    s.request(2, "tools/list", json!({}));
    let list = s.response(2);
    let tools = list["result"]["tools"].as_array().expect("tools array");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "read_file",
            "grep_search",
            "glob",
            "list_dir",
            "stat",
            "read_many_files",
            "directory_tree",
            "list_roots",
            "read_media_file"
        ]
    );
    for t in tools {
        assert_eq!(t["annotations"]["readOnlyHint"], true, "{t}");
        assert_eq!(t["annotations"]["openWorldHint"], false, "{t}");
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        assert!(t["description"].as_str().unwrap().len() > 40, "{t}");
    }
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["path"]));
    assert!(tools[0]["inputSchema"]["properties"]["offset"].is_object());

    // read_file: structured result and the same text for the model.
    let r = s.call(3, "read_file", json!({"path": "src/main.rs"}));
    assert_eq!(r["isError"], false, "{r}");
    let want = "fn main() {\n    println!(\"hello\");\n}\n";
    assert_eq!(r["structuredContent"]["content"], want);
    assert_eq!(
        r["structuredContent"]["path"],
        std::fs::canonicalize(root.join("src/main.rs"))
            .unwrap()
            .to_str()
            .unwrap()
    );
    assert_eq!(text(&r), want);

    // A truncated page carries the notice with the next offset.
    let r = s.call(4, "read_file", json!({"path": "src/main.rs", "limit": 5}));
    assert_eq!(r["structuredContent"]["truncated"], true);
    let t = text(&r);
    assert!(t.starts_with("fn ma"), "{t}");
    assert!(
        t.contains("[truncated: 37 bytes total") && t.contains("next_offset=5"),
        "{t}"
    );

    // grep_search: match lines, then a footer.
    let r = s.call(5, "grep_search", json!({"pattern": "hello", "limit": 1}));
    assert_eq!(r["isError"], false, "{r}");
    let sc = &r["structuredContent"];
    assert_eq!(sc["match_lines"], 1);
    assert_eq!(sc["truncated"], true);
    let cursor = sc["next_cursor"].as_str().expect("cursor").to_string();
    let t = text(&r);
    let first = t.lines().next().unwrap();
    assert!(first.ends_with("notes.txt:1:hello again"), "{t}");
    assert!(t.contains(&format!("cursor=\"{cursor}\"")), "{t}");
    let r = s.call(
        6,
        "grep_search",
        json!({"pattern": "hello", "limit": 1, "cursor": cursor}),
    );
    let sc = &r["structuredContent"];
    assert!(
        sc["matches"]
            .as_str()
            .unwrap()
            .ends_with("main.rs:2:    println!(\"hello\");\n"),
        "{sc}"
    );
    assert_eq!(sc["truncated"], false);
    assert!(text(&r).contains("complete"), "{r}");

    // Escape attempts: tool errors with the code first, and nothing of the secret.
    for (id, tool, args) in [
        (7, "read_file", json!({"path": "../x"})),
        (
            8,
            "read_file",
            json!({"path": root.parent().unwrap().join("x").to_str().unwrap()}),
        ),
        (9, "grep_search", json!({"pattern": "SECRET", "path": ".."})),
        (10, "list_dir", json!({"path": "../"})),
    ] {
        let r = s.call(id, tool, args.clone());
        assert_eq!(r["isError"], true, "{tool} {args}: {r}");
        let t = text(&r);
        assert!(t.starts_with("OUT_OF_SANDBOX: "), "{tool} {args}: {t}");
        assert_eq!(r["structuredContent"]["error"]["code"], "OUT_OF_SANDBOX");
        assert!(!r.to_string().contains(SECRET), "{r}");
    }

    // Unknown tools and bad arguments are tool errors too, not protocol errors.
    let r = s.call(11, "no_such_tool", json!({}));
    assert_eq!(r["isError"], true);
    assert!(text(&r).starts_with("INVALID_ARGUMENT"), "{r}");
    let r = s.call(12, "stat", json!({"path": "notes.txt", "typo": true}));
    assert_eq!(r["isError"], true);
    assert!(text(&r).starts_with("INVALID_ARGUMENT"), "{r}");

    let (ok, stderr) = finish(s);
    assert!(
        ok,
        "server did not exit cleanly on stdin EOF; stderr: {stderr}"
    );
    // Logs (including the audit events) went to stderr, and stdout held only JSON-RPC.
    assert!(stderr.contains("rootbound::audit"), "stderr: {stderr}");
    assert!(stderr.contains("OUT_OF_SANDBOX"), "stderr: {stderr}");
}

/// A slow grep does not hold up a read sent after it.
#[test]
fn calls_run_concurrently() {
    let (_tmp, root) = tree();
    // 6 MiB of pseudo-random words. The pattern below has no literal to skip ahead with and its DFA
    // explodes on such text (a class followed by `.{20}`), so the regex engine falls back to a slow
    // path: about a second in a release build, and the 4 s budget in an unoptimized one.
    let mut rng = XorShift::default();
    let alphabet = b"abcdefghijklmnopqrstuvwxyz     ";
    for i in 0..6 {
        let buf: Vec<u8> = (0..(1usize << 20))
            .map(|j| {
                let x = rng.below(alphabet.len() as u64) as usize;
                if j % 100 == 99 {
                    b'\n'
                } else {
                    alphabet[x]
                }
            })
            .collect();
        std::fs::write(root.join(format!("big{i}.txt")), buf).unwrap();
    }
    let mut s = server(&["mcp", "--root", root.to_str().unwrap()]);
    initialize(&mut s);
    s.request(
        2,
        "tools/call",
        json!({"name": "grep_search",
               "arguments": {"pattern": r"[a-m].{20}[^\x00-\x7f]", "timeout_ms": 4000}}),
    );
    std::thread::sleep(Duration::from_millis(100));
    s.request(
        3,
        "tools/call",
        json!({"name": "read_file", "arguments": {"path": "notes.txt"}}),
    );
    let read = s.response(3);
    assert_eq!(
        read["result"]["structuredContent"]["content"],
        "hello again\n"
    );
    let grep = s.response(2);
    assert_eq!(grep["result"]["isError"], false, "{grep}");
    assert_eq!(
        s.order,
        [1, 3, 2],
        "the read (id 3) should be answered before the slow grep (id 2); grep: {}",
        grep["result"]["structuredContent"]["stats"]
    );
    let (ok, stderr) = finish(s);
    assert!(ok, "stderr: {stderr}");
}

#[test]
fn config_file_agent_over_mcp() {
    let (tmp, root) = tree();
    let cfg = tmp.path().join("agents.toml");
    std::fs::write(
        &cfg,
        "[agents.reader.tools.read_file]\nroots = [\"root\"]\nmax_bytes = 4\n\
         [agents.other.tools.stat]\nroots = [\"root\"]\n\
         [agents.writer.write]\nroot = \"out\"\nallow_delete = true\n",
    )
    .unwrap();
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    let cfg_s = cfg.to_str().unwrap();
    // Several agents and no --agent: a usage error on stderr, exit 2, nothing on stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_rootbound"))
        .args(["mcp", "--config", cfg_s])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--agent") && err.contains("other, reader, writer"),
        "{err}"
    );

    let mut s = server(&["mcp", "--config", cfg_s, "--agent", "reader"]);
    initialize(&mut s);
    s.request(2, "tools/list", json!({}));
    let list = s.response(2);
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file"]);
    let r = s.call(3, "read_file", json!({"path": "notes.txt"}));
    assert_eq!(r["structuredContent"]["content"], "hell");
    assert_eq!(r["structuredContent"]["truncated"], true);
    let r = s.call(4, "stat", json!({"path": "notes.txt"}));
    assert_eq!(r["isError"], true, "{r}");
    let (ok, stderr) = finish(s);
    assert!(ok, "stderr: {stderr}");
    assert!(
        stderr.contains("agent=\"reader\"") || stderr.contains("agent=reader"),
        "{stderr}"
    );

    // Write tools (edit_file is not offered: the write root is not readable): not read-only;
    // delete_file is destructive, write_file (create-only) is not.
    let mut s = server(&["mcp", "--config", cfg_s, "--agent", "writer"]);
    initialize(&mut s);
    s.request(2, "tools/list", json!({}));
    let list = s.response(2);
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["write_file", "create_directory", "move_file", "delete_file"]
    );
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap();
    assert_eq!(tool("write_file")["annotations"]["readOnlyHint"], false);
    assert_eq!(tool("write_file")["annotations"]["destructiveHint"], false);
    assert_eq!(
        tool("create_directory")["annotations"]["destructiveHint"],
        false
    );
    assert_eq!(tool("delete_file")["annotations"]["readOnlyHint"], false);
    assert_eq!(tool("delete_file")["annotations"]["destructiveHint"], true);
    assert_eq!(tool("delete_file")["annotations"]["openWorldHint"], false);
    let r = s.call(
        3,
        "write_file",
        json!({"path": "new.txt", "content": "made"}),
    );
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("out/new.txt")).unwrap(),
        "made"
    );
    let r = s.call(
        4,
        "write_file",
        json!({"path": "../escape.txt", "content": "x"}),
    );
    assert!(text(&r).starts_with("OUT_OF_SANDBOX"), "{r}");
    assert!(!tmp.path().join("escape.txt").exists());
    let (ok, stderr) = finish(s);
    assert!(ok, "stderr: {stderr}");
    assert!(root.join("notes.txt").exists());
}

/// The (code, id) of a JSON-RPC error reply; the reply must carry an `id` member (null when the
/// request's id could not be read).
fn rpc_error(v: &Value) -> (i64, Value) {
    assert!(
        v.as_object().is_some_and(|o| o.contains_key("id")),
        "an error reply without an id member: {v}"
    );
    assert!(v["error"]["message"].is_string(), "{v}");
    (
        v["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error reply: {v}")),
        v["id"].clone(),
    )
}

/// Every request line gets a reply: -32700 (id null) for a line that is not JSON or is too
/// long, -32600 for an invalid request (with its id when it can be read), -32602 for params that do
/// not fit the method, and a tool error for arguments that are not an object. Notifications are never
/// answered. Deep nesting neither overflows the stack nor goes unanswered.
#[test]
fn every_request_line_gets_a_reply() {
    let (_tmp, root) = tree();
    let mut s = server(&["mcp", "--root", root.to_str().unwrap()]);
    // Before initialize: a bad line is answered, and a stray notification or response does not end
    // the session (rmcp gives up on a non-request before initialize).
    s.send_raw(b"{not json");
    let v = s.next_message("not JSON before initialize");
    assert_eq!(rpc_error(&v), (-32700, Value::Null), "{v}");
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    s.send(json!({"jsonrpc": "2.0", "id": 99, "result": {}}));
    initialize(&mut s);

    // Arguments that are not an object: a tool error like any other bad argument.
    for (id, args) in [(2, json!([1, 2])), (3, json!("notes.txt")), (4, json!(7))] {
        let r = s.call(id, "read_file", args.clone());
        assert_eq!(r["isError"], true, "{args}: {r}");
        assert!(text(&r).starts_with("INVALID_ARGUMENT: "), "{args}: {r}");
        assert_eq!(
            r["structuredContent"]["error"]["code"], "INVALID_ARGUMENT",
            "{args}: {r}"
        );
    }

    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let call_with = |id: &str, args: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"read_file","arguments":{args}}}}}"#
        )
    };
    let cases: Vec<(&str, String, (i64, Value))> = vec![
        ("not JSON", "{not json".into(), (-32700, Value::Null)),
        (
            "truncated JSON",
            r#"{"jsonrpc":"2.0","id":5,"method":"ping""#.into(),
            (-32700, Value::Null),
        ),
        (
            "5,000 levels deep",
            call_with("6", &deep(5000)),
            (-32600, json!(6)),
        ),
        (
            "5,000 levels deep, string id last",
            format!(
                r#"{{"method":"tools/call","params":{{"name":"stat","arguments":{{"path":{}}}}},"jsonrpc":"2.0","id":"deep"}}"#,
                deep(5000)
            ),
            (-32600, json!("deep")),
        ),
        (
            "5,000 open brackets",
            "[".repeat(5000),
            (-32700, Value::Null),
        ),
        ("a batch", "[]".into(), (-32600, Value::Null)),
        ("a number", "5".into(), (-32600, Value::Null)),
        (
            "jsonrpc 1.0",
            r#"{"jsonrpc":"1.0","id":7,"method":"tools/list"}"#.into(),
            (-32600, json!(7)),
        ),
        (
            "no jsonrpc",
            r#"{"id":8,"method":"tools/list"}"#.into(),
            (-32600, json!(8)),
        ),
        (
            "method not a string",
            r#"{"jsonrpc":"2.0","id":9,"method":5}"#.into(),
            (-32600, json!(9)),
        ),
        (
            "an object id",
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#.into(),
            (-32600, Value::Null),
        ),
        (
            "no method",
            r#"{"jsonrpc":"2.0","id":10}"#.into(),
            (-32600, json!(10)),
        ),
        (
            "tools/call params not an object",
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":[1]}"#.into(),
            (-32602, json!(11)),
        ),
        (
            "tools/call without params",
            r#"{"jsonrpc":"2.0","id":12,"method":"tools/call"}"#.into(),
            (-32602, json!(12)),
        ),
        (
            "tools/call name not a string",
            r#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":5}}"#.into(),
            (-32602, json!(13)),
        ),
        (
            "unknown method",
            r#"{"jsonrpc":"2.0","id":14,"method":"no/such"}"#.into(),
            (-32601, json!(14)),
        ),
    ];
    for (what, line, want) in cases {
        s.send_raw(line.as_bytes());
        let v = s.next_message(what);
        assert_eq!(rpc_error(&v), want, "{what}: {v}");
    }

    // A line over 16 MiB: -32700, and the server goes on.
    let mut huge = br#"{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"stat","arguments":{"path":""#.to_vec();
    huge.resize(17 << 20, b'a');
    huge.extend_from_slice(br#""}}}"#);
    s.send_raw(&huge);
    let v = s.next_message("a 17 MiB line");
    assert_eq!(rpc_error(&v), (-32700, Value::Null), "{v}");

    // Notifications are never answered, malformed or not: the next line is the ping's response.
    for note in [
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#.into(),
        r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#.into(),
        r#"{"jsonrpc":"2.0","method":7}"#.into(),
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"x":{}}}}}"#,
            deep(5000)
        ),
        String::new(),
    ] {
        s.send_raw(note.as_bytes());
    }
    s.request(16, "ping", json!({}));
    let v = s.next_message("ping after notifications");
    assert_eq!(v["id"], 16, "a notification was answered: {v}");
    assert!(v["result"].is_object(), "{v}");

    // Nesting just under serde_json's limit goes through rmcp: a tool error, no crash.
    let r = s.call(
        17,
        "read_file",
        serde_json::from_str(&format!(r#"{{"path":{}}}"#, deep(120))).unwrap(),
    );
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(&r).starts_with("INVALID_ARGUMENT"), "{r}");

    // And the session still works.
    let r = s.call(18, "read_file", json!({"path": "notes.txt"}));
    assert_eq!(r["structuredContent"]["content"], "hello again\n", "{r}");
    let (ok, stderr) = finish(s);
    assert!(ok, "stderr: {stderr}");
}

#[test]
fn a_cancelled_request_stops_its_call() {
    let (_tmp, root) = tree();
    // 12 files of `[a-j]` lines against a pattern whose scan falls back to the slowest regex engine:
    // seconds of work, far more than the time until the cancel.
    crate::support::data::slow_files(&root, 12, 256 * 1024, 0);
    let mut s = server(&[
        "mcp",
        "--root",
        root.to_str().unwrap(),
        "--timeout-ms",
        "60000",
    ]);
    initialize(&mut s);
    let sent = std::time::Instant::now();
    s.request(
        2,
        "tools/call",
        json!({"name": "grep_search",
               "arguments": {"pattern": "(?:a|b)[a-j]{500}(?:c|d)z", "limit": 100}}),
    );
    std::thread::sleep(Duration::from_millis(300));
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": 2, "reason": "the user moved on"}}),
    );
    // The call's audit event comes while the session is open: waited for, however slow a busy
    // machine is to notice the cancel (the cap bounds only a failing run).
    let audit = s
        .stderr_line(crate::support::time::PROMPT * 6, |l| {
            l.contains("rootbound::audit") && l.contains("grep_search")
        })
        .unwrap_or_else(|stderr| panic!("no audit event for the grep: {stderr}"));
    s.request(3, "ping", json!({}));
    s.response(3);
    // The session was open this long after the request was sent (in fractions of a millisecond:
    // with the round trip at ~50 µs, the call's end and the ping's reply can come within the
    // same millisecond, and whole milliseconds cut the window below the call's own time).
    let open = sent.elapsed().as_secs_f64() * 1e3;
    let (ok, stderr) = finish(s);
    assert!(ok, "stderr: {stderr}");
    assert!(audit.contains("cancelled"), "{audit}");
    let elapsed: f64 = audit
        .split("elapsed_ms=")
        .nth(1)
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no elapsed_ms in {audit}"));
    // The call started after the request was sent and ended, cancelled, while the session was
    // open; not cancelled, it would have run its seconds of work to its 60 s timeout (reported
    // `timed_out`) or been stopped only at the end of the session. No guess at the scheduler's
    // latency: the event is waited for, and the bound is the window it came in.
    assert!(
        elapsed < open,
        "the cancelled grep ran {elapsed} ms, the session was open {open} ms: {audit}"
    );
}

/// Read_media_file comes back as an MCP image block (type sniffed from the bytes), with
/// the metadata in structuredContent; every listed tool has a title and an output schema.
#[test]
fn media_as_image_content_and_tools_with_output_schemas() {
    let (_tmp, root) = tree();
    std::fs::write(root.join("pic.txt"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let mut s = server(&["mcp", "--root", root.to_str().unwrap()]);
    initialize(&mut s);
    s.request(2, "tools/list", json!({}));
    let list = s.response(2);
    for t in list["result"]["tools"].as_array().unwrap() {
        assert!(t["title"].is_string(), "{t}");
        assert_eq!(t["outputSchema"]["type"], "object", "{t}");
    }
    // Nothing is offered as resources or prompts: empty lists, not "method not found".
    s.request(10, "resources/list", json!({}));
    assert_eq!(s.response(10)["result"]["resources"], json!([]));
    s.request(11, "prompts/list", json!({}));
    assert_eq!(s.response(11)["result"]["prompts"], json!([]));
    let r = s.call(3, "read_media_file", json!({"path": "pic.txt"}));
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["content"][0]["type"], "image", "{r}");
    assert_eq!(r["content"][0]["mimeType"], "image/png", "{r}");
    assert!(r["content"][0]["data"]
        .as_str()
        .unwrap()
        .starts_with("iVBORw0KGgo"));
    assert_eq!(r["structuredContent"]["mime_type"], "image/png");
    assert!(r["structuredContent"].get("data").is_none());
    let (ok, stderr) = finish(s);
    assert!(ok, "stderr: {stderr}");
}

/// Replies still on their way to stdout when the input ends are written before the server exits:
/// pipelined calls with large replies, stdin closed right after them, every reply read (stdout is
/// written by a thread of its own, which the server waits for).
#[test]
fn replies_on_their_way_when_the_input_ends_are_written() {
    let (_tmp, root) = tree();
    let big: String = (0..1500)
        .map(|i| format!("line {i:05} of a big file, padded to fifty bytes\n"))
        .collect();
    std::fs::write(root.join("big.txt"), &big).unwrap();
    let mut s = server(&["mcp", "--root", root.to_str().unwrap()]);
    initialize(&mut s);
    const CALLS: u64 = 60;
    let path = root.join("big.txt");
    for id in 100..100 + CALLS {
        s.request(
            id,
            "tools/call",
            json!({"name": "read_file", "arguments": {"path": path, "limit": 60000}}),
        );
    }
    s.close_stdin();
    let until = std::time::Instant::now() + Duration::from_secs(60);
    for id in 100..100 + CALLS {
        let r = s.response_by(id, until);
        assert_eq!(r["result"]["isError"], false, "{r}");
        assert_eq!(
            r["result"]["structuredContent"]["content"]
                .as_str()
                .map(str::len),
            Some(60000),
            "call {id}"
        );
    }
    let (ok, stderr) = finish(s);
    assert!(ok, "{stderr}");
}

/// The input ending while a call waits for the client's roots (`--client-roots`: the client
/// announced roots and has not answered `roots/list`) ends the server at once: no answer can come
/// any more, so the call stops waiting and is served as after a `roots/list` that timed out (the
/// served roots stay). Before, the call held the session until the wait for the roots ran out
/// (10 s, the prompt bound itself), and the server's log said `roots/list timed out` first.
#[test]
fn the_input_ending_while_a_call_waits_for_the_clients_roots_ends_the_server() {
    let (_tmp, root) = tree();
    let mut s = server(&["mcp", "--root", root.to_str().unwrap(), "--client-roots"]);
    s.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {"roots": {"listChanged": true}},
               "clientInfo": {"name": "by-hand", "version": "0"}}),
    );
    s.response(1);
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    // The server asks for the client's roots; the client never answers.
    let ask = s.next_message("notifications/initialized");
    assert_eq!(ask["method"], "roots/list", "{ask}");
    s.request(
        2,
        "tools/call",
        json!({"name": "grep_search", "arguments": {"pattern": "hello"}}),
    );
    // The call is waiting for the roots by now, or soon after the input ends.
    std::thread::sleep(Duration::from_millis(300));
    let exit = s.finish(crate::support::time::PROMPT);
    assert!(exit.success(), "{}", exit.stderr);
    assert!(
        !exit.stderr.contains("roots/list timed out"),
        "{}",
        exit.stderr
    );
    assert!(
        exit.stderr
            .contains("the input ended before the client's roots came"),
        "{}",
        exit.stderr
    );
    // The call was answered before the end, as the input's end promises.
    let answered = exit.all.iter().map(|l| jsonrpc(l)).any(|v| v["id"] == 2);
    assert!(answered, "{:?}", exit.all);
}

/// A client that closes the server's stdout (it stopped reading: SIGPIPE, or EPIPE since Rust
/// ignores the signal) and keeps stdin open: no reply can reach it any more, so the session
/// should end as at the end of the input, rather than run every later call for nobody.
#[test]
fn the_output_closed_by_the_client_ends_the_server() {
    use std::io::{BufRead, Write};
    let (_tmp, root) = tree();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rootbound"))
        .args(["mcp", "--root", root.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "by-hand", "version": "0"}}});
    writeln!(stdin, "{init}").unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("rootbound"), "{line}");
    drop(stdout);
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    for id in 2..6 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "grep_search", "arguments": {"pattern": "hello"}}});
        // The server may be gone already.
        let _ = writeln!(stdin, "{call}").and_then(|()| stdin.flush());
    }
    let ended = crate::support::child::wait_within(&mut child, crate::support::time::PROMPT);
    drop(stdin);
    assert!(
        ended.is_some(),
        "the server still ran with its output closed"
    );
}
