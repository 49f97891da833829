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
//! [agents.bot.write]                     # optional: write_file (and delete_file when allowed)
//! root = "out"
//! allow_overwrite = false
//! ```
//!
//! Rules:
//! - A tool is enabled when its section is present (an empty section enables it with defaults);
//!   `write_file`/`delete_file` come from the `write` section.
//! - Relative paths resolve against the directory of the config file, never the working directory.
//! - `${VAR}` in any string expands from the environment; an unset variable is an error naming it.
//! - Unknown keys are errors. Every problem is reported at once, each with its key path
//!   (`agents.bot.tools.grep_search.max_results: expected an integer, found a string`).
//!
//! **Per-tool roots.** An agent's roots are the union, in order of first appearance, of its own `roots`
//! and the `roots` of read_file, grep_search, glob, list_dir and stat (in that order). A tool whose section lists `roots` sees exactly those; a tool that lists none
//! sees the agent's roots (the union). Per-tool limits work the same way. This is implemented by giving
//! every tool a complete [`Policy`] of its own (the agent's settings, its roots, its limits) and building
//! one [`Sandbox`] per distinct policy: tools whose policies are equal share one sandbox, and
//! [`AgentTools`] routes each call to the sandbox of its tool. So no tool ever sees a root or a limit
//! that only another tool was given.

use crate::core::error::{Error, ErrorCode};
use crate::core::policy::{
    Limits, PathDisplay, Policy, RootMode, RootSpec, SymlinkMode, WritePolicy,
};
use crate::core::sandbox::Sandbox;
use crate::tools::ToolInfo;
use crate::DenyRules;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The read tools, in the order they are listed (see [`crate::ToolName`]).
pub const READ_TOOLS: &[&str] = &[
    "read_file",
    "grep_search",
    "glob",
    "list_dir",
    "stat",
    "read_many_files",
    "directory_tree",
    "list_roots",
    "read_media_file",
];
/// The write tools (configured by the `write` section).
pub const WRITE_TOOLS: &[&str] = &[
    "write_file",
    "edit_file",
    "create_directory",
    "move_file",
    "delete_file",
];

/// One problem in a configuration file, with the key path it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: `agents.bot.tools.grep_search.max_results`, `agents.bot.roots[1]`; empty for the whole file.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.key, self.message)
        }
    }
}

/// Every problem found in a configuration file (never just the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, when the configuration came from one.
    pub file: Option<PathBuf>,
    /// The problems, in key order.
    pub problems: Vec<Problem>,
}

impl ConfigError {
    fn one(file: Option<&Path>, key: &str, message: impl Into<String>) -> Self {
        ConfigError {
            file: file.map(Path::to_path_buf),
            problems: vec![Problem {
                key: key.into(),
                message: message.into(),
            }],
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        match &self.file {
            Some(p) => write!(f, "config file '{}'", p.display())?,
            None => f.write_str("configuration")?,
        }
        if n == 1 {
            write!(f, ": {}", self.problems[0])
        } else {
            write!(f, " has {n} problems:")?;
            for p in &self.problems {
                write!(f, "\n  {p}")?;
            }
            Ok(())
        }
    }
}

impl std::error::Error for ConfigError {}

/// The format of a configuration text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// TOML.
    Toml,
    /// JSON, same structure.
    Json,
}

impl Format {
    /// JSON for a `.json` file name, TOML otherwise.
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
            _ => Format::Toml,
        }
    }
}

/// One sandbox an agent needs, and the tools it serves.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxPlan {
    /// The tools routed to this sandbox, in listing order.
    pub tools: Vec<&'static str>,
    /// Its complete policy.
    pub policy: Policy,
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
    /// Every root path and write root with the key that configured it, to report failures by key.
    origins: Vec<(PathBuf, String)>,
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
        let root = match format {
            Format::Toml => match toml::from_str::<toml::Table>(text) {
                Ok(t) => Node::from_toml(toml::Value::Table(t)),
                Err(e) => {
                    return Err(ConfigError::one(
                        None,
                        "",
                        format!("not valid TOML: {}", e.to_string().trim_end()),
                    ))
                }
            },
            Format::Json => match serde_json::from_str::<Value>(text) {
                Ok(v) => Node::from_json(v),
                Err(e) => return Err(ConfigError::one(None, "", format!("not valid JSON: {e}"))),
            },
        };
        let mut cx = Cx {
            problems: Vec::new(),
            env: &env,
            base: base_dir.to_path_buf(),
        };
        let agents = cx.file(&root);
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

