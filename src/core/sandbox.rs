//! The sandbox: roots opened once as directory handles, and the request → open step every tool shares.

use crate::core::admit::{Admitted, Gate, Refusal, RootId};
use crate::core::deny::DenyRules;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names;
use crate::core::open::{self, Opened, Want};
use crate::core::policy::{PathDisplay, Policy, PolicyBuilder, RootMode, SymlinkMode};
use crate::core::pool::SearchPool;
use crate::core::resolve::{self, RootPaths};
use crate::core::sys::{self, Dir, SysError};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One read root: a directory handle opened once, and the paths it was known by.
#[derive(Debug)]
pub(crate) struct Root {
    pub(in crate::core) name: String,
    pub(in crate::core) configured: PathBuf,
    pub(in crate::core) canonical: PathBuf,
    pub(in crate::core) dir: Dir,
}

/// The core of a root-confined view of some directories: the roots opened once as directory
/// handles, the policy, the admission gate, the agent's name and the search pool. It locates,
/// opens and admits, shows paths, and makes the mutations; the engine (`tools::engine`, the public
/// [`crate::Sandbox`]) holds it beside the index and carries the tools. Cheap to share across
/// threads (`Sync`) and to clone: clones share the roots, the policy and the search thread pool
/// (each clone has its own agent name for audit events).
#[derive(Debug, Clone)]
pub struct Sandbox {
    pub(in crate::core) policy: Arc<Policy>,
    pub(in crate::core) roots: Arc<[Root]>,
    pub(in crate::core) gate: Arc<Gate>,
    pub(in crate::core) agent: String,
    pub(in crate::core) write_root: Option<Arc<Root>>,
    pub(in crate::core) pool: Arc<SearchPool>,
}

/// The outcome of resolving and opening a request.
pub(crate) struct Located {
    pub root: usize,
    /// The resolved path relative to the root (after symlinks and `..`).
    pub rel: PathBuf,
    pub opened: Admitted<Opened>,
}

impl PolicyBuilder {
    /// Opens the roots and returns the core sandbox (`tools` wraps it in the public one).
    pub(crate) fn build_core(self) -> Result<Sandbox> {
        let (policy, pool) = self.into_parts();
        let sandbox = Sandbox::new(policy)?;
        Ok(match pool {
            Some(pool) => sandbox.with_thread_pool(pool),
            None => sandbox,
        })
    }
}

impl Sandbox {
    /// Only the first `n` read roots count as ones the agent's tools read (the write sandbox of a
    /// config file's agent: roots only name-listing tools were given anchor deny rules, but a
    /// write must not make a file readable by moving it there, and edits are not offered there).
    pub(crate) fn reading_only_first(mut self, n: usize) -> Sandbox {
        if n < self.roots.len() {
            self.gate = Arc::new((*self.gate).clone().serving(n));
        }
        self
    }

    /// This sandbox with every root of `agent` (its read roots, the roots it anchors, its write
    /// root) anchoring deny rules as well: a sandbox built for part of an agent's roots (a tool's
    /// own roots in the config file) keeps every rule the agent's other roots anchor.
    pub(crate) fn anchored_by(mut self, agent: &Sandbox) -> Sandbox {
        self.gate = Arc::new(self.gate.anchored_by(&agent.gate));
        self
    }

