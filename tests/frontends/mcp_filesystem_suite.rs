//! The MCP reference filesystem server's own test suite (modelcontextprotocol/servers
//! `src/filesystem/__tests__/server-tools.test.ts`, plus the `~`, head/tail and empty-edit cases of
//! `lib.test.ts`, `path-utils.test.ts` and `tail-head-real-fs.test.ts`), ported to MCP calls against
//! `rootbound mcp --profile mcp-filesystem --root D --write-root D --allow-overwrite`.
//!
//! Each test is named after the reference case it ports (`describe` / `it`). A case whose expectation
//! is a deliberate difference asserts rootbound's documented behaviour instead, and says which line of
//! docs/dialects.md ("## mcp-filesystem", "Differences, and why") it is: search for `DIFFERENCE`.
//! Cases of the reference that test its internals through mocks (`vi.spyOn(fs, ...)`) or its SDK's
//! own schema rendering have no MCP-visible input and are not ported.
//!
//! The count (2026-12-06, second pass). Basis: `server-tools.test.ts` as the code index stores it
//! now, modelcontextprotocol/servers 801a2c3 (the only version it serves; the 03bc908 of the first
//! count is no longer served, and no snapshot of the repository holds the file: its history in the
//! mirror ends before the file exists). Rule: each `it` and each row of an `it.each` counted once,
//! `describe` blocks flattened: 93 cases, which is the issue's "93". The issue's "109 ported tests"
//! was not rebuilt: no version of the filesystem `__tests__` files in the mirror sums to 109 by this
//! rule (every commit there counts 140 to 166 over its seven files), and 93 plus the cases ported
//! from the other files (below) is not 109 either. Each case, by what its port asserts now:
//!
//! | | cases |
//! |---|---|
//! | the reference's outcome, its error text included | 75 |
//! | a documented difference (a `DIFFERENCE` line below, or as listed here) | 9 |
//! | not ported | 9 |
//!
//! The 75: the tool list, each tool's pinned annotations, structuredContent mirroring the text, an
//! unknown tool, schema-invalid arguments; read_text_file's 8; read_media_file's 11 `it.each` rows (the type by the extension,
//! an image or audio block), any other file as an embedded `resource`, the `resource` arm of its
//! output schema, and the directory's `EISDIR`; read_multiple_files' joined result (`ENOENT` and
//! `Access denied` inline) and its empty `paths`; write_file's new file, requested path, shorter
//! content, directory refusal and missing parent (`ENOENT`); edit_file's exact edit, dry run,
//! edits in order, the first of several occurrences, `$` patterns, no match (its `oldText`
//! quoted), widened fence, the 4 whitespace-tolerant matcher cases and no match beyond
//! whitespace; create_directory's 3; list_directory's 3; list_directory_with_sizes' name order,
//! size order and empty directory; directory_tree's whole tree, bare-name excludes, `*` excludes
//! against the relative path, the symlinked directory listed as a file and the outside root;
//! move_file's file, directory, existing destination, outside destination and missing source;
//! search_files' bare glob (top level only), `**` glob, matching directories (`**/deeper`),
//! excludes, no matches and the escaping symlink; get_file_info of a file (the reference's keys
//! in its order, created, accessed and permissions included; times in rootbound's RFC 3339, see
//! docs/dialects.md) and of a directory; list_allowed_directories; two servers.
//!
//! The 9 differences, and why each stays (docs/dialects.md, "Differences, and why"):
//! - kept by the threat model (6): write_file's and edit_file's inode, birthtime and mode (#4512)
//!   and hard link (2 + 2: writing through the existing inode writes into whatever else links to
//!   it, outside the roots included; rootbound renames a new file over the name, which is also
//!   what makes a failed write leave the old file); writing through a symlink to its target (an
//!   absolute target names the host's tree); a dangling symlink's size as `0 B` (metadata is never
//!   read through a link, which may lead out of the roots).
//! - kept by rootbound's edit rules (1): a CRLF file rewritten with LF (the reference's known bug
//!   #4991, fixed in its later suite: rootbound keeps line endings, on every kind of match).
//! - not closed (2): the pinned input schemas (`head`/`tail` integers, `list_allowed_directories`'
//!   `path`: every framework must convert every tool strictly, and the reference's shapes are
//!   what openai-agents' strict mode and google-genai 3.6.1 could not take); the `$schema` label
//!   (#4841: rootbound's schemas carry none, as a label is one more keyword for each framework's
//!   converter to meet; no guarantee is in the way).
//!
//! Not ported (9): the server name and version, its capabilities (rootbound also offers prompts
//! and resources), and 7 cases that reach the reference's internals through `vi.spyOn` mocks (a
//! rename failing with EPERM, twice; EIO on create; the lstat-then-swap TOCTOU pair; a non-Error
//! read failure; a destination lstat failure).
//!
//! So 75 of 93 give the reference's outcome: 75 of the 84 ported cases, 89.3% (the issue's bar, 97
//! of 109, is 89.0%).
//! Besides these, the port holds cases of `lib.test.ts`, `path-utils.test.ts` and
//! `tail-head-real-fs.test.ts` (`~`, head/tail on real files, an empty `oldText`, jsdiff's context),
//! side-by-side checks against the npm package, and rootbound's own checks of the error texts.

use crate::support::mcp::Mcp;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The server of one test: the shared stdio client with the calls the reference's tests make.
struct Srv(Mcp);

impl Srv {
    fn start(dir: &Path, home: Option<&Path>) -> Srv {
        let d = dir.to_str().unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
        cmd.args([
            "mcp",
            "--profile",
            "mcp-filesystem",
            "--root",
            d,
            "--write-root",
            d,
            "--allow-overwrite",
        ]);
        if let Some(h) = home {
            cmd.env("HOME", h);
        }
        let mut m = Mcp::spawn(cmd);
        m.initialize("reference-suite");
        Srv(m)
    }

    /// `tools/call`: the result (a JSON-RPC error becomes `{isError: true, content: [text]}`, as
    /// the reference's SDK client shows it).
    fn call(&mut self, name: &str, args: Value) -> Value {
        let r = self
            .0
            .rpc("tools/call", json!({"name": name, "arguments": args}));
        if let Some(e) = r.get("error") {
            return json!({"isError": true, "content": [{"type": "text", "text": e["message"]}]});
        }
        r["result"].clone()
    }

    fn text(&mut self, name: &str, args: Value) -> String {
        let r = self.call(name, args);
        assert_ne!(r["isError"], json!(true), "{name}: {r}");
        text_of(&r)
    }

    fn error(&mut self, name: &str, args: Value) -> String {
        let r = self.call(name, args);
        assert_eq!(r["isError"], json!(true), "{name} should fail: {r}");
        text_of(&r)
    }
}

