//! # rootbound
//!
//! Root-bound, in-process file tools for LLM agents: read, grep, glob, list, stat, the everyday tools
//! agents call (edit, read many, tree, media) and an opt-in write root, all confined to directories an
//! operator chose. The agent that supplies paths and patterns is untrusted; the operator who chooses
//! the roots is trusted.
//!
//! ## The security contract
//! - Every filesystem call is made in the confinement core (`core`, internal; `tests/gate/layout.rs` fails
//!   on a `rustix::fs`, `libc`, `std::fs` or cap-std call elsewhere, bar a short list of operator-given
//!   paths). Every open of an agent-derived path goes through one function (`core::open`, private to
//!   core; the layers above open through the gate, which hands out an admitted object only):
//!   handle-relative `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS` on Linux (cap-std's
//!   per-component resolver where openat2 is missing), `O_NONBLOCK|O_NOCTTY|O_CLOEXEC`, type and size
//!   from `fstat` on the opened descriptor, regular files only. No `std::fs` call takes an
//!   agent-influenced path.
//! - Writes go through `core::mutate` too: the parent opened beneath the write root and the name
//!   checked, temporary file, publish (`RENAME_NOREPLACE` or `linkat`), the edit's `RENAME_EXCHANGE`,
//!   `unlinkat`, `mkdirat`, `renameat`, the stale-temporary sweep. A write tool gets a destination
//!   only after the gate admitted it, and each operation checks the gate on what it makes or moves.
//! - Every object a call reaches passes one admission gate (`core::admit`): deny rules matched against
//!   its path relative to every root that contains it, the hard-link policy, and an identity check when
//!   an object is opened again. A denied object is indistinguishable from an absent one.
//! - `..` above a root, absolute paths outside the roots, absolute symlinks and symlinks leading out are
//!   `OUT_OF_SANDBOX`; renames and symlink swaps during a call cannot redirect it outside.
//! - The walker reads directories through handles, never follows symlinks, and consults no file above
//!   the roots (no global gitignore, no parent `.gitignore`).
//! - Every call is bounded in bytes, results, pattern size, regex size and time ([`Limits`]).
//!
//! Not promised: hard links to inodes outside the roots (set `refuse_hardlinks`), bind mounts inside
//! a root, timing side channels.
//!
//! ## Paging
//! Results come in a stable order (paths sorted by bytes, as `rg --sort path`; lines in file order).
//! A page holds at most `limit` results and `max_bytes` bytes; `truncated: true` says more exist or a
//! cap cut the page, and is the only signal to trust (not `match_lines == limit`). A truncated page
//! carries `next_offset` and `next_cursor`: pass the cursor back unchanged with the same query to get
//! the next page. A cursor resumes where the page ended (it skips the files before it without
//! searching them); an offset re-counts from the start and is capped at [`MAX_OFFSET`]. A page cut by
//! the time budget says `timed_out: true` and holds what was found, in order, before it; its cursor
//! resumes at the first file not fully searched. Every call advances, however small its budget: it
//! deals with at least one directory entry past its start, and begins the first file past it, before
//! it honours a deadline that passed meanwhile; so paging by cursor always ends. Skipped files are
//! counted in `stats.skipped`, never silently dropped.
//!
//! ```
//! use rootbound::{GrepArgs, Sandbox};
//! let dir = tempfile::tempdir().unwrap();
//! for i in 0..5 {
//!     std::fs::write(dir.path().join(format!("f{i}.txt")), "needle\nhay\nneedle\n").unwrap();
//! }
//! let sb = Sandbox::builder().root(dir.path()).build().unwrap();
//! let mut args = GrepArgs::new("needle");
//! args.limit = Some(3);
//! let mut lines = 0;
//! loop {
//!     let page = sb.grep_search(&args).unwrap();
//!     lines += page.match_lines;
//!     match page.next_cursor {
//!         Some(c) if page.truncated => args.cursor = Some(c),
//!         _ => break,
//!     }
//! }
//! assert_eq!(lines, 10);
//! ```
//!
//! ## Threads, budgets and cancellation
//! A [`Sandbox`] is cheap to clone and shares one `rayon` thread pool among every call made on it
//! (sized by `threads`, or supplied with [`PolicyBuilder::thread_pool`]). No OS thread is created per
//! call: the walk and page assembly run on the calling thread, batches of files are searched on the
//! pool, and batches of concurrent calls interleave so a large search does not starve a small one. A
//! call made from a thread of that pool searches inline rather than deadlock. Each call is bounded by
//! its time budget; calls made through [`Sandbox::within`] (or [`config::AgentTools::within`]) with a
//! [`Budget`] (deadline plus a cancel switch) stop at their next check when it is cancelled. The
//! budget is passed down the call as a value ([`Within`]), never kept in thread-local state.
//!
//! ```
//! use rootbound::{Budget, GrepArgs, Sandbox};
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "x\n").unwrap();
//! let sb = Sandbox::builder().root(dir.path()).build().unwrap();
//! let budget = Budget::new();
//! budget.cancel();
//! let err = sb.within(&budget).grep_search(&GrepArgs::new("x")).unwrap_err();
//! assert_eq!(err.code, rootbound::ErrorCode::Cancelled);
//! ```
//!
//! ## Front ends
//! [`Sandbox::call`] takes a tool name and JSON arguments and returns JSON (the agent-loop surface,
//! with schemas from [`Sandbox::tools`]); [`config`] reads an operator's config file into per-agent
//! tool sets; the `rootbound` binary (features `cli`, `mcp`) offers the same tools on the command line
//! and as an MCP server. Every front end reads each tool from its one row: the table in
//! `tools/catalog.rs` declares [`ToolName`] and the typed method of each tool, and each row (a `Tool`
//! impl in the tool's module) holds its names, argument and result types, description, run and
//! rendering, so listing, schemas, dispatch and the text a model reads cannot disagree.

#![deny(missing_docs)]

#[cfg(feature = "tokio")]
pub mod async_tools;
pub mod config;
mod core;
#[cfg(feature = "documents")]
pub mod documents;
mod engine;
mod index;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod rg;
mod search;
mod tools;
mod walk;

pub use crate::core::deadline::{Budget, Progress};
pub use crate::core::deny::DenyRules;
pub use crate::core::error::{Error, ErrorCode, Result};
pub use crate::core::open::{force_portable_resolver, Kind};
pub use crate::core::policy::{
    Limits, PathDisplay, Policy, PolicyBuilder, RootMode, RootSpec, SymlinkMode, WritePolicy,
};
pub use crate::engine::{Engine as Sandbox, Within};
#[doc(hidden)]
pub use crate::index::{
    index_age_at, index_fault_at, index_held, index_hold_at, index_slow_at, index_slow_reads_at,
    index_threads_ended, index_threads_live, IndexPoint,
};
pub use crate::index::{
    IndexDir, IndexOptions, IndexState, IndexStats, IndexStatus, IndexVerify, IndexWhen,
};
pub use crate::tools::api::*;
pub use crate::tools::ToolName;
pub use search::contract::{
    FileCount, GlobArgs, GlobSort, Globs, GrepArgs, GrepResult, Hit, HitKind, OutputFormat,
    OutputMode, Skipped, Stats, MAX_OFFSET,
};
pub use tools::client_roots::file_uri_path;
pub use tools::present::{Block, Presented};
pub use tools::profile::{Profile, SchemaFormat};
pub use tools::render;
pub use tools::ToolInfo;
