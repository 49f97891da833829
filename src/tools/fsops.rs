//! create_directory and move_file: directory operations inside the write root, on handles.
//!
//! Both resolve their paths like write_file (the write root's handle, the gate on every name), make
//! directories with `mkdirat` one component at a time, and move with `renameat` between two directory
//! handles of the write root, so nothing is ever created or moved outside it.

use crate::core::admit::RootId;
use crate::core::audit::Fields;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::open::{self, Kind, Want};
use crate::core::policy::SymlinkMode;
use crate::core::sandbox::{denied, Sandbox};
use crate::tools::write::Existing;
use rustix::fs::{Mode, RenameFlags};
use rustix::io::Errno;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

/// Arguments of `create_directory`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MkdirArgs {
    /// The directory to create, relative to the write root (or absolute inside it); missing parents
    /// are created too.
    pub path: String,
}

/// Arguments of `move_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MoveArgs {
    /// What to move (a file, directory or symbolic link), relative to the write root.
    pub source: String,
    /// Where to move it, relative to the write root. Its parent must exist.
    pub destination: String,
    /// Replace an existing destination file (the policy must allow overwriting too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwrite: Option<bool>,
}

/// The result of `create_directory` or `move_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[non_exhaustive]
pub struct FsOpResult {
    /// The directory created, or the moved object's new path.
    pub path: String,
    /// `create_directory`: the directory did not exist before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
    /// `move_file`: where the object was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
    /// `move_file`: an existing destination file was replaced.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replaced: bool,
}

/// Entries a moved directory may hold before it is too large to check against the deny rules.
const MAX_MOVE_CHECK: usize = 100_000;

impl Sandbox {
    /// Creates a directory (and its missing parents) under the write root. An existing directory is
    /// success with `created: false`.
    ///
    /// ```
    /// use rootbound::{MkdirArgs, Sandbox, WritePolicy};
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = Sandbox::builder().write(WritePolicy::new(dir.path())).build().unwrap();
    /// let mut args = MkdirArgs::default();
    /// args.path = "a/b/c".into();
    /// assert!(sb.create_directory(&args).unwrap().created);
    /// assert!(dir.path().join("a/b/c").is_dir());
    /// ```
    pub fn create_directory(&self, args: &MkdirArgs) -> Result<FsOpResult> {
        self.audited(
            "create_directory",
            Some(&args.path),
            || {
                self.mkdir_inner(args)
                    .map(|(r, rel)| (r, Some(rel.display().to_string())))
            },
            |_| Fields::ok(0, 0, false),
        )
    }

    fn mkdir_inner(&self, args: &MkdirArgs) -> Result<(FsOpResult, PathBuf)> {
        let _writing = crate::tools::write::shared();
        let raw = args.path.trim_end_matches('/');
        if raw.is_empty() {
            return Err(Error::invalid(
                "path is empty or the write root itself; name a directory to create",
            ));
        }
        // A dir-only rule (`.git/`, `secrets/`) applies to the directory this makes: checked on the
        // name as given before any parent is made, and on the resolved path.
        let (parent, name) = self.split_request(raw)?;
        if self.dir_denied(&open::lexical(&parent.join(name.as_os_str())), true) {
            return Err(denied(raw));
        }
        let t = self.target(raw, true)?;
        if self.dir_denied(&t.rel, true) {
            return Err(denied(raw));
        }
        let created =
            match rustix::fs::mkdirat(&t.dir, t.name.as_os_str(), Mode::from_raw_mode(0o755)) {
                Ok(()) => true,
                Err(Errno::EXIST) => match self.existing(&t, raw)? {
                    Some(Existing {
                        kind: Kind::Dir, ..
                    }) => false,
                    _ => {
                        return Err(Error::new(
                            ErrorCode::AlreadyExists,
                            format!("'{raw}' exists and is not a directory"),
                        ))
                    }
                },
                Err(e) => return Err(self.map_open_error(&e.into(), raw)),
            };
        let result = FsOpResult {
            path: self.shown(&t.rel),
            created,
            ..Default::default()
        };
        Ok((result, t.rel))
    }

    /// Moves (renames) a file, directory or symbolic link within the write root. The destination is
    /// never replaced unless the call says `overwrite: true` and the policy allows overwriting; a
    /// directory is never replaced. A directory holding anything the deny rules refuse is not moved
    /// (its new name could escape an anchored rule).
    pub fn move_file(&self, args: &MoveArgs) -> Result<FsOpResult> {
        self.audited(
            "move_file",
            Some(&args.source),
            || {
                self.move_inner(args)
                    .map(|(r, rel)| (r, Some(rel.display().to_string())))
            },
            |_| Fields::ok(0, 0, false),
        )
    }