fn text_of(r: &Value) -> String {
    r["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A fresh allowed directory (canonical, as the reference's tests use `fs.realpath` of a temp dir)
/// and a server on it.
fn setup() -> (tempfile::TempDir, PathBuf, Srv) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().canonicalize().unwrap();
    let s = Srv::start(&dir, None);
    (t, dir, s)
}

fn p(dir: &Path, rel: &str) -> String {
    dir.join(rel).to_str().unwrap().to_string()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

const TOOL_NAMES: [&str; 14] = [
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
];

// ---- server identity and tool list ----

#[test]
fn identity_lists_the_14_tools_in_registration_order() {
    let (_t, _dir, mut s) = setup();
    let r = s.0.rpc("tools/list", json!({}));
    let names: Vec<&str> = r["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, TOOL_NAMES);
}

#[test]
fn identity_pins_each_tools_title_and_read_only_hint() {
    let (_t, _dir, mut s) = setup();
    let r = s.0.rpc("tools/list", json!({}));
    let titles = [
        ("read_file", "Read File (Deprecated)", true),
        ("read_text_file", "Read Text File", true),
        ("read_media_file", "Read Media File", true),
        ("read_multiple_files", "Read Multiple Files", true),
        ("write_file", "Write File", false),
        ("edit_file", "Edit File", false),
        ("create_directory", "Create Directory", false),
        ("list_directory", "List Directory", true),
        (
            "list_directory_with_sizes",
            "List Directory with Sizes",
            true,
        ),
        ("directory_tree", "Directory Tree", true),
        ("move_file", "Move File", false),
        ("search_files", "Search Files", true),
        ("get_file_info", "Get File Info", true),
        ("list_allowed_directories", "List Allowed Directories", true),
    ];
    for (tool, (name, title, ro)) in r["result"]["tools"].as_array().unwrap().iter().zip(titles) {
        assert_eq!(tool["name"], name);
        assert_eq!(tool["title"], title, "{name}");
        assert_eq!(tool["annotations"]["readOnlyHint"], ro, "{name}");
    }
}

/// The pinned annotations, tool by tool as the reference registers them (index.ts): its read tools
/// say `readOnlyHint` and `openWorldHint` only; its write tools fix `idempotentHint` and
/// `destructiveHint` whatever the server's write policy (setup() allows overwriting; the same
/// values without `--allow-overwrite` are checked below).
#[test]
fn identity_pins_each_tools_annotations() {
    let reads = json!({"readOnlyHint": true, "openWorldHint": false});
    let write = |idem: bool, destr: bool| json!({"readOnlyHint": false, "idempotentHint": idem, "destructiveHint": destr, "openWorldHint": false});
    let expected = |name: &str| match name {
        "write_file" => write(true, true),
        "edit_file" => write(false, true),
        "create_directory" => write(true, false),
        "move_file" => write(false, true),
        _ => reads.clone(),
    };
    let (_t, dir, mut s) = setup();
    let mut m = Mcp::start(&[
        "mcp",
        "--profile",
        "mcp-filesystem",
        "--root",
        dir.to_str().unwrap(),
        "--write-root",
        dir.to_str().unwrap(),
    ]);
    m.initialize("reference-suite");
    let mut no_overwrite = Srv(m);
    for srv in [&mut s, &mut no_overwrite] {
        let r = srv.0.rpc("tools/list", json!({}));
        let tools = r["result"]["tools"].as_array().unwrap();
        assert_eq!(tools.len(), TOOL_NAMES.len());
        for tool in tools {
            let name = tool["name"].as_str().unwrap();
            assert_eq!(tool["annotations"], expected(name), "{name}");
        }
    }
}

/// `advertises no draft-07-only keyword under the 2020-12 label (#4841)`: no array-form `items`,
/// `additionalItems` or `definitions` anywhere in an input or output schema.
#[test]
fn identity_advertises_no_draft_07_only_keyword() {
    fn walk(node: &Value, at: &str, found: &mut Vec<String>) {
        match node {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{at}[{i}]"), found);
                }
            }
            Value::Object(map) => {
                for (key, value) in map {
                    if (key == "items" && value.is_array())
                        || key == "additionalItems"
                        || key == "definitions"
                    {
                        found.push(format!("{at}.{key}"));
                    }
                    walk(value, &format!("{at}.{key}"), found);
                }
            }
            _ => {}
        }
    }
    let (_t, _dir, mut s) = setup();
    let r = s.0.rpc("tools/list", json!({}));
    let mut found = Vec::new();
    for tool in r["result"]["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        walk(
            &tool["inputSchema"],
            &format!("{name}.inputSchema"),
            &mut found,
        );
        walk(
            &tool["outputSchema"],
            &format!("{name}.outputSchema"),
            &mut found,
        );
    }
    assert_eq!(found, Vec::<String>::new());
}

/// The output schemas say draft-07, as the reference's do, and a text tool's is one flat object
/// (`content`, or the error object of a failed call): the official Python SDK client checks the
/// schema against its dialect's metaschema on every call, and 2020-12's (no label) or an `anyOf`
/// with the error's code list made small calls slower than the reference's.
#[test]
fn output_schemas_say_draft_07_and_text_ones_are_flat() {
    let (_t, _dir, mut s) = setup();
    let r = s.0.rpc("tools/list", json!({}));
    for tool in r["result"]["tools"].as_array().unwrap() {
        let out = &tool["outputSchema"];
        assert_eq!(
            out["$schema"], "http://json-schema.org/draft-07/schema#",
            "{tool}"
        );
        let keys: Vec<&String> = out["properties"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["content", "error"], "{tool}");
        assert_eq!(out["properties"]["error"]["type"], "object", "{tool}");
        assert!(out.get("anyOf").is_none(), "{tool}");
        if tool["name"] != "read_media_file" {
            assert_eq!(out["properties"]["content"]["type"], "string", "{tool}");
            assert!(!out.to_string().contains("anyOf"), "{tool}");
        }
    }
}

#[test]
fn identity_returns_every_non_media_tools_structured_content_mirroring_the_text_block() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("a.txt"), "alpha").unwrap();
    let calls = [
        ("read_file", json!({"path": p(&dir, "a.txt")})),
        ("read_text_file", json!({"path": p(&dir, "a.txt")})),
        ("read_multiple_files", json!({"paths": [p(&dir, "a.txt")]})),
        (
            "write_file",
            json!({"path": p(&dir, "b.txt"), "content": "beta"}),
        ),
        (
            "edit_file",
            json!({"path": p(&dir, "b.txt"), "edits": [{"oldText": "beta", "newText": "gamma"}]}),
        ),
        ("create_directory", json!({"path": p(&dir, "sub")})),
        ("list_directory", json!({"path": p(&dir, "")})),
        ("list_directory_with_sizes", json!({"path": p(&dir, "")})),
        ("directory_tree", json!({"path": p(&dir, "")})),
        (
            "move_file",
            json!({"source": p(&dir, "b.txt"), "destination": p(&dir, "c.txt")}),
        ),
        (
            "search_files",
            json!({"path": p(&dir, ""), "pattern": "*.txt"}),
        ),
        ("get_file_info", json!({"path": p(&dir, "a.txt")})),
        ("list_allowed_directories", json!({})),
    ];
    for (name, args) in calls {
        let r = s.call(name, args);
        assert_ne!(r["isError"], json!(true), "{name}: {r}");
        assert_eq!(
            r["structuredContent"],
            json!({"content": text_of(&r)}),
            "{name}"
        );
    }
}

#[test]
fn identity_reports_an_unknown_tool_as_an_error() {
    let (_t, _dir, mut s) = setup();
    let e = s.error("no_such_tool", json!({}));
    assert_eq!(e, "MCP error -32602: Tool no_such_tool not found");
}

#[test]
fn identity_reports_schema_invalid_arguments_as_an_error() {
    let (_t, _dir, mut s) = setup();
    let e = s.error("read_text_file", json!({"path": 42}));
    assert!(
        e.starts_with(
            "MCP error -32602: Input validation error: Invalid arguments for tool read_text_file"
        ),
        "{e}"
    );
}

// ---- read_text_file and read_file ----

fn lines_file(dir: &Path) -> String {
    let f = p(dir, "lines.txt");
    std::fs::write(&f, "one\ntwo\nthree\nfour\n").unwrap();
    f
}

#[test]
fn read_text_file_returns_the_whole_file() {
    let (_t, dir, mut s) = setup();
    let f = lines_file(&dir);
    let r = s.call("read_text_file", json!({"path": f}));
    assert_eq!(
        r["content"],
        json!([{"type": "text", "text": "one\ntwo\nthree\nfour\n"}])
    );
    assert_eq!(
        r["structuredContent"],
        json!({"content": "one\ntwo\nthree\nfour\n"})
    );
}

#[test]
fn read_text_file_read_file_is_a_deprecated_alias_with_the_same_result() {
    let (_t, dir, mut s) = setup();
    let f = lines_file(&dir);
    let legacy = s.call("read_file", json!({"path": f, "head": 1}));
    let current = s.call("read_text_file", json!({"path": f, "head": 1}));
    assert_eq!(legacy, current);
    assert_eq!(text_of(&current), "one");
}

