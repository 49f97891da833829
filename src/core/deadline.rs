//! The call budget: a deadline and a cancel switch, checked between files, in sinks, inside long
//! reads and while the calling thread waits for search results.
//!
//! A caller that wants to cancel calls, or to give them a tighter deadline than the policy's, makes a
//! [`Budget`] and passes it to a `_with` method (`Sandbox::grep_search_with`, `Sandbox::call_with`,
//! ...), or runs any calls under [`Budget::run`]. Every [`Deadline`] made on that thread while the
//! budget is in force (that is, every deadline of those calls, whichever layer makes it) is bounded
//! by the budget's deadline and sees its cancel switch; the copies handed to search workers share
//! the switch. So cancelling stops a call wherever it would have stopped at its deadline.

use std::cell::RefCell;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The budget of one or more tool calls: an optional deadline and a cancel switch. Cheap to clone;
/// clones share the switch, so one clone can cancel a call made with another from any thread.
///
/// A call returns promptly once its budget is cancelled: `grep_search` and `glob` return the page
/// found so far exactly as at their deadline (`timed_out: true`, `truncated: true`, a cursor that
/// resumes), `read_file` in line mode fails with `CANCELLED`, and a call started with an
/// already-cancelled budget fails with `CANCELLED` before doing anything. A deadline here only
/// shortens a call: the policy's timeout (and the call's `timeout_ms`) still apply.
///
/// ```
/// use rootbound::{Budget, GrepArgs, Sandbox};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
/// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
/// let budget = Budget::new().with_timeout(std::time::Duration::from_secs(5));
/// let page = sb.grep_search_with(&GrepArgs::new("needle"), &budget).unwrap();
/// assert_eq!(page.match_lines, 1);
/// budget.cancel(); // e.g. from another thread while a call runs
/// let err = sb.grep_search_with(&GrepArgs::new("needle"), &budget).unwrap_err();
/// assert_eq!(err.code, rootbound::ErrorCode::Cancelled);
/// ```
#[derive(Debug, Clone)]
pub struct Budget {
    deadline: Option<Instant>,
    shared: Arc<Shared>,
}

/// What the clones of a budget (and the deadlines made under it) share: the cancel switch and the
/// progress counters.
#[derive(Debug, Default)]
struct Shared {
    cancel: AtomicBool,
    files: AtomicU64,
    bytes: AtomicU64,
}

/// How far the calls made with a [`Budget`] have got: a snapshot of counters the searches bump as
/// they go (per file, with relaxed atomics), for a progress report. Counts add up over every call
/// made with the budget and its clones.
///
/// `files`: files searched by `grep_search`, files listed by `glob`. `bytes`: bytes of the files
/// `grep_search` searched (their size when opened).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Files searched (grep) or listed (glob) so far.
    pub files: u64,
    /// Bytes of the files searched so far.
    pub bytes: u64,
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
        }
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
    /// sb.grep_search_with(&GrepArgs::new("needle"), &budget).unwrap();
    /// assert_eq!(budget.progress().files, 2);
    /// assert_eq!(budget.progress().bytes, 11);
    /// ```
    pub fn progress(&self) -> Progress {
        Progress {
            files: self.shared.files.load(Ordering::Relaxed),
            bytes: self.shared.bytes.load(Ordering::Relaxed),
        }
    }

    /// Runs `f` with this budget in force on the current thread: every tool call `f` makes on this
    /// thread (typed or JSON) is bounded by it. Nested budgets: the innermost one is in force.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let budget = rootbound::Budget::new();
    /// budget.cancel();
    /// let v = budget.run(|| sb.call("list_dir", serde_json::json!({})));
    /// assert_eq!(v["error"]["code"], "CANCELLED");
    /// ```
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Budget>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let prev = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = prev);
            }
        }
        let prev = CURRENT.with(|c| c.replace(Some(self.clone())));
        let _restore = Restore(prev);
        f()
    }
}

