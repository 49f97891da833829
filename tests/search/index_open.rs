//! How an indexed search opens the files it must search: a replayed file is opened from the root
//! by its path through the gate (one `openat2` beneath the root, no symlink followed) by the
//! worker that searches it; no directory handle is held for it. That may change no answer: the
//! indexed one is the unindexed one, and a listing's is rg's.

use rootbound::{GrepArgs, OutputMode, Sandbox};
use serde_json::Value;
use std::fs;
use std::path::Path;

use crate::support::rg::{have_rg, rg};

fn indexed(root: &Path) -> Sandbox {
    rootbound::index_age_at(
        &root.canonicalize().unwrap(),
        std::time::Duration::from_secs(3),
    );
    let on = Sandbox::builder()
        .root(root)
        .threads(2)
        .build()
        .unwrap()
        .with_index();
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    on
}

fn plain(root: &Path) -> Sandbox {
    Sandbox::builder().root(root).threads(2).build().unwrap()
}

fn answer(sb: &Sandbox, a: &GrepArgs) -> Value {
    let mut v = serde_json::to_value(sb.grep_search(a).unwrap()).unwrap();
    v["stats"].as_object_mut().unwrap().remove("index");
    v
}

fn listing(p: &str) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(OutputMode::FilesWithMatches);
    a.limit = Some(10_000);
    a
}

/// Files between one searcher buffer (64 KiB) and the size read whole (256 KiB), with the first
/// match and the first NUL byte on either side of the buffer's edge and of each other.
fn edge_files(root: &Path) {
    const K: usize = 64 * 1024;
    let filler = |n: usize| {
        let mut v = Vec::with_capacity(n);
        while v.len() < n {
            v.extend_from_slice(b"filler line without it\n");
        }
        v.truncate(n);
        v
    };
    // (match at, NUL at), offsets in bytes; None: no such thing.
    let cases: &[(Option<usize>, Option<usize>)] = &[
        (Some(10), None),
        (Some(10), Some(K - 100)),
        (Some(10), Some(K + 1)),
        (Some(10), Some(K + 3)),
        (Some(10), Some(K + 200)),
        (Some(K - 40), Some(K + 2)),
        (Some(K + 500), None),
        (Some(K + 500), Some(K + 100)),
        (Some(K + 500), Some(2 * K + 7)),
        (Some(3 * K), Some(K / 2)),
        (None, Some(K + 5)),
        (None, None),
    ];
    for (i, (at, nul)) in cases.iter().enumerate() {
        let mut body = filler(3 * K + 1000);
        if let Some(at) = at {
            body[*at..*at + 12].copy_from_slice(b"\nmutex_lock\n");
        }
        if let Some(nul) = nul {
            body[*nul] = 0;
        }
        fs::write(root.join(format!("edge{i:02}.c")), body).unwrap();
    }
}

/// A listing of files with matches, replayed or not, lists rg's files when the first NUL byte of
/// a large file lies before its first match, in the same buffer of rg's reads, just past that
/// buffer's edge, or far after it.
#[test]
fn a_replayed_listing_lists_what_rg_lists_whatever_the_nul_bytes() {
    if !have_rg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    edge_files(dir.path());
    let out = rg(
        dir.path(),
        &crate::support::rg::os(&["-l", "--sort", "path", "mutex_lock"]),
        None,
    );
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_start_matches("./").to_string())
        .collect();
    assert!(theirs.len() >= 5, "{theirs:?}");
    let (off, on) = (plain(dir.path()), indexed(dir.path()));
    let base = format!("{}/", dir.path().display());
    for sb in [&off, &on, &on] {
        let r = sb.grep_search(&listing("mutex_lock")).unwrap();
        let ours: Vec<String> = r
            .matches
            .lines()
            .map(|l| l.strip_prefix(&base).unwrap_or(l).to_string())
            .collect();
        assert_eq!(ours, theirs);
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    }
    assert_eq!(
        answer(&off, &listing("mutex_lock")),
        answer(&on, &listing("mutex_lock"))
    );
}

/// A directory of a recorded walk replaced, between two pages of a listing, by a symlink to a
/// directory outside the root (the original moved aside within the root): the next page opens
/// nothing through the symlink nor through a handle of the directory as it was, and is the
/// unindexed page.
#[test]
fn a_directory_swapped_for_a_symlink_between_pages_opens_nothing_outside() {
    let top = tempfile::tempdir().unwrap();
    let (root, outside) = (top.path().join("root"), top.path().join("outside"));
    for d in ["d", "e"] {
        fs::create_dir_all(root.join(d)).unwrap();
        for i in 0..6 {
            fs::write(
                root.join(d).join(format!("f{i}.txt")),
                format!("needle {d}{i}\n"),
            )
            .unwrap();
        }
    }
    fs::create_dir_all(&outside).unwrap();
    for i in 0..6 {
        fs::write(outside.join(format!("f{i}.txt")), "needle SECRET\n").unwrap();
    }
    let (off, on) = (plain(&root), indexed(&root));
    let page = |sb: &Sandbox, cursor: Option<String>| {
        let mut a = GrepArgs::new("needle");
        a.output_mode = Some(OutputMode::Content);
        a.limit = Some(2);
        a.cursor = cursor;
        sb.grep_search(&a).unwrap()
    };
    // The first query records the walk; the second page is replayed.
    page(&on, None);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let first = page(&on, None);
    assert!(first.stats.index.is_some_and(|i| i.walks_replayed > 0));
    assert_eq!(first.matches, page(&off, None).matches);
    let cursor = first.next_cursor.clone();
    assert!(cursor.is_some());
    fs::rename(root.join("d"), root.join("d_old")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("d")).unwrap();
    let mut cursor = cursor;
    let (mut ours, mut theirs) = (String::new(), String::new());
    while let Some(c) = cursor {
        let (a, b) = (page(&on, Some(c.clone())), page(&off, Some(c)));
        assert_eq!(a.next_cursor, b.next_cursor);
        ours.push_str(&a.matches);
        theirs.push_str(&b.matches);
        cursor = a.next_cursor;
    }
    assert!(!ours.contains("SECRET"), "{ours}");
    assert_eq!(ours, theirs);
}