#[test]
fn read_text_file_returns_the_first_n_lines_with_head() {
    let (_t, dir, mut s) = setup();
    let f = lines_file(&dir);
    assert_eq!(
        s.text("read_text_file", json!({"path": f, "head": 2})),
        "one\ntwo"
    );
}

#[test]
fn read_text_file_returns_the_last_n_lines_with_tail_counting_the_trailing_newline_as_a_line() {
    let (_t, dir, mut s) = setup();
    let f = lines_file(&dir);
    assert_eq!(
        s.text("read_text_file", json!({"path": f, "tail": 2})),
        "four\n"
    );
}

#[test]
fn read_text_file_treats_head_0_as_absent_and_returns_the_whole_file() {
    let (_t, dir, mut s) = setup();
    let f = lines_file(&dir);
    assert_eq!(
        s.text("read_text_file", json!({"path": f, "head": 0})),
        "one\ntwo\nthree\nfour\n"
    );
}

#[test]
fn read_text_file_rejects_head_and_tail_together() {
    let (_t, dir, mut s) = setup();
    let f = lines_file(&dir);
    let e = s.error("read_text_file", json!({"path": f, "head": 1, "tail": 1}));
    assert_eq!(
        e,
        "Cannot specify both head and tail parameters simultaneously"
    );
}

#[test]
fn read_text_file_reports_a_missing_file_as_a_tool_error() {
    let (_t, dir, mut s) = setup();
    let e = s.error("read_text_file", json!({"path": p(&dir, "missing.txt")}));
    assert!(e.starts_with("ENOENT: no such file or directory"), "{e}");
}

#[test]
fn read_text_file_reads_an_empty_file_with_tail_as_empty_text() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("empty.txt"), "").unwrap();
    assert_eq!(
        s.text(
            "read_text_file",
            json!({"path": p(&dir, "empty.txt"), "tail": 3})
        ),
        ""
    );
}

// ---- tail-head-real-fs.test.ts / lib.test.ts (headFile, tailFile) ----

/// (file text, head or tail, N, the reference's answer), computed by the reference's `headFile` and
/// `tailFile` (lib.ts) on these inputs.
const HEAD_TAIL: &[(&str, &str, u64, &str)] = &[
    (
        "line1\nline2\nline3\nline4\nline5\n",
        "head",
        2,
        "line1\nline2",
    ),
    ("line1\nline2\nline3\nline4\nline5\n", "tail", 2, "line5\n"),
    (
        "line1\nline2\nline3\nline4\nline5\n",
        "tail",
        3,
        "line4\nline5\n",
    ),
    (
        "line1\nline2\nline3\nline4\nline5\n",
        "head",
        10,
        "line1\nline2\nline3\nline4\nline5",
    ),
    (
        "line1\nline2\nline3\nline4\nline5\n",
        "tail",
        10,
        "line1\nline2\nline3\nline4\nline5\n",
    ),
    ("line1\nline2\nline3", "head", 5, "line1\nline2\nline3"),
    ("line1\nline2\nline3", "tail", 1, "line3"),
    ("line1\nline2\nline3", "tail", 2, "line2\nline3"),
    ("a\n\n", "head", 5, "a\n"),
    ("a\n\n", "tail", 1, ""),
    ("a\r\nb\r\nc\r\n", "tail", 2, "c\n"),
    // headFile splits on "\n" only: a CRLF file's lines keep their "\r" (tailFile's do not).
    ("a\r\nb\r\nc\r\n", "head", 2, "a\r\nb\r"),
    ("a\r\nb\r\nc\r\n", "head", 5, "a\r\nb\r\nc\r"),
    ("", "head", 3, ""),
];

/// A UTF-16 file (byte order mark, LE and BE) read with `head` and `tail`: its decoded lines, as the
/// reference's line rules count them (its CRLF kept by `head`, read as LF by `tail`).
#[test]
fn read_text_file_serves_the_decoded_lines_of_a_utf16_file_with_head_and_tail() {
    let (_t, dir, mut s) = setup();
    let text = "één\r\ntwee\r\ndrie \u{1F600}\r\n";
    for (name, be) in [("le.txt", false), ("be.txt", true)] {
        let mut bytes = if be {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for u in text.encode_utf16() {
            bytes.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        std::fs::write(dir.join(name), bytes).unwrap();
        let f = p(&dir, name);
        assert_eq!(
            s.text("read_text_file", json!({"path": f, "head": 2})),
            "één\r\ntwee\r",
            "{name}"
        );
        assert_eq!(
            s.text("read_text_file", json!({"path": f, "tail": 2})),
            "drie \u{1F600}\n",
            "{name}"
        );
        assert_eq!(
            s.text("read_text_file", json!({"path": f, "tail": 9})),
            "één\ntwee\ndrie \u{1F600}\n",
            "{name}"
        );
    }
}

#[test]
fn tail_head_real_fs_returns_the_lines_the_reference_returns() {
    let (_t, dir, mut s) = setup();
    for (i, (body, mode, n, want)) in HEAD_TAIL.iter().enumerate() {
        let f = p(&dir, &format!("f{i}.txt"));
        std::fs::write(&f, body).unwrap();
        let got = s.text("read_text_file", json!({"path": f, *mode: n}));
        assert_eq!(&got, want, "{mode} {n} of {body:?}");
    }
}

#[test]
fn tail_head_real_fs_handles_a_file_larger_than_one_chunk() {
    let (_t, dir, mut s) = setup();
    let body: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
    let f = p(&dir, "big.txt");
    std::fs::write(&f, &body).unwrap();
    assert_eq!(
        s.text("read_text_file", json!({"path": f, "head": 3})),
        "line 1\nline 2\nline 3"
    );
    assert_eq!(
        s.text("read_text_file", json!({"path": f, "tail": 3})),
        "line 999\nline 1000\n"
    );
}

// ---- read_media_file ----

/// The bytes the reference's cases write to every media name: six bytes, not a valid file of any
/// of the formats (the type comes from the extension).
const MEDIA_BYTES: [u8; 6] = [0x89, 0x50, 0x4e, 0x47, 0x00, 0xff];

#[test]
fn read_media_file_returns_a_png_as_an_image_block() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("a.png"), MEDIA_BYTES).unwrap();
    let r = s.call("read_media_file", json!({"path": p(&dir, "a.png")}));
    assert_eq!(r["content"][0]["type"], "image", "{r}");
    assert_eq!(r["content"][0]["mimeType"], "image/png", "{r}");
    assert_eq!(r["content"][0]["data"], "iVBORwD/", "{r}");
    assert_eq!(r["structuredContent"]["content"], r["content"]);
}

/// The `it.each` rows besides `a.png`: the MIME type by the extension (any case), an image or audio
/// block by its kind, whatever the bytes.
#[test]
fn read_media_file_types_each_file_by_its_extension() {
    let (_t, dir, mut s) = setup();
    let rows = [
        ("a.jpg", "image", "image/jpeg"),
        ("a.jpeg", "image", "image/jpeg"),
        ("a.gif", "image", "image/gif"),
        ("a.webp", "image", "image/webp"),
        ("a.bmp", "image", "image/bmp"),
        ("a.svg", "image", "image/svg+xml"),
        ("a.mp3", "audio", "audio/mpeg"),
        ("a.wav", "audio", "audio/wav"),
        ("a.ogg", "audio", "audio/ogg"),
        ("A.FLAC", "audio", "audio/flac"),
    ];
    for (name, kind, mime) in rows {
        std::fs::write(dir.join(name), MEDIA_BYTES).unwrap();
        let r = s.call("read_media_file", json!({"path": p(&dir, name)}));
        assert_eq!(r["content"][0]["type"], kind, "{name}: {r}");
        assert_eq!(r["content"][0]["mimeType"], mime, "{name}: {r}");
        assert_eq!(r["content"][0]["data"], "iVBORwD/", "{name}: {r}");
        assert_eq!(r["structuredContent"]["content"], r["content"], "{name}");
    }
}

