//! Dialects: the same engine and gate presented with the tool names, parameter names and semantics a
//! model family was trained on (`--profile NAME`, `profile = "NAME"` in the config file).
//!
//! A profile is a thin translation layer: a tool list with schemas (the portable subset, built once
//! per process), a translation of each call's arguments to the engine's argument structs, and a
//! rendering of the engine's result in the dialect's words. It holds no policy and does no I/O of its
//! own: every call goes to the [`Within`] method of the engine tool behind it (within the caller's
//! budget, one share of it for all the engine calls a dialect tool makes), through the same
//! resolver and admission gate (the dialects pass absolute paths, which the resolver accepts inside a
//! root and refuses outside).
//!
//! ```
//! use rootbound::config::AgentTools;
//! use rootbound::Profile;
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
//! let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
//! let tools = AgentTools::from_sandbox(sb).with_profile(Profile::ClaudeCode);
//! let names: Vec<_> = tools.profile_tools().iter().map(|t| t.name).collect();
//! assert_eq!(names, ["Read", "Grep", "Glob"]);
//! let path = dir.path().join("a.txt").to_string_lossy().into_owned();
//! let out = tools
//!     .present("Read", serde_json::json!({"file_path": path, "offset": 2, "limit": 1}))
//!     .unwrap();
//! assert_eq!(out.text(), "     2\ttwo\n[Showing lines 2-2; the file continues: call Read with offset=3 to read more]");
//! ```

mod claude_code;
mod codex;
mod gemini_cli;
pub(crate) mod kind;
mod line_match;
mod mcp_filesystem;

use crate::core::deadline::Budget;
use crate::core::error::{Error, ErrorCode};
use crate::engine::Engine as Sandbox;
use crate::engine::Within;
use crate::tools::present::{Block, Presented};
use crate::tools::router::{AgentTools, ToolsWithin};
use crate::tools::{ToolInfo, ToolName};
pub use kind::Profile;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

impl Profile {
    /// A dialect tool's `idempotentHint` as the dialect pins it (`Some(None)`: left unsaid), where
    /// it differs from the engine tool's.
    fn pinned_idempotent(self, tool: &str) -> Option<Option<bool>> {
        match self {
            Profile::McpFilesystem => mcp_filesystem::pinned_idempotent(tool),
            _ => None,
        }
    }

    /// A dialect tool's `destructiveHint` as the dialect pins it, where it differs from the
    /// engine tool's (which follows the write policy).
    fn pinned_destructive(self, tool: &str) -> Option<bool> {
        match self {
            Profile::McpFilesystem => mcp_filesystem::pinned_destructive(tool),
            _ => None,
        }
    }

    fn defs(self) -> &'static [Def] {
        match self {
            Profile::Rootbound => &[],
            Profile::ClaudeCode => claude_code::defs(),
            Profile::GeminiCli => gemini_cli::defs(),
            Profile::McpFilesystem => mcp_filesystem::defs(),
            Profile::Codex => codex::defs(),
        }
    }
}

/// One tool of a dialect: its listing and the engine tool behind it.
pub(crate) struct Def {
    pub name: &'static str,
    /// Other names a call may use (not listed), e.g. a legacy name.
    pub aliases: &'static [&'static str],
    pub title: &'static str,
    pub description: &'static str,
    pub engine: ToolName,
    /// Runs a call: its (normalized) arguments parsed into the tool's own argument type, the
    /// engine calls, the result in the dialect's words.
    pub run: Run,
    pub input: Value,
    pub output: Value,
    /// The fields whose zero or empty value means "not set" (see `tools/args.rs`).
    pub unset: crate::tools::args::Unset,
}

impl Def {
    /// The definition with its input schema saying the zero rule (see `tools/args.rs`).
    pub(crate) fn finish(mut self) -> Def {
        self.input = crate::tools::args::admit_zero(self.input, self.unset);
        self
    }
}

