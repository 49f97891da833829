//! What the layers above ask of a root: its name, its canonical path (an index's key), its
//! identity (what a saved index is bound to), and opens that start at its handle. A root's fields
//! and its directory handle stay in core, so no tool, walk or index holds a root's descriptor: an
//! open from a root goes through the gate here ([`Sandbox::open_in_root`], [`Sandbox::reopen`]),
//! and only the ignore rules' own reads ([`Sandbox::open_for_rules`]) skip it, as they do
//! everywhere.

use crate::core::admit::{self, Admitted, NotAdmitted, RootId};
use crate::core::cache::{self, CacheDir};
use crate::core::open::{self, Opened, Want};
use crate::core::sandbox::{Located, Root, Sandbox};
use crate::core::sys;
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

impl Sandbox {
    /// The root `root` names: a read root, or the write root.
    fn root(&self, root: RootId) -> Option<&Root> {
        match root {
            RootId::Read(i) => self.read_roots().get(i),
            RootId::Write => self.write_root_entry(),
        }
    }

    /// Read root `root`'s name, as results and errors show it.
    pub(crate) fn root_name(&self, root: usize) -> Option<&str> {
        self.read_roots().get(root).map(|r| r.name.as_str())
    }

    /// The write root's name, when there is one.
    pub(crate) fn write_root_name(&self) -> Option<&str> {
        self.write_root_entry().map(|r| r.name.as_str())
    }

    /// Read root `root`'s canonical path: the index keys a root's table by it (a narrowed
    /// sandbox's roots find the operator's tables so).
    pub(crate) fn root_canonical(&self, root: usize) -> Option<&Path> {
        self.read_roots().get(root).map(|r| r.canonical.as_path())
    }

    /// Read root `root`'s identity as bytes: its directory's device and inode, the path the
    /// operator configured, a NUL, and its canonical path. A saved index is bound to it, so a
    /// root moved, replaced or configured otherwise finds no saved index of another.
    #[allow(clippy::unnecessary_cast)]
    pub(crate) fn root_identity(&self, root: usize) -> Option<Vec<u8>> {
        let r = self.read_roots().get(root)?;
        let st = sys::fstat(&r.dir).ok()?;
        let mut key = Vec::new();
        key.extend_from_slice(&(st.st_dev as u64).to_le_bytes());
        key.extend_from_slice(&(st.st_ino as u64).to_le_bytes());
        key.extend_from_slice(r.configured.as_os_str().as_bytes());
        key.push(0);
        key.extend_from_slice(r.canonical.as_os_str().as_bytes());
        Some(key)
    }

    /// Whether read root `root`'s filesystem reports every change as an event (see
    /// [`crate::core::watch::events_reliable`]).
    pub(crate) fn root_events_reliable(&self, root: usize) -> bool {
        self.read_roots()
            .get(root)
            .is_some_and(|r| crate::core::watch::events_reliable(r.dir.as_fd()))
    }

    /// Opens the cache directory at `path` (operator-given) for the index's snapshots: it must lie
    /// outside every root, and is checked against every root's handle (see [`cache::open`]), and
    /// outside the operator-given directories `outside` (other agents' roots).
    pub(crate) fn open_cache(&self, path: &Path, outside: &[PathBuf]) -> Result<CacheDir, String> {
        let mut fds: Vec<&dyn AsFd> = self
            .read_roots()
            .iter()
            .map(|r| &r.dir as &dyn AsFd)
            .collect();
        if let Some(w) = self.write_root_entry() {
            fds.push(&w.dir);
        }
        cache::open(path, &fds, self.root_paths(), outside)
    }

    /// Opens `rel` beneath root `root` (no symlink followed) and admits it as the object at `rel`:
    /// how the layers above open a path of a root they already know (an index's file, a tree's
    /// directory met again), as [`Sandbox::open_found`] opens what a walk found.
    pub(crate) fn open_in_root(
        &self,
        root: RootId,
        rel: &Path,
        want: Want,
    ) -> Result<Admitted<Opened>, NotAdmitted> {
        let Some(r) = self.root(root) else {
            return Err(NotAdmitted::Io(no_root(rel)));
        };
        self.gate.open(root, open::borrow(&r.dir), rel, rel, want)
    }

    /// Opens what `loc` found again from its root, as `want`, and checks it is the same object (see
    /// [`admit::reopen`]): `Err(None)` when a rename in between put another there.
    pub(crate) fn reopen(
        &self,
        loc: &Located,
        want: Want,
    ) -> Result<Admitted<Opened>, Option<std::io::Error>> {
        let r = &self.read_roots()[loc.root];
        admit::reopen(open::borrow(&r.dir), &loc.rel, want, &loc.opened)
    }

    /// Opens the directory at `rel` beneath read root `root` for its ignore rules only (see
    /// [`open::open_for_rules`]): nothing read through it is a result.
    pub(crate) fn open_for_rules(&self, root: usize, rel: &Path) -> sys::Result<Opened> {
        match self.read_roots().get(root) {
            Some(r) => open::open_for_rules(&open::borrow(&r.dir), rel, Want::Dir),
            None => Err(no_root(rel)),
        }
    }
}

/// The failure of an open from a root this sandbox does not have (a narrowed sandbox asked by an
/// index built for more roots): the object is absent, not a transient failure.
fn no_root(rel: &Path) -> sys::SysError {
    sys::SysError::os("openat", rel, sys::Errno::NOENT)
}
