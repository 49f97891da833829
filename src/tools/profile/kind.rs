//! The dialects' names: the one type the router and the dialects both need, apart from the
//! dialects themselves (so the router does not depend on the dialect table).

/// A tool dialect. `Rootbound` (the default) is the native surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Profile {
    /// rootbound's own tools (`read_file` with byte pages, `grep_search`, ...).
    #[default]
    Rootbound,
    /// Claude Code's Read, Grep, Glob (and Write, Edit with a write root).
    ClaudeCode,
    /// Gemini CLI's read_file, read_many_files, grep_search, glob, list_directory (and write_file,
    /// replace).
    GeminiCli,
    /// The MCP reference filesystem server's tools and argument names.
    McpFilesystem,
    /// OpenAI Codex CLI's read_file, list_dir and grep_files.
    Codex,
}

impl Profile {
    /// Every profile.
    pub const ALL: &'static [Profile] = &[
        Profile::Rootbound,
        Profile::ClaudeCode,
        Profile::GeminiCli,
        Profile::McpFilesystem,
        Profile::Codex,
    ];

    /// The name used by `--profile` and the config file.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Rootbound => "rootbound",
            Profile::ClaudeCode => "claude-code",
            Profile::GeminiCli => "gemini-cli",
            Profile::McpFilesystem => "mcp-filesystem",
            Profile::Codex => "codex",
        }
    }

    /// The profile of a name (see [`Profile::as_str`]).
    pub fn parse(name: &str) -> Option<Profile> {
        Self::ALL.iter().copied().find(|p| p.as_str() == name)
    }

    /// The names, for messages.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|p| p.as_str()).collect()
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
