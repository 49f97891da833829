//! The write half of the confinement core: every filesystem call a write tool makes is issued here,
//! with the gate's checks done on the way, so a tool cannot skip them.
//!
//! - Where a write lands ([`Dest`]): the write root, the request split into a parent and one
//!   validated name, the parent opened (and created) beneath the root through the gate, and what
//!   already stands there ([`Existing`]: the hard-link policy and a symlink's target checked).
//! - `publish`: temporary files, publishing (exclusive or replacing), the edit's exchange, the sweep
//!   of stale temporaries.
//! - `ops`: making a directory, deleting a file, moving (the deny rules on both names and on what a
//!   moved directory holds, read roots never moved, nothing made readable by a move), and opening an
//!   edit's target.
//!
//! A [`Dest`] and an [`Existing`] can only be made here, after the checks: the operations take them.
//! A [`Dest`] holds its share of this process's writes while it lives (a [`MovePair`] holds them
//! all), so no write tool has a lock of its own to remember.

use crate::core::admit::RootId;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names::{self, EntryName};
use crate::core::open::{self, Kind, Want};
use crate::core::policy::PathDisplay;
use crate::core::sandbox::{denied, Root, Sandbox};
use crate::core::sys::{self, Errno, Mode, SysError};

mod ops;
mod publish;

pub(crate) use publish::{publish, Unchanged};

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

/// Where a write or delete lands: a handle on the parent directory (opened beneath the write root), the
/// file name in it, and the resolved path relative to the write root.
/// Only [`Sandbox::target`] (and [`Sandbox::move_targets`], for a move's two ends) makes one, after
/// the deny rules said yes to the resolved path; it holds a share of [`WRITES`] from before its
/// parent was opened until it is dropped (`None`: an end of a move, whose pair holds them all).
pub(crate) struct Dest {
    pub(in crate::core) dir: OwnedFd,
    pub name: EntryName,
    pub rel: PathBuf,
    _writing: Option<RwLockReadGuard<'static, ()>>,
}

/// The two ends of a move, each admitted as [`Sandbox::target`] admits a destination, holding
/// [`WRITES`] alone: between a directory's check and its rename no other write of this process may
/// add to it. Only [`Sandbox::move_targets`] makes one; its ends stay inside it.
pub(crate) struct MovePair {
    src: Dest,
    dst: Dest,
    _alone: RwLockWriteGuard<'static, ()>,
}

impl MovePair {
    /// What is moved.
    pub fn src(&self) -> &Dest {
        &self.src
    }

    /// Where it is moved to.
    pub fn dst(&self) -> &Dest {
        &self.dst
    }
}

/// What already stands at a target's name: its kind (not following a symlink) and permission bits.
/// Only [`Sandbox::existing`] makes one, after the hard-link policy and a symlink's target were
/// checked.
pub(crate) struct Existing {
    pub kind: Kind,
    pub perm: u32,
    _checked: Checked,
}

/// A field no code outside `core` can fill: the types holding it exist only once core's checks said
/// yes. (Not [`crate::core::admit::Admitted`], which wraps the object admitted.)
pub(crate) struct Checked(());

/// Writes of this process against moves: a move holds this alone, every other write shares it, so a
/// directory checked against the deny rules cannot gain an entry before it is renamed.
static WRITES: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// A share of [`WRITES`], for a write that is not a move: taken by [`Sandbox::target`] alone, so
/// that one thread never holds two (a share taken while a move waits would wait behind it).
fn shared() -> RwLockReadGuard<'static, ()> {
    WRITES.read().unwrap_or_else(|e| e.into_inner())
}

/// [`WRITES`] alone, for a move: taken by [`Sandbox::move_targets`] alone.
fn exclusive() -> RwLockWriteGuard<'static, ()> {
    WRITES.write().unwrap_or_else(|e| e.into_inner())
}

impl Sandbox {
    pub(crate) fn write_root(&self) -> Result<(&Root, &crate::core::policy::WritePolicy)> {
        match (&self.write_root, &self.policy.write) {
            (Some(r), Some(w)) => Ok((r, w)),
            _ => Err(Error::new(
                ErrorCode::Denied,
                "this sandbox has no write root; writing is not allowed",
            )),
        }
    }

