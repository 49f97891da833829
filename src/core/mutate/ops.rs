//! The write operations besides publishing: making a directory, deleting a file, moving, and opening
//! an edit's target. Each takes what [`Sandbox::target`] and [`Sandbox::existing`] admitted and checks
//! the gate again where the operation adds a question of its own (a directory's kind for dir-only
//! rules, what a moved directory holds, whether a move makes something readable).

use super::{Checked, Dest, Existing, MovePair};
use crate::core::admit::RootId;
use crate::core::deadline::Deadline;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::io::pread_exact;
use crate::core::names::EntryName;
use crate::core::open::{self, Kind, Want};
use crate::core::policy::SymlinkMode;
use crate::core::sandbox::{denied, Sandbox};
use crate::core::sys::{self, Errno, FileType, Mode, OFlags, RenameFlags, Stat};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

/// Entries a moved directory may hold before it is too large to check against the deny rules.
const MAX_MOVE_CHECK: usize = 100_000;

/// A move the gate admitted: both names, and (for a directory) what it holds, checked.
pub(crate) struct MoveChecked<'a> {
    src: &'a Dest,
    dst: &'a Dest,
    _checked: Checked,
}

impl Sandbox {
    /// Whether a deny rule refuses `rel` in the write root, as a file and (`dirish`) as a directory.
    pub(super) fn write_denied(&self, rel: &Path, dirish: bool) -> bool {
        self.gate.denied(RootId::Write, rel, false)
            || (dirish && self.gate.denied(RootId::Write, rel, true))
    }

    /// Makes the directory `t` names: `Ok(true)` when made, `Ok(false)` when one is there already.
    /// A dir-only rule (`.git/`, `secrets/`) applies to the directory this makes.
    pub(crate) fn make_dir(&self, t: &Dest, raw: &str) -> Result<bool> {
        if self.write_denied(&t.rel, true) {
            return Err(denied(raw));
        }
        match sys::mkdirat(&t.dir, t.name.as_os_str(), Mode::from_raw_mode(0o755)) {
            Ok(()) => Ok(true),
            Err(e) if e.is(Errno::EXIST) => match self.existing(t, raw)? {
                Some(Existing {
                    kind: Kind::Dir, ..
                }) => Ok(false),
                _ => Err(Error::new(
                    ErrorCode::AlreadyExists,
                    format!("'{raw}' exists and is not a directory"),
                )),
            },
            Err(e) => Err(self.map_open_error(&e, raw)),
        }
    }

