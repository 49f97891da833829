//! The `claude-code` dialect: Read, Grep, Glob, and with a write root Write and Edit, with Claude
//! Code's parameter names and semantics (Read's offset/limit count LINES and its output is numbered
//! like `cat -n`; Grep takes ripgrep-style flags and pages with head_limit/offset).

use super::{input_of, parse, text, text_output, Def, Presented};
use crate::core::error::Error;
use crate::engine::Within;
use crate::search::contract::GlobArgs;
use crate::search::contract::Globs;
use crate::search::contract::GrepArgs;
use crate::search::contract::GrepResult;
use crate::search::contract::HitKind;
use crate::search::contract::OutputFormat;
use crate::search::contract::OutputMode;
use crate::tools::api::EditArgs;
use crate::tools::api::ReadArgs;
use crate::tools::ToolName;
use schemars::JsonSchema;
use serde::Deserialize;
use std::sync::OnceLock;

/// Lines Read returns when no limit is given (Claude Code's default).
const READ_LINES: u64 = 2000;
/// Grep's head_limit when none is given.
const HEAD_LIMIT: u64 = 250;
/// Glob's result cap (Claude Code returns at most 100 paths).
const GLOB_LIMIT: u64 = 100;

/// Read's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Read {
    /// The absolute path to the file to read.
    file_path: String,
    /// The line number to start reading from (1-based). Only provide if the file is too large to read at once.
    #[schemars(range(min = 0))]
    offset: Option<u64>,
    /// The number of lines to read. Only provide if the file is too large to read at once.
    #[schemars(range(min = 1))]
    limit: Option<u64>,
}

/// Grep's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Grep {
    /// The regular expression pattern to search for in file contents (Rust regex syntax, like ripgrep).
    pattern: String,
    /// File or directory to search in. Defaults to every allowed directory.
    path: Option<String>,
    /// Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}").
    glob: Option<String>,
    /// File type to search (rg --type), e.g. js, py, rust, go, java.
    #[serde(rename = "type")]
    file_type: Option<String>,
    /// Output mode: "content" shows matching lines, "files_with_matches" shows file paths (default), "count" shows match counts.
    output_mode: Option<OutputMode>,
    /// Case insensitive search (rg -i).
    #[serde(rename = "-i")]
    case_insensitive: Option<bool>,
    /// Show line numbers in output (rg -n). Requires output_mode: "content". Defaults to true.
    #[serde(rename = "-n")]
    line_numbers: Option<bool>,
    /// Number of lines to show after each match (rg -A). Requires output_mode "content".
    #[serde(rename = "-A")]
    #[schemars(range(min = 0))]
    after: Option<u64>,
    /// Number of lines to show before each match (rg -B). Requires output_mode "content".
    #[serde(rename = "-B")]
    #[schemars(range(min = 0))]
    before: Option<u64>,
    /// Number of lines to show before and after each match (rg -C). Requires output_mode "content".
    #[serde(rename = "-C")]
    #[schemars(range(min = 0))]
    context: Option<u64>,
    /// Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall).
    multiline: Option<bool>,
    /// Limit output to the first N lines/entries (default 250; 0 means the server's largest page).
    #[schemars(range(min = 0))]
    head_limit: Option<u64>,
    /// Skip the first N lines/entries before applying head_limit (to page).
    #[schemars(range(min = 0))]
    offset: Option<u64>,
}

/// Glob's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GlobIn {
    /// The glob pattern to match files against (e.g. "**/*.js", "src/**/*.ts").
    pattern: String,
    /// The directory to search in. Defaults to every allowed directory.
    path: Option<String>,
}

/// Write's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Write {
    /// The absolute path to the file to write.
    file_path: String,
    /// The content to write to the file.
    content: String,
}

/// Edit's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Edit {
    /// The absolute path to the file to modify.
    file_path: String,
    /// The text to replace (exactly as in the file, without Read's line-number prefix).
    old_string: String,
    /// The text to replace it with (must be different from old_string).
    new_string: String,
    /// Replace all occurrences of old_string (default false: it must occur exactly once).
    replace_all: Option<bool>,
}