    /// This sandbox serving `roots` in place of its own (MCP client roots, each inside one of its
    /// roots), and keeping its write root only when `keep_write` says so of the write root's
    /// canonical path.
    pub(in crate::core) fn narrowed_to(
        &self,
        mut roots: Vec<Root>,
        keep_write: impl Fn(&Path) -> bool,
    ) -> Sandbox {
        // The operator's rules compiled once already; should they not, nothing is served.
        let deny = match DenyRules::new(&self.policy.deny) {
            Ok(d) => d,
            Err(_) => {
                roots.clear();
                return Sandbox {
                    roots: roots.into(),
                    write_root: None,
                    ..self.clone()
                };
            }
        };
        let write_root = self
            .write_root
            .as_ref()
            .filter(|w| keep_write(&w.canonical))
            .cloned();
        // The operator's roots (and every root they anchor, and the write root even where it is
        // not kept) stay anchors of the gate after the served ones, so a deny rule written
        // relative to an operator root still holds inside a narrowed root.
        let reads: Vec<&Path> = roots.iter().map(|r| r.canonical.as_path()).collect();
        let gate = Gate::new(
            deny,
            self.policy.refuse_hardlinks,
            &reads,
            write_root.as_ref().map(|w| w.canonical.as_path()),
        )
        .anchored_by(&self.gate);
        // Relative display must name one object for every tool here too (see `Sandbox::new`).
        let policy = if self.policy.path_display == PathDisplay::Relative
            && relative_is_ambiguous(&roots, write_root.as_deref())
        {
            let mut p = (*self.policy).clone();
            p.path_display = PathDisplay::Absolute;
            Arc::new(p)
        } else {
            Arc::clone(&self.policy)
        };
        Sandbox {
            policy,
            roots: roots.into(),
            gate: Arc::new(gate),
            agent: self.agent.clone(),
            write_root,
            pool: Arc::clone(&self.pool),
        }
    }

    /// A builder for the policy (tests of the layers below `tools` build a core sandbox with it).
    #[cfg(test)]
    pub(crate) fn builder() -> PolicyBuilder {
        PolicyBuilder::default()
    }

    /// Opens every root of `policy` as a directory handle.
    ///
    /// In strict mode (the default) a root that cannot be opened is an error naming it; in lenient mode
    /// it is dropped with a warning, and with no roots left every call answers `OUT_OF_SANDBOX`.
    pub(crate) fn new(policy: Policy) -> Result<Self> {
        let deny = DenyRules::new(&policy.deny)?;
        let mut roots = Vec::new();
        for spec in &policy.roots {
            match open_root(&spec.path) {
                Ok((canonical, dir)) => {
                    let name = unique_name(&spec.name, &canonical, &roots);
                    let configured = std::path::absolute(&spec.path).unwrap_or(spec.path.clone());
                    roots.push(Root {
                        name,
                        configured,
                        canonical,
                        dir,
                    });
                }
                Err(e) if policy.root_mode == RootMode::Lenient => {
                    tracing::warn!(root = %spec.path.display(), error = %e, "dropping a root that cannot be opened");
                }
                Err(e) => {
                    return Err(Error::invalid(format!(
                        "root '{}' cannot be opened: {e}",
                        spec.path.display()
                    )))
                }
            }
        }
        let write_root = match &policy.write {
            Some(w) => {
                let (canonical, dir) = open_root(&w.root).map_err(|e| {
                    Error::invalid(format!(
                        "write root '{}' cannot be opened: {e}",
                        w.root.display()
                    ))
                })?;
                Some(Arc::new(Root {
                    name: "write".into(),
                    configured: std::path::absolute(&w.root).unwrap_or(w.root.clone()),
                    canonical,
                    dir,
                }))
            }
            None => None,
        };
        let mut policy = policy;
        if policy.path_display == PathDisplay::Relative
            && relative_is_ambiguous(&roots, write_root.as_deref())
        {
            tracing::warn!(
                "relative paths would name different files for the read and the write tools \
                 (the write root is not the one read root): showing absolute paths"
            );
            policy.path_display = PathDisplay::Absolute;
        }
        let reads: Vec<&Path> = roots.iter().map(|r| r.canonical.as_path()).collect();
        let write = write_root.as_ref().map(|w| w.canonical.as_path());
        let gate = Gate::new(deny, policy.refuse_hardlinks, &reads, write);
        let pool = Arc::new(SearchPool::lazy(policy.limits.threads));
        Ok(Sandbox {
            policy: Arc::new(policy),
            roots: roots.into(),
            gate: Arc::new(gate),
            agent: String::new(),
            write_root,
            pool,
        })
    }

