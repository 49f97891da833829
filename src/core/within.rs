//! One tool call's context: the sandbox it runs in and the caller's [`Budget`], made once where the
//! call enters and passed down as a value (no thread-local state). Every deadline of the call is
//! made from it, so the caller's deadline and cancel switch reach every layer the call goes through.

use crate::core::deadline::{Budget, Deadline};
use crate::core::sandbox::Sandbox;
use std::ops::Deref;
use std::time::Duration;

/// A [`Sandbox`] within a caller's [`Budget`]: the tool calls made through it end by the budget's
/// deadline (or earlier, by the policy's `timeout_ms` and the call's own `timeout_ms`), stop soon
/// after the budget is cancelled, and count their progress on it. Made by [`Sandbox::within`];
/// cheap (a reference and a clone of the budget). The plain tool methods on [`Sandbox`] are these
/// with a budget of their own.
///
/// A call returns promptly once its budget is cancelled: `grep_search` and `glob` return the page
/// found so far exactly as at their deadline (`timed_out: true`, `truncated: true`, a cursor that
/// resumes), `read_file` in line mode fails with `CANCELLED`, and a call started with an
/// already-cancelled budget fails with `CANCELLED` before doing anything.
///
/// ```
/// use rootbound::{Budget, GrepArgs, Sandbox};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
/// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
/// let budget = Budget::new().with_timeout(std::time::Duration::from_secs(5));
/// let canceller = budget.clone(); // e.g. moved to another thread
/// let page = sb.within(&budget).grep_search(&GrepArgs::new("needle")).unwrap();
/// assert_eq!(page.match_lines, 1);
/// canceller.cancel();
/// let err = sb.within(&budget).grep_search(&GrepArgs::new("needle")).unwrap_err();
/// assert_eq!(err.code, rootbound::ErrorCode::Cancelled);
/// ```
#[derive(Debug, Clone)]
pub struct Within<'a> {
    sandbox: &'a Sandbox,
    budget: Budget,
}

impl Sandbox {
    /// This sandbox's tools within `budget` (see [`Within`]).
    pub fn within(&self, budget: &Budget) -> Within<'_> {
        Within {
            sandbox: self,
            budget: budget.clone(),
        }
    }

    /// This sandbox's tools within a budget of their own: the policy's timeout, no cancel switch.
    pub(crate) fn fresh(&self) -> Within<'_> {
        self.within(&Budget::new())
    }
}

impl Deref for Within<'_> {
    type Target = Sandbox;

    fn deref(&self) -> &Sandbox {
        self.sandbox
    }
}

impl<'a> Within<'a> {
    /// The sandbox the calls run in.
    pub fn sandbox(&self) -> &'a Sandbox {
        self.sandbox
    }

    /// The budget the calls run within.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// A deadline of the policy's timeout, cut by the call's own `timeout_ms` when it asks for one
    /// and by the caller's budget: min(policy, arguments, caller); with a memory budget of the
    /// policy's `max_call_memory` that the call's threads share.
    pub(crate) fn deadline(&self, asked_ms: Option<u64>) -> Deadline {
        let limits = &self.sandbox.policy.limits;
        self.budget
            .deadline_after(limits.call_timeout(asked_ms), limits.max_call_memory)
    }

    /// The same sandbox within this budget cut to `timeout` from now: for a tool that makes calls
    /// of its own, so that together they keep the one budget of the call.
    pub(crate) fn split(&self, timeout: Duration) -> Within<'a> {
        Within {
            sandbox: self.sandbox,
            budget: self.budget.split(timeout),
        }
    }
}