impl AgentConfig {
    /// Opens every root of this agent and returns its tools. A root that cannot be opened is reported
    /// with the key that configured it (all of them at once), unless the agent's `root_mode` is
    /// `lenient`.
    pub fn build(&self) -> Result<AgentTools, ConfigError> {
        let mut problems = Vec::new();
        let lenient = self
            .plan
            .iter()
            .any(|p| p.policy.root_mode == RootMode::Lenient);
        for (path, key) in &self.origins {
            let is_write = key.ends_with(".write.root");
            if lenient && !is_write {
                continue;
            }
            // Operator-trusted paths from the config file.
            match std::fs::metadata(path) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => problems.push(Problem {
                    key: key.clone(),
                    message: format!("'{}' is not a directory", path.display()),
                }),
                Err(e) => problems.push(Problem {
                    key: key.clone(),
                    message: format!("'{}' cannot be opened: {e}", path.display()),
                }),
            }
        }
        let mut sandboxes = Vec::new();
        if problems.is_empty() {
            for p in &self.plan {
                match Sandbox::new(p.policy.clone()) {
                    Ok(sb) => sandboxes.push(sb.with_agent(self.name.clone())),
                    Err(e) => problems.push(Problem {
                        key: format!("agents.{}", key_part(&self.name)),
                        message: e.message,
                    }),
                }
            }
        }
        if !problems.is_empty() {
            problems.dedup();
            return Err(ConfigError {
                file: self.file.clone(),
                problems,
            });
        }
        // One search pool per agent (per thread count), not one per sandbox.
        for i in 1..sandboxes.len() {
            let threads = sandboxes[i].policy.limits.threads;
            if let Some(j) = (0..i).find(|&j| sandboxes[j].policy.limits.threads == threads) {
                let (done, rest) = sandboxes.split_at_mut(i);
                rest[0].share_pool_with(&done[j]);
            }
        }
        let mut routes = Vec::new();
        for (i, p) in self.plan.iter().enumerate() {
            for t in &p.tools {
                routes.push((*t, i));
            }
        }
        routes.sort_by_key(|(t, _)| tool_rank(t));
        Ok(AgentTools {
            agent: self.name.clone(),
            sandboxes,
            routes,
            profile: self.profile,
        })
    }

    /// The names of the tools this agent enables, in listing order.
    pub fn tool_names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.plan.iter().flat_map(|p| p.tools.clone()).collect();
        v.sort_by_key(|t| tool_rank(t));
        v
    }
}

fn tool_rank(t: &str) -> usize {
    READ_TOOLS
        .iter()
        .chain(WRITE_TOOLS.iter())
        .position(|x| *x == t)
        .unwrap_or(usize::MAX)
}

/// An agent's tools: one or more sandboxes, and which tool is served by which.
///
/// It mirrors [`Sandbox`]'s tool surface ([`AgentTools::tools`], [`AgentTools::tool_definitions`],
/// [`AgentTools::call`]), so front ends treat a config-file agent and a plain sandbox the same way.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "hi").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let tools = rootbound::config::AgentTools::from_sandbox(sb);
/// assert_eq!(tools.tool_definitions().len(), 9);
/// assert_eq!(tools.call("read_file", serde_json::json!({"path": "a.txt"}))["content"], "hi");
/// ```
#[derive(Debug)]
pub struct AgentTools {
    pub(crate) agent: String,
    pub(crate) sandboxes: Vec<Sandbox>,
    /// (tool, index into `sandboxes`), in listing order.
    pub(crate) routes: Vec<(&'static str, usize)>,
    /// The dialect (see `tools/profile`).
    pub(crate) profile: crate::Profile,
}

impl AgentTools {
    /// Every tool the sandbox enables, all served by it.
    pub fn from_sandbox(sandbox: Sandbox) -> Self {
        let routes = sandbox.tools().iter().map(|t| (t.name, 0)).collect();
        AgentTools {
            agent: sandbox.agent.clone(),
            sandboxes: vec![sandbox],
            routes,
            profile: crate::Profile::default(),
        }
    }

    /// The agent's name (empty when built from a bare sandbox).
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The sandbox that serves `tool`, when the tool is enabled.
    pub fn sandbox_for(&self, tool: &str) -> Option<&Sandbox> {
        self.routes
            .iter()
            .find(|(t, _)| *t == tool)
            .map(|(_, i)| &self.sandboxes[*i])
    }

    /// All sandboxes (one per distinct policy).
    pub fn sandboxes(&self) -> &[Sandbox] {
        &self.sandboxes
    }

