//! The dialects' own work keeps the engine's bounds (DESIGN.md guarantees 3 and 9). Gemini CLI's
//! replace, past the exact match, finds its whitespace-tolerant blocks within the deadline and the
//! write limit. mcp-filesystem's search_files bounds its pattern as the engine glob does. edit_file past the engine's exact
//! match (the reference's first occurrence and whitespace-tolerant lines, and an empty `oldText`
//! inserting at the start) keeps the engine edit's bounds: the call's deadline, the write limit
//! before a text is built, and memory. Each case broke before: minutes of work past a one-second
//! deadline, gigabytes from a request of a few megabytes, or a panic.

use crate::support::time::assert_prompt;
use rootbound::config::AgentTools;
use rootbound::{Budget, ErrorCode, Profile, Sandbox, WritePolicy};
use serde_json::{json, Value};
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_rootbound");

/// The mcp-filesystem tools over `root`, read and write, overwrites allowed, with a timeout of
/// `timeout_ms` and reads of up to 1 MiB (the fallback reads the file whole).
fn agent(root: &Path, timeout_ms: u64) -> AgentTools {
    agent_of(root, timeout_ms, Profile::McpFilesystem)
}

/// [`agent`] in the dialect `profile`.
fn agent_of(root: &Path, timeout_ms: u64, profile: Profile) -> AgentTools {
    let sb = Sandbox::builder()
        .root(root)
        .max_read_bytes(1 << 20)
        .timeout_ms(timeout_ms)
        .write(WritePolicy {
            allow_overwrite: true,
            ..WritePolicy::new(root)
        })
        .build()
        .unwrap();
    AgentTools::from_sandbox(sb).with_profile(profile)
}

/// Calls edit_file on `root/name` with `edits`; the error code (None on success) and the time taken.
fn edit(at: &AgentTools, root: &Path, name: &str, edits: Value) -> (Option<ErrorCode>, String) {
    let path = root.join(name).to_string_lossy().into_owned();
    let t = Instant::now();
    let r = at
        .within(&Budget::new())
        .present("edit_file", json!({"path": path, "edits": edits}));
    assert_prompt(t.elapsed(), "edit_file");
    match r {
        Ok(p) => (None, p.structured.to_string()),
        Err(e) => (Some(e.code), e.message),
    }
}

/// The reference's scan compares every window of lines whole: a pattern of 65,000 blank lines
/// and a last line found nowhere, over 130,000 blank lines, was 4e9 comparisons (over a minute,
/// with no look at the deadline). Found line by line in linear time, it is refused at once.
#[test]
fn trimmed_lines_are_sought_in_linear_time() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("f.txt"), "\n".repeat(130_000)).unwrap();
    let at = agent(t.path(), 60_000);
    let old = format!("{}b", "\n".repeat(65_000));
    let (code, msg) = edit(
        &at,
        t.path(),
        "f.txt",
        json!([{"oldText": old, "newText": "c"}]),
    );
    assert_eq!(code, Some(ErrorCode::NotFound), "{msg}");
    // The window is still found where it is, re-indented as the reference does.
    fs::write(
        t.path().join("g.txt"),
        format!("{}  a\n  b\nc\n", "\n".repeat(100_000)),
    )
    .unwrap();
    let (code, msg) = edit(
        &at,
        t.path(),
        "g.txt",
        json!([{"oldText": "a\nb ", "newText": "x\n  y"}]),
    );
    assert_eq!(code, None, "{msg}");
    let got = fs::read_to_string(t.path().join("g.txt")).unwrap();
    assert_eq!(&got[100_000..], "  x\n  y\nc\n");
}

/// An empty `oldText` needs a private-use character absent from the call; each was sought through
/// the whole call, thousands of scans of a large one (10 s for 15 MB, past a 1 s deadline).
#[test]
fn the_start_marker_is_sought_in_one_pass() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("i.txt"), "hello\n").unwrap();
    let at = agent(t.path(), 1_000);
    let every: String = ('\u{E000}'..='\u{F8FF}').collect();
    let edits = json!([
        {"oldText": "hello", "newText": "z".repeat(40 << 20)},
        {"oldText": "", "newText": every},
    ]);
    let (code, msg) = edit(&at, t.path(), "i.txt", edits);
    assert_eq!(code, Some(ErrorCode::InvalidArgument), "{msg}");
    assert_eq!(
        fs::read_to_string(t.path().join("i.txt")).unwrap(),
        "hello\n"
    );
}

/// Edits of an empty file each copied the text built so far, with no look at the deadline:
/// 400,000 insertions took 29 s past a 1 s deadline. Refused at the deadline, nothing written.
#[test]
fn many_insertions_into_an_empty_file_stop_at_the_deadline() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("e.txt"), "").unwrap();
    let at = agent(t.path(), 1_000);
    let edits: Vec<Value> = (0..600_000)
        .map(|_| json!({"oldText": "", "newText": "abcdefghij"}))
        .collect();
    let (code, msg) = edit(&at, t.path(), "e.txt", Value::Array(edits));
    assert_eq!(code, Some(ErrorCode::TooLarge), "{msg}");
    assert_eq!(fs::read(t.path().join("e.txt")).unwrap(), b"");
}

