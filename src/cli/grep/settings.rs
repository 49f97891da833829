//! From rg's flags to what the search and the printer read: a [`GrepArgs`] and the command-line-only
//! [`RgOptions`], and a [`PrintOpts`], with rg 13's defaults for a terminal and for a pipe, and rg's
//! rules for flags that combine (`-c -o` counts matches, `-v --count-matches` counts lines...).

use super::args::RgFlags;
use super::print::{Color, PrintOpts};
use rootbound::rg::{BinaryMode, RgOptions};
use rootbound::{GrepArgs, OutputMode};
use std::ffi::OsString;
use std::io::Read;

/// What the command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Search the paths.
    Search,
    /// `--files`: list the files that would be searched.
    Files,
    /// rg's "search never": `-m 0`, or `-f` with no patterns. Nothing is printed; exit 1.
    Never,
}

/// Everything a run needs, before the paths are resolved.
pub(crate) struct Settings {
    pub action: Action,
    /// The search, without `path` (set per path argument).
    pub args: GrepArgs,
    /// rg's settings beyond the agent contract (globs, types, ignore kinds, binary mode...).
    pub rg: RgOptions,
    /// The printer's settings, without `with_filename` and `path_prefix` (set once paths are known).
    pub print: PrintOpts,
    /// The path arguments (the positional pattern becomes the first when `-e`/`-f`/`--files` gave
    /// the pattern).
    pub paths: Vec<OsString>,
    /// `--no-messages`: no per-path error messages.
    pub no_messages: bool,
    /// `-H`/`-I`/`--vimgrep` as given; `None`: rg's default (the path unless one file is searched).
    pub with_filename: Option<bool>,
}

/// The environment rg's defaults depend on.
pub(crate) struct Env {
    /// stdout is a terminal.
    pub tty: bool,
    /// `TERM` is set and not `dumb`, and `NO_COLOR` is not set (termcolor's test for `auto`).
    pub term_colors: bool,
}

