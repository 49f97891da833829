//! The build that follows a loaded index (`snapshot`) takes each unchanged file's entry from it
//! instead of reading the file again.
//!
//! A file is unchanged when the walk yields it at the path of an entry, and a `statat` through its
//! directory's handle shows a regular file with one link and the entry's (device, inode, size,
//! mtime, ctime): the test a strict-mode query applies before it passes a file over. The loaded
//! index was built under the same binding (root and policy hash, `snapshot::binding`), and its
//! entry was made only for a file whose timestamps were older than the racy window when it was
//! read; a file whose stat is the same has the same bytes, so the entry — stat, NUL fact and the
//! trigrams of each of its chunks — is exactly what reading it again would make. Every other file
//! (a stat differing in any field, a new file, one with no entry) is read as in any build.
//!
//! The kept entries are appended after the files read, in their old order, each with its units
//! (chunks) in a row ([`keep`]); their posting lists are the loaded lists filtered to kept units
//! and renumbered ([`Kept`]), appended to the lists of the files read (unit ids stay ascending):
//! on the heap ([`merge_lists`]), or, with a cache directory, as one more run of the build's
//! spilled lists (`spill`), written from the loaded lists' mapping one list at a time.

use super::budget::Budget;
use super::entry::{stat_key, ID_SLOT, PATH_EXTRA};
use super::postings::{put_varint, Data, Postings};
use super::query::Trigram;
use super::{Entry, RootIndex};
use crate::core::dirs::{self, FileType};
use crate::walk::FoundFile;
use std::collections::HashMap;

/// No new id: the old file or unit is not kept.
const GONE: u32 = u32::MAX;
/// Memory accounted per slot of the merged dictionary (a table's capacity is under twice what
/// it was made for).
const DICT_SLOT: usize = 2 * super::postings::DICT_SLOT;
/// The most bytes a varint takes.
const VARINT_MAX: usize = 5;

/// The id of `f`'s entry in `prior`, when the file is still what that entry describes.
pub(super) fn unchanged(prior: &RootIndex, f: &FoundFile) -> Option<u32> {
    let &id = prior.ids.get(&f.rel)?;
    let e = prior.entries.get(id as usize)?;
    let st = dirs::stat_entry(&*f.dir, f.name.as_os_str()).ok()?;
    let same = FileType::from_raw_mode(st.st_mode).is_file()
        && st.st_nlink <= 1
        && stat_key(&st) == e.stat;
    same.then_some(id)
}

/// The lists of a loaded index's kept entries: its lists and each old unit's new id (or
/// [`GONE`]). The ids' memory is the build's until this is dropped.
pub(super) struct Kept<'a> {
    lists: &'a Postings,
    units: Vec<u32>,
    budget: &'a Budget,
}

impl Drop for Kept<'_> {
    fn drop(&mut self) {
        self.budget.give(self.units.len() * 4);
    }
}

/// Appends the entries `kept` of `prior` to `ri`'s table (after the files read, in their old
/// order), taking the growth from `all`: their lists, to be appended to those of the files read;
/// `None` when it does not fit.
pub(super) fn keep<'a>(
    ri: &mut RootIndex,
    prior: &'a RootIndex,
    mut kept: Vec<u32>,
    all: &'a Budget,
) -> Option<Kept<'a>> {
    kept.sort_unstable();
    kept.dedup();
    // The map of old files to new ids, for a while, and of old units to new ids, as long as
    // the lists are merged.
    let (files, units) = (prior.entries.len() * 4, prior.unit_file.len() * 4);
    if !all.take(files + units) {
        return None;
    }
    let mut file_map = vec![GONE; prior.entries.len()];
    let first = ri.entries.len() as u32;
    for (k, &old) in kept.iter().enumerate() {
        if let Some(m) = file_map.get_mut(old as usize) {
            *m = first + k as u32;
        }
    }
    let map = merge_table(ri, prior, &kept, &file_map, all)
        .then(|| unit_map(ri, prior, &file_map, all))
        .flatten();
    drop(file_map);
    all.give(files);
    let Some(units) = map else {
        all.give(units);
        return None;
    };
    Some(Kept {
        lists: &prior.postings,
        units,
        budget: all,
    })
}

/// Appends the kept entries and their paths to `ri`'s table.
fn merge_table(
    ri: &mut RootIndex,
    prior: &RootIndex,
    kept: &[u32],
    file_map: &[u32],
    all: &Budget,
) -> bool {
    let more = kept.len() * (std::mem::size_of::<Entry>() + ID_SLOT * 2);
    if !all.take(more) {
        return false;
    }
    ri.entries.reserve_exact(kept.len());
    ri.ids.reserve(kept.len());
    for &old in kept {
        let e = &prior.entries[old as usize];
        ri.entries.push(Entry {
            stat: e.stat,
            nul: e.nul,
        });
    }
    for (p, &id) in &prior.ids {
        let Some(&new) = file_map.get(id as usize).filter(|&&n| n != GONE) else {
            continue;
        };
        let bytes = p.as_os_str().len() + PATH_EXTRA;
        if !all.take(bytes) {
            return false;
        }
        ri.path_bytes += bytes;
        ri.ids.insert(p.clone(), new);
    }
    true
}