/// A dialect tool's call: within the call's budget, its (normalized) arguments.
pub(crate) type Run = fn(&Within<'_>, Value) -> Result<Presented, Error>;

impl AgentTools {
    /// These tools presented in `profile`'s dialect (see [`Profile`]).
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// The dialect these tools are presented in.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The tools as the profile presents them: for `rootbound` the same as [`AgentTools::tools`];
    /// for a dialect, each of its tools whose engine tool this agent enables.
    pub fn profile_tools(&self) -> Vec<ToolInfo> {
        if self.profile == Profile::Rootbound {
            return self.tools();
        }
        let engine = self.tools();
        self.profile
            .defs()
            .iter()
            .filter_map(|d| {
                let e = engine.iter().find(|t| t.name == d.engine.as_str())?;
                let sb = self.sandbox_for(d.engine.as_str())?;
                Some(ToolInfo {
                    name: d.name,
                    title: d.title,
                    description: format!("{} {}", d.description, where_note(sb, d.engine)),
                    input_schema: d.input.clone(),
                    output_schema: d.output.clone(),
                    read_only: e.read_only,
                    destructive: self
                        .profile
                        .pinned_destructive(d.name)
                        .unwrap_or(e.destructive),
                    idempotent: match self.profile.pinned_idempotent(d.name) {
                        Some(pinned) => pinned,
                        None => e.idempotent,
                    },
                })
            })
            .collect()
    }

    /// Tool definitions of the profile in a vendor's shape (see [`SchemaFormat`]).
    pub fn profile_definitions(&self, format: SchemaFormat) -> Vec<Value> {
        self.profile_tools()
            .into_iter()
            .map(|t| format.definition(&t))
            .collect()
    }
}

impl ToolsWithin<'_> {
    /// Calls a tool by its name in the profile and presents the result (text blocks rendered by the
    /// shared renderer for `rootbound`, in the dialect's words otherwise).
    pub fn present(&self, name: &str, args: Value) -> Result<Presented, Error> {
        let profile = self.tools.profile;
        if profile == Profile::Rootbound {
            return self.dispatch(name, args, true);
        }
        let Some(def) = profile
            .defs()
            .iter()
            .find(|d| d.name == name || d.aliases.contains(&name))
        else {
            let e = Error::new(
                ErrorCode::InvalidArgument,
                format!(
                    "unknown tool '{name}' (profile {}: {})",
                    profile,
                    profile
                        .defs()
                        .iter()
                        .map(|d| d.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            return Err(match profile {
                Profile::McpFilesystem => mcp_filesystem::unknown_tool(name, e),
                _ => e,
            });
        };
        let Some(sb) = self.tools.sandbox_for(def.engine.as_str()) else {
            // The engine's refusal says why (no roots, no write root, not enabled).
            return Err(self
                .call_result(def.engine.as_str(), json!({}))
                .err()
                .unwrap_or_else(|| {
                    Error::new(ErrorCode::Denied, format!("tool '{name}' is not enabled"))
                }));
        };
        let args = crate::tools::args::normalize(args, &def.input, def.unset);
        // A dialect's tool may make several engine calls: together they keep one call's budget.
        let within = sb
            .within(&self.budget)
            .split(sb.policy().limits.call_timeout(None));
        // The reference's error texts name the call's arguments, which the call consumes.
        let named = (profile == Profile::McpFilesystem)
            .then(|| mcp_filesystem::words::Named::of(def.name, &args));
        (def.run)(&within, args).map_err(|e| {
            let e = in_dialect(profile, e);
            match &named {
                Some(n) => mcp_filesystem::words::in_reference_words(&within, n, e),
                None => e,
            }
        })
    }
}

impl AgentTools {
    /// [`ToolsWithin::present`] within a budget of its own.
    pub fn present(&self, name: &str, args: Value) -> Result<Presented, Error> {
        self.within(&Budget::new()).present(name, args)
    }
}

/// What a dialect says about a document whose extraction a bound or damage stopped: the text and
/// [`crate::ReadResult::extraction_notice`] after it (the notice alone when nothing was extracted).
pub(crate) fn with_extraction_note(r: &crate::tools::api::ReadResult, text: String) -> String {
    let Some(notice) = r.extraction_notice() else {
        return text;
    };
    if r.total_bytes == 0 {
        return notice;
    }
    let mut text = text;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&notice);
    text
}

/// An engine error in the dialect's words: the engine's field and tool names become the
/// dialect's, and details (a pattern's error position, an edit's closest line) are said in the
/// message rather than left as a raw JSON line.
fn in_dialect(profile: Profile, mut e: Error) -> Error {
    let words: &[(&str, &str)] = match profile {
        Profile::ClaudeCode => &[
            ("use list_dir or glob", "use Glob"),
            ("start_line/max_lines", "offset/limit"),
            ("start_line", "offset"),
            ("max_lines", "limit"),
        ],
        Profile::GeminiCli => &[
            ("use list_dir or glob", "use list_directory or glob"),
            ("replace_all", "allow_multiple"),
            ("max_count", "max_matches_per_file"),
            ("max_lines", "end_line"),
        ],
        Profile::McpFilesystem => &[
            ("use list_dir or glob", "use list_directory or search_files"),
            ("old_string/new_string", "oldText/newText"),
            ("old_string", "oldText"),
            ("new_string", "newText"),
            ("replace_all", "a unique oldText"),
            ("dry_run", "dryRun"),
            ("start_line/max_lines", "head/tail"),
            ("head_lines", "head"),
            ("tail_lines", "tail"),
        ],
        Profile::Codex => &[
            ("use list_dir or glob", "use list_dir"),
            ("start_line/max_lines", "offset/limit"),
            ("start_line", "offset"),
            ("max_lines", "limit"),
        ],
        _ => &[],
    };
    for (from, to) in words {
        e.message = replace_word(&e.message, from, to);
    }
    if let Some(d) = e.details.take() {
        let said: Vec<String> = d
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{}: {s}", k.replace('_', " ")),
                other => format!("{}: {other}", k.replace('_', " ")),
            })
            .collect();
        e.message = format!("{} ({})", e.message.trim_end_matches('.'), said.join("; "));
    }
    e
}