#[test]
fn read_media_file_returns_any_other_file_as_an_embedded_resource() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("my café.bin"), [0u8, 1, 0xfe, 0xff]).unwrap();
    let r = s.call("read_media_file", json!({"path": p(&dir, "my café.bin")}));
    let url = format!("file://{}/my%20caf%C3%A9.bin", dir.to_str().unwrap());
    assert_eq!(
        r["content"],
        json!([{"type": "resource", "resource":
            {"uri": url, "mimeType": "application/octet-stream", "blob": "AAH+/w=="}}]),
        "{r}"
    );
    assert_eq!(r["structuredContent"]["content"], r["content"]);
    // The output schema has the reference's `resource` arm.
    let list = s.0.rpc("tools/list", json!({}));
    let tool = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "read_media_file")
        .unwrap()
        .clone();
    let arms = tool["outputSchema"]["properties"]["content"]["items"]["anyOf"].clone();
    assert_eq!(
        arms[1]["properties"]["type"]["enum"],
        json!(["resource"]),
        "{tool}"
    );
}

#[test]
fn read_media_file_reports_a_read_failure_a_directory_as_a_tool_error() {
    let (_t, dir, mut s) = setup();
    std::fs::create_dir(dir.join("folder.png")).unwrap();
    let e = s.error("read_media_file", json!({"path": p(&dir, "folder.png")}));
    assert!(e.starts_with("EISDIR"), "{e}");
}

// ---- read_multiple_files ----

#[test]
fn read_multiple_files_joins_each_files_content_with_its_path_and_reports_per_file_failures_inline()
{
    let (_t, dir, mut s) = setup();
    let (a, b, missing) = (p(&dir, "a.txt"), p(&dir, "b.txt"), p(&dir, "missing.txt"));
    std::fs::write(&a, "alpha").unwrap();
    std::fs::write(&b, "beta").unwrap();
    let text = s.text(
        "read_multiple_files",
        json!({"paths": [a, missing, b, "/etc/hostname"]}),
    );
    let parts: Vec<&str> = text.split("\n---\n").collect();
    assert_eq!(parts.len(), 4, "{text}");
    assert_eq!(parts[0], format!("{a}:\nalpha\n"));
    assert!(
        parts[1].starts_with(&format!("{missing}: Error - ENOENT")),
        "{text}"
    );
    assert_eq!(parts[2], format!("{b}:\nbeta\n"));
    assert_eq!(
        parts[3],
        format!(
            "/etc/hostname: Error - Access denied - path outside allowed directories: /etc/hostname not in {}",
            dir.display()
        )
    );
}

#[test]
fn read_multiple_files_rejects_an_empty_paths_array() {
    let (_t, _dir, mut s) = setup();
    let e = s.error("read_multiple_files", json!({"paths": []}));
    assert!(
        e.starts_with("MCP error -32602: Input validation error"),
        "{e}"
    );
}

// ---- write_file ----

#[test]
fn write_file_creates_a_new_file() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "new.txt");
    let r = s.call("write_file", json!({"path": f, "content": "hello"}));
    let want = format!("Successfully wrote to {f}");
    assert_eq!(r["content"], json!([{"type": "text", "text": want}]));
    assert_eq!(r["structuredContent"], json!({"content": want}));
    assert_eq!(read(&f), "hello");
}

#[test]
fn write_file_echoes_the_requested_path_not_the_resolved_one() {
    let (_t, dir, mut s) = setup();
    assert_eq!(
        s.text(
            "write_file",
            json!({"path": "relative.txt", "content": "x"})
        ),
        "Successfully wrote to relative.txt"
    );
    assert_eq!(read(&p(&dir, "relative.txt")), "x");
}

#[test]
fn write_file_truncates_the_old_content_when_the_new_content_is_shorter() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "existing.txt");
    std::fs::write(&f, "a much longer original").unwrap();
    s.text("write_file", json!({"path": f, "content": "short"}));
    assert_eq!(read(&f), "short");
}

#[test]
fn write_file_refuses_to_overwrite_a_directory() {
    let (_t, dir, mut s) = setup();
    std::fs::create_dir(dir.join("sub")).unwrap();
    let e = s.error(
        "write_file",
        json!({"path": p(&dir, "sub"), "content": "x"}),
    );
    assert_eq!(
        e,
        format!("Refusing to write: not a regular file: {}", p(&dir, "sub"))
    );
    assert!(dir.join("sub").is_dir());
}

#[test]
fn write_file_reports_a_missing_parent_directory() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "no/such/file.txt");
    let e = s.error("write_file", json!({"path": f, "content": "x"}));
    assert!(e.starts_with("ENOENT: no such file or directory"), "{e}");
    assert!(!dir.join("no").exists());
}

// ---- edit_file ----

const CODE: &str = "function greet() {\n  console.log('hi');\n  return 1;\n}\n";

fn code_file(dir: &Path) -> String {
    let f = p(dir, "code.ts");
    std::fs::write(&f, CODE).unwrap();
    f
}

#[test]
fn edit_file_applies_an_exact_edit_and_returns_a_fenced_unified_diff() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 1;", "newText": "return 2;"}]}),
    );
    let want = format!(
        "```diff\nIndex: {f}\n===================================================================\n\
         --- {f}\toriginal\n+++ {f}\tmodified\n@@ -1,4 +1,4 @@\n function greet() {{\n   \
         console.log('hi');\n-  return 1;\n+  return 2;\n }}\n```\n\n"
    );
    assert_eq!(got, want);
    assert!(read(&f).contains("return 2;"));
}

#[test]
fn edit_file_leaves_the_file_alone_on_a_dry_run() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 1;", "newText": "return 2;"}], "dryRun": true}),
    );
    assert!(got.contains("+  return 2;"), "{got}");
    assert!(got.starts_with(&format!("```diff\nIndex: {f}\n")), "{got}");
    assert_eq!(read(&f), CODE);
}

#[test]
fn edit_file_applies_several_edits_in_order_each_against_the_previous_result() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    s.text(
        "edit_file",
        json!({"path": f, "edits": [
            {"oldText": "return 1;", "newText": "return 2;"},
            {"oldText": "return 2;", "newText": "return 3;"}]}),
    );
    assert!(read(&f).contains("return 3;"));
}

#[test]
fn edit_file_replaces_only_the_first_occurrence_of_an_exact_match() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "code.ts");
    std::fs::write(&f, "x\nx\n").unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "x", "newText": "y"}]}),
    );
    assert_eq!(read(&f), "y\nx\n");
}

#[test]
fn edit_file_inserts_dollar_patterns_in_new_text_literally() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 1;", "newText": "return '$&$1$$';"}]}),
    );
    assert!(read(&f).contains("return '$&$1$$';"));
}

#[test]
fn edit_file_reports_an_edit_with_no_match() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let e = s.error(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 9;", "newText": "x"}]}),
    );
    assert_eq!(e, "Could not find exact match for edit:\nreturn 9;");
    assert_eq!(read(&f), CODE);
}

#[test]
fn edit_file_widens_the_diff_fence_when_the_diff_itself_contains_backticks() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "code.ts");
    std::fs::write(&f, "a\n").unwrap();
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "a", "newText": "````"}]}),
    );
    assert!(got.starts_with("`````diff\n"), "{got}");
    assert!(got.ends_with("`````\n\n"), "{got}");
    assert!(got.contains("\n@@ -1,1 +1,1 @@\n-a\n+````\n"), "{got}");
}

#[test]
fn edit_file_keeps_a_crlf_files_line_endings() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "code.ts");
    std::fs::write(&f, "a\r\nb\r\n").unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [
            {"oldText": "a\r\n", "newText": "c\r\n"},
            {"oldText": "b\n", "newText": "d\ne\n"}]}),
    );
    assert_eq!(read(&f), "c\r\nd\r\ne\r\n");
}

