//! Gemini CLI's own tool tests, measured against `--profile gemini-cli`: the cases that found a
//! difference, each ported here with the fix that closed it (see docs/dialects.md, "## gemini-cli",
//! "Gemini CLI's tool tests").
//!
//! The count (2026-12-06), against google-gemini/gemini-cli 5411f113
//! `packages/core/src/tools/{read-file,read-many-files,ripGrep,grep,glob,ls,edit,write-file}.test.ts`
//! and `omissionPlaceholderDetector.test.ts` (the placeholder rule edit and write-file share): each
//! `it` and each row of an `it.each` counted once. A case is "n/a" when what it asserts has no
//! input or output a model sees through MCP (mocks of internals such as FileDiscoveryService or
//! fs errors injected by `vi.spyOn`, the confirmation and IDE diff flow, LLM self-correction,
//! telemetry, JIT context, `getDescription`'s UI text, ripgrep binary resolution, the null and
//! new-file branches of edit's `applyReplacement` helper, the mtime-sort helper's unit cases,
//! schemas per model family, plan mode and the project temp directory). Of the others,
//! "same" means the same outcome for the same files and call (paths, lines, matches, refusals; an
//! error counts as the same when it is refused for the same reason, in rootbound's stable-code
//! form), "differs" means a model would see another outcome; each "differs" is listed in
//! docs/dialects.md with its reason.
//!
//! | file | cases | same | differs | n/a |
//! |---|---|---|---|---|
//! | read-file.test.ts | 37 | 22 | 2 | 13 |
//! | read-many-files.test.ts | 34 | 25 | 2 | 7 |
//! | ripGrep.test.ts (13 `it.each` rows) | 70 | 37 | 2 | 31 |
//! | grep.test.ts (the fallback used without rg) | 33 | 21 | 3 | 9 |
//! | glob.test.ts | 37 | 29 | 1 | 7 |
//! | ls.test.ts | 23 | 17 | 0 | 6 |
//! | edit.test.ts (24 `it.each` rows) | 66 | 43 | 4 | 19 |
//! | write-file.test.ts (7 `it.each` rows) | 46 | 17 | 0 | 29 |
//! | omissionPlaceholderDetector.test.ts | 6 | 6 | 0 | 0 |
//! | total | 352 | 217 | 14 | 121 |
//!
//! The 14 that differ, by reason (each a line of docs/dialects.md): PDFs are read as their text,
//! not returned as inline data (3: read-file 1, read-many-files 2); grep_search searches every
//! root without `dir_path` (ripGrep 1), cuts long lines at the server's `max_columns` (ripGrep,
//! grep), follows ripGrep where the fallback differs (grep: a file as the path, a `..name` hidden
//! file); replace's regex and fuzzy strategies (edit 4); `"true"` accepted for a boolean (glob 1);
//! `end_line: 0` is "not set", by the zero rule for strict-mode clients (read-file 1).
//! Classified by reading each case against the profile; the cases ported below run, the others
//! were judged from their assertions. The limit set for this port (at most 15) is met.
//!
//! Cases that differed before this file and are now the same (ported below): omission
//! placeholders (edit 2, write-file 2, the detector's 4), a file over 20 MB and an
//! SVG over 1 MB (read-file), the 2,000-line cut with its warning, default excludes and unrequested
//! PDFs (read-many-files), .gitignore, patterns relative to `dir_path`, a blank pattern and a file
//! as `dir_path` (glob), NUL bytes in replace's path (edit 2); `.geminiignore` (read-file 2,
//! read-many-files, ripGrep, glob, ls), images as inline data (read-file, read-many-files 2),
//! write_file's "Here is the updated code" snippet (write-file 2) and glob's modification-time
//! order (glob).

use rootbound::config::AgentTools;
use rootbound::{Block, ErrorCode, Profile, Sandbox, WritePolicy};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn setup(profile: Profile) -> (tempfile::TempDir, PathBuf, AgentTools) {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let mut w = WritePolicy::new(&root);
    w.allow_overwrite = true;
    let sb = Sandbox::builder().root(&root).write(w).build().unwrap();
    (
        tmp,
        root.clone(),
        AgentTools::from_sandbox(sb).with_profile(profile),
    )
}

fn p(root: &Path, name: &str) -> String {
    root.join(name).to_string_lossy().into_owned()
}

fn text(at: &AgentTools, tool: &str, args: Value) -> String {
    at.present(tool, args).unwrap().text()
}

