//! Reading a directory through its handle: entries (name and type) read to the end with getdents,
//! with the handle kept for opening them.

use rustix::fs::FileType;
use std::ffi::OsString;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;

/// A directory handle that was read to the end: its descriptor stays usable for opening entries.
pub(crate) struct DirFd {
    /// Owns the descriptor; only `raw` is used after reading.
    _dir: rustix::fs::Dir,
    raw: std::os::fd::RawFd,
}

impl AsFd for DirFd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        // SAFETY: `raw` is the descriptor owned by `dir`, which lives as long as `self`.
        unsafe { BorrowedFd::borrow_raw(self.raw) }
    }
}

/// Reads a directory through the descriptor itself (no second open of `.`), keeping it for the
/// entries' opens.
pub(crate) fn read_entries_owned(fd: OwnedFd) -> Option<(DirFd, Vec<(OsString, FileType)>)> {
    use std::os::fd::AsRawFd;
    let raw = fd.as_raw_fd();
    let mut dir = rustix::fs::Dir::new(fd).ok()?;
    let entries = collect_entries(&mut dir)?;
    Some((DirFd { _dir: dir, raw }, entries))
}

/// The entries of a directory, sorted by name bytes, without `.` and `..`.
pub(crate) fn read_entries(fd: &OwnedFd) -> Option<Vec<(OsString, FileType)>> {
    let mut dir = rustix::fs::Dir::read_from(fd).ok()?;
    collect_entries(&mut dir)
}

fn collect_entries(dir: &mut rustix::fs::Dir) -> Option<Vec<(OsString, FileType)>> {
    let mut out = Vec::new();
    while let Some(entry) = dir.read() {
        let entry = entry.ok()?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        out.push((
            OsString::from(std::ffi::OsStr::from_bytes(name)),
            entry.file_type(),
        ));
    }
    out.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Some(out)
}

pub(crate) fn stat_type(dir: &impl AsFd, name: &OsString) -> FileType {
    rustix::fs::statat(dir, name.as_os_str(), rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
        .map(|st| FileType::from_raw_mode(st.st_mode))
        .unwrap_or(FileType::Unknown)
}