thread_local! {
    /// The budget in force on this thread (see [`Budget::run`]).
    static CURRENT: RefCell<Option<Budget>> = const { RefCell::new(None) };
}

/// The budget in force on this thread, if any.
pub(crate) fn current() -> Option<Budget> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Runs `f` under one deadline `timeout` from now (tightened by, and sharing the cancel switch of,
/// the budget already in force): for a tool that makes several calls of its own, so that together
/// they keep the one budget of the call.
pub(crate) fn within<R>(timeout: Duration, f: impl FnOnce() -> R) -> R {
    let at = Instant::now() + timeout;
    let budget = match current() {
        Some(outer) => {
            let at = outer.deadline().map_or(at, |d| d.min(at));
            outer.with_deadline(at)
        }
        None => Budget::new().with_deadline(at),
    };
    budget.run(f)
}

/// Whether the budget in force on this thread (if any) is spent: its deadline passed, or it was
/// cancelled. For a tool that splits its budget among calls of its own (see [`within`]).
pub(crate) fn current_spent() -> bool {
    current().is_some_and(|b| b.is_cancelled() || b.deadline().is_some_and(|d| Instant::now() >= d))
}

/// Whether the budget in force on this thread (if any) is cancelled.
pub(crate) fn current_cancelled() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Budget::is_cancelled))
}

/// A wall-clock budget shared by every worker of one call, with the cancel switch of the
/// [`Budget`] in force when it was made. Clones share the switch (and the instant). Internal: callers
/// of the library bound a call with a [`Budget`].
#[derive(Debug)]
pub(crate) struct Deadline {
    at: Instant,
    hit: AtomicBool,
    /// The cancel switch and progress counters of the budget in force when it was made.
    budget: Option<Arc<Shared>>,
    /// The call is over (set by the call itself; see [`Deadline::with_stop`]).
    stop: Option<Arc<AtomicBool>>,
}

impl Clone for Deadline {
    fn clone(&self) -> Self {
        Deadline {
            at: self.at,
            hit: AtomicBool::new(self.hit.load(Ordering::Relaxed)),
            budget: self.budget.clone(),
            stop: self.stop.clone(),
        }
    }
}

impl Deadline {
    /// A deadline `budget` from now; inside [`Budget::run`] (every `_with` call) also bounded by that
    /// budget's deadline and expired as soon as it is cancelled.
    pub fn after(budget: Duration) -> Self {
        let now = Instant::now();
        let at = now
            .checked_add(budget)
            .unwrap_or(now + Duration::from_secs(86_400 * 365));
        CURRENT.with(|c| match &*c.borrow() {
            Some(b) => Deadline {
                at: b.deadline.map_or(at, |d| d.min(at)),
                hit: AtomicBool::new(false),
                budget: Some(Arc::clone(&b.shared)),
                stop: None,
            },
            None => Deadline {
                at,
                hit: AtomicBool::new(false),
                budget: None,
                stop: None,
            },
        })
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

    /// Counts `files` more files done and `bytes` more bytes searched on the budget in force when
    /// this deadline was made (nothing without one). Relaxed atomics: call it per file or per batch.
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
    fn budget_bounds_deadlines_made_under_it() {
        let b = Budget::new().with_timeout(Duration::from_millis(0));
        assert!(!Deadline::after(Duration::from_secs(60)).expired());
        assert!(b.run(|| Deadline::after(Duration::from_secs(60)).expired()));
        let b = Budget::new();
        let d = b.run(|| Deadline::after(Duration::from_secs(60)));
        let copy = d.clone();
        assert!(!d.expired() && !copy.expired());
        b.clone().cancel();
        assert!(d.expired() && d.cancelled() && copy.expired());
        // Out of the scope, deadlines are plain again.
        assert!(!Deadline::after(Duration::from_secs(60)).expired());
        assert!(!current_cancelled());
        assert!(b.run(current_cancelled));
    }
}
