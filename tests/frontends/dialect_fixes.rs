//! The bugs found on the way, each with its case.

use rootbound::config::AgentTools;
use rootbound::{Profile, Sandbox, WritePolicy};
use serde_json::json;
use std::path::PathBuf;

fn setup(profile: Profile) -> (tempfile::TempDir, PathBuf, AgentTools) {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::write(root.join("nonl.txt"), "one\ntwo").unwrap();
    std::fs::write(root.join("twice.txt"), "x\nx\n").unwrap();
    let mut w = WritePolicy::new(&root);
    w.allow_overwrite = true;
    let sb = Sandbox::builder().root(&root).write(w).build().unwrap();
    let at = AgentTools::from_sandbox(sb).with_profile(profile);
    (tmp, root, at)
}

fn p(root: &std::path::Path, name: &str) -> String {
    root.join(name).to_string_lossy().into_owned()
}

/// Line mode (start_line, head_lines, every dialect's head) adds no newline the file lacks.
#[test]
fn no_newline_is_added_at_the_end() {
    let (_t, root, at) = setup(Profile::ClaudeCode);
    let f = p(&root, "nonl.txt");
    let out = at.present("Read", json!({"file_path": f})).unwrap();
    assert_eq!(out.text(), "     1\tone\n     2\ttwo");
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "nonl.txt");
    let out = at.present("read_file", json!({"file_path": f})).unwrap();
    assert_eq!(out.text(), "one\ntwo");
    let (_t, root, at) = setup(Profile::McpFilesystem);
    let f = p(&root, "nonl.txt");
    for (args, want) in [
        (json!({"path": f, "head": 5}), "one\ntwo"),
        // As the reference's headFile: lines joined by "\n", none after the last one.
        (json!({"path": f, "head": 1}), "one"),
        (json!({"path": f, "tail": 1}), "two"),
        (json!({"path": f}), "one\ntwo"),
    ] {
        let out = at.present("read_text_file", args.clone()).unwrap();
        assert_eq!(out.text(), want, "{args}");
    }
    let (_t, root, at) = setup(Profile::Rootbound);
    let r = at
        .call_result(
            "read_file",
            json!({"path": p(&root, "nonl.txt"), "start_line": 2}),
        )
        .unwrap();
    assert_eq!(r["content"], "two");
}

/// A dialect's errors name its own fields and tools, and say their details in words.
#[test]
fn errors_speak_the_dialect() {
    let (_t, root, at) = setup(Profile::McpFilesystem);
    let e = at
        .present(
            "edit_file",
            json!({"path": p(&root, "nonl.txt"), "edits": [{"oldText": "three", "newText": "3"}]}),
        )
        .unwrap_err();
    assert!(e.message.contains("oldText"), "{e:?}");
    assert!(!e.message.contains("old_string"), "{e:?}");
    // The only detail is the reference server's own words for the text block (`said`).
    let said = e.details.as_ref().unwrap();
    assert_eq!(said.keys().collect::<Vec<_>>(), ["said"], "{e:?}");
    assert_eq!(said["said"], "Could not find exact match for edit:\nthree");
    // The reference replaces the first of several occurrences: no refusal to word.
    at.present(
        "edit_file",
        json!({"path": p(&root, "twice.txt"), "edits": [{"oldText": "x", "newText": "y"}]}),
    )
    .unwrap();
    let (_t, root, at) = setup(Profile::GeminiCli);
    let e = at
        .present(
            "replace",
            json!({"file_path": p(&root, "twice.txt"), "old_string": "x", "new_string": "y"}),
        )
        .unwrap_err();
    assert!(e.message.contains("allow_multiple"), "{e:?}");
    assert!(!e.message.contains("replace_all"), "{e:?}");
    let e = at
        .present("read_file", json!({"file_path": p(&root, "")}))
        .unwrap_err();
    assert!(!e.message.contains("list_dir "), "{e:?}");
    let e = at
        .present(
            "grep_search",
            json!({"pattern": "a(", "dir_path": p(&root, "")}),
        )
        .unwrap_err();
    assert!(e.details.is_none() && !e.message.contains('{'), "{e:?}");
}

