//! The parallel search keeps a bounded number of descriptors open whatever the tree's shape. In its
//! own test binary because it lowers the process's descriptor limit.

use rootbound::{GrepArgs, Limits, Policy, RootSpec, Sandbox};
use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
use std::fs;

/// A thousand directories holding one file each: every queued file keeps its own directory handle,
/// so only the per-batch handle bound keeps the queue under a low `RLIMIT_NOFILE`. Without it, 4
/// workers with 48 batches of 64 files in flight would hold over a thousand descriptors and files would be
/// skipped as unreadable (checked: 203 of 1,200 were).
#[test]
fn one_file_per_directory_fits_a_low_descriptor_limit() {
    let t = tempfile::tempdir().unwrap();
    // Files big enough that the workers fall behind the walker and the queue fills up.
    let dirs = 1200;
    let filler = "abc def ghi jkl mno pqr stu vwx yz ".repeat(4) + "\n";
    let body = filler.repeat(1000);
    for i in 0..dirs {
        let d = t.path().join(format!("d{i:04}"));
        fs::create_dir(&d).unwrap();
        fs::write(d.join("f.txt"), format!("{body}needle {i}\n")).unwrap();
    }
    let sb = Sandbox::new(Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: t.path().into(),
        }],
        limits: Limits {
            threads: 4,
            max_results: 100_000,
            max_bytes: 64 << 20,
            ..Limits::default()
        },
        ..Default::default()
    })
    .unwrap();

    let old = getrlimit(Resource::Nofile);
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(512),
            maximum: old.maximum,
        },
    )
    .unwrap();
    // Every space is a candidate the regex engine must check: a slow search per byte.
    let mut args = GrepArgs::new(r"[a-z]+ \d+$");
    args.limit = Some(100_000);
    let done = std::sync::atomic::AtomicBool::new(false);
    let most = std::thread::scope(|s| {
        let sampler = s.spawn(|| {
            let mut most = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                most = most.max(fs::read_dir("/proc/self/fd").map_or(0, |d| d.count()));
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            most
        });
        let r = sb.grep_search(&args);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (r, sampler.join().unwrap())
    });
    let (r, most) = most;
    assert!(most < 512, "{most} descriptors open at once");
    setrlimit(Resource::Nofile, old).unwrap();

    let r = r.unwrap();
    assert_eq!(r.stats.skipped.unreadable, 0, "{:?}", r.stats);
    assert_eq!(r.match_lines, dirs, "{:?}", r.stats);
    assert!(!r.truncated && !r.timed_out);
}
