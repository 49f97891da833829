//! The calling thread's side of one search: it hands batches, in walk order, to the sandbox's
//! thread pool and takes their results back in that order.
//!
//! **Thread model.** No thread is created per call (one exception: a spill thread while every pool
//! thread is held by the overrunning scan of a call that returned, see below). The walk runs on the calling thread (it has to be
//! one sequential producer, for the order, and the calling thread would otherwise only wait), and so
//! does page assembly: between two batches the walker takes whatever results are ready, and when the
//! window of batches in flight is full it waits for one. The batches run on the sandbox's
//! `rayon::ThreadPool` through its fair queue (`core::pool`). A walker on the pool instead would hold
//! a pool thread while it waits for its own batches: with as many concurrent calls as pool threads,
//! nothing would be left to search them.
//!
//! **Deadlock.** A call made from a thread of the same pool (`current_thread_index()` is set) searches
//! its batches inline on that thread: waiting there for tasks queued behind it could wait forever on a
//! one-thread pool. It is then single-threaded, and its wall time is bounded like a scan (below).
//!
//! **The budget and stuck scans.** The calling thread waits for results in slices of at most
//! [`POLL`], looking at the deadline and the cancel switch each time. Once the budget is spent it
//! waits at most [`GRACE`] for the batches in flight, takes what came back in order, and returns the
//! page with `timed_out: true` and a cursor that resumes at the first file not taken. The tasks own
//! what they use (`Shared`, behind an `Arc`), so a worker still inside one regex call — which
//! checks nothing until it returns — finishes it in the background and its result is dropped.
//!
//! Worst case, then: a call returns within its timeout + `POLL` + `GRACE` (+ scheduling), however
//! slow one scan is, provided the walk itself reaches its next file (the walker checks the budget at
//! each file it hands over). The CPU spent after the call returned is at most one scan per pool
//! thread that was inside one; a scan is one regex call over at most one buffer: a whole file of up
//! to 256 KiB (the slice path), otherwise one buffer of the streaming path (64 KiB, or one line when
//! a line is longer, up to the searcher's 64 MiB heap limit). Its cost per byte is bounded by the
//! compiled size limits (`regex_size_limit`, `dfa_size_limit`). Measured against
//! `(?:a|b)[a-j]{500}(?:c|d)z` with `timeout_ms: 100` (`examples/scan_probe.rs`, a loaded 2-core
//! machine): every call returned after 120-152 ms; the scan left behind held its thread for 11.2 s
//! with a 4 MiB line, 2.7 s with a 1 MiB line, 0.82 s with a 256 KiB file of 1000-byte lines (the
//! slice path: one scan of the whole file) and 0.16 s with 4 MiB of such lines (the streaming path:
//! one 64 KiB buffer). So the slice path raises the overshoot of a file of short lines from one
//! 64 KiB buffer to one 256 KiB file, and a cap on the searched line length (today the 64 MiB heap
//! limit) would bound the overshoot of long lines in proportion. While every thread of the pool is
//! held by such a scan, later calls get a spill thread of their own (`core::pool`).

use super::job::FileJob;
use super::plan::{Matching, Paging, Selection};
use super::worker::FileOutcome;
use super::{SearchPlan, BATCH_TIME, GRACE, MAX_BATCH, MAX_WINDOW, POLL};
use crate::core::deadline::Deadline;
use crate::core::pool::Executor;
use crate::core::sandbox::Sandbox;
use crate::search::record::{FileStatus, Found, RecordSink};
use crate::walk::WalkSkips;
use crossbeam_channel as chan;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A searched batch, or the panic of the task that searched it (raised again on the calling thread).
struct Outcome {
    seq: u64,
    files: Vec<FileOutcome>,
    /// Time the task spent on the batch.
    busy: Duration,
    panic: Option<Box<dyn std::any::Any + Send>>,
}

