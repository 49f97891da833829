//! ripgrep compatibility for `rootbound grep`: the settings the agent contract does not offer (rg's
//! glob order and `--iglob`, `--type-add`, the `--no-ignore-*` family, `--binary`/`--text`...) and
//! the hit stream its printers read. An agent's [`GrepArgs`] and [`GlobArgs`] never carry these
//! settings, and the tool schemas do not change. One tool call builds them itself: the Gemini CLI
//! dialect's `glob` gives its own pattern as one case-insensitive `--iglob` (`RgOptions::globs`),
//! to match names without regard to case as Gemini CLI does; no other field is set from a call.
//!
//! The searches take the settings as an argument of their own:
//! [`grep_search`] and [`glob`] for pages, [`Sandbox::grep_hits_each`] for the stream of every
//! file's hits (what rg prints), [`Sandbox::grep_replacer`] for `-r`.

use crate::core::error::Result;
use crate::search::contract::{GlobArgs, GrepArgs, GrepResult};
use crate::Sandbox;

pub use crate::search::grep::{
    FileHits, GrepReplacer, HitLine, HitLineKind, HitOptions, HitSummary,
};
pub use crate::search::rg::{BinaryMode, RgOptions};

/// [`Sandbox::grep_search`] with rg's settings: one page of the search `rootbound grep` runs.
pub fn grep_search(sb: &Sandbox, args: &GrepArgs, rg: &RgOptions) -> Result<GrepResult> {
    sb.fresh().grep_search_with_rg(args, Some(rg))
}

/// [`Sandbox::glob`] with rg's settings (`rootbound grep --files`): rg's globs, types, ignore kinds
/// and depth choose the files, in place of `args.pattern`.
pub fn glob(sb: &Sandbox, args: &GlobArgs, rg: &RgOptions) -> Result<GrepResult> {
    sb.fresh().glob_with_rg(args, Some(rg))
}
