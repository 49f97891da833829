//! The plain call methods: each is the [`Within`](crate::Within) method of the same name with a
//! budget of its own (the policy's timeout, no cancel switch). To give calls a tighter deadline or
//! a cancel switch, call them through [`Sandbox::within`](crate::Sandbox::within). (The plain method
//! of each tool is declared with its row, in `catalog.rs`.)

use crate::core::error::Result;
use crate::engine::Engine as Sandbox;
use crate::search::contract::GrepArgs;
use crate::search::grep::{FileHits, HitOptions, HitSummary};
use crate::search::rg::RgOptions;
use serde_json::Value;

impl Sandbox {
    /// [`Within::call`](crate::Within::call) with a budget of its own: dispatches a tool call and always returns JSON
    /// (the result, or `{"error": {...}}`).
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "hi").unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// assert_eq!(sb.call("read_file", serde_json::json!({"path": "a.txt"}))["content"], "hi");
    /// ```
    pub fn call(&self, name: &str, args: Value) -> Value {
        self.fresh().call(name, args)
    }

    /// [`Within::call_result`](crate::Within::call_result) with a budget of its own.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value> {
        self.fresh().call_result(name, args)
    }

    /// [`Within::grep_hits_each`](crate::Within::grep_hits_each) with a budget of its own.
    pub fn grep_hits_each(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        opts: HitOptions,
        each: impl FnMut(&FileHits<'_>) -> bool,
    ) -> Result<HitSummary> {
        self.fresh().grep_hits_each(args, rg, opts, each)
    }
}
