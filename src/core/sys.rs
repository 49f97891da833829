//! The one syscall layer: every filesystem call core makes is wrapped here once, with the flags
//! that safety needs forced here (`O_CLOEXEC` and `O_NOFOLLOW` on every open, `O_NOCTTY` on every
//! open for I/O, `RESOLVE_BENEATH` on every `openat2`, `AT_SYMLINK_NOFOLLOW` on every `fstatat`, no
//! `AT_REMOVEDIR`), so no call site can forget one. The rest of core calls these
//! (`tests/gate/layout.rs` checks that no other file of core names `rustix`, `std::fs` or
//! `cap_std`).
//!
//! A failure is a [`SysError`]: the operation, the name given to it (relative to a directory
//! handle: never a host path the agent did not give) and the errno, carried up until core renders
//! it for the agent ([`crate::core::error::Error::from_sys`]).
//!
//! The calls taking an ambient path (the operator's roots and cache directory, `/proc/self/fd`)
//! are gathered at the end, apart from those taking a directory handle.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// A root's directory handle (cap-std's, which resolves beneath itself).
pub(crate) use cap_std::fs::Dir;
#[cfg(target_os = "linux")]
pub(crate) use rustix::fs::inotify::{ReadFlags, Reader as InotifyReader, WatchFlags};
pub(crate) use rustix::fs::{FileType, Mode, OFlags, RenameFlags, ResolveFlags, Stat};
pub(crate) use rustix::io::Errno;
pub(crate) use std::fs::File;

/// A failed call: the operation, the names given to it (relative to the directory handle it was
/// given, or empty for a call on a descriptor) and the OS error.
#[derive(Debug)]
pub(crate) struct SysError {
    op: &'static str,
    args: Vec<PathBuf>,
    errno: Option<Errno>,
    /// The error's kind, for an error with no errno (cap-std reports an escape so).
    kind: io::ErrorKind,
}

impl SysError {
    /// `op` on `arg` failed with `errno`.
    pub(crate) fn os(op: &'static str, arg: &(impl AsRef<Path> + ?Sized), errno: Errno) -> Self {
        let kind = io::Error::from(errno).kind();
        SysError {
            op,
            args: vec![arg.as_ref().to_path_buf()],
            errno: Some(errno),
            kind,
        }
    }

    /// `op` on `arg` failed with `e` (a library's error, which may hold no errno).
    fn io(op: &'static str, arg: &(impl AsRef<Path> + ?Sized), e: &io::Error) -> Self {
        SysError {
            op,
            args: vec![arg.as_ref().to_path_buf()],
            errno: e.raw_os_error().map(Errno::from_raw_os_error),
            kind: e.kind(),
        }
    }

    /// The call that failed (`"openat2"`, `"fstatat"`, ...).
    pub(crate) fn op(&self) -> &'static str {
        self.op
    }

    /// The names the call was given, relative to its directory handle.
    pub(crate) fn args(&self) -> &[PathBuf] {
        &self.args
    }

    /// The OS error, if the failure carried one.
    pub(crate) fn errno(&self) -> Option<Errno> {
        self.errno
    }

    /// Whether the call failed with `errno`.
    pub(crate) fn is(&self, errno: Errno) -> bool {
        self.errno == Some(errno)
    }

    pub(crate) fn kind(&self) -> io::ErrorKind {
        self.kind
    }

    /// The OS error alone, as `std::io` has it: what the error codes are mapped from.
    pub(crate) fn to_io(&self) -> io::Error {
        match self.errno {
            Some(e) => io::Error::from(e),
            None => io::Error::from(self.kind),
        }
    }

    /// What went wrong, without the call or its names (the errno's description).
    pub(crate) fn reason(&self) -> String {
        match self.errno {
            Some(e) => e.to_string(),
            None => format!("{:?}", self.kind),
        }
    }
}

impl fmt::Display for SysError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.op)?;
        for (i, a) in self.args().iter().enumerate() {
            let sep = if i == 0 { " " } else { " -> " };
            write!(f, "{sep}'{}'", a.display())?;
        }
        write!(f, ": {}", self.reason())
    }
}

impl std::error::Error for SysError {}

impl From<SysError> for io::Error {
    fn from(e: SysError) -> io::Error {
        e.to_io()
    }
}

pub(crate) type Result<T> = std::result::Result<T, SysError>;

