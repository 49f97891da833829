//! The `gemini-cli` dialect: read_file, read_many_files, grep_search (legacy name
//! search_file_content), glob, list_directory, and with a write root write_file and replace, with
//! Gemini CLI's parameter names (packages/core/src/tools/definitions/base-declarations.ts).

mod grep;
mod media;
mod omission;
mod read;
mod replace;
mod snippet;

use super::{input_of, parse, text, text_output, Def, Presented};
use crate::core::error::{Error, ErrorCode};
use crate::engine::Within;
use crate::search::contract::GlobArgs;
use crate::search::contract::Globs;
use crate::search::contract::GrepArgs;
use crate::search::contract::Hit;
use crate::search::contract::HitKind;
use crate::search::contract::OutputFormat;
use crate::search::contract::OutputMode;
use crate::search::matcher::MatchFlags;
use crate::search::matcher_cache;
use crate::search::rg::RgOptions;
use crate::tools::api::EditArgs;
use crate::tools::api::ListArgs;
use crate::tools::api::ReadArgs;
use crate::tools::api::ReadManyArgs;
use crate::tools::api::StatArgs;
use crate::tools::ToolName;
use grep::{cut_line, grep, MAX_LINE_CHARS};
use grep_matcher::Matcher;
use read::{read, read_many};
use replace::replace;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;
use std::time::Duration;

/// Lines read_file returns when no end_line is given (Gemini CLI's default).
const READ_LINES: u64 = 2000;
/// Directories Gemini CLI's glob never looks in (`COMMON_IGNORE_PATTERNS`, utils/ignorePatterns.ts).
const GLOB_EXCLUDES: [&str; 5] = ["node_modules", ".git", "bower_components", ".svn", ".hg"];
/// Files larger than this are refused by read_file (Gemini CLI's `MAX_FILE_SIZE_MB`, 20 MiB).
const MAX_FILE_BYTES: u64 = 20 * 1024 * 1024;
/// grep_search's total_max_matches default.
const MAX_MATCHES: u64 = 100;

/// Whether to respect ignore files.
#[derive(Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
struct Filtering {
    /// Whether to respect .gitignore patterns (default true).
    respect_git_ignore: Option<bool>,
    /// Whether to respect .geminiignore patterns (default true).
    respect_gemini_ignore: Option<bool>,
}

/// read_file's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Read {
    /// The path to the file to read (absolute, inside an allowed directory).
    file_path: String,
    /// Optional: The 1-based line number to start reading from.
    #[schemars(range(min = 1))]
    start_line: Option<u64>,
    /// Optional: The 1-based line number to end reading at (inclusive).
    #[schemars(range(min = 1))]
    end_line: Option<u64>,
}

/// read_many_files' arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadMany {
    /// An array of glob patterns or paths. Examples: ["src/**/*.ts"], ["README.md", "docs/*.md"]
    #[schemars(length(min = 1))]
    include: Vec<String>,
    /// Optional. Glob patterns for files to leave out of the result (matched against each file's path).
    exclude: Option<Vec<String>>,
    /// Optional. Accepted for compatibility: recursion is controlled by `**` in the patterns.
    recursive: Option<bool>,
    /// Optional. Accepted for compatibility: the server's ignore and deny rules always apply.
    #[serde(rename = "useDefaultExcludes")]
    use_default_excludes: Option<bool>,
    /// Whether to respect ignore patterns from .gitignore or .geminiignore.
    file_filtering_options: Option<Filtering>,
}