    /// The enabled tools with their schemas and descriptions (each from the sandbox that serves it, so
    /// a description names that tool's own roots and limits).
    pub fn tools(&self) -> Vec<ToolInfo> {
        let mut out = Vec::new();
        for (name, i) in &self.routes {
            if let Some(t) = self.sandboxes[*i]
                .tools()
                .into_iter()
                .find(|t| t.name == *name)
            {
                out.push(t);
            }
        }
        out
    }

    /// Tool definitions in the OpenAI function-calling shape (see [`Sandbox::tool_definitions`]).
    pub fn tool_definitions(&self) -> Vec<Value> {
        self.tools()
            .into_iter()
            .map(|t| {
                serde_json::json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.input_schema}})
            })
            .collect()
    }

    /// Dispatches a call to the sandbox of its tool; always JSON (the result or `{"error": ...}`).
    pub fn call(&self, name: &str, args: Value) -> Value {
        match self.call_result(name, args) {
            Ok(v) => v,
            Err(e) => e.to_json(),
        }
    }

    /// [`AgentTools::call`] within `budget` (a tighter deadline, a cancel switch; see [`crate::Budget`]).
    pub fn call_with(&self, name: &str, args: Value, budget: &crate::Budget) -> Value {
        budget.run(|| self.call(name, args))
    }

    /// [`AgentTools::call_result`] within `budget`.
    pub fn call_result_with(
        &self,
        name: &str,
        args: Value,
        budget: &crate::Budget,
    ) -> Result<Value, Error> {
        budget.run(|| self.call_result(name, args))
    }

    /// Like [`AgentTools::call`], keeping the error typed.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value, Error> {
        if let Some(sb) = self.sandbox_for(name) {
            return sb.call_result(name, args);
        }
        if let [only] = self.sandboxes.as_slice() {
            if !only.tools().iter().any(|t| t.name == name) {
                // The sandbox's own refusal (it knows why: no roots, no write root, unknown tool).
                return only.call_result(name, args);
            }
        }
        // A known tool the agent was not given is a policy refusal; an unknown name is a bad argument.
        if READ_TOOLS.contains(&name) || WRITE_TOOLS.contains(&name) {
            Err(Error::new(
                ErrorCode::Denied,
                format!("tool '{name}' is not enabled for this agent"),
            ))
        } else {
            Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("unknown tool '{name}'"),
            ))
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// The parsed tree, independent of TOML or JSON, so type errors name the same types for both.

#[derive(Debug, Clone)]
enum Node {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Datetime,
    Null,
    Arr(Vec<Node>),
    Table(BTreeMap<String, Node>),
}

impl Node {
    fn from_toml(v: toml::Value) -> Node {
        match v {
            toml::Value::String(s) => Node::Str(s),
            toml::Value::Integer(i) => Node::Int(i),
            toml::Value::Float(f) => Node::Float(f),
            toml::Value::Boolean(b) => Node::Bool(b),
            toml::Value::Datetime(_) => Node::Datetime,
            toml::Value::Array(a) => Node::Arr(a.into_iter().map(Node::from_toml).collect()),
            toml::Value::Table(t) => Node::Table(
                t.into_iter()
                    .map(|(k, v)| (k, Node::from_toml(v)))
                    .collect(),
            ),
        }
    }

    fn from_json(v: Value) -> Node {
        match v {
            Value::String(s) => Node::Str(s),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Node::Int(i),
                None if n.is_u64() => Node::Int(i64::MAX),
                None => Node::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::Bool(b) => Node::Bool(b),
            Value::Null => Node::Null,
            Value::Array(a) => Node::Arr(a.into_iter().map(Node::from_json).collect()),
            Value::Object(o) => Node::Table(
                o.into_iter()
                    .map(|(k, v)| (k, Node::from_json(v)))
                    .collect(),
            ),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Node::Str(_) => "a string",
            Node::Int(_) => "an integer",
            Node::Float(_) => "a float",
            Node::Bool(_) => "a boolean",
            Node::Datetime => "a datetime",
            Node::Null => "null",
            Node::Arr(_) => "an array",
            Node::Table(_) => "a table",
        }
    }
}