fn refused(at: &AgentTools, tool: &str, args: Value) -> (ErrorCode, String) {
    let e = at.present(tool, args).unwrap_err();
    (e.code, e.message)
}

/// edit.test.ts "should reject omission placeholder in new_string when old_string does not contain
/// that placeholder", "... an additional placeholder not present in old_string", "should allow
/// omission placeholders when all are already present in old_string", "should allow normal code
/// that contains placeholder text in a string literal".
#[test]
fn replace_refuses_omission_placeholders() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "a.ts");
    std::fs::write(&f, "class A {\n  (rest of methods ...)\n  run() {}\n}\n").unwrap();
    let want =
        "`new_string` contains an omission placeholder (for example 'rest of methods ...'). \
                Provide exact literal replacement text.";
    for new in [
        "  run() {}\n  (rest of code ...)",
        "  (rest of methods ...)\n  // unchanged code ...",
    ] {
        let args = json!({"file_path": f, "old_string": "  run() {}", "new_string": new});
        let (code, msg) = refused(&at, "replace", args);
        assert_eq!((code, msg.as_str()), (ErrorCode::InvalidArgument, want));
    }
    assert!(std::fs::read_to_string(&f)
        .unwrap()
        .contains("  run() {}\n}"));
    // A placeholder already in old_string may stay; one inside a string literal is code.
    let args = json!({"file_path": f, "old_string": "  (rest of methods ...)\n  run() {}",
        "new_string": "  (rest of methods ...)\n  go() {}"});
    assert!(text(&at, "replace", args).starts_with("Successfully modified file"));
    let args = json!({"file_path": f, "old_string": "  go() {}",
        "new_string": "  go() { log(\"(rest of methods ...)\") }"});
    assert!(text(&at, "replace", args).starts_with("Successfully modified file"));
}

/// write-file.test.ts "should throw an error if content includes an omission placeholder", "...
/// when multiline content includes omission placeholders", "should allow content with placeholder
/// text in a normal string literal".
#[test]
fn write_file_refuses_omission_placeholders() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "w.ts");
    let want = "`content` contains an omission placeholder (for example 'rest of methods ...'). \
                Provide complete file content.";
    for content in [
        "(rest of methods ...)",
        "class A {\n  run() {}\n  // rest of code ...\n}\n",
    ] {
        let (code, msg) = refused(
            &at,
            "write_file",
            json!({"file_path": f, "content": content}),
        );
        assert_eq!((code, msg.as_str()), (ErrorCode::InvalidArgument, want));
        assert!(!Path::new(&f).exists());
    }
    let ok = "const note = \"(rest of methods ...)\";\n";
    let out = text(&at, "write_file", json!({"file_path": f, "content": ok}));
    assert!(out.starts_with("Successfully created"), "{out}");
}

/// read-file.test.ts "should return error for a file that is too large": over 20 MB is refused
/// (a sparse file: nothing is written but its length).
#[test]
fn read_file_refuses_files_over_20_mb() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "large.txt");
    let file = std::fs::File::create(&f).unwrap();
    file.set_len(21 * 1024 * 1024).unwrap();
    let (code, msg) = refused(&at, "read_file", json!({"file_path": f}));
    assert_eq!(code, ErrorCode::TooLarge);
    assert!(msg.contains("File size exceeds the 20MB limit"), "{msg}");
    // At the limit it is read.
    file.set_len(20 * 1024 * 1024).unwrap();
    assert!(at.present("read_file", json!({"file_path": f})).is_ok());
}

/// read-many-files.test.ts "should add a warning for truncated files": each file is cut at 2,000
/// lines, with Gemini CLI's warning before it; a file within them has none.
#[test]
fn read_many_files_cuts_each_file_at_2000_lines() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join("file1.txt"), "Content1").unwrap();
    let long: Vec<String> = (0..2500).map(|i| format!("L{i}")).collect();
    std::fs::write(root.join("large-file.txt"), long.join("\n")).unwrap();
    let out = text(&at, "read_many_files", json!({"include": ["*.txt"]}));
    let warning =
        "[WARNING: This file was truncated. To view the full content, use the 'read_file' \
                   tool on this specific file.]";
    // Files come in path order: file1.txt, then large-file.txt.
    let (normal, large) = out
        .split_once(&format!("--- {} ---", p(&root, "large-file.txt")))
        .unwrap();
    assert!(normal.contains("Content1"), "{normal}");
    assert!(!normal.contains(warning), "{normal}");
    assert!(large.contains(warning), "{large}");
    assert!(
        large.contains("\nL1999\n") && !large.contains("L2000"),
        "{large}"
    );
    // Gemini CLI's answer when nothing is read.
    let out = text(&at, "read_many_files", json!({"include": ["*.none"]}));
    assert_eq!(
        out,
        "No files matching the criteria were found or all were skipped."
    );
}

