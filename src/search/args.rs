//! The arguments and results of grep_search (the contract an agent sees, with JSON schemas).

use crate::search::file::OutputMode;
use crate::search::page::Stats;
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
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    /// Regular expression (Rust regex syntax: POSIX ERE plus `\d \w \s \b`, Unicode classes; no
    /// backreferences or look-around).
    pub pattern: String,
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
    /// `content` (default), `files_with_matches`, or `count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_mode: Option<OutputMode>,
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
}

/// The largest `offset` accepted by grep_search (cursors have no limit).
pub const MAX_OFFSET: u64 = 100_000;