impl Outcome {
    /// A rough count of the heap bytes this outcome holds while it waits for an earlier one.
    fn bytes(&self) -> usize {
        self.files
            .iter()
            .map(|f| f.rel.as_os_str().len() + f.result.found.bytes() + 128)
            .sum()
    }
}

/// Results that finished out of order may hold this many bytes before the walker is held back.
/// Batches are handed back as soon as they finish, not when their turn comes, so one slow file at the
/// head of the order does not starve the other workers (on the Linux tree that kept the two cores
/// 5–10% idle); the bound on memory is this budget rather than a count of batches.
const PENDING_BYTES: usize = 8 << 20;

/// What the pool's tasks own of one search (a [`SearchPlan`] borrows from it on the worker's side), so
/// that the call can return while a task still runs.
struct Shared {
    sandbox: Sandbox,
    matching: Matching,
    selection: Selection,
    paging: Paging,
    /// The call's deadline, which also expires once `stop` is set.
    deadline: Deadline,
    /// The call is over (page complete, or budget spent): files not started are abandoned, and the
    /// one being searched stops at its next check.
    stop: Arc<AtomicBool>,
}

impl Shared {
    fn of(p: &SearchPlan<'_>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        Shared {
            sandbox: p.sandbox.clone(),
            matching: p.matching.clone(),
            selection: p.selection.clone(),
            paging: p.paging.clone(),
            deadline: p.deadline.with_stop(Arc::clone(&stop)),
            stop,
        }
    }

    fn plan(&self) -> SearchPlan<'_> {
        SearchPlan {
            sandbox: &self.sandbox,
            deadline: &self.deadline,
            matching: &self.matching,
            selection: &self.selection,
            paging: &self.paging,
        }
    }
}

/// One call's dispatch and ordered consumption, on the calling thread.
pub(super) struct Run<'r, 'p> {
    plan: &'r SearchPlan<'p>,
    /// Where the results go, in walk order.
    sink: &'r mut dyn RecordSink,
    shared: Arc<Shared>,
    exec: Executor,
    out_tx: chan::Sender<Outcome>,
    out_rx: chan::Receiver<Outcome>,
    /// Batches that may still be sent before one comes back.
    tokens: usize,
    /// Batches sent, and the number of the next one to take.
    sent: u64,
    next: u64,
    /// Results that came back before their turn, with their size.
    pending: BTreeMap<u64, (usize, Outcome)>,
    pending_bytes: usize,
    /// Tokens held back while the pending results are over budget.
    owed: usize,
    /// The page is complete or the budget is spent: nothing more is sent or taken.
    over: bool,
    /// Search time per file so far (a moving average), in nanoseconds.
    file_ns: Option<u64>,
    /// The call ended because its budget ran out.
    expired: bool,
    /// The batch holding the call's first file past its start was sent.
    first_sent: bool,
    /// Files to search (not runs the index vouched for) handed over and not yet given to the sink.
    in_flight: u64,
}

impl<'r, 'p> Run<'r, 'p> {
    pub fn new(plan: &'r SearchPlan<'p>, sink: &'r mut dyn RecordSink) -> Self {
        // Offset paging with context searches the files strictly in walk order (`SeqSkip`).
        let exec = if plan.paging.seq.is_some() {
            Executor::Inline
        } else {
            plan.sandbox.pool().executor()
        };
        // A deep queue keeps the workers fed while the calling thread waits for a core; the batch
        // handle cap and the results budget keep descriptors and memory in check. A search the
        // index serves hands over mostly files that hold a match (the others travel as runs), so
        // what a deep queue searches ahead is mostly thrown away when the page is full: it keeps
        // a queue of two batches per thread (on the Linux tree, `mutex_lock` listed by pages of
        // 100 took 65-100 ms instead of 130-155 ms; BENCHMARKS.md, session 14).
        let depth = if plan.selection.prune.is_some() {
            2
        } else {
            12
        };
        let window = (depth * exec.threads()).min(MAX_WINDOW);
        let (out_tx, out_rx) = chan::unbounded();
        Run {
            plan,
            sink,
            shared: Arc::new(Shared::of(plan)),
            exec,
            out_tx,
            out_rx,
            tokens: window,
            sent: 0,
            next: 0,
            pending: BTreeMap::new(),
            pending_bytes: 0,
            owed: 0,
            over: false,
            file_ns: None,
            expired: false,
            first_sent: false,
            in_flight: 0,
        }
    }

