//! The admission gate: every object an agent's call reaches passes here before a byte or a name of it
//! is used. All policy about *which* objects may be used lives in this file:
//!
//! - **Deny rules** are matched against the object's path relative to EVERY configured root that
//!   contains it (read roots and the write root, nested in each other or not), so `--root R
//!   --root R/cfg --deny cfg/` refuses `prod.key` reached through either root, and a write root inside
//!   a read root obeys the read root's anchored rules.
//! - **Hard links**: with `refuse_hardlinks`, a regular file with more than one link is refused (it may
//!   alias an inode outside the roots).
//! - **Identity on re-open**: a second open of an admitted object must find the same `(dev, ino)`.
//!
//! - **Requests on their way**: a request that names a denied path before a `..`
//!   ([`Gate::denied_on_the_way`]), or that steps on one through a `..` or a symlink as the
//!   filesystem resolves it ([`Gate::steps_on_denied`]), is refused as that path would be.
//! - **The write root's questions**: whether an object there is one the read tools reach
//!   ([`Gate::readable_from_write`]) and whether it holds a read root ([`Gate::holds_root`]).
//!
//! Callers: `Sandbox::locate` (read_file, stat, list_dir, grep and glob starts), the
//! walker (every entry and every file it hands out), list_dir's and tree's entries, and `mutate` for
//! the write tools (targets, parents they create, symlinks they replace, moves). A denied object is
//! indistinguishable from an absent one: it is never counted, listed or searched.
//!
//! [`Gate`] is core's alone (`tests/gate/layout.rs` checks no layer above names it). The layers
//! above reach it through the sandbox's admission calls (`core/admission.rs`), each answering
//! with an admitted object or a refusal: `Sandbox::open_found` (a root's entry a walk found),
//! `Sandbox::admit_root` and `Sandbox::admitted_roots` (the roots themselves),
//! `Sandbox::admit_listed` (an entry a listing gave, not opened), `Sandbox::reopened` and
//! `Sandbox::denied_fn` (the walk's own reads of ignore files). The write tools' refusals come
//! out of `mutate`'s destinations (`Sandbox::target`, `dir_target`, `edit_target`,
//! `move_targets`).

use crate::core::deny::DenyRules;
use crate::core::error::Error;
use crate::core::handle::{self, Handle, Key};
use crate::core::open::{self, Kind, Opened, Want};
use crate::core::policy::SymlinkMode;
use crate::core::sys::{self, Errno, Stat, SysError};
use std::ffi::OsStr;
use std::os::fd::BorrowedFd;
use std::path::{Path, PathBuf};

/// Which configured root an object was reached through: a read root by index, or the write root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RootId {
    /// The read root at this index.
    Read(usize),
    /// The write root.
    Write,
}

/// How one root sits relative to another that it nests in or that nests in it.
#[derive(Debug, Clone)]
enum Nesting {
    /// This root is at `0` inside another root: an object at `rel` here is at `0/rel` there.
    Inside(PathBuf),
    /// Another root is at `0` inside this one: an object at `0/x` here is at `x` there.
    Contains(PathBuf),
    /// Another root is this very directory.
    Same,
}

/// Why the gate refused an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// A deny rule matched the object's path relative to some root.
    Denied,
    /// The object is a regular file with several hard links and the policy refuses those.
    HardLink,
}

/// The one admission function's state: deny rules, the hard-link policy, and how the roots nest.
#[derive(Debug, Clone)]
pub(in crate::core) struct Gate {
    deny: DenyRules,
    refuse_hardlinks: bool,
    /// For each read root (then the write root), its nesting with the other roots (by index).
    nesting: Vec<Vec<(usize, Nesting)>>,
    /// The read roots the tools serve: the first `served`; the others only anchor deny rules (the
    /// operator's roots behind a client's narrower ones).
    served: usize,
    /// Whether the last entry of `nesting` is the write root's.
    has_write: bool,
    /// The canonical path of each root in `nesting`'s order, to anchor another gate by this one's.
    paths: Vec<PathBuf>,
}

impl Gate {
    /// Admits an object core opened for a request (`Sandbox::locate`): the gate's answer, and the
    /// object as its proof.
    pub(crate) fn admit_opened(
        &self,
        root: RootId,
        rel: &Path,
        opened: Opened,
    ) -> Result<Admitted<Opened>, Refusal> {
        self.admit(root, rel, &opened)?;
        Ok(Admitted(opened))
    }

