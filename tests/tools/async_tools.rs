//! The async adapter (`rootbound::async_tools`, feature `tokio`). A call runs on the blocking
//! pool; dropping its future cancels its budget, and the search stops there (its progress counter
//! stops moving long before the tree is searched); a call that completes leaves its budget usable.

#![cfg(feature = "tokio")]

use crate::support::data::SLOW;
use rootbound::async_tools::{run_blocking, AsyncTools};
use rootbound::config::AgentTools;
use rootbound::{Budget, GrepArgs, Sandbox};
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// `files` files of `[a-j]` lines: against `SLOW` each takes tens of milliseconds to search.
fn slow_tree(dir: &Path, files: usize) {
    crate::support::data::slow_files(dir, files, 64 * 1024, 3);
}

const FILES: usize = 200;

fn tools(dir: &Path) -> AsyncTools {
    let sb = Sandbox::builder()
        .root(dir)
        .threads(1)
        .timeout_ms(120_000)
        .build()
        .unwrap();
    AsyncTools::new(AgentTools::from_sandbox(sb))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_future_cancels_the_call() {
    let tmp = tempfile::tempdir().unwrap();
    slow_tree(tmp.path(), FILES);
    let tools = tools(tmp.path());
    let budget = Budget::new();
    let call = tools.call_result_with(
        "grep_search",
        json!({"pattern": SLOW, "output_mode": "count"}),
        &budget,
    );
    // Abandon the call once it has searched something.
    let started = Instant::now();
    tokio::select! {
        r = call => panic!("the slow grep finished in {:?}: {r:?}", started.elapsed()),
        _ = async {
            while budget.progress().files < 2 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        } => {}
    }
    // The future is dropped: its budget is cancelled.
    let to_two = started.elapsed();
    assert!(
        budget.is_cancelled(),
        "dropping the future cancels the budget"
    );
    let at_drop = budget.progress().files;
    let bytes_at_drop = budget.progress().bytes;
    // Running on, the search would do at least 5 more files in 5x the time it took for 2; stopped,
    // only the scan under way when the cancel came (one per pool thread: 1) may still complete.
    tokio::time::sleep((to_two * 5).max(Duration::from_millis(500))).await;
    let later = budget.progress().files;
    let bytes_later = budget.progress().bytes;
    eprintln!("files searched: {at_drop} at the drop ({to_two:?}), {later} after 5x that");
    // No file is opened after the cancel (the bytes count at the open of each file).
    assert!(
        bytes_later <= bytes_at_drop + 64 * 1024,
        "{} bytes opened after the cancel",
        bytes_later - bytes_at_drop
    );
    assert!(
        later <= at_drop + 1,
        "{} files searched after the cancel",
        later - at_drop
    );
    // The drop cut the search short (how early depends on the machine, not on the fix).
    assert!(
        (later as usize) < FILES,
        "{later} files: the search ran to its end"
    );
}

#[tokio::test]
async fn a_completed_call_leaves_its_budget_usable() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.txt"), "needle\n").unwrap();
    let tools = tools(tmp.path());
    let budget = Budget::new();
    for _ in 0..2 {
        let v = tools
            .call_result_with("grep_search", json!({"pattern": "needle"}), &budget)
            .await
            .unwrap();
        assert_eq!(v["match_lines"], 1);
        assert!(!budget.is_cancelled());
    }
    assert_eq!(budget.progress().files, 2);
    assert_eq!(budget.progress().bytes, 14);
    // A bad call is a typed error, and the JSON form carries its code.
    let v = tools.call("grep_search", json!({"pattern": "("})).await;
    assert_eq!(v["error"]["code"], "INVALID_PATTERN");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_blocking_runs_under_the_budget_and_cancels_on_drop() {
    let tmp = tempfile::tempdir().unwrap();
    slow_tree(tmp.path(), FILES);
    let sb = Sandbox::builder()
        .root(tmp.path())
        .threads(1)
        .timeout_ms(120_000)
        .build()
        .unwrap();
    let budget = Budget::new();
    let sb2 = sb.clone();
    let fut = run_blocking(&budget, move |b| {
        let mut args = GrepArgs::new(SLOW);
        args.output_mode = Some(rootbound::OutputMode::Count);
        sb2.within(b).grep_search(&args)
    });
    let started = Instant::now();
    assert!(tokio::time::timeout(Duration::from_millis(150), fut)
        .await
        .is_err());
    assert!(budget.is_cancelled());
    // The pool's one thread is free again soon: a small grep on it answers at once.
    std::fs::write(tmp.path().join("z.md"), "needle\n").unwrap();
    let quick = run_blocking(&Budget::new(), move |b| {
        let mut args = GrepArgs::new("needle");
        args.include = Some(rootbound::Globs::One("*.md".into()));
        sb.within(b).grep_search(&args)
    })
    .await
    .unwrap();
    assert_eq!(quick.match_lines, 1);
    // The thread was freed by the cancel, not by the slow grep running to its end: it had not
    // searched every file when the quick one ran (what a time bound could not tell apart on a
    // loaded machine, where the whole slow grep takes seconds too).
    let searched = budget.progress().files as usize;
    assert!(
        searched < FILES,
        "the cancelled grep searched all {searched} files"
    );
    crate::support::time::assert_prompt(started.elapsed(), "a grep after a cancelled one");
}
