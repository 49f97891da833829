//! The opt-in write root: write_file (create-only by default, double approval to overwrite, atomic
//! replace) and delete_file. Same resolution and escape rules as reads; the write root grants no read.

use crate::core::admit::RootId;
use crate::core::audit::Fields;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names::{self, EntryName};
use crate::core::open::{self, Kind, Want};
use crate::core::policy::PathDisplay;
use crate::core::sandbox::{Root, Sandbox};
use base64::Engine;
use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
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

/// The prefix of the temporary files `write_file` makes beside its target (removed on every error).
pub const TEMP_PREFIX: &str = ".rootbound-tmp-";

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Where a write or delete lands: a handle on the parent directory (opened beneath the write root), the
/// file name in it, and the resolved path relative to the write root.
pub(crate) struct Dest {
    pub dir: OwnedFd,
    pub name: EntryName,
    pub rel: PathBuf,
}

/// What already stands at a target's name: its kind (not following a symlink) and permission bits.
pub(crate) struct Existing {
    pub kind: Kind,
    pub perm: u32,
}

impl Sandbox {
    /// Writes a file under the write root.
    ///
    /// A new file is created exclusively; an existing one is replaced only when the call says
    /// `overwrite: true` AND the policy has `allow_overwrite` (else `ALREADY_EXISTS` or `DENIED`).
    /// Content goes to a temporary file in the target's directory, is synced, and is renamed into place,
    /// so a reader sees the old file or the new one, never a mix. A symlink at the target is replaced,
    /// never written through.
    ///
    /// ```
    /// use rootbound::{Sandbox, WriteArgs, WritePolicy, ErrorCode};
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = Sandbox::builder().write(WritePolicy::new(dir.path())).build().unwrap();
    /// let args = WriteArgs { path: "out/a.txt".into(), content: "hi".into(), ..Default::default() };
    /// assert!(sb.write_file(&args).unwrap().created);
    /// assert_eq!(sb.write_file(&args).unwrap_err().code, ErrorCode::AlreadyExists);
    /// assert_eq!(std::fs::read_to_string(dir.path().join("out/a.txt")).unwrap(), "hi");
    /// ```
    pub fn write_file(&self, args: &WriteArgs) -> Result<WriteResult> {
        self.audited(
            "write_file",
            Some(&args.path),
            || {
                self.write_inner(args)
                    .map(|(w, rel)| (w, Some(rel.display().to_string())))
            },
            |w| Fields::ok(w.bytes_written, 0, false),
        )
    }

    /// Deletes a regular file under the write root (only when the policy allows deletes; never a
    /// directory or a symlink).
    pub fn delete_file(&self, args: &DeleteArgs) -> Result<WriteResult> {
        self.audited(
            "delete_file",
            Some(&args.path),
            || {
                self.delete_inner(args)
                    .map(|(w, rel)| (w, Some(rel.display().to_string())))
            },
            |_| Fields::ok(0, 0, false),
        )
    }

    pub(crate) fn write_root(&self) -> Result<(&Root, &crate::WritePolicy)> {
        match (&self.write_root, &self.policy.write) {
            (Some(r), Some(w)) => Ok((r, w)),
            _ => Err(Error::new(
                ErrorCode::Denied,
                "this sandbox has no write root; writing is not allowed",
            )),
        }
    }

