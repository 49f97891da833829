//! One file on its way from the walk to a search worker: where to open it, and the walk's skip
//! counts since the file before it.

use crate::core::admit::Admitted;
use crate::core::open::Opened;
use crate::walk::WalkSkips;
use std::path::PathBuf;
use std::sync::Arc;

/// One file for a search worker, with the walk's skip counts since the previous file.
pub(super) struct FileJob {
    pub(super) root: usize,
    pub(super) rel: PathBuf,
    pub(super) source: Source,
    pub(super) skips: WalkSkips,
    /// The call's first file past where it started: searched even when the deadline passed before
    /// it began (as far as the searcher's own checks allow), so that every call advances.
    pub(super) first: bool,
}

/// Where a worker finds the file.
pub(super) enum Source {
    /// A name in a directory the walk holds open.
    At(Arc<crate::walk::DirFd>, std::ffi::OsString),
    /// A file of a replayed walk the index did not vouch for (`FileJob::rel` names it): the
    /// worker opens it from the root by its path through the gate (one `openat2` beneath the
    /// root), so queued work holds no descriptor and the opens are spread over the pool; it is
    /// searched without asking the index again (the replay's mask decided, and a second look
    /// would hash its path and stat it for nothing).
    Replayed,
    /// The file itself, opened already (the search's path names it).
    /// Boxed: a job of every other source is a few words long.
    Opened(Box<Admitted<Opened>>),
    /// Consecutive replayed files the index vouches for: none is opened, and they travel as one
    /// record (`FileJob::rel` names the last of them).
    Pruned(Box<crate::search::record::PrunedRun>),
}

impl Source {
    /// The directory handle it keeps open, if any.
    pub(super) fn dir(&self) -> Option<&Arc<crate::walk::DirFd>> {
        match self {
            Source::At(d, _) => Some(d),
            _ => None,
        }
    }
}