/// glob.test.ts "should respect .gitignore files by default", "should not respect .gitignore when
/// respect_git_ignore is false", "should find files in a specified relative path" and "... using a
/// pattern that includes a subdirectory": ignored files are left out unless asked for, a pattern
/// is relative to `dir_path` (a name without `/` matches in that directory only, as minimatch),
/// dot files match, and `.git` and `node_modules` are never looked in.
#[test]
fn glob_respects_gitignore_and_dir_path() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("sub/deep")).unwrap();
    std::fs::create_dir_all(root.join("node_modules/m")).unwrap();
    std::fs::write(root.join(".gitignore"), "*.ignored.txt\n").unwrap();
    for f in [
        "a.txt",
        "a.ignored.txt",
        ".env.txt",
        "sub/c.txt",
        "sub/deep/e.txt",
        "node_modules/m/n.txt",
        ".git/g.txt",
    ] {
        std::fs::write(root.join(f), "x").unwrap();
    }
    // Sorted here: the files are all new, so glob lists them newest first (the order is the
    // subject of glob_lists_recent_files_newest_first).
    let found = |args: Value| -> Vec<String> {
        let out = text(&at, "glob", args);
        let mut v: Vec<String> = out
            .lines()
            .skip(1)
            .map(|l| {
                l.strip_prefix(&format!("{}/", root.display()))
                    .unwrap_or(l)
                    .to_string()
            })
            .collect();
        v.sort();
        v
    };
    let d = root.to_string_lossy().into_owned();
    assert_eq!(
        found(json!({"pattern": "*.txt", "dir_path": d})),
        [".env.txt", "a.txt"]
    );
    assert_eq!(
        found(json!({"pattern": "*.txt", "dir_path": d, "respect_git_ignore": false})),
        [".env.txt", "a.ignored.txt", "a.txt"]
    );
    assert_eq!(
        found(json!({"pattern": "**/*.TXT", "dir_path": d, "case_sensitive": false})),
        [".env.txt", "a.txt", "sub/c.txt", "sub/deep/e.txt"]
    );
    assert_eq!(
        found(json!({"pattern": "*.txt", "dir_path": p(&root, "sub")})),
        ["sub/c.txt"]
    );
    assert_eq!(
        found(json!({"pattern": "deep/*.txt", "dir_path": p(&root, "sub")})),
        ["sub/deep/e.txt"]
    );
    assert_eq!(found(json!({"pattern": "sub/*.txt"})), ["sub/c.txt"]);
}

/// read-file.test.ts "should throw error if start_line is less than 1": the schema says minimum
/// 1, so a 0 is the client's error, refused in Gemini CLI's words. A DIFFERENCE (docs/dialects.md,
/// the zero rule): `end_line`, `total_max_matches` and `max_matches_per_file` of 0 mean "not set"
/// (Gemini refuses them), because a strict-mode client must send every field and sends 0 for the
/// ones it leaves unset; their schemas admit 0 and say so.
#[test]
fn zero_is_refused_where_the_schema_says_minimum_1() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "a.txt");
    std::fs::write(&f, "one\ntwo\n").unwrap();
    let (code, msg) = refused(&at, "read_file", json!({"file_path": f, "start_line": 0}));
    assert_eq!(
        (code, msg),
        (
            ErrorCode::InvalidArgument,
            "params/start_line must be >= 1".to_string()
        )
    );
    for (tool, unset, zero) in [
        (
            "read_file",
            json!({"file_path": f}),
            json!({"file_path": f, "end_line": 0}),
        ),
        (
            "grep_search",
            json!({"pattern": "one"}),
            json!({"pattern": "one", "total_max_matches": 0, "max_matches_per_file": 0}),
        ),
    ] {
        let want = at.present(tool, unset).unwrap().text();
        assert_eq!(at.present(tool, zero).unwrap().text(), want, "{tool}");
    }
    let (_, msg) = refused(
        &at,
        "read_file",
        json!({"file_path": f, "start_line": 2, "end_line": 1}),
    );
    assert_eq!(msg, "start_line cannot be greater than end_line");
    for tool in at.profile_tools() {
        for (field, min) in [
            ("start_line", 1),
            ("end_line", 0),
            ("total_max_matches", 0),
            ("max_matches_per_file", 0),
        ] {
            if let Some(s) = tool.input_schema["properties"].get(field) {
                assert_eq!(s["minimum"], min, "{} {field}", tool.name);
            }
        }
    }
    // context: 0 is "not set" (the schema admits 0): the auto-context stays.
    let out = text(&at, "grep_search", json!({"pattern": "one", "context": 0}));
    assert!(out.contains("two"), "{out}");
}

