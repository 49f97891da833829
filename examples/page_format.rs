//! Issue 16's target for `output_format: "json"`: the time of a JSON page against the text page of
//! the same query, in process (no process start-up in the figures), alternating the two so that a
//! shared machine's load falls on both alike.
//!
//!   cargo run --release --example page_format -- ~/.cache/rootbound/linux-source-6.1 drivers static 100
//!
//! Prints the median time of each format over 200 calls, and their ratio.

use rootbound::{GrepArgs, OutputFormat, Policy, Sandbox};
use std::time::{Duration, Instant};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let root = a.first().map_or(".", String::as_str);
    let path = a.get(1).cloned();
    let pattern = a.get(2).map_or("static", String::as_str);
    let limit: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let sb = Sandbox::new(Policy::builder().root(root).policy()).expect("sandbox");
    let mut args = GrepArgs::new(pattern);
    args.path = path;
    args.limit = Some(limit);
    let mut json = args.clone();
    json.output_format = Some(OutputFormat::Json);
    let (mut t, mut j) = (Vec::new(), Vec::new());
    for i in 0..210 {
        for (args, times) in [(&args, &mut t), (&json, &mut j)] {
            let start = Instant::now();
            let page = sb.grep_search(args).expect("grep_search");
            let out = serde_json::to_vec(&page).expect("json");
            let took = start.elapsed();
            std::hint::black_box(out);
            if i >= 10 {
                times.push(took);
            }
        }
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (mt, mj) = (median(&mut t), median(&mut j));
    println!(
        "text page: {:.3} ms, json page: {:.3} ms, json / text = {:.3}",
        mt.as_secs_f64() * 1e3,
        mj.as_secs_f64() * 1e3,
        mj.as_secs_f64() / mt.as_secs_f64()
    );
}