/// `patterns` alone is a search (the first becomes `pattern`).
#[test]
fn patterns_without_pattern() {
    let (_t, root, at) = setup(Profile::Rootbound);
    let r = at
        .call_result(
            "grep_search",
            json!({"patterns": ["two", "nothing"], "path": p(&root, "nonl.txt")}),
        )
        .unwrap();
    assert_eq!(r["match_lines"], 1, "{r}");
    let e = at
        .call_result("grep_search", json!({"path": p(&root, "nonl.txt")}))
        .unwrap_err();
    assert!(e.message.contains("pattern"), "{e:?}");
    let schema = &at
        .tools()
        .into_iter()
        .find(|t| t.name == "grep_search")
        .unwrap()
        .input_schema;
    assert!(!schema["required"].to_string().contains("\"pattern\""));
}

/// A document whose extraction fails says so in every dialect's read tools, never "" or "empty
/// file": claude-code Read, gemini-cli read_file and read_many_files, mcp-filesystem
/// read_text_file, codex read_file, and the native read_file (text and result) and
/// read_many_files (the file's `notice`).
#[test]
fn failed_extraction_is_said() {
    let pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage garbage\n%%EOF\n";
    let said = "[text extraction failed (malformed: ";
    for (profile, tool) in [
        (Profile::ClaudeCode, "Read"),
        (Profile::GeminiCli, "read_file"),
        (Profile::GeminiCli, "read_many_files"),
        (Profile::McpFilesystem, "read_text_file"),
        (Profile::Codex, "read_file"),
        (Profile::Rootbound, "read_file"),
    ] {
        let (_t, root, at) = setup(profile);
        std::fs::write(root.join("bad.pdf"), pdf).unwrap();
        let f = p(&root, "bad.pdf");
        let args = match (profile, tool) {
            (Profile::GeminiCli, "read_many_files") => json!({"include": ["bad.pdf"]}),
            (Profile::McpFilesystem, _) | (Profile::Rootbound, _) => json!({"path": f}),
            _ => json!({"file_path": f}),
        };
        let out = at.present(tool, args).unwrap().text();
        assert!(out.contains(said), "{profile} {tool}: {out:?}");
        assert!(
            out.contains("no text could be extracted from this pdf file"),
            "{profile} {tool}: {out:?}"
        );
        assert!(!out.contains("empty"), "{profile} {tool}: {out:?}");
    }
    let (_t, root, at) = setup(Profile::Rootbound);
    std::fs::write(root.join("bad.pdf"), pdf).unwrap();
    let r = at
        .call_result("read_many_files", json!({"paths": ["bad.pdf"]}))
        .unwrap();
    let notice = r["files"][0]["notice"].as_str().unwrap_or_default();
    assert!(notice.starts_with(said), "{r}");
}

