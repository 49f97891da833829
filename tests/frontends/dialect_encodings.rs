//! Every dialect's edit inherits the engine's: a UTF-16 file is edited as read_file decodes it and
//! written back in UTF-16 with its mark and line endings (claude-code Edit and Write, gemini-cli
//! replace with its flexible match, mcp-filesystem edit_file with its diff and its empty oldText).

use rootbound::config::AgentTools;
use rootbound::{Profile, Sandbox, WritePolicy};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `s` in UTF-16 with its byte-order mark.
fn utf16(s: &str, be: bool) -> Vec<u8> {
    let mut out = if be {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for u in s.encode_utf16() {
        out.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
    }
    out
}

struct Setup {
    _tmp: tempfile::TempDir,
    w: PathBuf,
    at: AgentTools,
}

fn setup(profile: Profile) -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let w = std::fs::canonicalize(tmp.path()).unwrap();
    let mut wp = WritePolicy::new(&w);
    wp.allow_overwrite = true;
    let sb = Sandbox::builder().root(&w).write(wp).build().unwrap();
    let at = AgentTools::from_sandbox(sb).with_profile(profile);
    Setup { _tmp: tmp, w, at }
}

impl Setup {
    fn put(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.w.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    }
    fn get(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.w.join(name)).unwrap()
    }
    fn call(&self, tool: &str, args: Value) -> String {
        match self.at.present(tool, args.clone()) {
            Ok(p) => p.text(),
            Err(e) => panic!("{tool} {args}: {e:?}"),
        }
    }
}

const TEXT: &str = "[Section]\r\nname=caf\u{E9}\r\nsize=1\r\n";

#[test]
fn claude_code_edit_and_write_keep_utf16() {
    let s = setup(Profile::ClaudeCode);
    let f = s.put("a.ini", &utf16(TEXT, false));
    let out = s.call(
        "Edit",
        json!({"file_path": f, "old_string": "name=caf\u{E9}\nsize=1", "new_string": "name=th\u{E9}\nsize=2"}),
    );
    assert!(out.contains("has been updated (1 replacement(s))"), "{out}");
    // The diff shown is the decoded text.
    assert!(
        out.contains("-name=caf\u{E9}\r\n") && !out.contains('\0'),
        "{out:?}"
    );
    assert_eq!(
        s.get("a.ini"),
        utf16("[Section]\r\nname=th\u{E9}\r\nsize=2\r\n", false)
    );
    assert!(out.contains("the file is utf-16le"), "{out}");
    s.call("Write", json!({"file_path": f, "content": "[New]\r\n"}));
    assert_eq!(s.get("a.ini"), utf16("[New]\r\n", false));
    // A Latin-1 file: every byte kept, the diff shows them as they decode, the answer says so.
    let f = s.put("l.txt", b"caf\xE9\nold \xA9\n");
    let out = s.call(
        "Edit",
        json!({"file_path": f, "old_string": "old", "new_string": "new"}),
    );
    assert_eq!(s.get("l.txt"), b"caf\xE9\nnew \xA9\n");
    assert!(
        out.contains("not valid UTF-8") && out.contains(" caf\u{E9}\n"),
        "{out}"
    );
    assert!(!out.contains('\u{FFFD}'), "{out}");
}

/// Read's line mode (offset/limit) shows a UTF-16 file as read_file decodes it: the same numbered
/// lines as the same text in UTF-8, no mark, no NUL bytes.
#[test]
fn claude_code_read_shows_utf16_as_decoded_numbered_lines() {
    let s = setup(Profile::ClaudeCode);
    for be in [false, true] {
        let wide = s.put("w.ini", &utf16(TEXT, be));
        let plain = s.put("p.ini", TEXT.as_bytes());
        for args in [
            json!({}),
            json!({"offset": 2, "limit": 1}),
            json!({"offset": 3}),
        ] {
            let read = |f: &str| {
                let mut a = args.clone();
                a["file_path"] = json!(f);
                s.call("Read", a)
            };
            let (w, p) = (read(&wide), read(&plain));
            assert_eq!(w, p, "{args}");
            assert!(!w.contains('\0') && !w.contains('\u{FEFF}'), "{w:?}");
        }
        let line2 = s.call("Read", json!({"file_path": wide, "offset": 2, "limit": 1}));
        assert!(line2.contains("2\tname=caf\u{E9}"), "{line2:?}");
    }
}

#[test]
fn gemini_cli_replace_keeps_utf16() {
    let s = setup(Profile::GeminiCli);
    let f = s.put(
        "a.ini",
        &utf16("[Section]\nname=caf\u{E9}\n  size=1\n", true),
    );
    let out = s.call(
        "replace",
        json!({"file_path": f, "old_string": "name=caf\u{E9}", "new_string": "name=th\u{E9}"}),
    );
    assert!(out.contains("(1 replacements)"), "{out}");
    // Gemini's flexible match (indentation ignored) works on the decoded text too.
    let out = s.call(
        "replace",
        json!({"file_path": f, "old_string": "    size=1", "new_string": "size=2"}),
    );
    assert!(out.starts_with("Successfully modified file"), "{out}");
    assert_eq!(
        s.get("a.ini"),
        utf16("[Section]\nname=th\u{E9}\n  size=2\n", true)
    );
}

#[test]
fn mcp_filesystem_edit_file_keeps_utf16() {
    let s = setup(Profile::McpFilesystem);
    let before = utf16(TEXT, false);
    let f = s.put("a.ini", &before);
    let dry = s.call(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "size=1", "newText": "size=2"}], "dryRun": true}),
    );
    assert!(
        dry.contains("-size=1\r\n+size=2\r\n") && dry.contains(" name=caf\u{E9}\r\n"),
        "{dry:?}"
    );
    assert!(!dry.contains('\0') && !dry.contains('\u{FFFD}'), "{dry:?}");
    assert_eq!(s.get("a.ini"), before);
    s.call(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "size=1", "newText": "size=2"}]}),
    );
    assert_eq!(
        s.get("a.ini"),
        utf16(&TEXT.replace("size=1", "size=2"), false)
    );
    // An empty oldText puts newText at the start of the text, after the mark.
    s.call(
        "edit_file",
        json!({"path": f, "edits": [{"oldText": "", "newText": "; top\r\n"}]}),
    );
    let want = format!("; top\r\n{}", TEXT.replace("size=1", "size=2"));
    assert_eq!(s.get("a.ini"), utf16(&want, false));
}
