//! The index's cache directory: where a root's saved index is kept between runs.
//!
//! The directory is the operator's choice (or the user's cache directory), never an agent's, so it
//! is reached by path here; every file in it is then opened relative to its handle, without
//! following symlinks. It is refused when an agent could write it or another user could: it must
//! be owned by this user, not writable by group or others, and lie outside every root (compared by
//! device and inode walking up from it, so a bind mount or a symlinked path of a root is caught
//! too). A refused directory keeps the index in memory only.

use crate::core::sys::{self, FileType, Mode, OFlags, SysError};
use std::io::Write;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// An accepted cache directory, held open.
pub(crate) struct CacheDir {
    fd: OwnedFd,
    path: PathBuf,
}

impl std::fmt::Debug for CacheDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CacheDir({})", self.path.display())
    }
}

/// The user's cache directory for rootbound: `$XDG_CACHE_HOME/rootbound` when that is an absolute
/// path, else `$HOME/.cache/rootbound`.
pub(crate) fn user_cache_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from);
    let base = match xdg {
        Some(p) if p.is_absolute() => p,
        _ => {
            let home = PathBuf::from(std::env::var_os("HOME")?);
            if !home.is_absolute() {
                return None;
            }
            home.join(".cache")
        }
    };
    Some(base.join("rootbound"))
}

/// `path` with its longest existing ancestor resolved (the rest need not exist yet).
fn canonical(path: &Path) -> PathBuf {
    for a in path.ancestors() {
        if let Ok(c) = sys::canonicalize(a) {
            return c.join(path.strip_prefix(a).unwrap_or(Path::new("")));
        }
    }
    path.to_path_buf()
}

/// A file's identity.
fn id(fd: &impl AsFd) -> Result<(u64, u64), SysError> {
    let st = sys::fstat(fd)?;
    #[allow(clippy::unnecessary_cast)]
    Ok((st.st_dev as u64, st.st_ino as u64))
}

const INSIDE: &str = "index_dir lies inside a root (an agent could write it)";

/// Opens (creating it, mode 0700) the cache directory at `path`, unless it is not private to this
/// user or lies inside one of `roots` (directory handles; `root_paths`: their canonical paths
/// and those of the roots that anchor deny rules) or of `outside` (operator-given directories
/// other agents reach, compared by path and, when they open, by identity): `Err` says why.
pub(crate) fn open(
    path: &Path,
    roots: &[&dyn AsFd],
    root_paths: &[PathBuf],
    outside: &[PathBuf],
) -> Result<CacheDir, String> {
    // Before any save of this process (see `remove_stale_temps`).
    started();
    // The reasons name no path: they are shown in the index status, which agents see.
    if !path.is_absolute() {
        return Err("index_dir is not an absolute path".into());
    }
    // Checked before anything is created, so no directory is made inside a root.
    let outside_paths = outside.iter().map(|p| canonical(p));
    if root_paths
        .iter()
        .cloned()
        .chain(outside_paths)
        .any(|r| canonical(path).starts_with(r))
    {
        return Err(INSIDE.into());
    }
    sys::create_private_dirs(path).map_err(|e| format!("index_dir cannot be created: {e}"))?;
    let fd = sys::open_ambient_dir(path).map_err(|e| format!("index_dir cannot be opened: {e}"))?;
    let st = sys::fstat(&fd).map_err(|e| format!("index_dir: {}", e.reason()))?;
    if st.st_uid != sys::euid() {
        return Err("index_dir is not owned by this user".into());
    }
    if st.st_mode & 0o022 != 0 {
        return Err(format!(
            "index_dir is writable by group or others (mode {:o})",
            st.st_mode & 0o777
        ));
    }
    let mut inside: Vec<(u64, u64)> = roots.iter().filter_map(|r| id(r).ok()).collect();
    // Another agent's root that cannot be opened now was compared by path above.
    inside.extend(
        outside
            .iter()
            .filter_map(|p| sys::open_ambient_dir(p).ok())
            .filter_map(|fd| id(&fd).ok()),
    );
    if within(&fd, &inside)? {
        return Err(INSIDE.into());
    }
    Ok(CacheDir {
        fd,
        path: path.to_path_buf(),
    })
}