    /// Splits a write request into (parent, file name) relative to the write root, before any I/O.
    pub(crate) fn split_request(&self, raw: &str) -> Result<(PathBuf, EntryName)> {
        let path = crate::core::resolve::request(raw, &self.policy.limits)?;
        let (root, _) = self.write_root()?;
        let anchors = [crate::core::resolve::RootPaths {
            configured: &root.configured,
            canonical: &root.canonical,
            name: &root.name,
        }];
        let rel = match crate::core::resolve::candidates(raw, &path, &anchors) {
            Ok(mut c) => c.remove(0).1,
            Err(e) if e.code == ErrorCode::OutOfSandbox => {
                return Err(Error::new(
                    ErrorCode::OutOfSandbox,
                    format!("'{raw}' is outside the write root; give a path relative to it"),
                ))
            }
            Err(e) => return Err(e),
        };
        if raw.ends_with('/') {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' names a directory, not a file"),
            ));
        }
        // Lexical pre-check, so `a/../../x` is refused before a parent is created for it. The kernel
        // (or cap-std) enforces the same bound on what is actually opened.
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
        // `sub/.` would otherwise name `sub` (Path drops a trailing `.`).
        if matches!(raw.rsplit('/').next(), Some("." | "..")) {
            return Err(Error::invalid(format!(
                "'{raw}' does not end in a file name"
            )));
        }
        let name = match rel
            .components()
            .next_back()
            .map(|c| EntryName::new(c.as_os_str()))
        {
            Some(Some(n)) => n,
            _ => {
                return Err(Error::invalid(format!(
                    "'{raw}' does not end in a file name"
                )))
            }
        };
        if self.gate.denied(RootId::Write, &open::lexical(&rel), false) {
            return Err(denied(raw));
        }
        let parent = rel.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok((parent, name))
    }

    /// Resolves a request to its parent directory handle and name, creating parents when asked, and
    /// checks the deny rules on the resolved path.
    pub(crate) fn target(&self, raw: &str, create_parents: bool) -> Result<Dest> {
        let (parent, name) = self.split_request(raw)?;
        let (dir, parent_rel) = self.open_parent(raw, &parent, &name, create_parents)?;
        let rel = parent_rel.join(name.as_os_str());
        if self.gate.denied(RootId::Write, &rel, false) {
            return Err(denied(raw));
        }
        Ok(Dest { dir, name, rel })
    }

    /// Opens (and with `create`, makes) the parent directory through the write root's handle.
    pub(crate) fn open_parent(
        &self,
        raw: &str,
        parent: &Path,
        name: &EntryName,
        create: bool,
    ) -> Result<(OwnedFd, PathBuf)> {
        let (root, _) = self.write_root()?;
        let fd = match open::open_beneath(root.dir.as_fd(), parent, Want::Dir, self.policy.symlinks)
        {
            Ok(o) => o.fd,
            Err(e) if is_noent(&e) && create => self.make_parents(root, raw, parent, name)?,
            Err(e) if is_noent(&e) => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!(
                        "the directory of '{raw}' does not exist, and this sandbox does not create \
                         parent directories"
                    ),
                ))
            }
            Err(e) => return Err(self.map_open_error(&e, raw)),
        };
        let resolved = open::path_beneath(root.dir.as_fd(), fd.as_fd())
            .unwrap_or_else(|| open::lexical(parent));
        Ok((fd, resolved))
    }

    /// Makes the missing directories of `parent`, one component at a time. Each prefix is resolved
    /// from the write root by the shared open path (so `..` and in-root symlinks mean what they mean
    /// for reads, and anything leading out is refused), a missing plain name is made with `mkdirat` in
    /// the handle of the prefix before it, and deny rules are checked on every directory opened before
    /// anything is made in it. Before the first directory is made, the whole target is checked at the
    /// place it will really have: nothing beneath a missing directory can be a symlink, so that place is
    /// the resolved path of the last directory found plus the rest of the request, and a symlink
    /// earlier in the request cannot get a directory made on the way to a denied name.
    pub(crate) fn make_parents(
        &self,
        root: &Root,
        raw: &str,
        parent: &Path,
        name: &EntryName,
    ) -> Result<OwnedFd> {
        let open = |p: &Path| {
            open::open_beneath(root.dir.as_fd(), p, Want::Dir, self.policy.symlinks).map(|o| o.fd)
        };
        let mut cur = open(Path::new("")).map_err(|e| self.map_open_error(&e, raw))?;
        let mut cur_resolved = PathBuf::new();
        let mut prefix = PathBuf::new();
        let comps: Vec<Component<'_>> = parent.components().collect();
        for (k, c) in comps.iter().enumerate() {
            prefix.push(c);
            let next = match open(&prefix) {
                Ok(fd) => fd,
                Err(e) if is_noent(&e) && EntryName::new(c.as_os_str()).is_some() => {
                    let mut target = cur_resolved.clone();
                    target.extend(&comps[k..]);
                    target.push(name.as_os_str());
                    // With the target, every directory above it is checked (as a parent).
                    if self
                        .gate
                        .denied(RootId::Write, &open::lexical(&target), false)
                    {
                        return Err(denied(raw));
                    }
                    match rustix::fs::mkdirat(&cur, c.as_os_str(), Mode::from_raw_mode(0o755)) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(self.map_open_error(&e.into(), raw)),
                    }
                    match open(&prefix) {
                        Ok(fd) => fd,
                        // The name exists but does not resolve: a dangling symbolic link.
                        Err(e) if is_noent(&e) => {
                            return Err(Error::new(
                                ErrorCode::NotFound,
                                format!(
                                    "'{raw}' goes through a dangling symbolic link; no directory \
                                     is created through one"
                                ),
                            ))
                        }
                        Err(e) => return Err(self.map_open_error(&e, raw)),
                    }
                }
                Err(e) => return Err(self.map_open_error(&e, raw)),
            };
            let resolved = open::path_beneath(root.dir.as_fd(), next.as_fd())
                .unwrap_or_else(|| open::lexical(&prefix));
            if self.gate.denied(RootId::Write, &resolved, true) {
                return Err(denied(raw));
            }
            cur = next;
            cur_resolved = resolved;
        }
        Ok(cur)
    }

    /// What stands at the target now. A symlink is never followed by a write, but one leading out of
    /// the write root is refused as the escape it is, and one to a denied object as that object.
    pub(crate) fn existing(&self, t: &Dest, raw: &str) -> Result<Option<Existing>> {
        let (root, _) = self.write_root()?;
        let st = match rustix::fs::statat(&t.dir, t.name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => st,
            Err(Errno::NOENT) => return Ok(None),
            Err(e) => return Err(self.map_open_error(&e.into(), raw)),
        };
        let kind = Kind::from_stat(&st);
        if kind == Kind::Symlink {
            match open::open_beneath(root.dir.as_fd(), &t.rel, Want::Meta, self.policy.symlinks) {
                Ok(o) => {
                    if let Some(to) = open::path_beneath(root.dir.as_fd(), o.fd.as_fd()) {
                        if self.gate.denied(RootId::Write, &to, o.kind() == Kind::Dir) {
                            return Err(denied(raw));
                        }
                    }
                }
                Err(e) => {
                    let err = self.map_open_error(&e, raw);
                    // A dangling link inside the write root is just a name that exists.
                    if err.code != ErrorCode::NotFound {
                        return Err(err);
                    }
                }
            }
        }
        Ok(Some(Existing {
            kind,
            perm: st.st_mode & 0o777,
        }))
    }

    /// Whether the read tools see the write root: it lies in a read root, and not in a part of one
    /// that a deny rule refuses.
    pub(crate) fn write_root_readable(&self) -> bool {
        self.write_root.as_ref().is_some_and(|w| {
            self.roots
                .iter()
                .any(|r| w.canonical.starts_with(&r.canonical))
                && !self.gate.root_denied(RootId::Write)
        })
    }

    pub(crate) fn shown(&self, rel: &Path) -> String {
        match (self.policy.path_display, &self.write_root) {
            (PathDisplay::Absolute, Some(root)) => names::escape_path(&root.canonical.join(rel)),
            _ => names::escape_path(rel),
        }
    }

    fn write_inner(&self, args: &WriteArgs) -> Result<(WriteResult, PathBuf)> {
        let (_, policy) = self.write_root()?;
        let data = decode(args, policy.max_write_bytes)?;
        let t = self.target(&args.path, policy.create_parents)?;
        let (replace, perm) = match self.existing(&t, &args.path)? {
            None => (false, None),
            Some(Existing { kind, perm }) if matches!(kind, Kind::File | Kind::Symlink) => {
                if args.overwrite != Some(true) {
                    let how = if policy.allow_overwrite {
                        "pass overwrite: true to replace it, or pick a new name"
                    } else {
                        "this sandbox does not allow overwriting; pick a new name"
                    };
                    return Err(Error::new(
                        ErrorCode::AlreadyExists,
                        format!("'{}' exists; {how}", args.path),
                    ));
                }
                if !policy.allow_overwrite {
                    return Err(Error::new(
                        ErrorCode::Denied,
                        format!(
                            "'{}' exists and this sandbox's policy does not allow overwriting; \
                             write a new file instead",
                            args.path
                        ),
                    ));
                }
                (true, (kind == Kind::File).then_some(perm))
            }
            Some(Existing { kind, .. }) => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!(
                        "'{}' exists and is {}, not a regular file",
                        args.path,
                        if kind == Kind::Dir {
                            "a directory"
                        } else {
                            "a FIFO, socket or device"
                        }
                    ),
                ))
            }
        };
        publish(&t.dir, &t.name, &data, replace, perm, &args.path, None)?;
        let result = WriteResult {
            path: self.shown(&t.rel),
            bytes_written: data.len() as u64,
            created: !replace,
            replaced: replace,
            deleted: false,
        };
        Ok((result, t.rel))
    }

    fn delete_inner(&self, args: &DeleteArgs) -> Result<(WriteResult, PathBuf)> {
        let (_, policy) = self.write_root()?;
        if !policy.allow_delete {
            return Err(Error::new(
                ErrorCode::Denied,
                "this sandbox's policy does not allow deleting files",
            ));
        }
        let t = self.target(&args.path, false)?;
        let what = match self.existing(&t, &args.path)? {
            Some(Existing {
                kind: Kind::File, ..
            }) => None,
            None => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{}' does not exist", args.path),
                ))
            }
            Some(Existing {
                kind: Kind::Dir, ..
            }) => Some("a directory"),
            Some(Existing {
                kind: Kind::Symlink,
                ..
            }) => Some("a symbolic link"),
            Some(_) => Some("a FIFO, socket or device"),
        };
        if let Some(what) = what {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!(
                    "'{}' is {what}; delete_file removes regular files only",
                    args.path
                ),
            ));
        }
        // Without AT_REMOVEDIR this cannot remove a directory swapped in since the check; a symlink
        // swapped in is removed itself (inside the write root), never followed.
        rustix::fs::unlinkat(&t.dir, t.name.as_os_str(), AtFlags::empty())
            .map_err(|e| self.map_open_error(&e.into(), &args.path))?;
        let result = WriteResult {
            path: self.shown(&t.rel),
            deleted: true,
            ..Default::default()
        };
        Ok((result, t.rel))
    }
}