/// grep_search's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Grep {
    /// The pattern to search for: a Rust-flavored regular expression (use '\b' for symbol boundaries).
    pattern: String,
    /// Directory or file to search (absolute). Directories are searched recursively. Defaults to every allowed directory.
    dir_path: Option<String>,
    /// Glob pattern to filter files (e.g. '*.ts', 'src/**').
    include_pattern: Option<String>,
    /// If true, only the file paths of the matches are returned, without line content or line numbers.
    names_only: Option<bool>,
    /// If true, the search is case-sensitive. Defaults to false (ignore case).
    case_sensitive: Option<bool>,
    /// If true, the pattern is a literal string instead of a regular expression.
    fixed_strings: Option<bool>,
    /// Show this many lines of context around each match (grep -C).
    #[schemars(range(min = 0))]
    context: Option<u64>,
    /// Show this many lines after each match (grep -A).
    #[schemars(range(min = 0))]
    after: Option<u64>,
    /// Show this many lines before each match (grep -B).
    #[schemars(range(min = 0))]
    before: Option<u64>,
    /// If true, also searches files ignored by .gitignore.
    no_ignore: Option<bool>,
    /// Maximum number of total matches to return (default 100; the server's page limit caps it).
    #[schemars(range(min = 1))]
    total_max_matches: Option<u64>,
    /// Maximum number of matching lines to return from any one file.
    #[schemars(range(min = 1))]
    max_matches_per_file: Option<u64>,
    /// Optional: A regular expression pattern to exclude from the search results. If a line matches both the pattern and the exclude_pattern, it will be omitted.
    exclude_pattern: Option<String>,
}

/// glob's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GlobIn {
    /// The glob pattern to match against (e.g. '**/*.py', 'docs/*.md').
    pattern: String,
    /// Optional: The absolute path to the directory to search within. Defaults to every allowed directory.
    dir_path: Option<String>,
    /// Optional: Whether the search should be case-sensitive. Defaults to false.
    case_sensitive: Option<bool>,
    /// Optional: Whether to respect .gitignore patterns. Defaults to true.
    respect_git_ignore: Option<bool>,
    /// Optional: Whether to respect .geminiignore patterns. Defaults to true.
    respect_gemini_ignore: Option<bool>,
}

/// list_directory's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct List {
    /// The absolute path to the directory to list.
    dir_path: String,
    /// List of glob patterns of entry names to leave out.
    ignore: Option<Vec<String>>,
    /// Optional: Whether to respect ignore patterns from .gitignore or .geminiignore.
    file_filtering_options: Option<Filtering>,
}

/// write_file's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Write {
    /// The path to the file to write to (absolute, inside the write root).
    file_path: String,
    /// The content to write to the file.
    content: String,
}

/// replace's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Replace {
    /// The path to the file to modify (absolute, inside the write root).
    file_path: String,
    /// A description of the change (accepted and not used).
    instruction: Option<String>,
    /// The exact literal text to replace, including whitespace and indentation.
    old_string: String,
    /// The exact literal text to replace old_string with.
    new_string: String,
    /// If true, replace all occurrences of old_string; otherwise exactly one must be found.
    allow_multiple: Option<bool>,
}