    /// Deletes the regular file `t` names (`existing`: what [`Sandbox::existing`] found there).
    pub(crate) fn remove_file(&self, t: &Dest, existing: &Existing, raw: &str) -> Result<()> {
        if existing.kind != Kind::File {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' is not a regular file; delete_file removes regular files only"),
            ));
        }
        // Without AT_REMOVEDIR this cannot remove a directory swapped in since the check; a symlink
        // swapped in is removed itself (inside the write root), never followed.
        sys::unlinkat(&t.dir, t.name.as_os_str()).map_err(|e| self.map_open_error(&e, raw))
    }

    /// The gate's questions for moving `src` (of kind `kind`) to `dst`: deny rules on both names in
    /// the kind moved, a read root never moved, nothing made readable that was not, a directory not
    /// moved into itself nor holding what a deny rule refuses at either place.
    pub(crate) fn check_move<'a>(
        &self,
        pair: &'a MovePair,
        kind: Kind,
        src_raw: &str,
        dst_raw: &str,
        deadline: &Deadline,
    ) -> Result<MoveChecked<'a>> {
        let (src, dst) = (pair.src(), pair.dst());
        // What is moved keeps its kind under its new name: a directory (or a link that may stand for
        // one) is checked against dir-only rules at both ends.
        let dirish = matches!(kind, Kind::Dir | Kind::Symlink);
        if self.write_denied(&src.rel, dirish) {
            return Err(denied(src_raw));
        }
        if self.write_denied(&dst.rel, dirish) {
            return Err(denied(dst_raw));
        }
        if src.rel == dst.rel {
            return Err(Error::invalid("source and destination are the same path"));
        }
        // The read roots are held open where they were configured: a read root carried elsewhere by a
        // move would make the gate's picture of what is readable (and what its rules cover) wrong.
        if self.gate.holds_root(&src.rel) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{src_raw}' is or holds a read root of this sandbox and is not moved"),
            ));
        }
        // The write root grants no read: what the read tools cannot reach must not be moved to where
        // they can.
        if self.gate.readable_from_write(&dst.rel) && !self.gate.readable_from_write(&src.rel) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!(
                    "'{src_raw}' is not readable in this sandbox and '{dst_raw}' would be: a move \
                     does not make a file readable; nothing was moved"
                ),
            ));
        }
        if dst.rel.starts_with(&src.rel) {
            return Err(Error::invalid(format!(
                "'{dst_raw}' is inside '{src_raw}'; a directory cannot move into itself"
            )));
        }
        if kind == Kind::Dir {
            self.check_subtree(&src.dir, &src.name, (&src.rel, &dst.rel), src_raw, deadline)?;
        }
        Ok(MoveChecked {
            src,
            dst,
            _checked: Checked(()),
        })
    }

    /// Renames a checked move's source to its destination, replacing what is there only with
    /// `replace` (else `RENAME_NOREPLACE`).
    pub(crate) fn rename(
        &self,
        m: MoveChecked<'_>,
        replace: bool,
        src_raw: &str,
        dst_raw: &str,
    ) -> Result<()> {
        let flags = if replace {
            RenameFlags::empty()
        } else {
            RenameFlags::NOREPLACE
        };
        let moved = sys::renameat2(
            &m.src.dir,
            m.src.name.as_os_str(),
            &m.dst.dir,
            m.dst.name.as_os_str(),
            flags,
        );
        let Err(e) = moved else { return Ok(()) };
        match e.errno() {
            Some(Errno::EXIST) => Err(Error::new(
                ErrorCode::AlreadyExists,
                format!("'{dst_raw}' appeared while moving; nothing was moved"),
            )),
            Some(e @ (Errno::NOTDIR | Errno::ISDIR | Errno::NOTEMPTY)) => Err(Error::new(
                ErrorCode::NotAFile,
                format!(
                    "'{src_raw}' and '{dst_raw}' changed kind while moving ({e}); nothing was moved"
                ),
            )),
            _ => Err(self.map_open_error(&e, src_raw)),
        }
    }

    /// Refuses to move a directory that holds an object a deny rule refuses, where it is (`rel`) or
    /// where it would be after the move (under `to`), or more entries than can be checked.
    ///
    /// Only path rules (`/x/secret`, `sub/*.sh`) need this: a rule on a name alone denies that name
    /// wherever it is, and both ends of the move were checked. So with name rules alone nothing is
    /// walked, and a move says nothing about what the directory holds. With path rules the refusal
    /// does tell that such an object is inside (documented). The walk fails closed: a directory it
    /// cannot open or read refuses the move, and it holds one descriptor per level, not one per
    /// pending directory (descriptor exhaustion must not skip a subtree).
    fn check_subtree(
        &self,
        parent: &OwnedFd,
        name: &EntryName,
        (rel, to): (&Path, &Path),
        raw: &str,
        deadline: &Deadline,
    ) -> Result<()> {
        if !self.gate.has_path_rules() {
            return Ok(());
        }
        let unreadable = || {
            Error::new(
                ErrorCode::PermissionDenied,
                format!("'{raw}' holds a directory that cannot be checked against the deny rules; nothing was moved"),
            )
        };
        let top = open::open_beneath(
            parent.as_fd(),
            Path::new(name.as_os_str()),
            Want::Dir,
            SymlinkMode::Never,
        )
        .map_err(|e| self.map_open_error(&e, raw))?
        .fd;
        // Directories still to list, relative to `top`.
        let mut pending = vec![PathBuf::new()];
        let mut seen = 0usize;
        while let Some(inner) = pending.pop() {
            let fd = if inner.as_os_str().is_empty() {
                top.try_clone().map_err(|_| unreadable())?
            } else {
                open::open_beneath(top.as_fd(), &inner, Want::Dir, SymlinkMode::Never)
                    .map_err(|_| unreadable())?
                    .fd
            };
            let entries = crate::core::dirs::read_entries(&fd).ok_or_else(unreadable)?;
            for (n, ft) in entries {
                seen += 1;
                if deadline.expired() {
                    return Err(Error::new(
                        ErrorCode::TooLarge,
                        format!("'{raw}' could not be checked against the deny rules within the time budget; nothing was moved: move smaller directories"),
                    ));
                }
                if seen > MAX_MOVE_CHECK {
                    return Err(Error::new(
                        ErrorCode::TooLarge,
                        format!(
                            "'{raw}' holds over {MAX_MOVE_CHECK} entries; move smaller directories"
                        ),
                    ));
                }
                let ft = if ft == FileType::Unknown {
                    crate::core::dirs::stat_type(&fd, &n)
                } else {
                    ft
                };
                let is_dir = ft == FileType::Directory;
                let dirish = is_dir || ft == FileType::Symlink;
                let child = inner.join(&n);
                if self.write_denied(&rel.join(&child), dirish)
                    || self.write_denied(&to.join(&child), dirish)
                {
                    return Err(denied(raw));
                }
                if is_dir {
                    pending.push(child);
                }
            }
        }
        Ok(())
    }

    /// Reads an edit's target through its directory handle: a regular file that the gate admits
    /// (readable from the write root, no deny rule, the hard-link policy), at most `max` bytes, with
    /// the metadata the final exchange is checked against.
    pub(crate) fn read_for_edit(&self, t: &Dest, raw: &str, max: u64) -> Result<(Vec<u8>, Stat)> {
        let (fd, st) = self.open_for_read(t, raw)?;
        if st.st_size.max(0) as u64 > max {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!(
                    "'{raw}' is {} bytes, over the write limit of {max} bytes; it cannot be edited",
                    st.st_size
                ),
            ));
        }
        let bytes = pread_exact(&fd, 0, st.st_size.max(0) as usize)?;
        Ok((bytes, st))
    }

    /// The first `n` bytes of the regular file at a write's target, when the read tools could read
    /// it (the write root readable, the gate's checks as for an edit); `None` otherwise or on any
    /// error: what a write keeps of a file it replaces never tells more than a read would.
    pub(crate) fn head_for_write(&self, t: &Dest, n: usize) -> Option<Vec<u8>> {
        if !self.write_root_readable() {
            return None;
        }
        let (fd, st) = self.open_for_read(t, "").ok()?;
        pread_exact(&fd, 0, n.min(st.st_size.max(0) as usize)).ok()
    }

    /// Opens a write's target for reading through its directory handle, with the gate's checks.
    fn open_for_read(&self, t: &Dest, raw: &str) -> Result<(OwnedFd, Stat)> {
        if !self.gate.readable_from_write(&t.rel) {
            return Err(denied(raw));
        }
        // `sys` adds O_NOFOLLOW, O_NOCTTY and O_CLOEXEC.
        let flags = OFlags::RDONLY | OFlags::NONBLOCK;
        let fd = sys::openat(&t.dir, t.name.as_os_str(), flags, Mode::empty())
            .map_err(|e| self.map_open_error(&e, raw))?;
        let st = sys::fstat(&fd).map_err(|e| Error::from_sys(&e, raw))?;
        if Kind::from_stat(&st) != Kind::File {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' is not a regular file"),
            ));
        }
        if !self.gate.links_ok(&st) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{raw}' has several hard links and this sandbox refuses such files"),
            ));
        }
        if self.gate.denied(RootId::Write, &t.rel, false) {
            return Err(denied(raw));
        }
        Ok((fd, st))
    }
}