/// glob.test.ts "should return error if pattern is only whitespace" and "... if specified search
/// path is not a directory".
#[test]
fn glob_refuses_a_blank_pattern_and_a_file_as_dir_path() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join("a.txt"), "x").unwrap();
    let (code, msg) = refused(&at, "glob", json!({"pattern": "   "}));
    assert_eq!(
        (code, msg.as_str()),
        (
            ErrorCode::InvalidArgument,
            "The 'pattern' parameter cannot be empty."
        )
    );
    let f = p(&root, "a.txt");
    let (code, msg) = refused(&at, "glob", json!({"pattern": "*", "dir_path": f}));
    assert_eq!(
        (code, msg),
        (
            ErrorCode::NotAFile,
            format!("Search path is not a directory: {f}")
        )
    );
}

/// read-many-files.test.ts "should use default excludes", "should NOT use default excludes if
/// useDefaultExcludes is false", "should skip PDF files if not explicitly requested by extension
/// or name".
#[test]
fn read_many_files_default_excludes_and_unrequested_pdfs() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::create_dir_all(root.join("node_modules/some-lib")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("node_modules/some-lib/index.js"), "lib code").unwrap();
    std::fs::write(root.join("src/app.js"), "app code").unwrap();
    let out = text(&at, "read_many_files", json!({"include": ["**/*.js"]}));
    assert_eq!(
        out,
        format!(
            "--- {} ---\n\napp code\n\n--- End of content ---",
            p(&root, "src/app.js")
        )
    );
    let out = text(
        &at,
        "read_many_files",
        json!({"include": ["**/*.js"], "useDefaultExcludes": false}),
    );
    assert!(
        out.contains("lib code") && out.contains("app code"),
        "{out}"
    );
    std::fs::write(root.join("document.pdf"), "%PDF-1.4...").unwrap();
    std::fs::write(root.join("notes.txt"), "text notes").unwrap();
    let out = text(&at, "read_many_files", json!({"include": ["*"]}));
    assert!(out.contains("text notes"), "{out}");
    assert!(
        out.contains("document.pdf: asset file (image/pdf/audio) was not explicitly requested"),
        "{out}"
    );
    let out = text(&at, "read_many_files", json!({"include": ["*.pdf"]}));
    assert!(!out.contains("not explicitly requested"), "{out}");
}

/// read-file.test.ts "should handle large SVG file": an SVG over 1 MB is not shown.
#[test]
fn read_file_does_not_show_an_svg_over_1_mb() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "large.svg");
    std::fs::write(&f, format!("<svg>{}</svg>", "x".repeat(1024 * 1024))).unwrap();
    let out = text(&at, "read_file", json!({"file_path": f}));
    assert_eq!(
        out,
        "Cannot display content of SVG file larger than 1MB: large.svg"
    );
    std::fs::write(&f, "<svg></svg>").unwrap();
    assert_eq!(
        text(&at, "read_file", json!({"file_path": f})),
        "<svg></svg>"
    );
}

/// edit.test.ts "should sanitize null bytes in absolute path during validation" (and "...
/// during invocation setup"): NUL bytes in replace's file_path are dropped, then the gate decides.
#[test]
fn replace_drops_nul_bytes_from_the_path() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join("a.txt"), "old\n").unwrap();
    let f = format!("{}/a\0.txt", root.display());
    let out = text(
        &at,
        "replace",
        json!({"file_path": f, "old_string": "old", "new_string": "new"}),
    );
    assert!(out.starts_with("Successfully modified file"), "{out}");
    assert_eq!(
        std::fs::read_to_string(root.join("a.txt")).unwrap(),
        "new\n"
    );
}