pub(super) fn defs() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| {
        vec![
            Def {
                name: "read_file",
                aliases: &[],
                title: "ReadFile",
                description: "Reads and returns the content of a specified file. If the file is large, the content is \
                    truncated; the response says so and how to read more with 'start_line' and 'end_line'. Images \
                    and audio files come back as their data; PDFs as their text.",
                engine: ToolName::ReadFile,
                run: |sb, a| read(&gemini_rules(sb, None), parse(a)?),
                input: input_of::<Read>(),
                output: text_output(true),
                unset: &["end_line"],
            },
            Def {
                name: "read_many_files",
                aliases: &[],
                title: "ReadManyFiles",
                description: "Reads content from multiple files given by paths or glob patterns (e.g. 'src/**/*.ts') and \
                    concatenates them with a '--- {filePath} ---' separator, ending with '--- End of content ---'. \
                    All files share one byte budget; a file that does not fit is cut.",
                engine: ToolName::ReadManyFiles,
                run: |sb, a| read_many(sb, parse(a)?),
                input: input_of::<ReadMany>(),
                output: text_output(true),
                unset: &["exclude"],
            },
            Def {
                name: "grep_search",
                aliases: &["search_file_content"],
                title: "SearchText",
                description: "Searches for a regular expression pattern within file contents. Max 100 matches by default \
                    (total_max_matches). Results are grouped by file ('File: path', then 'L<line>: text' lines), in path order.",
                engine: ToolName::GrepSearch,
                run: |sb, a| grep(&gemini_rules(sb, None), parse(a)?),
                input: input_of::<Grep>(),
                output: text_output(true),
                unset: &["dir_path", "include_pattern", "total_max_matches", "max_matches_per_file", "exclude_pattern"],
            },
            Def {
                name: "glob",
                aliases: &[],
                title: "FindFiles",
                description: "Finds files matching a glob pattern (e.g. 'src/**/*.ts', '**/*.md'), returning absolute \
                    paths: files changed in the last 24 hours newest first, then the others by path.",
                engine: ToolName::Glob,
                run: |sb, a| glob(sb, parse(a)?),
                input: input_of::<GlobIn>(),
                output: text_output(true),
                unset: &["dir_path"],
            },
            Def {
                name: "list_directory",
                aliases: &[],
                title: "ReadFolder",
                description: "Lists the names of files and subdirectories directly within a directory. Can optionally \
                    ignore entries matching provided glob patterns.",
                engine: ToolName::ListDir,
                run: |sb, a| list(sb, parse(a)?),
                input: input_of::<List>(),
                output: text_output(true),
                unset: &["ignore"],
            },
            Def {
                name: "write_file",
                aliases: &[],
                title: "WriteFile",
                description: "Writes content to a specified file (replacing an existing one only when the server's \
                    policy allows it).",
                engine: ToolName::WriteFile,
                run: |sb, a| write(sb, parse(a)?),
                input: input_of::<Write>(),
                output: text_output(false),
                unset: &[],
            },
            Def {
                name: "replace",
                aliases: &[],
                title: "Edit",
                description: "Replaces text within a file. By default exactly ONE occurrence of old_string must be \
                    found; set allow_multiple to replace all. old_string and new_string are exact literal text.",
                engine: ToolName::EditFile,
                run: |sb, a| replace(sb, parse(a)?),
                input: input_of::<Replace>(),
                output: text_output(false),
                unset: &["instruction"],
            },
        ]
        .into_iter()
        .map(Def::finish)
        .collect()
    })
}

fn write(sb: &Within<'_>, a: Write) -> Result<Presented, Error> {
    if !omission::placeholders(&a.content).is_empty() {
        return Err(Error::invalid(
            "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide \
             complete file content.",
        ));
    }
    // The old text decides which lines the snippet shows (Gemini CLI diffs against it).
    let before = old_text(sb, &a.file_path);
    let r = super::write_replacing(sb, a.file_path, a.content.clone())?;
    let head = if r.replaced {
        format!("Successfully overwrote file: {}.", r.path)
    } else {
        format!("Successfully created and wrote to new file: {}.", r.path)
    };
    // A coarse diff past a second: the write is done, the snippet is only a courtesy.
    let budget = sb.deadline(None).remaining().min(Duration::from_secs(1));
    let code = snippet::snippet(before.as_deref(), &a.content, budget);
    let code = capped(code, sb.policy().limits.max_bytes);
    Ok(text(
        format!("{head} Here is the updated code:\n{code}"),
        None,
    ))
}

/// The text of the file `path` before a write, when it is a text file read whole.
fn old_text(sb: &Within<'_>, path: &str) -> Option<String> {
    let r = sb.read_file(&ReadArgs::path(path)).ok()?;
    (!r.binary && !r.truncated && r.document.is_none()).then_some(r.content)
}

/// `s` cut to `cap` bytes (on a character boundary) with a note, so that the snippet of a large new
/// file stays within the server's output limit.
fn capped(mut s: String, cap: usize) -> String {
    if s.len() <= cap {
        return s;
    }
    let mut at = cap;
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    s.truncate(at);
    s.push_str(&format!("\n... [snippet cut at {cap} bytes]"));
    s
}