    /// A gate over roots with these canonical paths (`write`: the write root's, if any).
    pub fn new(
        deny: DenyRules,
        refuse_hardlinks: bool,
        reads: &[&Path],
        write: Option<&Path>,
    ) -> Self {
        let all: Vec<&Path> = reads.iter().copied().chain(write).collect();
        let nesting = all
            .iter()
            .enumerate()
            .map(|(i, me)| {
                let mut rel = Vec::new();
                for (j, other) in all.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    if me == other {
                        rel.push((j, Nesting::Same));
                    } else if let Ok(p) = me.strip_prefix(other) {
                        rel.push((j, Nesting::Inside(p.to_path_buf())));
                    } else if let Ok(p) = other.strip_prefix(me) {
                        rel.push((j, Nesting::Contains(p.to_path_buf())));
                    }
                }
                rel
            })
            .collect();
        Gate {
            deny,
            refuse_hardlinks,
            nesting,
            served: reads.len(),
            has_write: write.is_some(),
            paths: all.iter().map(|p| p.to_path_buf()).collect(),
        }
    }

    /// This gate with every root of `other` (read roots, the roots it only anchors, its write root)
    /// as anchors too: the same roots served, and deny rules also matched relative to each of
    /// `other`'s roots. A sandbox made for some of an agent's roots (a tool's own roots, a client's
    /// narrower roots) is anchored by the agent's whole set, so no rule written relative to one of
    /// them is lost through another.
    pub(crate) fn anchored_by(&self, other: &Gate) -> Gate {
        let reads_end = self.paths.len() - usize::from(self.has_write);
        let reads: Vec<&Path> = self.paths[..reads_end]
            .iter()
            .chain(&other.paths)
            .map(PathBuf::as_path)
            .collect();
        let write = self.has_write.then(|| self.paths[reads_end].as_path());
        Gate::new(self.deny.clone(), self.refuse_hardlinks, &reads, write).serving(self.served)
    }

    /// What decides which objects the gate admits, as text: the deny rules as given, the hard-link
    /// policy, the roots' paths (every root anchors the rules) and how many are served. A saved
    /// index is bound to it: under other rules it may describe files now denied.
    pub(crate) fn rules_key(&self) -> String {
        format!(
            "{:?}|{}|{:?}|{}|{}",
            self.deny.globs(),
            self.refuse_hardlinks,
            self.paths,
            self.served,
            self.has_write
        )
    }

    /// The canonical paths of every root the gate knows (read roots, anchors, the write root).
    pub(crate) fn root_paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// How many read roots, from the first, the tools serve.
    pub fn served(&self) -> usize {
        self.served
    }

    /// Only the first `n` read roots are served by the tools; the rest anchor deny rules only.
    pub fn serving(mut self, n: usize) -> Self {
        self.served = n;
        self
    }

    fn index(&self, root: RootId) -> usize {
        match root {
            RootId::Read(i) => i,
            RootId::Write => self.nesting.len() - 1,
        }
    }

    /// Whether some deny rule matches a path rather than a name (see [`DenyRules::has_path_rules`]).
    pub fn has_path_rules(&self) -> bool {
        self.deny.has_path_rules()
    }

    /// Whether any deny rules are configured (else name checks can be skipped).
    pub fn has_rules(&self) -> bool {
        !self.deny.is_empty()
    }

    /// Whether the object at `rel` beneath `root` is denied, seen from every root that contains it.
    /// Outside core an entry is admitted whole ([`Gate::admit_listed`]), never by this half alone.
    pub(in crate::core) fn denied(&self, root: RootId, rel: &Path, is_dir: bool) -> bool {
        if self.deny.is_empty() {
            return false;
        }
        if self.deny.is_denied(rel, is_dir) {
            return true;
        }
        self.nesting[self.index(root)].iter().any(|(_, n)| match n {
            // `join("")` would add a trailing slash, which the matcher reads as another name.
            Nesting::Inside(at) if rel.as_os_str().is_empty() => self.deny.is_denied(at, is_dir),
            Nesting::Inside(at) => self.deny.is_denied(&at.join(rel), is_dir),
            Nesting::Contains(at) => rel
                .strip_prefix(at)
                .is_ok_and(|rest| self.deny.is_denied(rest, is_dir)),
            Nesting::Same => false,
        })
    }

    /// Whether the request, read as text, names a denied path on its way: `.git/../README` steps
    /// into `.git`; answering it would tell whether `.git` exists as a directory, and a write would
    /// make `.git` to get through it.
    ///
    /// Only the deepest points are checked (before each `..` and at the end): a check covers the
    /// parents, and checking every step would cost the square of a 2,000-step request.
    pub fn denied_on_the_way(&self, root: RootId, rel: &Path) -> bool {
        open::deepest_points(Path::new(""), rel.components())
            .iter()
            .any(|p| self.denied(root, p, false))
    }

    /// Whether some step of `rel`, as the filesystem resolves it beneath the root handle `dir`
    /// (symlinks followed as `symlinks` allows, see [`open::steps_on`]), is denied: a `..` or a
    /// symlink on the way may step on a denied name that the object's own path does not show.
    pub(in crate::core) fn steps_on_denied(
        &self,
        root: RootId,
        dir: BorrowedFd<'_>,
        rel: &Path,
        symlinks: SymlinkMode,
    ) -> bool {
        self.has_rules() && open::steps_on(dir, rel, symlinks, |p| self.denied(root, p, false))
    }

    /// Whether the object at `rel` beneath the write root is one the read tools can reach: some read
    /// root holds it and no deny rule (seen from any root) refuses it. A write must not turn an object
    /// for which this is false into one for which it is true (a move out of a write-only area), and an
    /// edit, whose outcome tells what the file holds, needs it.
    pub fn readable_from_write(&self, rel: &Path) -> bool {
        let Some(nesting) = self.write_nesting() else {
            return false;
        };
        let held = nesting.iter().any(|(j, n)| {
            *j < self.served
                && match n {
                    Nesting::Same | Nesting::Inside(_) => true,
                    Nesting::Contains(at) => rel.starts_with(at),
                }
        });
        held && !self.denied(RootId::Write, rel, false)
    }

    /// Whether `rel` beneath the write root is, or holds, a read root: moving it would carry the read
    /// root's open handle to another place while the deny rules and [`Gate::readable_from_write`]
    /// still see the root where it was configured.
    pub fn holds_root(&self, rel: &Path) -> bool {
        self.write_nesting().is_some_and(|nesting| {
            nesting.iter().any(|(_, n)| match n {
                Nesting::Contains(at) => at.starts_with(rel),
                Nesting::Same => rel.as_os_str().is_empty(),
                Nesting::Inside(_) => false,
            })
        })
    }

    /// The write root's nesting with the read roots (`None`: no write root).
    fn write_nesting(&self) -> Option<&[(usize, Nesting)]> {
        self.has_write
            .then(|| self.nesting.last().map(Vec::as_slice))
            .flatten()
    }

    /// Whether the root itself lies in a denied part of another root (then nothing in it is usable).
    pub fn root_denied(&self, root: RootId) -> bool {
        self.denied(root, Path::new(""), true)
    }

    /// The hard-link policy on an object's metadata.
    pub(in crate::core) fn links_ok(&self, st: &Stat) -> bool {
        !(self.refuse_hardlinks && Kind::from_stat(st) == Kind::File && st.st_nlink > 1)
    }

    /// The deny question for paths beneath `root`, as the ignore-rule loaders take it: whether the
    /// walk may read an ignore file or watch a repository's `.git` on its own account. Not for
    /// entries handed to the agent: those pass [`Gate::admit_listed`] or [`Gate::open`].
    pub fn denied_fn(&self, root: RootId) -> impl Fn(&Path, bool) -> bool + '_ {
        move |rel, is_dir| self.denied(root, rel, is_dir)
    }

    /// Admits the name of an entry a directory listing gave (not opened): the deny rules, seen from
    /// every root, on its path `rel` beneath `root`. The hard-link policy is the second step,
    /// [`NameAdmitted::admit`]: the callers count what they skip between the two (a hidden or
    /// ignored entry is counted as such, a denied one not at all) and stat only what gets that far.
    pub fn admit_listed(
        &self,
        root: RootId,
        rel: &Path,
        kind: Kind,
    ) -> Result<NameAdmitted<'_>, Refusal> {
        if self.denied(root, rel, kind == Kind::Dir) {
            return Err(Refusal::Denied);
        }
        Ok(NameAdmitted { gate: self, kind })
    }

    /// Admits an opened object reached at the resolved path `rel` beneath `root`.
    pub fn admit(&self, root: RootId, rel: &Path, opened: &Opened) -> Result<(), Refusal> {
        if self.denied(root, rel, opened.kind() == Kind::Dir) {
            return Err(Refusal::Denied);
        }
        if !self.links_ok(&opened.stat) {
            return Err(Refusal::HardLink);
        }
        Ok(())
    }
}

