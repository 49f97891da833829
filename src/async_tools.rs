//! Tool calls from async code (feature `tokio`): each call runs on Tokio's blocking pool
//! (`spawn_blocking`), and dropping its future cancels it.
//!
//! A tool call blocks (it reads files; a grep waits for its search batches), so an async host must
//! not run it on a runtime worker. [`AsyncTools`] and [`run_blocking`] move it to the blocking pool
//! and hold a guard on the call's [`Budget`]: when the future is dropped before the call returns (the
//! request was abandoned, a `select!` took another branch, a timeout fired), the budget is cancelled
//! and the call stops at its next check — a grep returns within milliseconds instead of running on
//! to its deadline on a thread nobody waits for.
//!
//! Calls must be made inside a Tokio runtime (`spawn_blocking` panics outside one). The number of
//! calls running at once is bounded only by the runtime's blocking pool (512 threads by default):
//! bound it yourself (a `tokio::sync::Semaphore`) when callers can start many, as the MCP server does.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use rootbound::async_tools::AsyncTools;
//! use rootbound::config::AgentTools;
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
//! let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
//! let tools = AsyncTools::new(AgentTools::from_sandbox(sb));
//! let v = tools.call("grep_search", serde_json::json!({"pattern": "needle"})).await;
//! assert_eq!(v["match_lines"], 1);
//! # }
//! ```

use crate::config::AgentTools;
use crate::{Budget, Error, ErrorCode, Result};
use serde_json::Value;
use std::sync::Arc;

/// An [`AgentTools`] for async code: every call runs on the blocking pool and is cancelled when its
/// future is dropped. Cheap to clone (the tools are shared).
#[derive(Debug, Clone)]
pub struct AsyncTools {
    tools: Arc<AgentTools>,
}

impl AsyncTools {
    /// Wraps `tools`.
    pub fn new(tools: AgentTools) -> Self {
        Self::from_arc(Arc::new(tools))
    }

    /// Wraps tools shared with other code.
    pub fn from_arc(tools: Arc<AgentTools>) -> Self {
        AsyncTools { tools }
    }

    /// The tools called.
    pub fn tools(&self) -> &AgentTools {
        &self.tools
    }

    /// The shared tools.
    #[cfg(feature = "mcp")]
    pub(crate) fn shared(&self) -> &Arc<AgentTools> {
        &self.tools
    }

    /// [`AgentTools::call`] on the blocking pool: the result, or `{"error": ...}`.
    pub async fn call(&self, name: &str, args: Value) -> Value {
        match self.call_result(name, args).await {
            Ok(v) => v,
            Err(e) => e.to_json(),
        }
    }

    /// [`AgentTools::call_result`] on the blocking pool, with a budget of its own.
    pub async fn call_result(&self, name: &str, args: Value) -> Result<Value> {
        self.call_result_with(name, args, &Budget::new()).await
    }

    /// [`AgentTools::call_result`] within `budget` ([`AgentTools::within`]) on the blocking pool.
    /// Dropping the future before it is done
    /// cancels `budget` (and so every call made with it or its clones). A call that panics comes back
    /// as an `IO_ERROR` (the panic is logged).
    pub async fn call_result_with(
        &self,
        name: &str,
        args: Value,
        budget: &Budget,
    ) -> Result<Value> {
        self.call_holding(name, args, budget, ()).await
    }

    /// [`AsyncTools::call_result_with`], keeping `hold` (a semaphore permit) until the blocking call
    /// has returned, even when the future is dropped before.
    pub(crate) async fn call_holding<H: Send + 'static>(
        &self,
        name: &str,
        args: Value,
        budget: &Budget,
        hold: H,
    ) -> Result<Value> {
        let tools = Arc::clone(&self.tools);
        let tool = name.to_string();
        let joined = spawn(budget, move |budget| {
            let _hold = hold;
            tools.within(budget).call_result(&tool, args)
        })
        .await;
        match joined {
            Ok(result) => result,
            Err(join) => {
                tracing::error!(tool = %name, error = %join, "tool call panicked");
                Err(Error::new(
                    ErrorCode::IoError,
                    format!("the {name} call failed internally"),
                ))
            }
        }
    }
}

/// [`AgentTools::present`] of `tools` on the blocking pool within `budget`, keeping `hold` (a
/// semaphore permit) until the call has returned, even when the future is dropped before (which
/// cancels `budget`). A panic in the call is an `IO_ERROR`.
#[cfg(feature = "mcp")]
pub(crate) async fn present_holding<H: Send + 'static>(
    tools: Arc<AgentTools>,
    name: &str,
    args: Value,
    budget: &Budget,
    hold: H,
) -> Result<crate::Presented> {
    let tool = name.to_string();
    // The caller's span (over HTTP it names the token) covers the call's audit line too.
    let span = tracing::Span::current();
    let joined = spawn(budget, move |budget| {
        let _hold = hold;
        let _span = span.enter();
        tools.within(budget).present(&tool, args)
    })
    .await;
    joined.unwrap_or_else(|join| {
        tracing::error!(tool = %name, error = %join, "tool call panicked");
        Err(Error::new(
            ErrorCode::IoError,
            format!("the {name} call failed internally"),
        ))
    })
}

/// Runs `f` on Tokio's blocking pool, handing it `budget` to make its calls within
/// ([`Sandbox::within`](crate::Sandbox::within)); dropping the future before `f` returns cancels
/// `budget`, so those calls stop at their next check. A panic in `f` is resumed on the caller.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let dir = tempfile::tempdir().unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let budget = rootbound::Budget::new();
/// let list = rootbound::async_tools::run_blocking(&budget, move |b| {
///     sb.within(b).list_dir(&Default::default())
/// })
/// .await;
/// assert_eq!(list.unwrap().total, 0);
/// # }
/// ```
pub async fn run_blocking<R, F>(budget: &Budget, f: F) -> R
where
    F: FnOnce(&Budget) -> R + Send + 'static,
    R: Send + 'static,
{
    match spawn(budget, f).await {
        Ok(r) => r,
        Err(join) => match join.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            // Only a runtime shutting down aborts blocking tasks.
            Err(join) => panic!("the blocking task was aborted: {join}"),
        },
    }
}

/// Runs `f` with `budget` on the blocking pool; cancels the budget when dropped before it is done.
async fn spawn<R, F>(budget: &Budget, f: F) -> std::result::Result<R, tokio::task::JoinError>
where
    F: FnOnce(&Budget) -> R + Send + 'static,
    R: Send + 'static,
{
    let mut guard = CancelOnDrop(Some(budget.clone()));
    let inner = budget.clone();
    let joined = tokio::task::spawn_blocking(move || f(&inner)).await;
    guard.0 = None;
    joined
}

/// Cancels its budget when dropped, unless disarmed (set to `None`) first.
struct CancelOnDrop(Option<Budget>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            b.cancel();
        }
    }
}
