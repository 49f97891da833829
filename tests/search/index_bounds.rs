//! The n-gram index within its bounds: the build never holds more memory than
//! `index_max_bytes`, never reads a file over the size it reads, and nothing a query can observe
//! (answers, `stats.index`, status, memory figures) changes when only denied files change.

use rootbound::{GrepArgs, Limits, OutputMode, Sandbox};
use serde_json::Value;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// An indexed sandbox over `dir` and an unindexed one, once the index is ready.
fn sandboxes(dir: &Path, limits: Limits, deny: &[&str]) -> (Sandbox, Sandbox) {
    let build = || {
        let mut b = Sandbox::builder()
            .root(dir)
            .limits(limits.clone())
            .threads(2);
        for d in deny {
            b = b.deny(d);
        }
        b.build().unwrap()
    };
    let on = build().with_index();
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert!(
        on.index_status().iter().all(|s| s.state == "ready"),
        "{:?}",
        on.index_status()
    );
    (build(), on)
}

fn listing(p: &str) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(OutputMode::FilesWithMatches);
    a.limit = Some(1000);
    a
}

/// The answer without `stats.index`, and `stats.index`.
fn answer(sb: &Sandbox, a: &GrepArgs) -> (Value, Value) {
    let mut v = serde_json::to_value(sb.grep_search(a).unwrap()).unwrap();
    let ix = v
        .pointer_mut("/stats")
        .and_then(|s| s.as_object_mut())
        .and_then(|s| s.remove("index"))
        .unwrap_or(Value::Null);
    (v, ix)
}

/// Text files with a few words each, made old enough to be indexed.
fn text_files(dir: &Path, n: usize) {
    for i in 0..n {
        let sub = dir.join(["", "a", "a/b"][i % 3]);
        fs::create_dir_all(&sub).unwrap();
        let text = format!("alpha {i}\nbeta gamma {}\nfile number {i}\n", i * 7);
        fs::write(sub.join(format!("f{i}.txt")), text).unwrap();
    }
}

/// Ages the files under the root `dir` past the index's racy window (files changed in the last
/// two seconds are not indexed) by moving the root's index clock, not by sleeping.
fn age(dir: &Path) {
    rootbound::index_age_at(&dir.canonicalize().unwrap(), Duration::from_millis(2100));
}

/// Random bytes without NUL: millions of distinct trigrams.
fn noise(n: usize) -> Vec<u8> {
    let mut rng = crate::support::data::XorShift::new(0x2545_F491_4F6C_DD1D);
    crate::support::data::noise(&mut rng, n)
}

/// A 24 MB file of random bytes under a 64 MiB cap: the build never held more than the cap (its
/// own high-water mark says so), the file got no entry rather than the root none, and a grep
/// still finds what it holds. Under the default cap the build stays far below the 1.5 GB it
/// took before.
#[test]
fn the_build_stays_under_its_cap_whatever_a_file_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    text_files(d, 30);
    let mut random = b"needle_at_start of the noise\n".to_vec();
    random.extend(noise(24 << 20));
    fs::write(d.join("noise.bin"), &random).unwrap();
    age(d);
    for (cap, below) in [(64u64 << 20, 64u64 << 20), (1 << 30, 160 << 20)] {
        let limits = Limits {
            index_max_bytes: cap,
            ..Limits::default()
        };
        let (off, on) = sandboxes(d, limits, &[]);
        let st = &on.index_status()[0];
        assert!(st.build_peak > 0 && st.build_peak <= below, "{st:?}");
        assert_eq!(st.files, 30, "the random file has no entry: {st:?}");
        for p in ["needle_at_start", "alpha 1", "zzz_absent"] {
            for _ in 0..2 {
                assert_eq!(answer(&off, &listing(p)).0, answer(&on, &listing(p)).0);
                assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
            }
        }
        let (found, ix) = answer(&on, &listing("needle_at_start"));
        assert!(found["matches"].as_str().unwrap().contains("noise.bin"));
        assert!(ix["files_pruned"].as_u64().unwrap() >= 29, "{ix}");
    }
}

