//! The worst case of one regex scan (issue 11 item 12): `cargo run --release --example scan_probe`.
//!
//! For a pattern whose scan falls back to the PikeVM over `[a-j]` text, it prints per file shape the
//! time of a full scan, when a call with `timeout_ms: 100` returns, and until when the scan it
//! left behind holds the (one) pool thread.

use rootbound::{GrepArgs, Sandbox};
use std::sync::Arc;
use std::time::Instant;
fn letters(len: usize, line: usize, seed: u64) -> Vec<u8> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|i| {
            if line > 0 && i % line == line - 1 {
                return b'\n';
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            b'a' + ((x >> 33) % 10) as u8
        })
        .collect()
}
fn main() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("line_4m", 4usize << 20, 0usize),
        ("line_1m", 1 << 20, 0),
        ("line_256k", 256 << 10, 0),
        ("lines1000_256k", 256 << 10, 1000),
        ("lines1000_4m", 4 << 20, 1000),
    ];
    for (n, len, line) in cases {
        std::fs::write(dir.path().join(n), letters(len, line, 7)).unwrap();
    }
    for (n, _, _) in cases {
        // A fresh one-thread pool per case, so that `install` tells when its thread is free again.
        let pool = Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap(),
        );
        let sb = Sandbox::builder()
            .root(dir.path())
            .timeout_ms(600_000)
            .thread_pool(Arc::clone(&pool))
            .build()
            .unwrap();
        let args = {
            let mut args_ = GrepArgs::new("(?:a|b)[a-j]{500}(?:c|d)z");
            args_.path = Some(n.into());
            args_
        };
        let t = Instant::now();
        let r = sb.grep_search(&args).unwrap();
        let full = t.elapsed();
        let t = Instant::now();
        let r2 = sb
            .grep_search(&{
                let mut args_ = args.clone();
                args_.timeout_ms = Some(100);
                args_
            })
            .unwrap();
        let ret = t.elapsed();
        pool.install(|| ());
        let held = t.elapsed();
        println!(
            "{n}: full scan {full:?} (timed_out {}); with timeout_ms 100: returned after {ret:?} \
             (timed_out {}), pool thread held until {held:?}",
            r.timed_out, r2.timed_out
        );
    }
}
