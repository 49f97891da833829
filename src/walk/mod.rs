//! The root-bound walker: directories are read and descended through handles (never by ambient path),
//! symlinks are reported and never followed, and ignore rules come from files read through the same
//! handles with ripgrep's precedence. Nothing above the sandbox root is consulted.

use crate::core::admit::{Gate, RootId};
use crate::core::deadline::Deadline;
use crate::core::open::{self, Want};
use crate::core::policy::SymlinkMode;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;
use ignore::Match;
use rustix::fs::FileType;
use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Ignore files larger than this are not read (a hostile 10 GB `.gitignore` must cost nothing).
const MAX_IGNORE_FILE: usize = 1024 * 1024;

/// The ignore rules of one directory, linked to its parent's.
#[derive(Debug, Default)]
pub(crate) struct IgnoreLevel {
    parent: Option<Arc<IgnoreLevel>>,
    custom: Option<Gitignore>,
    ignore: Option<Gitignore>,
    git: Option<Gitignore>,
    exclude: Option<Gitignore>,
    has_git: bool,
    /// This directory or one above it (within the walk) holds a `.git`.
    in_repo: bool,
}

impl IgnoreLevel {
    /// Loads `.rgignore`, `.ignore`, `.gitignore` and `.git/info/exclude` of the directory `fd` (at `rel`).
    ///
    /// With `present` (the directory's entries), only files that exist are opened: most directories
    /// have none of them, and three failed opens per directory add up over a large tree.
    pub fn load(
        fd: BorrowedFd<'_>,
        rel: &Path,
        has_git: bool,
        parent: Option<Arc<IgnoreLevel>>,
        present: Option<&[(OsString, FileType)]>,
    ) -> Arc<Self> {
        let read = |name: &str| {
            let exists = present.is_none_or(|entries| {
                entries
                    .binary_search_by(|(n, _)| n.as_bytes().cmp(name.as_bytes()))
                    .is_ok()
            });
            exists
                .then(|| read_rules(fd, rel, Path::new(name)))
                .flatten()
        };
        // A `.gitignore` applies only below a `.git` at its level or above (a repository found
        // deeper stops the climb there), so outside a repository it is not even read: the Linux tree
        // has hundreds of them, and compiling their globs showed in the first-page latency.
        let in_repo = has_git || parent.as_ref().is_some_and(|p| p.in_repo);
        Arc::new(IgnoreLevel {
            custom: read(".rgignore"),
            ignore: read(".ignore"),
            git: if in_repo { read(".gitignore") } else { None },
            // Not one of the directory's entries: `.git`'s presence was checked, the open says the rest.
            exclude: if has_git {
                read_rules(fd, rel, Path::new(".git/info/exclude"))
            } else {
                None
            },
            has_git,
            in_repo,
            parent,
        })
    }

    fn levels(&self) -> impl Iterator<Item = &IgnoreLevel> {
        std::iter::successors(Some(self), |l| l.parent.as_deref())
    }

    /// ripgrep's precedence: per kind, the deepest directory that matches wins; then `.rgignore` over
    /// `.ignore` over `.gitignore` over `.git/info/exclude`. Git rules apply only inside a repository
    /// (a `.git` at or below the walk root, at or above the path: `require_git`).
    pub fn matched(&self, rel: &Path, is_dir: bool) -> Match<()> {
        let any_git = self.in_repo;
        let (mut custom, mut ign, mut gi, mut ex) =
            (Match::None, Match::None, Match::None, Match::None);
        let mut saw_git = false;
        for l in self.levels() {
            let m = |g: &Option<Gitignore>| match g {
                Some(g) => g.matched(rel, is_dir).map(|_| ()),
                None => Match::None,
            };
            if custom.is_none() {
                custom = m(&l.custom);
            }
            if ign.is_none() {
                ign = m(&l.ignore);
            }
            if any_git && !saw_git && gi.is_none() {
                gi = m(&l.git);
            }
            if any_git && !saw_git && ex.is_none() {
                ex = m(&l.exclude);
            }
            saw_git = saw_git || l.has_git;
        }
        custom.or(ign).or(gi).or(ex)
    }
}

