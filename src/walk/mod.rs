//! The root-bound walker: directories are read and descended through handles (never by ambient path),
//! symlinks are reported and never followed, and ignore rules come from files read through the same
//! handles with ripgrep's precedence. Nothing above the sandbox root is consulted.

use crate::core::admit::{Admitted, RootId};
use crate::core::deadline::Deadline;
use crate::core::dirs::{FileType, Stat};
use crate::core::handle::Handle;
use crate::core::open::{Kind, Opened, Want};
use crate::core::sandbox::Sandbox;
use ignore::overrides::Override;
use ignore::types::Types;
use ignore::Match;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod ignore_rules;
pub(crate) mod outcome;
mod pace;
pub(crate) use pace::{Pace, Step};

pub(crate) use crate::core::dirs::{read_entries, read_entries_owned, stat_type, DirFd};
pub(crate) use ignore_rules::{
    ancestor_levels, extra_rules_hide, IgnoreBudget, IgnoreKinds, IgnoreLevel, GEMINIIGNORE,
    RULE_FILES,
};

/// What the walk filters on, besides deny rules.
#[derive(Clone, Default)]
pub(crate) struct Filter {
    pub hidden: bool,
    pub no_ignore: bool,
    pub overrides: Option<Override>,
    /// The overrides only choose among what the ignore files and the hidden rule leave, instead of
    /// showing what they match whatever those say (Gemini CLI's glob, which filters its matches by
    /// .gitignore afterwards).
    pub overrides_keep_ignores: bool,
    pub types: Option<Types>,
    /// The call's budget for compiling ignore files.
    pub ignore: IgnoreBudget,
    /// Entries deeper than this below the start of the walk are passed over (rg `--max-depth`:
    /// 1 is the start directory's own entries).
    pub max_depth: Option<u64>,
    /// Rules the operator gave on the command line (rg `--ignore-file`), root-relative, below every
    /// ignore file in precedence and applied with `no_ignore` too (as rg applies them).
    pub explicit: Option<Arc<ignore::gitignore::Gitignore>>,
    /// Directories on another file system than the walk's start are not entered (rg
    /// `--one-file-system`).
    pub one_file_system: bool,
    /// The call's globs, types and switches as text: with the fields set after it, what the walk
    /// yields is a function of the tree and of [`Filter::walk_key`] alone. `None`: never recorded
    /// (command-line filters).
    pub key: Option<Arc<str>>,
}

