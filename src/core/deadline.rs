//! The call budget: a deadline and a cancel switch, checked between files, in sinks, inside long
//! reads and while the calling thread waits for search results.
//!
//! A caller that wants to cancel calls, or to give them a tighter deadline than the policy's, makes a
//! [`Budget`] and calls the tools through [`Sandbox::within`](crate::Sandbox::within) (or
//! [`AgentTools::within`](crate::config::AgentTools::within)). The budget travels with the call as
//! an explicit value: every [`Deadline`] a call makes comes from it ([`Budget::deadline_after`]), bounded
//! by its deadline and sharing its cancel switch, and a tool that makes calls of its own splits it
//! ([`Budget::split`]). So cancelling stops a call wherever it would have stopped at its deadline.

use crate::core::memory::{CallMemory, NoRoom, Reservation};
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The budget of one or more tool calls: an optional deadline and a cancel switch. Cheap to clone;
/// clones share the switch, so one clone can cancel a call made with another from any thread.
///
/// Calls are made within a budget through [`Sandbox::within`](crate::Sandbox::within); see
/// [`Within`](crate::Within) for what cancelling does. A deadline here only shortens a call: the
/// policy's timeout (and the call's `timeout_ms`) still apply.
///
/// ```
/// use rootbound::{Budget, GrepArgs, Sandbox};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
/// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
/// let budget = Budget::new().with_timeout(std::time::Duration::from_secs(5));
/// let page = sb.within(&budget).grep_search(&GrepArgs::new("needle")).unwrap();
/// assert_eq!(page.match_lines, 1);
/// budget.cancel(); // e.g. from another thread while a call runs
/// let err = sb.within(&budget).grep_search(&GrepArgs::new("needle")).unwrap_err();
/// assert_eq!(err.code, rootbound::ErrorCode::Cancelled);
/// ```
#[derive(Debug, Clone)]
pub struct Budget {
    deadline: Option<Instant>,
    shared: Arc<Shared>,
    /// Bytes the caller holds for the calls already (see [`Budget::holding`]).
    held: u64,
}

/// What the clones of a budget (and the deadlines made under it) share: the cancel switch and the
/// progress counters.
#[derive(Debug, Default)]
struct Shared {
    cancel: AtomicBool,
    files: AtomicU64,
    bytes: AtomicU64,
    memory_peak: AtomicU64,
}

/// How far the calls made with a [`Budget`] have got: a snapshot of counters the searches bump as
/// they go (per file, with relaxed atomics), for a progress report. Counts add up over every call
/// made with the budget and its clones.
///
/// `files`: files searched by `grep_search`, files listed by `glob`. `bytes`: bytes of the files
/// `grep_search` searched (their size when opened). `memory_peak`: the most one call made with
/// the budget held reserved from its memory budget at once (the policy's `max_call_memory`,
/// shared by the call's threads), the largest over the calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Files searched (grep) or listed (glob) so far.
    pub files: u64,
    /// Bytes of the files searched so far.
    pub bytes: u64,
    /// The most bytes one call held reserved from its memory budget at once.
    pub memory_peak: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new()
    }
}

impl Budget {
    /// No deadline of its own (the policy's timeout applies), not cancelled.
    pub fn new() -> Self {
        Budget {
            deadline: None,
            shared: Arc::default(),
            held: 0,
        }
    }

    /// Calls made with this budget count `bytes` as held from their memory budget
    /// (`max_call_memory`) for as long as they run: what their caller holds for them already
    /// (the MCP server: a call's parsed arguments), so that one call's memory stays one budget.
    pub fn holding(mut self, bytes: u64) -> Self {
        self.held = self.held.saturating_add(bytes);
        self
    }

    /// Calls made with this budget end by `timeout` from now (or earlier, by the policy).
    pub fn with_timeout(self, timeout: Duration) -> Self {
        let at = Instant::now().checked_add(timeout);
        match at {
            Some(at) => self.with_deadline(at),
            None => self,
        }
    }

    /// Calls made with this budget end by `at` (or earlier, by the policy).
    pub fn with_deadline(mut self, at: Instant) -> Self {
        self.deadline = Some(self.deadline.map_or(at, |d| d.min(at)));
        self
    }

