//! The operator's configuration file: named agents, the tools each one gets, and their settings.
//!
//! TOML (the Rust ecosystem's convention), or the same structure as JSON when the file name ends in
//! `.json`:
//!
//! ```toml
//! [agents.bot]
//! roots = ["${BUNDLE_ROOT}/corpus"]      # the agent's roots: used by tools that list none
//! deny = [".env", "*.pem", ".git/"]
//! symlinks = "inside"                    # or "never"
//! path_display = "absolute"              # or "relative"
//!
//! [agents.bot.tools.read_file]
//! max_bytes = 65536
//!
//! [agents.bot.tools.grep_search]
//! roots = ["${BUNDLE_ROOT}/corpus", "linux"]   # this tool sees only these
//! max_bytes = 32768
//! max_results = 100
//! timeout_secs = 10
//!
//! [agents.bot.tools.list_dir]
//! [agents.bot.tools.stat]
//!
//! [agents.bot.write]                     # optional: the write tools, as --write-root enables them
//! root = "out"
//! allow_overwrite = false
//! ```
//!
//! Rules:
//! - A tool is enabled when its section is present (an empty section enables it with defaults);
//!   the write tools come from the `write` section, as `--write-root` gives them (edit_file where
//!   the write root lies in a root of a tool that shows what files hold, delete_file with
//!   `allow_delete`). Roots given only to tools that list names (glob, list_dir, stat,
//!   directory_tree) anchor deny rules for writes but do not count as readable: a move cannot
//!   carry a file from there into a read_file root.
//! - Relative paths resolve against the directory of the config file, never the working directory.
//! - `${VAR}` in any string expands from the environment; an unset variable is an error naming it.
//! - Unknown keys are errors. Every problem is reported at once, each with its key path
//!   (`agents.bot.tools.grep_search.max_results: expected an integer, found a string`).
//!
//! **Per-tool roots.** An agent's roots are the union, in order of first appearance, of its own `roots`
//! and the `roots` of read_file, grep_search, glob, list_dir and stat (in that order). A tool whose section lists `roots` sees exactly those; a tool that lists none
//! sees the agent's roots (the union). Per-tool limits work the same way. This is implemented by giving
//! every tool a complete [`Policy`] of its own (the agent's settings, its roots, its limits) and building
//! one [`Sandbox`](crate::Sandbox) per distinct policy: tools whose policies are equal share one sandbox, and
//! [`AgentTools`] routes each call to the sandbox of its tool. So no tool ever sees a root or a limit
//! that only another tool was given.

mod agent;
mod build;
pub mod host;
mod model;
mod problems;
mod reader;
mod schema;
#[cfg(test)]
mod tests;

/// The router lives with the tool surface; it is reachable here, where front ends look for it.
pub use crate::tools::router::{AgentTools, ToolsWithin};
pub use model::Format;
pub use problems::{ConfigError, Problem};
pub use schema::{LimitField, LimitType, ToolKey, ToolUnit, LIMITS};

use crate::core::policy::Policy;
use reader::Cx;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The read tools, in the order they are listed (the read rows of [`crate::ToolName`]'s table).
pub const READ_TOOLS: &[&str] = &READ_NAMES;
/// The write tools (configured by the `write` section; the write rows of the same table).
pub const WRITE_TOOLS: &[&str] = &WRITE_NAMES;

const READ_NAMES: [&str; crate::ToolName::count_where(false)] = crate::ToolName::names_where(false);
const WRITE_NAMES: [&str; crate::ToolName::count_where(true)] = crate::ToolName::names_where(true);

/// One sandbox an agent needs, and the tools it serves.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxPlan {
    /// The tools routed to this sandbox, in listing order.
    pub tools: Vec<&'static str>,
    /// Its complete policy.
    pub policy: Policy,
    /// How many of `policy.roots`, from the first, are roots of tools that show what files hold
    /// (all, but for the write section's sandbox: there the others, given only to tools that list
    /// names, anchor deny rules and are not counted as readable).
    pub content_roots: usize,
}

/// One agent of a configuration file, validated: the sandboxes to build and which tool goes where.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// The agent's name (the key under `agents`); it appears in audit events.
    pub name: String,
    /// The sandboxes, in order of the first tool each serves.
    pub plan: Vec<SandboxPlan>,
    /// The dialect the agent's tools are presented in (`profile = "claude-code"`; default rootbound).
    pub profile: crate::Profile,
    /// The n-gram index for the agent's grep_search (`index = true | "auto"`, `index_verify`);
    /// [`AgentConfig::build`] starts it. `None`: no index (the library's default; `rootbound mcp`
    /// indexes as [`AgentConfig::unset_index`] says when the file does not set `index`).
    pub index: Option<crate::IndexOptions>,
    /// The index `rootbound mcp` starts when the file does not set `index` (see
    /// [`AgentConfig::unset_index`]).
    unset_index: crate::IndexOptions,
    /// The file sets `index` (to anything, `false` included).
    index_set: bool,
    /// Every root of the agent and its write root, which anchor the deny rules of each of its
    /// sandboxes (a tool's own roots included); lenient, since failures are reported by key.
    anchors: Policy,
    /// Every root path and write root with the key that configured it, to report failures by key.
    origins: Vec<(PathBuf, String)>,
    /// Every root path and write root of the file's other agents: they may be served by this
    /// process or another, so the agent's index cache directory must lie outside them.
    others: Vec<PathBuf>,
    file: Option<PathBuf>,
}

