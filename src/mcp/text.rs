//! The text a model reads of each result, and media results as MCP content blocks.
//!
//! (Moved here unchanged from the binary's `mcp.rs`; a typed renderer shared with the CLI is to
//! replace the `render_*` functions.)

use crate::ReadResult;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// An image or audio file as the matching MCP content block; the structured result keeps the
/// metadata and leaves the bytes to the block.
pub(super) fn media_result(mut value: Value) -> CallToolResult {
    let data = value["data"].as_str().unwrap_or_default().to_string();
    let mime = value["mime_type"].as_str().unwrap_or_default().to_string();
    let block = if value["kind"] == "audio" {
        ContentBlock::audio(data, mime)
    } else {
        ContentBlock::image(data, mime)
    };
    if let Some(o) = value.as_object_mut() {
        o.remove("data");
    }
    let mut r = CallToolResult::success(vec![block]);
    r.structured_content = Some(value);
    r
}

/// The text a model reads: content as text, matches as lines, and a footer telling how to go on.
pub(super) fn render(tool: &str, v: &Value) -> String {
    match tool {
        "read_file" => render_read(v),
        "grep_search" | "glob" => render_search(tool, v),
        "list_dir" => render_list(v),
        "stat" => render_stat(v),
        "write_file" | "delete_file" => render_write(v),
        "edit_file" => render_edit(v),
        _ => serde_json::to_string_pretty(v).unwrap_or_default(),
    }
}

fn render_edit(v: &Value) -> String {
    let verb = if v["dry_run"] == true {
        "would change"
    } else {
        "changed"
    };
    let mut out = format!(
        "{} {} ({} replacement(s), {} bytes now)\n",
        verb,
        v["path"].as_str().unwrap_or(""),
        v["replacements"],
        v["size"]
    );
    if let Some(d) = v["diff"].as_str() {
        out.push_str(d);
    }
    out
}

fn render_read(v: &Value) -> String {
    let Ok(r) = serde_json::from_value::<ReadResult>(v.clone()) else {
        return serde_json::to_string_pretty(v).unwrap_or_default();
    };
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

fn render_search(tool: &str, v: &Value) -> String {
    let matches = v["matches"].as_str().unwrap_or("");
    let n = v["match_lines"].as_u64().unwrap_or(0);
    let mut out = String::new();
    if matches.is_empty() {
        out.push_str(if tool == "glob" {
            "No files matched.\n"
        } else {
            "No matches.\n"
        });
    } else {
        out.push_str(matches);
        if !matches.ends_with('\n') {
            out.push('\n');
        }
    }
    let mut footer = vec![format!(
        "{n} {}",
        match (tool == "glob", n == 1) {
            (true, true) => "path",
            (true, false) => "paths",
            (false, true) => "result",
            (false, false) => "results",
        }
    )];
    if v["truncated"].as_bool() == Some(true) {
        let mut how = "truncated: more results exist".to_string();
        if let Some(c) = v["next_cursor"].as_str() {
            how.push_str(&format!("; call again with cursor=\"{c}\""));
        }
        if let Some(o) = v["next_offset"].as_u64() {
            how.push_str(&format!(" (or offset={o})"));
        }
        footer.push(how);
    } else {
        footer.push("complete".into());
    }
    if v["timed_out"].as_bool() == Some(true) {
        footer.push("timed out: the page holds what was found before the deadline".into());
    }
    if let Some(t) = v["total"].as_u64() {
        footer.push(format!("total={t}"));
    }
    if let Some(st) = v.get("stats") {
        let mut s = format!(
            "files searched={}",
            st["files_searched"].as_u64().unwrap_or(0)
        );
        if let Some(sk) = st["skipped"].as_object() {
            let parts: Vec<String> = sk
                .iter()
                .filter(|(_, c)| c.as_u64().unwrap_or(0) > 0)
                .map(|(k, c)| format!("{k}={c}"))
                .collect();
            if !parts.is_empty() {
                s.push_str(&format!("; skipped: {}", parts.join(", ")));
            }
        }
        footer.push(s);
    }
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

fn render_list(v: &Value) -> String {
    let mut out = String::new();
    if let Some(p) = v["path"].as_str() {
        out.push_str(&format!("{p}:\n"));
    }
    for e in v["entries"].as_array().into_iter().flatten() {
        let name = e["name"].as_str().unwrap_or("");
        let kind = e["kind"].as_str().unwrap_or("");
        let size = e["size"].as_u64().unwrap_or(0);
        match kind {
            "dir" => out.push_str(&format!("{name}/\n")),
            "file" => out.push_str(&format!("{name}\t{size} bytes\n")),
            other => out.push_str(&format!("{name}\t({other})\n")),
        }
    }
    let mut footer = vec![format!(
        "{} of {} entries",
        v["entries"].as_array().map_or(0, Vec::len),
        v["total"].as_u64().unwrap_or(0)
    )];
    if v["truncated"].as_bool() == Some(true) {
        footer.push(format!(
            "truncated: call again with offset={}",
            v["next_offset"].as_u64().unwrap_or(0)
        ));
    }
    for k in ["hidden", "ignored"] {
        let c = v[k].as_u64().unwrap_or(0);
        if c > 0 {
            footer.push(format!("{c} {k} entries left out"));
        }
    }
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

fn render_stat(v: &Value) -> String {
    let mut out = String::new();
    for k in ["path", "kind", "size", "mtime", "lines"] {
        match &v[k] {
            Value::Null => {}
            Value::String(s) => out.push_str(&format!("{k}: {s}\n")),
            other => out.push_str(&format!("{k}: {other}\n")),
        }
    }
    out
}

fn render_write(v: &Value) -> String {
    let path = v["path"].as_str().unwrap_or("");
    if v["deleted"].as_bool() == Some(true) {
        return format!("deleted {path}");
    }
    let how = if v["replaced"].as_bool() == Some(true) {
        "replaced"
    } else {
        "created"
    };
    format!(
        "{how} {path} ({} bytes)",
        v["bytes_written"].as_u64().unwrap_or(0)
    )
}