impl Env {
    /// The environment of this process.
    pub(crate) fn current() -> Env {
        let term = std::env::var_os("TERM");
        Env {
            tty: std::io::IsTerminal::is_terminal(&std::io::stdout()),
            term_colors: term.is_some_and(|t| t != "dumb")
                && std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

/// The settings of `f`, or a message saying which flag is refused and why.
pub(crate) fn settings(
    f: &RgFlags,
    env: &Env,
    max_columns: Option<u64>,
) -> Result<Settings, String> {
    refuse_unsupported(f)?;
    let (patterns, paths) = patterns_and_paths(f)?;
    let action = if f.files {
        Action::Files
    } else if patterns.is_empty() || f.max_count == Some(0) {
        Action::Never
    } else {
        Action::Search
    };
    let modes = Modes::of(f);
    let rg = rg_options(f, &paths)?;
    let args = grep_args(f, patterns, &modes);
    let with_filename = if f.no_filename {
        Some(false)
    } else if f.with_filename || f.vimgrep {
        Some(true)
    } else {
        None
    };
    let print = print_opts(f, env, max_columns, &modes, with_filename)?;
    Ok(Settings {
        action,
        args,
        rg,
        print,
        paths,
        no_messages: f.no_messages,
        with_filename,
    })
}

/// The patterns of `f` and its path arguments (the positional pattern is the first path when
/// `-e`/`-f`/`--files` gave the patterns).
fn patterns_and_paths(f: &RgFlags) -> Result<(Vec<String>, Vec<OsString>), String> {
    let mut paths = f.paths.clone();
    let pattern_given_elsewhere = !f.regexp.is_empty() || !f.file.is_empty() || f.files;
    let mut patterns = Vec::new();
    if pattern_given_elsewhere {
        if let Some(p) = &f.pattern {
            paths.insert(0, p.clone());
        }
        for e in &f.regexp {
            patterns.push(utf8_pattern(e)?);
        }
        for file in &f.file {
            patterns.extend(patterns_from_file(file)?);
        }
    } else {
        match &f.pattern {
            Some(p) => patterns.push(utf8_pattern(p)?),
            None => {
                return Err("no pattern given: rootbound grep PATTERN [PATH...] (or -e, -f, --files, --type-list)".into())
            }
        }
    }
    Ok((patterns, paths))
}

/// What the search reports, as rg's flags combine.
struct Modes {
    mode: OutputMode,
    /// Counts or file lists, or `-q`: no lines are shown.
    summary: bool,
    count_matches: bool,
}

impl Modes {
    fn of(f: &RgFlags) -> Modes {
        // rg's counts(): `-v --count-matches` counts lines, `-c -o` counts matches.
        let (count, count_matches) = if f.count_matches && f.invert_match {
            (true, false)
        } else if f.count && f.only_matching {
            (false, true)
        } else {
            (f.count, f.count_matches)
        };
        let mode = if count || count_matches {
            OutputMode::Count
        } else if f.files_with_matches {
            OutputMode::FilesWithMatches
        } else if f.files_without_match {
            OutputMode::FilesWithoutMatch
        } else {
            OutputMode::Content
        };
        let summary = mode != OutputMode::Content || f.quiet;
        // -q stops at the first file with a match: ask for files, one at a time.
        let mode = if f.quiet {
            OutputMode::FilesWithMatches
        } else {
            mode
        };
        Modes {
            mode,
            summary,
            count_matches,
        }
    }
}

/// `-u` given once or more: ignore files are not read.
fn no_ignore(f: &RgFlags) -> bool {
    f.no_ignore || f.unrestricted >= 1
}

/// rg's settings beyond the agent contract, from `f` (`paths`: the path arguments, which decide
/// rg's memory map).
fn rg_options(f: &RgFlags, paths: &[OsString]) -> Result<RgOptions, String> {
    let u = f.unrestricted;
    let no_ignore = no_ignore(f);
    let mut rg = RgOptions::default();
    rg.globs = f.glob.iter().map(|g| (g.clone(), false)).collect();
    // rg adds every --iglob after the -g globs.
    rg.globs.extend(f.iglob.iter().map(|g| (g.clone(), true)));
    rg.glob_case_insensitive = f.glob_case_insensitive;
    rg.type_clear = f.type_clear.clone();
    rg.type_add = f.type_add.clone();
    rg.type_select = f.type_.clone();
    rg.type_negate = f.type_not.clone();
    rg.no_ignore_vcs = f.no_ignore_vcs || no_ignore;
    rg.no_ignore_dot = f.no_ignore_dot || no_ignore;
    rg.no_ignore_exclude = f.no_ignore_exclude || no_ignore;
    rg.no_require_git = f.no_require_git;
    rg.no_unicode = f.no_unicode;
    rg.multiline_dotall = f.multiline_dotall;
    rg.crlf = f.crlf;
    rg.passthru = f.passthru;
    rg.null_data = f.null_data;
    rg.one_file_system = f.one_file_system;
    rg.ignore_file_case_insensitive = f.ignore_file_case_insensitive;
    rg.encoding_none = f.encoding.as_deref().is_some_and(|e| e == "none");
    rg.binary = if f.text {
        BinaryMode::Text
    } else if f.binary || u >= 3 {
        BinaryMode::Binary
    } else {
        BinaryMode::Auto
    };
    rg.max_depth = f.max_depth;
    // rg's mmap_choice: `--no-mmap`, else `--mmap`, else a map for up to 10 paths that are all files.
    rg.no_mmap = f.no_mmap
        || !f.mmap
            && (paths.len() > 10
                || paths.is_empty()
                || !paths
                    .iter()
                    .all(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file())));
    if !f.no_ignore_files {
        for file in &f.ignore_file {
            rg.ignore_lines.extend(lines_of_file(file, "ignore rules")?);
        }
    }
    Ok(rg)
}

/// The search's arguments (without `path`) from `f` and its patterns.
fn grep_args(f: &RgFlags, patterns: Vec<String>, m: &Modes) -> GrepArgs {
    let mut args = GrepArgs::default();
    let mut pats = patterns.into_iter();
    args.pattern = pats.next().unwrap_or_default();
    let more: Vec<String> = pats.collect();
    args.patterns = (!more.is_empty()).then_some(more);
    args.case_insensitive = Some(f.ignore_case);
    args.smart_case = Some(f.smart_case);
    args.fixed_strings = Some(f.fixed_strings);
    args.word = Some(f.word_regexp);
    args.line_regexp = Some(f.line_regexp);
    args.invert = Some(f.invert_match);
    args.multiline = Some(f.multiline);
    args.only_matching = Some(f.only_matching && !m.summary);
    args.max_count = f.max_count;
    args.max_depth = f.max_depth;
    // rg's contexts(): -C N (N > 0) sets both; otherwise -A and -B (each overrides -C).
    let (before, after) = match f.context {
        Some(n) if n > 0 => (n, n),
        _ => (f.before_context.unwrap_or(0), f.after_context.unwrap_or(0)),
    };
    if m.mode == OutputMode::Content {
        args.before = Some(before);
        args.after = Some(after);
    }
    args.output_mode = Some(m.mode);
    args.hidden = Some(f.hidden || f.unrestricted >= 2);
    args.no_ignore = Some(no_ignore(f));
    args.documents = f.documents.then_some(true);
    args
}

/// The printer's settings from `f` and the environment.
fn print_opts(
    f: &RgFlags,
    env: &Env,
    max_columns: Option<u64>,
    m: &Modes,
    with_filename: Option<bool>,
) -> Result<PrintOpts, String> {
    let summary = m.summary;
    Ok(PrintOpts {
        json: f.json,
        color: color(f, env),
        heading: !f.no_heading && !f.vimgrep && (env.tty || f.heading || f.pretty),
        // rg's line_number(): off for summaries, on for JSON, else on a terminal or when asked.
        line_number: !summary
            && !f.no_line_number
            && (f.json || env.tty || f.line_number || f.column || f.pretty || f.vimgrep),
        column: !f.no_column && (f.column || f.vimgrep),
        with_filename: with_filename.unwrap_or(true),
        null: f.null,
        include_zero: f.include_zero,
        path_separator: path_separator(f.path_separator.as_deref())?,
        trim: f.trim,
        max_columns: max_columns.filter(|n| *n > 0),
        max_columns_preview: f.max_columns_preview,
        vimgrep: f.vimgrep,
        only_matching: f.only_matching,
        replace: f.replace.clone(),
        context_separator: (!f.no_context_separator).then(|| {
            f.context_separator
                .as_deref()
                .map_or_else(|| "--".to_string(), unescape)
        }),
        field_match_separator: f
            .field_match_separator
            .as_deref()
            .map_or_else(|| ":".into(), unescape),
        field_context_separator: f
            .field_context_separator
            .as_deref()
            .map_or_else(|| "-".into(), unescape),
        count: m.mode != OutputMode::Content,
        count_matches: m.count_matches,
        multiline: f.multiline,
        quiet: f.quiet,
        path_prefix: None,
        // rg's searcher: --crlf wins over --null-data.
        line_term: if f.crlf {
            b"\r\n"
        } else if f.null_data {
            b"\0"
        } else {
            b"\n"
        },
        stats: f.stats,
        byte_offset: f.byte_offset,
        colors: check_colors(&f.colors)?,
    })
}

/// Flags rg has that rootbound refuses, with the reason.
fn refuse_unsupported(f: &RgFlags) -> Result<(), String> {
    if f.search_zip {
        return Err("-z/--search-zip is not supported: decompression runs external programs (rg's preprocessors), which rootbound does not start".into());
    }
    if f.follow {
        return Err("-L/--follow is not supported: the walker never follows symbolic links (one could lead out of the root); a link named on the command line is followed when its target stays in the root".into());
    }
    if f.pcre2 || f.auto_hybrid_regex || f.pcre2_version {
        return Err("-P/--pcre2 is not supported: rootbound has only the Rust regex engine (no look-around or backreferences)".into());
    }
    if let Some(e) = f.engine.as_deref().filter(|e| *e != "default") {
        return Err(format!(
            "--engine {e} is not supported: rootbound has only the default (Rust regex) engine"
        ));
    }
    if f.pre.is_some() || !f.pre_glob.is_empty() {
        return Err("--pre/--pre-glob are not supported: preprocessors run external programs, which rootbound does not start".into());
    }
    for (flag, v) in [("--sort", &f.sort), ("--sortr", &f.sortr)] {
        match v.as_deref() {
            None | Some("none") => {}
            Some("path") if flag == "--sort" => {}
            Some(by) => {
                return Err(format!(
                    "{flag} {by} is not supported: results are always in path order (--sort path)"
                ))
            }
        }
    }
    if let Some(e) = &f.encoding {
        // rg takes `auto` and `none` as written; anything else is an encoding label, which
        // matches case-insensitively.
        let utf8 = e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8");
        if !(utf8 || e == "auto" || e == "none") {
            return Err(format!(
                "-E/--encoding {e} is not supported: files are searched as UTF-8 (auto, none, utf-8)"
            ));
        }
    }
    Ok(())
}

/// rg's colour choice: `always`/`ansi` colour; `auto` (the default) colours on a terminal or with
/// `--pretty`, when the terminal takes colours.
fn color(f: &RgFlags, env: &Env) -> bool {
    let choice = match f.color.as_deref() {
        Some("always") => Color::Always,
        Some("ansi") => Color::Ansi,
        Some("never") => Color::Never,
        _ => Color::Auto,
    };
    match choice {
        Color::Always | Color::Ansi => true,
        Color::Never => false,
        Color::Auto => (env.tty || f.pretty) && env.term_colors,
    }
}

/// `--colors` specs as rg checks them: `{path,line,column,match}:none`, or
/// `...:{fg,bg}:COLOR`, or `...:style:{bold,nobold,intense,nointense,underline,nounderline}`.
fn check_colors(specs: &[String]) -> Result<Vec<String>, String> {
    for s in specs {
        let parts: Vec<&str> = s.split(':').collect();
        let bad = || {
            Err(format!("invalid --colors spec '{s}' (expected e.g. match:fg:red, path:style:bold, line:none)"))
        };
        if parts.len() < 2 || !matches!(parts[0], "path" | "line" | "column" | "match") {
            return bad();
        }
        let ok = match (parts[1], parts.get(2)) {
            ("none", None) => true,
            ("fg" | "bg", Some(c)) => color_value(c),
            ("style", Some(st)) => matches!(
                *st,
                "bold" | "nobold" | "intense" | "nointense" | "underline" | "nounderline"
            ),
            _ => false,
        } && parts.len() <= 3;
        if !ok {
            return bad();
        }
    }
    Ok(specs.to_vec())
}

/// A colour rg accepts: a name, an ANSI 256 number, or `r,g,b`.
fn color_value(c: &str) -> bool {
    matches!(
        c,
        "black" | "blue" | "green" | "red" | "cyan" | "magenta" | "yellow" | "white"
    ) || c.parse::<u8>().is_ok()
        || c.split(',').filter(|x| x.parse::<u8>().is_ok()).count() == 3
        || c.strip_prefix("0x")
            .is_some_and(|h| u8::from_str_radix(h, 16).is_ok())
}

fn utf8_pattern(p: &OsString) -> Result<String, String> {
    p.to_str()
        .map(str::to_string)
        .ok_or_else(|| format!("pattern {p:?} is not valid UTF-8"))
}

/// The patterns of `-f FILE`, one per line (`-` reads stdin).
fn patterns_from_file(file: &OsString) -> Result<Vec<String>, String> {
    lines_of_file(file, "patterns")
}

/// The lines of `file` (`-` reads stdin), for `-f` and `--ignore-file`. The file is the operator's
/// own command-line argument, read with std: it is not a search target and the sandbox does not
/// govern it (as the config file is read).
fn lines_of_file(file: &OsString, what: &str) -> Result<Vec<String>, String> {
    let mut bytes = Vec::new();
    let read = if file == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(file).map(|b| bytes = b)
    };
    read.map_err(|e| format!("{}: {e}", file.to_string_lossy()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: {what} are not valid UTF-8", file.to_string_lossy()))?;
    let body = text.strip_suffix('\n').unwrap_or(&text);
    if body.is_empty() && text.is_empty() {
        return Ok(Vec::new());
    }
    Ok(body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect())
}

/// rg's escapes in separators: `\t`, `\n`, `\r`, `\\`, `\0` and `\xHH`.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('x') => {
                let hex: String = chars.clone().take(2).collect();
                match u8::from_str_radix(&hex, 16) {
                    Ok(b) if hex.len() == 2 && b.is_ascii() => {
                        out.push(b as char);
                        chars.next();
                        chars.next();
                    }
                    _ => out.push_str("\\x"),
                }
            }
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// rg's `--type-list`: each type and its globs, by name, after `--type-clear` and `--type-add`.
pub(crate) fn type_list(f: &RgFlags) -> Result<String, String> {
    let mut tb = ignore::types::TypesBuilder::new();
    tb.add_defaults();
    for name in &f.type_clear {
        tb.clear(name);
    }
    for def in &f.type_add {
        tb.add_def(def).map_err(|e| e.to_string())?;
    }
    let mut out = String::new();
    for d in tb.definitions() {
        if d.globs().is_empty() {
            continue;
        }
        out.push_str(d.name());
        out.push_str(": ");
        out.push_str(&d.globs().join(", "));
        out.push('\n');
    }
    Ok(out)
}

/// `--path-separator`: one byte (rg's check and words); empty means the default.
fn path_separator(sep: Option<&str>) -> Result<Option<u8>, String> {
    let Some(sep) = sep else { return Ok(None) };
    let bytes = unescape(sep).into_bytes();
    match bytes.as_slice() {
        [] => Ok(None),
        [b] => Ok(Some(*b)),
        _ => Err(format!(
            "A path separator must be exactly one byte, but the given separator is {} bytes: {sep}\n\
             In some shells on Windows '/' is automatically expanded. Use '//' instead.",
            bytes.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_take_rgs_escapes() {
        assert_eq!(unescape(r"a\tb\x41\\"), "a\tbA\\");
        assert_eq!(unescape(r"\q"), r"\q");
    }

    #[test]
    fn colour_specs_are_checked_like_rgs() {
        assert!(check_colors(&[
            "match:fg:red".into(),
            "path:style:bold".into(),
            "line:none".into()
        ])
        .is_ok());
        assert!(check_colors(&["match:fg:0x1f".into(), "column:bg:10,20,30".into()]).is_ok());
        assert!(check_colors(&["matches:fg:red".into()]).is_err());
        assert!(check_colors(&["match:fg:purple".into()]).is_err());
    }
}
