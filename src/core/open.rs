//! The one open path. Every file or directory an agent's request leads to is opened here, relative to a
//! directory handle, with escapes refused by the kernel (openat2 `RESOLVE_BENEATH`) or, where openat2 is
//! missing, by cap-std's per-component resolver.
//!
//! Nothing here takes an ambient path: the only inputs are a directory handle and a relative path.

use crate::core::handle::{self, Handle, Key};
use crate::core::policy::SymlinkMode;
use crate::core::sys::{self, Errno, FileType, OFlags, ResolveFlags, Stat, SysError};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// What the caller intends to do with the object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// Read bytes: `O_RDONLY|O_NONBLOCK|O_NOCTTY`, so a FIFO or a tty can never block or take us over.
    Read,
    /// List entries: `O_DIRECTORY`.
    Dir,
    /// Only metadata: `O_PATH`, which opens nothing for I/O (safe for sockets and devices).
    Meta,
}

/// The kind of an opened object, from `fstat` on its descriptor; in results it is the string
/// `file`, `dir`, `symlink` or `other`.
///
/// ```
/// assert_eq!(serde_json::to_value(rootbound::Kind::Dir).unwrap(), "dir");
/// assert_eq!(rootbound::Kind::File, "file");
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Kind {
    /// A regular file.
    #[default]
    File,
    /// A directory.
    Dir,
    /// A symbolic link (only reported by listings; opens follow or refuse them).
    Symlink,
    /// A FIFO, socket, or device.
    Other,
}

impl PartialEq<&str> for Kind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Kind {
    /// The contract's name for the kind: `file`, `dir`, `symlink`, `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Dir => "dir",
            Kind::Symlink => "symlink",
            Kind::Other => "other",
        }
    }

    pub(crate) fn from_stat(st: &Stat) -> Kind {
        Self::from_file_type(FileType::from_raw_mode(st.st_mode))
    }

    pub(crate) fn from_file_type(ft: FileType) -> Kind {
        match ft {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Symlink,
            _ => Kind::Other,
        }
    }
}

/// An opened object with the metadata read from its own descriptor. The descriptor is core's:
/// the layers above hand the whole object to core's functions (it is a [`Handle`]).
pub(crate) struct Opened {
    pub(in crate::core) fd: OwnedFd,
    pub stat: Stat,
}

impl Opened {
    pub fn kind(&self) -> Kind {
        Kind::from_stat(&self.stat)
    }
}

