//! Publishing a write: a temporary file in the target's directory, synced, then renamed into place
//! (exclusively, or as a swap that is undone if the file changed meanwhile); stale temporaries of
//! interrupted writes are removed.

use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names::EntryName;
use crate::core::open::Kind;
use crate::core::sys::{self, Errno, Mode, OFlags, RenameFlags, SysError};

use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicU64, Ordering};

use super::Dest;

/// The prefix of the temporary files `write_file` makes beside its target (removed on every error).
pub const TEMP_PREFIX: &str = ".rootbound-tmp-";

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
    let Some(entries) = crate::core::dirs::read_entries(dir) else {
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    for (name, _) in entries {
        if !is_temp_name(name.as_encoded_bytes()) || !may_remove(&name) {
            continue;
        }
        let Ok(st) = sys::statat(dir, name.as_os_str()) else {
            continue;
        };
        if Kind::from_stat(&st) == Kind::File
            && st.st_nlink == 1
            && now - st.st_mtime > STALE_TEMP_SECS
        {
            let _ = sys::unlinkat(dir, name.as_os_str());
        }
    }
}

/// Creates a new temporary file in `dir` (`O_EXCL`, and `O_NOFOLLOW` from `sys`, so nothing planted
/// under its name is opened or followed).
pub(super) fn create_temp(dir: &OwnedFd, raw: &str) -> Result<(OwnedFd, String)> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL;
    let mut tries = 0;
    loop {
        let tmp = format!(
            "{TEMP_PREFIX}{}-{}",
            std::process::id(),
            TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let e = match sys::openat(dir, tmp.as_str(), flags, Mode::from_raw_mode(0o644)) {
            Ok(fd) => return Ok((fd, tmp)),
            Err(e) => e,
        };
        match e.errno() {
            // Another process (another PID namespace) chose the same name: pick another.
            Some(Errno::EXIST) if tries < 8 => tries += 1,
            Some(Errno::ACCESS | Errno::PERM | Errno::ROFS) => {
                let e = e.reason();
                return Err(Error::new(
                    ErrorCode::PermissionDenied,
                    format!(
                        "the operating system refused to create a file in the directory of '{raw}': {e}"
                    ),
                ));
            }
            _ => {
                let e = e.reason();
                return Err(Error::new(
                    ErrorCode::IoError,
                    format!("cannot create a file in the directory of '{raw}': {e}"),
                ));
            }
        }
    }
}

/// What an edit read: the target must still be this file, with these bytes, when the edit lands.
#[derive(Clone, Copy)]
pub(crate) struct Unchanged<'a> {
    pub stat: &'a sys::Stat,
    pub bytes: &'a [u8],
}

/// Writes `data` to a temporary file beside `name`, syncs it, and renames it into place: atomically
/// replacing what is there (`replace`), or only if nothing is there (`RENAME_NOREPLACE`, or `linkat`
/// where the filesystem lacks it). `perm` (an existing file's permission bits) is kept on replace. The
/// temporary file is removed on every error.
pub(crate) fn publish(
    t: &Dest,
    data: &[u8],
    replace: bool,
    perm: Option<u32>,
    raw: &str,
    unchanged_since: Option<Unchanged<'_>>,
) -> Result<()> {
    publish_at(&t.dir, &t.name, data, replace, perm, raw, unchanged_since)
}

