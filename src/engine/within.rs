//! One tool call's context: the engine it runs in (the core sandbox and the index it serves with)
//! and the caller's [`Budget`], made once where the call enters and passed down as a value (no
//! thread-local state). Every deadline of the call is made from it, so the caller's deadline and
//! cancel switch reach every layer the call goes through. It lives beside the engine, below
//! `search` and `tools`, because the searches run in it too, and a search gets the index from it as
//! a typed value.

use crate::core::deadline::{Budget, Deadline};
use crate::core::sandbox::Sandbox;
use crate::engine::Engine;
use crate::index::Index;
use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

/// A [`Sandbox`](crate::Sandbox) within a caller's [`Budget`]: the tool calls made through it end by the budget's
/// deadline (or earlier, by the policy's `timeout_ms` and the call's own `timeout_ms`), stop soon
/// after the budget is cancelled, and count their progress on it. Made by
/// [`Sandbox::within`](crate::Sandbox::within); cheap (two references and a clone of the budget).
/// The plain tool methods on [`Sandbox`](crate::Sandbox) are these with a budget of their own.
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
#[derive(Clone)]
pub struct Within<'a> {
    engine: &'a Engine,
    budget: Budget,
}

impl std::fmt::Debug for Within<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Within")
            .field("sandbox", self.engine.core())
            .field("indexed", &self.engine.index().is_some())
            .field("budget", &self.budget)
            .finish()
    }
}

/// A call locates, opens, admits and mutates through core's sandbox: the tools' bodies call those
/// on their `Within` (the methods the tools add are the engine's and `Within`'s, not core's).
impl Deref for Within<'_> {
    type Target = Sandbox;

    fn deref(&self) -> &Sandbox {
        self.engine.core()
    }
}

impl<'a> Within<'a> {
    /// The calls of `engine` within `budget`: made by [`crate::Sandbox::within`].
    pub(crate) fn new(engine: &'a Engine, budget: &Budget) -> Self {
        Within {
            engine,
            budget: budget.clone(),
        }
    }

    /// The engine the calls run in.
    pub(crate) fn engine(&self) -> &'a Engine {
        self.engine
    }

    /// The core sandbox the calls run in.
    pub(crate) fn sandbox(&self) -> &'a Sandbox {
        self.engine.core()
    }

    /// The index the calls search with, when the engine has one.
    pub(crate) fn index(&self) -> Option<&'a Arc<Index>> {
        self.engine.index()
    }

    /// The budget the calls run within.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Runs one tool call within this budget and emits its audit event (see
    /// [`Sandbox::audited`]).
    pub(crate) fn audited<T>(
        &self,
        tool: &'static str,
        request: Option<&str>,
        run: impl FnOnce() -> crate::core::error::Result<(T, Option<String>)>,
        fields: impl FnOnce(&T) -> crate::core::audit::Fields,
    ) -> crate::core::error::Result<T> {
        self.sandbox()
            .audited(&self.budget, tool, request, run, fields)
    }

    /// A deadline of the policy's timeout, cut by the call's own `timeout_ms` when it asks for one
    /// and by the caller's budget: min(policy, arguments, caller); with a memory budget of the
    /// policy's `max_call_memory` that the call's threads share.
    pub(crate) fn deadline(&self, asked_ms: Option<u64>) -> Deadline {
        let limits = &self.sandbox().policy().limits;
        self.budget
            .deadline_after(limits.call_timeout(asked_ms), limits.max_call_memory)
    }

    /// The same sandbox within this budget cut to `timeout` from now: for a tool that makes calls
    /// of its own, so that together they keep the one budget of the call.
    pub(crate) fn split(&self, timeout: Duration) -> Within<'a> {
        Within {
            engine: self.engine,
            budget: self.budget.split(timeout),
        }
    }
}