impl Handle for Opened {
    fn descriptor(&self, _: Key) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

static FORCE_FALLBACK: AtomicBool = AtomicBool::new(false);
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

/// Forces the portable resolver (cap-std's per-component walk) instead of openat2, so tests can run the
/// same attack tables against both. Not for production use.
#[doc(hidden)]
pub fn force_portable_resolver(on: bool) {
    FORCE_FALLBACK.store(on, Ordering::SeqCst);
}

/// Opens what decides visibility only, never a result: a directory above a search's start or an
/// ignore file (`rel` beneath `dir`, no symlink followed). The gate is not asked because nothing
/// read here leaves the process; the deny rules are checked by name before an ignore file is
/// opened (`IgnoreLevel::load`), so a denied one is never read.
pub(crate) fn open_for_rules(
    dir: &(impl Handle + ?Sized),
    rel: &Path,
    want: Want,
) -> sys::Result<Opened> {
    open_beneath(handle::fd(dir), rel, want, SymlinkMode::Never)
}

/// Opens `rel` beneath `dir`. `rel` must be relative; an empty path means `dir` itself.
///
/// Errors carry the call, `rel` and the OS code (`EXDEV` for an escape, `ELOOP` for a loop or, in
/// `Never` mode, any symlink).
/// Core only: the layers above open through `Sandbox::open_found` (the gate's `Gate::open`), which
/// admits what it opened.
pub(in crate::core) fn open_beneath(
    dir: BorrowedFd<'_>,
    rel: &Path,
    want: Want,
    symlinks: SymlinkMode,
) -> sys::Result<Opened> {
    match open_beneath_once(dir, rel, want, symlinks) {
        Err(e)
            if e.is(Errno::LOOP)
                && symlinks == SymlinkMode::Inside
                && magic_link_escape(dir, rel) =>
        {
            Err(SysError::os(e.op(), rel, Errno::XDEV))
        }
        r => r,
    }
}

/// `RESOLVE_NO_MAGICLINKS` reports a magic link (`/proc/self/root`, `/proc/self/fd/N` met under a root
/// in /proc) as ELOOP, which is not a loop. Asks the kernel again without that flag, `O_PATH` only
/// (nothing is opened for I/O and the descriptor is dropped): a scoped lookup refuses a magic link with
/// EXDEV, which is the escape it is. False without openat2 (cap-std's own walk already reports a magic
/// link's target as an escape).
fn magic_link_escape(dir: BorrowedFd<'_>, rel: &Path) -> bool {
    sys::openat2_beneath(dir, rel, OFlags::PATH, ResolveFlags::empty())
        .is_err_and(|e| e.is(Errno::XDEV))
}

fn open_beneath_once(
    dir: BorrowedFd<'_>,
    rel: &Path,
    want: Want,
    symlinks: SymlinkMode,
) -> sys::Result<Opened> {
    let rel: &Path = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    if rel.has_root() {
        return Err(SysError::os("openat2", rel, Errno::XDEV));
    }
    let flags = oflags(want);
    let fd = if FORCE_FALLBACK.load(Ordering::Relaxed) || NO_OPENAT2.load(Ordering::Relaxed) {
        portable::open(dir, rel, flags, symlinks)?
    } else {
        match open_openat2(dir, rel, flags, symlinks) {
            Err(e) if e.is(Errno::NOSYS) || e.is(Errno::PERM) => {
                // No openat2 (old kernel) or a seccomp filter refusing it: remember and fall back.
                if e.is(Errno::NOSYS) {
                    NO_OPENAT2.store(true, Ordering::Relaxed);
                }
                portable::open(dir, rel, flags, symlinks)?
            }
            other => other?,
        }
    };
    let stat = sys::fstat(&fd)?;
    Ok(Opened { fd, stat })
}

/// The access each want asks for (`sys` adds `O_CLOEXEC`, and `O_NOCTTY` to an open for I/O).
fn oflags(want: Want) -> OFlags {
    match want {
        Want::Read => OFlags::RDONLY | OFlags::NONBLOCK,
        Want::Dir => OFlags::RDONLY | OFlags::DIRECTORY,
        Want::Meta => OFlags::PATH,
    }
}

fn open_openat2(
    dir: BorrowedFd<'_>,
    rel: &Path,
    flags: OFlags,
    symlinks: SymlinkMode,
) -> sys::Result<OwnedFd> {
    let mut resolve = ResolveFlags::NO_MAGICLINKS;
    if symlinks == SymlinkMode::Never {
        resolve |= ResolveFlags::NO_SYMLINKS;
    }
    // EAGAIN means a concurrent rename somewhere on the system; the kernel asks us to retry.
    let mut tries = 0;
    loop {
        match sys::openat2_beneath(dir, rel, flags, resolve) {
            Err(e) if e.is(Errno::AGAIN) && tries < 16 => tries += 1,
            Err(e) if e.is(Errno::AGAIN) => return portable::open(dir, rel, flags, symlinks),
            r => return r,
        }
    }
}

/// The resolver used where openat2 is unavailable: a single plain component is opened with `O_NOFOLLOW`
/// directly (it cannot escape); anything longer goes through cap-std's component-by-component walk.
mod portable {
    use super::*;

    pub(super) fn open(
        dir: BorrowedFd<'_>,
        rel: &Path,
        flags: OFlags,
        symlinks: SymlinkMode,
    ) -> sys::Result<OwnedFd> {
        if symlinks == SymlinkMode::Never {
            let mut comps = rel.components();
            let single = matches!(
                (comps.next(), comps.next()),
                (Some(Component::Normal(_)), None)
            );
            if single && !rel.as_os_str().as_encoded_bytes().ends_with(b"/") {
                // One plain name with O_NOFOLLOW (which `sys` sets) cannot leave `dir`: the
                // walker's fast path. O_PATH|O_NOFOLLOW opens a symlink itself and
                // O_DIRECTORY|O_NOFOLLOW says ENOTDIR for one: both mean a symlink was met, which
                // this mode refuses (ELOOP, like openat2).
                let is_link = || has_symlink_component(dir, rel);
                let looped = || SysError::os("openat", rel, Errno::LOOP);
                return match sys::openat(dir, rel, flags, sys::Mode::empty()) {
                    Ok(fd)
                        if flags.contains(OFlags::PATH)
                            && FileType::from_raw_mode(sys::fstat(&fd)?.st_mode)
                                == FileType::Symlink =>
                    {
                        Err(looped())
                    }
                    Err(e) if e.is(Errno::NOTDIR) && is_link() => Err(looped()),
                    r => r,
                };
            }
            if has_symlink_component(dir, rel) {
                return Err(SysError::os("open", rel, Errno::LOOP));
            }
        }
        if flags.contains(OFlags::DIRECTORY) {
            return sys::portable::open_dir(dir, rel, flags);
        }
        sys::portable::open(dir, rel, flags)
    }