/// [`publish`] into the directory `dir` under `name`.
fn publish_at(
    dir: &OwnedFd,
    name: &EntryName,
    data: &[u8],
    replace: bool,
    perm: Option<u32>,
    raw: &str,
    unchanged_since: Option<Unchanged<'_>>,
) -> Result<()> {
    let (fd, tmp) = create_temp(dir, raw)?;
    let io = |what: &str, e: SysError| {
        let e = e.reason();
        Error::new(
            ErrorCode::IoError,
            format!("{what} failed while writing '{raw}': {e}; nothing was written"),
        )
    };
    let result = (|| {
        if let Some(perm) = perm {
            // Best effort: the content is what matters.
            let _ = sys::fchmod(&fd, Mode::from_raw_mode(perm));
        }
        write_all(&fd, data).map_err(|e| io("write", e))?;
        sys::fsync(&fd).map_err(|e| io("fsync", e))?;
        drop(fd);
        if let Some(first) = unchanged_since {
            return swap_if_unchanged(dir, &tmp, name, first, raw);
        }
        if replace {
            return sys::renameat(dir, tmp.as_str(), dir, name.as_os_str()).map_err(|e| {
                match e.errno() {
                    Some(Errno::ISDIR | Errno::NOTDIR | Errno::NOTEMPTY | Errno::EXIST) => {
                        Error::new(
                            ErrorCode::NotAFile,
                            format!(
                                "'{raw}' became a directory while writing; nothing was replaced"
                            ),
                        )
                    }
                    _ => io("rename", e),
                }
            });
        }
        let appeared = || {
            Error::new(
                ErrorCode::AlreadyExists,
                format!("'{raw}' appeared while writing; nothing was replaced"),
            )
        };
        let moved = sys::renameat2(
            dir,
            tmp.as_str(),
            dir,
            name.as_os_str(),
            RenameFlags::NOREPLACE,
        );
        let Err(e) = moved else { return Ok(()) };
        match e.errno() {
            Some(Errno::EXIST) => Err(appeared()),
            // No RENAME_NOREPLACE here: a hard link is exclusive too (the temporary name is removed
            // below on success and on failure).
            Some(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                match sys::linkat(dir, tmp.as_str(), dir, name.as_os_str()) {
                    Ok(()) => {
                        let _ = sys::unlinkat(dir, tmp.as_str());
                        Ok(())
                    }
                    Err(e) if e.is(Errno::EXIST) => Err(appeared()),
                    Err(e) => Err(io("link", e)),
                }
            }
            _ => Err(io("rename", e)),
        }
    })();
    match &result {
        // The new name is durable once its directory is synced (best effort: the rename is done).
        Ok(()) => {
            let _ = sys::fsync(dir);
        }
        Err(_) => {
            let _ = sys::unlinkat(dir, tmp.as_str());
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
        let flags = OFlags::RDONLY | OFlags::NONBLOCK;
        let Ok(fd) = sys::openat(dir, n, flags, Mode::empty()) else {
            return false;
        };
        let Ok(st) = sys::fstat(&fd) else {
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
    let swapped = sys::renameat2(dir, tmp, dir, name.as_os_str(), RenameFlags::EXCHANGE);
    let Err(e) = swapped else {
        if same(std::ffi::OsStr::new(tmp)) {
            // `tmp` now names the old file, which the caller's cleanup does not touch on success.
            let _ = sys::unlinkat(dir, tmp);
            return Ok(());
        }
        let _ = sys::renameat2(dir, tmp, dir, name.as_os_str(), RenameFlags::EXCHANGE);
        return Err(changed());
    };
    match e.errno() {
        Some(Errno::NOENT) => Err(changed()),
        Some(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
            sys::renameat(dir, tmp, dir, name.as_os_str()).map_err(|e| {
                let e = e.reason();
                Error::new(
                    ErrorCode::IoError,
                    format!("rename failed while writing '{raw}': {e}"),
                )
            })
        }
        _ => {
            let e = e.reason();
            Err(Error::new(
                ErrorCode::IoError,
                format!("rename failed while writing '{raw}': {e}; nothing was written"),
            ))
        }
    }
}

fn write_all(fd: &OwnedFd, mut data: &[u8]) -> std::result::Result<(), SysError> {
    while !data.is_empty() {
        match sys::write(fd, data)? {
            0 => return Err(SysError::os("write", "", Errno::IO)),
            n => data = &data[n..],
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::ErrorCode;
    use rustix::fs::{Mode, OFlags};
    use std::os::fd::OwnedFd;
    use std::path::Path;

    fn dir_fd(p: &Path) -> OwnedFd {
        rustix::fs::open(p, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap()
    }

    fn temps(p: &Path) -> Vec<String> {
        std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TEMP_PREFIX))
            .collect()
    }

    fn age(p: &Path) {
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(past)
            .unwrap();
    }

    #[test]
    fn only_old_temporaries_of_our_exact_naming_are_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let at = |n: &str| tmp.path().join(n);
        let old = at(&format!("{TEMP_PREFIX}1-1"));
        let fresh = at(&format!("{TEMP_PREFIX}1-2"));
        let users = at(&format!("{TEMP_PREFIX}notes.txt"));
        let linked = at(&format!("{TEMP_PREFIX}7-7"));
        let refused = at(&format!("{TEMP_PREFIX}9-9"));
        for (p, text) in [
            (&old, "left by a crash"),
            (&fresh, "a write in flight"),
            (&users, "the user's own file"),
            (&linked, "a hard link"),
            (&refused, "denied by the caller"),
        ] {
            std::fs::write(p, text).unwrap();
            age(p);
        }
        std::fs::hard_link(&linked, at("other-name")).unwrap();
        std::fs::create_dir(at(&format!("{TEMP_PREFIX}3-3"))).unwrap();
        std::os::unix::fs::symlink(&old, at(&format!("{TEMP_PREFIX}4-4"))).unwrap();
        // The fresh one keeps its recent mtime.
        std::fs::write(&fresh, "a write in flight").unwrap();
        let dir: OwnedFd = std::fs::File::open(tmp.path()).unwrap().into();
        let refused_name = refused.file_name().unwrap().to_owned();
        remove_stale_temps(&dir, |n| n != refused_name);
        assert!(!old.exists(), "a stale temporary file of ours goes");
        for kept in [&fresh, &users, &linked, &refused] {
            assert!(kept.exists(), "{} must stay", kept.display());
        }
        assert!(at(&format!("{TEMP_PREFIX}3-3")).is_dir());
        assert!(at(&format!("{TEMP_PREFIX}4-4")).symlink_metadata().is_ok());
    }

    #[test]
    fn temp_names_are_recognised_exactly() {
        for ok in ["1-2", "123-0"] {
            assert!(is_temp_name(format!("{TEMP_PREFIX}{ok}").as_bytes()));
        }
        for bad in ["", "1", "1-", "-1", "1-2-3", "a-1", "1-2.pem", "cert.pem"] {
            assert!(
                !is_temp_name(format!("{TEMP_PREFIX}{bad}").as_bytes()),
                "{bad}"
            );
        }
    }

    #[test]
    fn publishing_sweeps_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let old = tmp.path().join(format!("{TEMP_PREFIX}1-1"));
        std::fs::write(&old, "maybe the user's").unwrap();
        age(&old);
        let dir: OwnedFd = std::fs::File::open(tmp.path()).unwrap().into();
        publish_at(
            &dir,
            &EntryName::new(std::ffi::OsStr::new("new")).unwrap(),
            b"x",
            false,
            None,
            "new",
            None,
        )
        .unwrap();
        assert!(
            old.exists(),
            "only the sandbox, with delete approval, sweeps"
        );
        assert_eq!(std::fs::read(tmp.path().join("new")).unwrap(), b"x");
    }

    #[test]
    fn rename_failure_removes_the_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        std::fs::write(tmp.path().join("d/inner"), "x").unwrap();
        std::fs::create_dir(tmp.path().join("empty")).unwrap();
        let dir = dir_fd(tmp.path());
        for name in ["d", "empty"] {
            let e = publish_at(
                &dir,
                &EntryName::new(std::ffi::OsStr::new(name)).unwrap(),
                b"data",
                true,
                None,
                name,
                None,
            )
            .unwrap_err();
            assert_eq!(e.code, ErrorCode::NotAFile, "{name}: {e}");
            assert!(tmp.path().join(name).is_dir());
        }
        assert_eq!(temps(tmp.path()), Vec::<String>::new());
    }

    #[test]
    fn exclusive_publish_refuses_and_cleans_up() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("f"), "old").unwrap();
        let dir = dir_fd(tmp.path());
        let e = publish_at(
            &dir,
            &EntryName::new(std::ffi::OsStr::new("f")).unwrap(),
            b"new",
            false,
            None,
            "f",
            None,
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::AlreadyExists);
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("f")).unwrap(),
            "old"
        );
        publish_at(
            &dir,
            &EntryName::new(std::ffi::OsStr::new("g")).unwrap(),
            b"new",
            false,
            None,
            "g",
            None,
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("g")).unwrap(),
            "new"
        );
        assert_eq!(temps(tmp.path()), Vec::<String>::new());
    }

    #[test]
    fn replace_keeps_the_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("f");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        let dir = dir_fd(tmp.path());
        publish_at(
            &dir,
            &EntryName::new(std::ffi::OsStr::new("f")).unwrap(),
            b"new",
            true,
            Some(0o600),
            "f",
            None,
        )
        .unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
