//! Settings only the `rootbound grep` command line gives: ripgrep flags the agent contract does not
//! offer (glob order and `--iglob`, `--type-add`, the `--no-ignore-*` family, `--no-unicode`...).
//! The library offers them in [`crate::rg`], as an argument of their own; inside the crate they are
//! passed beside the contract's arguments (the `Option<&RgOptions>` of `grep_search_with_rg` and
//! `glob_with_rg`), never inside them, so the tool schemas an agent sees do not change.

use crate::core::error::{Error, Result};
use crate::core::names;
use crate::search::matcher::MatchFlags;
use crate::search::query::check_glob;
use crate::walk::{Filter, IgnoreKinds};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::ffi::OsStr;
use std::path::Path;
use std::sync::Arc;

/// What rg does with a binary file (rg `--binary`, `-a`/`--text`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BinaryMode {
    /// rg's default: a binary file found by the walk is skipped at its first NUL; a file named on the
    /// command line is searched up to it and reported as "binary file matches".
    #[default]
    Auto,
    /// `--binary`: files found by the walk are searched as named files are.
    Binary,
    /// `-a`/`--text`: every file is searched as text.
    Text,
}

/// The `rootbound grep` settings beyond [`GrepArgs`](crate::GrepArgs)' contract fields. Every field's
/// default is what `rg` does without the flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RgOptions {
    /// `-g`/`--glob` and `--iglob` in command-line order (the last matching glob wins): the glob and
    /// whether it matches case-insensitively. `!` excludes; a leading `/` anchors at the root.
    pub globs: Vec<(String, bool)>,
    /// `--glob-case-insensitive`: every `-g` glob matches case-insensitively.
    pub glob_case_insensitive: bool,
    /// `--type-clear NAME`, applied first.
    pub type_clear: Vec<String>,
    /// `--type-add SPEC` (`name:glob`, or `name:include:a,b`), after the clears.
    pub type_add: Vec<String>,
    /// `-t NAME` (`all`: every defined type).
    pub type_select: Vec<String>,
    /// `-T NAME`.
    pub type_negate: Vec<String>,
    /// `--no-ignore-vcs`: `.gitignore` and `.git/info/exclude` are not read.
    pub no_ignore_vcs: bool,
    /// `--no-ignore-dot`: `.ignore` is not read (`.rgignore` still is, as in rg 13).
    pub no_ignore_dot: bool,
    /// `--no-ignore-exclude`: `.git/info/exclude` is not read.
    pub no_ignore_exclude: bool,
    /// `--no-require-git`: `.gitignore` applies outside a git repository too.
    pub no_require_git: bool,
    /// `--ignore-file-case-insensitive`: the rules of the ignore files found in the tree match
    /// names case-insensitively (as in rg 13, not those of `--ignore-file`).
    pub ignore_file_case_insensitive: bool,
    /// `--one-file-system`: the walk does not enter a directory on another file system than the
    /// path it starts from.
    pub one_file_system: bool,
    /// `--no-unicode`: `\w`, `.`, case folding and classes are ASCII-only.
    pub no_unicode: bool,
    /// `--multiline-dotall`: with `-U`, `.` matches a newline too. Without it, rg's `-U` keeps `.`
    /// within a line (the agent contract's `multiline` matches newlines with `.`).
    pub multiline_dotall: bool,
    /// `--crlf`: `$` matches before `\r\n` too.
    pub crlf: bool,
    /// `--binary`, `-a`/`--text` (read by the searcher).
    pub binary: BinaryMode,
    /// A file named as the path is read in buffers, not memory-mapped: rg's `--no-mmap`, and its
    /// choice when more than 10 paths or a directory are given. It changes what rg shows of a
    /// named binary file: read in 64 KiB buffers, the matches in and after the buffer holding the
    /// first NUL are not printed ("binary file matches" stands for them); mapped, the whole file
    /// is one buffer.
    pub no_mmap: bool,
    /// `--max-depth` for `--files` (the glob tool has no field for it; grep's is `max_depth`).
    pub max_depth: Option<u64>,
    /// `--passthru`: every line is printed, those without a match as context.
    pub passthru: bool,
    /// `--null-data`: lines end at NUL bytes, not `\n` (and NUL is then no sign of binary data).
    pub null_data: bool,
    /// `--encoding none`: no byte order mark sniffing; a UTF-16 file is searched as its bytes.
    pub encoding_none: bool,
    /// The lines of the `--ignore-file` files, in order (later lines win), as gitignore rules
    /// relative to the root. The command line reads the files: they are the operator's arguments.
    pub ignore_lines: Vec<String>,
    /// The globs choose among what the ignore files and the hidden rule leave rather than
    /// overriding them (not an rg flag: Gemini CLI's glob, whose matches .gitignore then filters).
    pub globs_keep_ignores: bool,
    /// The globs not starting with `!` match paths relative to the directory each walk starts in,
    /// not the root (not an rg flag: Gemini CLI's glob, minimatch with that directory as `cwd`).
    pub globs_from_start: bool,
}

impl RgOptions {
    /// The text a path argument is passed to the library as: its bytes as the library's reversible
    /// escape, so a name that is not UTF-8 still names the same file.
    pub fn path_arg(arg: &OsStr) -> String {
        names::escape_path(Path::new(arg))
    }