/// A file's modification time set `secs` seconds into the past.
fn age_file(path: &Path, secs: u64) {
    let t = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// read-file.test.ts "with .geminiignore": "should throw error if path is ignored by a
/// .geminiignore pattern", "should throw error if file is in an ignored directory", "should allow
/// reading non-ignored files".
#[test]
fn read_file_refuses_what_geminiignore_names() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join(".geminiignore"), "foo.*\nignored/").unwrap();
    std::fs::create_dir_all(root.join("ignored")).unwrap();
    for f in ["foo.bar", "ignored/file.txt", "allowed.txt"] {
        std::fs::write(root.join(f), "content").unwrap();
    }
    for f in ["foo.bar", "ignored/file.txt"] {
        let path = p(&root, f);
        let (code, msg) = refused(&at, "read_file", json!({ "file_path": path }));
        assert_eq!(code, ErrorCode::InvalidArgument);
        assert_eq!(
            msg,
            format!("File path '{path}' is ignored by configured ignore patterns.")
        );
    }
    let path = p(&root, "allowed.txt");
    assert_eq!(
        text(&at, "read_file", json!({ "file_path": path })),
        "content"
    );
}

/// read-many-files.test.ts "should return error if path is ignored by a .geminiignore pattern"
/// (its config's .geminiignore names `foo.*`): the files it names are left out and counted.
#[test]
fn read_many_files_leaves_out_what_geminiignore_names() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join(".geminiignore"), "foo.*\n").unwrap();
    for f in ["foo.bar", "bar.ts", "foo.quux"] {
        std::fs::write(root.join(f), format!("in {f}")).unwrap();
    }
    let include = json!(["foo.bar", "bar.ts", "foo.quux"]);
    let out = text(&at, "read_many_files", json!({ "include": include }));
    assert!(out.contains("in bar.ts"), "{out}");
    assert!(!out.contains("in foo."), "{out}");
    assert!(
        out.contains("2 file(s): ignored by project ignore files"),
        "{out}"
    );
    // The same through a glob, whose walk reads .geminiignore.
    let out = text(&at, "read_many_files", json!({ "include": ["*"] }));
    assert!(
        out.contains("in bar.ts") && !out.contains("in foo."),
        "{out}"
    );
}

/// ripGrep.test.ts "should filter out files based on FileDiscoveryService even if ripgrep returns
/// them" (a .geminiignore naming `ignored.txt`).
#[test]
fn grep_search_leaves_out_what_geminiignore_names() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join(".geminiignore"), "ignored.txt").unwrap();
    std::fs::write(root.join("ignored.txt"), "should be ignored\n").unwrap();
    std::fs::write(root.join("allowed.txt"), "should be kept\n").unwrap();
    let out = text(&at, "grep_search", json!({"pattern": "should"}));
    assert!(out.contains("should be kept"), "{out}");
    assert!(!out.contains("ignored.txt"), "{out}");
    assert!(out.starts_with("Found 1 match"), "{out}");
}

/// glob.test.ts "should respect .geminiignore files by default", "should not respect
/// .geminiignore when respect_gemini_ignore is false".
#[test]
fn glob_respects_geminiignore_unless_told_not_to() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join(".geminiignore"), "gemini-ignored_test.txt").unwrap();
    std::fs::write(root.join("gemini-ignored_test.txt"), "content").unwrap();
    std::fs::write(root.join("visible_test.txt"), "content").unwrap();
    let out = text(&at, "glob", json!({"pattern": "*_test.txt"}));
    assert!(out.starts_with("Found 1 file(s)"), "{out}");
    assert!(
        out.contains("visible_test.txt") && !out.contains("gemini-ignored"),
        "{out}"
    );
    // Named literally, as Gemini's fallback for names with glob characters, it stays hidden.
    let out = text(&at, "glob", json!({"pattern": "gemini-ignored_test.txt"}));
    assert!(out.starts_with("No files found"), "{out}");
    let args = json!({"pattern": "gemini-ignored_test.txt", "respect_gemini_ignore": false});
    let out = text(&at, "glob", args);
    assert!(out.starts_with("Found 1 file(s)"), "{out}");
    assert!(out.contains("gemini-ignored_test.txt"), "{out}");
    // It only hides: its `!rule` does not bring back what .gitignore hides (Gemini CLI applies
    // the two filters one after the other).
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".gitignore"), "*.secret").unwrap();
    std::fs::write(root.join("keep.secret"), "x").unwrap();
    std::fs::write(root.join(".geminiignore"), "!keep.secret").unwrap();
    let out = text(&at, "glob", json!({"pattern": "*.secret"}));
    assert!(out.starts_with("No files found"), "{out}");
}