/// The reference's first occurrence and trimmed-line matching in a CRLF file: the lines written keep
/// CRLF (the reference's #4991 writes LF; rootbound keeps the file's endings, as for exact edits).
#[test]
fn edit_file_keeps_a_crlf_files_line_endings_on_a_first_occurrence_or_trimmed_line_match() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "code.ts");
    std::fs::write(&f, "x\r\nx\r\n").unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "x", "newText": "y\nz"}]}),
    );
    assert_eq!(read(&f), "y\r\nz\r\nx\r\n");
    std::fs::write(&f, "  a\r\n  b\r\n").unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "a\nb", "newText": "c\nd"}]}),
    );
    assert_eq!(read(&f), "  c\r\nd\r\n");
}

#[test]
fn edit_file_keeps_an_lf_files_line_endings_when_new_text_uses_crlf() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "code.ts");
    std::fs::write(&f, "a\nb\n").unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "a", "newText": "c\r\nd"}]}),
    );
    assert_eq!(read(&f), "c\nd\nb\n");
}

/// The reference's whitespace-tolerant matcher cases (#2034): (file, oldText, newText, the file
/// after the edit). The results are the reference's `applyFileEdits` (lib.ts at 76d64c8) run in
/// node on these inputs.
const WHITESPACE_TOLERANT: &[(&str, &str, &str, &str)] = &[
    // matches lines whose indentation differs from oldText
    (
        CODE,
        "console.log('hi');\nreturn 1;",
        "console.log('bye');\nreturn 0;",
        "function greet() {\n  console.log('bye');\nreturn 0;\n}\n",
    ),
    // keeps relative indentation when both old and new lines are indented
    (
        "    if (a) {\n        b();\n    }\n",
        "if (a) {\n  b();\n}",
        "if (a) {\n      c();\n  }",
        "    if (a) {\n        c();\n  }\n",
    ),
    // keeps the file's indentation when oldText indents with a different width
    (
        "    if (a) {\n        b();\n    }\n",
        "if (a) {\n  b();\n}",
        "if (a) {\n  c();\n}",
        "    if (a) {\n    c();\n}\n",
    ),
    // dedents relative to the file line it replaces
    ("  x\n      y\n", "x\n    y", "x\n z", "  x\n  z\n"),
    // clamps a dedent at no indentation
    ("x\n  y\n", "x\n    y", "x\nz", "x\nz\n"),
    // indents replacement lines beyond oldText's length relative to its last line
    ("  a\nb\n", "a ", "a\n  added", "  a\n  added\nb\n"),
    // keeps a blank replacement line as given
    ("  a\n  b\n", "a\nb", "a\n\nb", "  a\n\nb\n"),
];

#[test]
fn edit_file_whitespace_tolerant_matcher() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "code.ts");
    for (body, old, new, after) in WHITESPACE_TOLERANT {
        std::fs::write(&f, body).unwrap();
        s.text(
            "edit_file",
            json!({"path": f, "edits": [{"oldText": old, "newText": new}]}),
        );
        assert_eq!(&read(&f), after, "{old:?}");
    }
}

#[test]
fn edit_file_whitespace_tolerant_matcher_reports_no_match_when_a_line_differs_beyond_whitespace() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    s.error(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "console.log('hi');\nreturn 2;", "newText": "x"}]}),
    );
}

#[test]
fn edit_file_with_no_edits_answers_the_header_of_an_empty_diff() {
    // lib.test.ts applyFileEdits with `[]`: the reference diffs the file with itself.
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let got = s.text("edit_file", json!({"path": f, "edits": []}));
    assert_eq!(
        got,
        format!(
            "```diff\nIndex: {f}\n===================================================================\n\
             --- {f}\toriginal\n+++ {f}\tmodified\n```\n\n"
        )
    );
    assert_eq!(read(&f), CODE);
    // As there, the file must exist.
    s.error(
        "edit_file",
        json!({"path": p(&dir, "missing.ts"), "edits": []}),
    );
}

#[test]
fn edit_file_whose_edits_change_nothing_answers_the_header_of_an_empty_diff() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 1;", "newText": "return 1;"}]}),
    );
    assert_eq!(
        got,
        format!(
            "```diff\nIndex: {f}\n===================================================================\n\
             --- {f}\toriginal\n+++ {f}\tmodified\n```\n\n"
        )
    );
    assert_eq!(read(&f), CODE);
}

#[test]
fn edit_file_adds_a_line_at_the_end_of_a_file_without_a_final_newline() {
    // lib.test.ts: the diff of a change at a last line without a newline (jsdiff's marker).
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "n.txt");
    std::fs::write(&f, "a\nb").unwrap();
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "b", "newText": "c"}]}),
    );
    assert!(
        got.ends_with(
            "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n```\n\n"
        ),
        "{got}"
    );
}

// ---- create_directory ----

#[test]
fn create_directory_creates_nested_directories_in_one_call() {
    let (_t, dir, mut s) = setup();
    let target = p(&dir, "a/b/c");
    assert_eq!(
        s.text("create_directory", json!({"path": target})),
        format!("Successfully created directory {target}")
    );
    assert!(Path::new(&target).is_dir());
}

#[test]
fn create_directory_succeeds_on_an_existing_directory() {
    let (_t, dir, mut s) = setup();
    s.text("create_directory", json!({"path": dir.to_str().unwrap()}));
}

#[test]
fn create_directory_reports_an_existing_file_in_the_way() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("file"), "").unwrap();
    let e = s.error("create_directory", json!({"path": p(&dir, "file")}));
    assert!(e.starts_with("EEXIST"), "{e}");
}

// ---- list_directory ----

#[test]
fn list_directory_lists_entries_with_dir_and_file_prefixes() {
    let (_t, dir, mut s) = setup();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("f.txt"), "").unwrap();
    let t = s.text("list_directory", json!({"path": dir.to_str().unwrap()}));
    let mut lines: Vec<&str> = t.split('\n').collect();
    lines.sort();
    assert_eq!(lines, ["[DIR] sub", "[FILE] f.txt"]);
}

#[test]
fn list_directory_returns_empty_text_for_an_empty_directory() {
    let (_t, dir, mut s) = setup();
    assert_eq!(
        s.text("list_directory", json!({"path": dir.to_str().unwrap()})),
        ""
    );
}

#[test]
fn list_directory_reports_a_file_path_as_an_error() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("f.txt"), "").unwrap();
    let e = s.error("list_directory", json!({"path": p(&dir, "f.txt")}));
    assert!(e.starts_with("ENOTDIR"), "{e}");
}

// ---- list_directory_with_sizes ----

fn sizes_tree(dir: &Path) {
    std::fs::write(dir.join("b.txt"), "x".repeat(2048)).unwrap();
    std::fs::write(dir.join("a.txt"), "xy").unwrap();
    std::fs::create_dir(dir.join("c")).unwrap();
}

#[test]
fn list_directory_with_sizes_sorts_by_name_by_default_and_appends_a_summary() {
    let (_t, dir, mut s) = setup();
    sizes_tree(&dir);
    let got = s.text(
        "list_directory_with_sizes",
        json!({"path": dir.to_str().unwrap()}),
    );
    let want = [
        format!("[FILE] {:<30} {:>10}", "a.txt", "2 B"),
        format!("[FILE] {:<30} {:>10}", "b.txt", "2.00 KB"),
        format!("[DIR] {:<30} ", "c"),
        String::new(),
        "Total: 2 files, 1 directories".into(),
        "Combined size: 2.00 KB".into(),
    ]
    .join("\n");
    assert_eq!(got, want);
}

#[test]
fn list_directory_with_sizes_sorts_by_size_largest_first_when_asked() {
    let (_t, dir, mut s) = setup();
    sizes_tree(&dir);
    let got = s.text(
        "list_directory_with_sizes",
        json!({"path": dir.to_str().unwrap(), "sortBy": "size"}),
    );
    let files: Vec<&str> = got
        .lines()
        .filter(|l| l.starts_with("[FILE]"))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(files, ["b.txt", "a.txt"]);
}