pub(super) fn defs() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| {
        vec![
            Def {
                name: "Read",
                aliases: &[],
                title: "Read",
                description: "Reads a file from the local filesystem. The file_path parameter must be an absolute path. \
                    By default it reads up to 2000 lines from the beginning of the file; offset (a 1-based line number) \
                    and limit (a number of lines) read a part. Results are numbered like cat -n (line number, tab, \
                    text). A page is also cut at the server's byte limit: the last line says how to continue.",
                engine: ToolName::ReadFile,
                run: |sb, a| read(sb, parse(a)?),
                input: input_of::<Read>(),
                output: text_output(true),
                unset: &["offset", "limit"],
            },
            Def {
                name: "Grep",
                aliases: &[],
                title: "Grep",
                description: "A search tool built on ripgrep's engine: full regex syntax (e.g. \"log.*Error\", \"function\\s+\\w+\"). \
                    Filter files with glob (e.g. \"*.js\") or type (e.g. \"py\"). output_mode: \"content\" shows matching \
                    lines (path:line:text), \"files_with_matches\" shows file paths (default), \"count\" shows match counts. \
                    Results are in path order; page with head_limit and offset.",
                engine: ToolName::GrepSearch,
                run: |sb, a| grep(sb, parse(a)?),
                input: input_of::<Grep>(),
                output: text_output(true),
                unset: &["path", "glob", "type", "output_mode", "offset"],
            },
            Def {
                name: "Glob",
                aliases: &[],
                title: "Glob",
                description: "Fast file pattern matching: glob patterns like \"**/*.js\" or \"src/**/*.ts\". Returns matching \
                    file paths sorted by path (at most 100).",
                engine: ToolName::Glob,
                run: |sb, a| glob(sb, parse(a)?),
                input: input_of::<GlobIn>(),
                output: text_output(true),
                unset: &["path"],
            },
            Def {
                name: "Write",
                aliases: &[],
                title: "Write",
                description: "Writes a file to the local filesystem, replacing the file if there is one and the \
                    server's policy allows replacing files. The file_path parameter must be an absolute path.",
                engine: ToolName::WriteFile,
                run: |sb, a| write(sb, parse(a)?),
                input: input_of::<Write>(),
                output: text_output(false),
                unset: &[],
            },
            Def {
                name: "Edit",
                aliases: &[],
                title: "Edit",
                description: "Performs exact string replacements in files. old_string must occur exactly once unless \
                    replace_all is true. Match the file's text exactly, without Read's line-number prefix (number + tab).",
                engine: ToolName::EditFile,
                run: |sb, a| edit(sb, parse(a)?),
                input: input_of::<Edit>(),
                output: text_output(false),
                unset: &[],
            },
        ]
        .into_iter()
        .map(Def::finish)
        .collect()
    })
}

fn write(sb: &Within<'_>, a: Write) -> Result<Presented, Error> {
    let r = super::write_replacing(sb, a.file_path, a.content)?;
    let msg = if r.replaced {
        format!("The file {} has been updated.", r.path)
    } else {
        format!("File created successfully at: {}", r.path)
    };
    Ok(text(msg, None))
}

fn edit(sb: &Within<'_>, a: Edit) -> Result<Presented, Error> {
    let r = sb.edit_file(&EditArgs {
        path: a.file_path,
        old_string: Some(a.old_string),
        new_string: Some(a.new_string),
        replace_all: a.replace_all,
        ..Default::default()
    })?;
    let mut msg = format!(
        "The file {} has been updated ({} replacement(s)).",
        r.path, r.replacements
    );
    if let Some(note) = crate::tools::edit::encoding_note(&r) {
        msg.push(' ');
        msg.push_str(&note);
    }
    if let Some(d) = r.diff {
        msg.push('\n');
        msg.push_str(&d);
    }
    Ok(text(msg, None))
}

fn read(sb: &Within<'_>, a: Read) -> Result<Presented, Error> {
    let start = a.offset.unwrap_or(1).max(1);
    let limit = a.limit.unwrap_or(READ_LINES);
    let r = match sb.read_file(&ReadArgs {
        path: a.file_path.clone(),
        start_line: Some(start),
        max_lines: Some(limit),
        line_numbers: Some(true),
        ..Default::default()
    }) {
        Ok(r) => r,
        // The engine pages a UTF-16 file by bytes only; Read always counts lines.
        Err(e) if e.message.starts_with(super::UTF16_LINE_MODE) => {
            return read_decoded(sb, a.file_path, start, limit)
        }
        Err(e) => return Err(e),
    };
    if r.binary {
        return Ok(text(crate::tools::render::read(&r), Some(false)));
    }
    let mut out = r.content.clone();
    if r.document.as_ref().is_some_and(|d| d.extraction_truncated) {
        out = super::with_extraction_note(&r, out);
    } else if r.total_bytes == 0 {
        out = "[the file exists but is empty]".into();
    } else if out.is_empty() {
        out = format!("[the file is shorter than {start} lines]");
    }
    if r.truncated {
        let end = r.end_line.unwrap_or(start);
        let next = r.next_line.unwrap_or(end + 1);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!(
            "[Showing lines {start}-{end}; the file continues: call Read with offset={next} to read more]"
        ));
    }
    Ok(text(out, Some(r.truncated)))
}