    /// The most files a batch should hold: about [`BATCH_TIME`] of searching, by this call's
    /// batches so far.
    /// Until a batch has come back the cost of a file is unknown, and batches hold one file each.
    /// A search the index serves hands over mostly files that match, so its batches also hold no
    /// more than their share of the records the page still wants beyond those in flight: a full
    /// page drops what was searched past its end, and the next page searches it again (on the
    /// Linux tree, batches of 64 for a page wanting 20 more files searched 100 files for nothing).
    pub fn batch_cap(&self) -> usize {
        let by_time = match self.file_ns {
            Some(ns) => {
                (BATCH_TIME.as_nanos() as u64 / ns.max(1)).clamp(1, MAX_BATCH as u64) as usize
            }
            None => 1,
        };
        match self.sink.wanted() {
            Some(wanted) if self.plan.selection.prune.is_some() => {
                let share =
                    wanted.saturating_sub(self.in_flight) / self.exec.threads().max(1) as u64;
                by_time.min(share.max(1) as usize)
            }
            _ => by_time,
        }
    }

    /// Hands a batch to the pool once the window has room, taking the results that are ready. False
    /// when the call is over (the walk stops).
    pub fn send(&mut self, files: Vec<FileJob>) -> bool {
        while !self.over && self.tokens == 0 {
            self.wait();
        }
        if self.over {
            return false;
        }
        // Late work is not started, except the call's first file past its start (and the cursor's
        // own file, at most one, handed over before it).
        let first = files.iter().any(|j| j.first);
        if self.plan.deadline.expired() && self.first_sent && !first {
            self.expire();
            return false;
        }
        self.first_sent |= first;
        self.in_flight += files
            .iter()
            .filter(|j| !matches!(j.source, super::job::Source::Pruned(_)))
            .count() as u64;
        self.tokens -= 1;
        let seq = self.sent;
        self.sent += 1;
        let shared = Arc::clone(&self.shared);
        let out = self.out_tx.clone();
        self.exec.spawn(Box::new(move || {
            let started = Instant::now();
            let searched =
                catch_unwind(AssertUnwindSafe(|| shared.plan().work(files, &shared.stop)));
            let busy = started.elapsed();
            if let Ok(files) = &searched {
                // Progress, once per batch: the files searched to their end (not those the
                // deadline or the cancel cut, most of them not even opened).
                let n = files
                    .iter()
                    .filter(|f| {
                        matches!(f.result.status, FileStatus::Searched | FileStatus::Binary)
                    })
                    .count();
                shared.deadline.progress(n as u64, 0);
            }
            let outcome = match searched {
                Ok(files) => Outcome {
                    seq,
                    files,
                    busy,
                    panic: None,
                },
                Err(panic) => Outcome {
                    seq,
                    files: Vec::new(),
                    busy,
                    panic: Some(panic),
                },
            };
            // The call may have returned already: then nobody wants this.
            let _ = out.send(outcome);
        }));
        while !self.over {
            match self.out_rx.try_recv() {
                Ok(o) => self.accept(o),
                Err(_) => break,
            }
        }
        !self.over
    }

    /// After the walk: takes the remaining batches in order, then the skips counted after the last
    /// file. `complete` is false when the walk stopped early.
    /// Takes the rest of the results once the walk is over. `looked_at`: the walk stopped at its
    /// deadline after looking at everything up to this entry, which the next page may then skip
    /// (so a walk through many empty directories advances from call to call).
    pub fn finish(mut self, skips: WalkSkips, complete: bool, looked_at: Option<(usize, PathBuf)>) {
        while !self.over && self.next < self.sent {
            self.wait();
        }
        // A complete sink, or results the budget left behind (`expire` cut the call short).
        if self.sink.is_done() || self.next < self.sent {
            return;
        }
        // Every file handed over was taken.
        self.sink.add_walk_skips(&skips);
        if !complete {
            self.sink.cut_short(looked_at);
        }
    }