/// The flags every open gets: never leaks to a child (`O_CLOEXEC`), never follows a symlink in
/// the last component (`O_NOFOLLOW`), and, when opened for I/O, never becomes our terminal
/// (`O_NOCTTY`; `O_PATH` takes no flag but these few).
fn forced(flags: OFlags) -> OFlags {
    let base = flags | OFlags::CLOEXEC | OFlags::NOFOLLOW;
    if flags.contains(OFlags::PATH) {
        base
    } else {
        base | OFlags::NOCTTY
    }
}

/// `openat(dir, name)` with [`forced`] flags: one plain name (a longer path is resolved by
/// [`openat2_beneath`] or the portable resolver).
pub(crate) fn openat(
    dir: impl AsFd,
    name: &(impl AsRef<Path> + ?Sized),
    flags: OFlags,
    mode: Mode,
) -> Result<OwnedFd> {
    rustix::fs::openat(dir, name.as_ref(), forced(flags), mode)
        .map_err(|e| SysError::os("openat", name, e))
}

/// `openat2(dir, rel)` with `RESOLVE_BENEATH` forced: no step may leave `dir`. `O_NOFOLLOW` is
/// not forced here: what to do with symlinks is said by `resolve` (`RESOLVE_NO_SYMLINKS`).
pub(crate) fn openat2_beneath(
    dir: BorrowedFd<'_>,
    rel: &Path,
    flags: OFlags,
    resolve: ResolveFlags,
) -> Result<OwnedFd> {
    let mut flags = flags | OFlags::CLOEXEC;
    if !flags.contains(OFlags::PATH) {
        flags |= OFlags::NOCTTY;
    }
    rustix::fs::openat2(
        dir,
        rel,
        flags,
        Mode::empty(),
        resolve | ResolveFlags::BENEATH,
    )
    .map_err(|e| SysError::os("openat2", rel, e))
}