fn denied(raw: &str) -> Error {
    Error::new(
        ErrorCode::Denied,
        format!("'{raw}' is denied by the sandbox policy"),
    )
}

fn is_noent(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(Errno::NOENT.raw_os_error())
}

/// The bytes to write, refused with `TOO_LARGE` over `max` (base64 is measured after decoding, and a
/// text that must decode to more than `max` is refused before decoding).
fn decode(args: &WriteArgs, max: u64) -> Result<Cow<'_, [u8]>> {
    let too_large = |n: u64, what: &str| {
        Error::new(
            ErrorCode::TooLarge,
            format!(
                "content is {what}{n} bytes, over the write limit of {max} bytes; nothing was written"
            ),
        )
    };
    let data = match args.encoding.unwrap_or_default() {
        ContentEncoding::Utf8 => Cow::Borrowed(args.content.as_bytes()),
        ContentEncoding::Base64 => {
            let text: Cow<'_, str> = if args.content.bytes().any(|b| b.is_ascii_whitespace()) {
                Cow::Owned(
                    args.content
                        .chars()
                        .filter(|c| !c.is_ascii_whitespace())
                        .collect(),
                )
            } else {
                Cow::Borrowed(args.content.as_str())
            };
            // Every 4 characters decode to 3 bytes, less at most 2 of padding.
            let at_least = (text.len() as u64 / 4 * 3).saturating_sub(2);
            if at_least > max {
                return Err(too_large(at_least, "at least "));
            }
            Cow::Owned(
                base64::engine::general_purpose::STANDARD
                    .decode(text.as_bytes())
                    .map_err(|e| Error::invalid(format!("content is not valid base64: {e}")))?,
            )
        }
    };
    if data.len() as u64 > max {
        return Err(too_large(data.len() as u64, ""));
    }
    Ok(data)
}

