//! Change reports for the index: inotify watches added through directory handles (the
//! handle's `/proc/self/fd` link, never an ambient path), and the events read back as what they mean
//! for a walk: a file's content changed, or the tree's shape did.
//!
//! The kernel queues an event before the system call that caused it returns, so once [`Watch::drain`]
//! has read the queue, every change completed before it is known — except what inotify does not
//! report: writes through a shared memory map (until the writer closes the file), and writes
//! through a hard link made from outside the watched directories after the file was indexed.
//! Filesystems whose changes can happen elsewhere (NFS, FUSE, overlay, ...) are not trusted at all:
//! [`events_reliable`].

use std::path::PathBuf;

/// What a drained event means for the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// The content or metadata of this file (relative to the root) changed.
    Content(PathBuf),
    /// An entry was created, deleted or renamed, a directory's permissions changed, an ignore file
    /// changed, a watched directory went away, or events were lost: no recorded walk holds.
    Structure,
}

/// Whether `name` is one of `rule_files`, the files whose content decides what a walk yields in
/// the directory that holds them (the walker's list, handed over as data: see [`Watch::new`]).
fn shapes_the_walk(rule_files: &[&str], name: &[u8]) -> bool {
    rule_files.iter().any(|f| f.as_bytes() == name)
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{shapes_the_walk, Change};
    use crate::core::handle::{self, Handle};
    use crate::core::mutant;
    use crate::core::sys::{self, Errno, InotifyReader, ReadFlags, WatchFlags};
    use std::collections::HashMap;
    use std::ffi::OsStr;
    use std::mem::MaybeUninit;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    /// Why a directory is watched (one directory can be watched for several reasons: a walk
    /// with hidden files reads `.git` too, and a directory read by a walk may be renamed `.git`).
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    struct Roles {
        /// A directory the walk reads: every change in it counts.
        walked: bool,
        /// A repository's `.git`, for its `info`.
        git: bool,
        /// A repository's `.git/info`, for its `exclude`.
        git_info: bool,
    }

    /// One inotify instance and the directory each of its watches stands for.
    pub(crate) struct Watch {
        fd: OwnedFd,
        dirs: HashMap<i32, (PathBuf, Roles)>,
        rule_files: &'static [&'static str],
    }

    /// Watches one root may hold (the Linux 6.1 tree has about 5,000 directories).
    const MAX_WATCHES: usize = 65_536;

    const MASK: WatchFlags = WatchFlags::MODIFY
        .union(WatchFlags::ATTRIB)
        .union(WatchFlags::CLOSE_WRITE)
        .union(WatchFlags::CREATE)
        .union(WatchFlags::DELETE)
        .union(WatchFlags::DELETE_SELF)
        .union(WatchFlags::MOVE_SELF)
        .union(WatchFlags::MOVED_FROM)
        .union(WatchFlags::MOVED_TO)
        .union(WatchFlags::ONLYDIR);

    /// Whether the mutation check (`core::mutant`) drops events of one kind, as if the mask left
    /// them out: `content` (MODIFY, ATTRIB, CLOSE_WRITE), `modify`, `attrib`, `close_write`,
    /// `shape` (CREATE, DELETE, MOVED_*), `create`, `delete`, `moved`, `gone` (a watch's own
    /// directory gone, a lost event).
    fn mutant_drops(flags: ReadFlags, gone: ReadFlags) -> bool {
        let kinds = [
            (
                "content",
                ReadFlags::MODIFY | ReadFlags::ATTRIB | ReadFlags::CLOSE_WRITE,
            ),
            ("modify", ReadFlags::MODIFY),
            ("attrib", ReadFlags::ATTRIB),
            ("close_write", ReadFlags::CLOSE_WRITE),
            (
                "shape",
                ReadFlags::CREATE | ReadFlags::DELETE | ReadFlags::MOVED_FROM | ReadFlags::MOVED_TO,
            ),
            ("create", ReadFlags::CREATE),
            ("delete", ReadFlags::DELETE),
            ("moved", ReadFlags::MOVED_FROM | ReadFlags::MOVED_TO),
            ("gone", gone),
        ];
        kinds
            .iter()
            .any(|(k, f)| flags.intersects(*f) && mutant::on(k))
    }

    impl Watch {
        /// A watch whose walks read `rule_files` in each directory (the walker's
        /// `RULE_FILES`): a change to one changes the tree's shape, not a file's content.
        pub fn new(rule_files: &'static [&'static str]) -> std::io::Result<Watch> {
            let fd = sys::inotify_init()?;
            Ok(Watch {
                fd,
                dirs: HashMap::new(),
                rule_files,
            })
        }

        fn add_as(&mut self, dir: BorrowedFd<'_>, rel: &Path, role: Roles) -> std::io::Result<()> {
            // Watches are a per-user kernel resource shared with the user's other programs: a
            // tree an agent can grow must not take them all.
            if self.dirs.len() >= MAX_WATCHES {
                return Err(std::io::Error::other(format!(
                    "over {MAX_WATCHES} watched directories"
                )));
            }
            let wd = sys::inotify_watch(&self.fd, dir, MASK)?;
            // A directory watched already takes its name of now (it may have been renamed) and
            // keeps every reason it was watched for.
            let e = self.dirs.entry(wd).or_default();
            e.0 = rel.to_path_buf();
            e.1.walked |= role.walked;
            e.1.git |= role.git;
            e.1.git_info |= role.git_info;
            Ok(())
        }

        /// Watches the directory open at `dir`, known as `rel` (relative to the root). A directory
        /// watched already keeps its watch and takes the new name (after a rename, a new walk says
        /// where it is now).
        pub fn add(&mut self, dir: &(impl Handle + ?Sized), rel: &Path) -> std::io::Result<()> {
            let walked = Roles {
                walked: true,
                ..Roles::default()
            };
            self.add_as(handle::fd(dir), rel, walked)
        }

        /// Watches `.git` and `.git/info` beneath the directory `dir` (at `rel`) for the one file of
        /// theirs a walk reads, `.git/info/exclude`. Either may be missing: its creation is then an
        /// event of the directory above, which is watched.
        pub fn add_repository(
            &mut self,
            dir: &(impl Handle + ?Sized),
            rel: &Path,
        ) -> std::io::Result<()> {
            use crate::core::open::{open_beneath, Want};
            if mutant::on("repository") {
                return Ok(());
            }
            use crate::core::policy::SymlinkMode;
            let dir = handle::fd(dir);
            let git = match open_beneath(dir, Path::new(".git"), Want::Dir, SymlinkMode::Never) {
                Ok(o) => o.fd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                // A `.git` file (a worktree) or anything else: its `info/exclude` is not read.
                Err(_) => return Ok(()),
            };
            let git_role = Roles {
                git: true,
                ..Roles::default()
            };
            self.add_as(git.as_fd(), &rel.join(".git"), git_role)?;
            match open_beneath(
                git.as_fd(),
                Path::new("info"),
                Want::Dir,
                SymlinkMode::Never,
            ) {
                Ok(o) => {
                    let info = Roles {
                        git_info: true,
                        ..Roles::default()
                    };
                    self.add_as(o.fd.as_fd(), &rel.join(".git/info"), info)
                }
                Err(_) => Ok(()),
            }
        }

        /// Reads every queued event; calls `each` with what it means. An event about an entry
        /// `denied` (its path relative to the root, whether it is a directory) means nothing: the
        /// walk never yields a denied object nor reads a denied ignore file, so nothing a query
        /// can observe may change with one.
        pub fn drain(
            &mut self,
            denied: &dyn Fn(&Path, bool) -> bool,
            each: &mut dyn FnMut(Change),
        ) {
            let mut buf = [MaybeUninit::<u8>::uninit(); 8192];
            let mut reader = InotifyReader::new(&self.fd, &mut buf);
            loop {
                let ev = match reader.next() {
                    Ok(ev) => ev,
                    Err(Errno::INTR) => continue,
                    // Empty (EAGAIN), or broken: a broken queue reports nothing more, so it counts
                    // as a lost event.
                    Err(e) => {
                        if e != Errno::AGAIN {
                            each(Change::Structure);
                        }
                        return;
                    }
                };
                let flags = ev.events();
                let shape = ReadFlags::CREATE
                    | ReadFlags::DELETE
                    | ReadFlags::MOVED_FROM
                    | ReadFlags::MOVED_TO;
                let gone = ReadFlags::QUEUE_OVERFLOW
                    | ReadFlags::IGNORED
                    | ReadFlags::DELETE_SELF
                    | ReadFlags::MOVE_SELF
                    | ReadFlags::UNMOUNT;
                let name = ev.file_name().map(|n| n.to_bytes()).unwrap_or_default();
                let is_dir = flags.contains(ReadFlags::ISDIR);
                let hidden = |d: &Path, rest: &str, is_dir| {
                    let mut p = d.join(OsStr::from_bytes(name));
                    if !rest.is_empty() {
                        p.push(rest);
                    }
                    denied(&p, is_dir)
                };
                let change = match self.dirs.get(&ev.wd()) {
                    _ if mutant_drops(flags, gone) => None,
                    _ if flags.intersects(gone) => Some(Change::Structure),
                    None => Some(Change::Structure),
                    // What a walk reads of a repository is `.git/info/exclude`, unless denied.
                    Some((d, r))
                        if r.git
                            && name == b"info"
                            && !hidden(d, "exclude", false)
                            && !mutant::on("git_info") =>
                    {
                        Some(Change::Structure)
                    }
                    Some((d, r))
                        if r.git_info
                            && name == b"exclude"
                            && !hidden(d, "", false)
                            && !mutant::on("exclude") =>
                    {
                        Some(Change::Structure)
                    }
                    Some((_, r)) if !r.walked => None,
                    Some((d, _)) if !name.is_empty() && hidden(d, "", is_dir) => None,
                    Some(_) if flags.intersects(shape) => Some(Change::Structure),
                    // A directory's own metadata (who may read it), or an entry that is one.
                    Some(_) if (is_dir || name.is_empty()) && !mutant::on("dir_meta") => {
                        Some(Change::Structure)
                    }
                    Some(_)
                        if shapes_the_walk(self.rule_files, name)
                            && !mutant::on("ignore_names") =>
                    {
                        Some(Change::Structure)
                    }
                    Some((d, _)) => Some(Change::Content(d.join(OsStr::from_bytes(name)))),
                };
                if flags.contains(ReadFlags::IGNORED) {
                    // The watch is gone (its directory was deleted): its number may come back.
                    self.dirs.remove(&ev.wd());
                }
                if let Some(c) = change {
                    each(c);
                }
            }
        }
    }

    /// Whether changes to the filesystem holding `dir` all pass through this kernel, so that inotify
    /// reports them: local disk filesystems and tmpfs. NFS, SMB, FUSE, overlay (its lower layers) and
    /// anything unknown are not trusted.
    pub(crate) fn events_reliable(dir: BorrowedFd<'_>) -> bool {
        const LOCAL: &[i64] = &[
            0xEF53,      // ext2/3/4
            0x5846_5342, // xfs
            0x9123_683E, // btrfs
            0x0102_1994, // tmpfs
            0xF2F5_2010, // f2fs
            0x2FC1_2FC1, // zfs
        ];
        crate::core::sys::fs_type(dir).is_ok_and(|t| LOCAL.contains(&t))
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Change;
    use crate::core::handle::Handle;
    use std::os::fd::BorrowedFd;
    use std::path::Path;

    /// No change reports here: the index verifies every file at every query.
    pub(crate) struct Watch;

    impl Watch {
        pub fn new(_: &'static [&'static str]) -> std::io::Result<Watch> {
            Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
        }
        pub fn add(&mut self, _: &(impl Handle + ?Sized), _: &Path) -> std::io::Result<()> {
            Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
        }
        pub fn add_repository(
            &mut self,
            _: &(impl Handle + ?Sized),
            _: &Path,
        ) -> std::io::Result<()> {
            Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
        }
        pub fn drain(&mut self, _: &dyn Fn(&Path, bool) -> bool, _: &mut dyn FnMut(Change)) {}
    }

    pub(crate) fn events_reliable(_: BorrowedFd<'_>) -> bool {
        false
    }
}

pub(crate) use imp::{events_reliable, Watch};
