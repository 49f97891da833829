//! The walk side of a search: files in walk order, batched for the pool with a bound on the
//! directory handles each batch keeps open.

use super::job::{FileJob, Source};
use super::{pipeline, SearchPlan, MAX_BATCH};
use crate::search::query::WalkStart;
use crate::walk::{FoundFile, Pace, Step, WalkEnd, WalkSkips};
use std::path::PathBuf;
use std::sync::Arc;

/// Whether a walk of read root `root` went through everything, and, when the deadline stopped it,
/// how far it had got.
fn outcome(end: WalkEnd, root: usize) -> (bool, Option<(usize, PathBuf)>) {
    match end {
        WalkEnd::Complete => (true, None),
        WalkEnd::Stopped => (false, None),
        WalkEnd::TimedOut(at) => (false, at.map(|p| (root, p))),
    }
}

/// The skips a file's job carries, live or replayed: those counted after the previous start's last
/// file (`carry`, taken) and its own since the previous file.
fn carried(carry: &mut WalkSkips, own: &WalkSkips) -> WalkSkips {
    let mut sk = std::mem::take(carry);
    sk.add(own);
    sk
}

/// Replayed files the index vouches for, not yet sent: `last` is the last of them (its place in
/// the recorded walk: its path is copied once, when the run is sent), `skips` the walk's skips
/// before the first.
struct PendingRun {
    last: usize,
    skips: WalkSkips,
    totals: Box<crate::search::record::PrunedRun>,
}

/// Files on their way to a worker, and how many descriptors they keep open.
#[derive(Default)]
struct Batch {
    jobs: Vec<FileJob>,
    handles: usize,
}

impl Batch {
    fn push(&mut self, job: FileJob) {
        // Consecutive files of one directory share its handle; a run the index vouched for holds
        // none. A replayed file holds none while it waits either, but counts as one: its worker
        // opens it, and a batch of a few such files
        // leaves little searched past the end of a page (measured: batches of up to 64
        // replayed files took a fifth more CPU time per listing on the Linux tree).
        let last = self.jobs.last().and_then(|j| j.source.dir());
        let shares = match (last, &job.source) {
            (_, Source::Pruned(_)) => true,
            (Some(a), s) => s.dir().is_some_and(|b| Arc::ptr_eq(a, b)),
            _ => false,
        };
        if !shares {
            self.handles += 1;
        }
        self.jobs.push(job);
    }
}

/// A batch is sent once it holds this many directory (or file) handles, so that the descriptors
/// held by queued work stay under `MAX_WINDOW × MAX_BATCH_HANDLES` however the tree is shaped (or
/// this many replayed files, which hold none until their worker opens them).
const MAX_BATCH_HANDLES: usize = 8;

