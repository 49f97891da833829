//! Every tool call with a caller's [`Budget`]: a deadline tighter than the policy's, and a cancel
//! switch another thread can pull. The plain methods (`grep_search`, `call`, ...) are these with a
//! fresh budget (or the one a surrounding [`Budget::run`] put in force).

use crate::core::deadline::Budget;
use crate::core::error::Result;
use crate::core::sandbox::Sandbox;
use crate::{
    DeleteArgs, GlobArgs, GrepArgs, GrepResult, ListArgs, ListResult, ReadArgs, ReadResult,
    StatArgs, StatResult, WriteArgs, WriteResult,
};
use serde_json::Value;

impl Sandbox {
    /// [`Sandbox::grep_search`] within `budget`. Cancelled while it runs, it returns the page found
    /// so far like at its deadline: `timed_out: true`, `truncated: true`, a cursor that resumes.
    ///
    /// ```
    /// use rootbound::{Budget, GrepArgs, Sandbox};
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
    /// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
    /// let budget = Budget::new();
    /// let canceller = budget.clone(); // e.g. moved to another thread, which calls canceller.cancel()
    /// let page = sb.grep_search_with(&GrepArgs::new("needle"), &budget).unwrap();
    /// assert_eq!(page.match_lines, 1);
    /// # drop(canceller);
    /// ```
    pub fn grep_search_with(&self, args: &GrepArgs, budget: &Budget) -> Result<GrepResult> {
        budget.run(|| self.grep_search(args))
    }

    /// [`Sandbox::glob`] within `budget` (cancelled: the page so far, as at the deadline).
    pub fn glob_with(&self, args: &GlobArgs, budget: &Budget) -> Result<GrepResult> {
        budget.run(|| self.glob(args))
    }

    /// [`Sandbox::read_file`] within `budget` (cancelled during a line-mode scan: `CANCELLED`).
    pub fn read_file_with(&self, args: &ReadArgs, budget: &Budget) -> Result<ReadResult> {
        budget.run(|| self.read_file(args))
    }

    /// [`Sandbox::list_dir`] within `budget`.
    pub fn list_dir_with(&self, args: &ListArgs, budget: &Budget) -> Result<ListResult> {
        budget.run(|| self.list_dir(args))
    }

    /// [`Sandbox::stat`] within `budget`.
    pub fn stat_with(&self, args: &StatArgs, budget: &Budget) -> Result<StatResult> {
        budget.run(|| self.stat(args))
    }

    /// [`Sandbox::write_file`] within `budget` (a write that has started completes).
    pub fn write_file_with(&self, args: &WriteArgs, budget: &Budget) -> Result<WriteResult> {
        budget.run(|| self.write_file(args))
    }

    /// [`Sandbox::delete_file`] within `budget`.
    pub fn delete_file_with(&self, args: &DeleteArgs, budget: &Budget) -> Result<WriteResult> {
        budget.run(|| self.delete_file(args))
    }

    /// [`Sandbox::call`] within `budget`: the JSON dispatch the front ends use.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let budget = rootbound::Budget::new();
    /// budget.cancel();
    /// let v = sb.call_with("grep_search", serde_json::json!({"pattern": "x"}), &budget);
    /// assert_eq!(v["error"]["code"], "CANCELLED");
    /// ```
    pub fn call_with(&self, name: &str, args: Value, budget: &Budget) -> Value {
        budget.run(|| self.call(name, args))
    }

    /// [`Sandbox::call_result`] within `budget`.
    pub fn call_result_with(&self, name: &str, args: Value, budget: &Budget) -> Result<Value> {
        budget.run(|| self.call_result(name, args))
    }
}