    /// The bytes of a path as the library shows it (escaped: one line, reversible): what rg prints
    /// for the same file (`a\\b` is `a\b`, `\xe9` is the byte 0xE9).
    pub fn raw_path(shown: &str) -> std::borrow::Cow<'_, [u8]> {
        names::unescape(shown)
    }

    fn ignore_kinds(&self) -> IgnoreKinds {
        IgnoreKinds {
            no_vcs: self.no_ignore_vcs,
            no_dot: self.no_ignore_dot,
            no_exclude: self.no_ignore_exclude,
            no_require_git: self.no_require_git,
            case_insensitive: self.ignore_file_case_insensitive,
            extra: None,
        }
    }

    /// The overrides of these globs anchored at the root-relative directory `start` (see
    /// [`RgOptions::globs_from_start`]); its name's glob characters are escaped.
    pub(crate) fn overrides_at(&self, start: &Path, max_glob_len: usize) -> Result<Filter> {
        let mut base = String::new();
        for c in start.to_string_lossy().chars() {
            if "*?[]{}\\!".contains(c) {
                base.push('\\');
            }
            base.push(c);
        }
        let globs = self
            .globs
            .iter()
            .map(|(g, i)| match g.strip_prefix('!') {
                Some(_) => (g.clone(), *i),
                None => {
                    let g = g.strip_prefix('/').unwrap_or(g);
                    let at = if base.is_empty() {
                        String::new()
                    } else {
                        format!("/{base}")
                    };
                    (format!("{at}/{g}"), *i)
                }
            })
            .collect();
        let anchored = RgOptions {
            globs,
            ..RgOptions::default()
        };
        anchored.apply_to(Filter::default(), max_glob_len)
    }

    /// `filter` with these settings: globs and types as rg builds them from its flags (they replace
    /// the contract's include/exclude/type: the command line gives them only here), and the ignore
    /// kinds.
    pub(crate) fn apply_to(&self, mut filter: Filter, max_glob_len: usize) -> Result<Filter> {
        filter.overrides = None;
        if !self.globs.is_empty() {
            let mut ob = ignore::overrides::OverrideBuilder::new("");
            if self.glob_case_insensitive {
                ob.case_insensitive(true)
                    .map_err(|e| Error::invalid(format!("globs: {e}")))?;
            }
            for (g, insensitive) in &self.globs {
                // rg: `!` negates, then a leading `/` anchors the glob at the root (which is how the
                // walker sees paths: root-relative), so both are allowed here and checked after.
                let body = g.strip_prefix('!').unwrap_or(g);
                let body = body.strip_prefix('/').unwrap_or(body);
                check_glob(body, max_glob_len)?;
                if *insensitive {
                    ob.case_insensitive(true)
                        .map_err(|e| Error::invalid(format!("globs: {e}")))?;
                }
                ob.add(g)
                    .map_err(|e| Error::invalid(format!("glob '{g}': {e}")))?;
            }
            filter.overrides = Some(
                ob.build()
                    .map_err(|e| Error::invalid(format!("globs: {e}")))?,
            );
        }
        filter.types = if self.type_select.is_empty() && self.type_negate.is_empty() {
            None
        } else {
            Some(self.types()?)
        };
        filter.ignore.kinds = self.ignore_kinds();
        if !self.ignore_lines.is_empty() {
            filter.explicit = Some(Arc::new(self.explicit_ignores(max_glob_len)?));
        }
        if self.max_depth.is_some() {
            filter.max_depth = self.max_depth;
        }
        filter.one_file_system = self.one_file_system;
        filter.overrides_keep_ignores = self.globs_keep_ignores;
        // The command line's filters are not part of the index's walk key.
        filter.key = None;
        Ok(filter)
    }

    /// The `--ignore-file` rules, compiled root-relative (a rule too long is refused like a glob).
    fn explicit_ignores(&self, max_len: usize) -> Result<Gitignore> {
        let mut b = GitignoreBuilder::new("");
        for line in &self.ignore_lines {
            if line.len() > max_len {
                return Err(Error::invalid(format!(
                    "--ignore-file rule of {} bytes is over the limit of {max_len}",
                    line.len()
                )));
            }
            b.add_line(None, line)
                .map_err(|e| Error::invalid(format!("--ignore-file: {e}")))?;
        }
        b.build()
            .map_err(|e| Error::invalid(format!("--ignore-file: {e}")))
    }

    /// rg's file types: the defaults, `--type-clear`, `--type-add`, then `-t` and `-T`.
    fn types(&self) -> Result<ignore::types::Types> {
        let mut tb = ignore::types::TypesBuilder::new();
        tb.add_defaults();
        for name in &self.type_clear {
            tb.clear(name);
        }
        for def in &self.type_add {
            tb.add_def(def)
                .map_err(|e| Error::invalid(format!("--type-add '{def}': {e}")))?;
        }
        for name in &self.type_select {
            tb.select(name);
        }
        for name in &self.type_negate {
            tb.negate(name);
        }
        // rg's own words for an unknown name: "unrecognized file type: NAME".
        tb.build().map_err(|e| Error::invalid(e.to_string()))
    }

    /// `flags` with these settings.
    pub(crate) fn match_flags(&self, mut flags: MatchFlags) -> MatchFlags {
        flags.no_unicode = self.no_unicode;
        flags.crlf = self.crlf;
        flags.null_data = self.null_data;
        if flags.multiline {
            flags.no_dotall = !self.multiline_dotall;
        }
        flags
    }
}
