//! Schemas every client accepts. Every tool's input and output schema compiles under ajv's
//! strict mode (draft-07 and 2020-12), the Gemini parameter form stays in the function-declaration
//! subset, and real results of every tool validate against its output schema.
//!
//! The checks run in Node (tests/js/check_schemas.mjs, with ajv installed by `.ci/run` through
//! `npm ci --prefix tests/js`). Without node or ajv the test says it skips, except under CI.

use rootbound::{Sandbox, WritePolicy};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

fn sandbox(base: &Path) -> Sandbox {
    let read = base.join("read");
    std::fs::create_dir_all(read.join("sub")).unwrap();
    std::fs::write(read.join("a.txt"), "alpha needle\nbeta\n").unwrap();
    std::fs::write(read.join("sub/b.rs"), "fn needle() {}\n").unwrap();
    std::fs::write(read.join("bin.dat"), b"\0\x01binary").unwrap();
    std::fs::write(read.join("img.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let mut w = WritePolicy::new(read.join("sub"));
    w.allow_overwrite = true;
    w.allow_delete = true;
    Sandbox::builder().root(&read).write(w).build().unwrap()
}

/// One call per tool (and a failing one), as MCP would put them in structuredContent.
fn samples(sb: &Sandbox) -> Vec<Value> {
    let calls = [
        ("read_file", json!({"path": "a.txt", "limit": 5})),
        (
            "read_file",
            json!({"path": "a.txt", "start_line": 1, "max_lines": 1, "line_numbers": true}),
        ),
        ("read_file", json!({"path": "bin.dat"})),
        ("grep_search", json!({"pattern": "needle", "limit": 1})),
        (
            "grep_search",
            json!({"pattern": "needle", "output_mode": "count"}),
        ),
        (
            "grep_search",
            json!({"pattern": "needle", "output_format": "json", "context": 1, "only_matching": true}),
        ),
        (
            "grep_search",
            json!({"pattern": "needle", "output_format": "json", "output_mode": "count"}),
        ),
        (
            "grep_search",
            json!({"pattern": "needle", "patterns": ["beta"], "output_format": "json",
                   "output_mode": "files_without_match", "invert": true, "max_count": 1,
                   "line_regexp": false, "max_depth": 2}),
        ),
        ("glob", json!({"pattern": "*.rs"})),
        ("glob", json!({"pattern": "*", "sort": "modified"})),
        ("list_dir", json!({"path": "."})),
        ("list_dir", json!({})),
        ("stat", json!({"path": "a.txt"})),
        (
            "read_many_files",
            json!({"paths": ["a.txt", "*.rs", "missing.txt"]}),
        ),
        ("directory_tree", json!({"path": ".", "max_depth": 2})),
        ("list_roots", json!({})),
        ("read_media_file", json!({"path": "img.png"})),
        (
            "write_file",
            json!({"path": "new.txt", "content": "one\ntwo\n"}),
        ),
        (
            "edit_file",
            json!({"path": "new.txt", "old_string": "two", "new_string": "three"}),
        ),
        ("create_directory", json!({"path": "d/e"})),
        (
            "move_file",
            json!({"source": "new.txt", "destination": "d/moved.txt"}),
        ),
        ("delete_file", json!({"path": "d/moved.txt"})),
        ("read_file", json!({"path": "../../outside"})),
        ("stat", json!({"path": "nope"})),
    ];
    calls
        .into_iter()
        .map(|(tool, args)| {
            let value = sb.call(tool, args.clone());
            json!({"tool": tool, "args": args, "value": value})
        })
        .collect()
}

#[test]
fn schemas_are_strict_valid_and_results_match_them() {
    let tmp = tempfile::tempdir().unwrap();
    let sb = sandbox(tmp.path());
    let tools: Vec<Value> = sb
        .tools()
        .iter()
        .map(|t| {
            json!({"name": t.name, "input": t.input_schema, "output": t.output_schema,
                   "gemini": t.gemini_parameters()})
        })
        .collect();
    assert_eq!(
        tools.len(),
        rootbound::ToolName::ALL.len(),
        "every tool is enabled here"
    );
    let samples = samples(&sb);
    for s in &samples {
        // Sanity: the successful calls succeeded, so their results are really checked.
        let failed = s["value"].get("error").is_some();
        let expect_fail = s["args"]["path"] == "../../outside" || s["args"]["path"] == "nope";
        assert_eq!(failed, expect_fail, "{s}");
    }
    let doc = tmp.path().join("schemas.json");
    std::fs::write(
        &doc,
        json!({"tools": tools, "samples": samples}).to_string(),
    )
    .unwrap();

    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let have_ajv = js.join("node_modules/ajv/package.json").exists();
    let node = Command::new("node")
        .arg(js.join("check_schemas.mjs"))
        .arg(&doc)
        .output();
    match node {
        Ok(out) if have_ajv => {
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "schema checks failed:\n{text}");
            println!("{text}");
        }
        _ if std::env::var_os("CI").is_some() => {
            panic!("node and ajv are required under CI (npm ci --prefix tests/js)")
        }
        _ => {
            eprintln!("SKIP: node or ajv missing; run `npm ci --prefix tests/js` to check schemas")
        }
    }
}

/// Runs check_schemas.mjs on a document (skips without node/ajv, except under CI).
fn run_checks(doc: &Path) {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let have_ajv = js.join("node_modules/ajv/package.json").exists();
    match Command::new("node")
        .arg(js.join("check_schemas.mjs"))
        .arg(doc)
        .output()
    {
        Ok(out) if have_ajv => {
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "schema checks failed:\n{text}");
            println!("{text}");
        }
        _ if std::env::var_os("CI").is_some() => {
            panic!("node and ajv are required under CI (npm ci --prefix tests/js)")
        }
        _ => eprintln!("SKIP: node or ajv missing; run `npm ci --prefix tests/js`"),
    }
}

