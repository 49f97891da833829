//! Dialects (`--profile`), MCP Roots narrowing, the shared renderer, and the CLI for people.

use rootbound::config::{AgentTools, Config, Format};
use rootbound::{ErrorCode, Profile, Sandbox, SchemaFormat, WritePolicy};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Tree {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    out: PathBuf,
}

fn tree() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let root = base.join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(base.join("outside")).unwrap();
    std::fs::create_dir_all(base.join("out")).unwrap();
    let lines: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    std::fs::write(root.join("lines.txt"), lines).unwrap();
    std::fs::write(root.join("sub/a.rs"), "fn Needle() {}\nfn needle() {}\n").unwrap();
    std::fs::write(root.join("sub/secret.txt"), "SECRET-IN-ROOT\n").unwrap();
    std::fs::write(base.join("outside/x.txt"), "SECRET-OUTSIDE\n").unwrap();
    std::os::unix::fs::symlink(base.join("outside"), root.join("link")).unwrap();
    Tree {
        root,
        outside: base.join("outside"),
        out: base.join("out"),
        _tmp: tmp,
    }
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn tools(t: &Tree, profile: Profile) -> AgentTools {
    let sb = Sandbox::builder().root(&t.root).build().unwrap();
    AgentTools::from_sandbox(sb).with_profile(profile)
}

fn text(at: &AgentTools, tool: &str, args: Value) -> String {
    match at.present(tool, args.clone()) {
        Ok(p) => {
            assert_eq!(p.structured["content"].as_str(), Some(p.text().as_str()));
            p.text()
        }
        Err(e) => panic!("{tool} {args}: {e:?}"),
    }
}

fn code(at: &AgentTools, tool: &str, args: Value) -> ErrorCode {
    at.present(tool, args).expect_err("an error").code
}

#[test]
fn claude_code_read_counts_lines_and_numbers_them() {
    let t = tree();
    let at = tools(&t, Profile::ClaudeCode);
    let f = s(&t.root.join("lines.txt"));
    // Offset 10, limit 5 means lines 10-14, not bytes.
    let out = text(
        &at,
        "Read",
        json!({"file_path": f, "offset": 10, "limit": 5}),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "    10\tline 10");
    assert_eq!(lines[4], "    14\tline 14");
    assert!(lines[5].contains("offset=15"), "{out}");
    let all = text(&at, "Read", json!({"file_path": f}));
    assert_eq!(all.lines().count(), 30);
    assert!(all.ends_with("    30\tline 30\n"));
    // Strings for numbers, as models send them.
    assert!(text(&at, "Read", json!({"file_path": f, "offset": "30"})).starts_with("    30\t"));
}

#[test]
fn dialects_go_through_the_same_gate() {
    let t = tree();
    let outside = s(&t.outside.join("x.txt"));
    let via_link = s(&t.root.join("link/x.txt"));
    let dotdot = s(&t.root.join("../outside/x.txt"));
    for (profile, tool, key) in [
        (Profile::ClaudeCode, "Read", "file_path"),
        (Profile::GeminiCli, "read_file", "file_path"),
        (Profile::McpFilesystem, "read_text_file", "path"),
        (Profile::McpFilesystem, "get_file_info", "path"),
    ] {
        let at = tools(&t, profile);
        for p in [&outside, &via_link, &dotdot] {
            let e = at.present(tool, json!({ key: p })).unwrap_err();
            assert_eq!(e.code, ErrorCode::OutOfSandbox, "{profile} {tool} {p}");
            assert!(!e.message.contains("SECRET"));
        }
    }
    // Lists and searches never name what is outside either.
    let at = tools(&t, Profile::McpFilesystem);
    let tree = text(&at, "directory_tree", json!({"path": s(&t.root)}));
    assert!(!tree.contains("x.txt"), "{tree}");
    let found = text(
        &at,
        "search_files",
        json!({"path": s(&t.root), "pattern": "**/*.txt"}),
    );
    assert!(!found.contains("x.txt"), "{found}");
}

#[test]
fn deny_rules_hold_in_every_dialect() {
    let t = tree();
    let sb = Sandbox::builder()
        .root(&t.root)
        .deny("secret.txt")
        .build()
        .unwrap();
    let secret = s(&t.root.join("sub/secret.txt"));
    for (profile, tool, key) in [
        (Profile::ClaudeCode, "Read", "file_path"),
        (Profile::GeminiCli, "read_file", "file_path"),
        (Profile::McpFilesystem, "read_text_file", "path"),
    ] {
        let at = AgentTools::from_sandbox(sb.clone()).with_profile(profile);
        assert_eq!(code(&at, tool, json!({ key: secret })), ErrorCode::Denied);
    }
    let at = AgentTools::from_sandbox(sb).with_profile(Profile::ClaudeCode);
    let g = text(
        &at,
        "Grep",
        json!({"pattern": "SECRET", "output_mode": "content"}),
    );
    assert_eq!(g, "No matches found");
}

