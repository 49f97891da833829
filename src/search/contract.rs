//! The search tools' contract as an agent sees it, with JSON schemas: the arguments and results of
//! grep_search and glob. A leaf: it imports nothing else of `search`, and every other search module
//! may import it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One glob or several.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(untagged)]
pub enum Globs {
    /// A single glob.
    One(String),
    /// Several globs.
    Many(Vec<String>),
}

impl Globs {
    pub(crate) fn list(&self) -> Vec<String> {
        match self {
            Globs::One(s) => vec![s.clone()],
            Globs::Many(v) => v.clone(),
        }
    }
}

/// Arguments of `grep_search`.
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.rs"), "fn main() {}\nfn other() {}\n").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let mut args = rootbound::GrepArgs::new("fn \\w+");
/// args.include = Some(rootbound::Globs::One("*.rs".into()));
/// args.limit = Some(1);
/// let page = sb.grep_search(&args).unwrap();
/// assert!(page.matches.ends_with("a.rs:1:fn main() {}\n")); // canonical path, then line
/// assert!(page.truncated && page.next_cursor.is_some());
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct GrepArgs {
    /// Regular expression (Rust regex syntax: POSIX ERE plus `\d \w \s \b`, Unicode classes; no
    /// backreferences or look-around).
    pub pattern: String,
    /// More patterns: a line matches if it matches `pattern` or any of these (rg `-e`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<String>>,
    /// A file or directory under a root to search; omit to search every root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Only search files matching these globs (root-relative, ripgrep `-g` syntax, e.g. `*.rs`, `src/**`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include: Option<Globs>,
    /// Skip files matching these globs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude: Option<Globs>,
    /// Only search files of these ripgrep types (e.g. `rust`, `c`, `py`; comma-separated for several).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub file_type: Option<String>,
    /// Case-insensitive matching.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_insensitive: Option<bool>,
    /// Case-insensitive unless the pattern has an uppercase letter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smart_case: Option<bool>,
    /// Treat the pattern as a literal string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_strings: Option<bool>,
    /// Match whole words only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub word: Option<bool>,
    /// Match whole lines only (rg `-x`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_regexp: Option<bool>,
    /// Return the lines that do NOT match (rg `-v`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invert: Option<bool>,
    /// Show each match on its own line (`path:line:match`) instead of the whole line (rg `-o`). The
    /// unit of paging stays the matching line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_matching: Option<bool>,
    /// At most this many matching lines per file (rg `-m`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_count: Option<u64>,
    /// Descend at most this many directory levels below the searched directory (rg `--max-depth`;
    /// 1: only its own files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u64>,
    /// Let matches span lines (`.` matches newlines too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiline: Option<bool>,
    /// Lines of context before and after each match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<u64>,
    /// Lines of context before each match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<u64>,
    /// Lines of context after each match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<u64>,
    /// `content` (default), `files_with_matches`, `files_without_match`, or `count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_mode: Option<OutputMode>,
    /// `text` (default): results in `matches` as text. `json`: results as `hits` (content mode),
    /// `counts` (count mode) or `files` (the files modes), and `matches` empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_format: Option<OutputFormat>,
    /// Search hidden (dot) files and directories too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Do not apply `.gitignore`, `.ignore` and `.rgignore`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_ignore: Option<bool>,
    /// Skip files larger than this many bytes (capped by the policy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_filesize: Option<u64>,
    /// Skip this many results (use `next_offset` of the previous page). Prefer `cursor`: it is cheaper.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Resume after the previous page (its `next_cursor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Results per page (default 10, capped by the policy's `max_results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Byte cap on the page (capped by the policy's `max_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    /// Time budget in milliseconds (capped by the policy's timeout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Also search documents (PPTX, DOCX, XLSX, PDF, .ipynb) as their extracted text (as read_file
    /// returns it); each line is shown with its part: `path:12:[slide 3] text`. Off by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documents: Option<bool>,
}

impl GrepArgs {
    /// Arguments for searching every root for `pattern`.
    pub fn new(pattern: &str) -> Self {
        GrepArgs {
            pattern: pattern.to_string(),
            ..Default::default()
        }
    }
}

/// How results are counted and shown.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// `path:line:text` for each matching line (the unit of paging is a matching line).
    #[default]
    Content,
    /// One path per file with a match (the unit is a file).
    FilesWithMatches,
    /// `path:count` per file with a match (the unit is a file).
    Count,
    /// One path per file searched without a match (the unit is a file; rg `--files-without-match`).
    FilesWithoutMatch,
}

/// How grep_search returns its results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutputFormat {
    /// `matches` holds `path:line:text` lines (or paths, or `path:count`).
    #[default]
    Text,
    /// `hits`, `counts` or `files` hold the results; `matches` is empty.
    Json,
}