/// Whether the directory `fd` is one of `roots` or lies beneath one: walks up through `..` to
/// the filesystem's root.
fn within(fd: &OwnedFd, roots: &[(u64, u64)]) -> Result<bool, String> {
    let err = |e: SysError| format!("index_dir cannot be checked: {}", e.reason());
    let mut here = sys::openat(fd, ".", OFlags::DIRECTORY, Mode::empty()).map_err(err)?;
    // Bounded: a path has at most this many components (PATH_MAX / 2).
    for _ in 0..2048 {
        let me = id(&here).map_err(err)?;
        if roots.contains(&me) {
            return Ok(true);
        }
        let up = sys::openat(&here, "..", OFlags::DIRECTORY, Mode::empty()).map_err(err)?;
        if id(&up).map_err(err)? == me {
            return Ok(false);
        }
        here = up;
    }
    Err("index_dir cannot be checked: too deep".into())
}

/// A saved file as read: its bytes, mapped (page cache, not the process's own memory).
pub(crate) struct Mapped(memmap2::Mmap);

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl CacheDir {
    /// Writes file `name` (a plain name, no `/`) whole: to a temporary file of mode 0600 first,
    /// then renamed over it, so a reader sees the old file or the new one, never a part. `stop`
    /// is asked before each MiB and before the sync: once it says so the write ends, its
    /// temporary file removed (kind `Interrupted`): a dropped index does not finish a save of
    /// hundreds of MB.
    pub(crate) fn write(
        &self,
        name: &str,
        parts: &[&[u8]],
        stop: &dyn Fn() -> bool,
    ) -> std::io::Result<()> {
        static N: AtomicU64 = AtomicU64::new(0);
        let tmp = format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let create = || {
            sys::openat(
                &self.fd,
                tmp.as_str(),
                OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY,
                Mode::from_raw_mode(0o600),
            )
        };
        let fd = match create() {
            // This process never used this name (its number is new), so the file is a crashed
            // save's of an earlier process with the same id (a server restarted in a container
            // is pid 1 again): removed, as a dead process's temporary file is.
            Err(e) if e.is(sys::Errno::EXIST) && self.own_file(&tmp) => {
                let _ = sys::unlinkat(&self.fd, tmp.as_str());
                create()?
            }
            r => r?,
        };
        let mut f = std::io::BufWriter::with_capacity(1 << 20, sys::File::from(fd));
        // On disk before the rename: a crash after it leaves the whole new file, never a
        // renamed file whose blocks were not written yet.
        let stopped = || match stop() {
            true => Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "the index was stopped",
            )),
            false => Ok(()),
        };
        let wrote = parts
            .iter()
            .flat_map(|p| p.chunks(1 << 20))
            .try_for_each(|p| stopped().and_then(|_| f.write_all(p)))
            .and_then(|_| f.flush())
            .and_then(|_| stopped())
            .and_then(|_| sys::fsync(f.get_ref()).map_err(Into::into));
        let moved = wrote.and_then(|_| {
            sys::renameat(&self.fd, tmp.as_str(), &self.fd, name).map_err(Into::into)
        });
        if moved.is_err() {
            let _ = sys::unlinkat(&self.fd, tmp.as_str());
        }
        moved
    }

    /// Removes the temporary files of saves whose process ended before the rename (a crash):
    /// `.NAME.PID.N.tmp` with `NAME` a name `ours` accepts, `PID` a process that no longer
    /// exists, or this process's id on a file last written before this process opened its first
    /// cache directory (an earlier process with the same id: a server restarted in a container
    /// is pid 1 again), and `N` a number, a regular file of this user's. Nothing else in the
    /// directory is touched. Returns how many were removed.
    pub(crate) fn remove_stale_temps(&self, ours: impl Fn(&str) -> bool) -> usize {
        let Ok(entries) = sys::dir_stream_of(&self.fd).and_then(|mut d| sys::read_entries(&mut d))
        else {
            return 0;
        };
        let mut removed = 0;
        for (name, _) in entries {
            let Some(name) = name.to_str() else {
                continue;
            };
            let dead = match stale_temp_pid(name, &ours) {
                None => false,
                Some(pid) if pid == std::process::id() => self
                    .own_file_stat(name)
                    .is_some_and(|st| written_before(&st, started())),
                Some(pid) => !sys::process_exists(pid),
            };
            if dead && self.own_file(name) {
                removed += usize::from(sys::unlinkat(&self.fd, name).is_ok());
            }
        }
        removed
    }

    /// Removes the files `superseded` accepts that are regular files of this user's last
    /// written more than `age` ago (`superseded` decides by name alone: saved indexes that no save
    /// will write again). Nothing else in the directory is touched, and nothing is opened. Returns
    /// how many were removed.
    pub(crate) fn remove_superseded(
        &self,
        superseded: impl Fn(&str) -> bool,
        age: Duration,
    ) -> usize {
        let Ok(entries) = sys::dir_stream_of(&self.fd).and_then(|mut d| sys::read_entries(&mut d))
        else {
            return 0;
        };
        let Some(before) = SystemTime::now()
            .checked_sub(age)
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        else {
            return 0;
        };
        let mut removed = 0;
        for (name, _) in entries {
            let Some(name) = name.to_str().filter(|n| superseded(n)) else {
                continue;
            };
            let old = self
                .own_file_stat(name)
                .is_some_and(|st| st.st_mtime < before.as_secs() as i64);
            if old {
                removed += usize::from(sys::unlinkat(&self.fd, name).is_ok());
            }
        }
        removed
    }

    /// Whether `name` is a regular file of this user's (not followed if a symlink).
    fn own_file(&self, name: &str) -> bool {
        self.own_file_stat(name).is_some()
    }

    /// The stat of `name` when it is a regular file of this user's (not followed if a symlink).
    fn own_file_stat(&self, name: &str) -> Option<sys::Stat> {
        let st = sys::statat(&self.fd, name).ok()?;
        (FileType::from_raw_mode(st.st_mode).is_file() && st.st_uid == sys::euid()).then_some(st)
    }

    /// Maps file `name` (a regular file of this user's, not a symlink); `None` when there is none.
    pub(crate) fn map(&self, name: &str) -> std::io::Result<Option<Mapped>> {
        // Non-blocking: a FIFO planted with the name would wait for a writer, and the build
        // thread with it; it is refused below as not a regular file.
        let flags = OFlags::RDONLY | OFlags::NONBLOCK;
        let fd = match sys::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(e) if e.is(sys::Errno::NOENT) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let st = sys::fstat(&fd)?;
        let regular = FileType::from_raw_mode(st.st_mode).is_file();
        if !regular || st.st_uid != sys::euid() {
            return Err(std::io::Error::other("not a regular file of this user's"));
        }
        if st.st_size == 0 {
            return Err(std::io::Error::other("empty"));
        }
        let file = sys::File::from(fd);
        // SAFETY: the file is this user's, in a directory only this user may write, and never
        // written in place (a new snapshot is renamed over it): the mapping's bytes do not change
        // under the reader unless the user truncates it by hand, which the checksum does not
        // guard against (a SIGBUS, as for any mapped file).
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Ok(Some(Mapped(map)))
    }
}

