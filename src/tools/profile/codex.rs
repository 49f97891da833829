//! The `codex` dialect: the file tools OpenAI's Codex CLI gives its models (openai/codex
//! `codex-rs/core/src/tools`: `read_file`, `list_dir`, `grep_files`), with their argument names,
//! defaults, output text and limits, over rootbound's engine and gate.

use super::{input_of, parse, text, text_output, Def, Presented};
use crate::core::error::Error;
use crate::core::open::Kind;
use crate::engine::Within;
use crate::search::contract::Globs;
use crate::search::contract::GrepArgs;
use crate::search::contract::OutputMode;
use crate::tools::api::ReadArgs;
use crate::tools::api::StatArgs;
use crate::tools::api::TreeArgs;
use crate::tools::tree::TreeNode;
use crate::tools::ToolName;
use schemars::JsonSchema;
use serde::Deserialize;
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
    /// Indentation mode options (used only by indentation mode).
    indentation: Option<Indentation>,
}

/// read_file's mode.
#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Mode {
    /// Simple line ranges.
    Slice,
    /// The block around an anchor line.
    Indentation,
}

/// Indentation-mode options.
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
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
                run: |sb, a| read(sb, parse(a)?),
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
                run: |sb, a| list(sb, parse(a)?),
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
                run: |sb, a| grep(sb, parse(a)?),
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

