//! The opt-in write root: write_file (create-only by default, double approval to overwrite, atomic
//! replace) and delete_file. Same resolution and escape rules as reads; the write root grants no read.

use crate::audit::{Audit, Target};
use crate::error::{Error, ErrorCode, Result};
use crate::open::{self, Kind, Want};
use crate::sandbox::{Root, Sandbox};
use base64::Engine;
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Content encodings accepted by write_file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ContentEncoding {
    /// The content is the text itself.
    #[default]
    #[serde(rename = "utf-8")]
    Utf8,
    /// The content is base64 (standard alphabet).
    #[serde(rename = "base64")]
    Base64,
}

/// Arguments of `write_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteArgs {
    /// Path relative to the write root (or absolute inside it).
    pub path: String,
    /// The content to write.
    pub content: String,
    /// Replace an existing file (the policy must allow it too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwrite: Option<bool>,
    /// `utf-8` (default) or `base64`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<ContentEncoding>,
}

/// Arguments of `delete_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteArgs {
    /// Path relative to the write root (or absolute inside it).
    pub path: String,
}

/// The result of `write_file` or `delete_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct WriteResult {
    /// The canonical path written or deleted.
    pub path: String,
    /// Bytes written (0 for a delete).
    pub bytes_written: u64,
    /// A new file was created.
    pub created: bool,
    /// An existing file was replaced (atomically).
    pub replaced: bool,
    /// The file was deleted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Sandbox {
    /// Writes a file under the write root. See the crate docs for the approval rules.
    pub fn write_file(&self, args: &WriteArgs) -> Result<WriteResult> {
        let audit = Audit {
            agent: &self.agent,
            tool: "write_file",
            started: Instant::now(),
        };
        let r = self.write_inner(args);
        match &r {
            Ok(w) => audit.emit(
                Target::Path(w.path.clone()),
                w.bytes_written,
                0,
                false,
                "ok",
            ),
            Err(e) => audit.emit(Target::Request(&args.path), 0, 0, false, e.code.as_str()),
        }
        r
    }

    /// Deletes a regular file under the write root (only when the policy allows deletes).
    pub fn delete_file(&self, args: &DeleteArgs) -> Result<WriteResult> {
        let audit = Audit {
            agent: &self.agent,
            tool: "delete_file",
            started: Instant::now(),
        };
        let r = self.delete_inner(args);
        match &r {
            Ok(w) => audit.emit(Target::Path(w.path.clone()), 0, 0, false, "ok"),
            Err(e) => audit.emit(Target::Request(&args.path), 0, 0, false, e.code.as_str()),
        }
        r
    }

    fn write_root(&self) -> Result<(&Root, &crate::WritePolicy)> {
        match (&self.write_root, &self.policy.write) {
            (Some(r), Some(w)) => Ok((r, w)),
            _ => Err(Error::new(
                ErrorCode::Denied,
                "this sandbox has no write root; writing is not allowed",
            )),
        }
    }

    /// Splits a write request into (parent, file name) relative to the write root.
    fn write_target(&self, raw: &str) -> Result<(PathBuf, std::ffi::OsString)> {
        crate::resolve::validate(raw, &self.policy.limits)?;
        let (root, _) = self.write_root()?;
        let anchors = [crate::resolve::RootPaths {
            configured: &root.configured,
            canonical: &root.canonical,
        }];
        let (_, rel) = crate::resolve::candidates(raw, &anchors)?.remove(0);
        if raw.ends_with('/') {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' names a directory, not a file"),
            ));
        }
        let mut depth: i64 = 0;
        for c in rel.components() {
            match c {
                Component::ParentDir => depth -= 1,
                Component::Normal(_) => depth += 1,
                _ => {}
            }
            if depth < 0 {
                return Err(Error::new(
                    ErrorCode::OutOfSandbox,
                    format!("'{raw}' leads outside the write root"),
                ));
            }
        }
        let name = match rel.components().next_back() {
            Some(Component::Normal(n)) => n.to_os_string(),
            _ => {
                return Err(Error::invalid(format!(
                    "'{raw}' does not end in a file name"
                )))
            }
        };
        let parent = rel.parent().map(Path::to_path_buf).unwrap_or_default();
        if self.deny.is_denied(&open::lexical(&rel), false) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{raw}' is denied by the sandbox policy"),
            ));
        }
        Ok((parent, name))
    }

    /// Opens (and with `create`, makes) the parent directory through the write root's handle.
    fn write_parent(&self, raw: &str, parent: &Path, create: bool) -> Result<(OwnedFd, PathBuf)> {
        let (root, _) = self.write_root()?;
        let mode = self.policy.symlinks;
        let fd = match open::open_beneath(root.dir.as_fd(), parent, Want::Dir, mode) {
            Ok(o) => o.fd,
            Err(e)
                if create && e.raw_os_error() == Some(rustix::io::Errno::NOENT.raw_os_error()) =>
            {
                let mut cur = open::open_beneath(root.dir.as_fd(), Path::new(""), Want::Dir, mode)
                    .map_err(|e| Error::from_os(&e, raw))?
                    .fd;
                for c in parent.components() {
                    let next = match open::open_beneath(
                        cur.as_fd(),
                        Path::new(c.as_os_str()),
                        Want::Dir,
                        mode,
                    ) {
                        Ok(o) => o.fd,
                        Err(e)
                            if e.raw_os_error()
                                == Some(rustix::io::Errno::NOENT.raw_os_error()) =>
                        {
                            if !matches!(c, Component::Normal(_)) {
                                return Err(Error::from_os(&e, raw));
                            }
                            match rustix::fs::mkdirat(
                                &cur,
                                c.as_os_str(),
                                Mode::from_raw_mode(0o755),
                            ) {
                                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                                Err(e) => return Err(Error::from_os(&e.into(), raw)),
                            }
                            open::open_beneath(
                                cur.as_fd(),
                                Path::new(c.as_os_str()),
                                Want::Dir,
                                crate::SymlinkMode::Never,
                            )
                            .map_err(|e| Error::from_os(&e, raw))?
                            .fd
                        }
                        Err(e) => return Err(Error::from_os(&e, raw)),
                    };
                    cur = next;
                }
                cur
            }
            Err(e) => return Err(Error::from_os(&e, raw)),
        };
        let resolved = open::path_beneath(root.dir.as_fd(), fd.as_fd())
            .unwrap_or_else(|| open::lexical(parent));
        Ok((fd, resolved))
    }

    fn write_inner(&self, args: &WriteArgs) -> Result<WriteResult> {
        let (root, policy) = self.write_root()?;
        let data = match args.encoding.unwrap_or_default() {
            ContentEncoding::Utf8 => args.content.as_bytes().to_vec(),
            ContentEncoding::Base64 => base64::engine::general_purpose::STANDARD
                .decode(args.content.trim())
                .map_err(|e| Error::invalid(format!("content is not valid base64: {e}")))?,
        };
        if data.len() as u64 > policy.max_write_bytes {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!(
                    "content is {} bytes, over the write limit of {}; nothing was written",
                    data.len(),
                    policy.max_write_bytes
                ),
            ));
        }
        let (parent, name) = self.write_target(&args.path)?;
        let (dir, parent_rel) = self.write_parent(&args.path, &parent, policy.create_parents)?;
        let rel = parent_rel.join(&name);
        if self.deny.is_denied(&rel, false) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{}' is denied by the sandbox policy", args.path),
            ));
        }
        let shown = root.canonical.join(&rel).display().to_string();
        let existing = existing_kind(&dir, &name, &args.path, self.policy.symlinks)?;
        let overwrite = args.overwrite.unwrap_or(false);
        match existing {
            None => {
                publish(&dir, &name, &data, false)?;
                Ok(WriteResult {
                    path: shown,
                    bytes_written: data.len() as u64,
                    created: true,
                    replaced: false,
                    deleted: false,
                })
            }
            Some(Kind::File) | Some(Kind::Symlink) => {
                if !overwrite {
                    return Err(Error::new(
                        ErrorCode::AlreadyExists,
                        format!("'{}' exists; pass overwrite: true to replace it (if the policy allows), or pick a new name", args.path),
                    ));
                }
                if !policy.allow_overwrite {
                    return Err(Error::new(
                        ErrorCode::Denied,
                        format!("'{}' exists and this sandbox's policy does not allow overwriting; write a new file instead", args.path),
                    ));
                }
                publish(&dir, &name, &data, true)?;
                Ok(WriteResult {
                    path: shown,
                    bytes_written: data.len() as u64,
                    created: false,
                    replaced: true,
                    deleted: false,
                })
            }
            Some(_) => Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{}' exists and is not a regular file", args.path),
            )),
        }
    }

    fn delete_inner(&self, args: &DeleteArgs) -> Result<WriteResult> {
        let (root, policy) = self.write_root()?;
        if !policy.allow_delete {
            return Err(Error::new(
                ErrorCode::Denied,
                "this sandbox's policy does not allow deleting files",
            ));
        }
        let (parent, name) = self.write_target(&args.path)?;
        let (dir, parent_rel) = self.write_parent(&args.path, &parent, false)?;
        let rel = parent_rel.join(&name);
        if self.deny.is_denied(&rel, false) {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{}' is denied by the sandbox policy", args.path),
            ));
        }
        match existing_kind(&dir, &name, &args.path, self.policy.symlinks)? {
            Some(Kind::File) => {}
            None => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{}' does not exist", args.path),
                ))
            }
            Some(_) => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{}' is not a regular file", args.path),
                ))
            }
        }
        rustix::fs::unlinkat(&dir, name.as_os_str(), AtFlags::empty())
            .map_err(|e| Error::from_os(&e.into(), &args.path))?;
        Ok(WriteResult {
            path: root.canonical.join(&rel).display().to_string(),
            deleted: true,
            ..Default::default()
        })
    }
}