    /// Runs this sandbox's searches on `pool` (see [`crate::Sandbox::with_thread_pool`]).
    pub(crate) fn with_thread_pool(mut self, pool: Arc<rayon::ThreadPool>) -> Self {
        self.pool = Arc::new(SearchPool::supplied(pool));
        self
    }

    /// Makes this sandbox search on the same pool as `other` (built once, on first use by either).
    pub(crate) fn share_pool_with(&mut self, other: &Sandbox) {
        self.pool = Arc::clone(&other.pool);
    }

    /// Names the agent this sandbox serves, for audit events.
    pub(crate) fn with_agent(mut self, agent: impl Into<String>) -> Self {
        self.agent = agent.into();
        self
    }

    /// The policy this sandbox was built from.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The read roots, in order: each one's handle, name and paths (core's: the layers above ask
    /// `core/roots.rs`'s questions).
    pub(in crate::core) fn read_roots(&self) -> &[Root] {
        &self.roots
    }

    /// The write root, when the policy has one.
    pub(in crate::core) fn write_root_entry(&self) -> Option<&Root> {
        self.write_root.as_deref()
    }

    /// Whether this sandbox has a read root (lenient mode may have dropped every one).
    pub(crate) fn has_read_roots(&self) -> bool {
        !self.roots.is_empty()
    }

    /// How many read roots this sandbox serves.
    pub(crate) fn read_root_count(&self) -> usize {
        self.roots.len()
    }

    /// Whether this sandbox has a write root (a policy with one whose root opened).
    pub(crate) fn has_write_root(&self) -> bool {
        self.write_root.is_some()
    }

    /// The write root's canonical path, when there is one.
    pub(crate) fn write_root_path(&self) -> Option<&Path> {
        self.write_root.as_deref().map(|w| w.canonical.as_path())
    }

    /// The agent this sandbox serves, for audit events (empty when none was named).
    pub(crate) fn agent(&self) -> &str {
        &self.agent
    }

    /// The pool this sandbox's searches run on.
    pub(crate) fn pool(&self) -> &SearchPool {
        &self.pool
    }

    /// The roots' names and canonical paths, in order.
    pub fn roots(&self) -> Vec<(String, PathBuf)> {
        self.roots
            .iter()
            .map(|r| (r.name.clone(), r.canonical.clone()))
            .collect()
    }

    /// Resolves an agent's path and opens it through the one open path, then admits the object actually
    /// opened through the gate. Relative paths are tried against each root in order; the first root in
    /// which the path exists wins.
    pub(crate) fn locate(&self, raw: &str, want: Want) -> Result<Located> {
        let path = resolve::request(raw, &self.policy.limits)?;
        let anchors: Vec<RootPaths<'_>> = self
            .roots
            .iter()
            .map(|r| RootPaths {
                configured: &r.configured,
                canonical: &r.canonical,
                name: &r.name,
            })
            .collect();
        let mut last = None;
        for (idx, rel) in resolve::candidates(raw, &path, &anchors)? {
            let id = RootId::Read(idx);
            // A lexical check first, so a denied name is refused the same way whether or not it exists.
            if self.gate.denied_on_the_way(id, &rel) {
                return Err(denied(raw));
            }
            let root = &self.roots[idx];
            match open::open_beneath(open::borrow(&root.dir), &rel, want, self.policy.symlinks) {
                Ok(opened) => {
                    let resolved = self.resolved(raw, &root.dir, &opened, &rel)?;
                    // A `..` in the request, or a symlink on the way (the object is not where the
                    // text says), may have stepped on a denied name that the object's own path
                    // does not show.
                    let detour = open::has_parent_step(&rel) || resolved != open::lexical(&rel);
                    if detour && self.steps_on_denied(id, &root.dir, &rel) {
                        return Err(denied(raw));
                    }
                    let opened = self.admit_opened(raw, id, &resolved, opened)?;
                    return Ok(Located {
                        root: idx,
                        rel: resolved,
                        opened,
                    });
                }
                Err(e) => {
                    let err = self.map_open_error(&e, raw);
                    if err.code == ErrorCode::NotAFile && want == Want::Dir {
                        // A directory was wanted and something else stands there: the gate still
                        // speaks first, so a denied object (or a refused hard link) reached by any
                        // spelling answers DENIED, as it does for every other tool, and only an
                        // admitted one says what it is.
                        self.admit_other(raw, id, &root.dir, &rel)?;
                    }
                    // Missing, or not a directory, through a symlink to a denied name: DENIED, as
                    // the same request answers once the name exists (or is of another kind).
                    if matches!(err.code, ErrorCode::NotFound | ErrorCode::NotAFile)
                        && self.steps_on_denied(id, &root.dir, &rel)
                    {
                        return Err(denied(raw));
                    }
                    if err.code != ErrorCode::NotFound {
                        return Err(err);
                    }
                    last = Some(err);
                }
            }
        }
        Err(last.unwrap_or_else(|| {
            Error::new(
                ErrorCode::NotFound,
                format!("'{raw}' does not exist in any root"),
            )
        }))
    }