/// A temporary file this old was left by a write that died (a crash, a kill): a live one lives for one
/// write and fsync.
const STALE_TEMP_SECS: i64 = 300;

/// Removes temporary files of rootbound's naming that an interrupted write left in `dir`. Only
/// regular files named `TEMP_PREFIX*` and older than [`STALE_TEMP_SECS`] go, by name in this handle.
fn remove_stale_temps(dir: &OwnedFd) {
    let Some(entries) = crate::walk::read_entries(dir) else {
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    for (name, _) in entries {
        if !name.as_encoded_bytes().starts_with(TEMP_PREFIX.as_bytes()) {
            continue;
        }
        let Ok(st) = rustix::fs::statat(dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) else {
            continue;
        };
        if Kind::from_stat(&st) == Kind::File && now - st.st_mtime > STALE_TEMP_SECS {
            let _ = rustix::fs::unlinkat(dir, name.as_os_str(), AtFlags::empty());
        }
    }
}

/// Creates a new temporary file in `dir` (`O_EXCL|O_NOFOLLOW`, so nothing planted under its name is
/// opened or followed).
fn create_temp(dir: &OwnedFd, raw: &str) -> Result<(OwnedFd, String)> {
    remove_stale_temps(dir);
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

#[cfg(test)]
mod tests {
    use super::*;

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

    // The rename failing after the temporary file was written (a directory took the name): the
    // temporary file must go, whatever the error.
    #[test]
    fn stale_temporary_files_are_removed_on_the_next_write() {
        let tmp = tempfile::tempdir().unwrap();
        let old = tmp.path().join(format!("{TEMP_PREFIX}1-1"));
        let fresh = tmp.path().join(format!("{TEMP_PREFIX}1-2"));
        std::fs::write(&old, "left by a crash").unwrap();
        std::fs::write(&fresh, "a write in flight").unwrap();
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(past)
            .unwrap();
        let dir: OwnedFd = std::fs::File::open(tmp.path()).unwrap().into();
        publish(
            &dir,
            &EntryName::new(std::ffi::OsStr::new("new")).unwrap(),
            b"x",
            false,
            None,
            "new",
            None,
        )
        .unwrap();
        assert!(!old.exists(), "a stale temporary file goes");
        assert!(
            fresh.exists(),
            "a recent one may belong to a write in flight"
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
            let e = publish(
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
        let e = publish(
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
        publish(
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
        publish(
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

    #[test]
    fn base64_is_measured_after_decoding() {
        let args = |content: &str| WriteArgs {
            path: "x".into(),
            content: content.into(),
            encoding: Some(ContentEncoding::Base64),
            ..Default::default()
        };
        // 12 characters, 9 bytes: under a limit of 10.
        assert_eq!(decode(&args("AAAA AAAA\nAAAA"), 10).unwrap().len(), 9);
        assert_eq!(
            decode(&args("AAAAAAAAAAAAAAAA"), 10).unwrap_err().code,
            ErrorCode::TooLarge
        );
        assert_eq!(
            decode(&args("not base64!"), 10).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
    }
}
