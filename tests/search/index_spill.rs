//! The build's posting lists spilled to the cache directory (docs/index.md "What it costs"): with
//! an `index_dir`, the lists leave the heap in sorted runs once they pass a sixteenth of
//! `index_max_bytes` and are merged into a mapped file, so the build's accounted peak stays far
//! under the lists it makes; the answers are those of the unindexed search; and no spill file is
//! left in the directory after a build that succeeds, one that fails, or one that is dropped.

use crate::index_disk::{answer, listing, saved_file};
use rootbound::{index_age_at, IndexDir, IndexOptions, IndexStatus, Limits, Sandbox};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// `n` files `{prefix}{i}.txt` of 3 KB of lowercase letters from a seeded generator: few distinct
/// trigrams (26^3), long lists, so the lists outweigh the dictionary and the table many times.
fn letters(dir: &Path, prefix: &str, n: usize, seed: u64) {
    let mut x = seed;
    for i in 0..n {
        let text: Vec<u8> = (0..3000)
            .map(|k| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if k % 60 == 59 {
                    b'\n'
                } else {
                    b'a' + ((x >> 33) % 26) as u8
                }
            })
            .collect();
        fs::write(dir.join(format!("{prefix}{i:05}.txt")), text).unwrap();
    }
}

/// `n` files `{prefix}{i}.bin` of 4 KB of bytes from a seeded generator: thousands of distinct
/// trigrams each.
fn noise(dir: &Path, prefix: &str, n: usize, seed: u64) {
    let mut x = seed;
    for i in 0..n {
        let bytes: Vec<u8> = (0..4096)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 40) as u8
            })
            .collect();
        fs::write(dir.join(format!("{prefix}{i:05}.bin")), bytes).unwrap();
    }
}

fn aged(dir: &Path) {
    // Past the racy window without a sleep: the root's index clock moves on instead.
    index_age_at(&fs::canonicalize(dir).unwrap(), Duration::from_millis(2100));
}

fn sandbox(root: &Path, max_bytes: u64) -> Sandbox {
    let limits = Limits {
        index_max_bytes: max_bytes,
        ..Limits::default()
    };
    let b = Sandbox::builder().root(root).limits(limits).threads(2);
    b.build().unwrap()
}

fn indexed(root: &Path, cache: Option<&Path>, max_bytes: u64) -> Sandbox {
    let dir = cache.map_or(IndexDir::None, |c| IndexDir::Path(c.to_path_buf()));
    let sb = sandbox(root, max_bytes).with_index_options(IndexOptions::default().index_dir(dir));
    assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
    sb
}

fn status(sb: &Sandbox) -> IndexStatus {
    sb.index_status().remove(0)
}

/// The names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const CAP: u64 = 16 << 20;

/// With a cache directory the build holds a fraction of its lists at its peak (on the heap they
/// were all held at once, and more while merged); the answers are those of the unindexed search
/// and the directory holds only the saved index.
#[test]
fn a_spilled_build_holds_a_fraction_of_its_lists_and_answers_exactly() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    letters(dir.path(), "t", 5000, 11);
    aged(dir.path());
    // Spilled past 2 MB of lists; on the heap under the default cap (1 GiB).
    let spilled = indexed(dir.path(), Some(cache.path()), 2 * CAP);
    let heap = indexed(dir.path(), None, Limits::default().index_max_bytes);
    let (s, h) = (status(&spilled), status(&heap));
    assert_eq!(
        (s.state.as_str(), h.state.as_str()),
        ("ready", "ready"),
        "{s:?} {h:?}"
    );
    // The lists: ~14 MB, mapped from the saved file; on the heap without a directory.
    assert!(s.mapped > 10 << 20, "{s:?}");
    assert_eq!(h.mapped, 0);
    assert!(h.memory > s.mapped, "{h:?} {s:?}");
    // Both builds hold the same fixed buffers of their reading threads (6 MB); spilling kept at
    // least half of the lists off the heap at its peak (alone ~10 MB against ~29 MB).
    assert!(s.build_peak + s.mapped / 2 < h.build_peak, "{s:?} {h:?}");
    assert_eq!(names(cache.path()).len(), 1, "{:?}", names(cache.path()));
    saved_file(cache.path());
    let off = sandbox(dir.path(), CAP);
    for p in ["abc", "qqq", "zyx\\w", "ab.*cd", "xyzzy", "(?i)MNO"] {
        let want = answer(&off, &listing(p)).0;
        let (got, pruned) = answer(&spilled, &listing(p));
        assert_eq!(got, want, "{p}");
        assert_eq!(answer(&heap, &listing(p)).0, want, "{p}");
        if p == "xyzzy" {
            assert!(pruned > 0, "the index pruned nothing for {p}");
        }
    }
}