#[test]
fn claude_code_grep_flags_and_paging() {
    let t = tree();
    let at = tools(&t, Profile::ClaudeCode);
    let files = text(&at, "Grep", json!({"pattern": "needle"}));
    assert_eq!(
        files,
        format!("Found 1 files\n{}", s(&t.root.join("sub/a.rs")))
    );
    let ci = text(
        &at,
        "Grep",
        json!({"pattern": "needle", "-i": true, "output_mode": "count"}),
    );
    assert!(ci.ends_with("a.rs:2"), "{ci}");
    let cs = text(
        &at,
        "Grep",
        json!({"pattern": "needle", "output_mode": "count"}),
    );
    assert!(cs.ends_with("a.rs:1"), "{cs}");
    let none = text(&at, "Grep", json!({"pattern": "needle", "glob": "*.txt"}));
    assert_eq!(none, "No files found");
    let page1 = text(
        &at,
        "Grep",
        json!({"pattern": "line", "output_mode": "content", "head_limit": 20}),
    );
    assert!(
        page1.ends_with("[More results: call Grep again with offset=20]"),
        "{page1}"
    );
    let page2 = text(
        &at,
        "Grep",
        json!({"pattern": "line", "output_mode": "content", "head_limit": "20", "offset": "20"}),
    );
    assert_eq!(page2.lines().count(), 10, "{page2}");
    assert!(
        page2.lines().next().unwrap().ends_with(":21:line 21"),
        "{page2}"
    );
    // `-n: false` drops the numbers as rg does without -n: `path:text`, `path-text`, `--`.
    let lines = s(&t.root.join("lines.txt"));
    let plain = text(
        &at,
        "Grep",
        json!({"pattern": "^line (3|9)$", "output_mode": "content", "-n": false, "-A": 1}),
    );
    assert_eq!(
        plain,
        format!("{lines}:line 3\n{lines}-line 4\n--\n{lines}:line 9\n{lines}-line 10")
    );
    let numbered = text(
        &at,
        "Grep",
        json!({"pattern": "^line 3$", "output_mode": "content"}),
    );
    assert_eq!(numbered, format!("{lines}:3:line 3"));
    assert_eq!(
        code(&at, "Grep", json!({"pattern": "x", "-z": true})),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        code(&at, "Grep", json!({"pattern": "x", "output_mode": "lines"})),
        ErrorCode::InvalidArgument
    );
}

#[test]
fn gemini_cli_surface() {
    let t = tree();
    let at = tools(&t, Profile::GeminiCli);
    let f = s(&t.root.join("lines.txt"));
    let part = text(
        &at,
        "read_file",
        json!({"file_path": f, "start_line": 3, "end_line": 4}),
    );
    assert!(
        part.ends_with("--- FILE CONTENT (truncated) ---\nline 3\nline 4"),
        "{part}"
    );
    assert!(part.contains("use start_line: 5"), "{part}");
    assert_eq!(
        code(
            &at,
            "read_file",
            json!({"file_path": f, "start_line": 4, "end_line": 3})
        ),
        ErrorCode::InvalidArgument
    );
    // case_sensitive defaults to false, as in Gemini CLI.
    let g = text(&at, "grep_search", json!({"pattern": "NEEDLE"}));
    assert!(
        g.starts_with("Found 2 matches for pattern \"NEEDLE\""),
        "{g}"
    );
    let g = text(
        &at,
        "search_file_content",
        json!({"pattern": "Needle", "case_sensitive": true}),
    );
    assert!(g.starts_with("Found 1 match "), "{g}");
    // max_matches_per_file caps each file (rg -m); total_max_matches the whole answer.
    let g = text(
        &at,
        "grep_search",
        json!({"pattern": "line|needle", "max_matches_per_file": 1, "context": 0}),
    );
    assert!(g.starts_with("Found 2 matches"), "{g}");
    // `context: 0` counts as unset (a strict client's filler), so auto-context shows line 2 as
    // context (`L2-`), never as a match (`L2:`).
    assert!(
        g.contains("L1: line 1\n") && g.contains("L2- line 2") && !g.contains("L2: "),
        "{g}"
    );
    // exclude_pattern (a regex, case as the search): lines that match it are left out and do not
    // count toward total_max_matches, so the answer is filled from later matches.
    let g = text(
        &at,
        "grep_search",
        json!({"pattern": "^line [0-9]$", "exclude_pattern": "LINE [1-3]$", "total_max_matches": 2}),
    );
    assert!(g.starts_with("Found 2 matches"), "{g}");
    assert!(
        g.contains("File: lines.txt\nL4: line 4\nL5: line 5\n"),
        "{g}"
    );
    assert!(!g.contains("line 1") && !g.contains("line 6"), "{g}");
    assert!(g.contains("results limited"), "{g}");
    let g = text(
        &at,
        "grep_search",
        json!({"pattern": "needle", "exclude_pattern": "fn", "names_only": true}),
    );
    assert!(g.starts_with("No matches found"), "{g}");
    let g = text(
        &at,
        "grep_search",
        json!({"pattern": "needle", "exclude_pattern": "fn", "case_sensitive": true}),
    );
    assert!(g.starts_with("No matches found"), "{g}");
    assert_eq!(
        code(
            &at,
            "grep_search",
            json!({"pattern": "x", "exclude_pattern": "("})
        ),
        ErrorCode::InvalidArgument
    );
    let l = text(
        &at,
        "list_directory",
        json!({"dir_path": s(&t.root), "ignore": ["*.txt"]}),
    );
    // The link leads out of bounds: the engine cannot open it, and it is left out, as Gemini CLI
    // leaves out an entry its stat fails on.
    assert_eq!(
        l,
        format!("Directory listing for {}:\n[DIR] sub", s(&t.root))
    );
    let many = text(
        &at,
        "read_many_files",
        json!({"include": ["sub/*"], "exclude": ["secret.txt"]}),
    );
    assert!(
        many.contains("fn needle") && !many.contains("SECRET"),
        "{many}"
    );
    assert!(many.ends_with("--- End of content ---"), "{many}");
    let names: Vec<_> = at.profile_tools().iter().map(|t| t.name).collect();
    assert!(
        !names.contains(&"write_file"),
        "no write root, no write tools"
    );
}

