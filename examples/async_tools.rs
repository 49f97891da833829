//! Tool calls from async code: `cargo run --example async_tools --features tokio -- [DIR]`.
//!
//! Runs a grep on the blocking pool, then starts a second, slow one and abandons it after 20 ms
//! with `tokio::time::timeout`: dropping its future cancels its budget, and the search stops at
//! its next check instead of running on to its deadline.

use rootbound::async_tools::AsyncTools;
use rootbound::config::AgentTools;
use rootbound::{Budget, Sandbox};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let sandbox = Sandbox::builder()
        .root(&dir)
        .build()
        .expect("a readable directory");
    let tools = AsyncTools::new(AgentTools::from_sandbox(sandbox));

    let page = tools
        .call("grep_search", json!({"pattern": "fn main", "limit": 5}))
        .await;
    println!("{}", page["matches"].as_str().unwrap_or_default());

    // A search that would take a while, abandoned after 20 ms.
    let budget = Budget::new();
    let slow = tools.call_result_with(
        "grep_search",
        json!({"pattern": "(?:a|b)[a-j]{300}(?:c|d)z", "output_mode": "count"}),
        &budget,
    );
    let started = Instant::now();
    match tokio::time::timeout(Duration::from_millis(20), slow).await {
        Ok(done) => println!(
            "finished within 20 ms: {:?}",
            done.map(|v| v["match_lines"].clone())
        ),
        Err(_) => println!(
            "abandoned after {:?}: budget cancelled = {}, {} files searched",
            started.elapsed(),
            budget.is_cancelled(),
            budget.progress().files
        ),
    }
}
