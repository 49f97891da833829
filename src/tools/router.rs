//! The agent router: an agent's tools served by one or more sandboxes, each call sent to the
//! sandbox of its tool.
//!
//! It lives with the tool surface, not with the configuration: it dispatches calls and lists tools
//! exactly as [`Sandbox`] does (and refuses through the same code), while the configuration only
//! decides which sandboxes to build (`config::AgentConfig::build`). A plain sandbox is one too
//! ([`AgentTools::from_sandbox`]), so front ends never need to know whether a config file was used.

use crate::core::deadline::Budget;
use crate::core::error::{Error, ErrorCode};
use crate::engine::Engine as Sandbox;
use crate::tools::{definitions, unknown_tool, ToolInfo, ToolName};
use serde_json::Value;

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
    pub(crate) profile: crate::tools::profile::kind::Profile,
    /// The roots and write roots of the other agents of the agent's config file: its index's
    /// cache directory must lie outside them too ([`field@crate::IndexOptions::outside`]).
    pub(crate) others: Vec<std::path::PathBuf>,
}

/// A tool's place in the listing order ([`ToolName::ALL`]); unknown names last.
pub(crate) fn tool_rank(t: &str) -> usize {
    ToolName::ALL
        .iter()
        .position(|x| x.as_str() == t)
        .unwrap_or(usize::MAX)
}

impl AgentTools {
    /// The router of `agent` over `sandboxes`, each `(tool, index)` route sending a tool to one of
    /// them; routes are kept in listing order.
    pub(crate) fn new(
        agent: String,
        sandboxes: Vec<Sandbox>,
        mut routes: Vec<(&'static str, usize)>,
    ) -> Self {
        routes.sort_by_key(|(t, _)| tool_rank(t));
        AgentTools {
            agent,
            sandboxes,
            routes,
            profile: crate::tools::profile::kind::Profile::default(),
            others: Vec::new(),
        }
    }

    /// Every tool the sandbox enables, all served by it.
    pub fn from_sandbox(sandbox: Sandbox) -> Self {
        let routes = ToolName::ALL
            .iter()
            .filter(|t| sandbox.enables(**t))
            .map(|t| (t.as_str(), 0))
            .collect();
        AgentTools {
            agent: sandbox.core().agent().to_string(),
            sandboxes: vec![sandbox],
            routes,
            profile: crate::tools::profile::kind::Profile::default(),
            others: Vec::new(),
        }
    }

    /// Starts the n-gram index ([`Sandbox::with_index`]) on the sandbox that serves grep_search; the
    /// other sandboxes share it (for `list_roots`' status). The index is keyed by each root's
    /// canonical path and only prunes the files a sandbox's own walk yields, so sharing it changes
    /// no answer.
    pub fn with_index(self) -> Self {
        self.with_index_options(crate::index::IndexOptions::default())
    }

    /// [`AgentTools::with_index`] with [`crate::IndexOptions`] (the config file's `index` and
    /// `index_verify`).
    pub fn with_index_options(mut self, options: crate::index::IndexOptions) -> Self {
        let options = options.outside(self.others.iter().cloned());
        let Some(i) = self
            .routes
            .iter()
            .find(|(t, _)| *t == ToolName::GrepSearch.as_str())
            .map(|(_, i)| *i)
        else {
            return self;
        };
        self.sandboxes[i] = self.sandboxes[i].clone().with_index_options(options);
        let indexed = self.sandboxes[i].clone();
        for s in &mut self.sandboxes {
            s.share_index_of(&indexed);
        }
        self
    }

    /// With the other agents' roots ([`AgentTools::others`]).
    pub(crate) fn with_others(mut self, others: Vec<std::path::PathBuf>) -> Self {
        self.others = others;
        self
    }

    /// The agent's name (empty when built from a bare sandbox).
    pub fn agent(&self) -> &str {
        &self.agent
    }

    /// The sandbox that serves `tool`, when the tool is enabled. A write tool is routed to the
    /// write sandbox whether or not its policy offers it: it is served only where offered. (A read
    /// tool routed to a sandbox left with no roots, by client roots, is still served there: a
    /// dialect answers `list_roots` with no roots.)
    pub fn sandbox_for(&self, tool: &str) -> Option<&Sandbox> {
        let name = ToolName::parse(tool)?;
        self.routes
            .iter()
            .find(|(t, _)| *t == tool)
            .map(|(_, i)| &self.sandboxes[*i])
            .filter(|sb| !name.needs_write_root() || sb.enables(name))
    }

    /// The sandbox `tool` is routed to, whether or not its policy offers the tool.
    fn routed(&self, tool: ToolName) -> Option<&Sandbox> {
        self.routes
            .iter()
            .find(|(t, _)| *t == tool.as_str())
            .map(|(_, i)| &self.sandboxes[*i])
    }

    /// All sandboxes (one per distinct policy).
    pub fn sandboxes(&self) -> &[Sandbox] {
        &self.sandboxes
    }

    /// The enabled tools with their schemas and descriptions (each from the sandbox that serves it, so
    /// a description names that tool's own roots and limits).
    pub fn tools(&self) -> Vec<ToolInfo> {
        self.routes
            .iter()
            .filter_map(|(name, i)| {
                let sb = &self.sandboxes[*i];
                ToolName::parse(name)
                    .filter(|t| sb.enables(*t))
                    .map(|t| sb.tool_info(t))
            })
            .collect()
    }

    /// Tool definitions in the OpenAI function-calling shape (see [`Sandbox::tool_definitions`]).
    pub fn tool_definitions(&self) -> Vec<Value> {
        definitions(self.tools())
    }

    /// Dispatches a call to the sandbox of its tool, within a budget of its own; always JSON (the
    /// result or `{"error": ...}`).
    pub fn call(&self, name: &str, args: Value) -> Value {
        self.within(&Budget::new()).call(name, args)
    }

    /// Like [`AgentTools::call`], keeping the error typed.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value, Error> {
        self.within(&Budget::new()).call_result(name, args)
    }