#[test]
fn list_directory_with_sizes_lists_an_entry_it_cannot_stat_a_dangling_symlink_as_size_0() {
    let (_t, dir, mut s) = setup();
    sizes_tree(&dir);
    std::os::unix::fs::symlink(dir.join("gone"), dir.join("dangling")).unwrap();
    let got = s.text(
        "list_directory_with_sizes",
        json!({"path": dir.to_str().unwrap()}),
    );
    // DIFFERENCE (dialects.md: "a symlink's size is the link's own"): the reference stats the
    // target and shows a dangling link as 0 B; here it is the length of the link's text.
    let size = format!("{} B", dir.join("gone").to_str().unwrap().len());
    assert!(
        got.contains(&format!("[FILE] {:<30} {size:>10}", "dangling")),
        "{got}"
    );
    assert!(got.contains("Total: 3 files, 1 directories"), "{got}");
}

#[test]
fn list_directory_with_sizes_summarizes_an_empty_directory() {
    let (_t, dir, mut s) = setup();
    sizes_tree(&dir);
    assert_eq!(
        s.text("list_directory_with_sizes", json!({"path": p(&dir, "c")})),
        "\nTotal: 0 files, 0 directories\nCombined size: 0 B"
    );
}

// ---- directory_tree ----

fn tree_fixture(dir: &Path) {
    for d in ["src", "node_modules", ".git", "nested/node_modules"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    for (f, c) in [
        (".env", ""),
        (".env.local", ""),
        ("src/index.js", ""),
        ("package.json", "{}"),
        ("node_modules/m.js", ""),
        ("nested/node_modules/d.js", ""),
    ] {
        std::fs::write(dir.join(f), c).unwrap();
    }
}

fn sort_tree(v: &mut Value) {
    if let Some(a) = v.as_array_mut() {
        a.sort_by(|x, y| x["name"].as_str().cmp(&y["name"].as_str()));
        for e in a.iter_mut() {
            if let Some(c) = e.get_mut("children") {
                sort_tree(c);
            }
        }
    }
}

fn tree(s: &mut Srv, root: &str, exclude: Option<Value>) -> Value {
    let mut args = json!({"path": root});
    if let Some(x) = exclude {
        args["excludePatterns"] = x;
    }
    let t = s.text("directory_tree", args);
    let mut v: Value = serde_json::from_str(&t).unwrap_or_else(|e| panic!("{e}: {t}"));
    sort_tree(&mut v);
    v
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn directory_tree_returns_the_whole_tree_as_2_space_indented_json_directories_always_carry_children(
) {
    let (_t, dir, mut s) = setup();
    tree_fixture(&dir);
    assert_eq!(
        s.text("directory_tree", json!({"path": p(&dir, "src")})),
        "[\n  {\n    \"name\": \"index.js\",\n    \"type\": \"file\"\n  }\n]"
    );
    let file = |n: &str| json!({"name": n, "type": "file"});
    assert_eq!(
        tree(&mut s, dir.to_str().unwrap(), None),
        json!([
            file(".env"),
            file(".env.local"),
            {"name": ".git", "type": "directory", "children": []},
            {"name": "nested", "type": "directory", "children": [
                {"name": "node_modules", "type": "directory", "children": [file("d.js")]}]},
            {"name": "node_modules", "type": "directory", "children": [file("m.js")]},
            file("package.json"),
            {"name": "src", "type": "directory", "children": [file("index.js")]},
        ])
    );
}

#[test]
fn directory_tree_excludes_a_bare_name_at_any_depth_and_not_its_prefix_matches() {
    let (_t, dir, mut s) = setup();
    tree_fixture(&dir);
    let d = dir.to_str().unwrap();
    let t = tree(&mut s, d, Some(json!(["node_modules", ".env"])));
    assert_eq!(
        names(&t),
        [".env.local", ".git", "nested", "package.json", "src"]
    );
    let t = tree(&mut s, d, Some(json!(["node_modules"])));
    let nested = t
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "nested")
        .unwrap();
    assert_eq!(nested["children"], json!([]));
}

#[test]
fn directory_tree_matches_a_glob_pattern_against_the_relative_path_only() {
    let (_t, dir, mut s) = setup();
    tree_fixture(&dir);
    let d = dir.to_str().unwrap();
    let t = tree(&mut s, d, Some(json!(["*.env"])));
    let n = names(&t);
    assert!(!n.contains(&".env".to_string()), "{n:?}");
    assert!(n.contains(&".env.local".to_string()), "{n:?}");
    let t = tree(&mut s, d, Some(json!(["*.js"])));
    let src = t
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "src")
        .unwrap();
    // "*.js" does not cross a separator, so nested files stay.
    assert_eq!(
        src["children"],
        json!([{"name": "index.js", "type": "file"}])
    );
}

#[test]
fn directory_tree_lists_a_symlinked_directory_as_a_file_and_does_not_descend_into_it() {
    let (_t, dir, mut s) = setup();
    tree_fixture(&dir);
    std::os::unix::fs::symlink(dir.join("src"), dir.join("srclink")).unwrap();
    let t = tree(&mut s, dir.to_str().unwrap(), None);
    let e = t
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "srclink")
        .cloned();
    assert_eq!(e, Some(json!({"name": "srclink", "type": "file"})));
}

#[test]
fn directory_tree_refuses_a_root_outside_the_allowed_directories() {
    let (_t, _dir, mut s) = setup();
    let e = s.error("directory_tree", json!({"path": "/"}));
    assert!(e.starts_with("Access denied"), "{e}");
}

// ---- move_file ----

#[test]
fn move_file_moves_a_file_and_reports_the_requested_paths() {
    let (_t, dir, mut s) = setup();
    let (src, dst) = (p(&dir, "a.txt"), p(&dir, "b.txt"));
    std::fs::write(&src, "a").unwrap();
    assert_eq!(
        s.text("move_file", json!({"source": src, "destination": dst})),
        format!("Successfully moved {src} to {dst}")
    );
    assert_eq!(read(&dst), "a");
    assert!(!Path::new(&src).exists());
}

#[test]
fn move_file_moves_a_directory() {
    let (_t, dir, mut s) = setup();
    std::fs::create_dir(dir.join("d1")).unwrap();
    std::fs::write(dir.join("d1/f"), "x").unwrap();
    s.text(
        "move_file",
        json!({"source": p(&dir, "d1"), "destination": p(&dir, "d2")}),
    );
    assert_eq!(read(&p(&dir, "d2/f")), "x");
}

#[test]
fn move_file_refuses_to_overwrite_an_existing_destination() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("a.txt"), "a").unwrap();
    std::fs::write(dir.join("b.txt"), "b").unwrap();
    let e = s.error(
        "move_file",
        json!({"source": p(&dir, "a.txt"), "destination": p(&dir, "b.txt")}),
    );
    assert_eq!(
        e,
        format!("Destination already exists: {}", p(&dir, "b.txt"))
    );
    assert_eq!(read(&p(&dir, "b.txt")), "b");
}

#[test]
fn move_file_refuses_a_destination_outside_the_allowed_directories() {
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("a.txt"), "a").unwrap();
    let e = s.error(
        "move_file",
        json!({"source": p(&dir, "a.txt"), "destination": "/tmp-outside-allowed/a.txt"}),
    );
    assert!(e.starts_with("Access denied"), "{e}");
    assert_eq!(read(&p(&dir, "a.txt")), "a");
}

#[test]
fn move_file_reports_a_missing_source() {
    let (_t, dir, mut s) = setup();
    let e = s.error(
        "move_file",
        json!({"source": p(&dir, "missing"), "destination": p(&dir, "b")}),
    );
    assert!(e.starts_with("ENOENT"), "{e}");
}

// ---- search_files ----

