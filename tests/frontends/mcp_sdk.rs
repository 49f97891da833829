//! A scripted session per dialect (and the MCP Roots narrowing) through the official MCP
//! TypeScript SDK client (`tests/js/mcp_session.mjs`, `@modelcontextprotocol/sdk` installed by
//! `npm ci --prefix tests/js`). Skips without node or the SDK, except under CI.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn official_typescript_sdk_sessions_per_profile() {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let sdk = js.join("node_modules/@modelcontextprotocol/sdk/package.json");
    let node = Command::new("node").arg("--version").output();
    if !sdk.exists() || node.is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "node and @modelcontextprotocol/sdk are required under CI (npm ci --prefix tests/js)"
        );
        eprintln!("SKIPPED: node or the MCP TypeScript SDK is missing (npm ci --prefix tests/js)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out_path = tmp.path().join("client.out");
    let err_path = tmp.path().join("client.err");
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let mut child = Command::new("node")
        .arg(js.join("mcp_session.mjs"))
        .arg(env!("CARGO_BIN_EXE_rootbound"))
        .arg(&work)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("run node");
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the TypeScript client did not finish in 300 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    assert!(
        status.success(),
        "tests/js/mcp_session.mjs failed ({status})\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    for s in [
        "rootbound session OK",
        "claude-code session OK",
        "gemini-cli session OK",
        "mcp-filesystem session OK",
        "client roots session OK",
    ] {
        assert!(stdout.contains(s), "missing '{s}' in:\n{stdout}");
    }
    assert!(stdout.trim_end().ends_with("ALL OK"), "{stdout}");
}