/// The call with Gemini CLI's `.geminiignore` read by its walks (in every directory, as the
/// walker reads `.rgignore`) and by its single-path checks, unless `respect` is false (Gemini CLI's
/// `respect_gemini_ignore`).
fn gemini_rules<'a>(sb: &Within<'a>, respect: Option<bool>) -> Within<'a> {
    sb.with_rule_file((respect != Some(false)).then_some(crate::walk::GEMINIIGNORE))
}

fn glob(sb: &Within<'_>, a: GlobIn) -> Result<Presented, Error> {
    let sb = &gemini_rules(sb, a.respect_gemini_ignore);
    if a.pattern.trim().is_empty() {
        return Err(Error::invalid("The 'pattern' parameter cannot be empty."));
    }
    if let Some(d) = &a.dir_path {
        if sb.stat(&StatArgs { path: d.clone() })?.kind != "dir" {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("Search path is not a directory: {d}"),
            ));
        }
    }
    let where_ = a
        .dir_path
        .clone()
        .unwrap_or_else(|| "the allowed directories".into());
    let found = |n: usize, list: &str| {
        format!(
            "Found {n} file(s) matching \"{}\" within {where_}, sorted by modification time \
             (newest first):\n{list}",
            a.pattern
        )
    };
    // Gemini CLI's fallback for names with glob characters (`app/[id].tsx`): a pattern that names an
    // existing file is taken literally, and matches that file only.
    let literal = match a.dir_path.as_deref() {
        Some(d) => format!("{}/{}", d.trim_end_matches('/'), a.pattern),
        None => a.pattern.clone(),
    };
    if let Ok(st) = sb.stat(&StatArgs { path: literal }) {
        if st.kind == "file" && !sb.hidden_by_rule_file(&st.path) {
            return Ok(text(found(1, &st.path), Some(false)));
        }
    }
    // Case-insensitive unless case_sensitive is true, as Gemini CLI's glob (`nocase`); dot names
    // match (`dot: true`) but not inside its core excludes; .gitignore then filters the matches.
    let insensitive = a.case_sensitive != Some(true);
    let rg = (!a.pattern.starts_with(['!', '/'])).then(|| {
        let mut globs = vec![(a.pattern.clone(), insensitive)];
        globs.extend(GLOB_EXCLUDES.iter().map(|d| (format!("!{d}"), false)));
        RgOptions {
            globs,
            globs_keep_ignores: true,
            globs_from_start: true,
            ..Default::default()
        }
    });
    let args = GlobArgs {
        pattern: a.pattern.clone(),
        path: a.dir_path,
        hidden: Some(rg.is_some()),
        no_ignore: a.respect_git_ignore.map(|r| !r),
        limit: Some(sb.policy().limits.max_results as u64),
        sort: Some(crate::search::contract::GlobSort::Modified),
        ..Default::default()
    };
    let r = sb.glob_with_rg(&args, rg.as_ref())?;
    if r.matches.is_empty() {
        return Ok(text(
            format!(
                "No files found matching pattern \"{}\" within {where_}",
                a.pattern
            ),
            Some(false),
        ));
    }
    let listed = recent_first(sb, r.matches.trim_end_matches('\n'));
    let mut out = found(r.match_lines as usize, &listed);
    if r.truncated {
        out.push_str("\n(more files match: narrow the pattern or dir_path)");
    }
    Ok(text(out, Some(r.truncated)))
}

/// Files modified within this long are listed first, newest first (Gemini CLI's glob
/// `recencyThresholdMs`, a day).
const RECENT_SECS: i64 = 24 * 60 * 60;

/// `newest_first` (paths one a line, newest first, as the engine's `sort: "modified"` gives them)
/// in the order of Gemini CLI's `sortFileEntries`: the files modified in the last day newest
/// first, then the others by path (`localeCompare`).
fn recent_first(sb: &Within<'_>, newest_first: &str) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (recent, mut older): (Vec<&str>, Vec<&str>) = newest_first.lines().partition(|p| {
        // A file that cannot be stat'ed now (gone since) counts as old, as Gemini's missing mtime.
        sb.stat(&StatArgs {
            path: p.to_string(),
        })
        .is_ok_and(|st| now - st.mtime_unix < RECENT_SECS)
    });
    older.sort_by(|x, y| locale_cmp(x, y));
    recent
        .into_iter()
        .chain(older)
        .collect::<Vec<_>>()
        .join("\n")
}

