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
    /// worker opens its directory from the root through the gate (`index::replay::DirCache`, one
    /// handle per run of files of a directory within a batch) and the file through that handle,
    /// as `At`; it is searched without asking the index again (the replay's mask decided, and a
    /// second look would hash its path and stat it for nothing). Opening the directory on the
    /// worker, not on the walking thread, spreads those opens over the pool and keeps queued
    /// work free of descriptors.
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