/// An entry's own metadata: `fstatat` with `AT_SYMLINK_NOFOLLOW` (a symlink is not followed).
pub(crate) fn statat(dir: impl AsFd, name: &(impl AsRef<Path> + ?Sized)) -> Result<Stat> {
    rustix::fs::statat(dir, name.as_ref(), rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
        .map_err(|e| SysError::os("fstatat", name, e))
}

/// The metadata of an open descriptor.
pub(crate) fn fstat(fd: impl AsFd) -> Result<Stat> {
    rustix::fs::fstat(fd).map_err(|e| SysError::os("fstat", "", e))
}

/// The birth time of an open descriptor in seconds (`statx` with `STATX_BTIME` on the descriptor
/// itself, `AT_EMPTY_PATH`), when the kernel and filesystem keep one.
#[cfg(target_os = "linux")]
pub(crate) fn birth_time(fd: impl AsFd) -> Option<i64> {
    use rustix::fs::{AtFlags, StatxFlags};
    let st = rustix::fs::statx(fd, "", AtFlags::EMPTY_PATH, StatxFlags::BTIME).ok()?;
    (st.stx_mask & StatxFlags::BTIME.bits() != 0).then_some(st.stx_btime.tv_sec)
}

/// No portable birth time elsewhere.
#[cfg(not(target_os = "linux"))]
pub(crate) fn birth_time(_fd: impl AsFd) -> Option<i64> {
    None
}

/// The filesystem type of the one holding `fd` (`f_type` of `fstatfs`).
#[cfg(target_os = "linux")]
pub(crate) fn fs_type(fd: impl AsFd) -> Result<i64> {
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    rustix::fs::fstatfs(fd)
        .map(|st| st.f_type as i64)
        .map_err(|e| SysError::os("fstatfs", "", e))
}

/// The text of the symlink `name` in `dir`.
pub(crate) fn readlinkat(dir: impl AsFd, name: &(impl AsRef<Path> + ?Sized)) -> Result<PathBuf> {
    rustix::fs::readlinkat(dir, name.as_ref(), Vec::new())
        .map(|t| PathBuf::from(OsString::from_vec(t.into_bytes())))
        .map_err(|e| SysError::os("readlinkat", name, e))
}

/// Makes directory `name` in `dir`.
pub(crate) fn mkdirat(
    dir: impl AsFd,
    name: &(impl AsRef<Path> + ?Sized),
    mode: Mode,
) -> Result<()> {
    rustix::fs::mkdirat(dir, name.as_ref(), mode).map_err(|e| SysError::os("mkdirat", name, e))
}

/// Removes the non-directory `name` from `dir` (never `AT_REMOVEDIR`: a directory swapped in is
/// not removed; a symlink is removed itself, never followed).
pub(crate) fn unlinkat(dir: impl AsFd, name: &(impl AsRef<Path> + ?Sized)) -> Result<()> {
    rustix::fs::unlinkat(dir, name.as_ref(), rustix::fs::AtFlags::empty())
        .map_err(|e| SysError::os("unlinkat", name, e))
}

fn two(op: &'static str, from: &Path, to: &Path, e: Errno) -> SysError {
    let mut err = SysError::os(op, from, e);
    err.args.push(to.to_path_buf());
    err
}

/// `renameat`: `from` in `from_dir` takes the name `to` in `to_dir`, replacing what is there.
pub(crate) fn renameat(
    from_dir: impl AsFd,
    from: &(impl AsRef<Path> + ?Sized),
    to_dir: impl AsFd,
    to: &(impl AsRef<Path> + ?Sized),
) -> Result<()> {
    let (from, to) = (from.as_ref(), to.as_ref());
    rustix::fs::renameat(from_dir, from, to_dir, to).map_err(|e| two("renameat", from, to, e))
}

/// `renameat2` with `flags` (`RENAME_NOREPLACE`, `RENAME_EXCHANGE`).
pub(crate) fn renameat2(
    from_dir: impl AsFd,
    from: &(impl AsRef<Path> + ?Sized),
    to_dir: impl AsFd,
    to: &(impl AsRef<Path> + ?Sized),
    flags: RenameFlags,
) -> Result<()> {
    let (from, to) = (from.as_ref(), to.as_ref());
    rustix::fs::renameat_with(from_dir, from, to_dir, to, flags)
        .map_err(|e| two("renameat2", from, to, e))
}

/// `linkat` without `AT_SYMLINK_FOLLOW`: a symlink is linked itself.
pub(crate) fn linkat(
    from_dir: impl AsFd,
    from: &(impl AsRef<Path> + ?Sized),
    to_dir: impl AsFd,
    to: &(impl AsRef<Path> + ?Sized),
) -> Result<()> {
    let (from, to) = (from.as_ref(), to.as_ref());
    rustix::fs::linkat(from_dir, from, to_dir, to, rustix::fs::AtFlags::empty())
        .map_err(|e| two("linkat", from, to, e))
}

pub(crate) fn fsync(fd: impl AsFd) -> Result<()> {
    rustix::fs::fsync(fd).map_err(|e| SysError::os("fsync", "", e))
}

pub(crate) fn fchmod(fd: impl AsFd, mode: Mode) -> Result<()> {
    rustix::fs::fchmod(fd, mode).map_err(|e| SysError::os("fchmod", "", e))
}

/// One `pread` at `offset`, retried on `EINTR`.
pub(crate) fn pread(fd: impl AsFd, buf: &mut [u8], offset: u64) -> Result<usize> {
    loop {
        match rustix::io::pread(&fd, &mut *buf, offset) {
            Err(Errno::INTR) => continue,
            r => return r.map_err(|e| SysError::os("pread", "", e)),
        }
    }
}

/// One `write`, retried on `EINTR`.
pub(crate) fn write(fd: impl AsFd, data: &[u8]) -> Result<usize> {
    loop {
        match rustix::io::write(&fd, data) {
            Err(Errno::INTR) => continue,
            r => return r.map_err(|e| SysError::os("write", "", e)),
        }
    }
}

/// A directory stream read with `getdents`.
pub(crate) use rustix::fs::Dir as DirStream;

/// A stream over the directory `fd` (which it takes; its offset is its own).
pub(crate) fn dir_stream(fd: OwnedFd) -> Result<DirStream> {
    DirStream::new(fd).map_err(|e| SysError::os("fdopendir", "", e))
}

/// A stream over the directory `fd` from its start, on a descriptor of its own (`fd` is kept).
pub(crate) fn dir_stream_of(fd: impl AsFd) -> Result<DirStream> {
    DirStream::read_from(fd).map_err(|e| SysError::os("fdopendir", "", e))
}

/// Every entry of a stream to its end (without `.` and `..`), sorted by name bytes.
pub(crate) fn read_entries(dir: &mut DirStream) -> Result<Vec<(OsString, FileType)>> {
    let mut out = Vec::new();
    while let Some(entry) = dir.read() {
        let entry = entry.map_err(|e| SysError::os("getdents", "", e))?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        out.push((OsString::from(OsStr::from_bytes(name)), entry.file_type()));
    }
    out.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(out)
}

/// The root handle over an admitted directory's descriptor.
pub(crate) fn dir_handle(fd: OwnedFd) -> Dir {
    Dir::from_std_file(File::from(fd))
}

/// The portable resolver's opens where `openat2` is missing: cap-std's walk, one component at a
/// time, each beneath `dir`.
pub(crate) mod portable {
    use super::*;
    use cap_std::fs::{OpenOptions, OpenOptionsExt};
    use std::mem::ManuallyDrop;
    use std::os::fd::FromRawFd;

    fn borrowed(dir: BorrowedFd<'_>) -> ManuallyDrop<Dir> {
        // SAFETY: the borrowed descriptor outlives the call and ManuallyDrop never closes it.
        ManuallyDrop::new(unsafe { Dir::from_raw_fd(dir.as_raw_fd()) })
    }

    /// Opens the directory `rel` beneath `dir` for reading: cap-std's `open_dir` gives an `O_PATH`
    /// descriptor, which cannot be listed, so its "." (which names that same directory and cannot
    /// leave it) is opened again with `flags`.
    pub(crate) fn open_dir(dir: BorrowedFd<'_>, rel: &Path, flags: OFlags) -> Result<OwnedFd> {
        let d = borrowed(dir)
            .open_dir(rel)
            .map_err(|e| SysError::io("open_dir", rel, &e))?;
        openat(&d, ".", flags, Mode::empty())
    }

    /// Opens `rel` beneath `dir` for reading, with `extra` (`O_NONBLOCK`, `O_PATH`) added to the
    /// flags cap-std sets (`O_CLOEXEC`, `O_NOCTTY` forced here as everywhere).
    pub(crate) fn open(dir: BorrowedFd<'_>, rel: &Path, extra: OFlags) -> Result<OwnedFd> {
        let mut opts = OpenOptions::new();
        opts.read(true);
        let mut extra = extra & (OFlags::NONBLOCK | OFlags::PATH);
        if !extra.contains(OFlags::PATH) {
            extra |= OFlags::NOCTTY;
        }
        opts.custom_flags(extra.bits() as i32);
        let file = borrowed(dir)
            .open_with(rel, &opts)
            .map_err(|e| SysError::io("open", rel, &e))?;
        Ok(OwnedFd::from(file.into_std()))
    }
}

/// An inotify instance that never blocks a read and never leaks to a child.
#[cfg(target_os = "linux")]
pub(crate) fn inotify_init() -> io::Result<OwnedFd> {
    use rustix::fs::inotify::{init, CreateFlags};
    Ok(init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)?)
}

