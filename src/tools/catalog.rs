//! The catalog of tools: one enum names every tool, with what it needs, what it may change, and its
//! argument schema (generated once per process, not per call).

use crate::tools::schema::Side;
use schemars::JsonSchema;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// Every tool rootbound offers. The string form ([`ToolName::as_str`]) is the wire name.
///
/// ```
/// use rootbound::ToolName;
/// assert_eq!(ToolName::parse("grep_search"), Some(ToolName::GrepSearch));
/// assert_eq!(ToolName::GrepSearch.as_str(), "grep_search");
/// assert!(ToolName::EditFile.needs_write_root());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ToolName {
    /// Read one page of a text file.
    ReadFile,
    /// Search file contents.
    GrepSearch,
    /// Find files by name.
    Glob,
    /// List one directory.
    ListDir,
    /// Metadata of one path.
    Stat,
    /// Several files under one byte budget.
    ReadManyFiles,
    /// A bounded recursive listing.
    DirectoryTree,
    /// The roots this sandbox serves.
    ListRoots,
    /// An image or audio file as base64.
    ReadMediaFile,
    /// Create a file under the write root.
    WriteFile,
    /// Replace exact text in a file under the write root.
    EditFile,
    /// Create a directory under the write root.
    CreateDirectory,
    /// Move or rename within the write root.
    MoveFile,
    /// Delete a file under the write root.
    DeleteFile,
}