/// Appends the kept entries' units to `ri.unit_file`; each old unit's new id, or [`GONE`].
fn unit_map(
    ri: &mut RootIndex,
    prior: &RootIndex,
    file_map: &[u32],
    all: &Budget,
) -> Option<Vec<u32>> {
    let mut next = ri.unit_file.len() as u32;
    let mut units = vec![GONE; prior.unit_file.len()];
    // The table's units grow by at most the old ones.
    if !all.take(prior.unit_file.len() * 12) {
        return None;
    }
    ri.unit_file.reserve(prior.unit_file.len());
    ri.unit_start.reserve(prior.unit_start.len());
    for (u, &f) in prior.unit_file.iter().enumerate() {
        let new = file_map.get(f as usize).copied().unwrap_or(GONE);
        if new != GONE {
            units[u] = next;
            next += 1;
            ri.unit_file.push(new);
            ri.unit_start.push(*prior.unit_start.get(u)?);
        }
    }
    Some(units)
}

/// The list at `(off, len)` of `bytes`, as far as it lies within them (a loaded file's).
fn list(bytes: &[u8], (off, len): (u64, u32)) -> &[u8] {
    let end = (off as usize).saturating_add(len as usize);
    bytes.get(off as usize..end).unwrap_or_default()
}

impl Kept<'_> {
    /// Bytes of the loaded lists: what the kept lists take at most, but a varint each.
    pub fn bytes(&self) -> usize {
        self.lists.parts().1.len()
    }

    /// Appends to `out` the kept units of old list `l` by their new ids, each coded as the gap
    /// from the one before (the first from `last`) and followed by its mask: the last id
    /// written, or `last`.
    fn renumber(&self, l: &[u8], mut last: i64, out: &mut Vec<u8>) -> i64 {
        crate::index::postings::decode(l, |u, m| {
            // A crafted list could go past the ids; kept ids only ever ascend.
            let Some(&n) = self.units.get(u).filter(|&&n| n != GONE) else {
                return;
            };
            if i64::from(n) <= last {
                return;
            }
            put_varint(out, (n as i64 - last - 1) as u32);
            out.push(m);
            last = n as i64;
        });
        last
    }

    /// Hands `put` each kept list in trigram order (trigram, last id, list with its first id
    /// coded from -1), one at a time: a spill's run. False when `put` says stop, the sort or
    /// one list does not fit in the budget, or the budget's stop flag is raised.
    pub fn each(&self, put: &mut dyn FnMut(Trigram, u32, &[u8]) -> bool) -> bool {
        let (dict, data) = self.lists.parts();
        let longest = dict.values().map(|&s| list(data, s).len()).max();
        // A kept list is never longer than its old one, but for its first id (one varint more).
        let held = dict.len() * std::mem::size_of::<Trigram>() + longest.unwrap_or(0) + VARINT_MAX;
        if !self.budget.take(held) {
            return false;
        }
        let mut keys: Vec<Trigram> = dict.keys().copied().collect();
        keys.sort_unstable();
        let mut out = Vec::with_capacity(longest.unwrap_or(0) + VARINT_MAX);
        let all = keys.iter().all(|t| {
            if self.budget.stopped() {
                return false;
            }
            out.clear();
            let last = self.renumber(list(data, dict[t]), -1, &mut out);
            out.is_empty() || put(*t, last as u32, &out)
        });
        self.budget.give(held);
        all
    }
}

