//! The engine: the core sandbox (roots, gate, policy, search pool) and the n-gram index it serves
//! with, as a typed value. It is what the crate calls [`crate::Sandbox`]: the type users build and
//! call. The tool methods are the engine's (plain, in `tools`) and its [`Within`]'s (within a
//! caller's budget, in `search` and `tools`), so a search gets the index as a value and the core
//! never holds one. It is a layer of its own, above `index` and below `search` and `tools`, so that
//! both can take it.

pub(crate) mod within;

use crate::core::deadline::Budget;
use crate::core::error::Result;
use crate::core::policy::{Policy, PolicyBuilder};
use crate::core::sandbox::Sandbox as Core;
use crate::index::{IndexOptions, IndexStatus, Owner};
use std::path::PathBuf;
use std::sync::Arc;

/// A root-confined view of some directories. Cheap to share across threads (`Sync`) and cheap to
/// clone: clones share the roots, the policy, the search thread pool and the index (each clone has
/// its own agent name for audit events).
///
/// Searches run on one `rayon` thread pool per sandbox, built on the first `grep_search` with
/// `limits.threads` threads (0 = CPUs), or the one given to [`Sandbox::with_thread_pool`].
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "hello\n").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let r = sb.read_file(&rootbound::ReadArgs::path("a.txt")).unwrap();
/// assert_eq!(r.content, "hello\n");
/// assert_eq!(sb.read_file(&rootbound::ReadArgs::path("../x")).unwrap_err().code,
///            rootbound::ErrorCode::OutOfSandbox);
/// ```
#[derive(Debug, Clone)]
pub struct Engine {
    core: Core,
    /// The n-gram index, when enabled: its owner, shared by the host's clones (dropping the last
    /// one stops the index's background work, which holds the index itself, never an owner).
    index: Option<Arc<Owner>>,
}

pub use within::Within;
/// Named so in the doc links of this module.
use Engine as Sandbox;

impl From<Core> for Engine {
    fn from(core: Core) -> Engine {
        Engine { core, index: None }
    }
}

impl PolicyBuilder {
    /// Opens the roots and returns the sandbox.
    pub fn build(self) -> Result<Sandbox> {
        self.build_core().map(Engine::from)
    }
}

impl Engine {
    /// A builder for the policy and the sandbox.
    pub fn builder() -> PolicyBuilder {
        PolicyBuilder::default()
    }

    /// Opens every root of `policy` as a directory handle.
    ///
    /// In strict mode (the default) a root that cannot be opened is an error naming it; in lenient mode
    /// it is dropped with a warning, and with no roots left every call answers `OUT_OF_SANDBOX`.
    pub fn new(policy: Policy) -> Result<Self> {
        Core::new(policy).map(Engine::from)
    }

    /// Runs this sandbox's searches on `pool` (shared with whatever else runs there) instead of a pool
    /// of its own. A call made from a thread of that pool searches on its own thread, so it cannot
    /// wait for tasks queued behind it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
    /// let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap());
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap().with_thread_pool(pool.clone());
    /// let page = pool.install(|| sb.grep_search(&rootbound::GrepArgs::new("needle"))).unwrap();
    /// assert_eq!(page.match_lines, 1);
    /// ```
    pub fn with_thread_pool(self, pool: Arc<rayon::ThreadPool>) -> Self {
        self.map_core(|c| c.with_thread_pool(pool))
    }

    /// Names the agent this sandbox serves, for audit events.
    pub fn with_agent(self, agent: impl Into<String>) -> Self {
        self.map_core(|c| c.with_agent(agent))
    }

    /// This sandbox with its core sandbox replaced by `f`'s (the index kept).
    pub(crate) fn map_core(self, f: impl FnOnce(Core) -> Core) -> Self {
        Engine {
            core: f(self.core),
            index: self.index,
        }
    }

    /// The core sandbox: what locates, opens and admits, shows paths, and makes the mutations.
    pub(crate) fn core(&self) -> &Core {
        &self.core
    }

    /// The n-gram index the searches use, when there is one.
    pub(crate) fn index(&self) -> Option<&Arc<crate::index::Index>> {
        self.index.as_deref().map(Owner::index)
    }

    /// This sandbox's tools within `budget` (see [`Within`]).
    pub fn within(&self, budget: &Budget) -> Within<'_> {
        Within::new(self, budget)
    }

    /// This sandbox's tools within a budget of their own: the policy's timeout, no cancel switch.
    pub(crate) fn fresh(&self) -> Within<'_> {
        self.within(&Budget::new())
    }

    /// [`Sandbox::with_index_options`] with the defaults: every root indexed, change reports used
    /// where the filesystem has them.
    pub fn with_index(self) -> Sandbox {
        self.with_index_options(IndexOptions::default())
    }

    /// Starts building an n-gram index of every root in the background (on threads of its own at
    /// the lowest scheduling priority, as many as the search pool), and returns the sandbox, whose
    /// clones share the index. Until a root's index is ready its searches run unindexed; results
    /// never differ either way. A host keeps the index by keeping this sandbox (or a clone) for as
    /// long as it serves calls. Over `limits.index_max_bytes` a root is not indexed
    /// ([`Sandbox::index_status`] says why).
    pub fn with_index_options(mut self, options: IndexOptions) -> Sandbox {
        self.index = Some(crate::index::start(&self.core, options));
        self
    }

    /// Serves with the index of `other` when this sandbox has none (sandboxes of one agent share
    /// the index of the one that serves grep_search).
    pub(crate) fn share_index_of(&mut self, other: &Sandbox) {
        if self.index.is_none() {
            self.index = other.index.clone();
        }
    }

    /// The index state of every root (empty without [`Sandbox::with_index`]).
    pub fn index_status(&self) -> Vec<IndexStatus> {
        self.index
            .as_ref()
            .map_or_else(Vec::new, |o| o.index().status(&self.core))
    }

    /// Waits until no root's index is building (or serving a saved index while it is built
    /// again), no walk is being recorded and no changed file is being described again, at most
    /// `timeout`; true when none is.
    pub fn wait_for_index(&self, timeout: std::time::Duration) -> bool {
        self.index
            .as_ref()
            .is_none_or(|o| o.index().wait(&self.core, timeout))
    }
}

/// The questions core's sandbox answers for users, asked of the engine so that they are
/// documented on [`crate::Sandbox`].
impl Engine {
    /// The policy this sandbox was built from.
    pub fn policy(&self) -> &Policy {
        self.core.policy()
    }

    /// The roots' names and canonical paths, in order.
    pub fn roots(&self) -> Vec<(String, PathBuf)> {
        self.core.roots()
    }
}
