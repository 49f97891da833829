//! The file model: the parsed tree of a configuration text, the same for TOML and JSON (so a type
//! error names the same types in both), its key paths, and the keys each table accepts.
//!
//! The tree is read by hand ([`super::reader`]) rather than deserialized into serde structs: serde
//! stops at the first error, while the reader reports every problem with its key path.

use super::problems::ConfigError;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

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

/// Parses configuration text into the tree (a syntax error is the one problem).
pub(super) fn parse(text: &str, format: Format) -> Result<Node, ConfigError> {
    match format {
        Format::Toml => match toml::from_str::<toml::Table>(text) {
            Ok(t) => Ok(Node::from_toml(toml::Value::Table(t))),
            Err(e) => Err(ConfigError::one(
                None,
                "",
                format!("not valid TOML: {}", e.to_string().trim_end()),
            )),
        },
        Format::Json => match serde_json::from_str::<Value>(text) {
            Ok(v) => Ok(Node::from_json(v)),
            Err(e) => Err(ConfigError::one(None, "", format!("not valid JSON: {e}"))),
        },
    }
}

/// One value of the tree.
#[derive(Debug, Clone)]
pub(super) enum Node {
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

    /// The type as a problem names it (`a string`, `an integer`, ...).
    pub(super) fn kind(&self) -> &'static str {
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
pub(super) fn key_part(k: &str) -> String {
    if !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

/// `parent.k`, `k` quoted when needed.
pub(super) fn join(parent: &str, k: &str) -> String {
    if parent.is_empty() {
        key_part(k)
    } else {
        format!("{parent}.{}", key_part(k))
    }
}

/// The keys of an `[agents.NAME]` table.
pub(super) const AGENT_KEYS: &[&str] = &[
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
    "index",
    "index_verify",
    "index_dir",
];
/// The keys of an `[agents.NAME.write]` table.
pub(super) const WRITE_KEYS: &[&str] = &[
    "root",
    "max_write_bytes",
    "allow_overwrite",
    "allow_delete",
    "create_parents",
];
