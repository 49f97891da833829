//! The walk side of a search: files in walk order, batched for the pool with a bound on the
//! directory handles each batch keeps open.

use super::{pipeline, Plan, MAX_BATCH};
use crate::search::query::Start;
use crate::walk::{FoundFile, WalkEnd, WalkSkips};
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::Arc;

/// One file for a search worker, with the walk's skip counts since the previous file.
pub(super) struct FileJob {
    pub(super) root: usize,
    pub(super) rel: PathBuf,
    pub(super) source: Source,
    pub(super) skips: WalkSkips,
}

pub(super) enum Source {
    At(Arc<crate::walk::DirFd>, std::ffi::OsString),
    Opened(OwnedFd),
}

/// Files on their way to a worker, and how many descriptors they keep open.
#[derive(Default)]
struct Batch {
    jobs: Vec<FileJob>,
    handles: usize,
}

impl Batch {
    fn push(&mut self, job: FileJob) {
        // Consecutive files of one directory share its handle.
        let shares = match (self.jobs.last().map(|j| &j.source), &job.source) {
            (Some(Source::At(a, _)), Source::At(b, _)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !shares {
            self.handles += 1;
        }
        self.jobs.push(job);
    }
}

/// A batch is sent once it holds this many directory (or file) handles, so that the descriptors
/// held by queued work stay under `MAX_WINDOW × MAX_BATCH_HANDLES` however the tree is shaped.
const MAX_BATCH_HANDLES: usize = 8;

impl Plan<'_> {
    /// The walk, on the calling thread: batches files in walk order and hands them to `run`, which
    /// holds it back while `window` batches are unfinished (or finished but held back by the budget
    /// of results waiting their turn) and takes their results meanwhile. Returns the skips counted
    /// after the last file, whether the walk went through every start, and where a walk the
    /// deadline stopped had got to.
    pub(super) fn walk_all(
        &self,
        starts: Vec<Start>,
        run: &mut pipeline::Run<'_, '_, '_>,
    ) -> (WalkSkips, bool, Option<(usize, PathBuf)>) {
        let mut carry = WalkSkips::default();
        let mut looked_at = None;
        let mut batch = Batch::default();
        let mut batch_size = 1;
        let mut complete = true;
        // Sends the batch once it is full (or `force`); false when the call is over.
        let mut flush =
            |batch: &mut Batch, force: bool, run: &mut pipeline::Run<'_, '_, '_>| -> bool {
                if batch.jobs.is_empty()
                    || (!force
                        && batch.jobs.len() < batch_size.min(run.batch_cap())
                        && batch.handles < MAX_BATCH_HANDLES)
                {
                    return true;
                }
                batch_size = (batch_size * 2).min(MAX_BATCH);
                run.send(std::mem::take(batch).jobs)
            };
        for start in starts {
            match start {
                Start::File { root, rel, fd } => {
                    let skips = std::mem::take(&mut carry);
                    batch.push(FileJob {
                        root,
                        rel,
                        source: Source::Opened(fd),
                        skips,
                    });
                    if !flush(&mut batch, false, run) {
                        complete = false;
                    }
                }
                Start::Dir {
                    root,
                    rel,
                    fd,
                    levels,
                } => {
                    let walker = self
                        .sandbox
                        .walker(root, self.filter, self.deadline, self.cursor);
                    let mut on_file = |f: FoundFile, skips: &mut WalkSkips| {
                        let mut sk = std::mem::take(&mut carry);
                        sk.add(&std::mem::take(skips));
                        batch.push(FileJob {
                            root,
                            rel: f.rel,
                            source: Source::At(f.dir, f.name),
                            skips: sk,
                        });
                        flush(&mut batch, false, run)
                    };
                    let (end, rest) = walker.run(fd, rel, levels, &mut on_file);
                    carry.add(&rest);
                    match end {
                        WalkEnd::Complete => {}
                        WalkEnd::Stopped => complete = false,
                        WalkEnd::TimedOut(at) => {
                            complete = false;
                            looked_at = at.map(|p| (root, p));
                        }
                    }
                }
            }
            if !complete {
                break;
            }
        }
        if complete && !flush(&mut batch, true, run) {
            complete = false;
        }
        (carry, complete && !self.deadline.expired(), looked_at)
    }
}