fn read(sb: &Within<'_>, a: Read) -> Result<Presented, Error> {
    // As in Codex, the indentation options matter only in indentation mode.
    if a.mode == Some(Mode::Indentation) {
        return indentation::read(sb, a);
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
        lines.push(numbered(offset + i as u64, line));
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
    // A document whose extraction failed or was cut says so (never an empty success).
    Ok(text(super::with_extraction_note(&r, out), None))
}

/// A line as Codex's read_file shows it: `L{n}: ` and its first 500 bytes (cut at a character
/// boundary).
fn numbered(n: u64, line: &str) -> String {
    let mut end = line.len().min(MAX_LINE_BYTES);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("L{n}: {}", &line[..end])
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

fn list(sb: &Within<'_>, a: List) -> Result<Presented, Error> {
    let offset = a.offset.unwrap_or(1);
    let limit = a.limit.unwrap_or(LIST_LIMIT);
    let depth = a.depth.unwrap_or(LIST_DEPTH);
    let r = sb.directory_tree(&TreeArgs {
        path: Some(a.dir_path.clone()),
        max_depth: Some(depth),
        max_entries: Some(sb.policy().limits.max_list_entries as u64),
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

fn grep(sb: &Within<'_>, a: Grep) -> Result<Presented, Error> {
    if a.pattern.trim().is_empty() {
        return Err(Error::invalid("pattern must not be empty"));
    }
    let limit = a.limit.unwrap_or(GREP_LIMIT).min(GREP_MAX);
    let mut args = GrepArgs {
        pattern: a.pattern.trim().to_string(),
        path: a.path,
        include: a.include.map(|g| Globs::One(g.trim().to_string())),
        output_mode: Some(OutputMode::FilesWithMatches),
        limit: Some(sb.policy().limits.max_results as u64),
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
            // Past the call's budget the rest keep their path order (each stat may count lines).
            let t = match sb.budget().spent() {
                true => i64::MIN,
                false => sb
                    .stat(&StatArgs { path: f.clone() })
                    .map_or(i64::MIN, |s| s.mtime_unix),
            };
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

/// Codex's read_file `mode: "indentation"` (openai/codex `codex-rs/core/src/tools/handlers/read_file.rs`,
/// `mod indentation`): the block of code around an anchor line, found from the lines' indentation.
/// The file's text comes from the engine's read_file (the gate, the read limit), read whole: a file
/// the server does not read in one call is refused, since a block found in part of it may be wrong.
mod indentation {
    use super::{numbered, text, Presented, Read, READ_LINES};
    use crate::core::error::{Error, ErrorCode};
    use crate::engine::Within;
    use crate::tools::api::ReadArgs;

    /// Columns a tab counts for when measuring indentation.
    const TAB_WIDTH: u64 = 4;
    /// A line starting with one of these (after spaces) is a comment: a header kept above a block.
    const COMMENT_PREFIXES: &[&str] = &["#", "//", "--"];

    /// One line of the file (without its line ending) and its indentation in columns.
    struct Line<'a> {
        text: &'a str,
        indent: u64,
    }

    impl Line<'_> {
        fn blank(&self) -> bool {
            self.text.trim().is_empty()
        }

        fn comment(&self) -> bool {
            let t = self.text.trim();
            COMMENT_PREFIXES.iter().any(|p| t.starts_with(p))
        }
    }

    fn indent_of(line: &str) -> u64 {
        line.chars()
            .take_while(|c| matches!(c, ' ' | '\t'))
            .map(|c| if c == '\t' { TAB_WIDTH } else { 1 })
            .sum()
    }

    pub(super) fn read(sb: &Within<'_>, a: Read) -> Result<Presented, Error> {
        let offset = a.offset.unwrap_or(1);
        let limit = a.limit.unwrap_or(READ_LINES);
        let opts = a.indentation.unwrap_or_default();
        // 0 means "not set" here, as for offset and limit (the zero rule): Codex refuses it.
        let anchor = opts.anchor_line.filter(|&n| n > 0).unwrap_or(offset);
        let guard = opts.max_lines.filter(|&n| n > 0).unwrap_or(limit);
        let max_levels = opts.max_levels.unwrap_or(0);
        let siblings = opts.include_siblings.unwrap_or(false);
        let header = opts.include_header.unwrap_or(true);
        let path = a.file_path;
        let r = sb.read_file(&ReadArgs {
            path: path.clone(),
            start_line: Some(1),
            max_lines: Some(u64::MAX),
            ..Default::default()
        })?;
        if r.binary {
            return Ok(text(crate::tools::render::read(&r), None));
        }
        if r.truncated {
            let why = if r.timed_out {
                "the read ran out of the call's time budget before the end of the file".to_string()
            } else {
                format!(
                    "the file ({} bytes) is larger than this server reads in one call ({} bytes)",
                    r.total_bytes,
                    sb.policy().limits.max_read_bytes
                )
            };
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!(
                    "indentation mode needs the whole of '{path}' and {why}; use mode \"slice\" with offset and limit"
                ),
            ));
        }
        let lines: Vec<Line> = r
            .content
            .split_inclusive('\n')
            .map(|l| {
                let text = l.strip_suffix('\n').unwrap_or(l);
                Line {
                    text,
                    indent: indent_of(text),
                }
            })
            .collect();
        let out = block(&lines, anchor, limit, guard, max_levels, siblings, header)?;
        Ok(text(out.join("\n"), None))
    }

    /// The block around line `anchor` (1-based) as `L{n}: text` lines: Codex's algorithm, step for
    /// step (its quirks included), so the same file and options give the same lines.
    fn block(
        lines: &[Line],
        anchor: u64,
        limit: u64,
        guard: u64,
        max_levels: u64,
        siblings: bool,
        header: bool,
    ) -> Result<Vec<String>, Error> {
        let n = lines.len();
        if n == 0 || anchor > n as u64 {
            return Err(Error::invalid("anchor_line exceeds file length"));
        }
        let at = (anchor - 1) as usize;
        // A blank line has the indentation of the last non-blank line above it.
        let mut effective = Vec::with_capacity(n);
        let mut last = 0;
        for l in lines {
            if !l.blank() {
                last = l.indent;
            }
            effective.push(last);
        }
        let min_indent = if max_levels == 0 {
            0
        } else {
            effective[at].saturating_sub(max_levels.saturating_mul(TAB_WIDTH))
        };
        let want = limit.min(guard).min(n as u64) as usize;
        let show = |i: usize| numbered(i as u64 + 1, lines[i].text);
        if want == 1 {
            return Ok(vec![show(at)]);
        }
        // The block is lines lo..=hi, grown one line up and one line down per round.
        let (mut lo, mut hi) = (at, at);
        let mut up = at.checked_sub(1);
        let mut down = at + 1;
        let (mut up_at_min, mut down_at_min) = (0u32, 0u32);
        while hi - lo + 1 < want {
            let mut grew = 0i32;
            if let Some(i) = up {
                if effective[i] >= min_indent {
                    lo = i;
                    grew += 1;
                    up = i.checked_sub(1);
                    // A line at the lowest level is taken once going up (a sibling's start
                    // otherwise), and comments above it as headers when asked for.
                    if effective[i] == min_indent && !siblings {
                        if (header && lines[i].comment()) || up_at_min == 0 {
                            up_at_min += 1;
                        } else {
                            lo = i + 1;
                            grew -= 1;
                            up = None;
                        }
                    }
                    if hi - lo + 1 >= want {
                        break;
                    }
                } else {
                    up = None;
                }
            }
            if down < n {
                let j = down;
                if effective[j] >= min_indent {
                    hi = j;
                    grew += 1;
                    down += 1;
                    // Going down, one line at the lowest level is taken (a block's closing
                    // line); the next one ends the block.
                    if effective[j] == min_indent && !siblings {
                        if down_at_min > 0 {
                            hi = j - 1;
                            grew -= 1;
                            down = n;
                        }
                        down_at_min += 1;
                    }
                } else {
                    down = n;
                }
            }
            if grew == 0 {
                break;
            }
        }
        // Blank lines at either end are left out.
        while lo <= hi && lines[lo].blank() {
            lo += 1;
        }
        while hi >= lo && lines[hi].blank() {
            if hi == 0 {
                return Ok(Vec::new());
            }
            hi -= 1;
        }
        Ok((lo..=hi).map(show).collect())
    }
}