#[test]
fn mcp_filesystem_surface_and_policy() {
    let t = tree();
    let mut w = WritePolicy::new(&t.out);
    w.allow_overwrite = false;
    let sb = Sandbox::builder()
        .root(&t.root)
        .root(&t.out)
        .write(w)
        .build()
        .unwrap();
    let at = AgentTools::from_sandbox(sb).with_profile(Profile::McpFilesystem);
    let f = s(&t.out.join("n.txt"));
    assert_eq!(
        text(&at, "write_file", json!({"path": f, "content": "a\n"})),
        format!("Successfully wrote to {f}")
    );
    // The reference overwrites silently; here the operator's policy decides.
    assert_eq!(
        code(&at, "write_file", json!({"path": f, "content": "b\n"})),
        ErrorCode::Denied
    );
    let lf = s(&t.root.join("lines.txt"));
    assert_eq!(
        text(&at, "read_text_file", json!({"path": lf, "head": 2})),
        "line 1\nline 2"
    );
    // As the reference's tailFile: the final newline counts as a line.
    assert_eq!(
        text(&at, "read_file", json!({"path": lf, "tail": "2"})),
        "line 30\n"
    );
    assert_eq!(text(&at, "read_file", json!({"path": lf, "tail": "1"})), "");
    let many = text(
        &at,
        "read_multiple_files",
        json!({"paths": [lf, s(&t.outside.join("x.txt"))]}),
    );
    assert!(
        many.contains("\n---\n") && many.contains(": Error - ") && !many.contains("SECRET"),
        "{many}"
    );
    let dirs = text(&at, "list_allowed_directories", json!({}));
    assert!(
        dirs.starts_with("Allowed directories:\n") && dirs.contains(&s(&t.root)),
        "{dirs}"
    );
    let info = text(&at, "get_file_info", json!({"path": lf}));
    assert!(
        info.starts_with("size: 231\n") && info.contains("isFile: true"),
        "{info}"
    );
    let tree_text = text(
        &at,
        "directory_tree",
        json!({"path": s(&t.root.join("sub"))}),
    );
    let v: Value = serde_json::from_str(&tree_text).unwrap();
    assert_eq!(v[0]["name"], "a.rs");
    assert_eq!(v[0]["type"], "file");
    // Sent as the Inspector sends it: booleans as strings (the edit needs overwriting allowed).
    let mut w = WritePolicy::new(&t.out);
    w.allow_overwrite = true;
    let sb = Sandbox::builder().root(&t.out).write(w).build().unwrap();
    let at = AgentTools::from_sandbox(sb).with_profile(Profile::McpFilesystem);
    let dry = text(
        &at,
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "a", "newText": "z"}], "dryRun": "true"}),
    );
    assert!(dry.starts_with("```diff") && dry.contains("+z"), "{dry}");
    assert_eq!(std::fs::read_to_string(t.out.join("n.txt")).unwrap(), "a\n");
}

#[test]
fn client_roots_narrow_and_never_widen() {
    let t = tree();
    let sb = Sandbox::builder()
        .root(&t.root)
        .deny("/sub/secret.txt")
        .write(WritePolicy::new(&t.out))
        .build()
        .unwrap();
    let op = AgentTools::from_sandbox(sb).with_profile(Profile::McpFilesystem);
    let served = |at: &AgentTools| -> Vec<PathBuf> {
        at.sandboxes()[0]
            .roots()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    };
    // Inside: narrowed to it. The operator's deny rule (anchored at the operator root) still holds.
    let n = op.narrowed(&[t.root.join("sub")]);
    assert_eq!(served(&n), vec![t.root.join("sub")]);
    // Dot segments are taken as the reference server takes them (lexically), then the result is
    // matched and opened like any other client root.
    let dots = op.narrowed(&[t.root.join("./sub/../sub")]);
    assert_eq!(served(&dots), vec![t.root.join("sub")]);
    assert_eq!(
        served(&op.narrowed(&[t.root.join("sub/..")])),
        vec![t.root.clone()]
    );
    assert_eq!(
        code(
            &n,
            "read_text_file",
            json!({"path": s(&t.root.join("lines.txt"))})
        ),
        ErrorCode::OutOfSandbox
    );
    assert_eq!(
        code(
            &n,
            "read_text_file",
            json!({"path": s(&t.root.join("sub/secret.txt"))})
        ),
        ErrorCode::Denied
    );
    assert!(text(
        &n,
        "read_text_file",
        json!({"path": s(&t.root.join("sub/a.rs"))})
    )
    .contains("needle"));
    // The write root is outside every client root: no writes.
    assert_eq!(
        code(
            &n,
            "write_file",
            json!({"path": s(&t.out.join("w")), "content": ""})
        ),
        ErrorCode::Denied
    );
    // Outside, or through a symlink leading out, or with `..`: nothing.
    for bad in [
        t.outside.clone(),
        t.root.join("link"),
        t.root.join("sub/../../outside"),
    ] {
        assert!(
            served(&op.narrowed(std::slice::from_ref(&bad))).is_empty(),
            "{bad:?}"
        );
    }
    // Above the operator's root: the operator's root, not more.
    let up = op.narrowed(&[PathBuf::from("/")]);
    assert_eq!(served(&up), vec![t.root.clone()]);
    assert_eq!(
        code(
            &up,
            "read_text_file",
            json!({"path": s(&t.outside.join("x.txt"))})
        ),
        ErrorCode::OutOfSandbox
    );
    assert!(text(
        &up,
        "write_file",
        json!({"path": s(&t.out.join("w.txt")), "content": "x"})
    )
    .starts_with("Successfully"));
    // A file is not a root; an empty list serves nothing; a new list replaces the old one.
    assert!(served(&op.narrowed(&[t.root.join("lines.txt")])).is_empty());
    let none = op.narrowed(&[]);
    assert!(served(&none).is_empty());
    assert_eq!(
        code(
            &none,
            "read_text_file",
            json!({"path": s(&t.root.join("lines.txt"))})
        ),
        ErrorCode::OutOfSandbox
    );
    let listed = text(&n, "list_allowed_directories", json!({}));
    assert_eq!(
        listed,
        format!("Allowed directories:\n{}", s(&t.root.join("sub")))
    );
    assert_eq!(
        rootbound::file_uri_path("file:///a%20b/c"),
        Some(PathBuf::from("/a b/c"))
    );
    assert_eq!(rootbound::file_uri_path("file://host/a"), None);
}