/// The codex dialect: Codex CLI's read_file (`L{n}: ` lines), list_dir (indented, `/` for
/// directories, 1-based offset) and grep_files (matching paths, newest first).
#[test]
fn codex_dialect() {
    let (_t, root, at) = setup(Profile::Codex);
    let names: Vec<_> = at.profile_tools().iter().map(|t| t.name).collect();
    assert_eq!(names, ["read_file", "list_dir", "grep_files"]);
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/inner.txt"), "two\n").unwrap();
    let out = at
        .present(
            "read_file",
            json!({"file_path": p(&root, "nonl.txt"), "offset": 2}),
        )
        .unwrap();
    assert_eq!(out.text(), "L2: two");
    let e = at
        .present(
            "read_file",
            json!({"file_path": p(&root, "nonl.txt"), "offset": 9}),
        )
        .unwrap_err();
    assert!(e.message.contains("offset exceeds file length"), "{e:?}");
    let out = at
        .present("list_dir", json!({"dir_path": p(&root, "")}))
        .unwrap();
    let want = format!(
        "Absolute path: {}\nnonl.txt\nsub/\n  inner.txt\ntwice.txt",
        root.display()
    );
    assert_eq!(out.text(), want);
    let out = at
        .present(
            "list_dir",
            json!({"dir_path": p(&root, ""), "offset": 2, "limit": 1, "depth": 1}),
        )
        .unwrap();
    assert!(
        out.text().ends_with("\nsub/\nMore than 1 entries found"),
        "{}",
        out.text()
    );
    // Newest first.
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(root.join("nonl.txt"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let out = at
        .present(
            "grep_files",
            json!({"pattern": "two", "path": p(&root, "")}),
        )
        .unwrap();
    let text = out.text();
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got, [p(&root, "sub/inner.txt"), p(&root, "nonl.txt")]);
    let out = at.present("grep_files", json!({"pattern": "zzz"})).unwrap();
    assert_eq!(out.text(), "No matches found.");
}

/// Gemini-cli's replace as Gemini CLI's edit tool (edit.ts at 5411f113): the exact
/// text first, then its "flexible" match (lines compared trimmed, the replacement re-indented as the
/// block found), and its error texts.
#[test]
fn gemini_replace_is_whitespace_tolerant_as_gemini_cli() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "main.rs");
    std::fs::write(&f, "fn main() {\n    let x = 1;\n    let y = 2;\n}\n").unwrap();
    let out = at
        .present(
            "replace",
            json!({"file_path": f, "old_string": "let x = 1;\n  let y = 2;", "new_string": "let x = 10;\n    if x > 1 {}"}),
        )
        .unwrap();
    assert_eq!(
        out.text(),
        format!("Successfully modified file: {f} (1 replacements).")
    );
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        "fn main() {\n    let x = 10;\n        if x > 1 {}\n}\n"
    );
    // Two blocks: one is expected unless allow_multiple.
    std::fs::write(&f, "  a\n  b\nc\n\ta\n\tb\n").unwrap();
    let e = at
        .present(
            "replace",
            json!({"file_path": f, "old_string": "a\nb", "new_string": "z"}),
        )
        .unwrap_err();
    assert_eq!(
        e.message,
        format!(
            "Failed to edit, Expected 1 occurrence but found 2 for old_string in file: {f}. If you \
             intended to replace multiple occurrences, set 'allow_multiple' to true."
        )
    );
    let out = at
        .present(
            "replace",
            json!({"file_path": f, "old_string": "a\nb", "new_string": "z", "allow_multiple": true}),
        )
        .unwrap();
    assert_eq!(
        out.text(),
        format!("Successfully modified file: {f} (2 replacements).")
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "  z\nc\n\tz\n");
    // The exact text found twice, and nothing found: Gemini CLI's words.
    let twice = p(&root, "twice.txt");
    let e = at
        .present(
            "replace",
            json!({"file_path": twice, "old_string": "x", "new_string": "y"}),
        )
        .unwrap_err();
    assert_eq!(
        e.message,
        format!(
            "Failed to edit, Expected 1 occurrence but found 2 for old_string in file: {twice}. If you \
             intended to replace multiple occurrences, set 'allow_multiple' to true."
        )
    );
    let e = at
        .present(
            "replace",
            json!({"file_path": twice, "old_string": "nothing like it", "new_string": "y"}),
        )
        .unwrap_err();
    assert!(
        e.message.starts_with(&format!(
            "Failed to edit, 0 occurrences found for old_string in {twice}. Ensure you're not escaping \
             content incorrectly and check whitespace, indentation, and context. Use read_file tool to \
             verify."
        )),
        "{e:?}"
    );
    assert_eq!(std::fs::read_to_string(&twice).unwrap(), "x\nx\n");
}
