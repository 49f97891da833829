//! The flags of `rootbound grep`: ripgrep 13's, spelled as rg spells them. As in rg, every flag may
//! be repeated and the last one wins (`args_override_self`), and each flag overrides its opposites
//! (`-i`/`-s`/`-S`, `-n`/`-N`, `-A`/`-C`...). Flags rg accepts that change nothing rootbound prints
//! (`--mmap`, `--sort path`, `--no-config`...) are accepted. The sandbox flags (`--root`, `--deny`, the
//! limit flags) come after, shared with the other subcommands.

use crate::cli::SandboxOpts;
use clap::{ArgAction, ArgMatches, Args, Command, FromArgMatches};
use std::ffi::OsString;

/// `rootbound grep`: the rg flags, then the sandbox flags.
pub(crate) struct GrepCmd {
    /// The rg flags.
    pub rg: RgFlags,
    /// `--root`, `--deny`, `--config`, the limit flags.
    pub opts: SandboxOpts,
}

impl Args for GrepCmd {
    fn augment_args(cmd: Command) -> Command {
        let cmd = SandboxOpts::augment_args(RgFlags::augment_args(cmd));
        // Limit flags that rg also has take rg's value syntax (`--max-filesize 10M`); `-M` is rg's
        // short form of `--max-columns` (read as rg's flag, not as the limit: see `run`).
        let sized = |a: clap::Arg| a.value_parser(parse_size);
        cmd.mut_arg("max_filesize", sized)
            .mut_arg("regex_size_limit", |a| a.value_parser(parse_size_usize))
            .mut_arg("dfa_size_limit", |a| a.value_parser(parse_size_usize))
            .mut_arg("max_columns", |a| {
                a.short('M')
                    .help("rg -M: omit lines longer than this many bytes (0: no limit)")
            })
            .args_override_self(true)
            .after_help(
                "Deliberate differences from rg: no ignore files above the searched directory, no \
                 global gitignore, no symlink following (-L is refused), no stdin search, no \
                 preprocessors (-z, --pre), and every path is opened through the sandbox.",
            )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for GrepCmd {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(GrepCmd {
            rg: RgFlags::from_arg_matches(m)?,
            opts: SandboxOpts::from_arg_matches(m)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// rg's human-readable sizes: a number with an optional `K`, `M` or `G` suffix (powers of 1024).
pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    let (num, shift) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("invalid size '{s}' (a number with an optional K, M or G suffix)"))?;
    n.checked_mul(1u64 << shift)
        .ok_or_else(|| format!("size '{s}' is too large"))
}

fn parse_size_usize(s: &str) -> Result<usize, String> {
    parse_size(s).and_then(|n| usize::try_from(n).map_err(|_| format!("size '{s}' is too large")))
}

/// One rg flag per field. Hidden fields are rg's hidden negations (`--no-heading` is documented,
/// `--no-column` is not, as in rg).
#[derive(Args, Debug, Default, Clone)]
pub(crate) struct RgFlags {
    /// The regular expression (with -e or -f, the first path instead).
    #[arg(value_name = "PATTERN")]
    pub pattern: Option<OsString>,
    /// Files or directories to search (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    // --- Patterns.
    /// A pattern to search for (repeatable; a line matching any of them matches).
    #[arg(short = 'e', long = "regexp", value_name = "PATTERN", action = ArgAction::Append, allow_hyphen_values = true)]
    pub regexp: Vec<OsString>,
    /// Read patterns from FILE, one per line (repeatable; `-` is stdin).
    #[arg(short = 'f', long = "file", value_name = "PATTERNFILE", action = ArgAction::Append)]
    pub file: Vec<OsString>,
    /// Case-insensitive search.
    #[arg(short = 'i', long, overrides_with_all = ["case_sensitive", "smart_case"])]
    pub ignore_case: bool,
    /// Case-sensitive search (the default).
    #[arg(short = 's', long, overrides_with_all = ["ignore_case", "smart_case"])]
    pub case_sensitive: bool,
    /// Case-insensitive unless the pattern has an uppercase letter.
    #[arg(short = 'S', long, overrides_with_all = ["ignore_case", "case_sensitive"])]
    pub smart_case: bool,
    /// Patterns are literal strings.
    #[arg(short = 'F', long, overrides_with = "no_fixed_strings")]
    pub fixed_strings: bool,
    #[arg(long, hide = true, overrides_with = "fixed_strings")]
    pub no_fixed_strings: bool,
    /// Only whole-word matches.
    #[arg(short = 'w', long, overrides_with = "line_regexp")]
    pub word_regexp: bool,
    /// Only whole-line matches.
    #[arg(short = 'x', long, overrides_with = "word_regexp")]
    pub line_regexp: bool,
    /// Show the lines that do not match.
    #[arg(short = 'v', long)]
    pub invert_match: bool,
    /// Matches may span lines.
    #[arg(short = 'U', long, overrides_with = "no_multiline")]
    pub multiline: bool,
    #[arg(long, hide = true, overrides_with = "multiline")]
    pub no_multiline: bool,
    /// With -U, `.` matches a newline too.
    #[arg(long, overrides_with = "no_multiline_dotall")]
    pub multiline_dotall: bool,
    #[arg(long, hide = true, overrides_with = "multiline_dotall")]
    pub no_multiline_dotall: bool,
    /// ASCII-only `\w`, `.`, classes and case folding.
    #[arg(long, alias = "no-pcre2-unicode", overrides_with = "unicode")]
    pub no_unicode: bool,
    #[arg(
        long,
        hide = true,
        alias = "pcre2-unicode",
        overrides_with = "no_unicode"
    )]
    pub unicode: bool,
    /// `$` matches before `\r\n` too (the last of it and --null-data wins, as in rg).
    #[arg(long, overrides_with_all = ["no_crlf", "null_data"])]
    pub crlf: bool,
    #[arg(long, hide = true, overrides_with = "crlf")]
    pub no_crlf: bool,
    /// Text encoding of the files: auto (BOM sniffing) or utf-8; others are refused.
    #[arg(
        short = 'E',
        long,
        value_name = "ENCODING",
        overrides_with = "no_encoding"
    )]
    pub encoding: Option<String>,
    #[arg(long, hide = true, overrides_with = "encoding")]
    pub no_encoding: bool,

    // --- What is searched.
    /// Include (or, with `!`, exclude) paths matching this glob (repeatable; the last match wins).
    #[arg(short = 'g', long = "glob", value_name = "GLOB", action = ArgAction::Append, allow_hyphen_values = true)]
    pub glob: Vec<String>,
    /// As -g, case-insensitively.
    #[arg(long, value_name = "GLOB", action = ArgAction::Append, allow_hyphen_values = true)]
    pub iglob: Vec<String>,
    /// Every -g glob matches case-insensitively.
    #[arg(long, overrides_with = "no_glob_case_insensitive")]
    pub glob_case_insensitive: bool,
    #[arg(long, hide = true, overrides_with = "glob_case_insensitive")]
    pub no_glob_case_insensitive: bool,
    /// Only files of this type (repeatable; `all`: any known type).
    #[arg(short = 't', long = "type", value_name = "TYPE", action = ArgAction::Append)]
    pub type_: Vec<String>,
    /// No files of this type (repeatable).
    #[arg(short = 'T', long, value_name = "TYPE", action = ArgAction::Append)]
    pub type_not: Vec<String>,
    /// Add a file type: `name:glob` or `name:include:a,b` (repeatable).
    #[arg(long, value_name = "TYPE_SPEC", action = ArgAction::Append)]
    pub type_add: Vec<String>,
    /// Forget a type's globs (repeatable).
    #[arg(long, value_name = "TYPE", action = ArgAction::Append)]
    pub type_clear: Vec<String>,
    /// Print the known file types and exit.
    #[arg(long)]
    pub type_list: bool,
    /// Search hidden files and directories.
    #[arg(short = '.', long, overrides_with = "no_hidden")]
    pub hidden: bool,
    #[arg(long, hide = true, overrides_with = "hidden")]
    pub no_hidden: bool,
    /// Do not read ignore files (.gitignore, .ignore, .rgignore, .git/info/exclude).
    #[arg(long, overrides_with = "ignore")]
    pub no_ignore: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore")]
    pub ignore: bool,
    /// Do not read .gitignore and .git/info/exclude.
    #[arg(long, overrides_with = "ignore_vcs")]
    pub no_ignore_vcs: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_vcs")]
    pub ignore_vcs: bool,
    /// Do not read .ignore files (.rgignore still applies, as in rg 13).
    #[arg(long, overrides_with = "ignore_dot")]
    pub no_ignore_dot: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_dot")]
    pub ignore_dot: bool,
    /// Do not read .git/info/exclude.
    #[arg(long, overrides_with = "ignore_exclude")]
    pub no_ignore_exclude: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_exclude")]
    pub ignore_exclude: bool,
    /// Rules in gitignore syntax from FILE (repeatable; below every ignore file in precedence).
    #[arg(long, value_name = "PATH", action = ArgAction::Append)]
    pub ignore_file: Vec<OsString>,
    /// Do not read the --ignore-file files.
    #[arg(long, overrides_with = "ignore_files")]
    pub no_ignore_files: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_files")]
    pub ignore_files: bool,
    /// Accepted: ignore files above the searched directory are never read here.
    #[arg(long, overrides_with = "ignore_parent")]
    pub no_ignore_parent: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_parent")]
    pub ignore_parent: bool,
    /// Accepted: no global gitignore is ever read here.
    #[arg(long, overrides_with = "ignore_global")]
    pub no_ignore_global: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_global")]
    pub ignore_global: bool,
    /// Accepted: nothing reports on ignore files here.
    #[arg(long, overrides_with = "ignore_messages")]
    pub no_ignore_messages: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_messages")]
    pub ignore_messages: bool,
    /// Apply .gitignore outside git repositories too.
    #[arg(long, overrides_with = "require_git")]
    pub no_require_git: bool,
    #[arg(long, hide = true, overrides_with = "no_require_git")]
    pub require_git: bool,
    /// -u: --no-ignore; -uu: and --hidden; -uuu: and --binary.
    #[arg(short = 'u', long, action = ArgAction::Count)]
    pub unrestricted: u8,
    /// Descend at most this many directory levels.
    #[arg(long, short = 'd', alias = "maxdepth", value_name = "NUM")]
    pub max_depth: Option<u64>,
    /// Search binary files found by the walk too (output stops at the first NUL, as for named files).
    #[arg(long, overrides_with_all = ["no_binary", "text", "no_text"])]
    pub binary: bool,
    #[arg(long, hide = true, overrides_with_all = ["binary", "text", "no_text"])]
    pub no_binary: bool,
    /// Search binary files as text.
    #[arg(short = 'a', long, overrides_with_all = ["no_text", "binary", "no_binary"])]
    pub text: bool,
    #[arg(long, hide = true, overrides_with_all = ["text", "binary", "no_binary"])]
    pub no_text: bool,
    /// Refused: decompression runs external programs.
    #[arg(short = 'z', long, overrides_with = "no_search_zip")]
    pub search_zip: bool,
    #[arg(long, hide = true, overrides_with = "search_zip")]
    pub no_search_zip: bool,
    /// Refused: the walker never follows symlinks (one could lead out of the root).
    #[arg(short = 'L', long, overrides_with = "no_follow")]
    pub follow: bool,
    #[arg(long, hide = true, overrides_with = "follow")]
    pub no_follow: bool,

    // --- What is printed.
    /// Print the files that would be searched, not matches.
    #[arg(long)]
    pub files: bool,
    /// Print the paths of files with a match.
    #[arg(short = 'l', long, overrides_with = "files_without_match")]
    pub files_with_matches: bool,
    /// Print the paths of searched files without a match.
    #[arg(long, overrides_with = "files_with_matches")]
    pub files_without_match: bool,
    /// Print the number of matching lines per file.
    #[arg(short = 'c', long, overrides_with = "count_matches")]
    pub count: bool,
    /// Print the number of matches per file.
    #[arg(long, overrides_with = "count")]
    pub count_matches: bool,
    /// Print nothing; exit 0 on the first match.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// Print rg's JSON Lines messages.
    #[arg(long, overrides_with = "no_json", conflicts_with_all = ["count", "count_matches", "files", "files_with_matches", "files_without_match"])]
    pub json: bool,
    #[arg(long, hide = true, overrides_with = "json")]
    pub no_json: bool,
    /// Print only the matched parts.
    #[arg(short = 'o', long)]
    pub only_matching: bool,
    /// Print each match replaced by TEXT (`$1`, `$name` expand groups).
    #[arg(
        short = 'r',
        long,
        value_name = "REPLACEMENT_TEXT",
        allow_hyphen_values = true
    )]
    pub replace: Option<String>,
    /// At most this many matching lines per file.
    #[arg(short = 'm', long, value_name = "NUM")]
    pub max_count: Option<u64>,
    /// Lines of context after each match.
    #[arg(short = 'A', long, value_name = "NUM", overrides_with = "context")]
    pub after_context: Option<u64>,
    /// Lines of context before each match.
    #[arg(short = 'B', long, value_name = "NUM", overrides_with = "context")]
    pub before_context: Option<u64>,
    /// Lines of context before and after each match.
    #[arg(short = 'C', long, value_name = "NUM", overrides_with_all = ["after_context", "before_context"])]
    pub context: Option<u64>,
    /// Separator between context groups (default `--`).
    #[arg(
        long,
        value_name = "SEPARATOR",
        allow_hyphen_values = true,
        overrides_with = "no_context_separator"
    )]
    pub context_separator: Option<String>,
    /// No separator between context groups.
    #[arg(long, overrides_with = "context_separator")]
    pub no_context_separator: bool,
    /// Separator after the path and numbers of a matching line (default `:`).
    #[arg(long, value_name = "SEPARATOR", allow_hyphen_values = true)]
    pub field_match_separator: Option<String>,
    /// Separator after the path and numbers of a context line (default `-`).
    #[arg(long, value_name = "SEPARATOR", allow_hyphen_values = true)]
    pub field_context_separator: Option<String>,
    /// Show line numbers (default on a terminal).
    #[arg(short = 'n', long, overrides_with = "no_line_number")]
    pub line_number: bool,
    /// Hide line numbers.
    #[arg(short = 'N', long, overrides_with = "line_number")]
    pub no_line_number: bool,
    /// Show the column of the first match.
    #[arg(long, overrides_with = "no_column")]
    pub column: bool,
    #[arg(long, hide = true, overrides_with = "column")]
    pub no_column: bool,
    /// Show the path with each line (default when searching more than one file).
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,
    /// Never show the path.
    #[arg(short = 'I', long, overrides_with = "with_filename")]
    pub no_filename: bool,
    /// The path on its own line above each file's results (default on a terminal).
    #[arg(long, overrides_with = "no_heading")]
    pub heading: bool,
    /// The path on every line.
    #[arg(long, overrides_with = "heading")]
    pub no_heading: bool,
    /// When to colour: never, auto, always, ansi.
    #[arg(long, value_name = "WHEN", value_parser = ["never", "auto", "always", "ansi"])]
    pub color: Option<String>,
    /// Colour specs (`match:fg:red`, `path:style:bold`...), repeatable.
    #[arg(long, value_name = "COLOR_SPEC", action = ArgAction::Append)]
    pub colors: Vec<String>,
    /// --color always --heading --line-number.
    #[arg(short = 'p', long)]
    pub pretty: bool,
    /// A NUL byte after each path.
    #[arg(short = '0', long)]
    pub null: bool,
    /// With -c: also print files with no match (`path:0`).
    #[arg(long)]
    pub include_zero: bool,
    /// Print this one byte instead of `/` between the parts of each path.
    #[arg(long, value_name = "SEPARATOR")]
    pub path_separator: Option<String>,
    /// Strip leading whitespace from each line.
    #[arg(long, overrides_with = "no_trim")]
    pub trim: bool,
    #[arg(long, hide = true, overrides_with = "trim")]
    pub no_trim: bool,
    /// With -M, show the start of long lines.
    #[arg(long, overrides_with = "no_max_columns_preview")]
    pub max_columns_preview: bool,
    #[arg(long, hide = true, overrides_with = "max_columns_preview")]
    pub no_max_columns_preview: bool,
    /// Every match on its own line as path:line:column:text.
    #[arg(long)]
    pub vimgrep: bool,
    /// Print (and stop) no error messages.
    #[arg(long, overrides_with = "messages")]
    pub no_messages: bool,
    #[arg(long, hide = true, overrides_with = "no_messages")]
    pub messages: bool,

    // --- Accepted for rg compatibility: they change nothing rootbound prints.
    /// Accepted: results are always in path order. `modified`, `accessed`, `created` are refused.
    #[arg(long, value_name = "SORTBY", value_parser = ["path", "modified", "accessed", "created", "none"], overrides_with_all = ["sortr", "sort_files"])]
    pub sort: Option<String>,
    /// As --sort, descending (refused except `none`).
    #[arg(long, value_name = "SORTBY", value_parser = ["path", "modified", "accessed", "created", "none"], overrides_with_all = ["sort", "sort_files"])]
    pub sortr: Option<String>,
    #[arg(long, hide = true, overrides_with_all = ["sort", "sortr"])]
    pub sort_files: bool,
    /// Accepted (files are read, not mapped).
    #[arg(long, overrides_with = "no_mmap")]
    pub mmap: bool,
    /// Accepted.
    #[arg(long, overrides_with = "mmap")]
    pub no_mmap: bool,
    /// Accepted (output is flushed at the end of each file).
    #[arg(long, overrides_with_all = ["block_buffered", "no_line_buffered", "no_block_buffered"])]
    pub line_buffered: bool,
    #[arg(long, hide = true, overrides_with_all = ["line_buffered", "block_buffered", "no_block_buffered"])]
    pub no_line_buffered: bool,
    /// Accepted.
    #[arg(long, overrides_with_all = ["line_buffered", "no_line_buffered", "no_block_buffered"])]
    pub block_buffered: bool,
    #[arg(long, hide = true, overrides_with_all = ["line_buffered", "no_line_buffered", "block_buffered"])]
    pub no_block_buffered: bool,
    /// Accepted: rootbound reads no rg config file.
    #[arg(long)]
    pub no_config: bool,
    /// Accepted (set ROOTBOUND_LOG=debug for the library's log).
    #[arg(long, overrides_with = "trace")]
    pub debug: bool,
    #[arg(long, hide = true, overrides_with = "debug")]
    pub trace: bool,

    // --- rg flags refused with a reason (rather than clap's "unexpected argument").
    /// Refused: PCRE2 is not built in.
    #[arg(short = 'P', long, hide = true, overrides_with = "no_pcre2")]
    pub pcre2: bool,
    #[arg(long, hide = true, overrides_with = "pcre2")]
    pub no_pcre2: bool,
    /// Only `default` (Rust regex) is available.
    #[arg(long, hide = true, value_name = "ENGINE")]
    pub engine: Option<String>,
    #[arg(long, hide = true, overrides_with = "no_auto_hybrid_regex")]
    pub auto_hybrid_regex: bool,
    #[arg(long, hide = true, overrides_with = "auto_hybrid_regex")]
    pub no_auto_hybrid_regex: bool,
    #[arg(long, hide = true)]
    pub pcre2_version: bool,
    /// Refused: preprocessors run external programs.
    #[arg(long, hide = true, value_name = "COMMAND", overrides_with = "no_pre")]
    pub pre: Option<OsString>,
    #[arg(long, hide = true, overrides_with = "pre")]
    pub no_pre: bool,
    #[arg(long, hide = true, value_name = "GLOB", action = ArgAction::Append)]
    pub pre_glob: Vec<String>,
    /// Print every line, those without a match as context (the last of it and -A/-B/-C wins).
    #[arg(long, overrides_with_all = ["context", "after_context", "before_context"])]
    pub passthru: bool,
    /// Lines end at NUL bytes instead of newlines (for `find -print0` lists and the like).
    #[arg(long, overrides_with = "crlf")]
    pub null_data: bool,
    /// Print rg's counts (matches, lines, files, bytes) after the results.
    #[arg(long, overrides_with = "no_stats")]
    pub stats: bool,
    #[arg(long, hide = true, overrides_with = "stats")]
    pub no_stats: bool,
    /// Print the 0-based byte offset of each line (with -o, of each match) before it.
    #[arg(short = 'b', long)]
    pub byte_offset: bool,
    /// Do not enter directories on another file system than the path's.
    #[arg(long, overrides_with = "no_one_file_system")]
    pub one_file_system: bool,
    #[arg(long, hide = true, overrides_with = "one_file_system")]
    pub no_one_file_system: bool,
    /// Match the rules of the tree's ignore files case-insensitively (not --ignore-file's, as rg).
    #[arg(long, overrides_with = "no_ignore_file_case_insensitive")]
    pub ignore_file_case_insensitive: bool,
    #[arg(long, hide = true, overrides_with = "ignore_file_case_insensitive")]
    pub no_ignore_file_case_insensitive: bool,

    // --- rootbound's own.
    /// Also search documents (PPTX, DOCX, XLSX, PDF, .ipynb) as their extracted text; each line
    /// shows its part, e.g. `deck.pptx:12:[slide 3] text`
    #[arg(long)]
    pub documents: bool,
}
