//! # rootbound
//!
//! Root-bound, in-process file tools for LLM agents: `read_file`, `grep_search`, `glob`, `list_dir`,
//! `stat`, and an opt-in `write_file`, all confined to directories an operator chose.
//!
//! ## The security contract
//! - Every open of an agent-derived path goes through one function ([`open`](crate) internally):
//!   handle-relative `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS` on Linux (cap-std's
//!   per-component resolver elsewhere), `O_NONBLOCK|O_NOCTTY|O_CLOEXEC`, type and size from `fstat` on
//!   the opened descriptor, regular files only. No `std::fs` call takes an agent-influenced path.
//! - `..` above a root, absolute paths outside the roots, absolute symlinks and symlinks leading out are
//!   `OUT_OF_SANDBOX`; renames and symlink swaps during a call cannot redirect it outside.
//! - Deny rules are matched on the resolved path of the object actually opened.
//! - The walker reads directories through handles, never follows symlinks, and consults no file above
//!   the roots (no global gitignore, no parent `.gitignore`).
//! - Every call is bounded in bytes, results, pattern size, regex size and time.
//!
//! Not promised: hard links to inodes outside the roots (set `refuse_hardlinks`), bind mounts inside
//! a root, timing side channels.
//!
//! ```
//! use rootbound::{Sandbox, GrepArgs};
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.rs"), "fn main() {}\n").unwrap();
//! let sb = Sandbox::builder().root(dir.path()).build().unwrap();
//! let page = sb.grep_search(&GrepArgs::new("fn main")).unwrap();
//! assert_eq!(page.match_lines, 1);
//! assert!(!page.truncated);
//! ```

pub mod config;
mod core;
mod search;
mod tools;
mod walk;

pub use crate::core::deadline::{Budget, Deadline};
pub use crate::core::deny::DenyRules;
pub use crate::core::error::{Error, ErrorCode, Result};
pub use crate::core::open::{force_portable_resolver, Kind};
pub use crate::core::policy::{
    Limits, PathDisplay, Policy, PolicyBuilder, RootMode, RootSpec, SymlinkMode, WritePolicy,
};
pub use crate::core::sandbox::Sandbox;
pub use crate::tools::edit::{Edit, EditArgs, EditResult};
pub use crate::tools::fsops::{FsOpResult, MkdirArgs, MoveArgs};
pub use crate::tools::many::{ManyFile, ReadManyArgs, ReadManyResult};
pub use crate::tools::media::{MediaArgs, MediaResult, MAX_MEDIA_BYTES};
pub use crate::tools::meta::{RootEntry, RootsArgs, RootsResult};
pub use crate::tools::tree::{TreeArgs, TreeNode, TreeOmitted, TreeResult};
pub use crate::tools::ToolName;
pub use search::args::{
    FileCount, Globs, GrepArgs, GrepResult, Hit, HitKind, OutputFormat, MAX_OFFSET,
};
pub use search::file::OutputMode;
pub use search::glob::{GlobArgs, GlobSort};
pub use search::page::{Skipped, Stats};
pub use tools::meta::{Entry, ListArgs, ListResult, StatArgs, StatResult};
pub use tools::read::{ReadArgs, ReadResult};
pub use tools::write::{ContentEncoding, DeleteArgs, WriteArgs, WriteResult};
pub use tools::ToolInfo;
