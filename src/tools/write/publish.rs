//! Publishing a write: a temporary file in the target's directory, synced, then renamed into place
//! (exclusively, or as a swap that is undone if the file changed meanwhile); stale temporaries of
//! interrupted writes are removed.

use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names::EntryName;
use crate::core::open::Kind;
use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicU64, Ordering};

use super::TEMP_PREFIX;

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A temporary file this old was left by a write that died (a crash, a kill): a live one lives for one
/// write and fsync.
pub(super) const STALE_TEMP_SECS: i64 = 300;

/// Whether `name` is exactly what [`create_temp`] makes: the prefix, a process id, `-`, a counter.
pub(super) fn is_temp_name(name: &[u8]) -> bool {
    let Some(rest) = name.strip_prefix(TEMP_PREFIX.as_bytes()) else {
        return false;
    };
    let mut parts = rest.split(|&b| b == b'-');
    let digits = |p: Option<&[u8]>| {
        p.is_some_and(|p| !p.is_empty() && p.len() <= 20 && p.iter().all(u8::is_ascii_digit))
    };
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Removes temporary files that an interrupted write of rootbound's left in `dir`: regular files with
/// one link, named exactly as [`create_temp`] names them, older than [`STALE_TEMP_SECS`], and for
/// which `may_remove` (the caller's deny rules) says yes. Anything else of a similar name (a user's
/// file, a directory, a symlink, a denied name) is left alone.
pub(super) fn remove_stale_temps(dir: &OwnedFd, may_remove: impl Fn(&std::ffi::OsStr) -> bool) {
    let Some(entries) = crate::walk::read_entries(dir) else {
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    for (name, _) in entries {
        if !is_temp_name(name.as_encoded_bytes()) || !may_remove(&name) {
            continue;
        }
        let Ok(st) = rustix::fs::statat(dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) else {
            continue;
        };
        if Kind::from_stat(&st) == Kind::File
            && st.st_nlink == 1
            && now - st.st_mtime > STALE_TEMP_SECS
        {
            let _ = rustix::fs::unlinkat(dir, name.as_os_str(), AtFlags::empty());
        }
    }
}

/// Creates a new temporary file in `dir` (`O_EXCL|O_NOFOLLOW`, so nothing planted under its name is
/// opened or followed).
pub(super) fn create_temp(dir: &OwnedFd, raw: &str) -> Result<(OwnedFd, String)> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut tries = 0;
    loop {
        let tmp = format!(
            "{TEMP_PREFIX}{}-{}",
            std::process::id(),
            TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        match rustix::fs::openat(dir, tmp.as_str(), flags, Mode::from_raw_mode(0o644)) {
            Ok(fd) => return Ok((fd, tmp)),
            // Another process (another PID namespace) chose the same name: pick another.
            Err(Errno::EXIST) if tries < 8 => tries += 1,
            Err(e @ (Errno::ACCESS | Errno::PERM | Errno::ROFS)) => {
                return Err(Error::new(
                    ErrorCode::PermissionDenied,
                    format!(
                        "the operating system refused to create a file in the directory of '{raw}': {e}"
                    ),
                ))
            }
            Err(e) => {
                return Err(Error::new(
                    ErrorCode::IoError,
                    format!("cannot create a file in the directory of '{raw}': {e}"),
                ))
            }
        }
    }
}

/// What an edit read: the target must still be this file, with these bytes, when the edit lands.
#[derive(Clone, Copy)]
pub(crate) struct Unchanged<'a> {
    pub stat: &'a rustix::fs::Stat,
    pub bytes: &'a [u8],
}

/// Writes `data` to a temporary file beside `name`, syncs it, and renames it into place: atomically
/// replacing what is there (`replace`), or only if nothing is there (`RENAME_NOREPLACE`, or `linkat`
/// where the filesystem lacks it). `perm` (an existing file's permission bits) is kept on replace. The
/// temporary file is removed on every error.
pub(crate) fn publish(
    dir: &OwnedFd,
    name: &EntryName,
    data: &[u8],
    replace: bool,
    perm: Option<u32>,
    raw: &str,
    unchanged_since: Option<Unchanged<'_>>,
) -> Result<()> {
    let (fd, tmp) = create_temp(dir, raw)?;
    let io = |what: &str, e: Errno| {
        Error::new(
            ErrorCode::IoError,
            format!("{what} failed while writing '{raw}': {e}; nothing was written"),
        )
    };
    let result = (|| {
        if let Some(perm) = perm {
            // Best effort: the content is what matters.
            let _ = rustix::fs::fchmod(&fd, Mode::from_raw_mode(perm));
        }
        write_all(&fd, data).map_err(|e| io("write", e))?;
        rustix::fs::fsync(&fd).map_err(|e| io("fsync", e))?;
        drop(fd);
        if let Some(first) = unchanged_since {
            return swap_if_unchanged(dir, &tmp, name, first, raw);
        }
        if replace {
            return rustix::fs::renameat(dir, tmp.as_str(), dir, name.as_os_str()).map_err(|e| {
                match e {
                    Errno::ISDIR | Errno::NOTDIR | Errno::NOTEMPTY | Errno::EXIST => Error::new(
                        ErrorCode::NotAFile,
                        format!("'{raw}' became a directory while writing; nothing was replaced"),
                    ),
                    e => io("rename", e),
                }
            });
        }
        let appeared = || {
            Error::new(
                ErrorCode::AlreadyExists,
                format!("'{raw}' appeared while writing; nothing was replaced"),
            )
        };
        match rustix::fs::renameat_with(
            dir,
            tmp.as_str(),
            dir,
            name.as_os_str(),
            RenameFlags::NOREPLACE,
        ) {
            Ok(()) => Ok(()),
            Err(Errno::EXIST) => Err(appeared()),
            // No RENAME_NOREPLACE here: a hard link is exclusive too (the temporary name is removed
            // below on success and on failure).
            Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                match rustix::fs::linkat(dir, tmp.as_str(), dir, name.as_os_str(), AtFlags::empty())
                {
                    Ok(()) => {
                        let _ = rustix::fs::unlinkat(dir, tmp.as_str(), AtFlags::empty());
                        Ok(())
                    }
                    Err(Errno::EXIST) => Err(appeared()),
                    Err(e) => Err(io("link", e)),
                }
            }
            Err(e) => Err(io("rename", e)),
        }
    })();
    match &result {
        // The new name is durable once its directory is synced (best effort: the rename is done).
        Ok(()) => {
            let _ = rustix::fs::fsync(dir);
        }
        Err(_) => {
            let _ = rustix::fs::unlinkat(dir, tmp.as_str(), AtFlags::empty());
        }
    }
    result
}

