//! A save after changes that fails (`index/resave.rs`, as opposed to the first save): the root
//! keeps the index in place and answers exactly with it, the status says the save failed, the
//! failed save leaves nothing in the cache directory, and the next save after changes succeeds
//! once it can (a restart then loads what it saved).

use crate::index_disk::{answer, exact, indexed, listing, sandbox, saved_file, status, tree, SLOW};
use rootbound::{index_age_at, index_slow_at, IndexStatus, Sandbox};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// Queries `on` (checking each answer against `off`, and that the index prunes) until its status
/// says of the saved index what `said` accepts; that status.
fn until_said(off: &Sandbox, on: &Sandbox, said: impl Fn(&str) -> bool) -> IndexStatus {
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    loop {
        // Queries drain the change reports; the save follows once they settle.
        assert!(
            exact(off, on) > 0,
            "the index pruned nothing: {:?}",
            status(on)
        );
        for p in ["gamma", "delta", "epsilon"] {
            assert_eq!(answer(on, &listing(p)).0, answer(off, &listing(p)).0, "{p}");
        }
        let st = status(on);
        if st.snapshot.as_deref().is_some_and(&said) || Instant::now() > end {
            return st;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A tree of 200 files at `root` with a file denied, unindexed and indexed (saved in `cache`,
/// its changes reported), the index built and saved.
fn saved_tree(root: &Path, cache: &Path) -> (Sandbox, Sandbox) {
    tree(root, 200);
    let off = sandbox(root, "secret*");
    let on = indexed(root, cache, "secret*");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let st = status(&on);
    assert!(
        st.events && st.snapshot.as_deref() == Some("saved"),
        "{st:?}"
    );
    (off, on)
}

/// The names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn a_failed_save_after_changes_keeps_the_index_and_a_later_one_saves() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let root = dir.path();
    let canonical = fs::canonicalize(root).unwrap();
    let (off, on) = saved_tree(root, cache.path());
    // The next save's rename fails: a directory stands at its file's name (the index in place
    // keeps the old file's mapping).
    let saved = saved_file(cache.path());
    let name = saved.file_name().unwrap().to_str().unwrap().to_string();
    fs::remove_file(&saved).unwrap();
    fs::create_dir(&saved).unwrap();
    fs::write(root.join("d3/f3.txt"), "changed gamma\n").unwrap();
    fs::write(root.join("d1/new.txt"), "delta new\n").unwrap();
    // Out of the racy window, and past the least time between two saves, without a sleep.
    index_age_at(&canonical, Duration::from_secs(120));
    let st = until_said(&off, &on, |s| s != "saved");
    let said = st.snapshot.clone().unwrap_or_default();
    assert!(said.starts_with("not saved"), "{st:?}");
    // The index in place still serves, exactly (checked by `until_said`) and pruning.
    assert_eq!(st.state, "ready", "{st:?}");
    let (_, pruned) = answer(&on, &listing("nothing here"));
    assert!(pruned >= 200, "pruned {pruned}: {st:?}");
    // Nothing of the failed save is left: no temporary file beside the planted directory, and
    // nothing in it.
    assert_eq!(names(cache.path()), vec![name.clone()]);
    assert_eq!(names(&saved), Vec::<String>::new());

    // Once the name is free, the next changes are saved.
    fs::remove_dir(&saved).unwrap();
    fs::write(root.join("d5/f5.txt"), "changed epsilon\n").unwrap();
    index_age_at(&canonical, Duration::from_secs(120));
    let st = until_said(&off, &on, |s| s == "saved after changes");
    assert_eq!(
        st.snapshot.as_deref(),
        Some("saved after changes"),
        "{st:?}"
    );
    assert_eq!(names(cache.path()), vec![name]);
    assert!(saved.is_file());
    drop(on);
    // A restart loads it: every visible file pruned, the three changed ones included.
    index_slow_at(Some(&canonical));
    let again = indexed(root, cache.path(), "secret*");
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    while !status(&again).from_snapshot && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(1));
    }
    let (_, pruned) = answer(&again, &listing("nothing here"));
    let st = status(&again);
    let exactly = [
        answer(&again, &listing("gamma|delta|epsilon")).0,
        answer(&off, &listing("gamma|delta|epsilon")).0,
    ];
    index_slow_at(None);
    assert!(st.from_snapshot, "{st:?}");
    assert_eq!((pruned, st.files), (201, 201), "{st:?}");
    assert_eq!(exactly[0], exactly[1]);
}

/// A query through tools narrowed by a client's roots (`--client-roots`: here to the root's
/// subdirectory `d1`) may be the one that starts the save after changes. That save must build
/// and save the operator's root, not the narrowed one: before, it walked root 0 of the calling
/// sandbox (`d1`), put that in place as the whole root's index (so every file outside `d1` was
/// searched again, and the status counted `d1`'s files) and saved it under `d1`'s own name, a
/// new file in the cache directory for every subdirectory a client narrowed to.
#[test]
fn a_save_after_changes_started_by_narrowed_tools_saves_the_operators_root() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let root = dir.path();
    let canonical = fs::canonicalize(root).unwrap();
    let (off, on) = saved_tree(root, cache.path());
    let name = saved_file(cache.path());
    let narrow = rootbound::config::AgentTools::from_sandbox(on.clone())
        .narrowed(&[canonical.join("d1")])
        .sandboxes()[0]
        .clone();
    // The operator's queries until one is replayed: the root's walk is recorded, so its change
    // reports are watched.
    let replayed = |sb: &Sandbox| {
        let r = sb.grep_search(&listing("gamma")).unwrap();
        r.stats.index.map_or(0, |i| i.walks_replayed)
    };
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    while replayed(&on) == 0 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    fs::write(root.join("d3/f3.txt"), "changed gamma\n").unwrap();
    index_age_at(&canonical, Duration::from_secs(120));
    // One query of the operator's drains the report (it pokes before it drains, so it starts no
    // save).
    assert_eq!(
        answer(&on, &listing("gamma")).0,
        answer(&off, &listing("gamma")).0
    );
    // Then only the narrowed tools query: theirs is the poke that starts the save.
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    let narrow_off = rootbound::config::AgentTools::from_sandbox(off.clone())
        .narrowed(&[canonical.join("d1")])
        .sandboxes()[0]
        .clone();
    while status(&on).snapshot.as_deref() != Some("saved after changes") && Instant::now() < end {
        for p in ["gamma", "word1\\b", "nothing here"] {
            assert_eq!(
                answer(&narrow, &listing(p)).0,
                answer(&narrow_off, &listing(p)).0,
                "{p}"
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let st = status(&on);
    assert_eq!(
        st.snapshot.as_deref(),
        Some("saved after changes"),
        "{st:?}"
    );
    // The whole root is indexed and prunes, and only its own file is in the cache directory.
    assert_eq!(st.files, 200, "{st:?}");
    assert!(exact(&off, &on) >= 200, "{:?}", status(&on));
    assert_eq!(
        names(cache.path()),
        vec![name.file_name().unwrap().to_str().unwrap().to_string()]
    );
}

/// A query through tools narrowed by a client's roots to the operator's second root (its root 0)
/// that finds more changed files than the cap builds that root again: the build must walk the
/// operator's second root. Before, it walked root 1 of the narrowed tools, which have none, and
/// turned the second root's index off for every session ("the root cannot be opened").
#[test]
fn a_build_again_started_by_narrowed_tools_builds_the_operators_root() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    tree(a.path(), 20);
    tree(b.path(), 20);
    let two = |index: bool| {
        let sb = Sandbox::builder()
            .root(a.path())
            .root(b.path())
            .deny("secret*")
            .threads(1)
            .build()
            .unwrap();
        match index {
            true => sb.with_index_options(rootbound::IndexOptions::default()),
            false => sb,
        }
    };
    let (off, on) = (two(false), two(true));
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let sts = on.index_status();
    assert!(sts.iter().all(|s| s.events && s.files == 20), "{sts:?}");
    let second = fs::canonicalize(b.path()).unwrap();
    let narrowed = |sb: &Sandbox| {
        rootbound::config::AgentTools::from_sandbox(sb.clone())
            .narrowed(std::slice::from_ref(&second))
            .sandboxes()[0]
            .clone()
    };
    let (narrow_off, narrow) = (narrowed(&off), narrowed(&on));
    // The narrowed tools' queries until one is replayed: the root's walk is recorded, so its
    // change reports are watched.
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    while narrow
        .grep_search(&listing("kappa"))
        .unwrap()
        .stats
        .index
        .map_or(0, |i| i.walks_replayed)
        == 0
        && Instant::now() < end
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    // More new files than the changed-set cap (1,024) in the second root.
    for i in 0..1100 {
        fs::write(b.path().join(format!("new{i}.txt")), "fresh kappa\n").unwrap();
    }
    index_age_at(&second, Duration::from_secs(120));
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    loop {
        for p in ["kappa", "word1\\b", "nothing here"] {
            assert_eq!(
                answer(&narrow, &listing(p)).0,
                answer(&narrow_off, &listing(p)).0,
                "{p}"
            );
        }
        let st = on.index_status().remove(1);
        if (st.state == "ready" && st.files == 1120) || st.state == "off" || Instant::now() > end {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let st = on.index_status().remove(1);
    assert_eq!((st.state.as_str(), st.files), ("ready", 1120), "{st:?}");
    assert!(exact(&off, &on) > 0, "{:?}", on.index_status());
}