    /// Waits for one batch to come back (and takes it), or for the budget to run out.
    fn wait(&mut self) {
        while !self.over {
            if self.plan.deadline.expired() {
                self.expire();
                return;
            }
            let slice = self.plan.deadline.remaining().min(POLL);
            if let Ok(o) = self.out_rx.recv_timeout(slice) {
                self.accept(o);
                return;
            }
        }
    }

    /// The budget is spent: take what comes back within the grace period (none when the call was
    /// cancelled: its caller wants it back now), then end the call.
    fn expire(&mut self) {
        let grace = if self.plan.deadline.cancelled() {
            Duration::ZERO
        } else {
            GRACE
        };
        let until = Instant::now() + grace;
        while !self.sink.is_done() && self.next < self.sent {
            match self.out_rx.recv_deadline(until) {
                Ok(o) => self.accept(o),
                Err(_) => break,
            }
        }
        // Results left behind end the call here, resuming after the last file taken. Otherwise
        // every file handed over was taken, and the walk decides (`finish`).
        if self.next < self.sent {
            self.sink.cut_short(None);
        }
        self.expired = true;
        self.end();
    }

    fn end(&mut self) {
        self.over = true;
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Takes one batch's results: in order onto the page, or aside until their turn. Every batch
    /// returns its token: at once while the results waiting their turn stay under the budget,
    /// otherwise when they are taken.
    fn accept(&mut self, o: Outcome) {
        if let Some(panic) = o.panic {
            self.end();
            resume_unwind(panic);
        }
        if self.over {
            return;
        }
        if !o.files.is_empty() {
            let ns = (o.busy.as_nanos() / o.files.len() as u128).min(u64::MAX as u128) as u64;
            self.file_ns = Some(
                self.file_ns
                    .map_or(ns, |avg| avg.saturating_mul(3).saturating_add(ns) / 4),
            );
        }
        let size = o.bytes();
        self.pending_bytes += size;
        if self.pending_bytes <= PENDING_BYTES {
            self.tokens += 1;
        } else {
            self.owed += 1;
        }
        self.pending.insert(o.seq, (size, o));
        while let Some((size, o)) = self.pending.remove(&self.next) {
            self.next += 1;
            self.pending_bytes -= size;
            while self.owed > 0 && self.pending_bytes <= PENDING_BYTES {
                self.owed -= 1;
                self.tokens += 1;
            }
            let taken = o
                .files
                .iter()
                .filter(|f| !matches!(f.result.found, Found::VouchedRun(_)));
            self.in_flight = self.in_flight.saturating_sub(taken.count() as u64);
            for f in o.files {
                self.sink.add_walk_skips(&f.skips);
                // Most files have no match: format their path only when it will be shown.
                let shown =
                    if f.result.units > 0 || f.result.found.shows() || self.sink.wants_every_path()
                    {
                        self.plan.sandbox.display(f.root, &f.rel)
                    } else {
                        String::new()
                    };
                // A run's later files count their skips after the first is taken, as one by one.
                let rest = match &f.result.found {
                    Found::VouchedRun(run) => Some(run.rest_skips),
                    _ => None,
                };
                if !self.sink.take(f.root, f.rel, &shown, f.result) {
                    self.end();
                    return;
                }
                if let Some(rest) = rest {
                    self.sink.add_walk_skips(&rest);
                }
            }
        }
    }
}

impl Drop for Run<'_, '_> {
    fn drop(&mut self) {
        // Batches still queued are dropped (with their descriptors); running ones stop at their
        // next file.
        self.shared.stop.store(true, Ordering::SeqCst);
        self.exec.forget(self.expired);
    }
}