fn read_rules(dir: BorrowedFd<'_>, rel: &Path, name: &Path) -> Option<Gitignore> {
    let opened = open::open_beneath(dir, name, Want::Read, SymlinkMode::Never).ok()?;
    if opened.kind() != open::Kind::File {
        return None;
    }
    let bytes = crate::core::io::pread_exact(&opened.fd, 0, MAX_IGNORE_FILE).ok()?;
    let mut b = GitignoreBuilder::new(rel);
    for line in String::from_utf8_lossy(&bytes).lines() {
        let _ = b.add_line(None, line);
    }
    b.build().ok().filter(|g| !g.is_empty())
}

/// What the walk filters on, besides deny rules.
#[derive(Clone, Default)]
pub(crate) struct Filter {
    pub hidden: bool,
    pub no_ignore: bool,
    pub overrides: Option<Override>,
    pub types: Option<Types>,
}

/// Counts of entries the walk passed over. Objects a deny rule matches are not counted anywhere: a
/// denied object is indistinguishable from an absent one. `denied` counts files refused by the
/// hard-link policy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct WalkSkips {
    pub ignored: u64,
    pub denied: u64,
    pub unreadable: u64,
    pub not_regular: u64,
}

impl WalkSkips {
    pub fn add(&mut self, o: &WalkSkips) {
        self.ignored += o.ignored;
        self.denied += o.denied;
        self.unreadable += o.unreadable;
        self.not_regular += o.not_regular;
    }
}

/// A file found by the walk: its directory handle and name, so opening it cannot resolve anything else.
pub(crate) struct FoundFile {
    pub rel: PathBuf,
    pub dir: Arc<DirFd>,
    pub name: OsString,
}

/// Why a walk ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WalkEnd {
    Complete,
    Stopped,
    /// The deadline passed; everything up to this entry (walk order) was looked at.
    TimedOut(PathBuf),
}

/// Whether a directory entry is shown, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Visibility {
    Shown,
    /// Left out by an ignore file.
    Ignored,
    /// Left out for being hidden (a dot name).
    Hidden,
    /// Left out by an include/exclude glob or a file type.
    Filtered,
}

/// ripgrep's filter chain, the one precedence for the walker and list_dir: overrides (include and
/// exclude globs) decide first; then ignore files (a whitelist, `!.keep`, also shows a hidden name);
/// then file types; then hidden names.
pub(crate) fn visibility(
    filter: &Filter,
    ign: Option<&IgnoreLevel>,
    rel: &Path,
    name: &OsStr,
    is_dir: bool,
) -> Visibility {
    if let Some(o) = &filter.overrides {
        match o.matched(rel, is_dir) {
            Match::Ignore(_) => return Visibility::Filtered,
            Match::Whitelist(_) => return Visibility::Shown,
            Match::None => {}
        }
    }
    let mut whitelisted = false;
    if let Some(ign) = ign {
        match ign.matched(rel, is_dir) {
            Match::Ignore(_) => return Visibility::Ignored,
            Match::Whitelist(_) => whitelisted = true,
            Match::None => {}
        }
    }
    if let Some(t) = &filter.types {
        match t.matched(rel, is_dir) {
            Match::Ignore(_) => return Visibility::Filtered,
            Match::Whitelist(_) => whitelisted = true,
            Match::None => {}
        }
    }
    if !whitelisted && !filter.hidden && name.as_bytes().first() == Some(&b'.') {
        return Visibility::Hidden;
    }
    Visibility::Shown
}

/// One directory being walked.
struct Frame {
    fd: Arc<DirFd>,
    rel: PathBuf,
    ign: Option<Arc<IgnoreLevel>>,
    entries: std::vec::IntoIter<(OsString, FileType)>,
}

/// A depth-first walk of one directory of one root, entries in byte order of names (the order of
/// Rust's `Path` and `rg --sort path`).
pub(crate) struct Walk<'a> {
    /// The admission gate, and the root the walk is in.
    pub gate: &'a Gate,
    pub root: RootId,
    pub filter: &'a Filter,
    /// Checked for every entry, so a walk through many empty directories is bounded too.
    pub deadline: Option<&'a Deadline>,
    /// Skip everything that sorts before this path (a cursor), keeping its ancestors and itself.
    pub resume_after: Option<&'a Path>,
}

