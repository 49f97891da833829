//! The `codex` dialect: the file tools OpenAI's Codex CLI gives its models (openai/codex
//! `codex-rs/core/src/tools`: `read_file`, `list_dir`, `grep_files`), with their argument names,
//! defaults, output text and limits, over rootbound's engine and gate.

use super::{input_of, parse, text, text_output, Def, Presented};
use crate::core::error::Error;
use crate::core::sandbox::Sandbox;
use crate::tools::tree::TreeNode;
use crate::tools::ToolName;
use crate::{Globs, GrepArgs, Kind, OutputMode, ReadArgs, StatArgs, TreeArgs};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;

/// Codex's read_file: lines returned by default, and the longest line kept (bytes).
const READ_LINES: u64 = 2000;
const MAX_LINE_BYTES: usize = 500;
/// Codex's list_dir defaults.
const LIST_LIMIT: u64 = 25;
const LIST_DEPTH: u64 = 2;
/// Codex's grep_files: default and largest `limit`.
const GREP_LIMIT: u64 = 100;
const GREP_MAX: u64 = 2000;

/// read_file's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Read {
    /// Absolute path to the file
    file_path: String,
    /// The line number to start reading from. Must be 1 or greater.
    #[schemars(range(min = 1))]
    offset: Option<u64>,
    /// The maximum number of lines to return.
    #[schemars(range(min = 1))]
    limit: Option<u64>,
    /// Optional mode selector: "slice" for simple ranges (default) or "indentation" to expand around an anchor line.
    mode: Option<Mode>,
    /// Indentation mode options (used only by indentation mode, which this server does not offer).
    indentation: Option<Indentation>,
}

/// read_file's mode.
#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Mode {
    /// Simple line ranges.
    Slice,
    /// The block around an anchor line (not offered here).
    Indentation,
}

/// Indentation-mode options.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Indentation {
    /// Anchor line to center the indentation lookup on (defaults to offset).
    anchor_line: Option<u64>,
    /// How many parent indentation levels (smaller indents) to include.
    max_levels: Option<u64>,
    /// When true, include additional blocks that share the anchor indentation.
    include_siblings: Option<bool>,
    /// Include doc comments or attributes directly above the selected block.
    include_header: Option<bool>,
    /// Hard cap on the number of lines returned when using indentation mode.
    max_lines: Option<u64>,
}

/// list_dir's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct List {
    /// Absolute path to the directory to list.
    dir_path: String,
    /// The entry number to start listing from. Must be 1 or greater.
    #[schemars(range(min = 1))]
    offset: Option<u64>,
    /// The maximum number of entries to return.
    #[schemars(range(min = 1))]
    limit: Option<u64>,
    /// The maximum directory depth to traverse. Must be 1 or greater.
    #[schemars(range(min = 1))]
    depth: Option<u64>,
}

/// grep_files' arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Grep {
    /// Regular expression pattern to search for.
    pattern: String,
    /// Optional glob that limits which files are searched (e.g. "*.rs" or "*.{ts,tsx}").
    include: Option<String>,
    /// Directory or file path to search. Defaults to every allowed directory.
    path: Option<String>,
    /// Maximum number of file paths to return (defaults to 100).
    #[schemars(range(min = 1))]
    limit: Option<u64>,
}

pub(super) fn defs() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| {
        vec![
            Def {
                name: "read_file",
                aliases: &[],
                title: "read_file",
                description: "Reads a local file with 1-indexed line numbers, supporting slice and indentation-aware block modes.",
                engine: ToolName::ReadFile,
                input: input_of::<Read>(),
                output: text_output(false),
                unset: &["offset", "limit", "mode"],
            },
            Def {
                name: "list_dir",
                aliases: &[],
                title: "list_dir",
                description: "Lists entries in a local directory with 1-indexed entry numbers and simple type labels.",
                engine: ToolName::DirectoryTree,
                input: input_of::<List>(),
                output: text_output(false),
                unset: &["offset", "limit", "depth"],
            },
            Def {
                name: "grep_files",
                aliases: &[],
                title: "grep_files",
                description: "Finds files whose contents match the pattern and lists them by modification time.",
                engine: ToolName::GrepSearch,
                input: input_of::<Grep>(),
                output: text_output(false),
                unset: &["include", "path", "limit"],
            },
        ]
        .into_iter()
        .map(Def::finish)
        .collect()
    })
}

pub(super) fn call(sb: &Sandbox, def: &Def, args: Value) -> Result<Presented, Error> {
    match def.engine {
        ToolName::ReadFile => read(sb, parse(args)?),
        ToolName::DirectoryTree => list(sb, parse(args)?),
        _ => grep(sb, parse(args)?),
    }
}

