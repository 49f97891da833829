//! The numeric limits of a policy, written once: [`LIMITS`] is the one table of limit fields (name,
//! type, default, doc, the CLI short flag, the tool-section keys that set it), and the [`Limits`]
//! struct with its `Default` is generated from the same rows by `limit_table!`.
//!
//! Everything else that names limit fields reads the table: the config file's `[agents.X.limits]`
//! keys and per-tool settings (`config::schema`), and the command line's limit flags (`cli/limits.rs`
//! builds one clap argument per row). Adding a row adds the field, its default, its config key, its
//! tool settings and its flag.

use serde::{Deserialize, Serialize};

/// The Rust type of a limit field (its range: a `usize` field refuses a value above `usize::MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitType {
    /// `u64`.
    U64,
    /// `usize`.
    Usize,
}

/// The unit a tool-section key is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolUnit {
    /// The field's own unit.
    Same,
    /// Seconds (an integer or a float, positive, at most 1e9) for a field in milliseconds.
    Seconds,
}

/// A key of a config file's `[agents.X.tools.TOOL]` section that sets a limit for that tool only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolKey {
    /// The tool whose section accepts the key (`read_file`, `grep_search`, `glob`, `list_dir`, `stat`).
    pub tool: &'static str,
    /// The key in that section (`read_file`'s `max_bytes` sets `max_read_bytes`).
    pub key: &'static str,
    /// The unit the key is written in.
    pub unit: ToolUnit,
}

impl ToolKey {
    const fn same(tool: &'static str, key: &'static str) -> ToolKey {
        ToolKey {
            tool,
            key,
            unit: ToolUnit::Same,
        }
    }
    const fn secs(tool: &'static str) -> ToolKey {
        ToolKey {
            tool,
            key: "timeout_secs",
            unit: ToolUnit::Seconds,
        }
    }
}

/// One row of [`LIMITS`]: a field of [`Limits`] and everything that reads or sets it.
#[derive(Debug, Clone, Copy)]
pub struct LimitField {
    /// The field name: the key under `[agents.X.limits]`, and `--NAME` (with `-` for `_`) on the
    /// command line.
    pub name: &'static str,
    /// Its type.
    pub ty: LimitType,
    /// Its default.
    pub default: u64,
    /// Its documentation (the field's rustdoc and the flag's help).
    pub doc: &'static str,
    /// A one-letter command-line flag, when it has one.
    pub short: Option<char>,
    /// The tool sections that accept a key for it, in tool listing order. A tool that does not use a
    /// limit has no key for it, so no section accepts a setting that would be ignored.
    pub tools: &'static [ToolKey],
    get: fn(&Limits) -> u64,
    set: fn(&mut Limits, u64) -> bool,
}

impl LimitField {
    /// The field's value in `limits`.
    pub fn get(&self, limits: &Limits) -> u64 {
        (self.get)(limits)
    }

    /// Sets the field; false (and nothing set) when `value` does not fit its type.
    pub fn set(&self, limits: &mut Limits, value: u64) -> bool {
        (self.set)(limits, value)
    }

    /// The row named `name`.
    pub fn named(name: &str) -> Option<&'static LimitField> {
        LIMITS.iter().find(|f| f.name == name)
    }
}

impl Limits {
    /// One call's time budget: what the arguments ask (`timeout_ms`), never more than the policy's
    /// timeout, which is also the default.
    pub fn call_timeout(&self, asked_ms: Option<u64>) -> std::time::Duration {
        std::time::Duration::from_millis(
            asked_ms.map_or(self.timeout_ms, |t| t.min(self.timeout_ms)),
        )
    }
}

macro_rules! limit_type {
    (u64) => {
        LimitType::U64
    };
    (usize) => {
        LimitType::Usize
    };
}

