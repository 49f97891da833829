//! Scripted sessions through the official MCP TypeScript SDK client (`@modelcontextprotocol/sdk`
//! installed by `npm ci --prefix tests/js`): one per dialect (and the MCP Roots narrowing) over
//! stdio (`tests/js/mcp_session.mjs`), and the read tools over Streamable HTTP with a bearer token
//! (`tests/js/mcp_http_session.mjs`). Skips without node or the SDK, except under CI.

use super::mcp_http::Server;
use crate::support::child::run_logged;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// `tests/js`, or `None` (the test skips) when node or the SDK is missing outside CI.
fn sdk_dir() -> Option<PathBuf> {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let sdk = js.join("node_modules/@modelcontextprotocol/sdk/package.json");
    let node = Command::new("node").arg("--version").output();
    if !sdk.exists() || node.is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "node and @modelcontextprotocol/sdk are required under CI (npm ci --prefix tests/js)"
        );
        eprintln!("SKIPPED: node or the MCP TypeScript SDK is missing (npm ci --prefix tests/js)");
        return None;
    }
    Some(js)
}

/// Runs `node SCRIPT ARGS` (killed after 300 s): its exit status, stdout and stderr.
fn run_node(script: &Path, args: &[&Path], scratch: &Path) -> (ExitStatus, String, String) {
    let (status, stdout, stderr) = run_logged(
        Command::new("node").arg(script).args(args),
        scratch,
        Duration::from_secs(300),
        "the TypeScript client",
    );
    assert!(
        status.success(),
        "{} failed ({status})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        script.display()
    );
    assert!(stdout.trim_end().ends_with("ALL OK"), "{stdout}");
    (status, stdout, stderr)
}

#[test]
fn official_typescript_sdk_sessions_per_profile() {
    let Some(js) = sdk_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_rootbound"));
    let (_, stdout, _) = run_node(&js.join("mcp_session.mjs"), &[bin, &work], tmp.path());
    for s in [
        "rootbound session OK",
        "claude-code session OK",
        "gemini-cli session OK",
        "mcp-filesystem session OK",
        "client roots session OK",
    ] {
        assert!(stdout.contains(s), "missing '{s}' in:\n{stdout}");
    }
}

/// `StreamableHTTPClientTransport` with `Authorization: Bearer` (requestInit headers) against
/// `rootbound mcp --http` on a free loopback port: every read tool of the default profile answers
/// through the SDK's schema checks; a wrong token, and none, are refused.
#[test]
fn official_typescript_sdk_over_streamable_http() {
    let Some(js) = sdk_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (root, outside) = (tmp.path().join("root"), tmp.path().join("outside"));
    std::fs::create_dir(&root).unwrap();
    std::fs::create_dir(&outside).unwrap();
    let token = "tok-sdk-http-0123456789abcdef";
    let tokens = tmp.path().join("tokens");
    std::fs::write(&tokens, format!("{token}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&tokens, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut server = Server::start(&[
        "--root",
        root.to_str().unwrap(),
        "--http-token-file",
        tokens.to_str().unwrap(),
    ]);
    let url = format!("http://{}/mcp", server.addr);
    let args = [Path::new(&url), Path::new(token), &root, &outside];
    let (_, stdout, _) = run_node(&js.join("mcp_http_session.mjs"), &args, tmp.path());
    for s in ["http session OK", "wrong token refused OK"] {
        assert!(stdout.contains(s), "missing '{s}' in:\n{stdout}");
    }
    server.assert_alive();
    // The refused connections ran no tool: every audited call was made with the token.
    let log = server.stderr();
    assert!(!log.contains(token), "{log}");
    let calls = log
        .lines()
        .filter(|l| l.contains("rootbound::audit") && l.contains("tool="));
    assert!(calls.clone().count() >= 10, "{log}");
    assert!(calls.clone().all(|l| l.contains("token=")), "{log}");
}
