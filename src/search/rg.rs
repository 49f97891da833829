//! Options only the `rootbound grep` command line sets (rg's flags that have no place in the agent's
//! contract). [`GrepArgs`](crate::GrepArgs) carries them in a field that is never serialized and has
//! no schema, so the tools an agent sees do not change.

/// rg flags of the command line, beyond the agent's grep arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RgOptions {
    /// `-a` / `--text`: search binary files as text (no NUL detection at all).
    pub text: bool,
}