/// Edits of this process swap names one at a time: between one edit's exchange and its undo,
/// another edit's exchange would be swapped back and deleted with it (a refused edit published, a
/// successful one lost).
static SWAP: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// An edit's replace: the new file takes the target's name only if the target is still the file the
/// edit read (identity, size, modification time and content: an inode number is reused once freed,
/// and a modification time can repeat within a clock tick), so a concurrent update is never lost.
/// With `RENAME_EXCHANGE` the two names are swapped atomically and the file taken out is checked; if
/// it is not the one read, the swap is undone. The same check runs just before the exchange (or, without
/// `RENAME_EXCHANGE`, a plain rename). Edits in this process are serialized here. Not covered: another
/// process replacing the name, or writing into the new file, in the microseconds between an exchange
/// and its undo.
fn swap_if_unchanged(
    dir: &OwnedFd,
    tmp: &str,
    name: &EntryName,
    first: Unchanged<'_>,
    raw: &str,
) -> Result<()> {
    let f = first.stat;
    let same = |n: &std::ffi::OsStr| {
        let flags =
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let Ok(fd) = rustix::fs::openat(dir, n, flags, Mode::empty()) else {
            return false;
        };
        let Ok(st) = rustix::fs::fstat(&fd) else {
            return false;
        };
        if (
            st.st_dev,
            st.st_ino,
            st.st_size,
            st.st_mtime,
            st.st_mtime_nsec,
        ) != (f.st_dev, f.st_ino, f.st_size, f.st_mtime, f.st_mtime_nsec)
            || Kind::from_stat(&st) != Kind::File
        {
            return false;
        }
        // One byte more than was read, so a file that grew since is seen to differ.
        crate::core::io::pread_exact(&fd, 0, first.bytes.len() + 1).is_ok_and(|b| b == first.bytes)
    };
    let changed = || {
        Error::new(
            ErrorCode::AlreadyExists,
            format!("'{raw}' changed while it was being edited; nothing was written: read it again and redo the edit"),
        )
    };
    let _one_at_a_time = SWAP.lock().unwrap_or_else(|e| e.into_inner());
    // Checked first too: the exchange makes the new file visible until it is undone, and a write into
    // it meanwhile would be lost with the undo. Most changes (during the temporary file's fsync) are
    // caught here without exchanging at all.
    if !same(name.as_os_str()) {
        return Err(changed());
    }
    match rustix::fs::renameat_with(dir, tmp, dir, name.as_os_str(), RenameFlags::EXCHANGE) {
        Ok(()) => {
            if same(std::ffi::OsStr::new(tmp)) {
                // `tmp` now names the old file, which the caller's cleanup does not touch on success.
                let _ = rustix::fs::unlinkat(dir, tmp, AtFlags::empty());
                return Ok(());
            }
            let _ =
                rustix::fs::renameat_with(dir, tmp, dir, name.as_os_str(), RenameFlags::EXCHANGE);
            Err(changed())
        }
        Err(Errno::NOENT) => Err(changed()),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
            rustix::fs::renameat(dir, tmp, dir, name.as_os_str()).map_err(|e| {
                Error::new(
                    ErrorCode::IoError,
                    format!("rename failed while writing '{raw}': {e}"),
                )
            })
        }
        Err(e) => Err(Error::new(
            ErrorCode::IoError,
            format!("rename failed while writing '{raw}': {e}; nothing was written"),
        )),
    }
}

fn write_all(fd: &OwnedFd, mut data: &[u8]) -> std::result::Result<(), Errno> {
    while !data.is_empty() {
        match rustix::io::write(fd, data) {
            Ok(0) => return Err(Errno::IO),
            Ok(n) => data = &data[n..],
            Err(Errno::INTR) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
