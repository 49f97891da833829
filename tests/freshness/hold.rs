//! The steps that reach what plain changes reach only by luck: a background thread of the index
//! held at a point while changes are made (`rootbound::index_hold_at`), an overflowed event queue,
//! and a write through a shared memory map.

use super::ops::{change, file, query, Op, Query, Text, F, WORDS};
use proptest::prelude::*;
use std::fs;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// A thread of the index held while changes are made (`World::hold` in main.rs).
#[derive(Debug, Clone)]
pub struct Hold {
    /// The description of changed files (true: held after it read them, before it puts their
    /// descriptions in place) or a recording (held after its walk, before it is kept).
    pub describe: bool,
    /// A file given every word and indexed so (the root indexed again), with `z` cleared, before
    /// anything else: the file the swap puts back at its path, which matches the query.
    pub indexed: Option<F>,
    /// Changes made first (for the description: what makes its files changed).
    pub before: Vec<Op>,
    /// Changes made while the thread is held.
    pub during: Vec<Op>,
    /// Asked before (settled, so that a recorded walk exists), while held, and after.
    pub query: Query,
}

/// Every word: a file that matches (almost) every pattern.
pub fn every_word() -> Text {
    Text((0..WORDS.len()).collect(), false)
}

/// `t`, then every word: a change that a query most likely sees (a lost report of it shows).
pub fn with_every_word(t: &Text) -> Text {
    let mut w = t.0.clone();
    w.extend(0..WORDS.len());
    Text(w, t.1)
}

/// Every word, starting from one `t` picks: what a same-size write puts first is most likely
/// not what the file held.
pub fn every_word_from(t: &Text) -> Text {
    let k = t.0.iter().sum::<usize>() + t.0.len();
    Text(
        (0..WORDS.len()).map(|i| (i + k) % WORDS.len()).collect(),
        t.1,
    )
}

/// `z`, the directory that does not exist at first.
pub const Z: usize = 6;

/// A held step. Two shapes aimed at the description's checks, and random changes:
/// - a changed file written again while its old content is being described (its description
///   must not be put in place: a change to it was reported);
/// - a changed file whose directory is swapped, while it is described, with the directory that
///   holds the file indexed at that path (unchanged since: a recording verifies it and keeps its
///   walk); the description read the other file and must not be put in place either (the tree's
///   shape changed since the file was chosen). So that every run of it shows a wrong install,
///   the indexed file holds every word and the query sees it (no filter, one page, ignore files
///   off), and the other file is found changed by a recording before the description starts.
pub fn hold() -> impl Strategy<Value = Hold> {
    let changes = || prop::collection::vec(change(), 1..3);
    (
        any::<bool>(),
        0..3usize,
        (file(), 1..4usize, 0..3usize),
        changes(),
        changes(),
        query(),
    )
        .prop_map(|(describe, shape, (f, d, n), before, during, query)| {
            // What the description reads holds no word: pruned by any query once put in place.
            let (in_d, empty) = (super::ops::F(d, n), Text(Vec::new(), false));
            let (before, during) = match shape {
                0 => (vec![Op::Write(f, empty)], vec![Op::Write(f, every_word())]),
                1 => (
                    vec![Op::DirRename(d, Z), Op::Write(in_d, empty)],
                    vec![Op::DirSwap(d, Z)],
                ),
                _ => (before, during),
            };
            let query = if shape == 1 { sees_all(query) } else { query };
            Hold {
                describe: describe || shape < 2,
                indexed: (shape == 1).then_some(in_d),
                before,
                during,
                query,
            }
        })
}

/// `q` made to find a file holding every word wherever it is: a pattern such a file matches, no
/// path or glob filter, ignore files off, and every match on one page.
fn sees_all(q: Query) -> Query {
    // "gamma zebra" and "nowhere_at_all" are not on one line of every word.
    let matching = [0, 1, 2, 3, 4, 6];
    Query {
        pattern: matching[q.pattern % matching.len()],
        flag: 4,
        filter: 0,
        limit: 50,
        ..q
    }
}

/// Fills the root's event queue past the kernel's limit (`fs.inotify.max_queued_events`) with
/// writes to two denied files (alternating, so that the kernel merges none): the queue overflows,
/// and the change made next is lost; only the overflow says that something was.
pub fn flood(root: &Path) {
    let limit = fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .unwrap_or(16_384);
    if limit > 1 << 20 {
        return;
    }
    let open = |name: &str| {
        fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(root.join(name))
    };
    let (Ok(a), Ok(b)) = (open("secret.txt"), open("secret.flood")) else {
        return;
    };
    for i in 0..limit + 64 {
        let _ = [&a, &b][i % 2].write_at(b"x", 0);
    }
}

/// Writes other bytes of the same length through a shared memory map, then closes the file: no
/// modify event, only the close of a file open for writing reports it.
pub fn mmap_write(p: &Path, t: &Text) {
    let Ok(meta) = fs::symlink_metadata(p) else {
        return;
    };
    let Ok(file) = fs::OpenOptions::new().read(true).write(true).open(p) else {
        return;
    };
    if !meta.is_file() || meta.len() == 0 {
        return;
    }
    let mut bytes = t.bytes();
    bytes.resize(meta.len() as usize, b'.');
    // SAFETY: the file is the test's own; nothing else truncates it while it is mapped.
    if let Ok(mut m) = unsafe { memmap2::MmapMut::map_mut(&file) } {
        m.copy_from_slice(&bytes);
        let _ = m.flush();
    }
}