/// Watches the directory open at `dir` (through its `/proc/self/fd` name: inotify takes a path,
/// and this one names the very directory opened).
#[cfg(target_os = "linux")]
pub(crate) fn inotify_watch(ino: impl AsFd, dir: BorrowedFd<'_>, mask: WatchFlags) -> Result<i32> {
    let link = format!("/proc/self/fd/{}", dir.as_raw_fd());
    rustix::fs::inotify::add_watch(ino, link.as_str(), mask | WatchFlags::ONLYDIR)
        .map_err(|e| SysError::os("inotify_add_watch", "", e))
}

// Ambient paths: only the operator's (a configured root, the cache directory) and /proc's.

/// The host path of an open descriptor, read from `/proc/self/fd`, as the kernel spells it.
pub(crate) fn fd_host_path(fd: BorrowedFd<'_>) -> Result<Vec<u8>> {
    let link = format!("/proc/self/fd/{}", fd.as_raw_fd());
    rustix::fs::readlinkat(rustix::fs::CWD, link.as_str(), Vec::new())
        .map(|t| t.into_bytes())
        .map_err(|e| SysError::os("readlink", "", e))
}

/// Opens a root by its operator-given path: its canonical path and its handle.
pub(crate) fn open_root(path: &Path) -> io::Result<(PathBuf, Dir)> {
    let canonical = std::fs::canonicalize(path)?;
    let dir = Dir::open_ambient_dir(&canonical, cap_std::ambient_authority())?;
    Ok((canonical, dir))
}

/// The operator's `path` with every symlink resolved.
pub(crate) fn canonicalize(path: &Path) -> io::Result<PathBuf> {
    std::fs::canonicalize(path)
}