impl Walk<'_> {
    /// Walks the directory `fd` at `rel`, calling `on_file` for each file in order with the skip counts
    /// gathered since the previous file; `on_file` returns false to stop.
    pub fn run(
        &self,
        fd: OwnedFd,
        rel: PathBuf,
        ign: Option<Arc<IgnoreLevel>>,
        on_file: &mut dyn FnMut(FoundFile, &mut WalkSkips) -> bool,
    ) -> (WalkEnd, WalkSkips) {
        let mut skips = WalkSkips::default();
        let mut stack = Vec::new();
        match self.frame(fd, rel, ign) {
            Some(f) => stack.push(f),
            None => {
                skips.unreadable += 1;
                return (WalkEnd::Complete, skips);
            }
        }
        while let Some(top) = stack.last_mut() {
            let Some((name, ft)) = top.entries.next() else {
                stack.pop();
                continue;
            };
            let rel = top.rel.join(&name);
            if self.deadline.is_some_and(Deadline::expired) {
                return (WalkEnd::TimedOut(rel), skips);
            }
            if let Some(cursor) = self.resume_after {
                if !cursor.starts_with(&rel) && rel.as_path() < cursor {
                    continue;
                }
            }
            let ft = if ft == FileType::Unknown {
                stat_type(&*top.fd, &name)
            } else {
                ft
            };
            let is_dir = ft == FileType::Directory;
            if self.gate.denied(self.root, &rel, is_dir) {
                continue;
            }
            match ft {
                FileType::Directory | FileType::RegularFile => {}
                FileType::Symlink => continue,
                _ => {
                    skips.not_regular += 1;
                    continue;
                }
            }
            match visibility(self.filter, top.ign.as_deref(), &rel, &name, is_dir) {
                Visibility::Shown => {}
                Visibility::Ignored | Visibility::Hidden => {
                    skips.ignored += 1;
                    continue;
                }
                Visibility::Filtered => continue,
            }
            if !is_dir && self.gate.checks_links() && !self.links_ok(&*top.fd, &name) {
                skips.denied += 1;
                continue;
            }
            if is_dir {
                let parent_ign = top.ign.clone();
                let opened = open::open_beneath(
                    top.fd.as_fd(),
                    Path::new(&name),
                    Want::Dir,
                    SymlinkMode::Never,
                );
                match opened.ok().and_then(|o| self.frame(o.fd, rel, parent_ign)) {
                    Some(f) => stack.push(f),
                    None => skips.unreadable += 1,
                }
            } else {
                let found = FoundFile {
                    rel,
                    dir: top.fd.clone(),
                    name,
                };
                if !on_file(found, &mut skips) {
                    return (WalkEnd::Stopped, skips);
                }
            }
        }
        (WalkEnd::Complete, skips)
    }

    fn frame(&self, fd: OwnedFd, rel: PathBuf, parent: Option<Arc<IgnoreLevel>>) -> Option<Frame> {
        let (dir, entries) = read_entries_owned(fd)?;
        let has_git = entries.iter().any(|(n, _)| n == ".git");
        let ign = if self.filter.no_ignore {
            None
        } else {
            Some(IgnoreLevel::load(
                dir.as_fd(),
                &rel,
                has_git,
                parent,
                Some(&entries),
            ))
        };
        Some(Frame {
            fd: Arc::new(dir),
            rel,
            ign,
            entries: entries.into_iter(),
        })
    }

    /// The hard-link policy for a walked file, from `fstatat` (the search re-checks the opened file).
    fn links_ok(&self, dir: &impl AsFd, name: &OsStr) -> bool {
        rustix::fs::statat(dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|st| self.gate.links_ok(&st))
    }
}

/// Loads the ignore levels of `rel`'s ancestors (root first), so a search starting below the root sees
/// the same rules as one starting at it.
pub(crate) fn ancestor_levels(
    root: &cap_std::fs::Dir,
    rel: &Path,
    no_ignore: bool,
) -> Option<Arc<IgnoreLevel>> {
    if no_ignore {
        return None;
    }
    let mut level: Option<Arc<IgnoreLevel>> = None;
    let mut prefix = PathBuf::new();
    let mut comps: Vec<_> = rel.components().collect();
    comps.pop(); // the start directory itself is loaded by the walk
    for c in std::iter::once(None).chain(comps.into_iter().map(Some)) {
        if let Some(c) = c {
            prefix.push(c);
        }
        let fd = open::open_beneath(root.as_fd(), &prefix, Want::Dir, SymlinkMode::Never)
            .ok()?
            .fd;
        let has_git =
            rustix::fs::statat(&fd, ".git", rustix::fs::AtFlags::SYMLINK_NOFOLLOW).is_ok();
        level = Some(IgnoreLevel::load(fd.as_fd(), &prefix, has_git, level, None));
    }
    level
}

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