impl ToolName {
    /// Every tool, in listing order (read tools first).
    pub const ALL: &'static [ToolName] = &[
        ToolName::ReadFile,
        ToolName::GrepSearch,
        ToolName::Glob,
        ToolName::ListDir,
        ToolName::Stat,
        ToolName::ReadManyFiles,
        ToolName::DirectoryTree,
        ToolName::ListRoots,
        ToolName::ReadMediaFile,
        ToolName::WriteFile,
        ToolName::EditFile,
        ToolName::CreateDirectory,
        ToolName::MoveFile,
        ToolName::DeleteFile,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::ReadFile => "read_file",
            ToolName::GrepSearch => "grep_search",
            ToolName::Glob => "glob",
            ToolName::ListDir => "list_dir",
            ToolName::Stat => "stat",
            ToolName::ReadManyFiles => "read_many_files",
            ToolName::DirectoryTree => "directory_tree",
            ToolName::ListRoots => "list_roots",
            ToolName::ReadMediaFile => "read_media_file",
            ToolName::WriteFile => "write_file",
            ToolName::EditFile => "edit_file",
            ToolName::CreateDirectory => "create_directory",
            ToolName::MoveFile => "move_file",
            ToolName::DeleteFile => "delete_file",
        }
    }

    /// The tool of a wire name.
    pub fn parse(name: &str) -> Option<ToolName> {
        Self::ALL.iter().copied().find(|t| t.as_str() == name)
    }

    /// A short human title (MCP `title`).
    pub fn title(self) -> &'static str {
        match self {
            ToolName::ReadFile => "Read file",
            ToolName::GrepSearch => "Search file contents",
            ToolName::Glob => "Find files by name",
            ToolName::ListDir => "List directory",
            ToolName::Stat => "File information",
            ToolName::ReadManyFiles => "Read several files",
            ToolName::DirectoryTree => "Directory tree",
            ToolName::ListRoots => "List allowed roots",
            ToolName::ReadMediaFile => "Read image or audio",
            ToolName::WriteFile => "Write file",
            ToolName::EditFile => "Edit file",
            ToolName::CreateDirectory => "Create directory",
            ToolName::MoveFile => "Move file",
            ToolName::DeleteFile => "Delete file",
        }
    }

    /// Whether the tool works in the write root (and so is offered only with one).
    pub fn needs_write_root(self) -> bool {
        matches!(
            self,
            ToolName::WriteFile
                | ToolName::EditFile
                | ToolName::CreateDirectory
                | ToolName::MoveFile
                | ToolName::DeleteFile
        )
    }

    /// The read tools' wire names, in listing order.
    pub fn read_names() -> impl Iterator<Item = &'static str> {
        Self::ALL
            .iter()
            .filter(|t| !t.needs_write_root())
            .map(|t| t.as_str())
    }

    /// The write tools' wire names, in listing order.
    pub fn write_names() -> impl Iterator<Item = &'static str> {
        Self::ALL
            .iter()
            .filter(|t| t.needs_write_root())
            .map(|t| t.as_str())
    }

    /// The JSON Schema of the tool's arguments, built once per process.
    pub fn input_schema(self) -> &'static Value {
        static SCHEMAS: OnceLock<Vec<Value>> = OnceLock::new();
        let all = SCHEMAS.get_or_init(|| Self::ALL.iter().map(|t| t.build_schema()).collect());
        &all[Self::ALL.iter().position(|t| *t == self).unwrap_or(0)]
    }

    /// The JSON Schema of the tool's result (MCP `outputSchema`), built once per process.
    pub fn output_schema(self) -> &'static Value {
        static SCHEMAS: OnceLock<Vec<Value>> = OnceLock::new();
        let all = SCHEMAS.get_or_init(|| Self::ALL.iter().map(|t| t.build_output()).collect());
        &all[Self::ALL.iter().position(|t| *t == self).unwrap_or(0)]
    }

    fn build_output(self) -> Value {
        use crate::tools::*;
        let mut v = match self {
            ToolName::ReadFile => output_of::<read::ReadResult>(),
            ToolName::GrepSearch | ToolName::Glob => output_of::<crate::GrepResult>(),
            ToolName::ListDir => output_of::<stat_list::ListResult>(),
            ToolName::Stat => output_of::<stat_list::StatResult>(),
            ToolName::ReadManyFiles => output_of::<read_many::ReadManyResult>(),
            ToolName::DirectoryTree => output_of::<tree::TreeResult>(),
            ToolName::ListRoots => output_of::<stat_list::RootsResult>(),
            ToolName::ReadMediaFile => output_of::<media::MediaResult>(),
            ToolName::WriteFile | ToolName::DeleteFile => output_of::<write::WriteResult>(),
            ToolName::EditFile => output_of::<edit::EditResult>(),
            ToolName::CreateDirectory | ToolName::MoveFile => output_of::<fsops::FsOpResult>(),
        };
        // Over MCP the bytes of a media file travel in the image/audio block, not twice: the
        // structured copy leaves `data` out, so the schema does not require it.
        if self == ToolName::ReadMediaFile {
            if let Some(Value::Array(req)) = v.get_mut("required") {
                req.retain(|f| f != "data");
            }
        }
        // Results may grow fields in later versions: a client validating today's schema must not
        // reject them.
        if let Some(o) = v.as_object_mut() {
            o.remove("additionalProperties");
            o.remove("type");
        }
        result_or_error(v)
    }

    /// The fields whose zero or empty value means "not set" (see `tools/args.rs`): counts, limits,
    /// offsets at their default, paths, globs and cursors. Other zeros are real values.
    pub(crate) fn unset(self) -> crate::tools::args::Unset {
        match self {
            ToolName::ReadFile => &[
                "offset",
                "limit",
                "start_line",
                "max_lines",
                "head_lines",
                "tail_lines",
            ],
            ToolName::GrepSearch => &[
                "patterns",
                "path",
                "include",
                "exclude",
                "type",
                "max_count",
                "max_depth",
                "output_mode",
                "output_format",
                "max_filesize",
                "offset",
                "cursor",
                "limit",
                "max_bytes",
                "timeout_ms",
            ],
            ToolName::Glob => &["path", "offset", "cursor", "limit", "sort", "timeout_ms"],
            ToolName::ListDir => &["path", "offset", "limit", "timeout_ms"],
            ToolName::ReadManyFiles => &["max_bytes", "timeout_ms"],
            ToolName::DirectoryTree => {
                &["path", "max_depth", "max_entries", "exclude", "timeout_ms"]
            }
            ToolName::WriteFile => &["encoding"],
            ToolName::EditFile => &["expected_replacements", "edits"],
            _ => &[],
        }
    }

    fn build_schema(self) -> Value {
        let mut v = crate::tools::args::admit_zero(self.build_portable(), self.unset());
        if self == ToolName::GrepSearch {
            // `patterns` alone is a search too (see `tools/args.rs`).
            if let Some(Value::Array(req)) = v.get_mut("required") {
                req.retain(|f| f != "pattern");
            }
            if let Some(Value::String(d)) = v.pointer_mut("/properties/pattern/description") {
                d.push_str(" Required unless patterns is given.");
            }
        }
        v
    }

    fn build_portable(self) -> Value {
        use crate::tools::*;
        match self {
            ToolName::ReadFile => schema_of::<read::ReadArgs>(),
            ToolName::GrepSearch => schema_of::<crate::GrepArgs>(),
            ToolName::Glob => schema_of::<crate::GlobArgs>(),
            ToolName::ListDir => schema_of::<stat_list::ListArgs>(),
            ToolName::Stat => schema_of::<stat_list::StatArgs>(),
            ToolName::ReadManyFiles => schema_of::<read_many::ReadManyArgs>(),
            ToolName::DirectoryTree => schema_of::<tree::TreeArgs>(),
            ToolName::ListRoots => schema_of::<stat_list::RootsArgs>(),
            ToolName::ReadMediaFile => schema_of::<media::MediaArgs>(),
            ToolName::WriteFile => schema_of::<write::WriteArgs>(),
            ToolName::EditFile => schema_of::<edit::EditArgs>(),
            ToolName::CreateDirectory => schema_of::<fsops::MkdirArgs>(),
            ToolName::MoveFile => schema_of::<fsops::MoveArgs>(),
            ToolName::DeleteFile => schema_of::<write::DeleteArgs>(),
        }
    }
}