impl Filter {
    /// The key the index records this filter's walks under and replays them by, while the tree's
    /// shape is unchanged: [`Filter::key`] and every other field that decides what is yielded
    /// (of the ignore budget, the kinds of ignore file read; its deadline only cuts a walk short,
    /// and a cut walk is not recorded).
    pub fn walk_key(&self) -> Option<Arc<str>> {
        let Filter {
            key,
            max_depth,
            one_file_system,
            explicit,
            hidden: _,
            no_ignore: _,
            overrides: _,
            overrides_keep_ignores,
            types: _,
            ignore,
        } = self;
        if explicit.is_some() {
            return None;
        }
        let kinds = ignore.kinds;
        Some(
            format!(
                "{} {max_depth:?} {one_file_system} {kinds:?} {overrides_keep_ignores}",
                key.as_ref()?
            )
            .into(),
        )
    }
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
    /// The deadline passed; everything up to this entry (walk order) was looked at, a directory's
    /// own entry but not yet its contents (`None`: not even the first entry).
    TimedOut(Option<PathBuf>),
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
            Match::Whitelist(_) if !filter.overrides_keep_ignores => return Visibility::Shown,
            Match::Whitelist(_) | Match::None => {}
        }
    }
    let mut whitelisted = false;
    let from_files = ign.map_or(Match::None, |ign| ign.matched(rel, is_dir));
    let from_files = match (&from_files, &filter.explicit) {
        (Match::None, Some(g)) => g.matched(rel, is_dir).map(|_| ()),
        _ => from_files,
    };
    match from_files {
        Match::Ignore(_) => return Visibility::Ignored,
        Match::Whitelist(_) => whitelisted = true,
        Match::None => {}
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

/// Told about each directory before the walk reads it (the index watches it). Both take the
/// directory as the gate admitted it: the hook hands it to core (`core::watch`) whole.
pub(crate) trait DirHook: Sync {
    /// The admitted directory `dir`, known as `rel`, is about to be read.
    fn entering(&self, dir: &Admitted<Opened>, rel: &Path);
    /// The admitted directory `dir` at `rel` (an `Admitted<Opened>`, or the `DirFd` it became
    /// once read) holds a `.git` whose `info/exclude` the walk may read.
    fn repository(&self, dir: &dyn Handle, rel: &Path);
}

/// One directory being walked.
struct Frame {
    dir: Arc<DirFd>,
    rel: PathBuf,
    ign: Option<Arc<IgnoreLevel>>,
    entries: std::vec::IntoIter<(OsString, FileType)>,
}

/// A depth-first walk of one directory of one root, entries in byte order of names (the order of
/// Rust's `Path` and `rg --sort path`).
pub(crate) struct Walk<'a> {
    /// The sandbox whose admission calls every entry passes, and the root the walk is in.
    pub sandbox: &'a Sandbox,
    pub root: RootId,
    pub filter: &'a Filter,
    /// Checked for every entry, so a walk through many empty directories is bounded too.
    pub deadline: Option<&'a Deadline>,
    /// Skip everything that sorts before this path (a cursor), keeping its ancestors and itself.
    pub resume_after: Option<&'a Path>,
    /// Told about each directory before it is read.
    pub hook: Option<&'a dyn DirHook>,
}

