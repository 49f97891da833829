//! Reading a directory through its handle: entries (name and type) read to the end with getdents,
//! with the handle kept for opening them; an entry's or an opened object's metadata; the types that
//! read an admitted file. The layers above name these instead of `rustix::fs` or `std::fs`, and
//! hand them the handle core gave them (a [`Handle`]: an [`Admitted`] object, a [`DirFd`]) whole:
//! only core takes the descriptor out. The calls themselves are `sys`'s.

use crate::core::handle::{self, Handle, Key};
use crate::core::sys::{self, DirStream, SysError};
pub(crate) use crate::core::sys::{File, FileType, Stat};
use std::ffi::OsString;
use std::os::fd::BorrowedFd;
use std::path::Path;

use crate::core::admit::Admitted;
use crate::core::open::Opened;

/// A directory handle that was read to the end: its descriptor stays usable for opening entries.
pub(crate) struct DirFd {
    /// Owns the descriptor; only `raw` is used after reading.
    _dir: DirStream,
    raw: std::os::fd::RawFd,
}

impl Handle for DirFd {
    fn descriptor(&self, _: Key) -> BorrowedFd<'_> {
        // SAFETY: `raw` is the descriptor owned by `dir`, which lives as long as `self`.
        unsafe { BorrowedFd::borrow_raw(self.raw) }
    }
}

/// Reads an admitted directory through the descriptor itself (no second open of `.`), keeping it
/// for the entries' opens.
pub(crate) fn read_entries_owned(
    opened: Admitted<Opened>,
) -> Option<(DirFd, Vec<(OsString, FileType)>)> {
    use std::os::fd::AsRawFd;
    let fd = opened.into_inner().fd;
    let raw = fd.as_raw_fd();
    let mut dir = sys::dir_stream(fd).ok()?;
    let entries = sys::read_entries(&mut dir).ok()?;
    Some((DirFd { _dir: dir, raw }, entries))
}

/// The entries of a directory, sorted by name bytes, without `.` and `..`.
pub(crate) fn read_entries(dir: &(impl Handle + ?Sized)) -> Option<Vec<(OsString, FileType)>> {
    let mut dir = sys::dir_stream_of(handle::fd(dir)).ok()?;
    sys::read_entries(&mut dir).ok()
}

/// The type of the entry `name` of `dir` (`fstatat`, no symlink followed); `Unknown` when the
/// stat fails.
pub(crate) fn stat_type(dir: &(impl Handle + ?Sized), name: &OsString) -> FileType {
    sys::statat(handle::fd(dir), name)
        .map(|st| FileType::from_raw_mode(st.st_mode))
        .unwrap_or(FileType::Unknown)
}

/// An entry's own metadata (`fstatat` with `AT_SYMLINK_NOFOLLOW`: a symlink is not followed).
pub(crate) fn stat_entry(
    dir: &(impl Handle + ?Sized),
    name: &(impl AsRef<Path> + ?Sized),
) -> Result<Stat, SysError> {
    sys::statat(handle::fd(dir), name)
}

/// The metadata of an open object, read again from its descriptor (`fstat`).
pub(crate) fn stat_fd(opened: &(impl Handle + ?Sized)) -> Result<Stat, SysError> {
    sys::fstat(handle::fd(opened))
}

/// The birth time (seconds) of an admitted object, when the filesystem keeps one.
pub(crate) fn birth_time(opened: &Admitted<Opened>) -> Option<i64> {
    sys::birth_time(&opened.fd)
}

/// The handle of a root narrowed to a directory admitted beneath a configured root.
pub(crate) fn root_dir(opened: Admitted<Opened>) -> sys::Dir {
    sys::dir_handle(opened.into_inner().fd)
}

/// A reader over an opened, admitted file (no path is opened here).
pub(crate) fn reader(opened: Admitted<Opened>) -> File {
    File::from(opened.into_inner().fd)
}

/// Moves the offset of a reader made by [`reader`] back to the start, to read the file again.
pub(crate) fn rewind(file: &File) -> std::io::Result<()> {
    use std::io::Seek;
    let mut f = file;
    f.seek(std::io::SeekFrom::Start(0)).map(|_| ())
}

/// Reads bytes of a reader made by [`reader`] at `offset` (`pread`: its own offset is left as is).
pub(crate) fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}