/// A result schema that also admits the error object: a failed call's structured content is the
/// error object.
pub(crate) fn result_or_error(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("type");
    }
    json!({
        "type": "object",
        "description": "The tool's result, or {\"error\": {\"code\", \"message\"}} when the call failed.",
        "anyOf": [v, error_schema()],
    })
}

/// The error object of a failed call: `{"error": {"code", "message", ...details}}`.
fn error_schema() -> Value {
    let codes: Vec<&str> = crate::ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    json!({
        "type": "object",
        "description": "A failed call.",
        "required": ["error"],
        "properties": {"error": {
            "type": "object",
            "description": "The stable code, a message saying what to do next, and optional details.",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "enum": codes, "description": "The stable error code."},
                "message": {"type": "string", "description": "What went wrong and what to do next."}
            }
        }}
    })
}

impl std::fmt::Display for ToolName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

fn schema_of<T: JsonSchema>() -> Value {
    portable_of::<T>(Side::Input)
}

fn output_of<T: JsonSchema>() -> Value {
    portable_of::<T>(Side::Output)
}

pub(crate) fn portable_of<T: JsonSchema>(side: Side) -> Value {
    let mut v = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(json!({"type": "object"}));
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
        // A type's doc may hold a doctest: the example is for Rust readers, not for a model.
        if let Some(Value::String(d)) = o.get_mut("description") {
            if let Some(i) = d.find("```") {
                d.truncate(i);
                let t = d.trim_end().to_string();
                *d = t;
            }
        }
        o.insert("additionalProperties".into(), json!(false));
    }
    crate::tools::schema::portable(v, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every property of every schema is described, and no construct outside the portable subset
    /// is left (see `schema.rs`).
    #[test]
    fn schemas_are_portable_and_described() {
        fn walk(v: &Value, at: &str) {
            if let Some(props) = v.get("properties").and_then(Value::as_object) {
                for (k, p) in props {
                    assert!(
                        p.get("description").is_some(),
                        "{at}.{k} has no description"
                    );
                    walk(p, &format!("{at}.{k}"));
                }
            }
            if let Some(items) = v.get("items") {
                walk(items, &format!("{at}[]"));
            }
        }
        for t in ToolName::ALL {
            let s = t.input_schema();
            walk(s, t.as_str());
            walk(&t.output_schema()["anyOf"][0], &format!("{t} result"));
            let text = s.to_string();
            for bad in ["$ref", "$defs", "\"null\"", "\"format\":", "oneOf", "const"] {
                assert!(!text.contains(bad), "{t}: {bad} in {text}");
            }
        }
    }

    #[test]
    fn names_round_trip_and_schemas_are_objects() {
        for t in ToolName::ALL {
            assert_eq!(ToolName::parse(t.as_str()), Some(*t));
            assert_eq!(t.input_schema()["type"], "object", "{t}");
        }
        assert_eq!(ToolName::parse("nope"), None);
    }
}