/// Generates `Limits`, its `Default` and `LIMITS` from one list of rows.
macro_rules! limit_table {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ident = $default:expr, short: $short:expr, tools: $tools:expr;
    )+) => {
        /// Numeric limits. Every call is bounded by these (the fields and defaults are the rows of
        /// [`LIMITS`]).
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Limits {
            $($(#[doc = $doc])+ pub $name: $ty,)+
        }

        impl Default for Limits {
            fn default() -> Self {
                Limits { $($name: $default,)+ }
            }
        }

        /// The limit fields, in [`Limits`] order.
        pub const LIMITS: &[LimitField] = &[$(
            LimitField {
                name: stringify!($name),
                ty: limit_type!($ty),
                default: {
                    let d: $ty = $default;
                    d as u64
                },
                doc: concat!($($doc),+),
                short: $short,
                tools: $tools,
                get: |l| l.$name as u64,
                set: |l, v| match <$ty>::try_from(v) {
                    Ok(v) => {
                        l.$name = v;
                        true
                    }
                    Err(_) => false,
                },
            },
        )+];
    };
}

/// The most the searcher's buffer may take for one file (grep-searcher's heap limit): a file
/// that needs more (a line, with the context lines kept beside it, or a file a multiline search
/// reads whole) is recorded `too_large`. A buffer grows past [`SEARCH_FIRST_HEAP`] only with
/// [`SEARCH_HEAP_RESERVE`] bytes reserved from the call's memory budget.
pub(crate) const SEARCH_HEAP_LIMIT: usize = 64 << 20;

/// The searcher's buffer of each search thread, outside the call's memory budget: a file whose
/// line (or, in multiline mode, whole text) needs more is searched again with
/// [`SEARCH_HEAP_LIMIT`] once [`SEARCH_HEAP_RESERVE`] is reserved.
pub(crate) const SEARCH_FIRST_HEAP: usize = 1 << 20;

/// What a search with [`SEARCH_HEAP_LIMIT`] reserves from the call's memory budget: the buffer
/// and, while it grows, the copy of its previous size.
pub(crate) const SEARCH_HEAP_RESERVE: u64 = 2 * SEARCH_HEAP_LIMIT as u64;

const TIMEOUT_TOOLS: &[ToolKey] = &[
    ToolKey::secs("read_file"),
    ToolKey::secs("grep_search"),
    ToolKey::secs("glob"),
    ToolKey::secs("list_dir"),
];

limit_table! {
    /// Largest read_file page in bytes (the `limit` argument is capped at this).
    max_read_bytes: u64 = 64 * 1024, short: None, tools: &[ToolKey::same("read_file", "max_bytes")];
    /// Longest line in read_file's line mode, in characters, before it is cut with a marker.
    max_line_chars: usize = 2000, short: None, tools: &[ToolKey::same("read_file", "max_line_chars")];
    /// Longest accepted request path in bytes.
    max_path_len: usize = 4096, short: None, tools: &[];
    /// Longest accepted path component in bytes.
    max_component_len: usize = 255, short: None, tools: &[];
    /// Largest grep/glob page in bytes.
    max_bytes: usize = 32 * 1024, short: None,
        tools: &[ToolKey::same("grep_search", "max_bytes"), ToolKey::same("glob", "max_bytes")];
    /// Hard cap on the `limit` argument of grep_search and glob.
    max_results: usize = 100, short: None,
        tools: &[ToolKey::same("grep_search", "max_results"), ToolKey::same("glob", "max_results")];
    /// Hard cap on the `limit` argument of list_dir.
    max_list_entries: usize = 1000, short: None, tools: &[ToolKey::same("list_dir", "max_entries")];
    /// Default and largest wall-clock budget of one call, in milliseconds.
    timeout_ms: u64 = 10_000, short: None, tools: TIMEOUT_TOOLS;
    /// Compiled regex size limit in bytes.
    regex_size_limit: usize = 2 * 1024 * 1024, short: None, tools: &[];
    /// Lazy DFA cache limit per search thread, in bytes.
    dfa_size_limit: usize = 8 * 1024 * 1024, short: None, tools: &[];
    /// Longest accepted pattern or glob, in bytes.
    max_pattern_len: usize = 64 * 1024, short: None, tools: &[];
    /// Files larger than this are skipped by grep_search (counted as `too_large`).
    max_filesize: u64 = 256 * 1024 * 1024, short: None,
        tools: &[ToolKey::same("grep_search", "max_filesize")];
    /// Output lines of grep_search are cut to this many characters around the first match.
    max_columns: usize = 500, short: None, tools: &[ToolKey::same("grep_search", "max_columns")];
    /// Threads of the sandbox's search pool (0 = the number of CPUs), started on the first
    /// grep_search and shared by all its calls; unused when the caller supplies a pool.
    threads: usize = 0, short: Some('j'), tools: &[ToolKey::same("grep_search", "threads")];
    /// Memory one call may hold in proportion to its input, in bytes, whatever its number of
    /// threads: documents being extracted (bytes, parsed structures, text) and search buffers grown
    /// for long lines or multiline files are reserved from it; a thread waits for room (within the
    /// call's deadline), and a need larger than all of it is refused (`too_large`, or
    /// `memory_bytes` for a document). Each search thread keeps a small fixed working set beside
    /// it (docs/capabilities.md).
    max_call_memory: u64 = 256 * 1024 * 1024, short: None, tools: &[];
    /// Memory one root's n-gram index may hold, in bytes (`Sandbox::with_index`, `rootbound mcp
    /// --index`); over it the root is not indexed and its searches run unindexed.
    index_max_bytes: u64 = 1024 * 1024 * 1024, short: None, tools: &[];
    /// Largest file the n-gram index reads (or `max_filesize`, if smaller); a larger one gets no
    /// entry and is searched as without an index.
    index_max_file_bytes: u64 = 256 * 1024 * 1024, short: None, tools: &[];
    /// The largest MCP request over stdio (`rootbound mcp`), in bytes: a longer line is answered
    /// with a JSON-RPC parse error and skipped unread. Whatever its length, a request whose parsed
    /// JSON would take more than `max_call_memory` is refused before it is parsed.
    max_request_bytes: usize = 16 * 1024 * 1024, short: None, tools: &[];
    /// The HTTP door (`rootbound mcp --http`, read from the default agent): connections served at
    /// once; more wait to be accepted.
    http_max_connections: usize = 256, short: None, tools: &[];
    /// The HTTP door (read from the default agent): the largest request body in bytes (413 over
    /// it, before it is read whole when `Content-Length` says so); default the longest line stdio
    /// reads.
    http_max_body_bytes: usize = 16 * 1024 * 1024, short: None, tools: &[];
    /// The HTTP door (read from the default agent): milliseconds a request's headers, and then its
    /// body, may take to arrive (else the connection is closed, or 408).
    http_read_timeout_ms: u64 = 30_000, short: None, tools: &[];
    /// The HTTP door (read from each token's agent): POST requests, their response streams
    /// included, one token may have open at once (429 past it).
    http_requests_per_token: usize = 32, short: None, tools: &[];
    /// The HTTP door (read from each token's agent): sessions one token may hold open at once; an
    /// `initialize` past it is refused (HTTP 429, JSON-RPC error `-32005`, `SESSION_LIMIT`) until a
    /// session ends (DELETE, or 5 minutes idle). Also the event streams (GET) it may hold open at
    /// once (HTTP 429 past it).
    http_sessions_per_token: usize = 64, short: None, tools: &[];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_the_struct_agree() {
        let d = Limits::default();
        let json = serde_json::to_value(&d).unwrap();
        let obj = json.as_object().unwrap();
        assert_eq!(obj.len(), LIMITS.len());
        for f in LIMITS {
            assert_eq!(f.get(&d), f.default);
            assert_eq!(obj[f.name].as_u64(), Some(f.default), "{}", f.name);
            assert!(!f.doc.trim().is_empty());
        }
        let mut l = Limits::default();
        for (i, f) in LIMITS.iter().enumerate() {
            assert!(f.set(&mut l, 1000 + i as u64));
        }
        for (i, f) in LIMITS.iter().enumerate() {
            assert_eq!(f.get(&l), 1000 + i as u64, "{} sets its own field", f.name);
        }
        assert_eq!(LimitField::named("threads").unwrap().short, Some('j'));
        assert!(LimitField::named("bogus").is_none());
    }
}