/// `rootbound call --profile mcp-filesystem edit_file` on `root`, the arguments on stdin, its
/// address space capped at `max_mib`: the exit code and stdout.
fn edit_capped(root: &Path, args: &Value, max_mib: u64) -> (i32, String) {
    call_capped(root, ["mcp-filesystem", "edit_file"], args, max_mib)
}

/// `rootbound call --profile PROFILE TOOL` on `root` (read and write), the arguments on stdin, its
/// address space capped at `max_mib`: the exit code and stdout.
fn call_capped(
    root: &Path,
    [profile, tool]: [&str; 2],
    args: &Value,
    max_mib: u64,
) -> (i32, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(["call", "--profile", profile, tool, "--root"])
        .arg(root)
        .arg("--write-root")
        .arg(root)
        .args(["--allow-overwrite", "--max-read-bytes", "1048576"])
        .env_remove("ROOTBOUND_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let bytes = max_mib << 20;
    crate::support::child::limit(&mut cmd, rustix::process::Resource::As, bytes);
    let mut child = cmd.spawn().unwrap();
    let body = args.to_string();
    let mut stdin = child.stdin.take().unwrap();
    let feed = std::thread::spawn(move || {
        let _ = stdin.write_all(body.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    feed.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The re-indented lines repeat the first matched line's indentation: a line indented by 1 MB
/// and 30,000 indented lines to replace asked for 30 GB (the process aborted). And the text grown
/// by earlier edits to 20 MB of lines was split into a string per line (900 MB). Both are refused
/// at the write limit before the text is built, under a 768 MiB address-space cap.
#[test]
fn the_fallback_cannot_outgrow_the_write_limit() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::write(root.join("h.txt"), format!("x0\n{}", "x\n".repeat(30_000))).unwrap();
    let path = root.join("h.txt").to_string_lossy().into_owned();
    let amplified = json!({"path": path, "edits": [
        {"oldText": "x0", "newText": format!("{}x0", " ".repeat(1 << 20))},
        {"oldText": format!("x0\n{}", "  x\n".repeat(30_000)), "newText": format!("y\n{}", "   y\n".repeat(30_000))},
    ]});
    let (code, out) = edit_capped(root, &amplified, 768);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("TOO_LARGE"), "{out}");
    fs::write(root.join("g.txt"), "x\n").unwrap();
    let path = root.join("g.txt").to_string_lossy().into_owned();
    let grown = json!({"path": path, "edits": [
        {"oldText": "  x", "newText": "x"},
        {"oldText": "x", "newText": format!("{}x", "\n".repeat(20 << 20))},
        {"oldText": "  x", "newText": "y"},
    ]});
    let (code, out) = edit_capped(root, &grown, 768);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("TOO_LARGE"), "{out}");
    assert_eq!(fs::read_to_string(root.join("g.txt")).unwrap(), "x\n");
}

/// search_files with a pattern without `/` compiled it with globset's `compile_matcher`, which
/// panics on a regex over its size limit: a 2 MB pattern aborted the call (the CLI's process).
/// The engine glob's bounds apply, and a pattern they let pass is compiled without a panic.
#[test]
fn search_files_bounds_its_pattern() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.txt"), "x\n").unwrap();
    let at = agent(t.path(), 10_000);
    let root = t.path().to_string_lossy().into_owned();
    let call = |pattern: String| {
        at.within(&Budget::new())
            .present("search_files", json!({"path": root, "pattern": pattern}))
    };
    let e = call("a".repeat(2 << 20)).expect_err("refused");
    assert_eq!(e.code, ErrorCode::InvalidArgument, "{}", e.message);
    let found = call("a.*".into()).unwrap();
    assert!(
        found.structured.to_string().contains("a.txt"),
        "{}",
        found.structured
    );
}

/// Gemini CLI's replace compared every window of lines whole when the exact text was not found:
/// 65,000 blank lines and a last line found nowhere, over 130,000 blank lines, was minutes of
/// work past a one-second deadline. Found by KMP over lines, it is refused at once.
#[test]
fn gemini_replace_seeks_blocks_in_linear_time() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("b.txt");
    fs::write(&f, "\n".repeat(130_000)).unwrap();
    let at = agent_of(t.path(), 1_000, Profile::GeminiCli);
    let args = json!({"file_path": f, "old_string": format!("{}b", "\n".repeat(65_000)),
        "new_string": "c", "instruction": "i"});
    let started = Instant::now();
    let r = at.within(&Budget::new()).present("replace", args);
    assert_prompt(started.elapsed(), "replace");
    assert_eq!(r.expect_err("refused").code, ErrorCode::NotFound);
}

/// Each block Gemini's flexible match replaces repeats the new text: a line matched 30,000 times
/// by a 1 MB new text asked for 30 GB (the process aborted). Refused at the write limit before the
/// text is built, under a 768 MiB address-space cap; nothing written.
#[test]
fn gemini_replace_cannot_outgrow_the_write_limit() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("x.txt");
    fs::write(&f, "x\n".repeat(30_000)).unwrap();
    let args = json!({"file_path": f, "old_string": "  x", "new_string": "y".repeat(1 << 20),
        "allow_multiple": true, "instruction": "i"});
    let (code, out) = call_capped(t.path(), ["gemini-cli", "replace"], &args, 768);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("TOO_LARGE"), "{out}");
    assert_eq!(fs::read_to_string(&f).unwrap(), "x\n".repeat(30_000));
}