/// A listed entry whose path the deny rules let through; [`NameAdmitted::admit`] applies the
/// hard-link policy and completes the admission.
#[must_use = "the entry is admitted only once `NameAdmitted::admit` applied the hard-link policy"]
pub(crate) struct NameAdmitted<'g> {
    gate: &'g Gate,
    /// The kind the listing reported.
    kind: Kind,
}

impl NameAdmitted<'_> {
    /// Completes the admission of the entry `name` in the directory `dir`: with `refuse_hardlinks`,
    /// a regular file is stat'ed (`fstatat`, no symlink followed) and refused when it has several
    /// links or the stat fails. Nothing is stat'ed when the policy has no use for it, so a walk
    /// without the policy costs no syscall here.
    pub fn admit(
        self,
        dir: &(impl Handle + ?Sized),
        name: &OsStr,
    ) -> Result<Admitted<Listed>, Refusal> {
        if !self.gate.refuse_hardlinks || self.kind != Kind::File {
            return Ok(Admitted(Listed { stat: None }));
        }
        match sys::statat(handle::fd(dir), name) {
            Ok(st) if self.gate.links_ok(&st) => Ok(Admitted(Listed { stat: Some(st) })),
            _ => Err(Refusal::HardLink),
        }
    }
}

/// What admitting a listed entry learnt of it.
pub(crate) struct Listed {
    /// The entry's metadata when the hard-link policy stat'ed it (reuse it rather than stat again).
    pub stat: Option<Stat>,
}

