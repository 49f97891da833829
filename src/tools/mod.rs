//! The tool surface for agent loops: JSON schemas generated from the argument types, and dispatch.

pub(crate) mod args;
pub(crate) mod catalog;
pub(crate) mod client_roots;
pub(crate) mod edit;
pub(crate) mod fsops;
pub(crate) mod media;
pub(crate) mod plain;
pub mod profile;
pub(crate) mod read;
pub(crate) mod read_many;
pub mod render;
pub(crate) mod router;
pub(crate) mod schema;
pub(crate) mod stat_list;
pub(crate) mod tree;
pub(crate) mod write;

pub use catalog::ToolName;

use crate::core::error::{Error, ErrorCode};
use crate::core::sandbox::Sandbox;
use crate::core::within::Within;
use crate::{GlobArgs, GrepArgs, ListArgs, ReadArgs, StatArgs};
use serde::de::DeserializeOwned;
use serde::Serialize;
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

impl Sandbox {
    /// Whether this sandbox's policy offers `tool` (read tools need a read root, write tools the
    /// write root; delete_file also `allow_delete`). Cheap: no schema is built.
    pub fn enables(&self, tool: ToolName) -> bool {
        if tool.needs_write_root() {
            match (&self.policy.write, &self.write_root) {
                (Some(w), Some(_)) => match tool {
                    ToolName::DeleteFile => w.allow_delete,
                    // Whether old_string matches (and the closest line, the diff) tells what the
                    // file holds: editing is offered only where the agent could read it anyway.
                    ToolName::EditFile => self.write_root_readable(),
                    _ => true,
                },
                _ => false,
            }
        } else {
            !self.roots.is_empty()
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
        ToolInfo {
            name: tool.as_str(),
            title: tool.title(),
            description: self.describe(tool),
            input_schema: tool.input_schema().clone(),
            output_schema: tool.output_schema().clone(),
            read_only: !tool.needs_write_root(),
            destructive: match tool {
                // Replacing a file destroys its old content: only additive when overwrite is off.
                ToolName::WriteFile | ToolName::EditFile | ToolName::MoveFile => self
                    .policy
                    .write
                    .as_ref()
                    .is_some_and(|w| w.allow_overwrite),
                ToolName::DeleteFile => true,
                _ => false,
            },
        }
    }

    /// A description written for a model: what the tool does here, its limits, how to page.
    fn describe(&self, tool: ToolName) -> String {
        let l = &self.policy.limits;
        let roots = self
            .roots
            .iter()
            .map(|r| crate::core::names::escape_path(&r.canonical))
            .collect::<Vec<_>>()
            .join(", ");
        let write_root = self
            .write_root
            .as_ref()
            .map(|r| crate::core::names::escape_path(&r.canonical))
            .unwrap_or_default();
        let w = self.policy.write.as_ref();
        let overwrite = if w.is_some_and(|w| w.allow_overwrite) {
            "An existing file is replaced (atomically) only when the call says overwrite=true; otherwise the \
             call fails with ALREADY_EXISTS."
        } else {
            "Existing files are never replaced (ALREADY_EXISTS): pick a new name."
        };
        let parents = if w.is_some_and(|w| w.create_parents) {
            "Missing parent directories are created."
        } else {
            "Parent directories must already exist."
        };
        match tool {
            ToolName::ReadFile => format!(
                "Read a text file under the allowed roots ({roots}). Paths are relative to a root or absolute inside one. \
                 Byte mode: offset/limit (at most {} bytes a call); when truncated is true, call again with offset=next_offset. \
                 Line mode: start_line/max_lines, optional line_numbers; continue with start_line=next_line. \
                 Binary files return binary=true and no content.{}",
                l.max_read_bytes,
                if cfg!(feature = "documents") {
                    " Documents (PPTX, DOCX, XLSX, PDF, .ipynb) return their extracted text (encoding \
                     'extracted:FORMAT', markers like '--- slide 3 ---'), paged the same way; raw=true reads the \
                     file's bytes. document.truncated_reason says when a bound cut the extraction."
                } else {
                    ""
                }
            ),
            ToolName::GrepSearch => format!(
                "Search file contents under the allowed roots with a regular expression (Rust regex syntax; no backreferences \
                 or look-around), like ripgrep: .gitignore and hidden files are skipped unless no_ignore/hidden. Results are \
                 in path order as 'path:line:text' lines; limit defaults to 10 (at most {}). When truncated is true, pass \
                 next_cursor as cursor to get the next page. stats counts files skipped (binary, too large, ignored). \
                 rg-style options: patterns (more patterns, OR'ed), invert, only_matching, max_count per file, line_regexp, \
                 max_depth, output_mode files_without_match; output_format 'json' returns hits [{{path, line, column, text, kind}}] \
                 (counts or files in those modes) instead of text.{}",
                l.max_results,
                if cfg!(feature = "documents") {
                    " documents=true also searches PPTX, DOCX, XLSX, PDF and .ipynb files as their extracted text \
                     (as read_file returns it): 'path:line:[slide 3] text', line numbers in the extracted text."
                } else {
                    ""
                }
            ),
            ToolName::Glob => format!(
                "Find files by name with a glob (e.g. '*.rs' at any depth, 'src/**/*.c' from the root), sorted by path \
                 (or sort 'modified': newest first, paged by offset=next_offset), one per line; limit defaults to 10 \
                 (at most {}); page with cursor=next_cursor while truncated is true.",
                l.max_results
            ),
            ToolName::ListDir => "List one directory level, sorted by name, with kind (file, dir, symlink, other) and size. Omit path to \
                 list the roots. Hidden and ignored entries are left out (and counted) unless hidden/no_ignore."
                .into(),
            ToolName::Stat => "Kind, size, modification time and (for small text files) line count of one path.".into(),
            ToolName::ReadManyFiles => format!(
                "Read several files at once: paths and globs (e.g. 'src/**/*.rs'), results in the order given, globs \
                 expanded in path order. All files share one byte budget (max_bytes, at most {}); a file that does not \
                 fit is cut (truncated, next_offset for read_file). Binary files are reported, not dumped; one file's \
                 error does not fail the call.",
                l.max_read_bytes
            ),
            ToolName::DirectoryTree => format!(
                "A recursive listing of a directory as nested JSON (name, kind, size, children), breadth first and sorted \
                 by name, down to max_depth (default 3) and at most max_entries entries (at most {}); what is left out is \
                 counted. Ignore files and hidden names apply as in grep.",
                l.max_list_entries
            ),
            ToolName::ListRoots => "The directories this agent may read (and the one it may write), with their names.".into(),
            ToolName::ReadMediaFile => format!(
                "Read an image (PNG, JPEG, GIF, WebP) or audio file (WAV, MP3, OGG, FLAC) as base64 with its MIME type, \
                 sniffed from the bytes; at most {} bytes.",
                crate::tools::media::MAX_MEDIA_BYTES
            ),
            ToolName::WriteFile => format!(
                "Create a file under the write root ({write_root}); paths are relative to it (or absolute inside it). \
                 {overwrite} {parents} At most {} bytes; encoding: utf-8 (default) or base64. The write root \
                 is not readable unless it is also a read root.",
                w.map_or(0, |w| w.max_write_bytes)
            ),
            ToolName::EditFile => format!(
                "Replace exact text in a file under the write root ({write_root}): old_string must occur exactly once \
                 (or set replace_all / expected_replacements); or give edits, a list applied in order, all or nothing. \
                 Match the text as read_file shows it; line endings, a BOM and the file mode are kept. An empty \
                 old_string creates a missing file. dry_run shows the diff without writing. {}",
                if w.is_some_and(|w| w.allow_overwrite) {
                    "Changing existing files is allowed."
                } else {
                    "This sandbox does not allow changing existing files: only creating new ones."
                }
            ),
            ToolName::CreateDirectory => format!(
                "Create a directory (and missing parents) under the write root ({write_root}); an existing directory is fine."
            ),
            ToolName::MoveFile => format!(
                "Move or rename a file or directory within the write root ({write_root}). The destination's parent \
                 must exist. {overwrite}"
            ),
            ToolName::DeleteFile => format!(
                "Delete one regular file under the write root ({write_root}); never a directory or a \
                 symbolic link."
            ),
        }
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

    /// Why this sandbox does not serve `name` (an unknown name, no roots, no write root, a policy).
    pub(crate) fn refusal(&self, name: &str) -> Error {
        let has_write_root = self.policy.write.is_some() && self.write_root.is_some();
        let Some(tool) = ToolName::parse(name) else {
            return unknown_tool(name);
        };
        if !tool.needs_write_root() {
            if self.roots.is_empty() {
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
        match name {
            _ if !has_write_root => Error::new(
                ErrorCode::Denied,
                format!("tool '{name}' is not enabled: this sandbox has no write root"),
            ),
            "edit_file" => Error::new(
                ErrorCode::Denied,
                "tool 'edit_file' is not enabled: the write root is not readable (it is not inside a \
                 read root, or a deny rule covers it), and an edit would reveal what the file holds; \
                 use write_file",
            ),
            "delete_file" => Error::new(
                ErrorCode::Denied,
                "tool 'delete_file' is not enabled: this sandbox's policy does not allow deleting \
                 files (allow_delete)",
            ),
            _ => Error::new(
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
        self.dispatch(name, args, false).map(|d| d.value)
    }

    /// Runs a tool call: its result as JSON, and with `text` the text a model reads, rendered
    /// from the typed result ([`render`]).
    pub(crate) fn dispatch(&self, name: &str, args: Value, text: bool) -> Result<Done, Error> {
        let Some(tool) = ToolName::parse(name).filter(|t| self.enables(*t)) else {
            return Err(self.refusal(name));
        };
        let args = args::normalize(args, tool.input_schema(), tool.unset());
        let r = Run { args, text };
        match tool {
            ToolName::ReadFile => r.run(|a: ReadArgs| self.read_file(&a), render::read),
            ToolName::GrepSearch => Run {
                args: args::grep_patterns(r.args),
                ..r
            }
            .run(
                |a: GrepArgs| self.grep_search(&a),
                |g| render::search(false, g),
            ),
            ToolName::Glob => r.run(|a: GlobArgs| self.glob(&a), |g| render::search(true, g)),
            ToolName::ListDir => r.run(|a: ListArgs| self.list_dir(&a), render::list),
            ToolName::Stat => r.run(|a: StatArgs| self.stat(&a), render::stat),
            ToolName::ReadManyFiles => r.run(|a| self.read_many_files(&a), as_json),
            ToolName::DirectoryTree => r.run(|a| self.directory_tree(&a), as_json),
            ToolName::ListRoots => r.run(|a| self.list_roots(&a), as_json),
            // Its text is a media block, made from the result by the presenter.
            ToolName::ReadMediaFile => r.run(|a| self.read_media_file(&a), |_| String::new()),
            ToolName::WriteFile => r.run(|a| self.write_file(&a), render::write),
            ToolName::EditFile => Run {
                args: args::edit_pairs(r.args),
                ..r
            }
            .run(|a| self.edit_file(&a), render::edit),
            ToolName::CreateDirectory => r.run(|a| self.create_directory(&a), as_json),
            ToolName::MoveFile => r.run(|a| self.move_file(&a), as_json),
            ToolName::DeleteFile => r.run(|a| self.delete_file(&a), render::write),
        }
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

/// A tool call's result: its JSON, and the text a model reads (when asked for).
pub(crate) struct Done {
    pub value: Value,
    pub text: String,
}

/// One call's arguments, and whether its text is wanted.
struct Run {
    args: Value,
    text: bool,
}

impl Run {
    /// Parses the arguments, runs the tool, and renders the typed result: its JSON and (with
    /// `text`) its text.
    fn run<A: DeserializeOwned, R: Serialize>(
        self,
        f: impl FnOnce(A) -> Result<R, Error>,
        render: impl FnOnce(&R) -> String,
    ) -> Result<Done, Error> {
        let r = f(parse_args(self.args)?)?;
        let text = if self.text { render(&r) } else { String::new() };
        let value =
            serde_json::to_value(&r).map_err(|e| Error::new(ErrorCode::IoError, e.to_string()))?;
        Ok(Done { value, text })
    }
}

/// The text of a result whose JSON is its best text (pretty-printed).
fn as_json<R: Serialize>(r: &R) -> String {
    serde_json::to_value(r)
        .map(|v| render::pretty(&v))
        .unwrap_or_default()
}

/// A call's arguments: a JSON object of named arguments (null for none).
fn parse_args<A: DeserializeOwned>(args: Value) -> Result<A, Error> {
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