/// Every tool of every profile: strict-valid input and output schemas (both drafts), the Gemini
/// subset, and real results (successes and failures) that validate against the output schema, as
/// presented over MCP (`structuredContent`; for read_media_file without the bytes, which travel in
/// the image block).
#[test]
fn dialect_schemas_are_strict_valid_and_results_match_them() {
    use rootbound::config::AgentTools;
    use rootbound::Profile;
    let tmp = tempfile::tempdir().unwrap();
    let sb = sandbox(tmp.path());
    let root = std::fs::canonicalize(tmp.path().join("read")).unwrap();
    let p = |rel: &str| root.join(rel).to_string_lossy().into_owned();
    let calls: Vec<(Profile, &str, Value)> = vec![
        (
            Profile::ClaudeCode,
            "Read",
            json!({"file_path": p("a.txt"), "offset": 2, "limit": 1}),
        ),
        (
            Profile::ClaudeCode,
            "Read",
            json!({"file_path": p("bin.dat")}),
        ),
        (
            Profile::ClaudeCode,
            "Grep",
            json!({"pattern": "needle", "output_mode": "content", "-i": true, "-C": 1, "head_limit": 1}),
        ),
        (
            Profile::ClaudeCode,
            "Grep",
            json!({"pattern": "needle", "output_mode": "count", "glob": "*.rs", "type": "rust"}),
        ),
        (
            Profile::ClaudeCode,
            "Glob",
            json!({"pattern": "**/*.rs", "path": p(".")}),
        ),
        (
            Profile::ClaudeCode,
            "Write",
            json!({"file_path": p("sub/cc.txt"), "content": "x\ny\n"}),
        ),
        (
            Profile::ClaudeCode,
            "Edit",
            json!({"file_path": p("sub/cc.txt"), "old_string": "y", "new_string": "z", "replace_all": true}),
        ),
        (
            Profile::ClaudeCode,
            "Read",
            json!({"file_path": "/etc/passwd"}),
        ),
        (
            Profile::GeminiCli,
            "read_file",
            json!({"file_path": p("a.txt"), "start_line": 1, "end_line": 1}),
        ),
        (
            Profile::GeminiCli,
            "read_many_files",
            json!({"include": ["**/*.rs", "a.txt"], "exclude": ["*.dat"], "useDefaultExcludes": true}),
        ),
        (
            Profile::GeminiCli,
            "grep_search",
            json!({"pattern": "NEEDLE", "include_pattern": "*.rs", "total_max_matches": 1}),
        ),
        (
            Profile::GeminiCli,
            "search_file_content",
            json!({"pattern": "needle", "names_only": true}),
        ),
        (
            Profile::GeminiCli,
            "glob",
            json!({"pattern": "*.txt", "respect_git_ignore": false}),
        ),
        (
            Profile::GeminiCli,
            "list_directory",
            json!({"dir_path": p("."), "ignore": ["*.dat"], "file_filtering_options": {"respect_git_ignore": true}}),
        ),
        (
            Profile::GeminiCli,
            "write_file",
            json!({"file_path": p("sub/g.txt"), "content": "a\n"}),
        ),
        (
            Profile::GeminiCli,
            "replace",
            json!({"file_path": p("sub/g.txt"), "instruction": "x", "old_string": "a", "new_string": "b"}),
        ),
        (
            Profile::GeminiCli,
            "read_file",
            json!({"file_path": p("nope.txt")}),
        ),
        (
            Profile::McpFilesystem,
            "read_text_file",
            json!({"path": p("a.txt"), "head": 1}),
        ),
        (
            Profile::McpFilesystem,
            "read_file",
            json!({"path": p("a.txt"), "tail": 1}),
        ),
        (
            Profile::McpFilesystem,
            "read_media_file",
            json!({"path": p("img.png")}),
        ),
        (
            Profile::McpFilesystem,
            "read_multiple_files",
            json!({"paths": [p("a.txt"), p("missing")]}),
        ),
        (
            Profile::McpFilesystem,
            "write_file",
            json!({"path": p("sub/m.txt"), "content": "one\n"}),
        ),
        (
            Profile::McpFilesystem,
            "edit_file",
            json!({"path": p("sub/m.txt"), "edits": [{"oldText": "one", "newText": "two"}], "dryRun": true}),
        ),
        (
            Profile::McpFilesystem,
            "create_directory",
            json!({"path": p("sub/d")}),
        ),
        (
            Profile::McpFilesystem,
            "list_directory",
            json!({"path": p(".")}),
        ),
        (
            Profile::McpFilesystem,
            "list_directory_with_sizes",
            json!({"path": p("."), "sortBy": "size"}),
        ),
        (
            Profile::McpFilesystem,
            "directory_tree",
            json!({"path": p("."), "excludePatterns": ["*.dat"]}),
        ),
        (
            Profile::McpFilesystem,
            "move_file",
            json!({"source": p("sub/m.txt"), "destination": p("sub/d/m.txt")}),
        ),
        (
            Profile::McpFilesystem,
            "search_files",
            json!({"path": p("."), "pattern": "*.rs"}),
        ),
        (
            Profile::McpFilesystem,
            "get_file_info",
            json!({"path": p("a.txt")}),
        ),
        (
            Profile::McpFilesystem,
            "list_allowed_directories",
            json!({}),
        ),
        (
            Profile::McpFilesystem,
            "get_file_info",
            json!({"path": "/etc"}),
        ),
    ];
    let mut calls = calls;
    calls.push((
        Profile::Rootbound,
        "read_media_file",
        json!({"path": "img.png"}),
    ));
    calls.push((
        Profile::Rootbound,
        "read_file",
        json!({"path": p("a.txt"), "limit": 3}),
    ));
    calls.push((
        Profile::Rootbound,
        "grep_search",
        json!({"pattern": "needle", "limit": "1"}),
    ));
    for profile in Profile::ALL {
        let tools = AgentTools::from_sandbox(sb.clone()).with_profile(*profile);
        let listed = tools.profile_tools();
        let names: Vec<&str> = listed.iter().map(|t| t.name).collect();
        let expected: &[&str] = match profile {
            Profile::Rootbound => &[
                "read_file",
                "grep_search",
                "glob",
                "list_dir",
                "stat",
                "read_many_files",
                "directory_tree",
                "list_roots",
                "read_media_file",
                "write_file",
                "edit_file",
                "create_directory",
                "move_file",
                "delete_file",
            ],
            Profile::ClaudeCode => &["Read", "Grep", "Glob", "Write", "Edit"],
            Profile::GeminiCli => &[
                "read_file",
                "read_many_files",
                "grep_search",
                "glob",
                "list_directory",
                "write_file",
                "replace",
            ],
            Profile::Codex => &["read_file", "list_dir", "grep_files"],
            _ => &[
                "read_file",
                "read_text_file",
                "read_media_file",
                "read_multiple_files",
                "write_file",
                "edit_file",
                "create_directory",
                "list_directory",
                "list_directory_with_sizes",
                "directory_tree",
                "move_file",
                "search_files",
                "get_file_info",
                "list_allowed_directories",
            ],
        };
        assert_eq!(names, expected, "{profile}");
        let docs: Vec<Value> = listed
            .iter()
            .map(|t| {
                json!({"name": t.name, "input": t.input_schema, "output": t.output_schema,
                            "gemini": t.gemini_parameters()})
            })
            .collect();
        let mut samples = Vec::new();
        for (pr, tool, args) in calls.iter().filter(|c| c.0 == *profile) {
            let _ = pr;
            let value = match tools.present(tool, args.clone()) {
                Ok(p) => p.structured,
                Err(e) => e.to_json(),
            };
            let failed = value.get("error").is_some();
            let expect_fail =
                args.to_string().contains("/etc") || args.to_string().contains("nope");
            assert_eq!(failed, expect_fail, "{profile} {tool} {args}: {value}");
            // The alias is served by the listed tool's schema.
            let listed_name = if *tool == "search_file_content" {
                "grep_search"
            } else {
                tool
            };
            samples.push(json!({"tool": listed_name, "args": args, "value": value}));
        }
        let doc = tmp.path().join(format!("{profile}.json"));
        std::fs::write(&doc, json!({"tools": docs, "samples": samples}).to_string()).unwrap();
        run_checks(&doc);
    }
}