/// A scratch file of the cache directory (an index build's posting lists spilled off the heap):
/// created private to the user (mode 0600) and unlinked at once, so it has no name while it is
/// written and read, and its blocks go back to the filesystem when its handle closes, whether the
/// build succeeds, fails, is dropped or the process dies.
pub(crate) struct Scratch(sys::File);

impl CacheDir {
    /// A new [`Scratch`] file in this directory.
    pub(crate) fn scratch(&self) -> std::io::Result<Scratch> {
        static N: AtomicU64 = AtomicU64::new(0);
        // A name `remove_stale_temps` would not take for a save's, removed before it is used.
        let name = format!(
            ".scratch.{}.{}.tmp",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let fd = sys::openat(
            &self.fd,
            name.as_str(),
            OFlags::CREATE | OFlags::EXCL | OFlags::RDWR,
            Mode::from_raw_mode(0o600),
        )?;
        sys::unlinkat(&self.fd, name.as_str())?;
        Ok(Scratch(sys::File::from(fd)))
    }
}

impl std::io::Write for Scratch {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl Scratch {
    /// The bytes written so far, mapped (page cache, not the process's own memory).
    pub(crate) fn map(&self) -> std::io::Result<Mapped> {
        // SAFETY: the file has no name and only this handle reaches it; it is not written while
        // the mapping lives (the caller maps it once written).
        let map = unsafe { memmap2::Mmap::map(&self.0)? };
        Ok(Mapped(map))
    }