/// An object the gate admitted. Only core makes one, so holding one means the gate said yes: the
/// layers above open through [`Gate::open`] and cannot forget the check.
pub(crate) struct Admitted<T>(T);

impl<T> Admitted<T> {
    /// The admitted object itself: core's alone, so the layers above hand an admitted object to
    /// the core function that uses it (`dirs::read_entries_owned`, `dirs::reader`...) whole.
    pub(in crate::core) fn into_inner(self) -> T {
        self.0
    }
}

/// An admitted handle is a handle: the layers above hand it to core's functions whole.
impl<T: Handle> Handle for Admitted<T> {
    fn descriptor(&self, key: Key) -> BorrowedFd<'_> {
        self.0.descriptor(key)
    }
}

impl<T> std::ops::Deref for Admitted<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Why [`Gate::open`] gave no object: the open failed, or the gate refused what was opened.
#[derive(Debug)]
pub(crate) enum NotAdmitted {
    /// The open itself failed: the call, the name it was given (relative to its directory
    /// handle) and the OS error, kept until the failure is rendered for the agent.
    Io(SysError),
    /// The gate refused the opened object (a deny rule or the hard-link policy).
    Refused,
}

impl NotAdmitted {
    /// As an OS error: a refusal reads as `EACCES`.
    pub fn into_io(self) -> std::io::Error {
        match self {
            NotAdmitted::Io(e) => e.to_io(),
            NotAdmitted::Refused => std::io::Error::from(Errno::ACCESS),
        }
    }

    /// The failed call, when the open failed (a refusal has none).
    pub(crate) fn sys(&self) -> Option<&SysError> {
        match self {
            NotAdmitted::Io(e) => Some(e),
            NotAdmitted::Refused => None,
        }
    }

    /// The process was out of descriptors or memory for the open: not a fact about the object.
    pub(crate) fn is_transient(&self) -> bool {
        self.sys().is_some_and(|e| {
            [Errno::MFILE, Errno::NFILE, Errno::NOMEM]
                .iter()
                .any(|&c| e.is(c))
        })
    }

    /// The agent's error for the object it knows as `shown`: a refusal reads as the OS refusing
    /// access (`EACCES`), an open failure by its errno; no name of the failed call is shown.
    pub(crate) fn render(&self, shown: &str) -> Error {
        match self {
            NotAdmitted::Io(e) => Error::from_sys(e, shown),
            NotAdmitted::Refused => Error::from_os(&Errno::ACCESS.into(), shown),
        }
    }
}

