//! `rootbound mcp` driven by a client no one here wrote: the official MCP Python SDK
//! (`tests/mcp_client.py`, `tests/mcp_progress.py`, `tests/mcp_dialects.py` for a session per
//! dialect and MCP Roots narrowing, and `tests/mcp_http_client.py` over Streamable HTTP; run with the
//! virtualenv at `.venv`).

use crate::support::child::run_logged;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const SETUP: &str = "python3 -m venv .venv && .venv/bin/pip install mcp";

#[test]
fn official_python_sdk_client() {
    let Some(stdout) = run_client("mcp_client.py", "official_python_sdk_client") else {
        return;
    };
    assert!(
        stdout.contains("classic session OK") && stdout.trim_end().ends_with("ALL OK"),
        "unexpected client output:\n{stdout}"
    );
}

/// A tools/call with a progress callback (the SDK sends `_meta.progressToken`) gets
/// `notifications/progress` while the grep runs, at most every ~250 ms, with increasing counts.
#[test]
fn official_python_sdk_client_sees_progress() {
    let Some(stdout) = run_client(
        "mcp_progress.py",
        "official_python_sdk_client_sees_progress",
    ) else {
        return;
    };
    assert!(
        stdout.trim_end().ends_with("PROGRESS OK"),
        "unexpected client output:\n{stdout}"
    );
}

/// A session per dialect (an error case and a paged grep each), and `--client-roots`
/// narrowing with `notifications/roots/list_changed`.
#[test]
fn official_python_sdk_sessions_per_profile() {
    let Some(stdout) = run_client(
        "mcp_dialects.py",
        "official_python_sdk_sessions_per_profile",
    ) else {
        return;
    };
    assert!(
        stdout.contains("client roots session OK") && stdout.trim_end().ends_with("ALL OK"),
        "unexpected client output:\n{stdout}"
    );
}

/// The SDK's Streamable HTTP client against `rootbound mcp --http` with a bearer token: the same
/// checks as over stdio (every read tool, paging, escapes), and a wrong token gets no session.
#[test]
fn official_python_sdk_over_streamable_http() {
    let Some(stdout) = run_client(
        "mcp_http_client.py",
        "official_python_sdk_over_streamable_http",
    ) else {
        return;
    };
    assert!(
        stdout.contains("wrong token refused") && stdout.trim_end().ends_with("HTTP OK"),
        "unexpected client output:\n{stdout}"
    );
}

/// Runs `tests/<script>` with the virtualenv's Python: its stdout, or `None` when the test skips.
fn run_client(script: &str, test: &str) -> Option<String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = repo.join(".venv/bin/python");
    if !python.exists() {
        if std::env::var("ROOTBOUND_SKIP_PYTHON").as_deref() == Ok("1")
            || std::env::var_os("CI").is_none()
        {
            eprintln!(
                "SKIPPED {test}: {} is missing (run `{SETUP}`; under CI it is required)",
                python.display()
            );
            return None;
        }
        panic!(
            "{} is missing: run `{SETUP}` at the repository root (or set ROOTBOUND_SKIP_PYTHON=1 to skip this test)",
            python.display()
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let (status, stdout, stderr) = run_logged(
        Command::new(&python)
            .arg(repo.join("tests").join(script))
            .arg(env!("CARGO_BIN_EXE_rootbound"))
            .arg(&work),
        tmp.path(),
        Duration::from_secs(300),
        "the Python client",
    );
    let hint = if stderr.contains("ModuleNotFoundError") {
        format!("\n(the `mcp` package is missing from .venv: run `{SETUP}`)")
    } else {
        String::new()
    };
    assert!(
        status.success(),
        "tests/{script} failed ({status}){hint}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    eprintln!("{stdout}");
    Some(stdout)
}
