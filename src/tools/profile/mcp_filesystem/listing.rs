//! The listing tools of the `mcp-filesystem` dialect: list_directory(_with_sizes), directory_tree,
//! search_files.

use super::{Search, SortBy, Tree};
use crate::core::error::Error;
use crate::engine::Within;
use crate::search::contract::GlobArgs;
use crate::search::contract::Globs;
use crate::search::query::check_glob;
use crate::tools::api::ListArgs;
use crate::tools::api::TreeArgs;
use crate::tools::profile::{excluded, globs, text, Presented};
use crate::tools::tree::TreeNode;
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
        no_sizes: sizes.is_none(),
        ..Default::default()
    })?;
    let mut entries: Vec<&crate::tools::api::Entry> = r.entries.iter().collect();
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
    // As the reference: a pattern with `*` is matched against the entry's path relative to the
    // tree's root (`*.js` does not cross a `/`), here on the engine's tree; a bare name leaves out
    // that name at any depth, which the engine's exclude does.
    let (starred, bare): (Vec<String>, Vec<String>) = a
        .exclude_patterns
        .unwrap_or_default()
        .into_iter()
        .partition(|p| p.contains('*'));
    let starred = relative_globs(&starred)?;
    let r = sb.directory_tree(&TreeArgs {
        path: Some(super::home(sb, a.path)?),
        exclude: (!bare.is_empty()).then_some(Globs::Many(bare)),
        hidden: Some(true),
        ..Default::default()
    })?;
    fn node(n: &TreeNode, at: &str, out: &globset::GlobSet) -> Option<Value> {
        let rel = if at.is_empty() {
            n.name.clone()
        } else {
            format!("{at}/{}", n.name)
        };
        if out.is_match(&rel) {
            return None;
        }
        let dir = n.kind == "dir";
        let mut v = json!({"name": n.name, "type": if dir { "directory" } else { "file" }});
        if dir {
            let kids = n.children.iter().flatten();
            v["children"] = Value::Array(kids.filter_map(|k| node(k, &rel, out)).collect());
        }
        Some(v)
    }
    let top: Vec<Value> = r
        .tree
        .children
        .iter()
        .flatten()
        .filter_map(|n| node(n, "", &starred))
        .collect();
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

/// Globs matched as minimatch matches them: against a relative path, `*` not crossing a `/`, dot
/// files included. Bounded like every exclude list.
fn relative_globs(patterns: &[String]) -> Result<globset::GlobSet, Error> {
    // The engine's bounds on exclude lists (count and length) are checked by `globs`.
    globs(patterns)?;
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        let g = globset::GlobBuilder::new(p)
            .literal_separator(true)
            .build()
            .map_err(|e| Error::invalid(format!("bad exclude pattern '{p}': {e}")))?;
        b.add(g);
    }
    b.build()
        .map_err(|e| Error::invalid(format!("bad exclude patterns: {e}")))
}

pub(super) fn search(sb: &Within<'_>, a: Search) -> Result<Presented, Error> {
    let exclude = globs(a.exclude_patterns.as_deref().unwrap_or_default())?;
    let path = super::home(sb, a.path)?;
    if !a.pattern.contains('/') {
        return search_top(sb, path, &a.pattern, &exclude);
    }
    let r = sb.glob(&GlobArgs {
        pattern: a.pattern.clone(),
        path: Some(path.clone()),
        hidden: Some(true),
        limit: Some(sb.policy().limits.max_results as u64),
        ..Default::default()
    })?;
    let (dirs, cut) = matching_dirs(sb, path, &a.pattern, &exclude)?;
    let mut found: Vec<&str> = r
        .matches
        .lines()
        .filter(|p| !excluded(&exclude, p))
        .chain(dirs.iter().map(String::as_str))
        .collect();
    found.sort_by(|x, y| std::path::Path::new(x).cmp(std::path::Path::new(y)));
    let mut out = found_text(&found, r.truncated)?;
    if cut {
        // The files are the glob's (complete up to its own note); only directories were bounded.
        let note = "[directories past the listing's depth or entry limit were not matched: narrow the path]";
        out = text(format!("{}\n{note}", out.text()), None);
    }
    Ok(out)
}