/// A sparse file of 3 GiB is over the size the build reads: it is not read (the status counts
/// the bytes read), gets no entry, and is searched as before (its start holds a match, its holes
/// NUL bytes: `binary`). A text file over `index_max_file_bytes` is not read by the build either,
/// and a grep finds what it holds.
#[test]
fn the_build_does_not_read_files_over_its_size_cap() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    text_files(d, 12);
    let mut f = fs::File::create(d.join("sparse.dat")).unwrap();
    f.write_all(b"needle_in_sparse at its start\n").unwrap();
    f.set_len(3 << 30).unwrap();
    drop(f);
    let small: u64 = walkdir_sizes(d) - (3 << 30);
    age(d);
    // The search reads files of any size; the build, those of 256 MiB at most (the default).
    let limits = Limits {
        max_filesize: u64::MAX,
        ..Limits::default()
    };
    let (off, on) = sandboxes(d, limits, &[]);
    let st = &on.index_status()[0];
    assert_eq!(st.files, 12, "{st:?}");
    assert!(
        st.bytes_read <= small,
        "{} > {small}: {st:?}",
        st.bytes_read
    );
    let a = listing("needle_in_sparse");
    let (unindexed, _) = answer(&off, &a);
    assert_eq!(unindexed["stats"]["skipped"]["binary"], 1, "{unindexed}");
    assert_eq!(answer(&on, &a).0, unindexed);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(answer(&on, &a).0, unindexed);
    // A text file over `index_max_file_bytes`: not read by the build, found by a grep.
    let mut big = b"needle_in_big at its start\n".to_vec();
    big.extend(b"filler line\n".repeat(200_000));
    fs::write(d.join("a/big.txt"), &big).unwrap();
    age(d);
    let limits = Limits {
        index_max_file_bytes: 1 << 20,
        ..Limits::default()
    };
    let (off, on) = sandboxes(d, limits, &[]);
    let st = &on.index_status()[0];
    assert_eq!(st.files, 12, "{st:?}");
    assert!(
        st.bytes_read <= small,
        "{} > {small}: {st:?}",
        st.bytes_read
    );
    let a = listing("needle_in_big");
    let (unindexed, _) = answer(&off, &a);
    assert!(
        unindexed["matches"].as_str().unwrap().contains("big.txt"),
        "{unindexed}"
    );
    for _ in 0..2 {
        assert_eq!(answer(&on, &a).0, unindexed);
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    }
}

/// The bytes of the files beneath `d`.
fn walkdir_sizes(d: &Path) -> u64 {
    fs::read_dir(d)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            if m.is_dir() {
                walkdir_sizes(&e.path())
            } else {
                m.len()
            }
        })
        .sum()
}

/// A change made to the tree between two queries.
type Change<'a> = Box<dyn Fn() + 'a>;

/// What an agent can see of the index over a set of queries: each answer, `stats.index`, and the
/// status (files, memory, state, events), as the first query after whatever happened sees them.
fn observe(sb: &Sandbox) -> Vec<Value> {
    let mut seen = Vec::new();
    for p in ["alpha", "gamma", "number 4", "zzz_absent", "token"] {
        let (v, ix) = answer(sb, &listing(p));
        seen.push(v);
        seen.push(ix);
    }
    seen.push(serde_json::to_value(sb.index_status()).unwrap());
    seen.push(serde_json::to_value(sb.list_roots(&Default::default()).unwrap()).unwrap());
    seen
}