fn search_fixture(dir: &Path) {
    std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
    for f in ["top.txt", "top.log", "sub/mid.txt", "sub/deeper/low.txt"] {
        std::fs::write(dir.join(f), "").unwrap();
    }
}

fn search(s: &mut Srv, dir: &Path, args: Value) -> Vec<String> {
    let mut a = json!({"path": dir.to_str().unwrap()});
    for (k, v) in args.as_object().unwrap() {
        a[k] = v.clone();
    }
    let t = s.text("search_files", a);
    let mut v: Vec<String> = t.split('\n').map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn search_files_matches_a_bare_glob_against_top_level_entries_only() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    assert_eq!(
        search(&mut s, &dir, json!({"pattern": "*.txt"})),
        [p(&dir, "top.txt")]
    );
}

#[test]
fn search_files_recurses_into_subdirectories_for_a_double_star_glob() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    assert_eq!(
        search(&mut s, &dir, json!({"pattern": "**/*.txt"})),
        [
            p(&dir, "sub/deeper/low.txt"),
            p(&dir, "sub/mid.txt"),
            p(&dir, "top.txt")
        ]
    );
}

#[test]
fn search_files_matches_directories_as_well_as_files() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    let got = search(&mut s, &dir, json!({"pattern": "**/deeper"}));
    assert_eq!(got, [p(&dir, "sub/deeper")]);
    let got = search(&mut s, &dir, json!({"pattern": "**/*[ep]*"}));
    assert_eq!(
        got,
        [
            p(&dir, "sub/deeper"),
            p(&dir, "top.log"),
            p(&dir, "top.txt")
        ]
    );
    let got = search(
        &mut s,
        &dir,
        json!({"pattern": "**/deeper", "excludePatterns": ["sub"]}),
    );
    assert_eq!(got, ["No matches found"]);
}

#[test]
fn search_files_skips_excluded_paths_and_does_not_descend_into_them() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    assert_eq!(
        search(
            &mut s,
            &dir,
            json!({"pattern": "**/*.txt", "excludePatterns": ["sub"]})
        ),
        [p(&dir, "top.txt")]
    );
}

#[test]
fn search_files_says_no_matches_found_when_nothing_matches() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    assert_eq!(
        s.text(
            "search_files",
            json!({"path": dir.to_str().unwrap(), "pattern": "*.none"})
        ),
        "No matches found"
    );
}

#[test]
fn search_files_silently_skips_a_symlink_that_leaves_the_allowed_directories() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.join("escape")).unwrap();
    let got = search(&mut s, &dir, json!({"pattern": "**/*"}));
    assert!(!got.iter().any(|g| g.contains("secret.txt")), "{got:?}");
}

// ---- get_file_info ----

#[test]
fn get_file_info_reports_a_files_metadata_as_key_value_lines() {
    use std::os::unix::fs::PermissionsExt;
    let (_t, dir, mut s) = setup();
    std::fs::write(dir.join("f.txt"), "12345").unwrap();
    std::fs::set_permissions(dir.join("f.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let t = s.text("get_file_info", json!({"path": p(&dir, "f.txt")}));
    let lines: Vec<&str> = t.split('\n').collect();
    // The reference's `getFileStats` keys in its order; rootbound's `type` (and `lines`) after.
    let keys: Vec<&str> = lines.iter().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(
        keys[..8],
        [
            "size",
            "created",
            "modified",
            "accessed",
            "isDirectory",
            "isFile",
            "permissions",
            "type"
        ],
        "{t}"
    );
    assert_eq!(lines[0], "size: 5");
    assert_eq!(lines[4], "isDirectory: false");
    assert_eq!(lines[5], "isFile: true");
    assert_eq!(lines[6], "permissions: 640");
    // Times as the modification time is shown (RFC 3339); the file was made in this test, so
    // the access time (and the birth time, where the filesystem keeps one) is of this year.
    let year = |l: &str| l.split(": ").nth(1).unwrap()[..4].parse::<i32>().unwrap();
    assert_eq!(year(lines[3]), year(lines[2]), "{t}");
    assert!(
        year(lines[1]) == year(lines[2]) || lines[1] == "created: 1970-01-01T00:00:00Z",
        "{t}"
    );
}

#[test]
fn get_file_info_reports_a_directory() {
    let (_t, dir, mut s) = setup();
    let t = s.text("get_file_info", json!({"path": dir.to_str().unwrap()}));
    assert!(t.contains("isDirectory: true"), "{t}");
    assert!(t.contains("isFile: false"), "{t}");
}

// ---- list_allowed_directories ----

#[test]
fn list_allowed_directories_lists_the_directories_the_server_was_built_with() {
    let (_t, dir, mut s) = setup();
    assert_eq!(
        s.text("list_allowed_directories", json!({})),
        format!("Allowed directories:\n{}", dir.to_str().unwrap())
    );
}

#[test]
fn two_servers_keep_separate_allow_lists() {
    let (_t, dir, mut s) = setup();
    let other_t = tempfile::tempdir().unwrap();
    let other = other_t.path().canonicalize().unwrap();
    let mut second = Srv::start(&other, None);
    std::fs::write(dir.join("mine.txt"), "mine").unwrap();
    std::fs::write(other.join("theirs.txt"), "theirs").unwrap();
    let crossed = second.error("read_text_file", json!({"path": p(&dir, "mine.txt")}));
    assert!(crossed.starts_with("Access denied"), "{crossed}");
    assert_eq!(
        second.text("read_text_file", json!({"path": p(&other, "theirs.txt")})),
        "theirs"
    );
    assert_eq!(
        s.text("read_text_file", json!({"path": p(&dir, "mine.txt")})),
        "mine"
    );
}

// ---- path-utils.test.ts: expandHome ----

#[test]
fn path_utils_expands_tilde_to_the_home_directory_inside_a_root() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().canonicalize().unwrap();
    std::fs::create_dir(dir.join("home")).unwrap();
    std::fs::write(dir.join("home/notes.txt"), "hi").unwrap();
    let mut s = Srv::start(&dir, Some(&dir.join("home")));
    assert_eq!(
        s.text("read_text_file", json!({"path": "~/notes.txt"})),
        "hi"
    );
    assert_eq!(
        s.text("list_directory", json!({"path": "~"})),
        "[FILE] notes.txt"
    );
    assert_eq!(
        s.text("write_file", json!({"path": "~/new.txt", "content": "x"})),
        "Successfully wrote to ~/new.txt"
    );
    assert_eq!(read(&p(&dir, "home/new.txt")), "x");
    // Only `~` and `~/`: `~user` and `a/~` are names, as in the reference.
    std::fs::write(dir.join("~x"), "tilde").unwrap();
    assert_eq!(s.text("read_text_file", json!({"path": "~x"})), "tilde");
}

#[test]
fn path_utils_refuses_tilde_when_the_home_directory_is_outside_every_root() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().canonicalize().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("notes.txt"), "secret").unwrap();
    let mut s = Srv::start(&dir, Some(home.path()));
    let e = s.error("read_text_file", json!({"path": "~/notes.txt"}));
    let home = home.path().to_str().unwrap();
    assert_eq!(
        e,
        format!(
            "Access denied - path outside allowed directories: {home}/notes.txt not in {}",
            dir.display()
        )
    );
}

// ---- rootbound's own checks of the reference's error texts ----

/// The text is the reference's; the structured error keeps rootbound's stable code and message.
#[test]
fn errors_in_the_references_words_keep_the_stable_code_in_structured_content() {
    let (_t, dir, mut s) = setup();
    let r = s.call("read_text_file", json!({"path": p(&dir, "missing.txt")}));
    assert!(text_of(&r).starts_with("ENOENT: "), "{r}");
    assert_eq!(r["structuredContent"]["error"]["code"], "NOT_FOUND", "{r}");
    assert!(r["structuredContent"]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("does not exist"));
}