/// A key path segment, quoted like a TOML key when it is not a bare key.
fn key_part(k: &str) -> String {
    if !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

fn join(parent: &str, k: &str) -> String {
    if parent.is_empty() {
        key_part(k)
    } else {
        format!("{parent}.{}", key_part(k))
    }
}

const AGENT_KEYS: &[&str] = &[
    "roots",
    "deny",
    "symlinks",
    "path_display",
    "hidden",
    "no_ignore",
    "root_mode",
    "refuse_hardlinks",
    "limits",
    "tools",
    "write",
    "profile",
];
const WRITE_KEYS: &[&str] = &[
    "root",
    "max_write_bytes",
    "allow_overwrite",
    "allow_delete",
    "create_parents",
];
const LIMIT_KEYS: &[&str] = &[
    "max_read_bytes",
    "max_line_chars",
    "max_path_len",
    "max_component_len",
    "max_bytes",
    "max_results",
    "max_list_entries",
    "timeout_ms",
    "regex_size_limit",
    "dfa_size_limit",
    "max_pattern_len",
    "max_filesize",
    "max_columns",
    "threads",
];

/// The settings each tool section accepts (besides `roots`), and the `Limits` field each one sets.
fn tool_settings(tool: &str) -> &'static [(&'static str, Setting)] {
    use Setting::*;
    match tool {
        "read_file" => &[
            ("max_bytes", MaxReadBytes),
            ("max_line_chars", MaxLineChars),
            ("timeout_secs", TimeoutSecs),
        ],
        "grep_search" => &[
            ("max_bytes", MaxBytes),
            ("max_results", MaxResults),
            ("timeout_secs", TimeoutSecs),
            ("max_filesize", MaxFilesize),
            ("max_columns", MaxColumns),
            ("threads", Threads),
        ],
        "glob" => &[
            ("max_bytes", MaxBytes),
            ("max_results", MaxResults),
            ("timeout_secs", TimeoutSecs),
            ("threads", Threads),
        ],
        "list_dir" => &[
            ("max_entries", MaxListEntries),
            ("timeout_secs", TimeoutSecs),
        ],
        "stat" => &[("timeout_secs", TimeoutSecs)],
        _ => &[],
    }
}

#[derive(Debug, Clone, Copy)]
enum Setting {
    MaxReadBytes,
    MaxLineChars,
    MaxBytes,
    MaxResults,
    MaxListEntries,
    TimeoutSecs,
    MaxFilesize,
    MaxColumns,
    Threads,
}

struct Cx<'a> {
    problems: Vec<Problem>,
    env: &'a dyn Fn(&str) -> Option<String>,
    base: PathBuf,
}

