//! The admission calls of the layers above core: each answers with an admitted object or a
//! refusal, and none of them hands out the gate (`core/admit.rs`) or one of its halves. Apart
//! from the gate itself, so the gate does not name the sandbox that holds it.

use crate::core::admit::{Admitted, NameAdmitted, NotAdmitted, Refusal, RootId};
use crate::core::dirs::DirFd;
use crate::core::handle;
use crate::core::open::{self, Kind, Opened, Want};
use crate::core::sandbox::Sandbox;
use std::path::{Path, PathBuf};

impl Sandbox {
    /// Opens `name` beneath `dir` (no symlink followed) and admits it as the object at `rel`
    /// beneath `root`: how the layers above open what a walk found (`Gate::open`). `dir` is a
    /// directory the gate admitted (a [`DirFd`] is made only from one), so no layer above opens
    /// from a descriptor of its own; a root's own paths open with [`Sandbox::open_in_root`].
    pub(crate) fn open_found(
        &self,
        root: RootId,
        dir: &DirFd,
        name: &Path,
        rel: &Path,
        want: Want,
    ) -> Result<Admitted<Opened>, NotAdmitted> {
        self.gate.open(root, handle::fd(dir), name, rel, want)
    }

    /// Opens read root `root` itself as a directory: refused when it lies in a denied part of
    /// another root (nothing in it is usable then), before anything is opened.
    pub(crate) fn admit_root(&self, root: usize) -> Result<Admitted<Opened>, NotAdmitted> {
        let id = RootId::Read(root);
        if self.gate.root_denied(id) {
            return Err(NotAdmitted::Refused);
        }
        let dir = open::borrow(&self.roots[root].dir);
        self.gate
            .open(id, dir, Path::new(""), Path::new(""), Want::Dir)
    }

    /// The read roots the tools show, in order: those not in a denied part of another root.
    pub(crate) fn admitted_roots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.roots.len()).filter(|&i| !self.gate.root_denied(RootId::Read(i)))
    }

    /// Admits the name of an entry a directory listing gave (`Gate::admit_listed`; the
    /// hard-link policy is the second step, `NameAdmitted::admit`).
    pub(crate) fn admit_listed(
        &self,
        root: RootId,
        rel: &Path,
        kind: Kind,
    ) -> Result<NameAdmitted<'_>, Refusal> {
        self.gate.admit_listed(root, rel, kind)
    }

    /// An admitted object again, its metadata read again and the hard-link policy applied to it
    /// (`Gate::reopened`).
    pub(crate) fn reopened(
        &self,
        first: Admitted<Opened>,
    ) -> Result<Admitted<Opened>, NotAdmitted> {
        self.gate.reopened(first)
    }

    /// The deny question for paths beneath `root`, as the ignore-rule loaders take it
    /// (`Gate::denied_fn`): whether the walk may read an ignore file or watch a `.git` on its
    /// own account. Not for entries handed to the agent.
    pub(crate) fn denied_fn(&self, root: RootId) -> impl Fn(&Path, bool) -> bool + '_ {
        self.gate.denied_fn(root)
    }

    /// What decides which objects this sandbox admits, as text (`Gate::rules_key`): a saved
    /// index is bound to it.
    pub(crate) fn rules_key(&self) -> String {
        self.gate.rules_key()
    }

    /// The canonical paths of every root the gate knows (`Gate::root_paths`): a cache
    /// directory must lie outside all of them.
    pub(crate) fn root_paths(&self) -> &[PathBuf] {
        self.gate.root_paths()
    }
}
