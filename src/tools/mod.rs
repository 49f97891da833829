//! The tool surface for agent loops: JSON schemas generated from the argument types, and dispatch.

pub(crate) mod budgeted;
pub(crate) mod meta;
pub(crate) mod read;
pub(crate) mod write;

use crate::core::error::{Error, ErrorCode};
use crate::core::sandbox::Sandbox;
use crate::{GlobArgs, GrepArgs, ListArgs, ReadArgs, StatArgs};
use schemars::JsonSchema;
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
    /// The JSON Schema of the arguments.
    pub input_schema: Value,
    /// True for tools that never change anything.
    pub read_only: bool,
    /// True for tools that remove data.
    pub destructive: bool,
}

fn schema_of<T: JsonSchema>() -> Value {
    let mut v = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(json!({"type": "object"}));
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
        o.insert("additionalProperties".into(), json!(false));
    }
    v
}

impl Sandbox {
    /// The tools this policy enables, with their schemas (no roots: no read tools; no write root: no
    /// write tools).
    pub fn tools(&self) -> Vec<ToolInfo> {
        let l = &self.policy.limits;
        let mut out = Vec::new();
        if !self.roots.is_empty() {
            let roots: Vec<String> = self
                .roots
                .iter()
                .map(|r| r.canonical.display().to_string())
                .collect();
            let roots = roots.join(", ");
            out.push(ToolInfo {
                name: "read_file",
                description: format!(
                    "Read a text file under the allowed roots ({roots}). Paths are relative to a root or absolute inside one. \
                     Byte mode: offset/limit (at most {} bytes a call); when truncated is true, call again with offset=next_offset. \
                     Line mode: start_line/max_lines, optional line_numbers; continue with start_line=next_line. \
                     Binary files return binary=true and no content.",
                    l.max_read_bytes
                ),
                input_schema: schema_of::<ReadArgs>(),
                read_only: true,
                destructive: false,
            });
            out.push(ToolInfo {
                name: "grep_search",
                description: format!(
                    "Search file contents under the allowed roots with a regular expression (Rust regex syntax; no backreferences \
                     or look-around), like ripgrep: .gitignore and hidden files are skipped unless no_ignore/hidden. Results are \
                     in path order as 'path:line:text' lines; limit defaults to 10 (at most {}). When truncated is true, pass \
                     next_cursor as cursor to get the next page. stats counts files skipped (binary, too large, ignored, denied).",
                    l.max_results
                ),
                input_schema: schema_of::<GrepArgs>(),
                read_only: true,
                destructive: false,
            });
            out.push(ToolInfo {
                name: "glob",
                description: format!(
                    "Find files by name with a glob (e.g. '*.rs' at any depth, 'src/**/*.c' from the root), sorted by path, \
                     one per line; limit defaults to 10 (at most {}); page with cursor=next_cursor while truncated is true.",
                    l.max_results
                ),
                input_schema: schema_of::<GlobArgs>(),
                read_only: true,
                destructive: false,
            });
            out.push(ToolInfo {
                name: "list_dir",
                description: "List one directory level, sorted by name, with kind (file, dir, symlink, other) and size. Omit path to \
                              list the roots. Hidden and ignored entries are left out (and counted) unless hidden/no_ignore."
                    .into(),
                input_schema: schema_of::<ListArgs>(),
                read_only: true,
                destructive: false,
            });
            out.push(ToolInfo {
                name: "stat",
                description: "Kind, size, modification time and (for small text files) line count of one path.".into(),
                input_schema: schema_of::<StatArgs>(),
                read_only: true,
                destructive: false,
            });
        }
        if let (Some(w), Some(root)) = (&self.policy.write, &self.write_root) {
            let root = root.canonical.display();
            let overwrite = if w.allow_overwrite {
                "An existing file is replaced (atomically) only when the call says overwrite=true; otherwise the \
                 call fails with ALREADY_EXISTS."
            } else {
                "Existing files are never replaced (ALREADY_EXISTS): pick a new name."
            };
            let parents = if w.create_parents {
                "Missing parent directories are created."
            } else {
                "Parent directories must already exist."
            };
            out.push(ToolInfo {
                name: "write_file",
                description: format!(
                    "Create a file under the write root ({root}); paths are relative to it (or absolute inside it). \
                     {overwrite} {parents} At most {} bytes; encoding: utf-8 (default) or base64. The write root \
                     is not readable unless it is also a read root.",
                    w.max_write_bytes
                ),
                input_schema: schema_of::<crate::tools::write::WriteArgs>(),
                read_only: false,
                // Replacing a file destroys its old content: only additive when overwrite is off.
                destructive: w.allow_overwrite,
            });
            if w.allow_delete {
                out.push(ToolInfo {
                    name: "delete_file",
                    description: format!(
                        "Delete one regular file under the write root ({root}); never a directory or a \
                         symbolic link."
                    ),
                    input_schema: schema_of::<crate::tools::write::DeleteArgs>(),
                    read_only: false,
                    destructive: true,
                });
            }
        }
        out
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
        self.tools()
            .into_iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.input_schema}})
            })
            .collect()
    }

    /// Dispatches a tool call and always returns JSON: the result, or `{"error": {...}}`.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "hi").unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let ok = sb.call("read_file", serde_json::json!({"path": "a.txt"}));
    /// assert_eq!(ok["content"], "hi");
    /// let bad = sb.call("read_file", serde_json::json!({"path": "a.txt", "bogus": 1}));
    /// assert_eq!(bad["error"]["code"], "INVALID_ARGUMENT");
    /// ```
    pub fn call(&self, name: &str, args: Value) -> Value {
        match self.call_result(name, args) {
            Ok(v) => v,
            Err(e) => e.to_json(),
        }
    }

    /// Like [`Sandbox::call`], keeping the error typed.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value, Error> {
        let enabled = self.tools().iter().any(|t| t.name == name);
        if !enabled {
            let known = [
                "read_file",
                "grep_search",
                "glob",
                "list_dir",
                "stat",
                "write_file",
                "delete_file",
            ];
            let msg = if known.contains(&name) {
                format!("tool '{name}' is not enabled by this sandbox's policy")
            } else {
                format!("unknown tool '{name}'")
            };
            let code = if self.roots.is_empty() && known[..5].contains(&name) {
                ErrorCode::OutOfSandbox
            } else {
                ErrorCode::InvalidArgument
            };
            return Err(Error::new(code, msg));
        }
        match name {
            "read_file" => run(args, |a: ReadArgs| self.read_file(&a)),
            "grep_search" => run(args, |a: GrepArgs| self.grep_search(&a)),
            "glob" => run(args, |a: GlobArgs| self.glob(&a)),
            "list_dir" => run(args, |a: ListArgs| self.list_dir(&a)),
            "stat" => run(args, |a: StatArgs| self.stat(&a)),
            "write_file" => run(args, |a: crate::tools::write::WriteArgs| {
                self.write_file(&a)
            }),
            "delete_file" => run(args, |a: crate::tools::write::DeleteArgs| {
                self.delete_file(&a)
            }),
            _ => Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("unknown tool '{name}'"),
            )),
        }
    }
}

fn run<A: DeserializeOwned, R: Serialize>(
    args: Value,
    f: impl FnOnce(A) -> Result<R, Error>,
) -> Result<Value, Error> {
    let args = if args.is_null() { json!({}) } else { args };
    let a: A =
        serde_json::from_value(args).map_err(|e| Error::invalid(format!("bad arguments: {e}")))?;
    let r = f(a)?;
    serde_json::to_value(r).map_err(|e| Error::new(ErrorCode::IoError, e.to_string()))
}