impl Gate {
    /// Opens `name` beneath `dir` (no symlink followed) and admits it as the object at `rel`
    /// beneath `root`: the one way the layers above open what a walk found or a root itself.
    pub fn open(
        &self,
        root: RootId,
        dir: BorrowedFd<'_>,
        name: &Path,
        rel: &Path,
        want: Want,
    ) -> Result<Admitted<Opened>, NotAdmitted> {
        let opened =
            open::open_beneath(dir, name, want, SymlinkMode::Never).map_err(NotAdmitted::Io)?;
        self.admit(root, rel, &opened)
            .map_err(|_| NotAdmitted::Refused)?;
        Ok(Admitted(opened))
    }
}

/// Opens `rel` beneath `dir` again and checks it is the object admitted before (`first`): a rename
/// between the two opens must not substitute another file, so what it returns is admitted as
/// `first` was. `Err(None)` when the object changed.
pub(crate) fn reopen(
    dir: BorrowedFd<'_>,
    rel: &Path,
    want: Want,
    first: &Admitted<Opened>,
) -> Result<Admitted<Opened>, Option<std::io::Error>> {
    let again =
        open::open_beneath(dir, rel, want, SymlinkMode::Never).map_err(|e| Some(e.into()))?;
    if again.stat.st_dev != first.stat.st_dev || again.stat.st_ino != first.stat.st_ino {
        return Err(None);
    }
    Ok(Admitted(again))
}

impl Gate {
    /// The admitted object again, with its metadata read again from its descriptor and the
    /// hard-link policy applied to that: a link made since the admission counts. (Its path,
    /// which the deny rules judged, is the one it was admitted at.)
    pub fn reopened(&self, first: Admitted<Opened>) -> Result<Admitted<Opened>, NotAdmitted> {
        let fd = first.0.fd;
        let stat = sys::fstat(&fd).map_err(NotAdmitted::Io)?;
        if !self.links_ok(&stat) {
            return Err(NotAdmitted::Refused);
        }
        Ok(Admitted(Opened { fd, stat }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(rules: &[&str], reads: &[&str], write: Option<&str>) -> Gate {
        let rules: Vec<String> = rules.iter().map(|s| s.to_string()).collect();
        let reads: Vec<&Path> = reads.iter().map(Path::new).collect();
        Gate::new(
            DenyRules::new(&rules).unwrap(),
            false,
            &reads,
            write.map(Path::new),
        )
    }

    #[test]
    fn nested_read_roots_share_rules() {
        let g = gate(&["cfg/", "/top.key"], &["/r", "/r/cfg"], None);
        assert!(g.denied(RootId::Read(1), Path::new("prod.key"), false));
        assert!(g.root_denied(RootId::Read(1)));
        assert!(g.denied(RootId::Read(0), Path::new("cfg/prod.key"), false));
        assert!(g.denied(RootId::Read(0), Path::new("top.key"), false));
        assert!(!g.denied(RootId::Read(0), Path::new("src/a.rs"), false));
        let g = gate(&["/prod.key"], &["/r", "/r/cfg"], None);
        // Anchored at the inner root: refused through the outer one too.
        assert!(g.denied(RootId::Read(0), Path::new("cfg/prod.key"), false));
        assert!(g.denied(RootId::Read(1), Path::new("prod.key"), false));
        assert!(!g.denied(RootId::Read(0), Path::new("sub/prod.key"), false));
    }

    #[test]
    fn write_root_inside_a_read_root() {
        let g = gate(
            &["/sub/locked.txt", "sub/*.sh", ".git/"],
            &["/repo"],
            Some("/repo/sub"),
        );
        assert!(g.denied(RootId::Write, Path::new("locked.txt"), false));
        assert!(g.denied(RootId::Write, Path::new("run.sh"), false));
        assert!(!g.denied(RootId::Write, Path::new("ok.txt"), false));
        let g = gate(&[".git/"], &["/repo"], Some("/repo/.git"));
        assert!(g.denied(RootId::Write, Path::new("hooks/pre-commit"), false));
    }

    #[test]
    fn sibling_prefix_is_not_nesting() {
        // A string prefix would put the second root at `_evil` inside the first.
        let g = gate(&["_evil/y"], &["/srv/data", "/srv/data_evil"], None);
        assert!(!g.denied(RootId::Read(1), Path::new("y"), false));
    }
}
