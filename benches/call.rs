//! The fixed cost of one call through the JSON dispatch (issue 13): `grep_search` on a 5-file tree
//! and `stat`, both through `Sandbox::call` in-process, at 1 and 2 search threads.
//!
//! `cargo bench --bench call` (a few seconds per bench). Targets: grep on 5 files <= 0.1 ms median,
//! stat <= 20 us.

use criterion::{criterion_group, criterion_main, Criterion};
use rootbound::Sandbox;
use serde_json::json;
use std::hint::black_box;
use std::time::Duration;

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..5 {
        let body: String = (0..40)
            .map(|l| format!("line {l} of file {i}: some text, fn main() {{ }} and more\n"))
            .collect();
        std::fs::write(dir.path().join(format!("f{i}.rs")), body).unwrap();
    }
    dir
}

fn calls(c: &mut Criterion) {
    let dir = tree();
    let mut g = c.benchmark_group("call");
    g.measurement_time(Duration::from_secs(4));
    for threads in [1, 2] {
        let sb = Sandbox::builder()
            .root(dir.path())
            .threads(threads)
            .build()
            .unwrap();
        // Build the pool before measuring.
        black_box(sb.call("grep_search", json!({"pattern": "x"})));
        g.bench_function(format!("grep_5_files/threads={threads}"), |b| {
            b.iter(|| {
                // Two lines in each file: every file is searched, and the page is complete.
                let v = sb.call("grep_search", json!({"pattern": "line 3[01] "}));
                assert_eq!(v["match_lines"], 10);
                assert_eq!(v["truncated"], false);
                black_box(v)
            })
        });
        if threads == 1 {
            g.bench_function("stat", |b| {
                b.iter(|| {
                    let v = sb.call("stat", json!({"path": "f3.rs"}));
                    assert_eq!(v["kind"], "file");
                    black_box(v)
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, calls);
criterion_main!(benches);