    /// Splits a write request into (parent, file name) relative to the write root, before any I/O.
    pub(crate) fn split_request(&self, raw: &str) -> Result<(PathBuf, EntryName)> {
        let path = crate::core::resolve::request(raw, &self.policy.limits)?;
        let (root, _) = self.write_root()?;
        let anchors = [crate::core::resolve::RootPaths {
            configured: &root.configured,
            canonical: &root.canonical,
            name: &root.name,
        }];
        let rel = match crate::core::resolve::candidates(raw, &path, &anchors) {
            Ok(mut c) => c.remove(0).1,
            Err(e) if e.code == ErrorCode::OutOfSandbox => {
                return Err(Error::new(
                    ErrorCode::OutOfSandbox,
                    format!("'{raw}' is outside the write root; give a path relative to it"),
                ))
            }
            Err(e) => return Err(e),
        };
        if raw.ends_with('/') {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' names a directory, not a file"),
            ));
        }
        // Lexical pre-check, so `a/../../x` is refused before a parent is created for it. The kernel
        // (or cap-std) enforces the same bound on what is actually opened.
        let mut depth: i64 = 0;
        for c in rel.components() {
            match c {
                Component::ParentDir => depth -= 1,
                Component::Normal(_) => depth += 1,
                _ => {}
            }
            if depth < 0 {
                return Err(Error::new(
                    ErrorCode::OutOfSandbox,
                    format!("'{raw}' leads outside the write root"),
                ));
            }
        }
        // `sub/.` would otherwise name `sub` (Path drops a trailing `.`).
        if matches!(raw.rsplit('/').next(), Some("." | "..")) {
            return Err(Error::invalid(format!(
                "'{raw}' does not end in a file name"
            )));
        }
        let name = match rel
            .components()
            .next_back()
            .map(|c| EntryName::new(c.as_os_str()))
        {
            Some(Some(n)) => n,
            _ => {
                return Err(Error::invalid(format!(
                    "'{raw}' does not end in a file name"
                )))
            }
        };
        if self.gate.denied_on_the_way(RootId::Write, &rel) {
            return Err(denied(raw));
        }
        let parent = rel.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok((parent, name))
    }

    /// Resolves a request to its parent directory handle and name, creating parents when asked, and
    /// checks the deny rules on the resolved path. The destination holds a share of the writes.
    pub(crate) fn target(&self, raw: &str, create_parents: bool) -> Result<Dest> {
        let writing = shared();
        self.target_holding(raw, create_parents, Some(writing))
    }

    /// The two ends of a move (requests `src_raw` and `dst_raw`, no parent created), holding the
    /// writes alone from before either is resolved.
    pub(crate) fn move_targets(&self, src_raw: &str, dst_raw: &str) -> Result<MovePair> {
        let alone = exclusive();
        let src = self.target_holding(src_raw, false, None)?;
        let dst = self.target_holding(dst_raw, false, None)?;
        Ok(MovePair {
            src,
            dst,
            _alone: alone,
        })
    }

    /// The destination of create_directory's request `raw`, parents created. A dir-only rule
    /// (`.git/`, `secrets/`) applies to the directory this is for: checked on the name as given
    /// before any parent is made, and (by [`Sandbox::make_dir`]) on the resolved path.
    pub(crate) fn dir_target(&self, raw: &str) -> Result<Dest> {
        let (parent, name) = self.split_request(raw)?;
        if self.write_denied(&open::lexical(&parent.join(name.as_os_str())), true) {
            return Err(denied(raw));
        }
        self.target(raw, true)
    }

    /// The destination of an edit's request `raw` (no parent created), refused unless the read
    /// tools could read what stands there: whether old_string matches tells what the file holds.
    /// Checked on the resolved path, before its existence is looked at.
    pub(crate) fn edit_target(&self, raw: &str) -> Result<Dest> {
        let t = self.target(raw, false)?;
        if !self.gate.readable_from_write(&t.rel) {
            return Err(denied(raw));
        }
        Ok(t)
    }

    /// [`Sandbox::target`] with the writes already held as `writing` says.
    fn target_holding(
        &self,
        raw: &str,
        create_parents: bool,
        writing: Option<RwLockReadGuard<'static, ()>>,
    ) -> Result<Dest> {
        let (parent, name) = self.split_request(raw)?;
        let (dir, parent_rel) = self.open_parent(raw, &parent, &name, create_parents)?;
        let rel = parent_rel.join(name.as_os_str());
        if self.gate.denied(RootId::Write, &rel, false) {
            return Err(denied(raw));
        }
        Ok(Dest {
            dir,
            name,
            rel,
            _writing: writing,
        })
    }

    /// Opens (and with `create`, makes) the parent directory through the write root's handle.
    pub(crate) fn open_parent(
        &self,
        raw: &str,
        parent: &Path,
        name: &EntryName,
        create: bool,
    ) -> Result<(OwnedFd, PathBuf)> {
        let (root, _) = self.write_root()?;
        // A parent that steps through a denied name (`gl/..` with `gl -> .git`) is refused whether
        // or not that name exists, before anything is opened or made through it.
        let steps_denied = || {
            self.gate.steps_on_denied(
                RootId::Write,
                root.dir.as_fd(),
                parent,
                self.policy.symlinks,
            )
        };
        if open::has_parent_step(parent) && steps_denied() {
            return Err(denied(raw));
        }
        let opened = open::open_beneath(root.dir.as_fd(), parent, Want::Dir, self.policy.symlinks);
        if opened.is_err() && steps_denied() {
            return Err(denied(raw));
        }
        let fd = match opened {
            Ok(o) => o.fd,
            Err(e) if is_noent(&e) && create => self.make_parents(root, raw, parent, name)?,
            Err(e) if is_noent(&e) => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!(
                        "the directory of '{raw}' does not exist, and this sandbox does not create \
                         parent directories"
                    ),
                ))
            }
            Err(e) => return Err(self.map_open_error(&e, raw)),
        };
        let resolved = open::path_beneath(root.dir.as_fd(), fd.as_fd())
            .unwrap_or_else(|| open::lexical(parent));
        // A symlink on the way may have stepped on a denied name (`l/x` with `l -> z/..`).
        if resolved != open::lexical(parent) && steps_denied() {
            return Err(denied(raw));
        }
        Ok((fd, resolved))
    }

    /// Makes the missing directories of `parent`, one component at a time. Each prefix is resolved
    /// from the write root by the shared open path (so `..` and in-root symlinks mean what they mean
    /// for reads, and anything leading out is refused), a missing plain name is made with `mkdirat` in
    /// the handle of the prefix before it, and deny rules are checked on every directory opened before
    /// anything is made in it. Before the first directory is made, the whole target is checked at the
    /// place it will really have: nothing beneath a missing directory can be a symlink, so that place is
    /// the resolved path of the last directory found plus the rest of the request, and a symlink
    /// earlier in the request cannot get a directory made on the way to a denied name.
    pub(crate) fn make_parents(
        &self,
        root: &Root,
        raw: &str,
        parent: &Path,
        name: &EntryName,
    ) -> Result<OwnedFd> {
        let open = |p: &Path| {
            open::open_beneath(root.dir.as_fd(), p, Want::Dir, self.policy.symlinks).map(|o| o.fd)
        };
        let mut cur = open(Path::new("")).map_err(|e| self.map_open_error(&e, raw))?;
        let mut cur_resolved = PathBuf::new();
        let mut prefix = PathBuf::new();
        let comps: Vec<Component<'_>> = parent.components().collect();
        for (k, c) in comps.iter().enumerate() {
            prefix.push(c);
            let next = match open(&prefix) {
                Ok(fd) => fd,
                Err(e) if is_noent(&e) && EntryName::new(c.as_os_str()).is_some() => {
                    let mut target = cur_resolved.clone();
                    target.extend(&comps[k..]);
                    target.push(name.as_os_str());
                    // With the target, every directory above it is checked (as a parent).
                    if self
                        .gate
                        .denied(RootId::Write, &open::lexical(&target), false)
                    {
                        return Err(denied(raw));
                    }
                    match sys::mkdirat(&cur, c.as_os_str(), Mode::from_raw_mode(0o755)) {
                        Ok(()) => {}
                        Err(e) if e.is(Errno::EXIST) => {}
                        Err(e) => return Err(self.map_open_error(&e, raw)),
                    }
                    match open(&prefix) {
                        Ok(fd) => fd,
                        // The name exists but does not resolve: a dangling symbolic link.
                        Err(e) if is_noent(&e) => {
                            return Err(Error::new(
                                ErrorCode::NotFound,
                                format!(
                                    "'{raw}' goes through a dangling symbolic link; no directory \
                                     is created through one"
                                ),
                            ))
                        }
                        Err(e) => return Err(self.map_open_error(&e, raw)),
                    }
                }
                Err(e) => return Err(self.map_open_error(&e, raw)),
            };
            let resolved = open::path_beneath(root.dir.as_fd(), next.as_fd())
                .unwrap_or_else(|| open::lexical(&prefix));
            if self.gate.denied(RootId::Write, &resolved, true) {
                return Err(denied(raw));
            }
            cur = next;
            cur_resolved = resolved;
        }
        Ok(cur)
    }

    /// What stands at the target now. A symlink is never followed by a write, but one leading out of
    /// the write root is refused as the escape it is, and one to a denied object as that object.
    pub(crate) fn existing(&self, t: &Dest, raw: &str) -> Result<Option<Existing>> {
        let (root, _) = self.write_root()?;
        let st = match sys::statat(&t.dir, t.name.as_os_str()) {
            Ok(st) => st,
            Err(e) if e.is(Errno::NOENT) => return Ok(None),
            Err(e) => return Err(self.map_open_error(&e, raw)),
        };
        let kind = Kind::from_stat(&st);
        // A file the hard-link policy refuses is not changed either: replacing or deleting one of its
        // links would leave the other with one link, readable, holding what was refused.
        if !self.gate.links_ok(&st) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{raw}' has several hard links and this sandbox refuses such files"),
            ));
        }
        if kind == Kind::Symlink {
            match open::open_beneath(root.dir.as_fd(), &t.rel, Want::Meta, self.policy.symlinks) {
                Ok(o) => {
                    if let Some(to) = open::path_beneath(root.dir.as_fd(), o.fd.as_fd()) {
                        if self.gate.denied(RootId::Write, &to, o.kind() == Kind::Dir) {
                            return Err(denied(raw));
                        }
                    }
                }
                Err(e) => {
                    let err = self.map_open_error(&e, raw);
                    // A dangling link inside the write root is just a name that exists, unless it
                    // names a denied one: then DENIED, as when that object exists.
                    if err.code != ErrorCode::NotFound {
                        return Err(err);
                    }
                    if open::would_be(root.dir.as_fd(), &t.rel, self.policy.symlinks)
                        .is_some_and(|p| self.gate.denied(RootId::Write, &p, false))
                    {
                        return Err(denied(raw));
                    }
                }
            }
        }
        Ok(Some(Existing {
            kind,
            perm: st.st_mode & 0o777,
            _checked: Checked(()),
        }))
    }

    /// Removes what interrupted writes of rootbound's left in `t`'s directory (see
    /// [`publish::remove_stale_temps`]), only where the policy allows deletes: a file of that
    /// name could still be the user's, and removing it is a delete.
    pub(crate) fn sweep_stale_temps(&self, t: &Dest) {
        let Ok((_, policy)) = self.write_root() else {
            return;
        };
        if !policy.allow_delete {
            return;
        }
        let parent = t.rel.parent().unwrap_or(Path::new(""));
        publish::remove_stale_temps(&t.dir, |name| {
            !self.gate.denied(RootId::Write, &parent.join(name), false)
        });
    }

    /// Whether the read tools see the write root: it lies in a read root they serve, and not in a
    /// part of one that a deny rule refuses.
    pub(crate) fn write_root_readable(&self) -> bool {
        self.write_root.as_ref().is_some_and(|w| {
            self.roots
                .iter()
                .take(self.gate.served())
                .any(|r| w.canonical.starts_with(&r.canonical))
                && !self.gate.root_denied(RootId::Write)
        })
    }

    pub(crate) fn shown(&self, rel: &Path) -> String {
        match (self.policy.path_display, &self.write_root) {
            (PathDisplay::Absolute, Some(root)) => names::escape_path(&root.canonical.join(rel)),
            _ => names::escape_path(rel),
        }
    }
}