/// The lists of `new` (the files read) each followed by the kept lists, on the heap; `new`'s
/// memory is given back to `all`. `None` when the merge does not fit in `all`, or once its stop
/// flag is raised (asked once a trigram).
pub(super) fn merge_lists(new: Postings, kept: &Kept, all: &Budget) -> Option<Postings> {
    let ((nd, ndata), (od, odata)) = (new.parts(), kept.lists.parts());
    // A kept unit's delta is never larger than its old one, but for a list's first kept unit,
    // which follows the files read (at most one varint more).
    let bound = ndata.len() + odata.len() + od.len() * VARINT_MAX;
    let slots = nd.len() + od.len();
    if !all.take(bound + slots * DICT_SLOT) {
        return None;
    }
    let mut data = Vec::with_capacity(bound);
    let mut dict = HashMap::with_capacity(slots);
    let only_old = od.iter().filter(|(t, _)| !nd.contains_key(t));
    let trigrams = nd.keys().chain(only_old.map(|(t, _)| t));
    for &t in trigrams {
        if all.stopped() {
            all.give(bound + slots * DICT_SLOT);
            return None;
        }
        let start = data.len();
        let mut last = -1i64;
        if let Some(&span) = nd.get(&t) {
            let l = list(ndata, span);
            data.extend_from_slice(l);
            last = crate::index::postings::decode(l, |_, _| ());
        }
        if let Some(&span) = od.get(&t) {
            kept.renumber(list(odata, span), last, &mut data);
        }
        if data.len() > start {
            dict.insert(t, (start as u64, (data.len() - start) as u32));
        }
    }
    all.give(new.memory());
    Some(Postings::from_parts(dict, Data::Heap(data)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sandbox::Sandbox;
    use crate::index::build::{build_root, Progress};
    use crate::index::query::Trigram;
    use crate::index::StatKey;
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    type Described = (StatKey, bool, Vec<Vec<(Trigram, u8)>>);

    /// Each entry by path: its stat, NUL fact and each unit's trigrams (sorted) with their
    /// masks, in unit order.
    fn contents(ri: &RootIndex) -> BTreeMap<PathBuf, Described> {
        let (dict, data) = ri.postings.parts();
        let mut per_unit = vec![Vec::new(); ri.unit_file.len()];
        for (&t, &span) in dict {
            crate::index::postings::decode(list(data, span), |u, m| per_unit[u].push((t, m)));
        }
        let mut per_file = vec![Vec::new(); ri.entries.len()];
        for (u, mut tris) in per_unit.into_iter().enumerate() {
            tris.sort_unstable();
            per_file[ri.unit_file[u] as usize].push(tris);
        }
        ri.ids
            .iter()
            .map(|(p, &id)| {
                let e = &ri.entries[id as usize];
                let units = std::mem::take(&mut per_file[id as usize]);
                (p.clone(), (e.stat, e.nul, units))
            })
            .collect()
    }

    fn build(sb: &Sandbox, prior: Option<&RootIndex>) -> (RootIndex, u64) {
        build_in(sb, prior, None)
    }

    /// [`build`] spilling to `spill`.
    fn build_in(
        sb: &Sandbox,
        prior: Option<&RootIndex>,
        spill: Option<&crate::core::cache::CacheDir>,
    ) -> (RootIndex, u64) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let p = Progress::default();
        let ri = build_root(sb, 0, &pool, spill, &p, &Arc::default(), prior).unwrap();
        (ri, p.bytes_read.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// `n` files `{prefix}{i}.txt` of 3,000 random lowercase letters (few distinct trigrams,
    /// long lists).
    fn letters(root: &Path, prefix: &str, n: usize, seed: u64) {
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
            std::fs::write(root.join(format!("{prefix}{i:05}.txt")), text).unwrap();
        }
    }

    /// With a cache directory the build after a load ends as a first build does: the lists of
    /// the files it read (spilled as they pass the bound) and the kept entries' lists are runs
    /// merged into a mapped scratch file; the index is, path by path and chunk by chunk, what a
    /// fresh build makes, whether files changed or none did.
    #[test]
    fn a_spilled_build_after_a_load_is_what_a_fresh_build_makes() {
        let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let root = dir.path();
        letters(root, "t", 1500, 7);
        std::fs::write(root.join("big.txt"), big(3)).unwrap();
        std::fs::write(root.join("nul.bin"), b"abc\0def ghi\n").unwrap();
        let canonical = std::fs::canonicalize(root).unwrap();
        crate::index::index_age_at(&canonical, std::time::Duration::from_secs(5));
        // Lists spilled past 2.5 MiB (a sixteenth of the cap; the postings carry masks since).
        // The same tree built on the heap below peaks at 24-31 MB, with the threads' scan
        // buffers and the short lists' slabs held to the end of the merge: room for a busy
        // machine's scheduling.
        let limits = crate::Limits {
            index_max_bytes: 40 << 20,
            ..crate::Limits::default()
        };
        let sb = Sandbox::builder()
            .root(root)
            .limits(limits)
            .build_core()
            .unwrap();
        let spill = crate::core::cache::open(cache.path(), &[], &[], &[]).unwrap();
        let (first, _) = build_in(&sb, None, Some(&spill));
        assert!(first.postings.mapped() > 0);
        for i in (1..1500).step_by(41) {
            std::fs::remove_file(root.join(format!("t{i:05}.txt"))).unwrap();
        }
        letters(root, "t", 600, 8);
        letters(root, "u", 50, 9);
        let mut b = big(3).into_bytes();
        b[500_000..500_004].copy_from_slice(b"WXYZ");
        std::fs::write(root.join("big.txt"), &b).unwrap();
        crate::index::index_age_at(&canonical, std::time::Duration::from_secs(5));
        let (again, read) = build_in(&sb, Some(&first), Some(&spill));
        assert_eq!(read, (600 + 50) * 3000 + b.len() as u64);
        let (fresh, _) = build(&sb, None);
        assert_eq!(fresh.postings.mapped(), 0);
        assert!(again.postings.mapped() > 0);
        assert_eq!(contents(&again), contents(&fresh));
        assert!(contents(&fresh)[Path::new("big.txt")].2.len() > 1);
        // Nothing changed: every entry kept, the lists one run of them alone.
        let (third, read) = build_in(&sb, Some(&again), Some(&spill));
        assert_eq!(read, 0);
        assert!(third.postings.mapped() > 0);
        assert_eq!(contents(&third), contents(&fresh));
    }

    fn big(seed: u32) -> String {
        (0..40_000)
            .map(|i| format!("line {i} of {seed} x{}\n", i * 7919 % 1000))
            .collect()
    }

    /// The build after a load keeps the entries of the files unchanged and reads the others:
    /// the index it makes holds, path by path, what a fresh build makes (stat, NUL fact, each
    /// chunk's trigrams), and it read only the files that changed or appeared.
    #[test]
    fn a_kept_entry_is_what_a_fresh_build_makes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let w = |p: &str, b: &[u8]| {
            let p = root.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b).unwrap();
        };
        for i in 0..40 {
            w(
                &format!("d{}/f{i}.txt", i % 3),
                format!("alpha{i} beta\n").as_bytes(),
            );
        }
        w("big.txt", big(1).as_bytes());
        w("big2.txt", big(2).as_bytes());
        w("nul.bin", b"abc\0def ghi\n");
        w("bom.txt", b"\xef\xbb\xbfbom text\n");
        let canonical = std::fs::canonicalize(root).unwrap();
        // Files are out of the racy window without a sleep.
        crate::index::index_age_at(&canonical, std::time::Duration::from_secs(5));
        let sb = Sandbox::builder().root(root).build_core().unwrap();
        let (first, read) = build(&sb, None);
        assert!(read > 1 << 20);
        // Same size, other bytes; a chunk of a large file; gone; new.
        w("d1/f1.txt", b"gamma1 beta\n");
        let mut b2 = big(2).into_bytes();
        b2[400_000..400_010].copy_from_slice(b"ZZZZZZZZZZ");
        w("big2.txt", &b2);
        std::fs::remove_file(root.join("d2/f2.txt")).unwrap();
        w("d0/new.txt", b"delta new\n");
        let (again, read) = build(&sb, Some(&first));
        let (fresh, _) = build(&sb, None);
        // The file with no entry (a byte-order mark) is read again too, as any build reads it.
        let bom = 12;
        assert_eq!(read, (12 + b2.len() + 10 + bom) as u64);
        assert_eq!(contents(&again), contents(&fresh));
        assert!(contents(&fresh)[Path::new("big2.txt")].2.len() > 1);
        assert!(!contents(&fresh).contains_key(Path::new("bom.txt")));
        // Nothing changed: nothing read but that file, the same index again.
        let (third, read) = build(&sb, Some(&again));
        assert_eq!(read, bom as u64);
        assert_eq!(contents(&third), contents(&fresh));
    }

    /// The merges of the kept entries' lists ask the build's stop flag (through its budget):
    /// raised once the entries are kept, the heap merge gives nothing and a spill's run of them
    /// hands no list; down, both give the lists (the control).
    #[test]
    fn the_kept_lists_merges_end_once_the_stop_flag_is_raised() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let (dir, empty) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        letters(dir.path(), "t", 40, 3);
        let canonical = std::fs::canonicalize(dir.path()).unwrap();
        crate::index::index_age_at(&canonical, std::time::Duration::from_secs(5));
        let core = |p: &Path| Sandbox::builder().root(p).build_core().unwrap();
        let (prior, _) = build(&core(dir.path()), None);
        assert_eq!(prior.entries.len(), 40);
        let ids: Vec<u32> = (0..40).collect();
        for raised in [false, true] {
            let stop = Arc::new(AtomicBool::new(false));
            let all = Budget::new(usize::MAX).stopping(stop.clone());
            let (mut ri, _) = build(&core(empty.path()), None);
            let kept = keep(&mut ri, &prior, ids.clone(), &all).unwrap();
            stop.store(raised, Ordering::SeqCst);
            let mut handed = 0;
            let whole = kept.each(&mut |_, _, _| {
                handed += 1;
                true
            });
            let none = Postings::from_parts(HashMap::new(), Data::Heap(Vec::new()));
            let merged = merge_lists(none, &kept, &all).map(|p| p.parts().0.len());
            match raised {
                false => assert!(whole && handed > 0 && merged == Some(handed)),
                true => assert_eq!((whole, handed, merged), (false, 0, None)),
            }
        }
    }
}