/// Makes the operator's directory `path` and its missing parents, mode 0700.
pub(crate) fn create_private_dirs(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
}

/// Opens the operator's directory `path` (following symlinks: the operator chose it).
pub(crate) fn open_ambient_dir(path: &Path) -> std::result::Result<OwnedFd, Errno> {
    rustix::fs::open(
        path,
        OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// This process's effective user id.
pub(crate) fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Hands the pages glibc's allocator holds free back to the kernel (`malloc_trim(0)`); nothing
/// elsewhere.
pub(crate) fn malloc_trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes each arena's lock and only hands free pages back
    // (madvise(MADV_DONTNEED)); it touches no memory the program holds.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Whether process `pid` exists (one of another user's does too): `kill(pid, 0)` is not `ESRCH`.
pub(crate) fn process_exists(pid: u32) -> bool {
    let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(rustix::process::test_kill_process(p), Err(Errno::SRCH))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Error, ErrorCode};

    #[test]
    fn an_error_keeps_its_call_and_names_and_renders_without_a_host_path() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        let dir: OwnedFd = File::open(tmp.path()).unwrap().into();
        let e = openat2_beneath(
            dir.as_fd(),
            Path::new("d/missing.txt"),
            OFlags::RDONLY,
            ResolveFlags::empty(),
        )
        .unwrap_err();
        assert_eq!(e.op(), "openat2");
        assert_eq!(e.args(), [PathBuf::from("d/missing.txt")]);
        assert_eq!(e.errno(), Some(Errno::NOENT));
        let host = tmp.path().to_str().unwrap();
        let shown = e.to_string();
        assert!(shown.starts_with("openat2 'd/missing.txt': "), "{shown}");
        assert!(!shown.contains(host), "{shown}");
        let rendered = Error::from_sys(&e, "d/missing.txt");
        assert_eq!(rendered.code, ErrorCode::NotFound);
        assert_eq!(
            rendered.message,
            "'d/missing.txt' does not exist in any root"
        );
        // The open path hands the call's own error up, names and all.
        let e = crate::core::open::open_beneath(
            dir.as_fd(),
            Path::new("d/missing.txt"),
            crate::core::open::Want::Read,
            crate::core::policy::SymlinkMode::Inside,
        )
        .err()
        .unwrap();
        assert!(["openat2", "open"].contains(&e.op()), "{e}");
        assert_eq!(e.args(), [PathBuf::from("d/missing.txt")]);
        assert!(e.is(Errno::NOENT));

        // A rename keeps both names; an I/O error renders its reason, still without the host path.
        let e = renameat(&dir, "d", &dir, "d/inside").unwrap_err();
        assert_eq!(e.op(), "renameat");
        assert_eq!(e.args(), [PathBuf::from("d"), PathBuf::from("d/inside")]);
        assert_eq!(e.errno(), Some(Errno::INVAL));
        assert!(e.to_string().starts_with("renameat 'd' -> 'd/inside': "));
        let rendered = Error::from_sys(&e, "d");
        assert_eq!(rendered.code, ErrorCode::IoError);
        assert!(rendered.message.starts_with("'d' could not be read: "));
        assert!(!rendered.message.contains(host));
    }

    #[test]
    fn every_open_gets_the_forced_flags() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("f"), "x").unwrap();
        std::os::unix::fs::symlink("f", tmp.path().join("l")).unwrap();
        let dir: OwnedFd = File::open(tmp.path()).unwrap().into();
        // No caller asked for O_NOFOLLOW or O_CLOEXEC: both are there.
        let e = openat(&dir, "l", OFlags::RDONLY, Mode::empty()).unwrap_err();
        assert_eq!((e.op(), e.errno()), ("openat", Some(Errno::LOOP)));
        let fd = openat(&dir, "f", OFlags::RDONLY, Mode::empty()).unwrap();
        let fl = rustix::io::fcntl_getfd(&fd).unwrap();
        assert!(fl.contains(rustix::io::FdFlags::CLOEXEC));
        // openat2 resolves beneath its directory without being asked.
        let e = openat2_beneath(
            dir.as_fd(),
            Path::new("../x"),
            OFlags::RDONLY,
            ResolveFlags::empty(),
        )
        .unwrap_err();
        assert!(
            [Errno::XDEV, Errno::NOSYS, Errno::PERM].contains(&e.errno().unwrap()),
            "{e}"
        );
    }
}