/// Read of a UTF-16 file: its text as read_file decodes it (up to the read limit), numbered and
/// cut to `offset`/`limit` here as the engine numbers a UTF-8 file's lines (`cat -n`, a CR before
/// the newline not shown, a long line cut at `max_line_chars`).
fn read_decoded(sb: &Within<'_>, path: String, start: u64, limit: u64) -> Result<Presented, Error> {
    let r = sb.read_file(&ReadArgs {
        path,
        ..Default::default()
    })?;
    let mut pieces: Vec<&str> = r.content.split_inclusive('\n').collect();
    // A read cut by the limit may end inside a line: that line is not shown half.
    if r.truncated && pieces.last().is_some_and(|l| !l.ends_with('\n')) {
        pieces.pop();
    }
    let cap = sb.policy().limits.max_line_chars.max(1);
    let first = (start - 1) as usize;
    let mut out = String::new();
    let mut end = start - 1;
    for (i, piece) in pieces.iter().enumerate().skip(first).take(limit as usize) {
        let (body, nl) = match piece.strip_suffix('\n') {
            Some(b) => (b.strip_suffix('\r').unwrap_or(b), "\n"),
            None => (*piece, ""),
        };
        let text = match body.char_indices().nth(cap) {
            Some((at, _)) => format!(
                "{} [... line truncated, {} bytes in all]",
                &body[..at],
                body.len()
            ),
            None => body.to_string(),
        };
        out.push_str(&format!("{:>6}\t{text}{nl}", i + 1));
        end = i as u64 + 1;
    }
    let more = (end as usize) < pieces.len() || r.truncated;
    if r.total_bytes == 0 {
        out = "[the file exists but is empty]".into();
    } else if out.is_empty() && !r.truncated {
        out = format!("[the file is shorter than {start} lines]");
    }
    if more {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&if (end as usize) < pieces.len() {
            format!("[Showing lines {start}-{end}; the file continues: call Read with offset={} to read more]", end + 1)
        } else {
            format!("[This UTF-16 file is larger than the server's read limit; lines after {end} cannot be shown]")
        });
    }
    Ok(text(out, Some(more)))
}

fn grep(sb: &Within<'_>, a: Grep) -> Result<Presented, Error> {
    let mode = a.output_mode.unwrap_or(OutputMode::FilesWithMatches);
    let limit = match a.head_limit {
        None => HEAD_LIMIT,
        Some(0) => sb.policy().limits.max_results as u64,
        Some(n) => n,
    };
    // Without line numbers the lines are rendered again from the page's hits.
    let numbered = a.line_numbers != Some(false) || mode != OutputMode::Content;
    let context = [a.context, a.before, a.after]
        .iter()
        .any(|n| n.unwrap_or(0) > 0);
    let r = sb.grep_search(&GrepArgs {
        pattern: a.pattern,
        path: a.path,
        include: a.glob.map(Globs::One),
        file_type: a.file_type,
        case_insensitive: a.case_insensitive,
        multiline: a.multiline,
        context: a.context,
        before: a.before,
        after: a.after,
        output_mode: Some(mode),
        offset: a.offset,
        limit: Some(limit),
        output_format: (!numbered).then_some(OutputFormat::Json),
        ..Default::default()
    })?;
    let matches = if numbered {
        r.matches.clone()
    } else {
        unnumbered(&r, context)
    };
    let mut out = String::new();
    if matches.is_empty() {
        out.push_str(if mode == OutputMode::FilesWithMatches {
            "No files found"
        } else {
            "No matches found"
        });
    } else {
        if mode == OutputMode::FilesWithMatches {
            out.push_str(&format!("Found {} files\n", r.match_lines));
        }
        out.push_str(matches.trim_end_matches('\n'));
    }
    if r.truncated {
        out.push_str(&format!(
            "\n[More results: call Grep again with offset={}]",
            r.next_offset
        ));
    }
    if r.timed_out {
        out.push_str("\n[Timed out: these are the results found before the deadline]");
    }
    Ok(text(out, Some(r.truncated)))
}

/// The page's lines as rg prints them without `-n`: `path:text` for a match, `path-text` for
/// context, and with context a `--` line between groups that do not touch (as in the numbered
/// text).
fn unnumbered(r: &GrepResult, context: bool) -> String {
    let mut out = String::new();
    let mut last: Option<(&str, u64)> = None;
    for h in r.hits.iter().flatten() {
        if let (true, Some((path, line))) = (context, last) {
            if path != h.path || (line + 1 != h.line && line != h.line) {
                out.push_str("--\n");
            }
        }
        let sep = if h.kind == HitKind::Context { '-' } else { ':' };
        out.push_str(&h.path);
        out.push(sep);
        out.push_str(&h.text);
        out.push('\n');
        last = Some((&h.path, h.line));
    }
    out
}

fn glob(sb: &Within<'_>, a: GlobIn) -> Result<Presented, Error> {
    let r = sb.glob(&GlobArgs {
        pattern: a.pattern,
        path: a.path,
        limit: Some(GLOB_LIMIT),
        ..Default::default()
    })?;
    let mut out = if r.matches.is_empty() {
        "No files found".to_string()
    } else {
        r.matches.trim_end_matches('\n').to_string()
    };
    if r.truncated {
        out.push_str("\n(Results are truncated. Consider using a more specific path or pattern.)");
    }
    Ok(text(out, Some(r.truncated)))
}