/// A build that spilled and then went over its cap, or that was let go while it spilled, leaves
/// nothing in the cache directory: its spill files have no name from the moment they exist.
#[test]
fn spill_files_are_gone_after_a_failed_or_dropped_build() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Path order: the letters' lists spill, then the noise passes the cap within one step.
    letters(dir.path(), "a", 1500, 5);
    noise(dir.path(), "z", 1500, 9);
    aged(dir.path());
    let failed = indexed(dir.path(), Some(cache.path()), CAP);
    let st = status(&failed);
    assert_eq!(st.state, "off", "{st:?}");
    assert!(
        st.reason
            .as_deref()
            .unwrap_or("")
            .contains("over index_max_bytes"),
        "{st:?}"
    );
    assert_eq!(names(cache.path()), Vec::<String>::new());
    drop(failed);

    // Let go once past the first steps (lists spilled), long before the end.
    let (big, cache2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    letters(big.path(), "t", 6000, 3);
    aged(big.path());
    let o = IndexOptions::default().index_dir(IndexDir::Path(cache2.path().to_path_buf()));
    let sb = sandbox(big.path(), CAP).with_index_options(o);
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    while status(&sb).files < 1200 && status(&sb).state == "building" && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(status(&sb).state, "building", "{:?}", status(&sb));
    drop(sb);
    // Dropping the last sandbox stops the build within 100 ms (the index's owned-lifetime promise); generously.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(names(cache2.path()), Vec::<String>::new());
}

/// Rewrites `path` (same size) with `marker` at its start: a change the build must read.
fn rewrite(path: &Path, marker: &str) {
    let mut text = fs::read(path).unwrap();
    text[..marker.len()].copy_from_slice(marker.as_bytes());
    fs::write(path, text).unwrap();
}

/// Names of the scratch files of `cache` this process maps (they have no name in the directory:
/// `/proc/self/maps` shows them as deleted).
fn mapped_scratch(cache: &Path) -> Vec<String> {
    let maps = fs::read_to_string("/proc/self/maps").unwrap();
    let dir = format!("{}/.scratch.", fs::canonicalize(cache).unwrap().display());
    maps.lines()
        .filter(|l| l.contains(&dir))
        .map(str::to_string)
        .collect()
}

