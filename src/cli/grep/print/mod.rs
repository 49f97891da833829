//! What `rootbound grep` prints: rg's standard format (path, line number, text; headings and colour
//! on a terminal) or rg's JSON Lines messages. The run hands each page of results here; nothing in
//! this module opens a file.
// Fields are wired to flags one by one (issue 16); until then some are unread.
#![allow(dead_code)]

use super::paths::PathPrefix;
use rootbound::{GrepArgs, GrepResult, Sandbox};
use std::io::{self, Write};

/// When to colour the output (rg `--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Color {
    /// Colour when stdout is a terminal (and `TERM` is not `dumb`).
    #[default]
    Auto,
    Never,
    Always,
    /// As `Always`, with ANSI escapes on every platform.
    Ansi,
}

/// How results are printed: one field per rg output flag. The run fills it from the command line
/// (after rg's defaults for a terminal or a pipe are applied); the printer only reads it.
#[derive(Debug, Clone, Default)]
pub(crate) struct PrintOpts {
    /// `--json`: rg's JSON Lines messages (begin, match, context, end, summary).
    pub json: bool,
    /// Colour the output (already decided from `--color` and whether stdout is a terminal).
    pub color: bool,
    /// `--heading`: the path on its own line above each file's results (default on a terminal).
    pub heading: bool,
    /// `-n` / `-N`: prefix line numbers (default on a terminal, or with `--vimgrep`/`--column`).
    pub line_number: bool,
    /// `--column`: prefix the 1-based byte column of the first match.
    pub column: bool,
    /// `-H` / `--no-filename`: prefix the path (default when more than one file may be searched).
    pub with_filename: bool,
    /// `--null` / `-0`: a NUL byte after each path instead of `:`.
    pub null: bool,
    /// `--trim`: strip leading ASCII whitespace from each printed line.
    pub trim: bool,
    /// `-M N`: lines longer than this many bytes are omitted (or previewed).
    pub max_columns: Option<u64>,
    /// `--max-columns-preview`: show the first `max_columns` bytes of a long line.
    pub max_columns_preview: bool,
    /// `--vimgrep`: every match on its own line as `path:line:column:text`.
    pub vimgrep: bool,
    /// `-o`: print only the matched parts.
    pub only_matching: bool,
    /// `-r TEXT`: print each match replaced by TEXT (`$1`, `$name` expand capture groups).
    pub replace: Option<String>,
    /// `--context-separator` (default `--`); `None` with `--no-context-separator`.
    pub context_separator: Option<String>,
    /// `--field-match-separator` (default `:`).
    pub field_match_separator: String,
    /// `--field-context-separator` (default `-`).
    pub field_context_separator: String,
    /// `-c`, `-l`, `--files-without-match`: the page is paths or counts, not lines.
    pub count: bool,
    /// `-c` with `--count-matches`: count matches rather than matching lines.
    pub count_matches: bool,
    /// `-q`: print nothing (the exit code tells).
    pub quiet: bool,
    /// How each result's path is printed: the library's root-relative path with the path argument's
    /// spelling put back (`./dir/a.rs` for the argument `./dir`; rg prints paths under the argument
    /// as given). `None`: as the library shows it. Apply with [`PathPrefix::apply`].
    pub path_prefix: Option<PathPrefix>,
    /// `--colors` specs in order (`{path,line,column,match}:{fg,bg,style,none}[:VALUE]`), already
    /// checked; later ones win.
    pub colors: Vec<String>,
}

/// What one search printed, for the exit code and rg's closing messages.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Summary {
    /// Something matched (rg's exit 0).
    pub matched: bool,
    /// Files whose content was searched (0 everywhere: rg's "No files were searched", exit 2).
    pub searched: u64,
}

/// Runs `args` on `sb` to the end (every page) and prints the results to `out` as `opts` says.
///
/// The one place the command turns a search into output: the flag parsing hands it a finished
/// [`GrepArgs`] and [`PrintOpts`] per path argument.
pub(crate) fn search(
    sb: &Sandbox,
    args: &GrepArgs,
    opts: &PrintOpts,
    out: &mut dyn Write,
) -> Result<io::Result<Summary>, rootbound::Error> {
    let mut args = args.clone();
    let mut summary = Summary::default();
    loop {
        let page = sb.grep_search(&args)?;
        summary.matched |= page.match_lines > 0;
        summary.searched += page.stats.files_searched;
        if let Err(e) = print_page(out, &page, opts) {
            return Ok(Err(e));
        }
        match page.next_cursor {
            Some(c) if page.truncated => {
                args.cursor = Some(c);
                args.offset = None;
            }
            _ => return Ok(Ok(summary)),
        }
    }
}

/// Writes one page of results to `out`.
fn print_page(out: &mut dyn Write, page: &GrepResult, opts: &PrintOpts) -> io::Result<()> {
    if opts.quiet {
        return Ok(());
    }
    out.write_all(page.matches.as_bytes())
}
