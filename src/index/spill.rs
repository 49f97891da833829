//! Posting lists off the heap while a root is built: when the reading threads' lists pass a bound
//! (between two steps of the walk, when no thread adds to them), they are merged in trigram order
//! into a sorted run appended to a scratch file of the cache directory
//! ([`crate::core::cache::Scratch`]: unlinked from the start) and let go. The build ends by merging
//! the runs, trigram by trigram, into a second scratch file, which the index then maps (page
//! cache): the heap holds the table, the dictionary and the lists of at most one bound (plus one
//! step's growth) at any moment, not every list of the root.
//!
//! The runs partition the ids: each holds the files added since the one before, so a trigram's
//! list is its runs' lists in run order, each after the first with its first id coded as the gap
//! from the last id of the ones before. The result is byte for byte the list one builder makes.
//!
//! The build after a load (`reuse`) appends the entries it kept from the loaded index after the
//! files it read, so their lists, filtered and renumbered, are one more run after the others:
//! both builds end through the same runs and the same merge.
//!
//! Without a cache directory there is nowhere private to spill to: the lists stay on the heap.

use super::budget::Budget;
use super::postings::{Builder, Data, Postings, DICT_SLOT};
use super::query::Trigram;
use crate::core::cache::{CacheDir, Mapped, Scratch};
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::ops::Range;
use std::sync::Arc;

/// The most the reading threads' lists hold before they are spilled, at most: a sixteenth of
/// the build's cap.
const MOST: usize = 32 << 20;

/// Bytes of a run record's head: trigram, last id, length of the list.
const HEAD: usize = 12;

/// Buffer of a scratch file's writer.
const WRITE_BUF: usize = 1 << 20;

/// The runs spilled so far.
pub(super) struct Spill<'a> {
    dir: &'a CacheDir,
    /// Lists' memory past which they are spilled.
    at: usize,
    file: Option<BufWriter<Scratch>>,
    /// Each run's bytes in the file.
    runs: Vec<Range<usize>>,
    end: usize,
}

/// Why a spill failed (the root is then not indexed): `None` over the build's cap, else why the
/// runs could not be written or read.
pub(super) type Failed = Option<String>;

fn failed(e: std::io::Error) -> Failed {
    Some(format!(
        "the index could not spill its lists to index_dir: {}",
        e.kind()
    ))
}