pub(in crate::core) fn is_noent(e: &SysError) -> bool {
    e.is(Errno::NOENT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::TryLockError;

    fn sandbox(dir: &Path) -> Sandbox {
        // The write root is a read root too, so an edit's destination is readable.
        Sandbox::builder()
            .root(dir)
            .write(crate::core::policy::WritePolicy::new(dir))
            .build_core()
            .unwrap()
    }

    fn blocked<G>(r: std::sync::TryLockResult<G>) -> bool {
        matches!(r, Err(TryLockError::WouldBlock))
    }

    #[test]
    fn a_destination_holds_its_share_of_the_writes() {
        let dir = tempfile::tempdir().unwrap();
        let sb = sandbox(dir.path());
        for t in [
            sb.target("a.txt", false).unwrap(),
            sb.dir_target("d").unwrap(),
            sb.edit_target("e.txt").unwrap(),
        ] {
            // A move cannot start while the destination lives (other tests may hold shares too,
            // so only the refusal is asserted).
            assert!(blocked(WRITES.try_write()), "{:?}", t.rel);
        }
    }

    #[test]
    fn a_move_holds_the_writes_alone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "x").unwrap();
        let sb = sandbox(dir.path());
        let pair = sb.move_targets("a.txt", "b.txt").unwrap();
        assert!(blocked(WRITES.try_read()));
        assert_eq!(pair.dst().rel, Path::new("b.txt"));
    }
}