    /// The agent's tools within `budget`: a tighter deadline, a cancel switch (see
    /// [`Within`](crate::Within)).
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let tools = rootbound::config::AgentTools::from_sandbox(sb);
    /// let budget = rootbound::Budget::new();
    /// budget.cancel();
    /// let v = tools.within(&budget).call("list_dir", serde_json::json!({}));
    /// assert_eq!(v["error"]["code"], "CANCELLED");
    /// ```
    pub fn within(&self, budget: &Budget) -> ToolsWithin<'_> {
        ToolsWithin {
            tools: self,
            budget: budget.clone(),
        }
    }
}

/// An agent's tools within a caller's [`Budget`] (see [`Within`](crate::Within)): made by [`AgentTools::within`].
#[derive(Debug, Clone)]
pub struct ToolsWithin<'a> {
    pub(crate) tools: &'a AgentTools,
    pub(crate) budget: Budget,
}

impl ToolsWithin<'_> {
    /// [`AgentTools::call`] within the budget.
    pub fn call(&self, name: &str, args: Value) -> Value {
        self.call_result(name, args).unwrap_or_else(|e| e.to_json())
    }

    /// [`AgentTools::call_result`] within the budget.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value, Error> {
        self.dispatch(name, args, false).map(|d| d.structured)
    }

    /// Runs a call in the sandbox of its tool: its JSON, and with `text` its rendered text.
    pub(crate) fn dispatch(
        &self,
        name: &str,
        args: Value,
        text: bool,
    ) -> Result<crate::tools::present::Presented, Error> {
        let tools = self.tools;
        // An unknown name is a bad argument.
        let Some(tool) = ToolName::parse(name) else {
            return Err(unknown_tool(name));
        };
        if let Some(sb) = tools.routed(tool) {
            // A routed tool its sandbox's policy withholds: that sandbox says why.
            return sb.within(&self.budget).run_tool(tool, args, text);
        }
        if let [only] = tools.sandboxes.as_slice() {
            if !only.enables(tool) {
                // The sandbox's own refusal (it knows why: no roots, no write root, its policy).
                return Err(only.refusal(tool));
            }
        }
        // A known tool the agent was not given is a policy refusal.
        Err(Error::new(
            ErrorCode::Denied,
            format!("tool '{name}' is not enabled for this agent"),
        ))
    }
}
