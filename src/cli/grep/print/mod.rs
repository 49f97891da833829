//! What `rootbound grep` prints: rg's standard format (path, line number, text; headings and colour
//! on a terminal), its summary formats (`-c`, `-l`) or its JSON Lines messages, rendered from the
//! library's hit stream ([`Sandbox::grep_hits_each`]): the search hands over raw line bytes and
//! match ranges, and the text is made once, here. Nothing in this module opens a file.

use super::paths::PathPrefix;
mod color;
mod json;
mod json_value;
mod standard;
mod stats;
mod summary;

use rootbound::rg::{FileHits, HitOptions, RgOptions};
use rootbound::{GrepArgs, OutputMode, Sandbox};
use std::cell::RefCell;
use std::io::{self, Write};
use std::time::Instant;

/// When to colour the output (rg `--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(dead_code)] // The flag parsing (`--color`) decides `PrintOpts::color` from it.
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
#[derive(Debug, Clone)]
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
    /// `-U`: a summary may count matches (see `FileHits::multi_line`), so they are recorded.
    pub multiline: bool,
    /// `-q`: print nothing (the exit code tells).
    pub quiet: bool,
    /// How each result's path is printed: the library's root-relative path with the path argument's
    /// spelling put back (`./dir/a.rs` for the argument `./dir`; rg prints paths under the argument
    /// as given). `None`: as the library shows it. Apply with [`PathPrefix::apply`].
    pub path_prefix: Option<PathPrefix>,
    /// `--include-zero`: with `-c`, files without a match print `path:0`.
    pub include_zero: bool,
    /// `--path-separator`: this byte instead of `/` in every printed path.
    pub path_separator: Option<u8>,
    /// The line terminator rg writes where it ends a line itself (a line without one, `-o`, colour,
    /// separators): `\n`, `\r\n` with `--crlf`, NUL with `--null-data`.
    pub line_term: &'static [u8],
    /// `--stats`: rg's counts after the results.
    pub stats: bool,
    /// `-b`: the byte offset in the file of each line (with `-o`, of each match) after its number.
    pub byte_offset: bool,
    /// `--colors` specs in order (`{path,line,column,match}:{fg,bg,style,none}[:VALUE]`), already
    /// checked; later ones win.
    pub colors: Vec<String>,
}

impl PrintOpts {
    /// The byte that ends a line (the last of [`PrintOpts::line_term`]).
    fn eol(&self) -> u8 {
        self.line_term.last().copied().unwrap_or(b'\n')
    }

    /// Where the text of `line` ends: before its terminator (`\r\n` counts whole with `--crlf`,
    /// as rg's trim_line_terminator).
    fn content_end(&self, line: &[u8]) -> usize {
        let eol = self.eol();
        match line.strip_suffix(&[eol]) {
            Some(rest) if self.line_term == b"\r\n" && rest.ends_with(b"\r") => rest.len() - 1,
            Some(rest) => rest.len(),
            None => line.len(),
        }
    }
}

thread_local! {
    /// What the printers carry from one path argument to the next (one command per process; reset
    /// by [`finish`]).
    static STATE: RefCell<State> = RefCell::new(State::default());
}

impl Default for PrintOpts {
    /// rg's defaults for a pipe: no colour, no heading, no line numbers, `:`/`-` field separators,
    /// `--` between groups of context.
    fn default() -> Self {
        PrintOpts {
            json: false,
            color: false,
            heading: false,
            line_number: false,
            column: false,
            with_filename: false,
            null: false,
            trim: false,
            max_columns: None,
            max_columns_preview: false,
            vimgrep: false,
            only_matching: false,
            replace: None,
            context_separator: Some("--".into()),
            field_match_separator: ":".into(),
            field_context_separator: "-".into(),
            count: false,
            count_matches: false,
            multiline: false,
            quiet: false,
            path_prefix: None,
            include_zero: false,
            path_separator: None,
            line_term: b"\n",
            stats: false,
            byte_offset: false,
            colors: Vec::new(),
        }
    }
}

/// What the printers carry from file to file and from one path argument to the next.
#[derive(Debug, Clone)]
pub(crate) struct State {
    /// Something was printed (a separator goes before the next file's lines).
    printed: bool,
    /// Context lines were asked for (rg then separates files by the context separator).
    context: bool,
    /// The sums for `--stats` and `--json`'s closing summary.
    totals: stats::Totals,
    /// When the command started (`--json`'s `elapsed_total`).
    started: Instant,
}

impl Default for State {
    fn default() -> Self {
        State {
            printed: false,
            context: false,
            totals: stats::Totals::default(),
            started: Instant::now(),
        }
    }
}

/// What one search printed, for the exit code and rg's closing messages.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Summary {
    /// Something matched (rg's exit 0).
    pub matched: bool,
    /// Files whose content was searched (0 everywhere: rg's "No files were searched", exit 2).
    pub searched: u64,
}