/// With several edits, the text quotes the oldText of the edit that found no match.
#[test]
fn edit_file_reports_the_failing_edit_of_several() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let e = s.error(
        "edit_file",
        json!({"path": f, "edits": [
            {"oldText": "return 1;", "newText": "return 2;"},
            {"oldText": "return 9;", "newText": "x"}
        ]}),
    );
    assert_eq!(e, "Could not find exact match for edit:\nreturn 9;");
    assert_eq!(read(&f), CODE);
}

/// A bare pattern lists the searched directory's own entries, directories included.
#[test]
fn search_files_bare_pattern_matches_top_level_directories_too() {
    let (_t, dir, mut s) = setup();
    search_fixture(&dir);
    std::fs::create_dir(dir.join("sub/x.txt")).unwrap();
    assert_eq!(
        search(&mut s, &dir, json!({"pattern": "s*"})),
        [p(&dir, "sub")]
    );
    assert_eq!(
        search(&mut s, &dir.join("sub"), json!({"pattern": "*.txt"})),
        [p(&dir, "sub/mid.txt"), p(&dir, "sub/x.txt")]
    );
}

// ---- write_file / edit_file and the file's identity (#4512) ----
//
// DIFFERENCE (dialects.md: "`write_file` and `edit_file` replace a file atomically"): the reference
// writes through the existing file (same inode, a hard link sees the change); rootbound writes a
// new file and renames it over the old one, so the inode changes and a hard link keeps the old text.

fn inode(path: &str) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(path).unwrap())
}

#[test]
fn write_file_keeps_the_inode_and_permission_bits_on_overwrite() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "existing.txt");
    std::fs::write(&f, "old").unwrap();
    let before = inode(&f);
    s.text("write_file", json!({"path": f, "content": "new"}));
    assert_eq!(read(&f), "new");
    assert_ne!(inode(&f), before);
}

#[test]
fn write_file_keeps_a_hard_link_on_overwrite() {
    let (_t, dir, mut s) = setup();
    let (f, link) = (p(&dir, "linked.txt"), p(&dir, "hardlink.txt"));
    std::fs::write(&f, "shared").unwrap();
    std::fs::hard_link(&f, &link).unwrap();
    s.text("write_file", json!({"path": f, "content": "changed"}));
    assert_eq!(read(&f), "changed");
    assert_eq!(read(&link), "shared");
}

#[test]
fn write_file_writes_through_a_symlink_inside_the_allowed_directory_to_its_target() {
    let (_t, dir, mut s) = setup();
    let (target, link) = (p(&dir, "target.txt"), p(&dir, "link.txt"));
    std::fs::write(&target, "before").unwrap();
    // DIFFERENCE (dialects.md: "A symlink whose target is an absolute path is refused"): the
    // reference's case links by absolute path.
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let e = s.error("write_file", json!({"path": link, "content": "after"}));
    assert!(e.starts_with("Access denied"), "{e}");
    assert_eq!(read(&target), "before");
    // DIFFERENCE (dialects.md: "writing to a symlink's path replaces the link"): with a relative
    // target the write succeeds, but the new file is renamed over the link, not written into the
    // target.
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("target.txt", &link).unwrap();
    s.text("write_file", json!({"path": link, "content": "after"}));
    assert_eq!(read(&link), "after");
    assert_eq!(read(&target), "before");
    assert!(!std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn edit_file_keeps_the_inode_and_permission_bits_on_edit() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let before = inode(&f);
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 1;", "newText": "return 2;"}]}),
    );
    assert!(read(&f).contains("return 2;"));
    assert_ne!(inode(&f), before);
}

#[test]
fn edit_file_keeps_a_hard_link_on_edit() {
    let (_t, dir, mut s) = setup();
    let f = code_file(&dir);
    let link = p(&dir, "hardlink.ts");
    std::fs::hard_link(&f, &link).unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "return 1;", "newText": "return 2;"}]}),
    );
    assert!(read(&f).contains("return 2;"));
    assert_eq!(read(&link), CODE);
}

// ---- differences found side by side with the npm package (2026.8.31) ----

#[test]
fn side_by_side_head_of_a_crlf_file_and_the_diffs_context() {
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "f.txt");
    std::fs::write(&f, "a\r\nb\r\n").unwrap();
    // The reference's headFile keeps the "\r".
    assert_eq!(
        s.text("read_text_file", json!({"path": f, "head": 1})),
        "a\r"
    );
    // jsdiff's default context is 4 lines: the reference's hunk here is `@@ -1,6 +1,6 @@`.
    let body: String = (1..30).map(|i| format!("line {i}\n")).collect();
    std::fs::write(&f, body).unwrap();
    let d = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "line 2\n", "newText": "two\n"}], "dryRun": true}),
    );
    assert!(
        d.contains(
            "\n@@ -1,6 +1,6 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n line 6\n```"
        ),
        "{d}"
    );
    // An empty oldText on an existing (here empty) file: `content.replace('', newText)`.
    std::fs::write(&f, "").unwrap();
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "new"}]}),
    );
    assert_eq!(
        got,
        format!(
            "```diff\nIndex: {f}\n===================================================================\n\
             --- {f}\toriginal\n+++ {f}\tmodified\n@@ -0,0 +1,1 @@\n+new\n\\ No newline at end of file\n```\n\n"
        )
    );
    assert_eq!(read(&f), "new");
}

#[test]
fn edit_file_diff_has_jsdiffs_default_context_of_4_lines_and_merges_hunks_8_lines_apart() {
    // createTwoFilesPatch(f, f, old, new, 'original', 'modified') on these texts (jsdiff 8.0.4).
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "l.txt");
    let body: String = (1..=20).map(|i| format!("l{i}\n")).collect();
    std::fs::write(&f, &body).unwrap();
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "l6\n", "newText": "X\n"},
            {"oldText": "l15\n", "newText": "Y\n"}]}),
    );
    let want = format!(
        "```diff\nIndex: {f}\n===================================================================\n\
         --- {f}\toriginal\n+++ {f}\tmodified\n@@ -2,18 +2,18 @@\n l2\n l3\n l4\n l5\n-l6\n+X\n l7\n l8\n \
         l9\n l10\n l11\n l12\n l13\n l14\n-l15\n+Y\n l16\n l17\n l18\n l19\n```\n\n"
    );
    assert_eq!(got, want);
}

#[test]
fn edit_file_inserts_new_text_at_the_start_for_an_empty_old_text() {
    // applyFileEdits: `modifiedContent.includes('')` holds, and `.replace('', () => newText)` puts
    // newText first; later edits see it (createTwoFilesPatch as the reference answers).
    let (_t, dir, mut s) = setup();
    let f = p(&dir, "e.txt");
    std::fs::write(&f, "a\nb\n").unwrap();
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "N\n"}]}),
    );
    assert!(
        got.ends_with("\n@@ -1,2 +1,3 @@\n+N\n a\n b\n```\n\n"),
        "{got}"
    );
    assert_eq!(read(&f), "N\na\nb\n");
    std::fs::write(&f, "a\nb\n").unwrap();
    let got = s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "x"}, {"oldText": "xa", "newText": "y"}]}),
    );
    assert!(
        got.ends_with("\n@@ -1,2 +1,2 @@\n-a\n+y\n b\n```\n\n"),
        "{got}"
    );
    assert_eq!(read(&f), "y\nb\n");
    // A dry run writes nothing; a failing edit fails them all, named as the call numbers it.
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "x"}], "dryRun": true}),
    );
    let e = s.error(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "x"}, {"oldText": "zzz", "newText": "y"}]}),
    );
    assert_eq!(e, "Could not find exact match for edit:\nzzz");
    assert_eq!(read(&f), "y\nb\n");
    // A CRLF file keeps its line endings (rootbound's edit rules).
    std::fs::write(&f, "a\r\nb\r\n").unwrap();
    s.text(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "N\n"}]}),
    );
    assert_eq!(read(&f), "N\r\na\r\nb\r\n");
}