#[test]
fn config_profile_key() {
    let t = tree();
    let text_cfg = format!(
        "[agents.bot]\nroots = [\"{}\"]\nprofile = \"gemini-cli\"\n[agents.bot.tools.read_file]\n",
        s(&t.root)
    );
    let c = Config::parse(&text_cfg, Format::Toml, &t.root).unwrap();
    let a = c.agent(Some("bot")).unwrap();
    assert_eq!(a.profile, Profile::GeminiCli);
    let at = a.build().unwrap();
    let names: Vec<_> = at.profile_tools().iter().map(|t| t.name).collect();
    assert_eq!(names, ["read_file"]);
    let bad = text_cfg.replace("gemini-cli", "gemini");
    let e = Config::parse(&bad, Format::Toml, &t.root).unwrap_err();
    assert_eq!(e.problems[0].key, "agents.bot.profile");
    assert!(
        e.problems[0].message.contains("claude-code"),
        "{}",
        e.problems[0].message
    );
}

#[test]
fn schema_formats() {
    let t = tree();
    for p in Profile::ALL {
        let at = tools(&t, *p);
        for t in at.profile_definitions(SchemaFormat::Gemini) {
            assert!(
                !t["parameters"].to_string().contains("additionalProperties"),
                "{t}"
            );
        }
        for t in at.profile_definitions(SchemaFormat::Anthropic) {
            assert_eq!(t["input_schema"]["type"], "object");
        }
        for t in at.profile_definitions(SchemaFormat::Mcp) {
            assert_eq!(t["annotations"]["readOnlyHint"], true);
            assert_eq!(t["outputSchema"]["type"], "object");
        }
    }
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rootbound"))
        .args(args)
        .env_remove("ROOTBOUND_LOG")
        .output()
        .unwrap()
}

