//! rg 13's default colours, as termcolor writes them: a reset, then the spec (`\x1b[0m\x1b[35m`
//! for a path), the text, a reset.

/// The escape sequence that starts one kind of coloured text.
pub(super) type Spec = &'static str;

/// Paths: magenta.
pub(super) const PATH: Spec = "\x1b[0m\x1b[35m";
/// Line numbers: green.
pub(super) const LINE: Spec = "\x1b[0m\x1b[32m";
/// Columns: no colour of their own (termcolor still writes the reset).
pub(super) const COLUMN: Spec = "\x1b[0m";
/// Matches: bold red.
pub(super) const MATCH: Spec = "\x1b[0m\x1b[1m\x1b[31m";
/// The end of coloured text.
pub(super) const RESET: &str = "\x1b[0m";