/// Runs `args` on `sb` to the end and prints the results to `out` as `opts` says.
///
/// The one place the command turns a search into output: the flag parsing hands it a finished
/// [`GrepArgs`] and [`PrintOpts`] per path argument, and calls [`finish`] once after the last.
pub(crate) fn search(
    sb: &Sandbox,
    args: &GrepArgs,
    rg: &RgOptions,
    opts: &PrintOpts,
    out: &mut dyn Write,
) -> Result<io::Result<Summary>, rootbound::Error> {
    let mut args = args.clone();
    let mut mode = args.output_mode.unwrap_or_default();
    if opts.count && mode == OutputMode::Content {
        mode = OutputMode::Count;
    }
    if opts.quiet {
        // The first match answers the question.
        mode = OutputMode::FilesWithMatches;
    }
    // With `--stats` rg reads every file to its end (its summary printers do not stop at the first
    // match), so the counts are whole: the library counts, the printer lists.
    let listing = matches!(
        mode,
        OutputMode::FilesWithMatches | OutputMode::FilesWithoutMatch
    );
    args.output_mode = Some(if opts.stats && listing {
        OutputMode::Count
    } else {
        mode
    });
    STATE.with(|st| run(sb, &args, rg, opts, out, mode, &mut st.borrow_mut()))
}

/// [`search`] with the state carried between path arguments.
fn run(
    sb: &Sandbox,
    args: &GrepArgs,
    rg: &RgOptions,
    opts: &PrintOpts,
    out: &mut dyn Write,
    mode: OutputMode,
    st: &mut State,
) -> Result<io::Result<Summary>, rootbound::Error> {
    let content = mode == OutputMode::Content;
    let json = opts.json && content;
    let color_matches = opts.color && !json;
    let granular = json
        || color_matches
        || opts.column
        || opts.replace.is_some()
        || opts.vimgrep
        || opts.only_matching
        || opts.stats
        || (!content && (opts.count_matches || opts.multiline));
    let hit_opts = HitOptions::new(
        content,
        granular,
        content && opts.line_number,
        content && !json,
    );
    let replacer = match (&opts.replace, content && !json) {
        (Some(r), true) => Some(sb.grep_replacer(args, Some(rg), r.as_bytes())?),
        _ => None,
    };
    let colors = color::Colors::new(&opts.colors);
    st.context = args.context.unwrap_or(0) > 0
        || args.before.unwrap_or(0) > 0
        || args.after.unwrap_or(0) > 0;
    let mut summary = Summary::default();
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut failed: Option<io::Error> = None;
    let mut path = Vec::new();
    let each = |f: &FileHits<'_>| -> bool {
        let counted = mode == OutputMode::Content || f.named || f.binary_offset.is_none();
        // rg 13 exits 0 under --files-without-match when a file has no match, not when one
        // matched; a binary file it stopped reading counts as one without (its count is squashed
        // to 0), though it is not listed.
        let matched = if mode == OutputMode::FilesWithoutMatch {
            !counted || f.matched_lines == 0 && !f.timed_out
        } else {
            counted && f.matched_lines > 0
        };
        summary.matched |= matched;
        if opts.quiet {
            if opts.stats {
                st.totals.add(&stats::Totals::of(f, 0));
                return true;
            }
            return !summary.matched;
        }
        buf.clear();
        path.clear();
        shown_path(opts, f.path, &mut path);
        let counts = if json {
            json::file(&mut buf, f, &path)
        } else {
            if content {
                standard::file(&mut buf, opts, st, f, &path, replacer.as_ref(), &colors);
            } else {
                summary::file(&mut buf, opts, mode, f, &path, &colors);
            }
            // rg's summary printers (`-c`, `-l`) count no bytes printed; colour codes do not count.
            let printed = match (content, opts.color && opts.stats) {
                (false, _) => 0,
                (true, false) => buf.len(),
                (true, true) => stats::visible_len(&buf),
            };
            stats::Totals::of(f, printed as u64)
        };
        st.totals.add(&counts);
        if !buf.is_empty() {
            if let Err(e) = out.write_all(&buf) {
                failed = Some(e);
                return false;
            }
        }
        true
    };
    let done = sb.grep_hits_each(args, Some(rg), hit_opts, each)?;
    // rg counts a binary file it stopped reading at the NUL as searched.
    summary.searched = done.stats.files_searched + done.stats.skipped.binary;
    if let Some(e) = failed {
        return Ok(Err(e));
    }
    Ok(Ok(summary))
}

/// Appends the path to print for a file the library shows as `lib` to `out`. The one place where
/// the printers turn the library's path into rg's (the flag surface's path prefix, `./dir/a.rs` for
/// the argument `./dir`, applies here).
fn shown_path(opts: &PrintOpts, lib: &str, out: &mut Vec<u8>) {
    let start = out.len();
    match &opts.path_prefix {
        Some(p) => p.apply(lib.as_bytes(), out),
        None => out.extend_from_slice(&RgOptions::raw_path(lib)),
    }
    separate(opts, &mut out[start..]);
}

/// `--path-separator`: every `/` of a printed path becomes the separator.
pub(crate) fn separate(opts: &PrintOpts, path: &mut [u8]) {
    if let Some(sep) = opts.path_separator {
        path.iter_mut()
            .filter(|b| **b == b'/')
            .for_each(|b| *b = sep);
    }
}

/// After the last path argument: rg's closing `summary` message under `--json`, or its `--stats`
/// lines. The state carried between path arguments starts over.
pub(crate) fn finish(opts: &PrintOpts, out: &mut dyn Write) -> io::Result<()> {
    let st = STATE.with(|st| std::mem::take(&mut *st.borrow_mut()));
    let mut buf = Vec::new();
    if opts.json && (!opts.quiet || opts.stats) {
        json::summary(&mut buf, &st);
    } else if opts.stats {
        st.totals.write_human(&mut buf, st.started.elapsed());
    }
    out.write_all(&buf)
}

#[cfg(test)]
mod tests;