/// The kind of what already stands at `name` in `dir` (a symlink is checked for escapes first).
fn existing_kind(
    dir: &OwnedFd,
    name: &OsStr,
    raw: &str,
    mode: crate::SymlinkMode,
) -> Result<Option<Kind>> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => {
            let ft = FileType::from_raw_mode(st.st_mode);
            if ft == FileType::Symlink {
                match open::open_beneath(dir.as_fd(), Path::new(name), Want::Meta, mode) {
                    Ok(_) => {}
                    Err(e) => {
                        let err = Error::from_os(&e, raw);
                        if err.code != ErrorCode::NotFound {
                            return Err(err);
                        }
                        // A dangling symlink inside the root: refuse rather than create through it.
                        return Err(Error::new(
                            ErrorCode::OutOfSandbox,
                            format!(
                                "'{raw}' is a dangling symbolic link; writes never follow links"
                            ),
                        ));
                    }
                }
            }
            Ok(Some(Kind::from_file_type(ft)))
        }
        Err(rustix::io::Errno::NOENT) => Ok(None),
        Err(e) => Err(Error::from_os(&e.into(), raw)),
    }
}

/// Writes `data` to a temporary file beside `name`, syncs it, and renames it into place: atomically
/// replacing (`replace`) or only if nothing is there (`RENAME_NOREPLACE`). The temporary file is removed
/// on every error.
fn publish(dir: &OwnedFd, name: &OsStr, data: &[u8], replace: bool) -> Result<()> {
    let tmp = format!(
        ".rootbound-tmp-{}-{}",
        std::process::id(),
        TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd =
        rustix::fs::openat(dir, tmp.as_str(), flags, Mode::from_raw_mode(0o644)).map_err(|e| {
            Error::new(
                ErrorCode::IoError,
                format!("cannot create a temporary file: {e}"),
            )
        })?;
    let result = write_all(&fd, data).and_then(|()| {
        rustix::fs::fsync(&fd)
            .map_err(|e| Error::new(ErrorCode::IoError, format!("fsync failed: {e}")))?;
        drop(fd);
        let r = if replace {
            rustix::fs::renameat(dir, tmp.as_str(), dir, name)
        } else {
            rustix::fs::renameat_with(
                dir,
                tmp.as_str(),
                dir,
                name,
                rustix::fs::RenameFlags::NOREPLACE,
            )
        };
        r.map_err(|e| match e {
            rustix::io::Errno::EXIST => Error::new(
                ErrorCode::AlreadyExists,
                "the file appeared while writing; nothing was replaced",
            ),
            e => Error::new(ErrorCode::IoError, format!("rename failed: {e}")),
        })
    });
    if result.is_err() {
        let _ = rustix::fs::unlinkat(dir, tmp.as_str(), AtFlags::empty());
    }
    result
}

fn write_all(fd: &OwnedFd, mut data: &[u8]) -> Result<()> {
    while !data.is_empty() {
        match rustix::io::write(fd, data) {
            Ok(n) => data = &data[n..],
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(Error::new(ErrorCode::IoError, format!("write failed: {e}"))),
        }
    }
    Ok(())
}
