//! The tool surface for agent loops: JSON schemas generated from the argument types, and dispatch.

pub(crate) mod args;
pub(crate) mod catalog;
pub(crate) mod client_roots;
pub(crate) mod edit;
pub(crate) mod edit_form;
pub(crate) mod fsops;
pub(crate) mod media;
pub(crate) mod plain;
pub(crate) mod present;
pub mod profile;
pub(crate) mod read;
pub(crate) mod read_many;
pub mod render;
pub(crate) mod router;
pub(crate) mod schema;
pub(crate) mod search;
pub(crate) mod stat_list;
pub(crate) mod tool;
pub(crate) mod tree;
pub(crate) mod write;

pub use catalog::ToolName;

/// The tools' argument and result types the crate offers (`lib.rs` re-exports this module whole):
/// a new tool names its types here, beside its `mod` line, and lib.rs does not change.
pub(crate) mod api {
    pub use super::edit::{Edit, EditArgs, EditResult};
    pub use super::fsops::{FsOpResult, MkdirArgs, MoveArgs};
    pub use super::media::{MediaArgs, MediaResult, MAX_MEDIA_BYTES};
    pub use super::read::{DocumentInfo, ReadArgs, ReadResult};
    pub use super::read_many::{ManyFile, ReadManyArgs, ReadManyResult};
    pub use super::stat_list::{Entry, ListArgs, ListResult, StatArgs, StatResult};
    pub use super::stat_list::{RootEntry, RootsArgs, RootsResult};
    pub use super::tree::{TreeArgs, TreeNode, TreeOmitted, TreeResult};
    pub use super::write::{ContentEncoding, DeleteArgs, WriteArgs, WriteResult};
}

use crate::core::error::{Error, ErrorCode};
use crate::engine::{Engine, Within};
use crate::tools::present::Presented;
use crate::tools::tool::{Dispatch, Tool, Visit};
use serde_json::{json, Value};

/// A tool's name, description for a model, and whether it only reads.
#[derive(Debug, Clone)]
pub struct ToolInfo {
    /// The tool name (`read_file`, `grep_search`, ...).
    pub name: &'static str,
    /// A description written for a model: what it does, its limits, how to page.
    pub description: String,
    /// A short human title (MCP `title`).
    pub title: &'static str,
    /// The JSON Schema of the arguments (the portable subset: see `schema.rs`).
    pub input_schema: Value,
    /// The JSON Schema of a successful result (MCP `outputSchema`).
    pub output_schema: Value,
    /// True for tools that never change anything.
    pub read_only: bool,
    /// True for tools that remove data.
    pub destructive: bool,
}

impl ToolInfo {
    /// The argument schema in Gemini's function-declaration subset (no `additionalProperties`).
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let t = &sb.tools()[0];
    /// assert!(t.gemini_parameters().get("additionalProperties").is_none());
    /// ```
    pub fn gemini_parameters(&self) -> Value {
        schema::gemini(&self.input_schema)
    }
}

impl Engine {
    /// Whether this sandbox's policy offers `tool` (read tools need a read root, write tools the
    /// write root; delete_file also `allow_delete`, edit_file a write root the agent can read: each
    /// row's `withheld`). Cheap: no schema is built.
    pub fn enables(&self, tool: ToolName) -> bool {
        if tool.needs_write_root() {
            self.policy().write.is_some()
                && self.core().has_write_root()
                && tool.visit(Withheld(self)).is_none()
        } else {
            self.core().has_read_roots()
        }
    }

    /// The tools this policy enables, with their schemas (no roots: no read tools; no write root: no
    /// write tools).
    pub fn tools(&self) -> Vec<ToolInfo> {
        ToolName::ALL
            .iter()
            .filter(|t| self.enables(**t))
            .map(|t| self.tool_info(*t))
            .collect()
    }

    pub(crate) fn tool_info(&self, tool: ToolName) -> ToolInfo {
        tool.visit(Info(self, tool))
    }

    /// Tool definitions in the OpenAI function-calling shape.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let defs = sb.tool_definitions();
    /// assert_eq!(defs[0]["type"], "function");
    /// assert_eq!(defs[0]["function"]["name"], "read_file");
    /// ```
    pub fn tool_definitions(&self) -> Vec<Value> {
        definitions(self.tools())
    }

