//! The catalog of tools: the one table of rows ([`Tool`]), declaring [`ToolName`], and the schemas
//! read from the rows (generated once per process, not per call).

use crate::tools::schema::Side;
use crate::tools::tool::{Tool, Visit};
use crate::tools::{edit, fsops, media, read, read_many, search, stat_list, tree, write};
use schemars::JsonSchema;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// Declares [`ToolName`] from the table of rows: one variant per tool, in listing order, and the
/// row ([`Tool`]) behind it.
macro_rules! tool_table {
    ($(#[$enum_attr:meta])* {
        $( $(#[$doc:meta])* $variant:ident => $row:ty: $method:ident($args:ty) -> $out:ty, )*
    }) => {
        $(#[$enum_attr])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ToolName {
            $( $(#[$doc])* $variant, )*
        }

        impl ToolName {
            /// Every tool, in listing order (read tools first).
            pub const ALL: &'static [ToolName] = &[$(ToolName::$variant,)*];

            /// The wire name.
            pub const fn as_str(self) -> &'static str {
                match self { $(ToolName::$variant => <$row as Tool>::NAME,)* }
            }

            /// A short human title (MCP `title`).
            pub fn title(self) -> &'static str {
                match self { $(ToolName::$variant => <$row as Tool>::TITLE,)* }
            }

            /// Whether the tool works in the write root (and so is offered only with one).
            pub const fn needs_write_root(self) -> bool {
                match self { $(ToolName::$variant => <$row as Tool>::WRITES,)* }
            }

            /// Whether the tool works on one file or one directory page, never a walk, and so ends
            /// quickly (a host may run it inline rather than on a thread it can interrupt).
            pub const fn works_on_one_object(self) -> bool {
                match self { $(ToolName::$variant => <$row as Tool>::ONE_OBJECT,)* }
            }

            /// Whether the tool's results show what files hold, not only names and metadata.
            pub const fn reads_content(self) -> bool {
                match self { $(ToolName::$variant => <$row as Tool>::READS_CONTENT,)* }
            }

            /// Each plain method's name beside its tool's wire name (they must be the same).
            #[cfg(test)]
            const METHODS: &'static [(&'static str, &'static str)] =
                &[$((stringify!($method), <$row as Tool>::NAME),)*];

            /// Asks `v` of this tool's row.
            pub(crate) fn visit<V: Visit>(self, v: V) -> V::Out {
                match self { $(ToolName::$variant => v.visit::<$row>(),)* }
            }
        }

        // The plain tool methods: each is the `Within` method of the same name with a budget of
        // its own (the policy's timeout, no cancel switch). For a tighter deadline or a cancel
        // switch, call them through `Sandbox::within`.
        impl crate::engine::Engine {
            $(
                #[doc = concat!("[`Within::", stringify!($method), "`](crate::engine::Within::", stringify!($method), ") with a budget of its own.")]
                pub fn $method(&self, args: &$args) -> crate::core::error::Result<$out> {
                    <$row as Tool>::run(&self.fresh(), args)
                }
            )*
        }
    };
}

tool_table! {
    /// Every tool rootbound offers. The string form ([`ToolName::as_str`]) is the wire name.
    ///
    /// ```
    /// use rootbound::ToolName;
    /// assert_eq!(ToolName::parse("grep_search"), Some(ToolName::GrepSearch));
    /// assert_eq!(ToolName::GrepSearch.as_str(), "grep_search");
    /// assert!(ToolName::EditFile.needs_write_root());
    /// ```
    {
        /// Read one page of a text file.
        ReadFile => read::ReadFile: read_file(crate::tools::api::ReadArgs) -> crate::tools::api::ReadResult,
        /// Search file contents.
        GrepSearch => search::GrepSearch: grep_search(crate::search::contract::GrepArgs) -> crate::search::contract::GrepResult,
        /// Find files by name.
        Glob => search::Glob: glob(crate::search::contract::GlobArgs) -> crate::search::contract::GrepResult,
        /// List one directory.
        ListDir => stat_list::ListDir: list_dir(crate::tools::api::ListArgs) -> crate::tools::api::ListResult,
        /// Metadata of one path.
        Stat => stat_list::Stat: stat(crate::tools::api::StatArgs) -> crate::tools::api::StatResult,
        /// Several files under one byte budget.
        ReadManyFiles => read_many::ReadManyFiles: read_many_files(crate::tools::api::ReadManyArgs) -> crate::tools::api::ReadManyResult,
        /// A bounded recursive listing.
        DirectoryTree => tree::DirectoryTree: directory_tree(crate::tools::api::TreeArgs) -> crate::tools::api::TreeResult,
        /// The roots this sandbox serves.
        ListRoots => stat_list::ListRoots: list_roots(crate::tools::api::RootsArgs) -> crate::tools::api::RootsResult,
        /// An image or audio file as base64.
        ReadMediaFile => media::ReadMediaFile: read_media_file(crate::tools::api::MediaArgs) -> crate::tools::api::MediaResult,
        /// Create a file under the write root.
        WriteFile => write::WriteFile: write_file(crate::tools::api::WriteArgs) -> crate::tools::api::WriteResult,
        /// Replace exact text in a file under the write root.
        EditFile => edit::EditFile: edit_file(crate::tools::api::EditArgs) -> crate::tools::api::EditResult,
        /// Create a directory under the write root.
        CreateDirectory => fsops::CreateDirectory: create_directory(crate::tools::api::MkdirArgs) -> crate::tools::api::FsOpResult,
        /// Move or rename within the write root.
        MoveFile => fsops::MoveFile: move_file(crate::tools::api::MoveArgs) -> crate::tools::api::FsOpResult,
        /// Delete a file under the write root.
        DeleteFile => write::DeleteFile: delete_file(crate::tools::api::DeleteArgs) -> crate::tools::api::WriteResult,
    }
}

impl ToolName {
    /// How many tools write (`writes`) or only read.
    pub(crate) const fn count_where(writes: bool) -> usize {
        let (mut i, mut n) = (0, 0);
        while i < Self::ALL.len() {
            if Self::ALL[i].needs_write_root() == writes {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The wire names of the tools that write (`writes`) or only read, in listing order: `N` is
    /// their [`ToolName::count_where`]. For constants built from the table.
    pub(crate) const fn names_where<const N: usize>(writes: bool) -> [&'static str; N] {
        let mut out = [""; N];
        let (mut i, mut n) = (0, 0);
        while i < Self::ALL.len() {
            if Self::ALL[i].needs_write_root() == writes {
                out[n] = Self::ALL[i].as_str();
                n += 1;
            }
            i += 1;
        }
        out
    }

    /// The tool of a wire name.
    pub fn parse(name: &str) -> Option<ToolName> {
        Self::ALL.iter().copied().find(|t| t.as_str() == name)
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
        let all = SCHEMAS.get_or_init(|| Self::ALL.iter().map(|t| t.visit(InputSchema)).collect());
        &all[self.position()]
    }

    /// The JSON Schema of the tool's result (MCP `outputSchema`), built once per process.
    pub fn output_schema(self) -> &'static Value {
        static SCHEMAS: OnceLock<Vec<Value>> = OnceLock::new();
        let all = SCHEMAS.get_or_init(|| Self::ALL.iter().map(|t| t.visit(OutputSchema)).collect());
        &all[self.position()]
    }

    /// The tool's place in [`ToolName::ALL`].
    fn position(self) -> usize {
        Self::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// A row's input schema: the argument type's, in the portable subset, saying the zero rule.
struct InputSchema;

impl Visit for InputSchema {
    type Out = Value;
    fn visit<T: Tool>(self) -> Value {
        let mut v = crate::tools::args::admit_zero(schema_of::<T::Args>(), T::UNSET);
        T::finish_input(&mut v);
        v
    }
}

/// A row's output schema: the result type's, open to new fields, or the error object.
struct OutputSchema;

impl Visit for OutputSchema {
    type Out = Value;
    fn visit<T: Tool>(self) -> Value {
        let mut v = output_of::<T::Output>();
        T::finish_output(&mut v);
        // Results may grow fields in later versions: a client validating today's schema must not
        // reject them.
        if let Some(o) = v.as_object_mut() {
            o.remove("additionalProperties");
            o.remove("type");
        }
        result_or_error(v)
    }
}

/// The JSON Schema dialect every output schema names. The official Python SDK client checks the
/// output schema against its dialect's metaschema on every call before validating
/// `structuredContent`; with no `$schema` that is 2020-12, whose metaschema costs it about 5x the
/// draft-07 one (3.3 vs 0.9 ms on a text tool's schema, 24 vs 5 ms on `glob`'s). The schemas use
/// nothing that reads differently in the two drafts (tests/js/check_schemas.mjs compiles them as
/// both), and the MCP reference filesystem server names draft-07 too.
pub(crate) const OUTPUT_DIALECT: &str = "http://json-schema.org/draft-07/schema#";

/// A result schema that also admits the error object: a failed call's structured content is the
/// error object.
pub(crate) fn result_or_error(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("type");
    }
    json!({
        "$schema": OUTPUT_DIALECT,
        "type": "object",
        "description": "The tool's result, or {\"error\": {\"code\", \"message\"}} when the call failed.",
        "anyOf": [v, error_schema()],
    })
}

/// The error object of a failed call: `{"error": {"code", "message", ...details}}`.
fn error_schema() -> Value {
    let codes: Vec<&str> = crate::core::error::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
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

    /// The listing names a method by the public type a caller knows (`rootbound::Sandbox`), as
    /// it did before the engine layer moved the method, not by the path rustdoc needs.
    #[test]
    fn list_roots_names_index_status_by_its_public_type() {
        let text = ToolName::ListRoots.output_schema().to_string();
        assert!(
            text.contains("as `list_roots` and [`Sandbox::index_status`] report it"),
            "{text}"
        );
        assert!(!text.contains("crate::Sandbox::index_status"), "{text}");
    }

    #[test]
    fn tools_that_walk_or_read_many_files_are_not_one_object() {
        use ToolName::*;
        for t in [GrepSearch, Glob, ReadManyFiles, DirectoryTree] {
            assert!(!t.works_on_one_object(), "{}", t.as_str());
        }
        assert!(ReadFile.works_on_one_object() && EditFile.works_on_one_object());
    }

    #[test]
    fn each_plain_method_is_named_as_its_tool() {
        for (method, name) in ToolName::METHODS {
            assert_eq!(method, name);
        }
        assert_eq!(ToolName::METHODS.len(), ToolName::ALL.len());
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
