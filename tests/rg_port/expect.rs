//! What each ported case is expected to do. A case not listed must behave as rg (`Same`).
//!
//! - `Deliberate(why)`: rootbound differs on purpose (README "Differences from ripgrep"). The case
//!   still runs and must still differ: if it starts to match rg, the entry is stale and the suite
//!   fails.
//! - `Bug(note)`: a known difference not fixed yet; the note starts with the area that owns the
//!   fix (`args:` flags, paths, exit codes, filters; `print:` output format, binary files, JSON).
//!   The difference is reported without failing; once the case matches rg the suite fails until
//!   the entry is removed, so the table never claims a bug that is gone.

/// The expectation of one case.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    /// Must match rg.
    Same,
    /// Differs on purpose, for the reason given.
    Deliberate(&'static str),
    /// Differs, not yet fixed. (None is listed now; `RG_PORT_UPDATE=1` writes entries again when a
    /// case starts to differ.)
    #[allow(dead_code)]
    Bug(&'static str),
}

#[allow(unused_imports)] // `Bug` is used by the entries RG_PORT_UPDATE writes.
use Expect::{Bug, Deliberate};

/// Cases (`file::name`) that are not `Same`.
const TABLE: &[(&str, Expect)] = &[
    ("feature::f1_sjis", Deliberate(ENCODING)),
    ("feature::f1_utf16_explicit", Deliberate(ENCODING)),
    ("feature::f1_eucjp", Deliberate(ENCODING)),
    ("misc::ignore_git_parent", Deliberate(PARENT_IGNORE)),
    (
        "misc::ignore_ripgrep_parent_no_stop",
        Deliberate(PARENT_IGNORE),
    ),
    ("misc::no_parent_ignore_git", Deliberate(PARENT_GIT)),
    ("misc::symlink_follow", Deliberate(FOLLOW)),
    ("misc::type_list", Deliberate(TYPES)),
    ("regression::r137", Deliberate(ABS_SYMLINK)),
    ("regression::r256", Deliberate(ABS_SYMLINK)),
    ("regression::r256_j1", Deliberate(ABS_SYMLINK)),
    ("regression::r391", Deliberate(FOLLOW)),
    (
        "regression::r1223_no_dir_check_for_default_path",
        Deliberate(STDIN),
    ),
    (
        "regression::r1389_bad_symlinks_no_biscuit",
        Deliberate(ABS_SYMLINK),
    ),
    (
        "regression::r1446_respect_excludes_in_worktree",
        Deliberate(WORKTREE),
    ),
    ("binary::after_match1_stdin", Deliberate(STDIN)),
    ("multiline::stdin", Deliberate(STDIN)),
    ("feature::no_unicode", Deliberate(REGEX_SYNTAX)),
];

/// rootbound's regex engine is regex-syntax 0.8 (rg 14's): without Unicode a non-ASCII literal
/// stands for its UTF-8 bytes, where rg 13's parser refused it (exit 2). rg's own test asks only
/// for a failing exit; rootbound exits 1 (no match).
const REGEX_SYNTAX: &str =
    "--no-unicode 'Δ' compiles (regex-syntax 0.8, as rg 14) and finds nothing: exit 1, rg 13 exit 2";
/// rootbound reads no ignore file above the directory it searches from (README, security 5).
const PARENT_IGNORE: &str =
    "no ignore files from the parents of the root: rg reads .gitignore/.ignore above the cwd";
/// `-L` is refused: the walker never follows symlinks.
const FOLLOW: &str =
    "-L/--follow refused: the walker never follows symlinks (one could lead out of the root)";
/// rg's tests make absolute symlinks; the sandbox resolves a link only beneath the root, and an
/// absolute target is refused even when it points back inside.
const ABS_SYMLINK: &str =
    "absolute symlinks are refused (resolved beneath the root only), even to a file inside it";
/// The file types come from the `ignore` crate rootbound builds with, newer than rg 13's.
const TYPES: &str =
    "file types are the ignore crate's of today: more types than rg 13 knows (--type-list)";
/// A `.git` file is not followed to another directory.
const WORKTREE: &str =
    "a git worktree's .git file is not followed to the main repository's info/exclude";
/// Whether the root is in a git repository is decided inside the root.
const PARENT_GIT: &str =
    "a .git above the root does not make .gitignore files apply (only a .git at or below the root does)";
/// `-E` takes UTF-8 (and `none`/`auto`) only.
const ENCODING: &str =
    "-E with an encoding other than UTF-8 is refused (UTF-16 with a BOM is still decoded)";
/// rootbound grep searches files through the sandbox only.
const STDIN: &str =
    "stdin is never searched: with no path, rootbound grep searches the current directory";

/// rg tests left out of the port, with the reason (README "Differences from ripgrep").
pub const NOT_PORTED: &[(&str, &str)] = &[
    ("feature::f196_persistent_config", CONFIG),
    (
        "feature::f362_u64_to_narrow_usize_overflow",
        "32-bit targets only",
    ),
    ("feature::f1155_auto_hybrid_regex", PCRE2),
    ("json::r1412_look_behind_match_missing", PCRE2),
    ("misc::preprocessing", PRE),
    ("misc::preprocessing_glob", PRE),
    ("misc::compressed_gzip", ZIP),
    ("misc::compressed_bzip2", ZIP),
    ("misc::compressed_xz", ZIP),
    ("misc::compressed_lz4", ZIP),
    ("misc::compressed_lzma", ZIP),
    ("misc::compressed_brotli", ZIP),
    ("misc::compressed_zstd", ZIP),
    ("misc::compressed_uncompress", ZIP),
    ("misc::compressed_failing_gzip", ZIP),
    ("regression::r1401_look_ahead_only_matching_1", PCRE2),
    ("regression::r1401_look_ahead_only_matching_2", PCRE2),
    ("regression::r1412_look_behind_no_replacement", PCRE2),
    ("regression::r1573", PCRE2),
];

/// Why config-file cases are not ported.
const CONFIG: &str =
    "RIPGREP_CONFIG_PATH: rootbound grep reads no rg config file (its config is --config)";
/// Why PCRE2 cases are not ported.
const PCRE2: &str = "PCRE2 only (-P, look-around): rootbound has rg's default engine only";
/// Why preprocessor cases are not ported.
const PRE: &str = "--pre runs a program per file: refused, a sandbox does not run commands";
/// Why decompression cases are not ported.
const ZIP: &str = "-z runs decompression programs: refused, a sandbox does not run commands";

/// The expectation of `file::name`.
pub fn of(key: &str) -> Expect {
    TABLE
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(Expect::Same, |(_, e)| *e)
}

/// Table entries that name no ported case (a typo or a renamed case).
pub fn unknown(keys: &[String]) -> Vec<&'static str> {
    TABLE
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !keys.iter().any(|x| x == k))
        .collect()
}