impl Cx<'_> {
    fn err(&mut self, key: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            key: key.to_string(),
            message: message.into(),
        });
    }

    fn expected(&mut self, key: &str, what: &str, node: &Node) {
        self.err(key, format!("expected {what}, found {}", node.kind()));
    }

    /// A table whose keys are all in `allowed` (unknown keys are reported).
    fn table<'n>(
        &mut self,
        key: &str,
        node: &'n Node,
        allowed: &[&str],
    ) -> Option<&'n BTreeMap<String, Node>> {
        let Node::Table(t) = node else {
            self.expected(key, "a table", node);
            return None;
        };
        for k in t.keys() {
            if !allowed.contains(&k.as_str()) {
                self.err(
                    &join(key, k),
                    format!("unknown key (expected one of: {})", allowed.join(", ")),
                );
            }
        }
        Some(t)
    }

    fn string(&mut self, key: &str, node: &Node) -> Option<String> {
        match node {
            Node::Str(s) => self.expand(key, s),
            _ => {
                self.expected(key, "a string", node);
                None
            }
        }
    }

    /// Expands `${VAR}` from the environment.
    fn expand(&mut self, key: &str, s: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = s;
        let mut ok = true;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let Some(end) = after.find('}') else {
                self.err(key, format!("unterminated '${{' in {s:?}"));
                return None;
            };
            let name = &after[..end];
            let valid = !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit();
            if !valid {
                self.err(key, format!("'${{{name}}}' is not a valid variable name"));
                ok = false;
            } else {
                match (self.env)(name) {
                    Some(v) => out.push_str(&v),
                    None => {
                        self.err(key, format!("environment variable {name} is not set"));
                        ok = false;
                    }
                }
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        ok.then_some(out)
    }

    fn path(&mut self, key: &str, node: &Node) -> Option<PathBuf> {
        let s = self.string(key, node)?;
        if s.is_empty() {
            self.err(key, "empty path");
            return None;
        }
        let p = PathBuf::from(&s);
        Some(if p.is_absolute() {
            p
        } else {
            self.base.join(p)
        })
    }

    fn uint(&mut self, key: &str, node: &Node) -> Option<u64> {
        match node {
            Node::Int(i) if *i >= 0 => Some(*i as u64),
            Node::Int(_) => {
                self.err(key, "expected a non-negative integer, found a negative one");
                None
            }
            _ => {
                self.expected(key, "an integer", node);
                None
            }
        }
    }

    fn usize(&mut self, key: &str, node: &Node) -> Option<usize> {
        let n = self.uint(key, node)?;
        match usize::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => {
                self.err(key, "too large");
                None
            }
        }
    }

    fn boolean(&mut self, key: &str, node: &Node) -> Option<bool> {
        match node {
            Node::Bool(b) => Some(*b),
            _ => {
                self.expected(key, "a boolean", node);
                None
            }
        }
    }

    /// Seconds (integer or float) as milliseconds.
    fn secs(&mut self, key: &str, node: &Node) -> Option<u64> {
        let s = match node {
            Node::Int(i) => *i as f64,
            Node::Float(f) => *f,
            _ => {
                self.expected(key, "a number of seconds", node);
                return None;
            }
        };
        if !(s > 0.0 && s <= 1e9) {
            self.err(key, "expected a positive number of seconds");
            return None;
        }
        Some(((s * 1000.0).round() as u64).max(1))
    }

    fn choice(&mut self, key: &str, node: &Node, choices: &[&str]) -> Option<String> {
        let s = self.string(key, node)?;
        if choices.contains(&s.as_str()) {
            Some(s)
        } else {
            self.err(
                key,
                format!("expected one of {}, found {s:?}", quoted(choices)),
            );
            None
        }
    }

    fn strings(&mut self, key: &str, node: &Node) -> Option<Vec<String>> {
        let Node::Arr(a) = node else {
            self.expected(key, "an array of strings", node);
            return None;
        };
        let mut out = Vec::new();
        let mut ok = true;
        for (i, n) in a.iter().enumerate() {
            match self.string(&format!("{key}[{i}]"), n) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `roots = ["dir", {name = "n", path = "dir"}]`, each remembered with its key.
    fn roots(&mut self, key: &str, node: &Node) -> Option<Vec<(RootSpec, String)>> {
        let Node::Arr(a) = node else {
            self.expected(key, "an array of directories", node);
            return None;
        };
        if a.is_empty() {
            self.err(
                key,
                "empty list (omit the key to use the agent's roots, or leave the tool out)",
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, n) in a.iter().enumerate() {
            let k = format!("{key}[{i}]");
            let spec = match n {
                Node::Table(_) => {
                    let t = self.table(&k, n, &["name", "path"]);
                    let name = t
                        .and_then(|t| t.get("name"))
                        .and_then(|v| self.string(&join(&k, "name"), v));
                    match t.and_then(|t| t.get("path")) {
                        Some(p) => self.path(&join(&k, "path"), p).map(|path| RootSpec {
                            name: name.unwrap_or_default(),
                            path,
                        }),
                        None => {
                            self.err(&k, "missing key 'path'");
                            None
                        }
                    }
                }
                _ if matches!(n, Node::Str(_)) => self.path(&k, n).map(|path| RootSpec {
                    name: String::new(),
                    path,
                }),
                _ => {
                    self.expected(&k, "a directory path or a {name, path} table", n);
                    None
                }
            };
            match spec {
                Some(s) => out.push((s, k)),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn file(&mut self, root: &Node) -> BTreeMap<String, AgentConfig> {
        let mut agents = BTreeMap::new();
        let Some(top) = self.table("", root, &["agents"]) else {
            return agents;
        };
        let Some(list) = top.get("agents") else {
            self.err(
                "agents",
                "missing: define at least one agent ([agents.NAME])",
            );
            return agents;
        };
        let Some(list) = self.table_any("agents", list) else {
            return agents;
        };
        if list.is_empty() {
            self.err("agents", "no agents defined");
        }
        for (name, node) in list {
            let key = join("agents", name);
            if name.is_empty() {
                self.err(&key, "an agent name cannot be empty");
                continue;
            }
            if let Some(a) = self.agent(name, &key, node) {
                agents.insert(name.clone(), a);
            }
        }
        agents
    }

    /// A table with arbitrary keys.
    fn table_any<'n>(&mut self, key: &str, node: &'n Node) -> Option<&'n BTreeMap<String, Node>> {
        match node {
            Node::Table(t) => Some(t),
            _ => {
                self.expected(key, "a table", node);
                None
            }
        }
    }

    fn agent(&mut self, name: &str, key: &str, node: &Node) -> Option<AgentConfig> {
        let before = self.problems.len();
        let t = self.table(key, node, AGENT_KEYS)?;
        let mut base = Policy::default();
        let mut origins: Vec<(PathBuf, String)> = Vec::new();
        let mut union: Vec<RootSpec> = Vec::new();
        let mut add_roots = |roots: &[(RootSpec, String)], origins: &mut Vec<(PathBuf, String)>| {
            for (r, k) in roots {
                if !union.iter().any(|u| u.path == r.path) {
                    union.push(r.clone());
                }
                if !origins.iter().any(|(p, _)| *p == r.path) {
                    origins.push((r.path.clone(), k.clone()));
                }
            }
        };
        // A `roots` key that failed to validate is reported once; no "no roots" follow-up for it.
        let mut roots_failed = false;
        if let Some(n) = t.get("roots") {
            match self.roots(&join(key, "roots"), n) {
                Some(r) => add_roots(&r, &mut origins),
                None => roots_failed = true,
            }
        }
        if let Some(n) = t.get("deny") {
            let k = join(key, "deny");
            if let Some(globs) = self.strings(&k, n) {
                for (i, g) in globs.iter().enumerate() {
                    if let Err(e) = DenyRules::new(std::slice::from_ref(g)) {
                        self.err(&format!("{k}[{i}]"), e.message);
                    }
                }
                base.deny = globs;
            }
        }
        if let Some(n) = t.get("symlinks") {
            match self
                .choice(&join(key, "symlinks"), n, &["inside", "never"])
                .as_deref()
            {
                Some("never") => base.symlinks = SymlinkMode::Never,
                Some(_) => base.symlinks = SymlinkMode::Inside,
                None => {}
            }
        }
        if let Some(n) = t.get("path_display") {
            match self
                .choice(&join(key, "path_display"), n, &["absolute", "relative"])
                .as_deref()
            {
                Some("relative") => base.path_display = PathDisplay::Relative,
                Some(_) => base.path_display = PathDisplay::Absolute,
                None => {}
            }
        }
        if let Some(n) = t.get("root_mode") {
            match self
                .choice(&join(key, "root_mode"), n, &["strict", "lenient"])
                .as_deref()
            {
                Some("lenient") => base.root_mode = RootMode::Lenient,
                Some(_) => base.root_mode = RootMode::Strict,
                None => {}
            }
        }
        for (field, slot) in [
            ("hidden", &mut base.hidden),
            ("no_ignore", &mut base.no_ignore),
            ("refuse_hardlinks", &mut base.refuse_hardlinks),
        ] {
            if let Some(n) = t.get(field) {
                if let Some(b) = self.boolean(&join(key, field), n) {
                    *slot = b;
                }
            }
        }
        if let Some(n) = t.get("limits") {
            let k = join(key, "limits");
            if let Some(lt) = self.table(&k, n, LIMIT_KEYS) {
                self.limits(&k, lt, &mut base.limits);
            }
        }

        // Tools: each enabled one gets its own roots (or none yet: the union, filled in below) and limits.
        let mut tools: Vec<(&'static str, Option<Vec<RootSpec>>, Limits, String)> = Vec::new();
        if let Some(n) = t.get("tools") {
            let tk = join(key, "tools");
            if let Some(tt) = self.table_any(&tk, n) {
                for tool in tt.keys() {
                    if READ_TOOLS.contains(&tool.as_str()) {
                        continue;
                    }
                    let hint = if WRITE_TOOLS.contains(&tool.as_str()) {
                        format!(
                            "; write tools are configured by a [{}] section",
                            join(key, "write")
                        )
                    } else {
                        String::new()
                    };
                    self.err(
                        &join(&tk, tool),
                        format!(
                            "unknown tool (expected one of: {}){hint}",
                            READ_TOOLS.join(", ")
                        ),
                    );
                }
                // In listing order, so the union of roots has a documented order.
                for tool in READ_TOOLS {
                    let Some(tn) = tt.get(*tool) else { continue };
                    let k = join(&tk, tool);
                    let settings = tool_settings(tool);
                    let mut allowed = vec!["roots"];
                    allowed.extend(settings.iter().map(|(s, _)| *s));
                    let Some(st) = self.table(&k, tn, &allowed) else {
                        continue;
                    };
                    let mut roots = None;
                    if let Some(rn) = st.get("roots") {
                        match self.roots(&join(&k, "roots"), rn) {
                            Some(r) => {
                                add_roots(&r, &mut origins);
                                roots = Some(r.into_iter().map(|(s, _)| s).collect());
                            }
                            None => roots_failed = true,
                        }
                    }
                    let mut limits = base.limits.clone();
                    for (s, what) in settings {
                        if let Some(v) = st.get(*s) {
                            self.setting(&join(&k, s), v, *what, &mut limits);
                        }
                    }
                    tools.push((tool, roots, limits, k));
                }
            }
        }

        let mut write = None;
        if let Some(n) = t.get("write") {
            let k = join(key, "write");
            if let Some(wt) = self.table(&k, n, WRITE_KEYS) {
                let root = match wt.get("root") {
                    Some(r) => self.path(&join(&k, "root"), r),
                    None => {
                        self.err(&k, "missing key 'root' (the write directory)");
                        None
                    }
                };
                if let Some(root) = root {
                    let mut w = WritePolicy::new(root.clone());
                    if let Some(v) = wt.get("max_write_bytes") {
                        if let Some(n) = self.uint(&join(&k, "max_write_bytes"), v) {
                            w.max_write_bytes = n;
                        }
                    }
                    for (field, slot) in [
                        ("allow_overwrite", &mut w.allow_overwrite),
                        ("allow_delete", &mut w.allow_delete),
                        ("create_parents", &mut w.create_parents),
                    ] {
                        if let Some(v) = wt.get(field) {
                            if let Some(b) = self.boolean(&join(&k, field), v) {
                                *slot = b;
                            }
                        }
                    }
                    origins.push((root, join(&k, "root")));
                    write = Some(w);
                }
            }
        }

        if tools.is_empty() && write.is_none() && self.problems.len() == before {
            self.err(
                key,
                format!(
                    "enables no tools: add a [{}.tools.read_file] section (or grep_search, glob, list_dir, stat), \
                     or a [{key}.write] section",
                    key
                ),
            );
        }
        for (_, roots, _, k) in &tools {
            if roots.is_none() && union.is_empty() && !roots_failed {
                self.err(
                    k,
                    format!("no roots: set 'roots' here or at {}", join(key, "roots")),
                );
            }
        }
        if self.problems.len() > before {
            return None;
        }

        // One sandbox per distinct policy.
        let mut plan: Vec<SandboxPlan> = Vec::new();
        for (tool, roots, limits, _) in tools {
            let policy = Policy {
                roots: roots.unwrap_or_else(|| union.clone()),
                limits,
                write: None,
                ..base.clone()
            };
            match plan.iter_mut().find(|p| p.policy == policy) {
                Some(p) => p.tools.push(tool),
                None => plan.push(SandboxPlan {
                    tools: vec![tool],
                    policy,
                }),
            }
        }
        if let Some(w) = write {
            let mut tools = vec!["write_file"];
            if w.allow_delete {
                tools.push("delete_file");
            }
            plan.push(SandboxPlan {
                tools,
                policy: Policy {
                    roots: Vec::new(),
                    write: Some(w),
                    ..base.clone()
                },
            });
        }
        Some(AgentConfig {
            name: name.to_string(),
            plan,
            profile: self.profile(&join(key, "profile"), t.get("profile")),
            origins,
            file: None,
        })
    }

    /// `profile = "NAME"`: one of the dialects (see [`crate::Profile`]).
    fn profile(&mut self, key: &str, node: Option<&Node>) -> crate::Profile {
        let names = crate::Profile::names();
        node.and_then(|n| self.choice(key, n, &names))
            .and_then(|p| crate::Profile::parse(&p))
            .unwrap_or_default()
    }

    fn limits(&mut self, key: &str, t: &BTreeMap<String, Node>, l: &mut Limits) {
        for (k, v) in t {
            let kk = join(key, k);
            match k.as_str() {
                "max_read_bytes" => set(&mut l.max_read_bytes, self.uint(&kk, v)),
                "max_filesize" => set(&mut l.max_filesize, self.uint(&kk, v)),
                "timeout_ms" => set(&mut l.timeout_ms, self.uint(&kk, v)),
                "max_line_chars" => set(&mut l.max_line_chars, self.usize(&kk, v)),
                "max_path_len" => set(&mut l.max_path_len, self.usize(&kk, v)),
                "max_component_len" => set(&mut l.max_component_len, self.usize(&kk, v)),
                "max_bytes" => set(&mut l.max_bytes, self.usize(&kk, v)),
                "max_results" => set(&mut l.max_results, self.usize(&kk, v)),
                "max_list_entries" => set(&mut l.max_list_entries, self.usize(&kk, v)),
                "regex_size_limit" => set(&mut l.regex_size_limit, self.usize(&kk, v)),
                "dfa_size_limit" => set(&mut l.dfa_size_limit, self.usize(&kk, v)),
                "max_pattern_len" => set(&mut l.max_pattern_len, self.usize(&kk, v)),
                "max_columns" => set(&mut l.max_columns, self.usize(&kk, v)),
                "threads" => set(&mut l.threads, self.usize(&kk, v)),
                _ => {} // reported as unknown by `table`
            }
        }
    }

    fn setting(&mut self, key: &str, v: &Node, what: Setting, l: &mut Limits) {
        match what {
            Setting::MaxReadBytes => set(&mut l.max_read_bytes, self.uint(key, v)),
            Setting::MaxLineChars => set(&mut l.max_line_chars, self.usize(key, v)),
            Setting::MaxBytes => set(&mut l.max_bytes, self.usize(key, v)),
            Setting::MaxResults => set(&mut l.max_results, self.usize(key, v)),
            Setting::MaxListEntries => set(&mut l.max_list_entries, self.usize(key, v)),
            Setting::TimeoutSecs => set(&mut l.timeout_ms, self.secs(key, v)),
            Setting::MaxFilesize => set(&mut l.max_filesize, self.uint(key, v)),
            Setting::MaxColumns => set(&mut l.max_columns, self.usize(key, v)),
            Setting::Threads => set(&mut l.threads, self.usize(key, v)),
        }
    }
}

fn set<T>(slot: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *slot = v;
    }
}

fn quoted(choices: &[&str]) -> String {
    choices
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse_with_env(text, Format::Toml, Path::new("/cfg"), |k| {
            (k == "HOME_X").then(|| "/home/x".to_string())
        })
    }

    #[test]
    fn nsed_example_shares_one_sandbox_when_settings_agree() {
        let c = parse(
            r#"
            [agents.GlmAggregatorBot.tools.read_file]
            roots = ["${HOME_X}/corpus", "linux"]
            [agents.GlmAggregatorBot.tools.grep_search]
            roots = ["${HOME_X}/corpus", "linux"]
            max_results = 100
            "#,
        )
        .unwrap();
        let a = c.agent(None).unwrap();
        assert_eq!(a.plan.len(), 1);
        assert_eq!(a.plan[0].tools, vec!["read_file", "grep_search"]);
        let roots: Vec<_> = a.plan[0]
            .policy
            .roots
            .iter()
            .map(|r| r.path.clone())
            .collect();
        assert_eq!(
            roots,
            vec![PathBuf::from("/home/x/corpus"), PathBuf::from("/cfg/linux")]
        );
    }

    #[test]
    fn differing_limits_split_sandboxes() {
        let c = parse(
            r#"
            [agents.a]
            roots = ["/r"]
            [agents.a.tools.grep_search]
            max_results = 5
            [agents.a.tools.glob]
            [agents.a.tools.stat]
            "#,
        )
        .unwrap();
        let a = c.agent(Some("a")).unwrap();
        assert_eq!(a.plan.len(), 2);
        assert_eq!(a.plan[0].tools, vec!["grep_search"]);
        assert_eq!(a.plan[1].tools, vec!["glob", "stat"]);
        assert_eq!(a.plan[0].policy.limits.max_results, 5);
        assert_eq!(a.plan[1].policy.limits.max_results, 100);
    }

    #[test]
    fn type_errors_and_unknown_keys_all_reported() {
        let e = parse(
            r#"
            [agents.bot]
            roots = ["/r"]
            symlinks = "sometimes"
            bogus = 1
            [agents.bot.tools.grep_search]
            max_results = "many"
            timeout_secs = -1
            [agents.bot.tools.grpe]
            "#,
        )
        .unwrap_err();
        let keys: Vec<_> = e.problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            vec![
                "agents.bot.bogus",
                "agents.bot.symlinks",
                "agents.bot.tools.grep_search.max_results",
                "agents.bot.tools.grep_search.timeout_secs",
                "agents.bot.tools.grpe",
            ],
            "{e}"
        );
        assert_eq!(e.problems[2].message, "expected an integer, found a string");
    }

    #[test]
    fn key_parts_are_quoted_when_needed() {
        assert_eq!(join("agents", "my.bot"), "agents.\"my.bot\"");
        assert_eq!(join("agents", "bot-1"), "agents.bot-1");
    }

    #[test]
    fn expansion_handles_several_and_bad_names() {
        let mut cx = Cx {
            problems: vec![],
            env: &|k: &str| Some(format!("<{k}>")),
            base: PathBuf::new(),
        };
        assert_eq!(
            cx.expand("k", "a${X}b${Y_2}").as_deref(),
            Some("a<X>b<Y_2>")
        );
        assert_eq!(
            cx.expand("k", "$HOME and $").as_deref(),
            Some("$HOME and $")
        );
        assert!(cx.expand("k", "${1X}").is_none());
        assert!(cx.expand("k", "${X").is_none());
        assert_eq!(cx.problems.len(), 2);
    }
}