impl<'a> Spill<'a> {
    /// Spills into `dir` once the lists pass a sixteenth of `cap` (at most [`MOST`]); `None`
    /// without a directory.
    pub fn new(dir: Option<&'a CacheDir>, cap: usize) -> Option<Spill<'a>> {
        Some(Spill {
            dir: dir?,
            at: (cap / 16).min(MOST),
            file: None,
            runs: Vec::new(),
            end: 0,
        })
    }

    /// Whether lists holding `memory` bytes are due to be spilled.
    pub fn due(&self, memory: usize) -> bool {
        memory > self.at
    }

    /// Whether a run was written.
    pub fn spilled(&self) -> bool {
        !self.runs.is_empty()
    }

    /// The scratch file runs are appended to (created with the first run).
    fn file(&mut self) -> Result<&mut BufWriter<Scratch>, Failed> {
        if self.file.is_none() {
            let s = self.dir.scratch().map_err(failed)?;
            self.file = Some(BufWriter::with_capacity(WRITE_BUF, s));
        }
        self.file.as_mut().ok_or(None)
    }

    /// Appends one run, whose records `fill` hands, in trigram order, to the writer it is given
    /// (trigram, last id, list: its first id coded as the gap from -1); the writer says false
    /// once a write failed, and `fill` false when something did not fit in the budget.
    pub fn append(
        &mut self,
        fill: impl FnOnce(&mut dyn FnMut(Trigram, u32, &[u8]) -> bool) -> bool,
    ) -> Result<(), Failed> {
        let start = self.end;
        let file = self.file()?;
        let (mut end, mut err) = (start, None);
        let mut put = |t: Trigram, last: u32, list: &[u8]| {
            let len = list.len() as u32;
            let wrote = [t, last, len]
                .iter()
                .try_for_each(|v| file.write_all(&v.to_le_bytes()))
                .and_then(|_| file.write_all(list));
            end += HEAD + list.len();
            err = wrote.err();
            err.is_none()
        };
        let filled = fill(&mut put);
        if let Some(e) = err {
            return Err(failed(e));
        }
        if !filled {
            return Err(None);
        }
        self.runs.push(start..end);
        self.end = end;
        Ok(())
    }

    /// Writes the lists of `parts` as one run and lets them go (each part left empty).
    pub fn run(&mut self, parts: &mut [Builder], budget: &Budget) -> Result<(), Failed> {
        let keys = Builder::sorted_keys(parts, budget).ok_or(None)?;
        let slots = Builder::slots(parts);
        let written = self.append(|put| {
            let mut out = Vec::new();
            Builder::drain(parts, &keys, budget, &mut out, |t, last, out, at| {
                let ok = put(t, last, &out[at.clone()]);
                budget.give(at.len());
                out.clear();
                ok
            })
        });
        budget.give(keys.capacity() * std::mem::size_of::<Trigram>());
        budget.give(slots);
        Builder::let_go(parts, budget);
        crate::core::memory::release_free_pages();
        written
    }

    /// The lists of every run merged into a mapped scratch file (the runs' file let go);
    /// `Err(None)` as soon as the budget's stop flag is raised (asked once a trigram).
    pub fn merge(mut self, budget: &Budget) -> Result<Postings, Failed> {
        let file = self.file.take().ok_or(None)?;
        let runs = file.into_inner().map_err(|e| failed(e.into_error()))?;
        let map = runs.map().map_err(failed)?;
        let mut heads: Vec<Cursor> = (self.runs.iter().cloned())
            .map(|r| Cursor { map: &map, at: r })
            .collect();
        let n = distinct(heads.clone(), budget).ok_or(None)?;
        let dict_memory = n.max(4) * 2 * DICT_SLOT;
        if !budget.take(dict_memory) {
            return Err(None);
        }
        let mut dict = HashMap::with_capacity(n);
        budget.give(dict_memory - dict.capacity() * DICT_SLOT);
        let out = self.dir.scratch().map_err(failed)?;
        let mut w = BufWriter::with_capacity(WRITE_BUF, out);
        let mut off = 0usize;
        while let Some(t) = heads.iter().filter_map(Cursor::trigram).min() {
            if budget.stopped() {
                return Err(None);
            }
            let len = concat(&mut heads, t, &mut w).map_err(failed)?;
            dict.insert(t, (off as u64, len as u32));
            off += len;
        }
        let out = w.into_inner().map_err(|e| failed(e.into_error()))?;
        drop(heads);
        drop((map, runs));
        let data = match off {
            0 => Data::Heap(Vec::new()),
            _ => Data::Mapped(Arc::new(out.map().map_err(failed)?), 0..off),
        };
        Ok(Postings::from_parts(dict, data))
    }
}

/// A run's records not read yet.
#[derive(Clone)]
struct Cursor<'m> {
    map: &'m Mapped,
    at: Range<usize>,
}