/// Whether a hit is a matching line (or match) or a line of context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HitKind {
    /// A matching line (with `only_matching`: one match).
    Match,
    /// A line of context around a match.
    Context,
}

/// One line of a content-mode result (`output_format: "json"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Hit {
    /// The file, as paths are shown and accepted back.
    pub path: String,
    /// 1-based line number.
    pub line: u64,
    /// 1-based byte column of the (first) match in the line; absent for context lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// The line without its terminator (long lines cut around the match), or the match.
    pub text: String,
    /// `match` or `context`.
    pub kind: HitKind,
}

/// The count of one file (`output_mode: "count"`, `output_format: "json"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileCount {
    /// The file, as paths are shown and accepted back.
    pub path: String,
    /// Matching lines in the file.
    pub count: u64,
}

/// The result of `grep_search`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct GrepResult {
    /// `path:line:text` lines (context `path-line-text`, groups split by `--`), or paths, or `path:count`.
    pub matches: String,
    /// Results (matching lines, or files) on this page.
    pub match_lines: u64,
    /// The offset of the next page.
    pub next_offset: u64,
    /// Resumes right after this page; present whenever `truncated` is true.
    pub next_cursor: Option<String>,
    /// More results exist, or a cap (bytes, time) cut the page. Trust this, not `match_lines == limit`.
    pub truncated: bool,
    /// The time budget ran out; the page holds what was found in order before it.
    pub timed_out: bool,
    /// Files searched and skipped.
    pub stats: Stats,
    /// Count mode: the sum of the per-file counts, when the search went through every file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// `output_format: "json"`, content mode: the lines of the page, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<Vec<Hit>>,
    /// `output_format: "json"`, count mode: one count per file with a match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<FileCount>>,
    /// `output_format: "json"`, files modes (and glob): the paths of the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
}

/// The largest `offset` accepted by grep_search (cursors have no limit).
pub const MAX_OFFSET: u64 = 100_000;

/// What grep skipped, by reason. Never a silent zero: every file passed over is counted somewhere.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Skipped {
    /// Files with a NUL byte (binary), not searched further.
    pub binary: u64,
    /// Files over `max_filesize` (or lines over the searcher's memory cap).
    pub too_large: u64,
    /// Entries hidden by `.gitignore`/`.ignore`/`.rgignore` or because they are hidden (dot) files.
    pub ignored: u64,
    /// Files refused by the sandbox's hard-link policy (`refuse_hardlinks`). Objects that a deny rule
    /// matches are never counted, here or anywhere: a denied object is indistinguishable from an
    /// absent one.
    pub denied: u64,
    /// Files or directories the OS would not let us read.
    pub unreadable: u64,
    /// FIFOs, sockets and devices (never opened for reading).
    pub not_regular: u64,
    /// Ignore files applied only in part: over 1 MiB or 10,000 rules, a rule over 4 KiB, or more than
    /// 20,000 rules together with the directories above (then the file is not applied at all). The
    /// rules past the cap are not applied; a `tracing` warning names the file. Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub partial_ignore_files: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Counts for one call.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Stats {
    /// Files whose content was searched (or, for glob, matched by name).
    pub files_searched: u64,
    /// What was passed over.
    pub skipped: Skipped,
    /// Present when an n-gram index served the search (see [`crate::IndexStats`]). The other
    /// fields are the same with and without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<crate::index::IndexStats>,
}

/// Arguments of `glob`.
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::create_dir(dir.path().join("src")).unwrap();
/// std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let mut args = rootbound::GlobArgs::default();
/// args.pattern = "*.rs".into();
/// assert!(sb.glob(&args).unwrap().matches.ends_with("/src/lib.rs\n"));
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct GlobArgs {
    /// A glob in ripgrep `-g` syntax: without a `/` it matches file names at any depth (`*.rs`); with one it
    /// is relative to the root (`src/**/*.rs`).
    pub pattern: String,
    /// A directory under a root to search in; omit for every root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Include hidden (dot) files and directories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Do not apply `.gitignore`, `.ignore` and `.rgignore`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_ignore: Option<bool>,
    /// Skip this many paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Resume after the previous page (its `next_cursor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Paths per page (default 10, capped by the policy's `max_results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// `path` (default: byte order of paths; pages by cursor or offset) or `modified` (newest first,
    /// ties by path; pages by offset only, and at most 100,000 matching files are sorted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<GlobSort>,
    /// Time budget in milliseconds (capped by the policy's timeout); a call cut by it says
    /// `timed_out` and returns what it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

/// The order of glob's results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GlobSort {
    /// Byte order of the paths (as `rg --files --sort path`).
    #[default]
    Path,
    /// Newest modification time first (as Claude Code's and Gemini CLI's glob).
    Modified,
}