    /// Why this sandbox does not serve `tool` (no roots, no write root, a policy).
    pub(crate) fn refusal(&self, tool: ToolName) -> Error {
        let has_write_root = self.policy().write.is_some() && self.core().has_write_root();
        let name = tool.as_str();
        if !tool.needs_write_root() {
            if !self.core().has_read_roots() {
                return Error::new(
                    ErrorCode::OutOfSandbox,
                    format!("tool '{name}' has nothing to work in: this sandbox has no read roots"),
                );
            }
            return Error::new(
                ErrorCode::Denied,
                format!("tool '{name}' is not enabled by this sandbox's policy"),
            );
        }
        if !has_write_root {
            return Error::new(
                ErrorCode::Denied,
                format!("tool '{name}' is not enabled: this sandbox has no write root"),
            );
        }
        match tool.visit(Withheld(self)) {
            Some(why) => Error::new(ErrorCode::Denied, why),
            None => Error::new(
                ErrorCode::Denied,
                format!("tool '{name}' is not enabled by this sandbox's policy"),
            ),
        }
    }
}

impl Within<'_> {
    /// Dispatches a tool call and always returns JSON: the result, or `{"error": {...}}`.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "hi").unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let budget = rootbound::Budget::new();
    /// let ok = sb.within(&budget).call("read_file", serde_json::json!({"path": "a.txt"}));
    /// assert_eq!(ok["content"], "hi");
    /// let bad = sb.within(&budget).call("read_file", serde_json::json!({"path": "a.txt", "bogus": 1}));
    /// assert_eq!(bad["error"]["code"], "INVALID_ARGUMENT");
    /// ```
    pub fn call(&self, name: &str, args: Value) -> Value {
        match self.call_result(name, args) {
            Ok(v) => v,
            Err(e) => e.to_json(),
        }
    }

    /// Like [`Within::call`], keeping the error typed.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value, Error> {
        self.dispatch(name, args, false).map(|d| d.structured)
    }

    /// Runs a tool call: its structured result, and with `text` the content blocks a model
    /// reads, rendered from the typed result by the tool's row.
    pub(crate) fn dispatch(&self, name: &str, args: Value, text: bool) -> Result<Presented, Error> {
        match ToolName::parse(name) {
            Some(tool) => self.run_tool(tool, args, text),
            None => Err(unknown_tool(name)),
        }
    }

    /// [`Within::dispatch`] for a tool already named: refused unless this sandbox enables it.
    pub(crate) fn run_tool(
        &self,
        tool: ToolName,
        args: Value,
        text: bool,
    ) -> Result<Presented, Error> {
        if !self.engine().enables(tool) {
            return Err(self.engine().refusal(tool));
        }
        tool.visit(Dispatch {
            tool,
            within: self,
            args,
            text,
        })
    }
}

/// A row's listing under a sandbox's policy.
struct Info<'a>(&'a Engine, ToolName);

impl Visit for Info<'_> {
    type Out = ToolInfo;
    fn visit<T: Tool>(self) -> ToolInfo {
        let tool = self.1;
        ToolInfo {
            name: T::NAME,
            title: T::TITLE,
            description: T::describe(self.0),
            input_schema: tool.input_schema().clone(),
            output_schema: tool.output_schema().clone(),
            read_only: !T::WRITES,
            destructive: T::destructive(self.0),
        }
    }
}

/// Why a sandbox does not offer a write tool although it has a write root.
struct Withheld<'a>(&'a Engine);

impl Visit for Withheld<'_> {
    type Out = Option<&'static str>;
    fn visit<T: Tool>(self) -> Option<&'static str> {
        T::withheld(self.0)
    }
}

/// The refusal of a name that is no tool at all (a bad argument, not a policy decision).
pub(crate) fn unknown_tool(name: &str) -> Error {
    Error::new(ErrorCode::InvalidArgument, format!("unknown tool '{name}'"))
}

/// Tool definitions in the OpenAI function-calling shape, for [`Sandbox::tool_definitions`] and
/// [`router::AgentTools::tool_definitions`].
pub(crate) fn definitions(tools: Vec<ToolInfo>) -> Vec<Value> {
    tools
        .into_iter()
        .map(|t| {
            json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.input_schema}})
        })
        .collect()
}
