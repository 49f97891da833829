//! Options only the `rootbound grep` command line sets (rg's flags that have no place in the agent's
//! contract). [`GrepArgs`](crate::GrepArgs) carries them in a field that is never serialized and has
//! no schema, so the tools an agent sees do not change. (The flag-surface branch extends this
//! struct; the field names here are the same as there.)

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

/// rg flags of the command line, beyond the agent's grep arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RgOptions {
    /// `--binary`, `-a`/`--text` (read by the searcher).
    pub binary: BinaryMode,
}