    /// The file's links (0: it has no name).
    #[cfg(test)]
    #[allow(clippy::unnecessary_cast)]
    pub(crate) fn links(&self) -> u64 {
        sys::fstat(&self.0).map_or(u64::MAX, |st| st.st_nlink as u64)
    }
}

/// When this process first opened a cache directory: every temporary file of its saves is
/// written after it, so one of its id written before is an earlier process's.
fn started() -> SystemTime {
    static STARTED: std::sync::OnceLock<SystemTime> = std::sync::OnceLock::new();
    *STARTED.get_or_init(SystemTime::now)
}

/// Whether `st` was last modified before `t` (a second's margin for coarse timestamps: a file
/// of this process's is never taken for an earlier one's).
fn written_before(st: &sys::Stat, t: SystemTime) -> bool {
    let Ok(t) = t.duration_since(UNIX_EPOCH) else {
        return false;
    };
    #[allow(clippy::unnecessary_cast)]
    let m = st.st_mtime as i64;
    m + 1 < t.as_secs() as i64
}

/// The process id in `name` when it is a temporary file of [`CacheDir::write`] for a file `ours`
/// accepts (`.NAME.PID.N.tmp`), this process's own included (see
/// [`CacheDir::remove_stale_temps`]).
fn stale_temp_pid(name: &str, ours: &impl Fn(&str) -> bool) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = inner.rsplitn(3, '.');
    let (n, pid, base) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(n) || !digits(pid) || !ours(base) {
        return None;
    }
    pid.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch file has no name from the moment it is returned: nothing is left in the
    /// directory whatever becomes of its writer, and its bytes read back through the mapping.
    #[test]
    fn a_scratch_file_has_no_name() {
        let d = tempfile::tempdir().unwrap();
        let dir = open(d.path(), &[], &[], &[]).unwrap();
        let mut s = dir.scratch().unwrap();
        s.write_all(b"runs").unwrap();
        assert_eq!(s.links(), 0);
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
        assert_eq!(&s.map().unwrap()[..], b"runs");
    }

    /// A write asks `stop` before each MiB: stopped part way through a large file it leaves
    /// neither the file nor its temporary file, and an old file of that name stays as it was.
    #[test]
    fn a_stopped_write_leaves_nothing_behind() {
        let d = tempfile::tempdir().unwrap();
        let dir = open(d.path(), &[], &[], &[]).unwrap();
        dir.write("ix", &[b"old"], &|| false).unwrap();
        let big = vec![7u8; 5 << 20];
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 2
        };
        let e = dir.write("ix", &[b"head", &big], &stop).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::Interrupted);
        assert_eq!(asked.get(), 3);
        let names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("ix")]);
        assert_eq!(std::fs::read(d.path().join("ix")).unwrap(), b"old");
        dir.write("ix", &[b"head", &big], &|| false).unwrap();
        assert_eq!(
            std::fs::metadata(d.path().join("ix")).unwrap().len(),
            4 + (5 << 20)
        );
    }
}
