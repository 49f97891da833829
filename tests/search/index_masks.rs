//! Position masks (docs/index.md "What the index can prune"): a phrase whose trigrams a file holds
//! only apart ("struct file_lock" and "inode_operations" hold every trigram of "struct
//! file_operations") is pruned, and
//! every page of every mode is the unindexed answer: in a fresh index, for a file changed and
//! described again, across a large file's chunk edge (multiline), and after a restart from the
//! saved index (`index_disk::served_from_snapshot`, whose patterns include the phrase).

use super::index_disk::{answer, indexed, sandbox, served_from_snapshot, tree, SLOW};
use rootbound::{index_age_at, GrepArgs, OutputMode, Sandbox};
use std::fs;
use std::path::Path;
use std::time::Duration;

/// Lines of 32 bytes: the large file's chunks (32 KiB) are whole lines.
const LINE: usize = 32;
const PER_CHUNK: usize = (32 << 10) / LINE;
/// Files holding the phrase's trigrams apart.
const APART: usize = 48;

fn line(text: &str) -> Vec<u8> {
    let mut l = text.as_bytes().to_vec();
    l.resize(LINE - 1, b' ');
    l.push(b'\n');
    l
}

/// Three chunks: "edge_one" ends the first, "edge_two" starts the second (a multiline match across
/// the edge), and "struct file_lock" and "inode_operations" lie apart in the third.
fn large() -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..3 * PER_CHUNK {
        out.extend(line(&match i {
            i if i == PER_CHUNK - 1 => "edge_one".to_string(),
            i if i == PER_CHUNK => "edge_two".to_string(),
            i if i == 2 * PER_CHUNK + 7 => "struct file_lock *f;".to_string(),
            i if i == 2 * PER_CHUNK + 9 => "struct inode_operations i;".to_string(),
            _ => format!("filler {i:08} text"),
        }));
    }
    out
}

fn files(root: &Path) {
    tree(root, 200);
    // The fragments at every distance mod 8 (and more): the masks rule most of them out.
    for i in 0..APART {
        let text = format!(
            "struct file_lock *f;\n{}const struct inode_operations x;\n",
            "/".repeat(i)
        );
        fs::write(root.join(format!("apart{i}.c")), text).unwrap();
    }
    fs::write(
        root.join("match.c"),
        "static const struct file_operations fops;\n",
    )
    .unwrap();
    fs::write(root.join("large.txt"), large()).unwrap();
    age(root);
}

fn age(root: &Path) {
    index_age_at(
        &fs::canonicalize(root).unwrap(),
        Duration::from_millis(2100),
    );
}

/// Every page equal but for `stats.index`; the files the index pruned.
fn pages(off: &Sandbox, on: &Sandbox, a: &GrepArgs) -> u64 {
    let (mut a, mut pruned) = (a.clone(), 0);
    for _ in 0..500 {
        let (x, _) = answer(off, &a);
        let (y, n) = answer(on, &a);
        assert_eq!(x, y, "{}", serde_json::to_string(&a).unwrap());
        pruned += n;
        match x["next_cursor"].as_str() {
            Some(c) => a.cursor = Some(c.into()),
            None => return pruned,
        }
    }
    panic!("too many pages");
}

/// The files pruned over every mode, page size and case of `p`.
fn all_modes(off: &Sandbox, on: &Sandbox, p: &str, multiline: bool) -> u64 {
    let mut pruned = 0;
    for mode in [
        OutputMode::FilesWithMatches,
        OutputMode::Count,
        OutputMode::Content,
    ] {
        for (limit, ci) in [(1, false), (10_000, false), (3, true)] {
            let mut a = GrepArgs::new(p);
            a.output_mode = Some(mode);
            a.limit = Some(limit);
            a.case_insensitive = Some(ci);
            a.multiline = Some(multiline);
            pruned += pages(off, on, &a);
        }
    }
    pruned
}

fn listing(p: &str) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(OutputMode::FilesWithMatches);
    a.limit = Some(10_000);
    a
}

/// Whether a listing names one file, ending in `name`.
fn only(x: &serde_json::Value, name: &str) -> bool {
    let m = x["matches"].as_str().unwrap_or_default();
    m.lines().count() == 1 && m.trim_end().ends_with(name)
}

#[test]
fn a_phrase_held_apart_is_pruned_and_answers_stay_exact() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let root = dir.path();
    files(root);
    let off = sandbox(root, "secret*");
    let on = indexed(root, cache.path(), "secret*");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    // The tree's 200 files lack its trigrams; without masks no apart file and not large.txt
    // (its third chunk holds the fragments) was pruned.
    let (x, n) = answer(&on, &listing("struct file_operations"));
    assert!(only(&x, "/match.c"), "{x}");
    assert!(n >= 200 + APART as u64 / 2, "pruned {n}");
    for p in ["struct file_operations", "word1 common", "file_lock *f"] {
        assert!(all_modes(&off, &on, p, false) > 0, "{p}");
        all_modes(&off, &on, p, true);
    }
    // Across the chunk edge: the file's chunks together hold the match.
    let (x, _) = answer(&on, &{
        let mut a = listing("edge_one\\s+edge_two");
        a.multiline = Some(true);
        a
    });
    assert!(only(&x, "/large.txt"), "{x}");
    all_modes(&off, &on, "edge_one\\s+edge_two", true);
    // A file changed to hold the phrase: searched while changed, then described again.
    fs::write(root.join("apart3.c"), "struct file_operations now\n").unwrap();
    all_modes(&off, &on, "struct file_operations", false);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    age(root);
    all_modes(&off, &on, "struct file_operations", false);
    let (x, _) = answer(&on, &listing("struct file_operations"));
    assert!(x["matches"].as_str().unwrap().contains("apart3.c"), "{x}");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    drop(on);
    // A restart: the saved index (with its masks) serves, every answer exact.
    assert!(served_from_snapshot(root, cache.path()) > 0);
}