impl Walk<'_> {
    /// Walks the admitted directory `fd` at `rel`, calling `on_file` for each file in order with the
    /// skip counts gathered since the previous file; `on_file` returns false to stop.
    pub fn run(
        &self,
        fd: Admitted<Opened>,
        rel: PathBuf,
        ign: Option<Arc<IgnoreLevel>>,
        on_file: &mut dyn FnMut(FoundFile, &mut WalkSkips) -> bool,
    ) -> (WalkEnd, WalkSkips) {
        let mut skips = WalkSkips::default();
        let mut stack = Vec::new();
        let mut pace = Pace::new(self.deadline, self.resume_after);
        // The start's metadata, for its device.
        let start = if self.filter.one_file_system {
            crate::core::dirs::stat_fd(&fd).ok()
        } else {
            None
        };
        match self.frame(fd, rel, ign) {
            Some(f) => stack.push(f),
            None => {
                skips.unreadable += 1;
                return (WalkEnd::Complete, skips);
            }
        }
        loop {
            // The depth of the entries of the directory on top (1: the start's own entries).
            let depth = stack.len() as u64;
            let Some(top) = stack.last_mut() else {
                break;
            };
            let Some((name, ft)) = top.entries.next() else {
                stack.pop();
                continue;
            };
            if self.filter.max_depth.is_some_and(|m| depth > m) {
                // Deeper than asked (rg `--max-depth`): not looked at, like rg.
                top.entries = Vec::new().into_iter();
                continue;
            }
            let rel = top.rel.join(&name);
            let rules_cut = top.ign.as_deref().is_some_and(IgnoreLevel::incomplete);
            match pace.arrive(&rel, rules_cut, true) {
                Ok(Step::Take) => {}
                Ok(Step::Pass) => continue,
                Err(end) => return (end, skips),
            }
            let Some(is_dir) = self.admit_entry(top, &name, ft, &rel, depth, &mut skips) else {
                continue;
            };
            if is_dir {
                if let Some(f) = self.enter(top, &name, rel, start.as_ref(), &mut skips) {
                    stack.push(f);
                }
            } else {
                let found = FoundFile {
                    rel,
                    dir: top.dir.clone(),
                    name,
                };
                if !on_file(found, &mut skips) {
                    return (WalkEnd::Stopped, skips);
                }
            }
        }
        (WalkEnd::Complete, skips)
    }

    /// Whether the entry `name` of `top` is walked, and if so whether it is a directory: `None`
    /// when the gate, its kind, the filters or `max_depth` pass it over (counted in `skips` by
    /// why).
    fn admit_entry(
        &self,
        top: &Frame,
        name: &OsString,
        ft: FileType,
        rel: &Path,
        depth: u64,
        skips: &mut WalkSkips,
    ) -> Option<bool> {
        let ft = if ft == FileType::Unknown {
            stat_type(&*top.dir, name)
        } else {
            ft
        };
        let is_dir = ft == FileType::Directory;
        let named = self
            .sandbox
            .admit_listed(self.root, rel, Kind::from_file_type(ft))
            .ok()?;
        match ft {
            FileType::Directory | FileType::RegularFile => {}
            FileType::Symlink => return None,
            _ => {
                skips.not_regular += 1;
                return None;
            }
        }
        match visibility(self.filter, top.ign.as_deref(), rel, name, is_dir) {
            Visibility::Shown => {}
            Visibility::Ignored | Visibility::Hidden => {
                skips.ignored += 1;
                return None;
            }
            Visibility::Filtered => return None,
        }
        // After the filters: an ignored file is counted as ignored, and only a shown one is
        // stat'ed for its link count (the search re-checks the opened file).
        if named.admit(&*top.dir, name).is_err() {
            skips.denied += 1;
            return None;
        }
        if is_dir && self.filter.max_depth.is_some_and(|m| depth >= m) {
            // Its entries would be deeper than asked.
            return None;
        }
        Some(is_dir)
    }

    /// Opens the admitted directory `name` of `top` and reads it; `None` when it is on another
    /// file system than `start` (passed over silently) or cannot be read (counted).
    fn enter(
        &self,
        top: &Frame,
        name: &OsStr,
        rel: PathBuf,
        start: Option<&Stat>,
        skips: &mut WalkSkips,
    ) -> Option<Frame> {
        let parent_ign = top.ign.clone();
        let opened = self
            .sandbox
            .open_found(self.root, &top.dir, Path::new(name), &rel, Want::Dir);
        // rg `--one-file-system`: another file system's directory is passed over silently.
        let opened = match opened {
            Ok(o) if start.is_some_and(|st| o.stat.st_dev != st.st_dev) => return None,
            Ok(o) => Some(o),
            Err(_) => None,
        };
        let frame = opened.and_then(|o| self.frame(o, rel, parent_ign));
        if frame.is_none() {
            skips.unreadable += 1;
        }
        frame
    }

    fn frame(
        &self,
        fd: Admitted<Opened>,
        rel: PathBuf,
        parent: Option<Arc<IgnoreLevel>>,
    ) -> Option<Frame> {
        if let Some(h) = self.hook {
            h.entering(&fd, &rel);
        }
        let (dir, entries) = read_entries_owned(fd)?;
        let has_git = entries.iter().any(|(n, _)| n == ".git");
        let denied = self.sandbox.denied_fn(self.root);
        // A denied `.git` is not read (its `info/exclude` neither), so not watched either.
        if let (Some(h), true) = (self.hook, has_git) {
            if !denied(&rel.join(".git"), true) {
                h.repository(&dir, &rel);
            }
        }
        let ign = if self.filter.no_ignore {
            None
        } else {
            Some(IgnoreLevel::load(
                &dir,
                &rel,
                has_git,
                parent,
                Some(&entries),
                &self.filter.ignore,
                &denied,
            ))
        };
        Some(Frame {
            dir: Arc::new(dir),
            rel,
            ign,
            entries: entries.into_iter(),
        })
    }
}