    fn has_symlink_component(dir: BorrowedFd<'_>, rel: &Path) -> bool {
        let mut prefix = PathBuf::new();
        for c in rel.components() {
            prefix.push(c);
            if let Ok(st) = sys::statat(dir, &prefix) {
                if FileType::from_raw_mode(st.st_mode) == FileType::Symlink {
                    return true;
                }
            }
        }
        false
    }
}

/// The path of an open descriptor relative to the directory handle `root`, read from `/proc/self/fd`.
///
/// This names the object actually opened (after every symlink and `..`), so deny rules can be checked on
/// it whatever spelling reached it. `None` when `/proc` is unavailable or the two no longer nest (for
/// example the file was deleted).
pub(crate) fn path_beneath(root: BorrowedFd<'_>, fd: BorrowedFd<'_>) -> Option<PathBuf> {
    let root_path = fd_path(root)?;
    let path = fd_path(fd)?;
    path.strip_prefix(&root_path).ok().map(Path::to_path_buf)
}

fn fd_path(fd: BorrowedFd<'_>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let bytes = sys::fd_host_path(fd).ok()?;
    if bytes.first() != Some(&b'/') {
        return None;
    }
    // The kernel appends " (deleted)" to an unlinked object's path, but a live file may carry that
    // suffix in its own name: only a link count of 0 means deleted (else a symlink to such a name would
    // be deny-checked under the symlink's own name).
    if bytes.ends_with(b" (deleted)") && sys::fstat(fd).map_or(true, |st| st.st_nlink == 0) {
        return None;
    }
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

/// Lexical normalisation (`.` dropped, `..` pops): the fallback name for deny checks when `/proc` is absent.
pub(crate) fn lexical(rel: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// Whether some step of `rel` beneath `dir`, as the filesystem resolves it (through symlinks),
/// lands on a path `denied` refuses: `kl/..` or `kl/x` with `kl -> k.pem` must not answer
/// NOT_A_FILE where a missing `k.pem` answers otherwise, and `gl/../README` with `gl -> .git` must
/// not succeed only when `.git` exists. Each step is opened for metadata only (`O_PATH`) from the
/// real path reached so far (so a request of 2,000 steps costs 2,000 short lookups, not 2,000
/// lookups of up to 2,000 steps each); from the first step that does not resolve, the rest is
/// placed where it [`would_be`] and read as text. For a request that failed or holds `..`: a
/// plain request that opened was checked whole by the gate.
pub(crate) fn steps_on(
    dir: BorrowedFd<'_>,
    rel: &Path,
    symlinks: SymlinkMode,
    denied: impl Fn(&Path) -> bool,
) -> bool {
    steps_on_at(dir, rel, symlinks, &denied, &mut 0)
}

/// [`steps_on`] of `rel` with `hops` symlinks walked so far: a symlink met on the way is walked by
/// its text too (`l -> z/../a` steps on `z` although the kernel lands on `a`), from the directory
/// that holds it. The count is shared by the whole walk (at most 40 links, as the kernel follows),
/// so links whose bodies name other links cannot multiply the work.
fn steps_on_at(
    dir: BorrowedFd<'_>,
    rel: &Path,
    symlinks: SymlinkMode,
    denied: &dyn Fn(&Path) -> bool,
    hops: &mut u32,
) -> bool {
    let comps: Vec<Component<'_>> = rel.components().collect();
    let mut real = PathBuf::new();
    for (i, c) in comps.iter().enumerate() {
        match c {
            Component::Normal(n) => {
                if let Some(body) = link_body(dir, &real, n, symlinks) {
                    *hops += 1;
                    if *hops > 40 {
                        return false;
                    }
                    if body.is_relative()
                        && steps_on_at(dir, &real.join(&body), symlinks, denied, hops)
                    {
                        return true;
                    }
                }
                let next = real.join(n);
                let reached = open_beneath(dir, &next, Want::Meta, symlinks)
                    .ok()
                    .and_then(|o| path_beneath(dir, o.fd.as_fd()));
                match reached {
                    Some(p) if denied(&p) => return true,
                    Some(p) => real = p,
                    None => {
                        let Some(at) = would_be_at(dir, &next, symlinks, 0) else {
                            return false;
                        };
                        return deepest_points(&at, comps[i + 1..].iter().copied())
                            .iter()
                            .any(|p| denied(p));
                    }
                }
            }
            Component::ParentDir => {
                real.pop();
            }
            _ => {}
        }
    }
    false
}

/// The text of `name` in the directory at the real path `parent`, when it is a symlink that the
/// sandbox follows.
fn link_body(
    dir: BorrowedFd<'_>,
    parent: &Path,
    name: &std::ffi::OsStr,
    symlinks: SymlinkMode,
) -> Option<PathBuf> {
    if symlinks == SymlinkMode::Never {
        return None;
    }
    let pfd = open_beneath(dir, parent, Want::Dir, symlinks).ok()?.fd;
    sys::readlinkat(&pfd, name).ok()
}

/// The deepest paths a walk from `start` along `comps` (read as text: `..` pops) reaches: `start`
/// itself, the path before each `..`, and the end. Every path the walk passes is one of these or a
/// parent of one, so a check that covers parents (the deny rules do) needs only these.
pub(crate) fn deepest_points<'a>(
    start: &Path,
    comps: impl Iterator<Item = Component<'a>>,
) -> Vec<PathBuf> {
    let mut at = start.to_path_buf();
    let mut out = vec![at.clone()];
    let mut grew = false;
    for c in comps {
        match c {
            Component::Normal(n) => {
                at.push(n);
                grew = true;
            }
            Component::ParentDir => {
                if grew {
                    out.push(at.clone());
                    grew = false;
                }
                at.pop();
            }
            _ => {}
        }
    }
    if grew {
        out.push(at);
    }
    out.retain(|p| !p.as_os_str().is_empty());
    out
}

/// Whether a request holds a `..` step (resolved by the filesystem, through whatever it passes).
pub(crate) fn has_parent_step(rel: &Path) -> bool {
    rel.components().any(|c| matches!(c, Component::ParentDir))
}

/// Borrows a descriptor (a small helper so callers need not import `AsFd`).
pub(crate) fn borrow<F: AsFd>(f: &F) -> BorrowedFd<'_> {
    f.as_fd()
}

/// Where `rel` beneath `dir` would be if it existed: the real path of its deepest existing directory,
/// then the rest of the request, following dangling relative symlinks on the way (at most 40 hops).
/// A request that answers NOT_FOUND through a symlink to a denied name must answer DENIED, as the
/// same request does once the name exists; this finds that name. `None` when the request leads
/// nowhere a name can be checked (out of the root, an absolute link, an unreadable directory).
pub(crate) fn would_be(dir: BorrowedFd<'_>, rel: &Path, symlinks: SymlinkMode) -> Option<PathBuf> {
    // Only a path a symlink changed says more than the lexical check already did.
    let plain = lexical(rel);
    would_be_at(dir, &plain, symlinks, 0).filter(|p| *p != plain)
}

fn would_be_at(
    dir: BorrowedFd<'_>,
    rel: &Path,
    symlinks: SymlinkMode,
    hops: u32,
) -> Option<PathBuf> {
    if hops > 40 {
        return None;
    }
    let name = rel.file_name()?;
    let parent = rel.parent().unwrap_or(Path::new(""));
    let pfd = match open_beneath(dir, parent, Want::Dir, symlinks) {
        Ok(o) => o.fd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // The parent does not exist either: nothing below it can be a symlink.
            return Some(would_be_at(dir, parent, symlinks, hops + 1)?.join(name));
        }
        Err(_) => return None,
    };
    let real_parent = path_beneath(dir, pfd.as_fd())?;
    match sys::readlinkat(&pfd, name) {
        Ok(target) if symlinks == SymlinkMode::Inside => {
            if target.has_root() {
                return None;
            }
            would_be_at(dir, &lexical(&real_parent.join(target)), symlinks, hops + 1)
        }
        Ok(_) => None,
        Err(_) => Some(real_parent.join(name)),
    }
}