    /// The budget's own deadline, if it has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Cancels every call running or yet to run with this budget (or a clone of it). Idempotent.
    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::SeqCst);
    }

    /// Whether [`Budget::cancel`] was called on this budget or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// How far the calls made with this budget (and its clones) have got so far. Cheap: two atomic
    /// loads; meant to be polled from another thread while a call runs (the MCP server does so to
    /// send `notifications/progress`).
    ///
    /// ```
    /// use rootbound::{Budget, GrepArgs, Sandbox};
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
    /// std::fs::write(dir.path().join("b.txt"), "hay\n").unwrap();
    /// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
    /// let budget = Budget::new();
    /// sb.within(&budget).grep_search(&GrepArgs::new("needle")).unwrap();
    /// assert_eq!(budget.progress().files, 2);
    /// assert_eq!(budget.progress().bytes, 11);
    /// ```
    pub fn progress(&self) -> Progress {
        Progress {
            files: self.shared.files.load(Ordering::Relaxed),
            bytes: self.shared.bytes.load(Ordering::Relaxed),
            memory_peak: self.shared.memory_peak.load(Ordering::Relaxed),
        }
    }

    /// A deadline `timeout` from now, bounded by this budget's own deadline and expired as soon as
    /// the budget is cancelled, with a memory budget of its own of `memory_cap` bytes that its
    /// clones share; its progress counts go to this budget. Every deadline of a call is made here,
    /// from the call's budget.
    pub(crate) fn deadline_after(&self, timeout: Duration, memory_cap: u64) -> Deadline {
        let at = far(Instant::now(), timeout);
        Deadline {
            at: self.deadline.map_or(at, |d| d.min(at)),
            hit: AtomicBool::new(false),
            budget: Some(Arc::clone(&self.shared)),
            stop: None,
            memory: CallMemory::new(memory_cap.saturating_sub(self.held)),
        }
    }

    /// This budget cut to `timeout` from now, sharing its cancel switch and counters: for a tool
    /// that makes several calls of its own, so that together they keep the one budget of the call.
    pub(crate) fn split(&self, timeout: Duration) -> Budget {
        self.clone().with_deadline(far(Instant::now(), timeout))
    }

    /// Whether this budget is spent: its deadline passed, or it was cancelled.
    pub(crate) fn spent(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// `now + timeout`, or a year from now when that overflows.
fn far(now: Instant, timeout: Duration) -> Instant {
    now.checked_add(timeout)
        .unwrap_or(now + Duration::from_secs(86_400 * 365))
}

/// A wall-clock budget shared by every worker of one call, with the cancel switch of the
/// [`Budget`] it was made from, and the call's memory budget ([`CallMemory`]). Clones share the
/// switch, the instant and the memory budget. Internal: callers of the library bound a call with
/// a [`Budget`].
#[derive(Debug)]
pub(crate) struct Deadline {
    at: Instant,
    hit: AtomicBool,
    /// The cancel switch and progress counters of the budget it was made from.
    budget: Option<Arc<Shared>>,
    /// The call is over (set by the call itself; see [`Deadline::with_stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// The call's memory budget, shared by its threads.
    memory: Arc<CallMemory>,
}

impl Clone for Deadline {
    fn clone(&self) -> Self {
        Deadline {
            at: self.at,
            hit: AtomicBool::new(self.hit.load(Ordering::Relaxed)),
            budget: self.budget.clone(),
            stop: self.stop.clone(),
            memory: Arc::clone(&self.memory),
        }
    }
}

impl Deadline {
    /// A deadline `timeout` from now that no caller's budget bounds or cancels: for work outside
    /// any tool call (the index's background build, recording walk and re-description). A call's
    /// deadlines come from its budget ([`Budget::deadline_after`]). Its memory budget is
    /// unbounded: background work keeps caps of its own.
    pub(crate) fn detached(timeout: Duration) -> Self {
        Deadline {
            at: far(Instant::now(), timeout),
            hit: AtomicBool::new(false),
            budget: None,
            stop: None,
            memory: CallMemory::new(u64::MAX),
        }
    }

    /// The most this call's memory budget may hold at once (a larger need is `too_large`).
    pub(crate) fn memory_cap(&self) -> u64 {
        self.memory.cap()
    }

    /// Reserves `bytes` from the call's memory budget before they are allocated, waiting for room
    /// until the deadline (see [`crate::core::memory`]); the reservation gives them back when
    /// dropped. The budget's peak is reported in the caller's [`Progress`].
    pub(crate) fn reserve(&self, bytes: u64) -> Result<Reservation, NoRoom> {
        let r = self.memory.reserve(bytes, || self.expired())?;
        if let Some(shared) = &self.budget {
            shared
                .memory_peak
                .fetch_max(self.memory.peak(), Ordering::Relaxed);
        }
        Ok(r)
    }

    /// A copy cut to `timeout` from now (or this deadline, if sooner), sharing its cancel switch:
    /// for one step of a call that must not use all of what is left.
    pub(crate) fn cut(&self, timeout: Duration) -> Deadline {
        Deadline {
            at: self.at.min(far(Instant::now(), timeout)),
            hit: AtomicBool::new(false),
            ..self.clone()
        }
    }

    /// A copy that also expires once `stop` is set: a call hands it to its workers and sets `stop`
    /// when it is over, so that a file still being searched stops at its next check.
    pub(crate) fn with_stop(&self, stop: Arc<AtomicBool>) -> Deadline {
        Deadline {
            stop: Some(stop),
            ..self.clone()
        }
    }

    /// Whether the budget is spent or cancelled (sticky once true).
    pub fn expired(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped || self.cancelled() || Instant::now() >= self.at {
            self.hit.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Whether the call was cancelled (as opposed to running out of time).
    pub fn cancelled(&self) -> bool {
        self.budget
            .as_ref()
            .is_some_and(|c| c.cancel.load(Ordering::Relaxed))
    }

    /// Counts `files` more files done and `bytes` more bytes searched on the budget this deadline
    /// was made from (nothing without one). Relaxed atomics: call it per file or per batch.
    pub(crate) fn progress(&self, files: u64, bytes: u64) {
        if let Some(shared) = &self.budget {
            if files > 0 {
                shared.files.fetch_add(files, Ordering::Relaxed);
            }
            if bytes > 0 {
                shared.bytes.fetch_add(bytes, Ordering::Relaxed);
            }
        }
    }

    /// Whether the deadline was ever observed as expired.
    pub fn was_hit(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
    }

    /// Time left before the deadline (zero once it has passed; cancellation is not counted).
    pub fn remaining(&self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }
}

/// A reader that fails with `TimedOut` once the deadline passes, so a search inside one huge file
/// stops within one buffer of its budget.
pub(crate) struct DeadlineReader<'a, R> {
    pub inner: R,
    pub deadline: &'a Deadline,
}

impl<R: Read> Read for DeadlineReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.deadline.expired() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "deadline"));
        }
        self.inner.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_bounds_and_cancels_the_deadlines_made_from_it() {
        let b = Budget::new().with_timeout(Duration::from_millis(0));
        assert!(!Deadline::detached(Duration::from_secs(60)).expired());
        assert!(b.deadline_after(Duration::from_secs(60), 0).expired());
        let b = Budget::new();
        let d = b.deadline_after(Duration::from_secs(60), 100);
        let copy = d.clone();
        assert!(!d.expired() && !copy.expired());
        let part = b.split(Duration::from_secs(60));
        assert!(!part.spent());
        b.clone().cancel();
        assert!(d.expired() && d.cancelled() && copy.expired());
        assert!(part.spent() && part.deadline_after(Duration::from_secs(60), 0).cancelled());
        assert!(b.split(Duration::ZERO).spent());
    }

    /// What the caller holds for a call leaves that much less of the call's memory budget, in
    /// every deadline made from the budget and its parts.
    #[test]
    fn what_the_caller_holds_counts_against_the_call_memory() {
        let b = Budget::new().holding(60);
        let d = b.deadline_after(Duration::from_secs(60), 100);
        assert_eq!(d.reserve(41).unwrap_err(), NoRoom::OverBudget);
        let held = d.reserve(40).unwrap();
        drop(held);
        let part = b.split(Duration::from_secs(60));
        let d = part.deadline_after(Duration::from_secs(60), 100);
        assert_eq!(d.reserve(41).unwrap_err(), NoRoom::OverBudget);
    }
}
