//! Operator policy: roots, deny rules, limits and modes. Serde-friendly and built with [`PolicyBuilder`].

pub use crate::core::limits::Limits;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One named read root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootSpec {
    /// A short name for audit events and messages (defaults to the directory's file name).
    #[serde(default)]
    pub name: String,
    /// The directory (absolute, or relative to the process's working directory or the config file).
    pub path: PathBuf,
}

/// How symbolic links met while resolving a requested path are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymlinkMode {
    /// Follow relative symlinks whose target stays beneath the root; refuse absolute ones and any that leave.
    #[default]
    Inside,
    /// Refuse every symlink at any component.
    Never,
}

/// How paths are shown in results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PathDisplay {
    /// Canonical absolute paths (accepted back by every tool).
    #[default]
    Absolute,
    /// Paths relative to their root.
    Relative,
}

/// What happens to a root that cannot be opened when the sandbox is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootMode {
    /// Fail construction with an error naming the root.
    #[default]
    Strict,
    /// Drop the root with a `tracing` warning.
    Lenient,
}

/// The whole operator policy of one sandbox.
///
/// ```
/// let p: rootbound::Policy = serde_json::from_str(r#"{"roots": [{"path": "."}], "deny": [".env"]}"#).unwrap();
/// assert_eq!(p.limits.max_read_bytes, 65536);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// Read roots, tried in order for relative paths.
    pub roots: Vec<RootSpec>,
    /// Deny rules in gitignore syntax, matched against the resolved root-relative path.
    pub deny: Vec<String>,
    /// Symlink handling for requested paths.
    pub symlinks: SymlinkMode,
    /// Strict or lenient root opening.
    pub root_mode: RootMode,
    /// How paths are shown in results.
    pub path_display: PathDisplay,
    /// Search hidden files by default.
    pub hidden: bool,
    /// Ignore `.gitignore`/`.ignore`/`.rgignore` by default.
    pub no_ignore: bool,
    /// Refuse regular files with more than one hard link (they may alias an inode outside the roots).
    pub refuse_hardlinks: bool,
    /// Limits.
    pub limits: Limits,
    /// The optional write root.
    pub write: Option<WritePolicy>,
}

/// The opt-in write capability: one directory, create-only unless overwrite is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WritePolicy {
    /// The one write root.
    pub root: PathBuf,
    /// Largest content of one write, in bytes.
    #[serde(default = "default_max_write")]
    pub max_write_bytes: u64,
    /// Allow replacing existing files (the call must also say `overwrite: true`).
    #[serde(default)]
    pub allow_overwrite: bool,
    /// Allow delete_file.
    #[serde(default)]
    pub allow_delete: bool,
    /// Create missing parent directories.
    #[serde(default = "yes")]
    pub create_parents: bool,
}

fn default_max_write() -> u64 {
    5 * 1024 * 1024
}
fn yes() -> bool {
    true
}

impl WritePolicy {
    /// A write policy with defaults for `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        WritePolicy {
            root: root.into(),
            max_write_bytes: default_max_write(),
            allow_overwrite: false,
            allow_delete: false,
            create_parents: true,
        }
    }
}

impl Policy {
    /// Starts a builder.
    ///
    /// ```
    /// let policy = rootbound::Policy::builder().root("/srv/data").deny(".env").max_read_bytes(4096).policy();
    /// assert_eq!(policy.roots.len(), 1);
    /// ```
    pub fn builder() -> PolicyBuilder {
        PolicyBuilder::default()
    }
}

/// Builds a [`Policy`] (and, with [`PolicyBuilder::build`], a [`crate::Sandbox`]).
#[derive(Debug, Clone, Default)]
pub struct PolicyBuilder {
    policy: Policy,
    /// A caller's search pool, kept beside the (serde) policy.
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

impl PolicyBuilder {
    /// Adds a read root named after its directory.
    pub fn root(mut self, path: impl Into<PathBuf>) -> Self {
        self.policy.roots.push(RootSpec {
            name: String::new(),
            path: path.into(),
        });
        self
    }
    /// Adds a named read root.
    pub fn named_root(mut self, name: &str, path: impl Into<PathBuf>) -> Self {
        self.policy.roots.push(RootSpec {
            name: name.to_string(),
            path: path.into(),
        });
        self
    }
    /// Adds a deny rule (gitignore syntax).
    pub fn deny(mut self, glob: &str) -> Self {
        self.policy.deny.push(glob.to_string());
        self
    }
    /// Sets the symlink mode.
    pub fn symlinks(mut self, mode: SymlinkMode) -> Self {
        self.policy.symlinks = mode;
        self
    }
    /// Sets strict or lenient root opening.
    pub fn root_mode(mut self, mode: RootMode) -> Self {
        self.policy.root_mode = mode;
        self
    }
    /// Sets the path display.
    pub fn path_display(mut self, display: PathDisplay) -> Self {
        self.policy.path_display = display;
        self
    }
    /// Sets the read_file page cap.
    pub fn max_read_bytes(mut self, n: u64) -> Self {
        self.policy.limits.max_read_bytes = n;
        self
    }
    /// Replaces all limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.policy.limits = limits;
        self
    }
    /// Sets the number of threads of the search pool (0 = CPUs).
    pub fn threads(mut self, n: usize) -> Self {
        self.policy.limits.threads = n;
        self
    }
    /// Runs the sandbox's searches on this pool instead of one of its own (see
    /// [`crate::Sandbox::with_thread_pool`]); `threads` is then unused. [`PolicyBuilder::policy`]
    /// does not carry it.
    pub fn thread_pool(mut self, pool: std::sync::Arc<rayon::ThreadPool>) -> Self {
        self.pool = Some(pool);
        self
    }
    /// Sets the default call timeout.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.policy.limits.timeout_ms = ms;
        self
    }
    /// Configures the write root.
    pub fn write(mut self, write: WritePolicy) -> Self {
        self.policy.write = Some(write);
        self
    }
    /// Returns the policy.
    pub fn policy(self) -> Policy {
        self.policy
    }
    /// The policy and the caller's thread pool, for `Sandbox` to build from (see
    /// `PolicyBuilder::build` in `core::sandbox`: the policy knows nothing of the sandbox).
    pub(crate) fn into_parts(self) -> (Policy, Option<std::sync::Arc<rayon::ThreadPool>>) {
        (self.policy, self.pool)
    }
}
