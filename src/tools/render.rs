//! The text a model (or a person) reads for a result of the `rootbound` tool surface: content as
//! text, matches as lines, and a footer telling how to go on. One renderer for every front end: the
//! MCP server's text block and the CLI's `read` print the same words.
//!
//! Typed: each function renders a result struct, never its JSON. Each tool's row (a `Tool` impl in
//! the tool's module, see `tools/tool.rs`) names its renderer, which lives beside the row (grep's
//! and glob's, shared, live here); the tools whose result is its own best text render as pretty
//! JSON.
//!
//! ```
//! use rootbound::{render, ReadResult};
//! let r = ReadResult { binary: true, total_bytes: 9, ..Default::default() };
//! assert_eq!(render::read(&r), "[binary file: 9 bytes; content not shown]");
//! ```

use crate::search::contract::GrepResult;

// The renderers of the tools whose rows live elsewhere, under the names callers know.
pub use crate::tools::edit::edit_text as edit;
pub use crate::tools::read::read_text as read;
pub use crate::tools::stat_list::{list_text as list, stat_text as stat};
pub use crate::tools::tool::pretty;
pub use crate::tools::write::write_text as write;

/// A grep or glob page: its lines, then `[N results; complete | truncated: ...; stats]`.
pub fn search(glob: bool, r: &GrepResult) -> String {
    let mut out = String::new();
    if r.matches.is_empty() {
        out.push_str(if glob {
            "No files matched.\n"
        } else {
            "No matches.\n"
        });
    } else {
        out.push_str(&r.matches);
        if !r.matches.ends_with('\n') {
            out.push('\n');
        }
    }
    let n = r.match_lines;
    let mut footer = vec![format!(
        "{n} {}",
        match (glob, n == 1) {
            (true, true) => "path",
            (true, false) => "paths",
            (false, true) => "result",
            (false, false) => "results",
        }
    )];
    if r.truncated {
        let mut how = "truncated: more results exist".to_string();
        if let Some(c) = &r.next_cursor {
            how.push_str(&format!("; call again with cursor=\"{c}\""));
        }
        how.push_str(&format!(" (or offset={})", r.next_offset));
        footer.push(how);
    } else {
        footer.push("complete".into());
    }
    if r.timed_out {
        footer.push("timed out: the page holds what was found before the deadline".into());
    }
    if let Some(t) = r.total {
        footer.push(format!("total={t}"));
    }
    let sk = &r.stats.skipped;
    let mut s = format!("files searched={}", r.stats.files_searched);
    let parts: Vec<String> = [
        ("binary", sk.binary),
        ("too_large", sk.too_large),
        ("ignored", sk.ignored),
        ("denied", sk.denied),
        ("unreadable", sk.unreadable),
        ("not_regular", sk.not_regular),
        ("partial_ignore_files", sk.partial_ignore_files),
    ]
    .iter()
    .filter(|(_, c)| *c > 0)
    .map(|(k, c)| format!("{k}={c}"))
    .collect();
    if !parts.is_empty() {
        s.push_str(&format!("; skipped: {}", parts.join(", ")));
    }
    footer.push(s);
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::api::ReadResult;
    use serde_json::json;

    #[test]
    fn a_page_says_how_to_go_on() {
        let v = json!({"path": "/r/a", "content": "hi", "bytes_returned": 2, "offset": 0,
            "next_offset": 2, "total_bytes": 4, "truncated": true, "encoding": "utf-8"});
        let r: ReadResult = serde_json::from_value(v).unwrap();
        let text = read(&r);
        assert!(text.starts_with("hi\n[truncated: 4 bytes total"), "{text}");
        let g = json!({"matches": "", "match_lines": 0, "next_offset": 0, "next_cursor": null,
            "truncated": false, "timed_out": false,
            "stats": {"files_searched": 3, "skipped": {"binary": 1, "too_large": 0, "ignored": 0,
            "denied": 0, "unreadable": 0, "not_regular": 0}}});
        let g: GrepResult = serde_json::from_value(g).unwrap();
        assert_eq!(
            search(true, &g),
            "No files matched.\n[0 paths; complete; files searched=3; skipped: binary=1]"
        );
    }
}