impl<'m> Cursor<'m> {
    fn u32_at(&self, i: usize) -> Option<u32> {
        let at = self.at.start + 4 * i;
        let b = self.map.get(at..at + 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }

    /// The trigram of the next record.
    fn trigram(&self) -> Option<Trigram> {
        (self.at.start < self.at.end).then(|| self.u32_at(0))?
    }

    /// The next record's last id and list; the cursor moves past it.
    fn take(&mut self) -> Option<(u32, &'m [u8])> {
        let rec = self.record();
        // A record that cannot be read (never: the file is this build's own) ends the run.
        self.at.start = rec.map_or(self.at.end, |r| r.2);
        rec.map(|(last, list, _)| (last, list))
    }

    fn record(&self) -> Option<(u32, &'m [u8], usize)> {
        let (last, len) = (self.u32_at(1)?, self.u32_at(2)? as usize);
        let (map, start): (&'m Mapped, usize) = (self.map, self.at.start + HEAD);
        Some((last, map.get(start..start.checked_add(len)?)?, start + len))
    }
}

/// How many trigrams the runs hold (each once); `None` once the budget's stop flag is raised.
fn distinct(mut heads: Vec<Cursor>, budget: &Budget) -> Option<usize> {
    let mut n = 0;
    while let Some(t) = heads.iter().filter_map(Cursor::trigram).min() {
        if budget.stopped() {
            return None;
        }
        n += 1;
        for h in heads.iter_mut().filter(|h| h.trigram() == Some(t)) {
            h.take();
        }
    }
    Some(n)
}

/// Writes trigram `t`'s list, its runs' lists in order (the runs' next records of `t`), to `w`:
/// the bytes written.
fn concat(heads: &mut [Cursor], t: Trigram, w: &mut impl Write) -> std::io::Result<usize> {
    let (mut last, mut len) = (None::<u32>, 0);
    let mut gap = Vec::with_capacity(5);
    for h in heads.iter_mut().filter(|h| h.trigram() == Some(t)) {
        let Some((end, list)) = h.take() else {
            continue;
        };
        // A run's list starts with its first id itself (the gap from -1).
        let (first, rest) = first_varint(list);
        let Some(prev) = last else {
            w.write_all(list)?;
            (last, len) = (Some(end), len + list.len());
            continue;
        };
        gap.clear();
        super::postings::put_varint(&mut gap, first.wrapping_sub(prev).wrapping_sub(1));
        w.write_all(&gap)?;
        w.write_all(rest)?;
        (last, len) = (Some(end), len + gap.len() + rest.len());
    }
    Ok(len)
}

/// The first LEB128 value of `list` and the bytes after it.
fn first_varint(list: &[u8]) -> (u32, &[u8]) {
    match super::postings::get_varint(list) {
        Some((v, n)) => (v, &list[n..]),
        // Not a list this build wrote: nothing of it is kept.
        None => (0, &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids spread over two builders, spilled every 400 ids, finish as the lists one builder makes
    /// of them all (same trigrams, same bytes), and the budget ends holding what the finished
    /// lists hold (the dictionary: the lists are mapped).
    #[test]
    fn runs_merge_into_the_lists_of_one() {
        let d = tempfile::tempdir().unwrap();
        let dir = crate::core::cache::open(d.path(), &[], &[], &[]).unwrap();
        let (all, mine) = (Budget::new(usize::MAX), Budget::new(usize::MAX));
        let mut spill = Spill::new(Some(&dir), usize::MAX).unwrap();
        let (mut one, mut parts) = (
            Builder::default(),
            vec![Builder::default(), Builder::default()],
        );
        let mut x: u64 = 3;
        for id in 0..3000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let tris: Vec<Trigram> = (0..8u32)
                .filter(|&k| (x >> (k * 5)).is_multiple_of(k as u64 + 2))
                .chain([1000 + (x >> 40) as u32 % 500])
                .collect();
            let masks: Vec<u8> = tris.iter().map(|&t| (x >> (t % 56)) as u8 | 1).collect();
            assert!(one.add(id * 131, &tris, &masks, &all));
            assert!(parts[(x >> 20) as usize % 2].add(id * 131, &tris, &masks, &mine));
            if id % 400 == 399 {
                spill.run(&mut parts, &mine).unwrap();
                assert_eq!(mine.used(), 0);
            }
        }
        spill.run(&mut parts, &mine).unwrap();
        let spilled = spill.merge(&mine).unwrap();
        assert_eq!(mine.used(), spilled.memory());
        assert!(spilled.mapped() > 0);
        let one = Builder::finish_all(vec![one], &all).unwrap();
        let ((d1, b1), (d2, b2)) = (one.parts(), spilled.parts());
        assert_eq!(d1.len(), d2.len());
        let list = |b: &[u8], (o, l): (u64, u32)| b[o as usize..o as usize + l as usize].to_vec();
        for (t, &span) in d1 {
            assert_eq!(list(b1, span), list(b2, d2[t]), "trigram {t}");
        }
    }

    /// The merge of the runs asks the build's stop flag (through its budget): raised once the
    /// runs are written, the merge ends with nothing (`Err(None)`, which the build reports as
    /// stopped) rather than merging every run first.
    #[test]
    fn the_merge_of_the_runs_ends_once_the_stop_flag_is_raised() {
        let d = tempfile::tempdir().unwrap();
        let dir = crate::core::cache::open(d.path(), &[], &[], &[]).unwrap();
        for raised in [false, true] {
            let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let all = Budget::new(usize::MAX).stopping(stop.clone());
            let mut spill = Spill::new(Some(&dir), usize::MAX).unwrap();
            for run in 0..3u32 {
                let mut parts = vec![Builder::default()];
                for id in run * 100..run * 100 + 100 {
                    let tris: Vec<Trigram> = (0..50).map(|k| (id + k * 11) % 700).collect();
                    assert!(parts[0].add(id, &tris, &vec![1; tris.len()], &all));
                }
                spill.run(&mut parts, &all).unwrap();
            }
            stop.store(raised, std::sync::atomic::Ordering::SeqCst);
            match (raised, spill.merge(&all)) {
                (false, Ok(p)) => assert!(!p.parts().0.is_empty()),
                (true, Err(None)) => {}
                (_, got) => panic!("raised {raised}: {:?}", got.map(|p| p.parts().0.len())),
            }
        }
    }
}
