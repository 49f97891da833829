//! The text a model (or a person) reads for a result of the `rootbound` tool surface: content as
//! text, matches as lines, and a footer telling how to go on. One renderer for every front end: the
//! MCP server's text block and the CLI's `read` print the same words.
//!
//! Typed: each function renders a result struct, never its JSON. Each tool's row (a `Tool` impl in
//! the tool's module, see `tools/tool.rs`) names its renderer; the tools whose result is its own best text render as pretty JSON.
//!
//! ```
//! use rootbound::{render, ReadResult};
//! let r = ReadResult { binary: true, total_bytes: 9, ..Default::default() };
//! assert_eq!(render::read(&r), "[binary file: 9 bytes; content not shown]");
//! ```

use crate::tools::edit::EditResult;
use crate::tools::read::ReadResult;
use crate::tools::stat_list::{ListResult, StatResult};
use crate::tools::write::WriteResult;
use crate::GrepResult;
use serde_json::Value;

/// Pretty JSON (two-space indent).
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// A read page: its text (or a binary placeholder), then the truncation notice when more remains.
pub fn read(r: &ReadResult) -> String {
    let mut out = if r.binary {
        format!("[binary file: {} bytes; content not shown]", r.total_bytes)
    } else {
        r.content.clone()
    };
    if let Some(notice) = r.truncation_notice() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&notice);
    }
    out
}

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

/// A directory page: `name/` for directories, `name<TAB>N bytes` for files, and a footer.
pub fn list(r: &ListResult) -> String {
    let mut out = format!("{}:\n", r.path);
    for e in &r.entries {
        match e.kind.as_str() {
            "dir" => out.push_str(&format!("{}/\n", e.name)),
            "file" => out.push_str(&format!("{}\t{} bytes\n", e.name, e.size)),
            other => out.push_str(&format!("{}\t({other})\n", e.name)),
        }
    }
    let mut footer = vec![format!("{} of {} entries", r.entries.len(), r.total)];
    if r.truncated {
        footer.push(format!(
            "truncated: call again with offset={}",
            r.next_offset
        ));
    }
    for (k, c) in [("hidden", r.hidden), ("ignored", r.ignored)] {
        if c > 0 {
            footer.push(format!("{c} {k} entries left out"));
        }
    }
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

/// `key: value` lines.
pub fn stat(r: &StatResult) -> String {
    let mut out = format!(
        "path: {}\nkind: {}\nsize: {}\nmtime: {}\n",
        r.path, r.kind, r.size, r.mtime
    );
    if let Some(l) = r.lines {
        out.push_str(&format!("lines: {l}\n"));
    }
    out
}

/// `created|replaced PATH (N bytes)` or `deleted PATH`.
pub fn write(r: &WriteResult) -> String {
    if r.deleted {
        return format!("deleted {}", r.path);
    }
    let how = if r.replaced { "replaced" } else { "created" };
    format!("{how} {} ({} bytes)", r.path, r.bytes_written)
}

/// `changed PATH (...)` and the diff.
pub fn edit(r: &EditResult) -> String {
    let verb = if r.dry_run { "would change" } else { "changed" };
    let mut out = format!(
        "{verb} {} ({} replacement(s), {} bytes now)\n",
        r.path, r.replacements, r.size
    );
    if let Some(d) = &r.diff {
        out.push_str(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
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
