//! The CLI contract of `rootbound call` and `rootbound read`: exit 0 with the result
//! JSON on stdout; exit 1 with the error JSON on stdout for a tool error; exit 2 with a message on stderr
//! for a usage or configuration error. Arguments come from the positional JSON or, when it is absent,
//! from stdin; flags may come before or after the positional arguments.

use crate::support;

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use support::read::*;

const BIN: &str = env!("CARGO_BIN_EXE_rootbound");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(
            lines.len(),
            1,
            "one JSON document on stdout: {:?}",
            self.stdout
        );
        serde_json::from_str(lines[0])
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?}", self.stdout))
    }
}

fn run(args: &[&str], stdin: Option<&str>) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("ROOTBOUND_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("spawn rootbound");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn world() -> World {
    let w = World::new();
    w.file("a.txt", "hello\n")
        .file(".env", "SECRET=1\n")
        .file("sub/b.txt", "bee\n")
        .link("out", "../outside/secret.txt")
        .link("loop", "loop");
    w
}

fn root(w: &World) -> String {
    w.root.display().to_string()
}

fn assert_ok(r: &Run, what: &str) -> Value {
    assert_eq!(
        r.code, 0,
        "{what}: exit code; stdout {:?} stderr {:?}",
        r.stdout, r.stderr
    );
    let v = r.json();
    assert!(v.get("error").is_none(), "{what}: {v}");
    v
}

fn assert_tool_error(r: &Run, code: &str, w: &World, request: &str) {
    assert_eq!(
        r.code, 1,
        "tool error exits 1: {:?} {:?}",
        r.stdout, r.stderr
    );
    let v = r.json();
    assert_eq!(v["error"]["code"], code, "{v}");
    assert!(v["error"]["message"].is_string());
    w.assert_clean_message(v["error"]["message"].as_str().unwrap(), request, code);
    w.assert_no_canary(&r.stdout, code);
    w.assert_no_canary(&r.stderr, code);
}

fn assert_usage_error(r: &Run, what: &str) {
    assert_eq!(
        r.code, 2,
        "{what}: usage error exits 2: {:?} {:?}",
        r.stdout, r.stderr
    );
    assert!(
        r.stdout.trim().is_empty(),
        "{what}: nothing on stdout: {:?}",
        r.stdout
    );
    assert!(!r.stderr.trim().is_empty(), "{what}: a message on stderr");
}

#[test]
fn call_result_on_stdout_exit_0_with_flags_anywhere() {
    let w = world();
    let r = root(&w);
    let args = r#"{"path": "a.txt"}"#;
    let spellings: Vec<Vec<&str>> = vec![
        vec!["call", "read_file", args, "--root", &r],
        vec!["call", "--root", &r, "read_file", args],
        vec!["call", "read_file", "--root", &r, args],
        vec!["call", "read_file", args, "--deny", ".env", "--root", &r],
        vec!["call", "--deny", ".env", "read_file", "--root", &r, args],
    ];
    let root_eq = format!("--root={r}");
    let mut all = spellings;
    all.push(vec!["call", "read_file", args, &root_eq]);
    for argv in &all {
        let v = assert_ok(&run(argv, None), &format!("{argv:?}"));
        assert_eq!(v["content"], "hello\n", "{argv:?}");
        assert_eq!(v["truncated"], false);
        assert_eq!(v["path"], w.path("a.txt").display().to_string());
    }
}

