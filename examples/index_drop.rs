//! How soon a dropped sandbox's index threads end (BENCHMARKS.md, "a drop at the end of the
//! build's reading").
//!
//! `cargo run --release --example index_drop -- DIR AT [RUNS]`: builds DIR's index on 2 threads
//! (not saved), drops the sandbox once the build has read AT files, and prints the milliseconds
//! until `rootbound::index_threads_live()` is 0, per run, then the median. With AT at or past the
//! tree's file count (e.g. 70000 on the Linux tree) the drop comes while the build merges its
//! lists, or at the end of the reading: the moment with the most memory to let go.

use rootbound::{IndexOptions, IndexState, Sandbox};
use std::time::{Duration, Instant};

fn one(dir: &str, at: u64) -> Option<f64> {
    let sb = Sandbox::builder()
        .root(dir)
        .threads(2)
        .build()
        .expect("the root opens")
        .with_index_options(IndexOptions::default());
    let started = Instant::now();
    loop {
        let st = sb.index_status();
        let s = st.first()?;
        if s.files >= at || !matches!(s.state, IndexState::Building) {
            break;
        }
        if started.elapsed() > Duration::from_secs(300) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let (state, files) = {
        let st = sb.index_status();
        if !matches!(st[0].state, IndexState::Building) {
            println!(
                "built: {:?}, build peak {} MB, memory {} MB",
                st[0].state,
                st[0].build_peak >> 20,
                st[0].memory >> 20
            );
        }
        (format!("{:?}", st[0].state), st[0].files)
    };
    let dropped = Instant::now();
    drop(sb);
    while rootbound::index_threads_live() > 0 {
        if dropped.elapsed() > Duration::from_secs(60) {
            return None;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let ms = dropped.elapsed().as_secs_f64() * 1e3;
    println!(
        "dropped at {files} files ({state}, {:.1} s in): threads gone after {ms:.1} ms",
        started.elapsed().as_secs_f64() - ms / 1e3
    );
    Some(ms)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(at)) = (args.first(), args.get(1).and_then(|a| a.parse().ok())) else {
        eprintln!("usage: index_drop DIR AT [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut ms: Vec<f64> = (0..runs).filter_map(|_| one(dir, at)).collect();
    ms.sort_by(f64::total_cmp);
    if let Some(m) = ms.get(ms.len() / 2) {
        println!("median {m:.1} ms over {} runs", ms.len());
    }
}