impl SearchPlan<'_> {
    /// The walk, on the calling thread: batches files in walk order and hands them to `run`, which
    /// holds it back while `window` batches are unfinished (or finished but held back by the budget
    /// of results waiting their turn) and takes their results meanwhile. Returns the skips counted
    /// after the last file, whether the walk went through every start, and where a walk the
    /// deadline stopped had got to.
    pub(super) fn walk_all(
        &self,
        starts: Vec<WalkStart>,
        run: &mut pipeline::Run<'_, '_>,
    ) -> (WalkSkips, bool, Option<(usize, PathBuf)>) {
        let mut carry = WalkSkips::default();
        let mut looked_at = None;
        let mut batch = Batch::default();
        let mut batch_size = 1;
        let mut complete = true;
        // Sends the batch once it is full (or `force`); false when the call is over.
        let mut flush = |batch: &mut Batch, force: bool, run: &mut pipeline::Run<'_, '_>| -> bool {
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
        // The call's first file past its start (see `FileJob::first`): not the cursor's own file
        // when that was searched to its end.
        let cursor = self.selection.cursor.as_ref();
        let mut fresh = true;
        let mut first = |root: usize, rel: &std::path::Path| {
            let done =
                cursor.is_some_and(|c| c.root == root && c.path == rel && c.line == u64::MAX);
            let first = fresh && !done;
            fresh &= !first;
            first
        };
        for start in starts {
            match start {
                WalkStart::File { root, rel, fd } => {
                    let skips = std::mem::take(&mut carry);
                    batch.push(FileJob {
                        first: first(root, &rel),
                        root,
                        rel,
                        source: Source::Opened(Box::new(fd)),
                        skips,
                    });
                    if !flush(&mut batch, false, run) {
                        complete = false;
                    }
                }
                WalkStart::Dir {
                    root,
                    rel,
                    fd,
                    levels,
                } => {
                    let replayed = self.replay(root, &rel, &mut |job| {
                        batch.push(FileJob {
                            skips: carried(&mut carry, &job.skips),
                            first: first(root, &job.rel),
                            ..job
                        });
                        flush(&mut batch, false, run)
                    });
                    if let Some((end, rest)) = replayed {
                        carry.add(&rest);
                        (complete, looked_at) = outcome(end, root);
                        if !complete {
                            break;
                        }
                        continue;
                    }
                    let walker = crate::search::query::walker(
                        self.sandbox,
                        root,
                        &self.selection.filter,
                        self.deadline,
                        self.selection.cursor.as_ref(),
                    );
                    let mut on_file = |f: FoundFile, skips: &mut WalkSkips| {
                        batch.push(FileJob {
                            first: first(root, &f.rel),
                            root,
                            rel: f.rel,
                            source: Source::At(f.dir, f.name),
                            skips: carried(&mut carry, &std::mem::take(skips)),
                        });
                        flush(&mut batch, false, run)
                    };
                    let (end, rest) = walker.run(fd, rel, levels, &mut on_file);
                    carry.add(&rest);
                    (complete, looked_at) = outcome(end, root);
                }
            }
            if !complete {
                break;
            }
        }
        // The files the walk has handed over are searched, whether it ended or the deadline cut it:
        // the resume point (`looked_at`) lies after them. If they cannot be sent (the call is
        // over), the call resumes after the last file it took instead.
        if !batch.jobs.is_empty() && !flush(&mut batch, true, run) {
            complete = false;
            looked_at = None;
        }
        (carry, complete, looked_at)
    }

    /// Feeds the index's recorded walk of root `root` from `rel`, when one holds and a cursor (if
    /// any) names one of its files: the files in walk order with the skips between them, as the
    /// walker would hand them over. `None`: walk instead (nothing was fed).
    fn replay(
        &self,
        root: usize,
        rel: &std::path::Path,
        send: &mut dyn FnMut(FileJob) -> bool,
    ) -> Option<(WalkEnd, WalkSkips)> {
        let prune = self.selection.prune.as_ref()?;
        let rp = prune.index_replay(self.sandbox, root, rel, &self.selection.filter)?;
        let files = &rp.walk.files;
        // A cursor resumes at its file: what came before it (and the skips on the way to it) the
        // walker would not look at.
        let cursor = self.selection.cursor.as_ref().filter(|c| c.root == root);
        let first = match cursor {
            None => 0,
            Some(c) => files
                .binary_search_by(|(p, ..)| p.as_path().cmp(&c.path))
                .ok()?,
        };
        let mask = prune.replay_mask(root, &rp)?;
        prune.replayed_one();
        // The walker's own rule for the deadline, the cursor and the skips before each file.
        let mut pace = Pace::new(Some(self.deadline), cursor.map(|c| c.path.as_path()));
        // Vouched-for files wait in `run` until a file that must be searched, the end, or the
        // deadline sends them as one job.
        let mut run: Option<PendingRun> = None;
        let send_run = |run: &mut Option<PendingRun>, send: &mut dyn FnMut(FileJob) -> bool| {
            run.take().is_none_or(|r| {
                send(FileJob {
                    first: false,
                    root,
                    rel: files[r.last].0.clone(),
                    source: Source::Pruned(r.totals),
                    skips: r.skips,
                })
            })
        };
        for (i, (rel, skips, id)) in files[first..].iter().enumerate() {
            // The clock is read for every file searched, and every 64 files vouched for.
            match pace.arrive_lent(rel, false, i % 64 == 0 || run.is_none()) {
                Ok(Step::Take) => {}
                Ok(Step::Pass) => continue,
                Err(end) => {
                    if !send_run(&mut run, send) {
                        return Some((WalkEnd::Stopped, WalkSkips::default()));
                    }
                    return Some((end, WalkSkips::default()));
                }
            }
            let skips = pace.skips_to(rel, *skips);
            // The cursor's own file is searched (from its line on), never vouched for.
            let resumed = i == 0 && cursor.is_some();
            let vouched = match id {
                _ if resumed => None,
                Some(id) => prune.unverified(root, *id, &mask),
                None => prune.unindexed(rel, &mask),
            };
            if let Some(v) = vouched {
                let r = run.get_or_insert_with(|| PendingRun {
                    last: first + i,
                    skips,
                    totals: Box::default(),
                });
                if r.totals.files > 0 {
                    r.totals.rest_skips.add(&skips);
                }
                r.totals.add(v);
                r.last = first + i;
                continue;
            }
            if !send_run(&mut run, send) {
                return Some((WalkEnd::Stopped, WalkSkips::default()));
            }
            let job = FileJob {
                first: false,
                root,
                rel: rel.clone(),
                source: Source::Replayed,
                skips,
            };
            if !send(job) {
                return Some((WalkEnd::Stopped, WalkSkips::default()));
            }
        }
        if !send_run(&mut run, send) {
            return Some((WalkEnd::Stopped, WalkSkips::default()));
        }
        Some((WalkEnd::Complete, rp.walk.tail))
    }
}