/// The directories under `path` whose path relative to it matches `pattern` as minimatch matches
/// it (`*` not crossing a `/`, `**` any depth), which the reference lists with the files and the
/// engine's glob (files only) does not: found on the engine's tree (bounded in depth and entries,
/// symlinks not followed; the flag says it was cut), an excluded directory not entered.
fn matching_dirs(
    sb: &Within<'_>,
    path: String,
    pattern: &str,
    exclude: &globset::GlobSet,
) -> Result<(Vec<String>, bool), Error> {
    let glob = relative_globs(&[pattern.to_string()])?;
    let r = sb.directory_tree(&TreeArgs {
        path: Some(path),
        hidden: Some(true),
        max_depth: Some(16),
        ..Default::default()
    })?;
    fn walk(n: &TreeNode, rel: &str, full: &str, m: &Matchers<'_>, out: &mut Vec<String>) {
        for k in n.children.iter().flatten().filter(|k| k.kind == "dir") {
            let (rel, full) = if rel.is_empty() {
                (k.name.clone(), format!("{full}/{}", k.name))
            } else {
                (format!("{rel}/{}", k.name), format!("{full}/{}", k.name))
            };
            if excluded(m.exclude, &full) {
                continue;
            }
            if m.glob.is_match(&rel) {
                out.push(full.clone());
            }
            walk(k, &rel, &full, m, out);
        }
    }
    struct Matchers<'a> {
        glob: &'a globset::GlobSet,
        exclude: &'a globset::GlobSet,
    }
    let mut out = Vec::new();
    let m = Matchers {
        glob: &glob,
        exclude,
    };
    walk(&r.tree, "", r.path.trim_end_matches('/'), &m, &mut out);
    let o = &r.omitted;
    Ok((out, r.truncated || o.depth_limited > 0 || o.over_limit > 0))
}

/// A pattern without `/` is matched by the reference (minimatch, against the path relative to the
/// searched directory) with the entries of that directory only, files and directories alike,
/// where the engine's glob matches file names at any depth: the dialect lists the directory.
fn search_top(
    sb: &Within<'_>,
    path: String,
    pattern: &str,
    exclude: &globset::GlobSet,
) -> Result<Presented, Error> {
    // The engine glob's bounds, then a set's build, which reports a regex over its size limit
    // where `compile_matcher` panics (a 2 MB pattern aborted the call).
    check_glob(pattern, sb.policy().limits.max_pattern_len)?;
    let mut set = globset::GlobSetBuilder::new();
    set.add(
        globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| Error::invalid(format!("bad pattern '{pattern}': {e}")))?,
    );
    let glob = set
        .build()
        .map_err(|e| Error::invalid(format!("bad pattern '{pattern}': {e}")))?;
    let r = sb.list_dir(&ListArgs {
        path: Some(path.clone()),
        hidden: Some(true),
        limit: Some(sb.policy().limits.max_list_entries as u64),
        no_sizes: true,
        ..Default::default()
    })?;
    let dir = path.trim_end_matches('/');
    let found: Vec<String> = r
        .entries
        .iter()
        // A symlink is not followed to see what it names (it may lead out of the roots).
        .filter(|e| e.kind != "symlink" && glob.is_match(&e.name))
        .map(|e| format!("{dir}/{}", e.name))
        .filter(|p| !excluded(exclude, p))
        .collect();
    let found: Vec<&str> = found.iter().map(String::as_str).collect();
    found_text(&found, r.truncated)
}

fn found_text(found: &[&str], truncated: bool) -> Result<Presented, Error> {
    let mut out = if found.is_empty() {
        "No matches found".to_string()
    } else {
        found.join("\n")
    };
    if truncated {
        out.push_str("\n[more files match: narrow the pattern or path]");
    }
    Ok(text(out, None))
}