/// Creating, writing, chmod-ing, renaming and deleting denied files and directories between
/// queries changes nothing an agent can observe: not the answers, not `walks_replayed` or
/// `files_pruned`, not the status's files or memory. (Before, the next query walked instead of
/// replaying, and the memory figure grew with the changed set.)
#[test]
fn changes_to_denied_files_are_not_observable_through_the_index() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    text_files(d, 24);
    fs::write(d.join("a/old.pem"), "token in a key\n").unwrap();
    fs::write(d.join("a/b/key.pem"), "token\n").unwrap();
    fs::write(d.join(".env"), "token=1\n").unwrap();
    fs::create_dir(d.join("secret")).unwrap();
    fs::write(d.join("secret/s.txt"), "token alpha\n").unwrap();
    age(d);
    let (_, on) = sandboxes(d, Limits::default(), &[".env", "secret/", "*.pem"]);
    assert!(on.index_status()[0].events, "{:?}", on.index_status());
    // Every walk recorded and every figure settled: two rounds of the same queries agree.
    let settle = || {
        for _ in 0..3 {
            observe(&on);
            assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        }
    };
    settle();
    let before = observe(&on);
    assert_eq!(
        observe(&on),
        before,
        "the figures are stable without a change"
    );
    let replayed: u64 = before
        .iter()
        .filter_map(|v| v.get("walks_replayed").and_then(Value::as_u64))
        .sum();
    assert_eq!(replayed, 5, "{before:?}");
    let changes: Vec<(&str, Change)> = vec![
        (
            "create .env files",
            Box::new(|| {
                fs::write(d.join("a/.env"), "token=2\n").unwrap();
                fs::write(d.join("a/b/.env"), "x\n").unwrap();
            }),
        ),
        (
            "write a denied file",
            Box::new(|| {
                fs::write(d.join(".env"), "token=3 and more\n").unwrap();
                fs::OpenOptions::new()
                    .append(true)
                    .open(d.join("a/old.pem"))
                    .unwrap()
                    .write_all(b"more token\n")
                    .unwrap();
            }),
        ),
        (
            "chmod a denied file",
            Box::new(|| {
                fs::set_permissions(d.join("a/b/key.pem"), fs::Permissions::from_mode(0o600))
                    .unwrap();
            }),
        ),
        (
            "rename between denied names",
            Box::new(|| {
                fs::rename(d.join("a/b/key.pem"), d.join("a/b/moved.pem")).unwrap();
            }),
        ),
        (
            "a denied directory",
            Box::new(|| {
                fs::create_dir(d.join("a/secret")).unwrap();
                fs::write(d.join("a/secret/t.txt"), "token\n").unwrap();
                fs::write(d.join("secret/s.txt"), "token changed\n").unwrap();
            }),
        ),
        (
            "delete denied files and a directory",
            Box::new(|| {
                fs::remove_file(d.join("a/old.pem")).unwrap();
                fs::remove_file(d.join("a/.env")).unwrap();
                fs::remove_file(d.join("a/secret/t.txt")).unwrap();
                fs::remove_dir(d.join("a/secret")).unwrap();
            }),
        ),
    ];
    for (what, change) in changes {
        change();
        assert_eq!(observe(&on), before, "after: {what}");
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        assert_eq!(observe(&on), before, "after: {what}, settled");
    }
    // A change to a file the agent may see is observable, as it must be (the test sees changes).
    fs::write(d.join("a/visible.txt"), "token\n").unwrap();
    assert_ne!(observe(&on), before);
}

/// With `max_call_memory` under what a large searcher reserves, a file with a line longer than a
/// thread's own searcher holds (1 MiB) is recorded `too_large` by the search: the index must not
/// pass it over as searched. Smaller files are still passed over.
#[test]
fn a_long_line_is_too_large_alike_under_a_small_call_budget() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    text_files(d, 12);
    let mut long = vec![b'q'; 2 << 20];
    long.push(b'\n');
    fs::write(d.join("long.txt"), long).unwrap();
    age(d);
    let limits = Limits {
        max_call_memory: 32 << 20,
        ..Limits::default()
    };
    let (off, on) = sandboxes(d, limits, &[]);
    for mode in [
        OutputMode::FilesWithMatches,
        OutputMode::Count,
        OutputMode::Content,
    ] {
        for multiline in [false, true] {
            let mut a = listing("alpha 3");
            a.output_mode = Some(mode);
            a.multiline = Some(multiline);
            let (x, _) = answer(&off, &a);
            let (y, ix) = answer(&on, &a);
            assert_eq!(x["stats"]["skipped"]["too_large"], 1, "{x}");
            assert_eq!(x, y, "{a:?}");
            assert!(ix["files_pruned"].as_u64().unwrap() >= 10, "{ix}");
        }
    }
}

/// Files the build gave no entry (here: written after it; files written within two seconds before
/// it are alike) are not counted in `files`; described in the background once a walk has seen
/// them, they are counted as `described`, and the index prunes with them, answering as the
/// unindexed search does.
#[test]
fn files_without_an_entry_are_counted_once_described() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Built on an empty tree, however slow the machine: no file has an entry.
    let (off, on) = sandboxes(d, Limits::default(), &[]);
    assert_eq!(on.index_status()[0].files, 0);
    text_files(d, 24);
    let end = std::time::Instant::now() + crate::support::time::INDEX_WORK;
    let absent = listing("zzz_absent");
    loop {
        let (v, ix) = answer(&on, &absent);
        assert_eq!(v, answer(&off, &absent).0);
        let st = on.index_status()[0].clone();
        if st.files + st.described >= 24 {
            // Every file is indexed or described: none is read for a word no file holds.
            let (v, ix) = answer(&on, &absent);
            assert_eq!(v, answer(&off, &absent).0);
            assert_eq!(ix["files_pruned"], 24, "{ix} {st:?}");
            break;
        }
        assert!(
            std::time::Instant::now() < end,
            "never described: {st:?} {ix}"
        );
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