/// A validated configuration file.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it was read from.
    pub file: Option<PathBuf>,
    /// The agents, by name.
    pub agents: BTreeMap<String, AgentConfig>,
}

impl Config {
    /// Reads and validates a configuration file (TOML, or JSON for `.json`), expanding `${VAR}` from the
    /// process environment and resolving relative paths against the file's directory.
    pub fn load(path: impl AsRef<Path>) -> Result<Config, ConfigError> {
        let path = path.as_ref();
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        // Operator-trusted: the config file path comes from the command line, not from an agent.
        let text = std::fs::read_to_string(&abs)
            .map_err(|e| ConfigError::one(Some(path), "", format!("cannot be read: {e}")))?;
        let base = abs.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut c =
            Config::parse_with_env(&text, Format::of(path), &base, |k| std::env::var(k).ok())
                .map_err(|mut e| {
                    e.file = Some(path.to_path_buf());
                    e
                })?;
        c.file = Some(path.to_path_buf());
        for a in c.agents.values_mut() {
            a.file = Some(path.to_path_buf());
        }
        Ok(c)
    }

    /// Validates configuration text, with the process environment for `${VAR}`; relative paths resolve
    /// against `base_dir`.
    pub fn parse(text: &str, format: Format, base_dir: &Path) -> Result<Config, ConfigError> {
        Config::parse_with_env(text, format, base_dir, |k| std::env::var(k).ok())
    }

    /// Validates configuration text with a custom environment lookup for `${VAR}`.
    ///
    /// ```
    /// use rootbound::config::{Config, Format};
    /// let text = "[agents.bot.tools.read_file]\nroots = [\"${DATA}\"]\nmax_bytes = 100\n";
    /// let c = Config::parse_with_env(text, Format::Toml, "/cfg".as_ref(), |k| {
    ///     (k == "DATA").then(|| "/srv/data".to_string())
    /// })
    /// .unwrap();
    /// let bot = c.agent(Some("bot")).unwrap();
    /// assert_eq!(bot.plan[0].policy.roots[0].path, std::path::Path::new("/srv/data"));
    /// assert_eq!(bot.plan[0].policy.limits.max_read_bytes, 100);
    ///
    /// let err = Config::parse_with_env(text, Format::Toml, "/cfg".as_ref(), |_| None).unwrap_err();
    /// assert_eq!(err.problems[0].key, "agents.bot.tools.read_file.roots[0]");
    /// assert!(err.problems[0].message.contains("DATA"));
    /// ```
    pub fn parse_with_env(
        text: &str,
        format: Format,
        base_dir: &Path,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let root = model::parse(text, format)?;
        let mut cx = Cx {
            problems: Vec::new(),
            env: &env,
            base: base_dir.to_path_buf(),
        };
        let mut agents = cx.file(&root);
        others_of(&mut agents);
        cx.problems.sort_by(|a, b| a.key.cmp(&b.key));
        if cx.problems.is_empty() {
            Ok(Config { file: None, agents })
        } else {
            Err(ConfigError {
                file: None,
                problems: cx.problems,
            })
        }
    }

    /// The agent named `name`; with `None`, the only agent (an error when there are several).
    pub fn agent(&self, name: Option<&str>) -> Result<&AgentConfig, ConfigError> {
        let file = self.file.as_deref();
        let names = || {
            self.agents
                .keys()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match name {
            Some(n) => self.agents.get(n).ok_or_else(|| {
                ConfigError::one(
                    file,
                    "agents",
                    format!("no agent named '{n}' (the agents are: {})", names()),
                )
            }),
            None if self.agents.len() == 1 => Ok(self.agents.values().next().expect("one agent")),
            None => Err(ConfigError::one(
                file,
                "agents",
                format!(
                    "the file defines {} agents ({}); choose one with --agent NAME",
                    self.agents.len(),
                    names()
                ),
            )),
        }
    }
}

/// Gives each agent the roots and write roots of every other agent ([`AgentConfig::others`]).
fn others_of(agents: &mut BTreeMap<String, AgentConfig>) {
    let all: Vec<(String, PathBuf)> = agents
        .iter()
        .flat_map(|(n, a)| a.origins.iter().map(move |(p, _)| (n.clone(), p.clone())))
        .collect();
    for (name, a) in agents.iter_mut() {
        a.others = all
            .iter()
            .filter(|(n, _)| n != name)
            .map(|(_, p)| p.clone())
            .collect();
    }
}