/// ls.test.ts "should respect geminiignore patterns".
#[test]
fn list_directory_respects_geminiignore() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    std::fs::write(root.join("file1.txt"), "content1").unwrap();
    std::fs::write(root.join("file2.log"), "content1").unwrap();
    std::fs::write(root.join(".geminiignore"), "*.log").unwrap();
    let d = root.to_string_lossy().into_owned();
    let out = text(&at, "list_directory", json!({ "dir_path": d }));
    assert!(out.contains("file1.txt"), "{out}");
    assert!(!out.contains("file2.log"), "{out}");
    assert!(out.ends_with("(1 ignored)"), "{out}");
    let args = json!({"dir_path": d, "file_filtering_options": {"respect_gemini_ignore": false}});
    assert!(text(&at, "list_directory", args).contains("file2.log"));
}

/// write-file.test.ts "should include the file content in llmContent", "should return only changed
/// lines plus context for large updates".
#[test]
fn write_file_returns_the_updated_code() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let f = p(&root, "content_check.txt");
    let content = "This is the content that should be returned.";
    let out = text(
        &at,
        "write_file",
        json!({"file_path": f, "content": content}),
    );
    assert_eq!(
        out,
        format!(
            "Successfully created and wrote to new file: {f}. Here is the updated code:\n{content}"
        )
    );
    let f = p(&root, "large_update.txt");
    let mut lines: Vec<String> = (1..=100).map(|i| format!("Line {i}")).collect();
    std::fs::write(&f, lines.join("\n")).unwrap();
    lines[50] = "Line 51 Modified".into();
    let out = text(
        &at,
        "write_file",
        json!({"file_path": f, "content": lines.join("\n")}),
    );
    assert!(out.starts_with(&format!(
        "Successfully overwrote file: {f}. Here is the updated code:\n"
    )));
    for want in ["Line 51 Modified", "Line 46", "Line 56", "..."] {
        assert!(out.contains(want), "{want}: {out}");
    }
    assert!(
        !out.contains("Line 1\n") && !out.contains("Line 100"),
        "{out}"
    );
}

/// glob.test.ts "should correctly sort files by modification time (newest first)", with Gemini's
/// `sortFileEntries` rule around it: files changed in the last day come first, newest first; older
/// ones follow by path.
#[test]
fn glob_lists_recent_files_newest_first() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    for (f, age) in [
        ("older.sortme", 7200),
        ("newer.sortme", 3600),
        ("b_old.sortme", 3 * 86400),
        ("a_old.sortme", 2 * 86400),
    ] {
        std::fs::write(root.join(f), f).unwrap();
        age_file(&root.join(f), age);
    }
    let out = text(&at, "glob", json!({"pattern": "*.sortme"}));
    let names: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "newer.sortme",
            "older.sortme",
            "a_old.sortme",
            "b_old.sortme"
        ],
        "{out}"
    );
    assert!(
        out.contains(", sorted by modification time (newest first):\n"),
        "{out}"
    );
}

/// read-file.test.ts "should handle image file and return appropriate content": the bytes as
/// inline data (over MCP an image block), and nothing else.
#[test]
fn read_file_returns_an_image_as_inline_data() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    std::fs::write(root.join("image.png"), png).unwrap();
    let r = at
        .present("read_file", json!({"file_path": p(&root, "image.png")}))
        .unwrap();
    assert_eq!(
        r.blocks,
        [Block::Image {
            data: "iVBORw0KGgo=".into(),
            mime_type: "image/png".into()
        }]
    );
    assert_eq!(r.structured["content"], "Read image file: image.png");
}

/// read-many-files.test.ts "should include images as inlineData parts if explicitly requested by
/// extension", "... by name": the image's block, then the closing text.
#[test]
fn read_many_files_returns_requested_images_as_inline_data() {
    let (_t, root, at) = setup(Profile::GeminiCli);
    let png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    for (name, include) in [
        ("image.png", "*.png"),
        ("myExactImage.png", "myExactImage.png"),
    ] {
        std::fs::write(root.join(name), png).unwrap();
        let r = at
            .present("read_many_files", json!({ "include": [include] }))
            .unwrap();
        assert_eq!(
            r.blocks,
            [
                Block::Image {
                    data: "iVBORw0KGgo=".into(),
                    mime_type: "image/png".into()
                },
                Block::Text("\n--- End of content ---".into())
            ]
        );
        std::fs::remove_file(root.join(name)).unwrap();
    }
}
