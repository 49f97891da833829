//! One row per tool: the [`Tool`] trait holds everything the surface knows about a tool (its
//! names, argument and result types, description, what it needs, how it runs and how its result
//! reads). Dispatch, schemas, listings, refusals and rendering all read the row; the one table of
//! rows is [`ToolName`](crate::ToolName)'s declaration in `catalog.rs`.
//!
//! Adding a tool is one module (its argument and result types, its `Within` method, its `Tool`
//! impl), one line in that table, and its `mod` line and types (`tools::api`) in `tools/mod.rs`. The config file's lists of tool names
//! (`config::READ_TOOLS`, `WRITE_TOOLS`) and `rootbound call --help` are derived from the table.
//! A tool with a limit of its own also adds a row to the limit table (`core/limits.rs`, keyed by
//! wire name since core sits below the tools), which a test checks against this table.

use crate::core::error::{Error, ErrorCode, Result};
use crate::engine::{Engine, Within};
use crate::tools::args::Unset;
use crate::tools::present::Presented;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// One tool of the native surface.
pub(crate) trait Tool {
    /// The wire name.
    const NAME: &'static str;
    /// A short human title (MCP `title`).
    const TITLE: &'static str;
    /// Whether it works in the write root (and so is offered only with one).
    const WRITES: bool = false;
    /// The fields whose zero or empty value means "not set" (see `tools/args.rs`).
    const UNSET: Unset = &[];
    /// Whether it works on one file or one directory page, never a walk, and so ends quickly
    /// (a host may run it inline rather than on a thread it can interrupt).
    const ONE_OBJECT: bool = false;
    /// Whether its results show what files hold, not only their names and metadata: a write must
    /// not move a file into the roots of such a tool when none of them could read it before.
    const READS_CONTENT: bool = false;

    /// The arguments, parsed from the call's JSON; their schema is the input schema.
    type Args: DeserializeOwned + JsonSchema;
    /// The result; its schema is the output schema.
    type Output: Serialize + JsonSchema;

    /// Runs the tool within the call's budget.
    fn run(w: &Within<'_>, args: &Self::Args) -> Result<Self::Output>;

    /// A description written for a model: what the tool does here, its limits, how to page.
    fn describe(sb: &Engine) -> String;

    /// The text a model reads for a result (by default its JSON, pretty-printed).
    fn render(out: &Self::Output) -> String {
        serde_json::to_value(out)
            .map(|v| pretty(&v))
            .unwrap_or_default()
    }

    /// What a front end shows: the structured result and the text rendered from the typed value.
    fn present(out: &Self::Output, structured: Value) -> Presented {
        Presented::text_only(structured, Self::render(out))
    }

    /// The call's JSON arguments made ready to parse, beyond the shared rules of `tools/args.rs`.
    fn prepare(args: Value) -> Value {
        args
    }

    /// The input schema, finished beyond what the argument type says.
    fn finish_input(_schema: &mut Value) {}

    /// The output schema, finished beyond what the result type says.
    fn finish_output(_schema: &mut Value) {}

    /// Why a sandbox with a write root still does not offer this write tool (its policy), if so.
    fn withheld(_sb: &Engine) -> Option<&'static str> {
        None
    }

    /// Whether a call may destroy data under this sandbox's policy (MCP `destructiveHint`). A
    /// write tool is, unless its row says when it is not.
    fn destructive(_sb: &Engine) -> bool {
        Self::WRITES
    }
}

/// A question asked of one tool's row, answered for whichever tool a
/// [`ToolName`](crate::ToolName) names (`ToolName::visit`): the way to reach a row's types from a
/// name.
pub(crate) trait Visit {
    /// The answer.
    type Out;
    /// The answer for tool `T`.
    fn visit<T: Tool>(self) -> Self::Out;
}

/// Runs a tool call: parses the arguments, runs the tool, and presents the typed result (its
/// JSON, and with `text` the text a model reads).
pub(crate) struct Dispatch<'w, 'a> {
    pub tool: crate::tools::ToolName,
    pub within: &'w Within<'a>,
    pub args: Value,
    pub text: bool,
}

impl Visit for Dispatch<'_, '_> {
    type Out = Result<Presented>;
    fn visit<T: Tool>(self) -> Result<Presented> {
        let args = crate::tools::args::normalize(self.args, self.tool.input_schema(), T::UNSET);
        let args: T::Args = parse_args(T::prepare(args))?;
        let out = T::run(self.within, &args)?;
        let structured = serde_json::to_value(&out)
            .map_err(|e| Error::new(ErrorCode::IoError, e.to_string()))?;
        Ok(if self.text {
            T::present(&out, structured)
        } else {
            Presented {
                structured,
                blocks: Vec::new(),
            }
        })
    }
}

/// A call's arguments: a JSON object of named arguments (null for none).
pub(crate) fn parse_args<A: DeserializeOwned>(args: Value) -> Result<A> {
    let args = match args {
        Value::Null => json!({}),
        Value::Object(_) => args,
        other => {
            let kind = match other {
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                _ => "an array",
            };
            return Err(Error::invalid(format!(
                "bad arguments: expected a JSON object of named arguments, got {kind}"
            )));
        }
    };
    serde_json::from_value(args).map_err(|e| Error::invalid(format!("bad arguments: {e}")))
}

/// The phrases descriptions share: where a tool works and what the write policy allows.
impl Engine {
    /// The read roots, escaped, comma-separated.
    pub(crate) fn roots_said(&self) -> String {
        self.roots()
            .iter()
            .map(|(_, canonical)| crate::core::names::escape_path(canonical))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The write root, escaped (empty without one).
    pub(crate) fn write_root_said(&self) -> String {
        self.core()
            .write_root_path()
            .map(crate::core::names::escape_path)
            .unwrap_or_default()
    }

    /// Whether the write policy lets calls replace existing files.
    pub(crate) fn allows_overwrite(&self) -> bool {
        self.policy()
            .write
            .as_ref()
            .is_some_and(|w| w.allow_overwrite)
    }

    /// What happens to an existing file at a write's destination.
    pub(crate) fn overwrite_said(&self) -> &'static str {
        if self.allows_overwrite() {
            "An existing file is replaced (atomically) only when the call says overwrite=true; otherwise the \
             call fails with ALREADY_EXISTS."
        } else {
            "Existing files are never replaced (ALREADY_EXISTS): pick a new name."
        }
    }

    /// Whether a write creates missing parent directories.
    pub(crate) fn parents_said(&self) -> &'static str {
        if self
            .policy()
            .write
            .as_ref()
            .is_some_and(|w| w.create_parents)
        {
            "Missing parent directories are created."
        } else {
            "Parent directories must already exist."
        }
    }
}

/// Pretty JSON (two-space indent).
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