#[test]
fn call_reads_arguments_from_stdin_when_the_positional_is_absent() {
    let w = world();
    let r = root(&w);
    let v = assert_ok(
        &run(
            &["call", "read_file", "--root", &r],
            Some(r#"{"path": "sub/b.txt"}"#),
        ),
        "stdin",
    );
    assert_eq!(v["content"], "bee\n");
    let v = assert_ok(
        &run(
            &["call", "--root", &r, "read_file"],
            Some("  {\"path\": \"a.txt\", \"offset\": 1, \"limit\": 3}\n"),
        ),
        "stdin with flags first",
    );
    assert_eq!(v["content"], "ell");
    assert_eq!(v["next_offset"], 4);
    assert_eq!(v["truncated"], true);
    // Empty stdin is an empty argument object: read_file then lacks its path (a tool error).
    let res = run(&["call", "read_file", "--root", &r], Some(""));
    assert_tool_error(&res, "INVALID_ARGUMENT", &w, "");
    // A tool error from stdin arguments.
    let res = run(
        &["call", "read_file", "--root", &r],
        Some(r#"{"path": "../outside/secret.txt"}"#),
    );
    assert_tool_error(&res, "OUT_OF_SANDBOX", &w, "../outside/secret.txt");
}

#[test]
fn tool_errors_are_json_on_stdout_with_exit_1() {
    let w = world();
    let r = root(&w);
    let secret = w.outside.join("secret.txt").display().to_string();
    let abs_req = format!(r#"{{"path": "{secret}"}}"#);
    let cases: Vec<(&str, String, &str, String)> = vec![
        (
            "read_file",
            r#"{"path": "../outside/secret.txt"}"#.into(),
            "OUT_OF_SANDBOX",
            "../outside/secret.txt".into(),
        ),
        ("read_file", abs_req, "OUT_OF_SANDBOX", secret.clone()),
        (
            "read_file",
            r#"{"path": "out"}"#.into(),
            "OUT_OF_SANDBOX",
            "out".into(),
        ),
        (
            "read_file",
            r#"{"path": "/etc/passwd"}"#.into(),
            "OUT_OF_SANDBOX",
            "/etc/passwd".into(),
        ),
        (
            "read_file",
            r#"{"path": "nope.txt"}"#.into(),
            "NOT_FOUND",
            "nope.txt".into(),
        ),
        (
            "read_file",
            r#"{"path": "sub"}"#.into(),
            "NOT_A_FILE",
            "sub".into(),
        ),
        (
            "read_file",
            r#"{"path": "./sub/../.env"}"#.into(),
            "DENIED",
            "./sub/../.env".into(),
        ),
        (
            "read_file",
            r#"{"path": "loop"}"#.into(),
            "SYMLINK_LOOP",
            "loop".into(),
        ),
        (
            "read_file",
            r#"{"path": "a.txt", "offset": -1}"#.into(),
            "INVALID_ARGUMENT",
            "a.txt".into(),
        ),
        (
            "read_file",
            r#"{"path": "a.txt", "bogus": true}"#.into(),
            "INVALID_ARGUMENT",
            "a.txt".into(),
        ),
        (
            "read_file",
            r#"{"path": "a\u0000b"}"#.into(),
            "INVALID_ARGUMENT",
            "a".into(),
        ),
        (
            "list_dir",
            r#"{"path": ".."}"#.into(),
            "OUT_OF_SANDBOX",
            "..".into(),
        ),
        (
            "list_dir",
            r#"{"path": "a.txt"}"#.into(),
            "NOT_A_FILE",
            "a.txt".into(),
        ),
        (
            "stat",
            r#"{"path": "out"}"#.into(),
            "OUT_OF_SANDBOX",
            "out".into(),
        ),
    ];
    for (tool, args, code, request) in &cases {
        let res = run(&["call", tool, args, "--root", &r, "--deny", ".env"], None);
        assert_tool_error(&res, code, &w, request);
    }
    // An unknown tool: a tool error (INVALID_ARGUMENT JSON, exit 1) or a usage error (exit 2).
    let res = run(&["call", "no_such_tool", "{}", "--root", &r], None);
    match res.code {
        1 => assert_eq!(res.json()["error"]["code"], "INVALID_ARGUMENT"),
        _ => assert_usage_error(&res, "unknown tool"),
    }
}

#[test]
fn list_dir_and_stat_through_the_cli() {
    let w = world();
    let r = root(&w);
    let v = assert_ok(
        &run(
            &[
                "call",
                "list_dir",
                r#"{"path": "."}"#,
                "--root",
                &r,
                "--deny",
                ".env",
            ],
            None,
        ),
        "list_dir",
    );
    let names: Vec<&str> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.txt", "loop", "out", "sub"]);
    let v = assert_ok(
        &run(
            &["call", "stat", r#"{"path": "sub/b.txt"}"#, "--root", &r],
            None,
        ),
        "stat",
    );
    assert_eq!(v["kind"], "file");
    assert_eq!(v["size"], 4);
    let v = assert_ok(
        &run(
            &[
                "call",
                "read_file",
                r#"{"path": "a.txt"}"#,
                "--root",
                &r,
                "--max-read-bytes",
                "2",
            ],
            None,
        ),
        "max-read-bytes",
    );
    assert_eq!(v["content"], "he");
    assert_eq!(v["truncated"], true);
}

#[test]
fn usage_errors_go_to_stderr_with_exit_2() {
    let w = world();
    let r = root(&w);
    let missing = w.base.join("no-such-dir").display().to_string();
    let args = r#"{"path": "a.txt"}"#;
    for (argv, what) in [
        (vec!["call", "read_file", args], "no --root"),
        (
            vec!["call", "read_file", args, "--root", missing.as_str()],
            "a root that does not exist",
        ),
        (
            vec!["call", "read_file", "{not json", "--root", &r],
            "bad JSON",
        ),
        (
            vec!["call", "read_file", "[1, 2]", "--root", &r],
            "JSON that is not an object",
        ),
        (
            vec!["call", "read_file", "\"a.txt\"", "--root", &r],
            "a JSON string",
        ),
        (
            vec!["call", "read_file", args, "--root", &r, "--no-such-flag"],
            "unknown flag",
        ),
        (
            vec![
                "call",
                "read_file",
                args,
                "--root",
                &r,
                "--max-read-bytes",
                "lots",
            ],
            "bad number",
        ),
        (
            vec!["call", "read_file", args, "extra", "--root", &r],
            "extra positional",
        ),
        (vec!["call"], "no tool"),
        (vec!["no-such-subcommand"], "unknown subcommand"),
        (vec![], "no subcommand"),
    ] {
        let res = run(&argv, None);
        assert_usage_error(&res, what);
        w.assert_no_canary(&res.stderr, what);
    }
    let res = run(&["call", "read_file", "--root", &r], Some("{oops"));
    assert_usage_error(&res, "bad JSON on stdin");
}

#[test]
fn read_prints_content_for_people() {
    let w = world();
    let r = root(&w);
    let res = run(&["read", "a.txt", "--root", &r], None);
    assert_eq!(res.code, 0, "{:?}", res.stderr);
    assert_eq!(res.stdout, "hello\n");
    let res = run(&["read", "--root", &r, "a.txt", "--limit", "2"], None);
    assert_eq!(res.code, 0);
    assert!(
        res.stdout.starts_with("he\n[truncated: "),
        "{:?}",
        res.stdout
    );
    assert!(res.stdout.contains("next_offset=2"), "{:?}", res.stdout);
    let res = run(&["read", "../outside/secret.txt", "--root", &r], None);
    assert_eq!(res.code, 1);
    assert!(res.stdout.is_empty());
    assert!(res.stderr.contains("OUT_OF_SANDBOX"), "{:?}", res.stderr);
    w.assert_clean_message(&res.stderr, "../outside/secret.txt", "read");
}

/// `call --help` names every tool and every flag that enables or bounds a write tool.
#[test]
fn call_help_lists_every_tool_and_write_flag() {
    let help = run(&["call", "--help"], None).stdout;
    for t in rootbound::ToolName::ALL {
        assert!(
            help.contains(t.as_str()),
            "{} in call --help:\n{help}",
            t.as_str()
        );
    }
    for flag in [
        "--write-root",
        "--allow-overwrite",
        "--allow-delete",
        "--max-write-bytes",
    ] {
        assert!(help.contains(flag), "{flag} in call --help:\n{help}");
    }
}

/// The limit flags come from the one table of limit fields: every field has its `--flag`, each
/// flag sets its own field (seen in the tool descriptions of `schema`, and in a call), and none is
/// accepted beside --config.
#[test]
fn every_limit_field_has_a_flag_that_sets_it() {
    let w = world();
    let r = root(&w);
    let help = run(&["call", "--help"], None);
    for f in rootbound::config::LIMITS {
        let flag = format!("--{}", f.name.replace('_', "-"));
        assert!(help.stdout.contains(&flag), "{flag} in --help");
        let conflict = run(
            &["call", "stat", "{}", "--config", "x.toml", &flag, "1"],
            None,
        );
        assert_eq!(
            conflict.code, 2,
            "{flag} with --config: {}",
            conflict.stderr
        );
        assert!(
            conflict.stderr.contains("cannot be used with"),
            "{}",
            conflict.stderr
        );
    }
    // The descriptions name max_read_bytes, max_results and max_list_entries.
    let defs = run(
        &[
            "schema",
            "--root",
            &r,
            "--max-read-bytes",
            "1234",
            "--max-results",
            "77",
            "--max-list-entries",
            "5",
        ],
        None,
    );
    assert_eq!(defs.code, 0, "{}", defs.stderr);
    assert!(defs.stdout.contains("at most 1234 bytes a call"));
    assert!(defs.stdout.contains("at most 77)"));
    assert!(defs.stdout.contains("(at most 5)"));
    // A limit a call hits: one line cut at 2 characters.
    let v = assert_ok(
        &run(
            &[
                "call",
                "read_file",
                r#"{"path": "a.txt", "start_line": 1}"#,
                "--root",
                &r,
                "--max-line-chars",
                "2",
            ],
            None,
        ),
        "max-line-chars",
    );
    assert!(v["content"].as_str().unwrap().starts_with("he"), "{v}");
    assert_ne!(v["content"], "hello\n", "{v}");
    // -j is threads' short form.
    assert_ok(
        &run(
            &[
                "call",
                "stat",
                r#"{"path": "a.txt"}"#,
                "--root",
                &r,
                "-j",
                "1",
            ],
            None,
        ),
        "-j",
    );
}