#[test]
fn cli_profile_format_pretty_and_no_default_root() {
    let t = tree();
    let root = s(&t.root);
    let o = cli(&["schema"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "schema without a root refuses like call"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("no roots"));
    let o = cli(&[
        "schema",
        "--root",
        &root,
        "--profile",
        "claude-code",
        "--format",
        "anthropic",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["name"], "Read");
    assert!(v[0]["input_schema"]["properties"]["file_path"].is_object());
    let o = cli(&["schema", "--root", &root, "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cli(&["call", "stat", r#"{"path": "lines.txt"}"#, "--root", &root]);
    assert_eq!(
        o.stdout.iter().filter(|b| **b == b'\n').count(),
        1,
        "compact when piped"
    );
    let o = cli(&[
        "call",
        "stat",
        r#"{"path": "lines.txt"}"#,
        "--root",
        &root,
        "--pretty",
    ]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("{\n  \""));
    let args = format!(r#"{{"file_path": "{}/lines.txt", "limit": 1}}"#, root);
    let o = cli(&[
        "call",
        "Read",
        &args,
        "--root",
        &root,
        "--profile",
        "claude-code",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["content"]
            .as_str()
            .unwrap()
            .starts_with("     1\tline 1\n"),
        "{v}"
    );
    let o = cli(&["call", "Read", "{}", "--root", &root, "--profile", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    // The CLI's read and the MCP text use one renderer.
    std::fs::write(t.root.join("bin.dat"), b"\0\x01\x02").unwrap();
    let o = cli(&["read", "bin.dat", "--root", &root]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "[binary file: 3 bytes; content not shown]\n"
    );
}

/// Codex's read_file in indentation mode: a file in a fresh root, read through the codex dialect
/// (`offset`, `limit` and the `indentation` options as Codex's `read_block(path, offset, limit,
/// options)` takes them), and its `L{n}: ` lines.
fn codex_block(content: &str, offset: u64, limit: u64, indentation: Value) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::write(root.join("f.txt"), content).unwrap();
    let sb = Sandbox::builder().root(&root).build().unwrap();
    let at = AgentTools::from_sandbox(sb).with_profile(Profile::Codex);
    let args = json!({"file_path": s(&root.join("f.txt")), "offset": offset, "limit": limit,
        "mode": "indentation", "indentation": indentation});
    let out = text(&at, "read_file", args);
    out.split('\n').map(String::from).collect()
}

// The ports of openai/codex `codex-rs/core/src/tools/handlers/read_file.rs`'s indentation-mode tests
// (same names, inputs and expected lines).

#[test]
fn codex_indentation_mode_captures_block() {
    let file = "fn outer() {\n    if cond {\n        inner();\n    }\n    tail();\n}\n";
    let opts = json!({"anchor_line": 3, "include_siblings": false, "max_levels": 1});
    assert_eq!(
        codex_block(file, 3, 10, opts),
        ["L2:     if cond {", "L3:         inner();", "L4:     }"]
    );
}

#[test]
fn codex_indentation_mode_expands_parents() {
    let file = "mod root {\n    fn outer() {\n        if cond {\n            inner();\n        }\n    }\n}\n";
    assert_eq!(
        codex_block(file, 4, 50, json!({"anchor_line": 4, "max_levels": 2})),
        [
            "L2:     fn outer() {",
            "L3:         if cond {",
            "L4:             inner();",
            "L5:         }",
            "L6:     }",
        ]
    );
    assert_eq!(
        codex_block(file, 4, 50, json!({"anchor_line": 4, "max_levels": 3})),
        [
            "L1: mod root {",
            "L2:     fn outer() {",
            "L3:         if cond {",
            "L4:             inner();",
            "L5:         }",
            "L6:     }",
            "L7: }",
        ]
    );
}

#[test]
fn codex_indentation_mode_respects_sibling_flag() {
    let file = "fn wrapper() {\n    if first {\n        do_first();\n    }\n    if second {\n        do_second();\n    }\n}\n";
    let opts = json!({"anchor_line": 3, "include_siblings": false, "max_levels": 1});
    assert_eq!(
        codex_block(file, 3, 50, opts),
        ["L2:     if first {", "L3:         do_first();", "L4:     }"]
    );
    let opts = json!({"anchor_line": 3, "include_siblings": true, "max_levels": 1});
    assert_eq!(
        codex_block(file, 3, 50, opts),
        [
            "L2:     if first {",
            "L3:         do_first();",
            "L4:     }",
            "L5:     if second {",
            "L6:         do_second();",
            "L7:     }",
        ]
    );
}

#[test]
fn codex_indentation_mode_handles_python_sample() {
    let file = "class Foo:\n    def __init__(self, size):\n        self.size = size\n    def double(self, value):\n        if value is None:\n            return 0\n        result = value * self.size\n        return result\nclass Bar:\n    def compute(self):\n        helper = Foo(2)\n        return helper.double(5)\n";
    let opts = json!({"anchor_line": 7, "include_siblings": true, "max_levels": 1});
    assert_eq!(
        codex_block(file, 1, 200, opts),
        [
            "L2:     def __init__(self, size):",
            "L3:         self.size = size",
            "L4:     def double(self, value):",
            "L5:         if value is None:",
            "L6:             return 0",
            "L7:         result = value * self.size",
            "L8:         return result",
        ]
    );
}

/// `#[ignore]`d in Codex too: its algorithm does not give these lines (with max_levels 1 from column
/// 16 it gives L14-L16: `run() {` is below column 12, and the second line at column 12 going down
/// ends the block). Kept as Codex has it.
#[test]
#[ignore]
fn codex_indentation_mode_handles_javascript_sample() {
    let file = "export function makeThing() {\n    const cache = new Map();\n    function ensure(key) {\n        if (!cache.has(key)) {\n            cache.set(key, []);\n        }\n        return cache.get(key);\n    }\n    const handlers = {\n        init() {\n            console.log(\"init\");\n        },\n        run() {\n            if (Math.random() > 0.5) {\n                return \"heads\";\n            }\n            return \"tails\";\n        },\n    };\n    return { cache, handlers };\n}\nexport function other() {\n    return makeThing();\n}\n";
    assert_eq!(
        codex_block(file, 15, 200, json!({"anchor_line": 15, "max_levels": 1})),
        [
            "L10:         init() {",
            "L11:             console.log(\"init\");",
            "L12:         },",
            "L13:         run() {",
            "L14:             if (Math.random() > 0.5) {",
            "L15:                 return \"heads\";",
            "L16:             }",
            "L17:             return \"tails\";",
            "L18:         },",
        ]
    );
}

const CODEX_CPP_SAMPLE: &str = "#include <vector>\n#include <string>\n\nnamespace sample {\nclass Runner {\npublic:\n    void setup() {\n        if (enabled_) {\n            init();\n        }\n    }\n\n    // Run the code\n    int run() const {\n        switch (mode_) {\n            case Mode::Fast:\n                return fast();\n            case Mode::Slow:\n                return slow();\n            default:\n                return fallback();\n        }\n    }\n\nprivate:\n    bool enabled_ = false;\n    Mode mode_ = Mode::Fast;\n\n    int fast() const {\n        return 1;\n    }\n};\n}  // namespace sample\n";

#[test]
fn codex_indentation_mode_handles_cpp_sample_shallow() {
    let opts = json!({"include_siblings": false, "anchor_line": 18, "max_levels": 1});
    assert_eq!(
        codex_block(CODEX_CPP_SAMPLE, 18, 200, opts),
        [
            "L15:         switch (mode_) {",
            "L16:             case Mode::Fast:",
            "L17:                 return fast();",
            "L18:             case Mode::Slow:",
            "L19:                 return slow();",
            "L20:             default:",
            "L21:                 return fallback();",
            "L22:         }",
        ]
    );
}

#[test]
fn codex_indentation_mode_handles_cpp_sample() {
    let opts = json!({"include_siblings": false, "anchor_line": 18, "max_levels": 2});
    assert_eq!(
        codex_block(CODEX_CPP_SAMPLE, 18, 200, opts),
        [
            "L13:     // Run the code",
            "L14:     int run() const {",
            "L15:         switch (mode_) {",
            "L16:             case Mode::Fast:",
            "L17:                 return fast();",
            "L18:             case Mode::Slow:",
            "L19:                 return slow();",
            "L20:             default:",
            "L21:                 return fallback();",
            "L22:         }",
            "L23:     }",
        ]
    );
}

#[test]
fn codex_indentation_mode_handles_cpp_sample_no_headers() {
    let opts = json!({"include_siblings": false, "include_header": false, "anchor_line": 18,
        "max_levels": 2});
    assert_eq!(
        codex_block(CODEX_CPP_SAMPLE, 18, 200, opts),
        [
            "L14:     int run() const {",
            "L15:         switch (mode_) {",
            "L16:             case Mode::Fast:",
            "L17:                 return fast();",
            "L18:             case Mode::Slow:",
            "L19:                 return slow();",
            "L20:             default:",
            "L21:                 return fallback();",
            "L22:         }",
            "L23:     }",
        ]
    );
}

#[test]
fn codex_indentation_mode_handles_cpp_sample_siblings() {
    let opts = json!({"include_siblings": true, "include_header": false, "anchor_line": 18,
        "max_levels": 2});
    assert_eq!(
        codex_block(CODEX_CPP_SAMPLE, 18, 200, opts),
        [
            "L7:     void setup() {",
            "L8:         if (enabled_) {",
            "L9:             init();",
            "L10:         }",
            "L11:     }",
            "L12: ",
            "L13:     // Run the code",
            "L14:     int run() const {",
            "L15:         switch (mode_) {",
            "L16:             case Mode::Fast:",
            "L17:                 return fast();",
            "L18:             case Mode::Slow:",
            "L19:                 return slow();",
            "L20:             default:",
            "L21:                 return fallback();",
            "L22:         }",
            "L23:     }",
        ]
    );
}

/// The rest of Codex's indentation mode, beyond its own tests: defaults (anchor = offset, every
/// level, no siblings, headers), tabs as 4 columns, blank lines inside kept and at the ends left
/// out, `max_lines`, the 500-byte cut, CRLF, its error text; and the read limit.
#[test]
fn codex_indentation_mode_defaults_limits_and_errors() {
    // Defaults: the anchor is `offset`, max_levels 0 reaches column 0, and one line at the lowest
    // level is taken each way (the next one going down would end the block).
    let file = "a\n\tb {\n\t\tc\n\n\t\td\n\t}\nz\n";
    assert_eq!(
        codex_block(file, 3, 2000, json!({})),
        [
            "L1: a",
            "L2: \tb {",
            "L3: \t\tc",
            "L4: ",
            "L5: \t\td",
            "L6: \t}",
            "L7: z"
        ]
    );
    // A tab is 4 columns: max_levels 1 from column 8 stops at column 4.
    assert_eq!(
        codex_block(file, 3, 2000, json!({"max_levels": 1})),
        ["L2: \tb {", "L3: \t\tc", "L4: ", "L5: \t\td", "L6: \t}"]
    );
    // max_lines (and limit) cap the block, grown one line up and one down in turn; 1 is the anchor.
    assert_eq!(
        codex_block(file, 3, 2000, json!({"max_lines": 3})),
        ["L2: \tb {", "L3: \t\tc"]
    );
    assert_eq!(
        codex_block(file, 3, 3, json!({})),
        ["L2: \tb {", "L3: \t\tc"]
    );
    assert_eq!(codex_block(file, 4, 1, json!({})), ["L4: "]);
    // CRLF lines lose their `\r`; a long line is cut at 500 bytes.
    let long = format!("x {{\r\n    {}\r\n}}\r\n", "y".repeat(600));
    let got = codex_block(&long, 2, 2000, json!({}));
    assert_eq!(got.len(), 3);
    assert_eq!(got[1], format!("L2:     {}", "y".repeat(496)));
    assert_eq!(got[2], "L3: }");
    // The anchor past the end (or an empty file): Codex's error text.
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::write(root.join("f.txt"), file).unwrap();
    std::fs::write(root.join("empty.txt"), "").unwrap();
    std::fs::write(root.join("big.txt"), "    line\n".repeat(200)).unwrap();
    let sb = Sandbox::builder()
        .root(&root)
        .max_read_bytes(1000)
        .build()
        .unwrap();
    let at = AgentTools::from_sandbox(sb).with_profile(Profile::Codex);
    let f = s(&root.join("f.txt"));
    for (path, anchor) in [
        (&f, json!({"anchor_line": 8})),
        (&s(&root.join("empty.txt")), json!({})),
    ] {
        let e = at
            .present(
                "read_file",
                json!({"file_path": path, "mode": "indentation", "indentation": anchor}),
            )
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(
            e.message.contains("anchor_line exceeds file length"),
            "{e:?}"
        );
    }
    // A file over the read limit is refused, not searched in part.
    let e = at
        .present(
            "read_file",
            json!({"file_path": s(&root.join("big.txt")), "offset": 2, "mode": "indentation"}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::TooLarge);
    assert!(
        e.message.contains("1800 bytes") && e.message.contains("slice"),
        "{e:?}"
    );
    // The same path rules as slice mode.
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("x.txt");
    std::fs::write(&secret, "SECRET\n").unwrap();
    let e = at
        .present(
            "read_file",
            json!({"file_path": s(&secret), "mode": "indentation"}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::OutOfSandbox);
}

/// The gemini-cli dialect answers as Gemini CLI prints (packages/core/src/tools of
/// google-gemini/gemini-cli at 5411f113: grep-utils.ts, ripGrep.ts, ls.ts, read-file.ts with
/// utils/fileUtils.ts, glob.ts). The tree of these cases.
fn gemini_tree() -> (Tree, AgentTools) {
    let t = tree();
    std::fs::write(t.root.join("sub/Bee.txt"), "needle  \n").unwrap();
    std::fs::write(t.root.join("sub/[id].tsx"), "x").unwrap();
    std::fs::write(t.root.join("sub/[i].tsx"), "x").unwrap();
    std::fs::write(t.root.join("nonl.txt"), "a\nb").unwrap();
    std::fs::write(t.root.join(".hidden"), "h\n").unwrap();
    std::fs::write(
        t.root.join("long.txt"),
        format!("{}\nend\n", "é".repeat(2001)),
    )
    .unwrap();
    std::fs::write(t.root.join("Zeta.md"), "").unwrap();
    std::fs::write(t.root.join("alpha.md"), "").unwrap();
    std::fs::create_dir(t.root.join("empty")).unwrap();
    std::fs::create_dir(t.root.join("Docs")).unwrap();
    let at = tools(&t, Profile::GeminiCli);
    (t, at)
}

/// `L<from>- line <from>` to `L<to>...`, with `:` on the matches.
fn numbered(r: std::ops::RangeInclusive<u32>, hit: &[u32]) -> String {
    r.map(|i| {
        let sep = if hit.contains(&i) { ':' } else { '-' };
        format!("L{i}{sep} line {i}\n")
    })
    .collect()
}

#[test]
fn gemini_cli_grep_as_gemini_cli() {
    let (t, at) = gemini_tree();
    // grep_search: grouped per file, `L<n>: text` (context `L<n>- text`), paths relative to the
    // searched directory, lines trimmed at the end, "match" for one.
    assert_eq!(
        text(&at, "grep_search", json!({"pattern": "NEEDLE", "dir_path": "sub"})),
        "Found 3 matches for pattern \"NEEDLE\" in path \"sub\":\n---\nFile: Bee.txt\nL1: needle\n---\n\
         File: a.rs\nL1: fn Needle() {}\nL2: fn needle() {}\n---"
    );
    assert_eq!(
        text(&at, "grep_search", json!({"pattern": "needle", "case_sensitive": true})),
        "Found 2 matches for pattern \"needle\" in path \".\":\n---\nFile: sub/Bee.txt\nL1: needle\n---\n\
         File: sub/a.rs\nL1- fn Needle() {}\nL2: fn needle() {}\n---"
    );
    // Zeros from a strict-mode client are unset: the same answer, auto-context included.
    assert_eq!(
        text(
            &at,
            "grep_search",
            json!({"pattern": "needle", "case_sensitive": true, "context": 0, "before": 0, "after": 0})
        ),
        text(
            &at,
            "grep_search",
            json!({"pattern": "needle", "case_sensitive": true})
        )
    );
    // A file as dir_path: its name.
    assert_eq!(
        text(
            &at,
            "grep_search",
            json!({"pattern": "fn N", "dir_path": s(&t.root.join("sub/a.rs")), "case_sensitive": true})
        ),
        "Found 1 match for pattern \"fn N\" in path \"".to_string()
            + &s(&t.root.join("sub/a.rs"))
            + "\":\n---\nFile: a.rs\nL1: fn Needle() {}\nL2- fn needle() {}\n---"
    );
    // One to three matches and no context asked for: 50 lines around one match, 15 around each of
    // two or three.
    assert_eq!(
        text(&at, "grep_search", json!({"pattern": "^line 2[05]$"})),
        format!(
            "Found 2 matches for pattern \"^line 2[05]$\" in path \".\":\n---\nFile: lines.txt\n{}---",
            numbered(5..=30, &[20, 25])
        )
    );
    assert_eq!(
        text(&at, "grep_search", json!({"pattern": "^line 2$"})),
        format!(
            "Found 1 match for pattern \"^line 2$\" in path \".\":\n---\nFile: lines.txt\n{}---",
            numbered(1..=30, &[2])
        )
    );
    assert_eq!(
        text(
            &at,
            "grep_search",
            json!({"pattern": "^line 2$", "context": 1})
        ),
        format!(
            "Found 1 match for pattern \"^line 2$\" in path \".\":\n---\nFile: lines.txt\n{}---",
            numbered(1..=3, &[2])
        )
    );
    // The limit: reached is "limited", as Gemini CLI says it (matches >= total_max_matches).
    assert_eq!(
        text(&at, "grep_search", json!({"pattern": "^line 1", "total_max_matches": 4})),
        format!(
            "Found 4 matches for pattern \"^line 1\" in path \".\" (results limited to 4 matches for \
             performance):\n---\nFile: lines.txt\n{}---",
            "L1: line 1\nL10: line 10\nL11: line 11\nL12: line 12\n"
        )
    );
    assert_eq!(
        text(
            &at,
            "grep_search",
            json!({"pattern": "needle", "names_only": true})
        ),
        "Found 2 files with matches for pattern \"needle\" in path \".\":\nsub/Bee.txt\nsub/a.rs"
    );
    assert_eq!(
        text(
            &at,
            "grep_search",
            json!({"pattern": "zzz", "include_pattern": "*.rs"})
        ),
        "No matches found for pattern \"zzz\" in path \".\" (filter: \"*.rs\")."
    );
}

#[test]
fn gemini_cli_list_as_gemini_cli() {
    let (t, at) = gemini_tree();
    let root = s(&t.root);
    // list_directory: directories first, then names as localeCompare orders them; sizes; dot
    // entries; the empty text.
    assert_eq!(
        text(
            &at,
            "list_directory",
            json!({"dir_path": root, "ignore": ["lines.txt", "long.txt"]})
        ),
        format!(
            "Directory listing for {root}:\n[DIR] Docs\n[DIR] empty\n[DIR] sub\n.hidden (2 bytes)\n\
             alpha.md (0 bytes)\nnonl.txt (3 bytes)\nZeta.md (0 bytes)"
        )
    );
    let empty = s(&t.root.join("empty"));
    assert_eq!(
        text(&at, "list_directory", json!({"dir_path": empty})),
        format!("Directory {empty} is empty.")
    );
}

#[test]
fn gemini_cli_read_as_gemini_cli() {
    let (t, at) = gemini_tree();
    let f = s(&t.root.join("lines.txt"));
    let note = |first: u64, end: u64, total: u64, content: &str| {
        format!(
            "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines {first}-{end} of {total} total lines.\n\
             Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a \
             subsequent 'read_file' call. For example, to read the next section of the file, use start_line: {}.\n\n\
             --- FILE CONTENT (truncated) ---\n{content}",
            end + 1
        )
    };
    // read_file: the whole file as it is; any part is "truncated", with Gemini CLI's count of lines
    // (a file ending in a line end has an empty last line).
    assert_eq!(
        text(&at, "read_file", json!({"file_path": f})),
        lines_text(1..=30)
    );
    assert_eq!(
        text(
            &at,
            "read_file",
            json!({"file_path": f, "start_line": 3, "end_line": 4})
        ),
        note(3, 4, 31, "line 3\nline 4")
    );
    assert_eq!(
        text(&at, "read_file", json!({"file_path": f, "start_line": 29})),
        note(29, 31, 31, "line 29\nline 30\n")
    );
    assert_eq!(
        text(&at, "read_file", json!({"file_path": f, "end_line": 30})),
        note(1, 30, 31, lines_text(1..=30).trim_end())
    );
    let nonl = s(&t.root.join("nonl.txt"));
    assert_eq!(
        text(&at, "read_file", json!({"file_path": nonl, "end_line": 1})),
        note(1, 1, 2, "a")
    );
    assert_eq!(text(&at, "read_file", json!({"file_path": nonl})), "a\nb");
    let long = s(&t.root.join("long.txt"));
    assert_eq!(
        text(&at, "read_file", json!({"file_path": long})),
        note(
            1,
            3,
            3,
            &format!("{}... [truncated]\nend\n", "é".repeat(2000))
        )
    );
}

#[test]
fn gemini_cli_glob_as_gemini_cli() {
    let (t, at) = gemini_tree();
    let root = s(&t.root);
    // Files older than a day are listed by path as Gemini's localeCompare orders them (case is
    // only a tie-break), after any changed in the last day.
    let two_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 86400);
    for f in ["Zeta.md", "alpha.md"] {
        let file = std::fs::File::options()
            .write(true)
            .open(t.root.join(f))
            .unwrap();
        file.set_modified(two_days_ago).unwrap();
    }
    // glob: case-insensitive unless case_sensitive is true; a pattern naming an existing file is
    // taken literally.
    assert_eq!(
        text(&at, "glob", json!({"pattern": "*.MD"})),
        format!(
            "Found 2 file(s) matching \"*.MD\" within the allowed directories, sorted by \
             modification time (newest first):\n{root}/alpha.md\n{root}/Zeta.md"
        )
    );
    assert_eq!(
        text(
            &at,
            "glob",
            json!({"pattern": "*.MD", "case_sensitive": true})
        ),
        "No files found matching pattern \"*.MD\" within the allowed directories"
    );
    let sub = s(&t.root.join("sub"));
    assert_eq!(
        text(&at, "glob", json!({"pattern": "[id].tsx", "dir_path": sub})),
        format!(
            "Found 1 file(s) matching \"[id].tsx\" within {sub}, sorted by modification time \
             (newest first):\n{sub}/[id].tsx"
        )
    );
    assert_eq!(
        text(&at, "glob", json!({"pattern": "sub/[id].tsx"})),
        format!(
            "Found 1 file(s) matching \"sub/[id].tsx\" within the allowed directories, sorted by \
             modification time (newest first):\n{sub}/[id].tsx"
        )
    );
    // Not an existing name: a glob, as before.
    assert_eq!(
        text(&at, "glob", json!({"pattern": "sub/?i?.tsx"})),
        format!(
            "Found 1 file(s) matching \"sub/?i?.tsx\" within the allowed directories, sorted by \
             modification time (newest first):\n{sub}/[i].tsx"
        )
    );
}

fn lines_text(r: std::ops::RangeInclusive<u32>) -> String {
    r.map(|i| format!("line {i}\n")).collect()
}

/// A write root nested in a read root anchors deny rules there too; a client's narrower root that
/// leaves the write root out keeps it as an anchor, so a rule written relative to the write root
/// still holds through the narrowed root (ATTACKS.md class 35).
#[test]
fn client_roots_keep_the_rules_the_write_root_anchors() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("w/sub")).unwrap();
    std::fs::write(root.join("w/sub/f.txt"), "needle\n").unwrap();
    std::fs::write(root.join("w/sub/g.txt"), "needle\n").unwrap();
    let mut w = WritePolicy::new(root.join("w"));
    w.allow_overwrite = true;
    let sb = Sandbox::builder()
        .root(&root)
        .deny("/sub/f.txt")
        .write(w)
        .build()
        .unwrap();
    let op = AgentTools::from_sandbox(sb);
    let f = s(&root.join("w/sub/f.txt"));
    assert_eq!(
        op.call("read_file", json!({"path": f}))["error"]["code"],
        "DENIED"
    );
    let n = op.narrowed(&[root.join("w/sub")]);
    assert_eq!(
        n.call("read_file", json!({"path": f}))["error"]["code"],
        "DENIED"
    );
    let r = n.call("grep_search", json!({"pattern": "needle"}));
    assert_eq!(r["match_lines"], 1, "{r}");
    assert!(!r["matches"].as_str().unwrap().contains("f.txt"), "{r}");
}
