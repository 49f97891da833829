//! Issue 25, part 2: every client's schema converter accepts every tool of every profile, with no
//! model and no network: google-genai's MCP conversion, langchain-mcp-adapters with langchain-core's
//! OpenAI conversion (strict and not) and langchain-google-genai's (no warning), openai-agents
//! (`convert_schemas_to_strict` true and false), pydantic-ai's OpenAI (strict) and Google
//! transformers; and a call shaped by openai-agents' strict schema does what the minimal call does.
//! The script is `tests/client_converters.py`, run with the virtualenv at `.venv`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SETUP: &str = "python3 -m venv .venv && .venv/bin/pip install mcp google-genai \
                     langchain-google-genai langchain-mcp-adapters openai-agents pydantic-ai-slim";

#[test]
fn every_client_converter_accepts_every_profile() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = repo.join(".venv/bin/python");
    if !python.exists() {
        if std::env::var("ROOTBOUND_SKIP_PYTHON").as_deref() == Ok("1")
            || std::env::var_os("CI").is_none()
        {
            eprintln!("SKIPPED: {} is missing (run `{SETUP}`)", python.display());
            return;
        }
        panic!("{} is missing: run `{SETUP}`", python.display());
    }
    let tmp = tempfile::tempdir().unwrap();
    let out_path = tmp.path().join("client.out");
    let err_path = tmp.path().join("client.err");
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let mut child = Command::new(&python)
        .arg(repo.join("tests/client_converters.py"))
        .arg(env!("CARGO_BIN_EXE_rootbound"))
        .arg(&work)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("run .venv/bin/python");
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tests/client_converters.py did not finish in 300 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let hint = if stderr.contains("ModuleNotFoundError") {
        format!("\n(a client package is missing from .venv: run `{SETUP}`)")
    } else {
        String::new()
    };
    assert!(
        status.success() && stdout.trim_end().ends_with("ALL OK"),
        "tests/client_converters.py failed ({status}){hint}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    for client in ["google-genai", "openai-agents", "pydantic-ai", "langchain"] {
        for profile in ["rootbound", "claude-code", "gemini-cli", "mcp-filesystem"] {
            assert!(
                stdout.contains(&format!("{client} {profile}: ")),
                "{client} {profile} not checked:\n{stdout}"
            );
        }
    }
    eprintln!("{stdout}");
}
