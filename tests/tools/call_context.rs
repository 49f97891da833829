//! The call context: a caller's budget reaches every sub-call a tool makes,
//! through every dialect, as a value passed down the call. A cancelled budget stops each tool, and
//! the same call with a fresh budget works (so the refusal is the budget's, not the arguments').

use rootbound::config::AgentTools;
use rootbound::{Budget, ErrorCode, Profile, Sandbox, WritePolicy};
use serde_json::{json, Value};
use std::path::Path;

fn agent(root: &Path, out: &Path, profile: Profile) -> AgentTools {
    let sb = Sandbox::builder()
        .root(root)
        .write(WritePolicy {
            allow_overwrite: true,
            ..WritePolicy::new(out)
        })
        .build()
        .unwrap();
    AgentTools::from_sandbox(sb).with_profile(profile)
}

/// Every tool of every dialect, with arguments it accepts.
fn calls(root: &Path, out: &Path) -> Vec<(Profile, &'static str, Value)> {
    let f = root.join("a.txt").to_string_lossy().into_owned();
    let r = root.to_string_lossy().into_owned();
    let o = out.join("o.txt").to_string_lossy().into_owned();
    let e = out.join("e.txt").to_string_lossy().into_owned();
    vec![
        (Profile::Rootbound, "read_file", json!({"path": "a.txt"})),
        (
            Profile::Rootbound,
            "grep_search",
            json!({"pattern": "needle"}),
        ),
        (Profile::Rootbound, "glob", json!({"pattern": "*.txt"})),
        (Profile::Rootbound, "list_dir", json!({})),
        (Profile::Rootbound, "stat", json!({"path": "a.txt"})),
        (
            Profile::Rootbound,
            "read_many_files",
            json!({"paths": ["*.txt"]}),
        ),
        (Profile::Rootbound, "directory_tree", json!({})),
        (
            Profile::Rootbound,
            "write_file",
            json!({"path": o, "content": "x\n", "overwrite": true}),
        ),
        (
            Profile::Rootbound,
            "edit_file",
            json!({"path": e, "old_string": "one", "new_string": "two", "dry_run": true}),
        ),
        (Profile::ClaudeCode, "Read", json!({"file_path": f})),
        (Profile::ClaudeCode, "Grep", json!({"pattern": "needle"})),
        (Profile::ClaudeCode, "Glob", json!({"pattern": "*.txt"})),
        (
            Profile::ClaudeCode,
            "Edit",
            json!({"file_path": e, "old_string": "one", "new_string": "one"}),
        ),
        (Profile::GeminiCli, "read_file", json!({"file_path": f})),
        (
            Profile::GeminiCli,
            "read_many_files",
            json!({"include": ["*.txt"]}),
        ),
        (
            Profile::GeminiCli,
            "grep_search",
            json!({"pattern": "needle"}),
        ),
        (
            Profile::GeminiCli,
            "grep_search",
            json!({"pattern": "needle", "exclude_pattern": "zzz"}),
        ),
        (Profile::GeminiCli, "glob", json!({"pattern": "*.txt"})),
        (Profile::GeminiCli, "list_directory", json!({"dir_path": r})),
        (Profile::Codex, "read_file", json!({"file_path": f})),
        (Profile::Codex, "list_dir", json!({"dir_path": r})),
        (Profile::Codex, "grep_files", json!({"pattern": "needle"})),
        (Profile::McpFilesystem, "read_text_file", json!({"path": f})),
        (
            Profile::McpFilesystem,
            "read_multiple_files",
            json!({"paths": [f]}),
        ),
        (Profile::McpFilesystem, "list_directory", json!({"path": r})),
        (Profile::McpFilesystem, "directory_tree", json!({"path": r})),
        (
            Profile::McpFilesystem,
            "search_files",
            json!({"path": r, "pattern": "*.txt"}),
        ),
        (Profile::McpFilesystem, "get_file_info", json!({"path": f})),
        (
            Profile::McpFilesystem,
            "edit_file",
            json!({"path": e, "edits": [{"oldText": "one", "newText": "two"}], "dryRun": true}),
        ),
    ]
}

fn tree() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    let (root, out) = (base.join("root"), base.join("root/out"));
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(root.join("a.txt"), "needle\n").unwrap();
    std::fs::write(root.join("b.txt"), "hay\nneedle\n").unwrap();
    std::fs::write(out.join("e.txt"), "one\n").unwrap();
    (tmp, root, out)
}

#[test]
fn a_cancelled_budget_stops_every_tool_of_every_dialect() {
    let (_tmp, root, out) = tree();
    let cancelled = Budget::new();
    cancelled.cancel();
    for (profile, tool, args) in calls(&root, &out) {
        let at = agent(&root, &out, profile);
        let fresh = at.within(&Budget::new()).present(tool, args.clone());
        assert!(fresh.is_ok(), "{profile} {tool} {args}: {fresh:?}");
        match at.within(&cancelled).present(tool, args.clone()) {
            Err(e) => assert_eq!(e.code, ErrorCode::Cancelled, "{profile} {tool}: {e:?}"),
            Ok(p) => panic!(
                "{profile} {tool} {args}: answered under a cancelled budget: {}",
                p.structured
            ),
        }
    }
}

#[test]
fn a_budget_belongs_to_its_calls_only() {
    let (_tmp, root, out) = tree();
    let at = agent(&root, &out, Profile::Rootbound);
    let cancelled = Budget::new();
    cancelled.cancel();
    let stopped = at.within(&cancelled);
    // Calls on the same thread, before and after one made within the cancelled budget, are not
    // touched by it: nothing of a budget outlives the value that carries it.
    let before = at.call("grep_search", json!({"pattern": "needle"}));
    assert_eq!(
        stopped.call("list_dir", json!({}))["error"]["code"],
        "CANCELLED"
    );
    let after = at.call("grep_search", json!({"pattern": "needle"}));
    assert_eq!(before, after);
    assert_eq!(after["match_lines"], 2);
    // A budget's deadline bounds a call however long the policy would let it run.
    let spent = Budget::new().with_timeout(std::time::Duration::ZERO);
    let v = at
        .within(&spent)
        .call("grep_search", json!({"pattern": "needle"}));
    // Every call advances: the first file is searched, then the spent deadline ends the page.
    assert_eq!(
        (&v["timed_out"], &v["truncated"]),
        (&json!(true), &json!(true)),
        "{v}"
    );
}