/// The build after a restart keeps the loaded index's lists off the heap as the first build
/// does: the kept entries' lists go to the cache directory as one more run (beside the runs of
/// the files it read) and are merged into a mapped file, so its accounted peak stays far under
/// the lists (the heap merge it replaces held them all, and their copy); the answers are those of
/// the unindexed search after files were changed, removed and added while no process ran; and
/// the directory holds only the saved index, nothing of the build is left mapped.
#[test]
fn the_build_after_a_restart_spills_the_kept_lists_and_answers_exactly() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let root = dir.path();
    letters(root, "t", 8000, 17);
    aged(root);
    let first = indexed(root, Some(cache.path()), 2 * CAP);
    let f = status(&first);
    assert_eq!(
        (f.state.as_str(), f.snapshot.as_deref()),
        ("ready", Some("saved")),
        "{f:?}"
    );
    drop(first);
    // While no process runs: a third of the files rewritten (their lists spill as the build reads
    // them), some removed, some added.
    for i in (1..8000).step_by(97) {
        fs::remove_file(root.join(format!("t{i:05}.txt"))).unwrap();
    }
    let mut changed = 0;
    for i in (0..8000).step_by(3) {
        let p = root.join(format!("t{i:05}.txt"));
        if p.exists() {
            rewrite(&p, &format!("marker_{i} "));
            changed += fs::metadata(&p).unwrap().len();
        }
    }
    letters(root, "u", 300, 23);
    changed += 300 * 3000;
    aged(root);
    let again = indexed(root, Some(cache.path()), 2 * CAP);
    let st = status(&again);
    assert_eq!(
        (st.state.as_str(), st.from_snapshot),
        ("ready", false),
        "{st:?}"
    );
    assert_eq!(st.snapshot.as_deref(), Some("saved"), "{st:?}");
    // The saved index was loaded and its unchanged entries kept: only the changes were read.
    assert_eq!(st.bytes_read, changed, "{st:?}");
    assert!(st.mapped > 16 << 20, "{st:?}");
    // The heap merge held the lists of the files read and the kept ones, more than `mapped`;
    // spilled, the peak is the reading threads' buffers (6 MB), one bound of lists and the table.
    assert!(st.build_peak < st.mapped * 2 / 3, "{st:?}");
    assert_eq!(names(cache.path()).len(), 1, "{:?}", names(cache.path()));
    assert_eq!(mapped_scratch(cache.path()), Vec::<String>::new());
    let off = sandbox(root, 2 * CAP);
    for p in [
        "marker_3\\b",
        "marker_\\d+ ",
        "abc",
        "xyzzy",
        "qqq",
        "ab.*cd",
    ] {
        let want = answer(&off, &listing(p)).0;
        let (got, pruned) = answer(&again, &listing(p));
        assert_eq!(got, want, "{p}");
        if p == "xyzzy" {
            assert!(pruned > 0, "the index pruned nothing for {p}");
        }
    }
}

/// A save that fails (here: a directory stands at the saved file's name) leaves no scratch file
/// of the build mapped, whose disk would stay held, unnamed, for the index's life: the lists move
/// to the heap and the root serves exactly; where they do not fit there within
/// `index_max_bytes`, the root is off with the reason.
#[test]
fn a_failed_save_lets_the_scratch_file_go() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    letters(root, "t", 5000, 29);
    aged(root);
    let off = sandbox(root, 2 * CAP);
    // The lists take ~14 MB without their position masks, about twice that with them: under
    // 64 MB with the table, over 20 MB (where the spilled build still fits).
    for (cap, fits) in [(4 * CAP, true), (CAP * 5 / 4, false)] {
        let cache = tempfile::tempdir().unwrap();
        drop(indexed(root, Some(cache.path()), cap));
        // The next save's rename fails: a directory stands at its file's name.
        let saved = saved_file(cache.path());
        fs::remove_file(&saved).unwrap();
        fs::create_dir(&saved).unwrap();
        let sb = indexed(root, Some(cache.path()), cap);
        let st = status(&sb);
        let said = st.snapshot.clone().unwrap_or_default();
        assert!(said.contains("not saved"), "{st:?}");
        assert_eq!(mapped_scratch(cache.path()), Vec::<String>::new(), "{st:?}");
        assert_eq!(st.mapped, 0, "{st:?}");
        if fits {
            assert_eq!(st.state, "ready", "{st:?}");
            // The lists (~14 MB) are on the heap now.
            assert!(st.memory > 10 << 20, "{st:?}");
            for p in ["abc", "xyzzy", "qqq"] {
                assert_eq!(
                    answer(&sb, &listing(p)).0,
                    answer(&off, &listing(p)).0,
                    "{p}"
                );
            }
        } else {
            assert_eq!(st.state, "off", "{st:?}");
            let why = st.reason.clone().unwrap_or_default();
            assert!(why.contains("do not fit on the heap"), "{st:?}");
        }
    }
}