    /// Whether some step of `rel`, as the filesystem resolves it beneath `dir`, is denied (see
    /// [`open::steps_on`]).
    fn steps_on_denied(&self, id: RootId, dir: &Dir, rel: &Path) -> bool {
        self.gate
            .steps_on_denied(id, open::borrow(dir), rel, self.policy.symlinks)
    }

    /// Admits, for its refusal alone, the object at `rel` that an open for another kind could not
    /// take: opened again for metadata only (`O_PATH`, which nothing blocks on). A name that does not
    /// resolve (a file used as a directory in the middle of the path) has no object to refuse.
    fn admit_other(&self, raw: &str, id: RootId, dir: &Dir, rel: &Path) -> Result<()> {
        match open::open_beneath(open::borrow(dir), rel, Want::Meta, self.policy.symlinks) {
            Ok(opened) => {
                let resolved = self.resolved(raw, dir, &opened, rel)?;
                self.admit(raw, id, &resolved, &opened)
            }
            Err(_) => Ok(()),
        }
    }

    /// The path of an opened object relative to the root handle `dir`, read back from the descriptor.
    pub(crate) fn resolved(
        &self,
        raw: &str,
        dir: &Dir,
        opened: &Opened,
        rel: &Path,
    ) -> Result<PathBuf> {
        match open::path_beneath(open::borrow(dir), open::borrow(&opened.fd)) {
            Some(p) => Ok(p),
            // On Linux the resolved name is always readable unless the object moved out of the root
            // or was deleted while we opened it: with deny rules to honour, refuse rather than trust
            // the request's spelling.
            None if cfg!(target_os = "linux") && self.gate.has_rules() => Err(Error::new(
                ErrorCode::Denied,
                format!("'{raw}' changed while it was opened and cannot be checked against the deny rules; try again"),
            )),
            None => Ok(open::lexical(rel)),
        }
    }

    /// [`Sandbox::admit`], keeping the object as the gate's proof.
    pub(crate) fn admit_opened(
        &self,
        raw: &str,
        root: RootId,
        rel: &Path,
        opened: Opened,
    ) -> Result<Admitted<Opened>> {
        self.gate
            .admit_opened(root, rel, opened)
            .map_err(|r| refusal_error(raw, r))
    }

    /// The admission gate for an object opened by request `raw` (the error names only `raw`).
    pub(crate) fn admit(&self, raw: &str, root: RootId, rel: &Path, opened: &Opened) -> Result<()> {
        self.gate
            .admit(root, rel, opened)
            .map_err(|r| refusal_error(raw, r))
    }