/// An ASCII character's place in the root collation order of ICU (which Node's `localeCompare`
/// uses): white space, punctuation and symbols, digits, then letters with case ignored; other
/// characters after them by code point.
fn collation_rank(c: char) -> u32 {
    const PUNCT: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
    if c.is_whitespace() {
        return c as u32;
    }
    if let Some(i) = PUNCT.find(c) {
        return 0x100 + i as u32;
    }
    if c.is_ascii_digit() {
        return 0x200 + c as u32;
    }
    if c.is_ascii_alphabetic() {
        return 0x300 + c.to_ascii_lowercase() as u32;
    }
    0x1000 + c.to_lowercase().next().unwrap_or(c) as u32
}

/// Entry names in the order of Gemini CLI's `a.name.localeCompare(b.name)` (approximated by ICU's
/// root order: case is only a tie-break, lower case first).
fn locale_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    a.chars()
        .map(collation_rank)
        .cmp(b.chars().map(collation_rank))
        .then_with(|| {
            a.chars()
                .map(|c| c.is_uppercase())
                .cmp(b.chars().map(|c| c.is_uppercase()))
        })
        .then_with(|| a.cmp(b))
}

fn list(sb: &Within<'_>, a: List) -> Result<Presented, Error> {
    let ignore = super::globs(a.ignore.as_deref().unwrap_or_default())?;
    let filtering = a.file_filtering_options.unwrap_or_default();
    let sb = &gemini_rules(sb, filtering.respect_gemini_ignore);
    let respect = filtering.respect_git_ignore;
    let dir = a.dir_path;
    let r = sb.list_dir(&ListArgs {
        path: Some(dir.clone()),
        // Gemini CLI lists dot entries too; only ignore files (and here the deny rules) hide any.
        hidden: Some(true),
        no_ignore: respect.map(|r| !r),
        limit: Some(sb.policy().limits.max_list_entries as u64),
        ..Default::default()
    })?;
    if r.total == 0 && r.ignored == 0 && r.hidden == 0 {
        return Ok(text(format!("Directory {} is empty.", r.path), Some(false)));
    }
    // (is a directory, name, size): a symlink counts as what it leads to, as Gemini CLI's fs.stat
    // sees it, when the engine can open it; one it cannot (dangling, or leading out of bounds) is
    // left out, as Gemini CLI leaves out an entry its stat fails on.
    let mut entries: Vec<(bool, &str, u64)> = Vec::new();
    for e in &r.entries {
        if super::excluded(&ignore, &e.name) {
            continue;
        }
        if e.kind == "symlink" {
            let target = format!("{}/{}", dir.trim_end_matches('/'), e.name);
            match sb.stat(&StatArgs { path: target }) {
                Ok(st) => entries.push((st.kind == "dir", &e.name, st.size)),
                Err(_) => continue,
            }
        } else {
            entries.push((e.kind == "dir", &e.name, e.size));
        }
    }
    entries.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| locale_cmp(x.1, y.1)));
    let lines: Vec<String> = entries
        .iter()
        .map(|&(is_dir, name, size)| {
            if is_dir {
                format!("[DIR] {name}")
            } else {
                format!("{name} ({size} bytes)")
            }
        })
        .collect();
    let mut out = format!("Directory listing for {}:\n{}", r.path, lines.join("\n"));
    if r.ignored > 0 {
        out.push_str(&format!("\n\n({} ignored)", r.ignored));
    }
    if r.truncated {
        out.push_str(&format!(
            "\n\n[{} more entries not shown]",
            r.total.saturating_sub(r.next_offset)
        ));
    }
    Ok(text(out, Some(r.truncated)))
}