    fn move_inner(&self, args: &MoveArgs) -> Result<(FsOpResult, PathBuf)> {
        let (_, policy) = self.write_root()?;
        // Between a directory's check and its rename, no other write of this process may add to it.
        let _alone = crate::tools::write::exclusive();
        let (src_raw, dst_raw) = (args.source.as_str(), args.destination.as_str());
        let src = self.target(src_raw.trim_end_matches('/'), false)?;
        let dst = self.target(dst_raw.trim_end_matches('/'), false)?;
        let kind = match self.existing(&src, src_raw)? {
            Some(e) => e.kind,
            None => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{src_raw}' does not exist"),
                ))
            }
        };
        // `f/` names a directory: a file or link is not moved under that spelling, as the read tools
        // do not read it.
        for raw in [src_raw, dst_raw] {
            if raw.ends_with('/') && kind != Kind::Dir {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{raw}' ends in '/' but '{src_raw}' is not a directory"),
                ));
            }
        }
        if kind == Kind::Other {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{src_raw}' is a FIFO, socket or device and is not moved"),
            ));
        }
        // What is moved keeps its kind under its new name: a directory (or a link that may stand for
        // one) is checked against dir-only rules at both ends.
        let dirish = matches!(kind, Kind::Dir | Kind::Symlink);
        if self.dir_denied(&src.rel, dirish) {
            return Err(denied(src_raw));
        }
        if self.dir_denied(&dst.rel, dirish) {
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
            self.check_subtree(&src.dir, &src.name, &src.rel, &dst.rel, src_raw)?;
        }
        let replace = match self.existing(&dst, dst_raw)? {
            None => false,
            Some(Existing {
                kind: Kind::Dir, ..
            }) => {
                return Err(Error::new(
                    ErrorCode::AlreadyExists,
                    format!("'{dst_raw}' is an existing directory; directories are never replaced"),
                ))
            }
            Some(_) if args.overwrite != Some(true) => {
                return Err(Error::new(
                    ErrorCode::AlreadyExists,
                    format!(
                    "'{dst_raw}' exists; pass overwrite: true to replace it, or pick a new name"
                ),
                ))
            }
            Some(_) if !policy.allow_overwrite => {
                return Err(Error::new(
                    ErrorCode::Denied,
                    format!(
                    "'{dst_raw}' exists and this sandbox's policy does not allow replacing files"
                ),
                ))
            }
            Some(Existing {
                kind: Kind::Other, ..
            }) => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{dst_raw}' is a FIFO, socket or device and is never replaced"),
                ))
            }
            Some(_) if kind == Kind::Dir => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{src_raw}' is a directory and '{dst_raw}' is not; nothing was moved"),
                ))
            }
            Some(_) => true,
        };
        let flags = if replace {
            RenameFlags::empty()
        } else {
            RenameFlags::NOREPLACE
        };
        let moved = rustix::fs::renameat_with(
            &src.dir,
            src.name.as_os_str(),
            &dst.dir,
            dst.name.as_os_str(),
            flags,
        );
        match moved {
            Ok(()) => {}
            Err(Errno::EXIST) => {
                return Err(Error::new(
                    ErrorCode::AlreadyExists,
                    format!("'{dst_raw}' appeared while moving; nothing was moved"),
                ))
            }
            Err(e @ (Errno::NOTDIR | Errno::ISDIR | Errno::NOTEMPTY)) => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{src_raw}' and '{dst_raw}' changed kind while moving ({e}); nothing was moved"),
                ))
            }
            Err(e) => return Err(self.map_open_error(&e.into(), src_raw)),
        }
        let result = FsOpResult {
            path: self.shown(&dst.rel),
            moved_from: Some(self.shown(&src.rel)),
            replaced: replace,
            ..Default::default()
        };
        Ok((result, dst.rel))
    }

    /// Whether a deny rule refuses `rel` in the write root, as a file and (`dirish`) as a directory.
    fn dir_denied(&self, rel: &Path, dirish: bool) -> bool {
        self.gate.denied(RootId::Write, rel, false)
            || (dirish && self.gate.denied(RootId::Write, rel, true))
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
        name: &crate::core::names::EntryName,
        rel: &Path,
        to: &Path,
        raw: &str,
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
        let deadline = crate::core::deadline::Deadline::after(std::time::Duration::from_millis(
            self.policy.limits.timeout_ms,
        ));
        while let Some(inner) = pending.pop() {
            let fd = if inner.as_os_str().is_empty() {
                top.try_clone().map_err(|_| unreadable())?
            } else {
                open::open_beneath(top.as_fd(), &inner, Want::Dir, SymlinkMode::Never)
                    .map_err(|_| unreadable())?
                    .fd
            };
            let entries = crate::walk::read_entries(&fd).ok_or_else(unreadable)?;
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
                let ft = if ft == rustix::fs::FileType::Unknown {
                    crate::walk::stat_type(&fd, &n)
                } else {
                    ft
                };
                let is_dir = ft == rustix::fs::FileType::Directory;
                let dirish = is_dir || ft == rustix::fs::FileType::Symlink;
                let child = inner.join(&n);
                if self.dir_denied(&rel.join(&child), dirish)
                    || self.dir_denied(&to.join(&child), dirish)
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
}