fn read(sb: &Sandbox, a: Read) -> Result<Presented, Error> {
    // As in Codex, the indentation options matter only in indentation mode.
    let _ = a.indentation;
    if a.mode == Some(Mode::Indentation) {
        return Err(Error::invalid(
            "indentation mode is not offered by this server; use mode \"slice\" with offset and limit",
        ));
    }
    let offset = a.offset.unwrap_or(1);
    let limit = a.limit.unwrap_or(READ_LINES);
    let r = sb.read_file(&ReadArgs {
        path: a.file_path,
        start_line: Some(offset),
        max_lines: Some(limit),
        ..Default::default()
    })?;
    if r.binary {
        return Ok(text(crate::tools::render::read(&r), None));
    }
    if r.content.is_empty() && offset > 1 {
        return Err(Error::invalid("offset exceeds file length"));
    }
    let mut lines: Vec<String> = Vec::new();
    for (i, line) in r.content.lines().enumerate() {
        let mut end = line.len().min(MAX_LINE_BYTES);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        lines.push(format!("L{}: {}", offset + i as u64, &line[..end]));
    }
    let mut out = lines.join("\n");
    let shown = lines.len() as u64;
    if r.truncated && shown < limit {
        // The server's byte cap cut the page before `limit` lines.
        out.push_str(&format!(
            "\n[more lines follow: call read_file with offset={}]",
            offset + shown
        ));
    }
    Ok(text(out, None))
}

/// One listed entry: its path relative to the listed directory, depth and kind.
struct Entry {
    rel: String,
    depth: usize,
    name: String,
    kind: Kind,
}

fn flatten(node: &TreeNode, prefix: &str, depth: usize, out: &mut Vec<Entry>) {
    for c in node.children.iter().flatten() {
        let rel = if prefix.is_empty() {
            c.name.clone()
        } else {
            format!("{prefix}/{}", c.name)
        };
        out.push(Entry {
            rel: rel.clone(),
            depth,
            name: c.name.clone(),
            kind: c.kind,
        });
        flatten(c, &rel, depth + 1, out);
    }
}

fn list(sb: &Sandbox, a: List) -> Result<Presented, Error> {
    let offset = a.offset.unwrap_or(1);
    let limit = a.limit.unwrap_or(LIST_LIMIT);
    let depth = a.depth.unwrap_or(LIST_DEPTH);
    let r = sb.directory_tree(&TreeArgs {
        path: Some(a.dir_path.clone()),
        max_depth: Some(depth),
        max_entries: Some(sb.policy.limits.max_list_entries as u64),
        hidden: Some(true),
        ..Default::default()
    })?;
    let mut entries = Vec::new();
    flatten(&r.tree, "", 0, &mut entries);
    entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    let mut out = vec![format!("Absolute path: {}", r.path)];
    if !entries.is_empty() {
        let start = (offset - 1) as usize;
        if start >= entries.len() {
            return Err(Error::invalid("offset exceeds directory entry count"));
        }
        let end = start.saturating_add(limit as usize).min(entries.len());
        for e in &entries[start..end] {
            let mark = match e.kind {
                Kind::Dir => "/",
                Kind::Symlink => "@",
                Kind::Other => "?",
                Kind::File => "",
            };
            out.push(format!("{}{}{mark}", "  ".repeat(e.depth), e.name));
        }
        if end < entries.len() {
            out.push(format!("More than {} entries found", end - start));
        }
    }
    if r.truncated {
        out.push(format!(
            "[the server listed at most {} entries of this tree]",
            r.entries
        ));
    }
    Ok(text(out.join("\n"), None))
}

fn grep(sb: &Sandbox, a: Grep) -> Result<Presented, Error> {
    if a.pattern.trim().is_empty() {
        return Err(Error::invalid("pattern must not be empty"));
    }
    let limit = a.limit.unwrap_or(GREP_LIMIT).min(GREP_MAX);
    let mut args = GrepArgs {
        pattern: a.pattern.trim().to_string(),
        path: a.path,
        include: a.include.map(|g| Globs::One(g.trim().to_string())),
        output_mode: Some(OutputMode::FilesWithMatches),
        limit: Some(sb.policy.limits.max_results as u64),
        ..Default::default()
    };
    let mut files: Vec<String> = Vec::new();
    let more;
    // Every matching file is needed to order them by modification time (as rg --sortr=modified).
    loop {
        let page = sb.grep_search(&args)?;
        files.extend(page.matches.lines().map(String::from));
        match page.next_cursor {
            Some(c)
                if page.truncated && !page.timed_out && files.len() < 10 * GREP_MAX as usize =>
            {
                args.cursor = Some(c);
            }
            _ => {
                more = page.truncated;
                break;
            }
        }
    }
    if files.is_empty() {
        return Ok(text("No matches found.".into(), None));
    }
    let mut dated: Vec<(i64, String)> = files
        .into_iter()
        .map(|f| {
            let t = sb
                .stat(&StatArgs { path: f.clone() })
                .map_or(i64::MIN, |s| s.mtime_unix);
            (t, f)
        })
        .collect();
    dated.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
    let mut out: Vec<String> = dated
        .into_iter()
        .take(limit as usize)
        .map(|(_, f)| f)
        .collect();
    if more {
        out.push(
            "[the search was cut by the server's bounds: newest first among the files found]"
                .into(),
        );
    }
    Ok(text(out.join("\n"), None))
}
