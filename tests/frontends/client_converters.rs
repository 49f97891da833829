//! Every client's schema converter accepts every tool of every profile, with no
//! model and no network: google-genai's MCP conversion, langchain-mcp-adapters with langchain-core's
//! OpenAI conversion (strict and not) and langchain-google-genai's (no warning), openai-agents
//! (`convert_schemas_to_strict` true and false), pydantic-ai's OpenAI (strict) and Google
//! transformers; and a call shaped by openai-agents' strict schema does what the minimal call does.
//! The script is `tests/client_converters.py`, run with the virtualenv at `.venv`.

use crate::support::child::run_logged;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const SETUP: &str = "python3 -m venv .venv && .venv/bin/pip install mcp google-genai \
                     langchain-google-genai langchain-mcp-adapters openai-agents pydantic-ai-slim";

/// The oldest google-genai release the converters must accept (the one whose MCP conversion could
/// not read `additionalProperties: false`), in a virtualenv of its own.
const GENAI_PINNED: &str = "3.6.1";
const SETUP_PINNED: &str = "python3 -m venv .venv-genai361 && .venv-genai361/bin/pip install mcp \
                            google-genai==3.6.1";

/// Runs tests/client_converters.py with `python` and `extra` arguments; its stdout, once it has
/// printed "ALL OK".
fn run_script(python: &Path, extra: &[&str], setup: &str) -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let (status, stdout, stderr) = run_logged(
        Command::new(python)
            .arg(repo.join("tests/client_converters.py"))
            .arg(env!("CARGO_BIN_EXE_rootbound"))
            .arg(&work)
            .args(extra),
        tmp.path(),
        Duration::from_secs(300),
        "tests/client_converters.py",
    );
    let hint = if stderr.contains("ModuleNotFoundError") {
        format!("\n(a client package is missing: run `{setup}`)")
    } else {
        String::new()
    };
    assert!(
        status.success() && stdout.trim_end().ends_with("ALL OK"),
        "tests/client_converters.py {extra:?} failed ({status}){hint}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    stdout
}

/// The virtualenv's python, or None (skip) outside CI when it is missing.
fn venv_python(dir: &str, setup: &str) -> Option<std::path::PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(dir)
        .join("bin/python");
    if python.exists() {
        return Some(python);
    }
    if std::env::var("ROOTBOUND_SKIP_PYTHON").as_deref() == Ok("1")
        || std::env::var_os("CI").is_none()
    {
        eprintln!("SKIPPED: {} is missing (run `{setup}`)", python.display());
        return None;
    }
    panic!("{} is missing: run `{setup}`", python.display());
}

const PROFILES: [&str; 5] = [
    "rootbound",
    "claude-code",
    "gemini-cli",
    "mcp-filesystem",
    "codex",
];

#[test]
fn every_client_converter_accepts_every_profile() {
    let Some(python) = venv_python(".venv", SETUP) else {
        return;
    };
    let stdout = run_script(&python, &[], SETUP);
    for client in ["google-genai", "openai-agents", "pydantic-ai", "langchain"] {
        for profile in PROFILES {
            assert!(
                stdout.contains(&format!("{client} {profile}: ")),
                "{client} {profile} not checked:\n{stdout}"
            );
        }
    }
    eprintln!("{stdout}");
}

/// google-genai 3.6.1 (the release of googleapis/python-genai #2393 and #2476) converts every
/// profile's tools too, not only the current release in `.venv`.
#[test]
fn the_pinned_google_genai_release_accepts_every_profile() {
    let Some(python) = venv_python(".venv-genai361", SETUP_PINNED) else {
        return;
    };
    let stdout = run_script(&python, &["--only", "google-genai"], SETUP_PINNED);
    assert!(
        stdout.contains(&format!("google-genai version {GENAI_PINNED}\n")),
        "not google-genai {GENAI_PINNED}:\n{stdout}"
    );
    for profile in PROFILES {
        assert!(
            stdout.contains(&format!("google-genai {profile}: ")),
            "google-genai {profile} not checked:\n{stdout}"
        );
    }
}
