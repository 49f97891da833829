//! The listing tools of the `mcp-filesystem` dialect: list_directory(_with_sizes), directory_tree,
//! search_files.

use super::{Search, SortBy, Tree};
use crate::core::error::Error;
use crate::search::within::Within;
use crate::tools::profile::{excluded, globs, text, Presented};
use crate::tools::tree::TreeNode;
use crate::{GlobArgs, Globs, ListArgs, TreeArgs};
use serde_json::{json, Value};

/// `formatSize` of the reference server.
fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} {}", UNITS[0]);
    }
    let mut i = 0;
    let mut v = bytes as f64;
    while v >= 1024.0 && i < UNITS.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    format!("{v:.2} {}", UNITS[i])
}

pub(super) fn list(
    sb: &Within<'_>,
    path: String,
    sizes: Option<SortBy>,
) -> Result<Presented, Error> {
    let r = sb.list_dir(&ListArgs {
        path: Some(path),
        hidden: Some(true),
        limit: Some(sb.policy().limits.max_list_entries as u64),
        ..Default::default()
    })?;
    let mut entries: Vec<&crate::Entry> = r.entries.iter().collect();
    let tag = |k: &str| if k == "dir" { "[DIR]" } else { "[FILE]" };
    let mut lines: Vec<String> = match sizes {
        None => entries
            .iter()
            .map(|e| format!("{} {}", tag(e.kind.as_str()), e.name))
            .collect(),
        Some(by) => {
            if by == SortBy::Size {
                entries.sort_by_key(|e| std::cmp::Reverse(e.size));
            }
            let mut v: Vec<String> = entries
                .iter()
                .map(|e| {
                    let size = if e.kind == "dir" {
                        String::new()
                    } else {
                        format!("{:>10}", format_size(e.size))
                    };
                    format!("{} {:<30} {size}", tag(e.kind.as_str()), e.name)
                })
                .collect();
            let files = entries.iter().filter(|e| e.kind != "dir").count();
            let total: u64 = entries
                .iter()
                .filter(|e| e.kind != "dir")
                .map(|e| e.size)
                .sum();
            v.push(String::new());
            v.push(format!(
                "Total: {files} files, {} directories",
                entries.len() - files
            ));
            v.push(format!("Combined size: {}", format_size(total)));
            v
        }
    };
    if r.truncated {
        lines.push(format!(
            "[{} more entries not listed: the server lists at most {} per call]",
            r.total.saturating_sub(r.next_offset),
            r.entries.len()
        ));
    }
    Ok(text(lines.join("\n"), None))
}

pub(super) fn tree(sb: &Within<'_>, a: Tree) -> Result<Presented, Error> {
    let ex = a.exclude_patterns.unwrap_or_default();
    let r = sb.directory_tree(&TreeArgs {
        path: Some(super::home(sb, a.path)?),
        exclude: (!ex.is_empty()).then_some(Globs::Many(ex)),
        hidden: Some(true),
        ..Default::default()
    })?;
    fn node(n: &TreeNode) -> Value {
        let dir = n.kind == "dir";
        let mut v = json!({"name": n.name, "type": if dir { "directory" } else { "file" }});
        if dir {
            let kids: Vec<Value> = n.children.iter().flatten().map(node).collect();
            v["children"] = Value::Array(kids);
        }
        v
    }
    let top: Vec<Value> = r.tree.children.iter().flatten().map(node).collect();
    let mut out = serde_json::to_string_pretty(&top).unwrap_or_default();
    let o = &r.omitted;
    if r.truncated || o.depth_limited > 0 || o.over_limit > 0 {
        out.push_str(&format!(
            "\n[not listed: {} entries past the entry limit, {} directories past the depth limit]",
            o.over_limit, o.depth_limited
        ));
    }
    Ok(text(out, None))
}

pub(super) fn search(sb: &Within<'_>, a: Search) -> Result<Presented, Error> {
    let exclude = globs(a.exclude_patterns.as_deref().unwrap_or_default())?;
    let r = sb.glob(&GlobArgs {
        pattern: a.pattern,
        path: Some(super::home(sb, a.path)?),
        hidden: Some(true),
        limit: Some(sb.policy().limits.max_results as u64),
        ..Default::default()
    })?;
    let found: Vec<&str> = r
        .matches
        .lines()
        .filter(|p| !excluded(&exclude, p))
        .collect();
    let mut out = if found.is_empty() {
        "No matches found".to_string()
    } else {
        found.join("\n")
    };
    if r.truncated {
        out.push_str("\n[more files match: narrow the pattern or path]");
    }
    Ok(text(out, None))
}