    pub(crate) fn map_open_error(&self, e: &SysError, raw: &str) -> Error {
        let mut err = Error::from_sys(e, raw);
        if err.code == ErrorCode::SymlinkLoop && self.policy.symlinks == SymlinkMode::Never {
            err = Error::new(
                ErrorCode::OutOfSandbox,
                format!("'{raw}' goes through a symbolic link, and this sandbox follows none"),
            );
        }
        err
    }

    /// The path shown to the agent for `rel` in root `root`: escaped (one line, reversible), and given
    /// back to any tool it names the same object. Relative display with several roots prefixes the
    /// root's name (`NAME:rel`), which the resolver reads back.
    pub(crate) fn display(&self, root: usize, rel: &Path) -> String {
        let mut out = String::new();
        self.display_into(root, rel, &mut out);
        out
    }

    /// [`Sandbox::display`] appended to `out`.
    pub(crate) fn display_into(&self, root: usize, rel: &Path, out: &mut String) {
        let empty = rel.as_os_str().is_empty();
        match self.policy.path_display {
            PathDisplay::Absolute => {
                let base = &self.roots[root].canonical;
                if empty {
                    names::escape_into(base.as_os_str().as_bytes(), out);
                } else {
                    names::escape_into(base.join(rel).as_os_str().as_bytes(), out);
                }
            }
            PathDisplay::Relative if self.roots.len() > 1 => {
                out.push_str(&self.roots[root].name);
                out.push(':');
                names::escape_into(rel.as_os_str().as_bytes(), out);
            }
            PathDisplay::Relative if empty => out.push('.'),
            PathDisplay::Relative => names::escape_into(rel.as_os_str().as_bytes(), out),
        }
    }

    /// The root-relative path for audit events.
    pub(crate) fn audit_path(&self, root: usize, rel: &Path) -> String {
        let r = &self.roots[root];
        if self.roots.len() > 1 {
            format!("{}:{}", r.name, rel.display())
        } else {
            rel.display().to_string()
        }
    }
}

/// A root's name: the operator's, or its directory's; unique among the roots and free of `:` and `/`
/// (so `NAME:rel` reads back), with `-2`, `-3`... added to a repeated one.
fn unique_name(given: &str, canonical: &Path, taken: &[Root]) -> String {
    let base = if given.is_empty() {
        canonical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "root".into())
    } else {
        given.to_string()
    };
    let base: String = base
        .chars()
        .map(|c| {
            if c == ':' || c == '/' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let mut name = base.clone();
    let mut n = 1;
    while taken.iter().any(|r| r.name == name) {
        n += 1;
        name = format!("{base}-{n}");
    }
    name
}

/// Whether a root-relative path would mean one object to the read tools and another to the write
/// tools: a relative request names a file in the read roots for the former and in the write root for
/// the latter, so relative display holds only when the write root is the one read root.
pub(crate) fn relative_is_ambiguous(reads: &[Root], write: Option<&Root>) -> bool {
    match (write, reads) {
        (None, _) | (Some(_), []) => false,
        (Some(w), [r]) => w.canonical != r.canonical,
        (Some(_), _) => true,
    }
}

pub(crate) fn denied(raw: &str) -> Error {
    Error::new(
        ErrorCode::Denied,
        format!("'{raw}' is denied by the sandbox policy"),
    )
}

/// Opens a root by its operator-given path (trusted: the only ambient-path opens in the crate).
fn open_root(path: &Path) -> std::io::Result<(PathBuf, Dir)> {
    sys::open_root(path)
}

/// The error of a refusal by the gate of request `raw` (it names only `raw`).
fn refusal_error(raw: &str, r: Refusal) -> Error {
    match r {
        Refusal::Denied => denied(raw),
        Refusal::HardLink => Error::new(
            ErrorCode::Denied,
            format!("'{raw}' has several hard links and this sandbox refuses such files"),
        ),
    }
}