/// `text` with each whole-word `from` (not inside a longer identifier) replaced by `to`.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(ident) || after.is_some_and(ident) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The roots a dialect tool works in, for its description (absolute paths are expected).
fn where_note(sb: &Sandbox, engine: ToolName) -> String {
    if engine.needs_write_root() {
        format!(
            "Only works inside the write root ({}).",
            sb.write_root_said()
        )
    } else {
        format!(
            "Only works inside the allowed directories ({}); give absolute paths there.",
            sb.roots_said()
        )
    }
}

/// Parses a dialect's arguments (unknown fields are refused, as everywhere).
pub(crate) fn parse<A: DeserializeOwned>(args: Value) -> Result<A, Error> {
    let args = match args {
        Value::Null => json!({}),
        v @ Value::Object(_) => v,
        _ => {
            return Err(Error::invalid(
                "bad arguments: expected a JSON object of named arguments",
            ))
        }
    };
    serde_json::from_value(args).map_err(|e| Error::invalid(format!("bad arguments: {e}")))
}

/// The schema of a dialect's arguments (the portable subset, additionalProperties false).
pub(crate) fn input_of<T: schemars::JsonSchema>() -> Value {
    crate::tools::catalog::portable_of::<T>(crate::tools::schema::Side::Input)
}

/// How the engine refuses line mode on a UTF-16 file (a dialect that counts lines then decodes the
/// text itself).
const UTF16_LINE_MODE: &str = "line mode is not supported for UTF-16 files";

/// The output schema of a text result: `{content: string}` (and `truncated` when `paged`), or
/// `{error: {code, message}}`. One flat object, not the `anyOf` of [`result_or_error`]: the Python
/// SDK client checks the schema itself against the metaschema on every call, at a cost that grows
/// with every subschema, and the `anyOf` with the error's code list made a dialect's small call
/// slower than the reference server's (1.0 ms of schema checking per call vs the reference's
/// 0.3; this shape is 0.3). What is lost: `content` is not required (an error has none) and the
/// error's fields are said in its description, not as subschemas (each costs as much again).
///
/// [`result_or_error`]: crate::tools::catalog::result_or_error
pub(crate) fn text_output(paged: bool) -> Value {
    let mut props = json!({
        "content": {"type": "string", "description": "The result as the model reads it."},
    });
    if paged {
        props["truncated"] = json!({"type": "boolean",
            "description": "True when more remains than this result shows (the text says how to go on)."});
    }
    result_or_error_flat(props)
}

/// A dialect's output schema from its result's properties (none required): one object that also
/// admits the error object as an `error` property (see [`text_output`] for why not an `anyOf`).
pub(crate) fn result_or_error_flat(mut props: Value) -> Value {
    props["error"] = json!({"type": "object", "description":
        "Only on a failed call: {code, message}, the stable code and what to do next."});
    json!({
        "$schema": crate::tools::catalog::OUTPUT_DIALECT,
        "type": "object",
        "description": "The tool's result, or the error object when the call failed.",
        "properties": props,
    })
}

/// A text result: structured `{content}` (plus `truncated` when given).
pub(crate) fn text(content: String, truncated: Option<bool>) -> Presented {
    let mut s = json!({ "content": content });
    if let Some(t) = truncated {
        s["truncated"] = json!(t);
    }
    Presented::text_only(s, content)
}

/// A vendor's tool-definition shape, for `rootbound schema --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SchemaFormat {
    /// OpenAI function calling: `{"type": "function", "function": {name, description, parameters}}`.
    #[default]
    Openai,
    /// OpenAI strict mode (`openai-strict`): `"strict": true`, every property required, the optional
    /// ones nullable (`null` means not set), `additionalProperties: false`.
    OpenaiStrict,
    /// Anthropic Messages API: `{name, description, input_schema}`.
    Anthropic,
    /// Gemini function declarations: `{name, description, parameters}` in the Schema subset.
    Gemini,
    /// MCP `tools/list` entries: `{name, title, description, inputSchema, outputSchema, annotations}`.
    Mcp,
}

impl SchemaFormat {
    /// The format of a name (`openai`, `openai-strict`, `anthropic`, `gemini`, `mcp`).
    pub fn parse(name: &str) -> Option<SchemaFormat> {
        match name {
            "openai" => Some(SchemaFormat::Openai),
            "openai-strict" => Some(SchemaFormat::OpenaiStrict),
            "anthropic" => Some(SchemaFormat::Anthropic),
            "gemini" => Some(SchemaFormat::Gemini),
            "mcp" => Some(SchemaFormat::Mcp),
            _ => None,
        }
    }

    /// One tool in this shape.
    pub fn definition(self, t: &ToolInfo) -> Value {
        match self {
            SchemaFormat::Openai => json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.input_schema}}),
            SchemaFormat::OpenaiStrict => json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "strict": true,
                "parameters": crate::tools::schema::openai_strict(&t.input_schema)}}),
            SchemaFormat::Anthropic => json!({
                "name": t.name, "description": t.description, "input_schema": t.input_schema}),
            SchemaFormat::Gemini => json!({
                "name": t.name, "description": t.description, "parameters": t.gemini_parameters()}),
            SchemaFormat::Mcp => {
                json!({"name": t.name, "title": t.title, "description": t.description,
                    "inputSchema": t.input_schema, "outputSchema": t.output_schema,
                    "annotations": t.annotations()})
            }
        }
    }
}

/// Most exclude/ignore patterns one call may give.
const MAX_GLOBS: usize = 64;

/// A dialect's exclude/ignore globs (matched on names and paths, at any depth; `dir/` excludes what
/// is under it). Applied to results the engine already returned: a filter, not a gate.
pub(crate) fn globs(patterns: &[String]) -> Result<globset::GlobSet, Error> {
    if patterns.len() > MAX_GLOBS {
        return Err(Error::invalid(format!(
            "too many exclude patterns ({}; at most {MAX_GLOBS})",
            patterns.len()
        )));
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        if p.len() > 1024 {
            return Err(Error::invalid(
                "an exclude pattern is longer than 1024 bytes",
            ));
        }
        let p = p.trim_end_matches('/');
        for g in [p.to_string(), format!("**/{p}"), format!("**/{p}/**")] {
            let glob = globset::GlobBuilder::new(&g)
                .literal_separator(false)
                .build()
                .map_err(|e| Error::invalid(format!("bad exclude pattern '{p}': {e}")))?;
            b.add(glob);
        }
    }
    b.build()
        .map_err(|e| Error::invalid(format!("bad exclude patterns: {e}")))
}

/// Whether a displayed name or path is matched by `set`.
pub(crate) fn excluded(set: &globset::GlobSet, path: &str) -> bool {
    !set.is_empty() && set.is_match(path)
}

/// A dialect's write: its tools replace an existing file (the operator's `allow_overwrite` still
/// decides; without it the call is DENIED).
pub(crate) fn write_replacing(
    sb: &Within<'_>,
    path: String,
    content: String,
) -> Result<crate::tools::api::WriteResult, Error> {
    sb.write_file(&crate::tools::api::WriteArgs {
        path,
        content,
        overwrite: Some(true),
        encoding: None,
    })
}
