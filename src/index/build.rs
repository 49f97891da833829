//! Building one root's table: the files the handle-bound walker yields (path order, the admission
//! gate, the policy's hidden/ignore defaults), each read once through the one open path, its byte
//! trigrams added to the posting lists. A file the index cannot describe gets no entry and is
//! therefore always searched: a file with a byte-order mark (the searcher transcodes it), more than
//! one hard link (another name can change it unseen), one that changed while it was read, one
//! changed so recently that a later change could keep the same timestamps ("racily clean"), one
//! over the size the build reads (`index_max_file_bytes`, or `max_filesize` if smaller: never
//! read), or one whose description would pass its share of the memory cap or
//! [`super::scan::MAX_FILE_TRIGRAMS`] distinct trigrams (reading stops there).
//!
//! Memory: every allocation the build makes for the table, the postings and the files being read
//! is taken from one [`Budget`] of `index_max_bytes` *before* it is made; when it does not fit,
//! the root is not indexed. So the build never holds more than the cap, whatever the files.

use super::budget::{grow, grow_map, Budget};
use super::entry::{stat_key as key, ID_SLOT, PATH_EXTRA};
use super::keys::UnitKeys;
use super::postings::{Builder, Data, Postings};
use super::reuse;
use super::scan::{scan, union, Room, Scan, ScanFacts};
pub(crate) use super::scan::{CHUNK, LONGEST_LINE};
use super::spill::{Failed, Spill};
use super::{Entry, RootIndex, StatKey};
use crate::core::admit::{NotAdmitted, RootId};
use crate::core::cache::CacheDir;
use crate::core::deadline::Deadline;
use crate::core::dirs::{self, Stat};
use crate::core::open::{Kind, Want};
use crate::core::sandbox::Sandbox;
use crate::index::life::Locked;
use crate::walk::{FoundFile, Walk, WalkSkips};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Files read in parallel per step of the walk (bounds the directory handles held).
const STEP: usize = 256;
/// A file changed this recently (seconds) is not described: its next change could keep its
/// timestamps.
pub(super) const RACY_SECS: i64 = 2;

/// The most a file's description may hold while it is read (its trigrams, chunk by chunk).
const SHARE_MAX: usize = 48 << 20;

/// A file's description, or why it gets none.
enum Fact {
    Described(StatKey, bool, super::scan::ScanFacts),
    None,
    /// The build's budget had no room to read it: the root is over its cap.
    NoRoom,
}

/// Whether a file is over the size the build reads, by its stat: a sparse file counts by its
/// size (reading it would read its holes).
fn over_size(st: &Stat, max_read: u64) -> bool {
    st.st_size as u64 > max_read
}

fn scan_one(f: &FoundFile, now: i64, sb: &Sandbox, root: RootId, room: &Room, by: &ReadBy) -> Fact {
    let opened = sb.open_found(root, &f.dir, Path::new(&f.name), &f.rel, Want::Read);
    let Ok(o) = opened else {
        return Fact::None;
    };
    if o.kind() != Kind::File || o.stat.st_nlink > 1 || over_size(&o.stat, room.max_read) {
        return Fact::None;
    }
    let before = key(&o.stat);
    if now - before.mtime.0.max(before.ctime.0) < RACY_SECS && !crate::core::mutant::on("racy") {
        return Fact::None;
    }
    let file = dirs::reader(o);
    let after = dirs::stat_fd(&file).ok();
    let Ok(reader) = file.try_clone() else {
        return Fact::None;
    };
    let facts = match scan(Counted { file: reader, by }, CHUNK, room) {
        Ok(Scan::Facts(facts)) => facts,
        Ok(Scan::NoRoom) => return Fact::NoRoom,
        Ok(Scan::Unbounded) | Err(_) => return Fact::None,
    };
    let after = dirs::stat_fd(&file).ok().or(after);
    if after.map(|a| key(&a)) == Some(before) && facts.describable() {
        Fact::Described(before, facts.nul, facts)
    } else {
        room.all.give(facts.held);
        Fact::None
    }
}

/// The reader of a file the index reads: it counts the bytes read (the status's `bytes_read`), and
/// fails once the index stops, so that a dropped sandbox does not wait for the rest of a large
/// file (up to `index_max_file_bytes`) to be read: the stop is seen between two reads.
struct Counted<'a, R> {
    file: R,
    by: &'a ReadBy<'a>,
}

/// Who reads for the index: the root (its canonical path), its stop flag, and the count of bytes
/// read (none for a description, which the status does not count).
struct ReadBy<'a> {
    canonical: &'a Path,
    stop: &'a AtomicBool,
    read: Option<&'a AtomicU64>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        super::life::slow_read_point(self.by.canonical);
        if self.by.stop.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("the index stopped"));
        }
        let n = self.file.read(buf)?;
        if let Some(read) = self.by.read {
            read.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }
}

/// A changed file described again, or why not.
pub(super) enum Description {
    Now(StatKey, bool, UnitKeys),
    /// Not yet: it changed in the last two seconds or while it was read, or the process was out
    /// of descriptors or memory to open it.
    Later,
    /// Not as it is: the build would give it no entry (not a regular file, more than one link, a
    /// byte-order mark), or it cannot be opened.
    Never,
}

/// Describes file `rel` of read root `root` again (a file reported changed since indexing),
/// opened from the root through the gate like any file: its stat, whether it holds a NUL byte and
/// its trigrams.
pub(super) fn describe(sb: &Sandbox, root: usize, rel: &Path, stop: &AtomicBool) -> Description {
    let Some(canonical) = sb.root_canonical(root) else {
        return Description::Never;
    };
    let o = match sb.open_in_root(RootId::Read(root), rel, Want::Read) {
        Ok(o) => o,
        // Out of descriptors or memory for a moment: not a fact about the file.
        Err(e) if e.is_transient() => return Description::Later,
        Err(_) => return Description::Never,
    };
    if o.kind() != Kind::File || o.stat.st_nlink > 1 {
        return Description::Never;
    }
    let before = key(&o.stat);
    let now = super::life::now_secs(canonical);
    if now - before.mtime.0.max(before.ctime.0) < RACY_SECS {
        return Description::Later;
    }
    // A changed file is read within the bounds of the build, alone.
    let all = Budget::new(usize::MAX);
    let room = Room {
        share: SHARE_MAX,
        all: &all,
        max_read: max_read(sb),
    };
    if over_size(&o.stat, room.max_read) {
        return Description::Never;
    }
    let file = dirs::reader(o);
    // A description of a changed file holds for the whole file (it is used in every mode).
    let scanned = file.try_clone().and_then(|file| {
        let by = ReadBy {
            canonical,
            stop,
            read: None,
        };
        scan(Counted { file, by: &by }, usize::MAX, &room)
    });
    let after = dirs::stat_fd(&file).map(|st| key(&st));
    match (scanned, after) {
        (Ok(Scan::Facts(facts)), _) if !facts.describable() => Description::Never,
        (Ok(Scan::Unbounded), _) => Description::Never,
        (Ok(Scan::Facts(facts)), Ok(after)) if after == before => {
            Description::Now(before, facts.nul, union(facts.chunks))
        }
        _ => Description::Later,
    }
}

/// The largest file the build reads: `index_max_file_bytes`, or `max_filesize` if smaller (no
/// search reads a larger file).
pub(super) fn max_read(sb: &Sandbox) -> u64 {
    let l = &sb.policy().limits;
    l.index_max_file_bytes.min(l.max_filesize)
}

/// Progress of a build, for the status.
#[derive(Default)]
pub(super) struct Progress {
    pub files: AtomicU64,
    /// Bytes read from files so far.
    pub bytes_read: AtomicU64,
    /// Why the root is being indexed again, when it was indexed before.
    pub again: Option<String>,
}

/// The table as files are added (each as its scan ends, under a lock). Its postings are built
/// beside it, one [`Builder`] per reading thread: the lists' lookups and growth (most of a
/// build's work) then run on every thread at once rather than one at a time under this lock.
#[derive(Default)]
struct Table {
    ids: HashMap<PathBuf, u32>,
    entries: Vec<Entry>,
    /// The file of each unit of the postings (a file's chunks are units in a row).
    unit_file: Vec<u32>,
    /// The file offset each unit starts at.
    unit_start: Vec<u64>,
    path_bytes: usize,
}

impl Table {
    /// Adds a described file of chunks starting at `starts`, taking every growth from `all`: the
    /// id of its first unit (the others follow it), or `None` when one does not fit.
    fn add(
        &mut self,
        rel: &Path,
        stat: StatKey,
        nul: bool,
        starts: &[u64],
        all: &Budget,
    ) -> Option<u32> {
        let (id, first) = (self.entries.len() as u32, self.unit_file.len() as u32);
        for &start in starts {
            if !grow(&mut self.unit_file, all) || !grow(&mut self.unit_start, all) {
                return None;
            }
            self.unit_file.push(id);
            self.unit_start.push(start);
        }
        let path = rel.as_os_str().len() + PATH_EXTRA;
        if !grow(&mut self.entries, all)
            || !grow_map(&mut self.ids, ID_SLOT, all)
            || !all.take(path)
        {
            return None;
        }
        self.path_bytes += path;
        self.ids.insert(rel.to_path_buf(), id);
        self.entries.push(Entry { stat, nul });
        Some(first)
    }
}

/// Files read at once by `threads` each get an equal share of a quarter of the cap `cap` for
/// their trigrams (a file over its share gets no entry: the share is part of a saved index's
/// policy, so that an entry taken from one is what this build would make).
pub(super) fn share(cap: usize, threads: usize) -> usize {
    (cap / 4 / threads.max(1)).min(SHARE_MAX)
}

/// The threads a build reads with: the search pool's.
pub(super) fn threads(sb: &Sandbox) -> usize {
    match sb.policy().limits.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Adds a described file to the table and its chunks' trigrams to `post`. The caller holds
/// `post`'s lock across both, so the units `post` gets are ascending whichever threads share it.
fn add_file(
    table: &Mutex<Table>,
    post: &mut Builder,
    rel: &Path,
    (stat, nul, facts): (StatKey, bool, &ScanFacts),
    all: &Budget,
) -> bool {
    let chunks = &facts.chunks;
    let Some(first) = table.locked().add(rel, stat, nul, &facts.starts, all) else {
        return false;
    };
    (first..)
        .zip(chunks)
        .all(|(unit, c)| post.add(unit, &c.keys, &c.masks, all))
}

/// Builds root `root`'s index within the policy's `index_max_bytes`, its lists spilled to
/// `spill` when there is one ([`super::spill`]); `Err` says why the root is not indexed.
pub(super) fn build_root(
    sb: &Sandbox,
    root: usize,
    pool: &rayon::ThreadPool,
    spill: Option<&CacheDir>,
    progress: &Progress,
    stop: &std::sync::Arc<AtomicBool>,
    prior: Option<&RootIndex>,
) -> Result<RootIndex, String> {
    let fd = match sb.admit_root(root) {
        Err(NotAdmitted::Refused) => return Err("the root is denied".into()),
        r => r.map_err(|e| format!("the root cannot be opened: {}", e.into_io()))?,
    };
    let filter = crate::walk::Filter {
        hidden: sb.policy().hidden,
        no_ignore: sb.policy().no_ignore,
        ..Default::default()
    };
    // The build has no time limit of its own: the memory cap bounds it. It ends when the host's
    // last sandbox goes (`stop`).
    let deadline = Deadline::detached(Duration::from_secs(u32::MAX as u64)).with_stop(stop.clone());
    let walk = Walk {
        sandbox: sb,
        root: RootId::Read(root),
        filter: &filter,
        deadline: Some(&deadline),
        resume_after: None,
        hook: None,
    };
    let max_bytes = sb.policy().limits.index_max_bytes;
    let all = Budget::new(usize::try_from(max_bytes).unwrap_or(usize::MAX)).stopping(stop.clone());
    let mut spill = Spill::new(spill, all.cap());
    let mut spill_err = None;
    let room = Room {
        share: share(all.cap(), pool.current_num_threads()),
        all: &all,
        max_read: max_read(sb),
    };
    let table = Mutex::new(Table::default());
    let posts: Vec<Mutex<Builder>> = (0..pool.current_num_threads().max(1))
        .map(|_| Mutex::default())
        .collect();
    let over = AtomicBool::new(false);
    let mut batch: Vec<FoundFile> = Vec::new();
    // Entries of `prior` that still describe their files (`reuse`): not read again.
    let kept = Mutex::new(Vec::new());
    let canonical = sb.root_canonical(root).unwrap_or(Path::new(""));
    let now = || super::life::now_secs(canonical);
    let add = |f: &FoundFile, t: i64| {
        if over.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            return;
        }
        super::life::slow_point(canonical);
        if let Some(id) = prior.and_then(|p| super::reuse::unchanged(p, f)) {
            kept.locked().push(id);
            progress.files.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let by = ReadBy {
            canonical,
            stop,
            read: Some(&progress.bytes_read),
        };
        let fact = scan_one(f, t, sb, RootId::Read(root), &room, &by);
        progress.files.fetch_add(1, Ordering::Relaxed);
        let fits = match fact {
            Fact::None => true,
            Fact::NoRoom => false,
            Fact::Described(stat, nul, facts) => {
                // The reading thread's own lists (uncontended); any would be correct.
                let mine = rayon::current_thread_index().unwrap_or(0) % posts.len();
                let mut post = posts[mine].locked();
                let fits = add_file(&table, &mut post, &f.rel, (stat, nul, &facts), &all);
                drop(post);
                let held = facts.held;
                drop(facts);
                all.give(held);
                fits
            }
        };
        if !fits {
            over.store(true, Ordering::Relaxed);
        }
    };
    let mut flush = |batch: &mut Vec<FoundFile>| {
        let t = now();
        pool.install(|| std::mem::take(batch).par_iter().for_each(|f| add(f, t)));
        if spill_err.is_none() {
            spill_err = spill_due(spill.as_mut(), &posts, &all).err();
        }
        spill_err.is_none() && !over.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed)
    };
    let mut on_file = |f: FoundFile, _: &mut WalkSkips| {
        batch.push(f);
        batch.len() < STEP || flush(&mut batch)
    };
    let (_end, _) = walk.run(fd, PathBuf::new(), None, &mut on_file);
    flush(&mut batch);
    if stop.load(Ordering::Relaxed) {
        return Err(STOPPED.into());
    }
    let over_cap = || format!("over index_max_bytes ({max_bytes})");
    if let Some(why) = spill_err {
        return Err(why.unwrap_or_else(over_cap));
    }
    let t = table
        .into_inner()
        .map_err(|_| "a build thread panicked".to_string())?;
    let bytes_read = progress.bytes_read.load(Ordering::Relaxed);
    if over.load(Ordering::Relaxed) {
        return Err(over_cap());
    }
    let kept = prior.map(|p| (p, kept.into_inner().unwrap_or_default()));
    let ri = assemble(t, posts, spill, kept, &all, bytes_read)
        .map_err(|e| e.unwrap_or_else(over_cap))?;
    Ok(ri.with_room(max_bytes))
}

/// Spills the reading threads' lists `posts` when they are due: called between steps of the
/// walk, when no thread adds to them, so they are spilled whole.
fn spill_due(
    spill: Option<&mut Spill>,
    posts: &[Mutex<Builder>],
    all: &Budget,
) -> Result<(), Failed> {
    let Some(s) = spill.filter(|s| s.due(memory(posts))) else {
        return Ok(());
    };
    let mut parts: Vec<Builder> = posts
        .iter()
        .map(|p| std::mem::take(&mut *p.locked()))
        .collect();
    s.run(&mut parts, all)
}

/// Bytes the reading threads' lists hold.
fn memory(posts: &[Mutex<Builder>]) -> usize {
    posts.iter().map(|p| p.locked().memory()).sum()
}

/// Why a build ended without an index when the host's last sandbox went.
const STOPPED: &str = "stopped: the sandbox was let go";

/// The root's index from the build's table and its threads' posting lists (with the runs of
/// `spill`, when it wrote any), and the entries of a loaded index it kept (`prior`: the index
/// and the ids kept); `Err(None)` when finishing the lists would pass the budget `all`,
/// `Err(Some(why))` when the runs could not be read or written, or [`STOPPED`] when `all`'s
/// stop flag was raised: the merges ask it once a list, so a drop does not wait for them.
fn assemble(
    t: Table,
    posts: Vec<Mutex<Builder>>,
    spill: Option<Spill>,
    prior: Option<(&RootIndex, Vec<u32>)>,
    all: &Budget,
    bytes_read: u64,
) -> Result<RootIndex, Failed> {
    let posts: Vec<Builder> = posts
        .into_iter()
        .map(|p| p.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    let mut ri = RootIndex {
        serial: next_serial(),
        ids: t.ids,
        entries: t.entries,
        unit_file: t.unit_file,
        unit_start: t.unit_start,
        postings: Postings::from_parts(HashMap::new(), Data::Heap(Vec::new())),
        path_bytes: t.path_bytes,
        evaluated: Mutex::default(),
        masks: Mutex::default(),
        describe_room: 0,
        built: super::Built {
            peak: 0,
            bytes_read,
        },
    };
    let stopped = |e: Failed| match all.stopped() {
        true => Some(STOPPED.to_string()),
        false => e,
    };
    let kept = match prior {
        Some((p, ids)) if !ids.is_empty() => Some(reuse::keep(&mut ri, p, ids, all).ok_or(None)?),
        _ => None,
    };
    ri.postings = finish(posts, spill, kept.as_ref(), all).map_err(stopped)?;
    drop(kept);
    ri.built.peak = all.peak() as u64;
    Ok(ri)
}

/// The finished lists of the files read (the reading threads' `posts`) followed by the `kept`
/// entries' lists, the same way after a load as after none: with a cache directory, once they
/// are more than a spill's bound (or some were spilled already), as runs merged into a mapped
/// scratch file; otherwise on the heap.
fn finish(
    mut posts: Vec<Builder>,
    spill: Option<Spill>,
    kept: Option<&reuse::Kept>,
    all: &Budget,
) -> Result<Postings, Failed> {
    let held = posts.iter().map(Builder::memory).sum::<usize>() + kept.map_or(0, |k| k.bytes());
    if let Some(mut s) = spill.filter(|s| s.spilled() || s.due(held)) {
        s.run(&mut posts, all)?;
        if let Some(k) = kept {
            s.append(|put| k.each(put))?;
        }
        return s.merge(all);
    }
    let read = Builder::finish_all(posts, all).ok_or(None)?;
    match kept {
        Some(k) => reuse::merge_lists(read, k, all).ok_or(None),
        None => Ok(read),
    }
}

/// A number no other index of the process has.
pub(super) fn next_serial() -> u64 {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    SERIAL.fetch_add(1, Ordering::Relaxed)
}

impl RootIndex {
    /// Changed files described again share the cap with the index: a quarter of the index's
    /// memory (at least 16 MiB), and never more than the cap leaves.
    pub(super) fn with_room(mut self, max_bytes: u64) -> RootIndex {
        let mem = self.memory();
        self.describe_room = (mem / 4)
            .max(16 << 20)
            .min((max_bytes as usize).saturating_sub(mem));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Reading threads' lists: `files` ids over `parts` builders, a few hundred trigrams each.
    fn posts(parts: usize, files: u32, all: &Budget) -> Vec<Mutex<Builder>> {
        let mut b: Vec<Builder> = (0..parts).map(|_| Builder::default()).collect();
        for id in 0..files {
            let tris: Vec<u32> = (0..200).map(|k| (id * 7 + k * 13) % 5000).collect();
            let masks = vec![1u8; tris.len()];
            assert!(b[id as usize % parts].add(id, &tris, &masks, all));
        }
        b.into_iter().map(Mutex::new).collect()
    }

    /// The final merge asks the build's stop flag: raised before it (the host's last sandbox
    /// went as the last files were read), the merge ends with the build's stopped outcome, on
    /// the heap and through spilled runs alike, instead of merging every list first. The same
    /// lists with the flag down finish (the control).
    #[test]
    fn the_final_merge_ends_stopped_once_the_flag_is_raised() {
        let d = tempfile::tempdir().unwrap();
        let dir = crate::core::cache::open(d.path(), &[], &[], &[]).unwrap();
        for spilled in [false, true] {
            for raised in [false, true] {
                let stop = Arc::new(AtomicBool::new(false));
                let all = Budget::new(usize::MAX).stopping(stop.clone());
                let mut spill = if spilled {
                    // One run written while the walk went on, the rest left for the end.
                    let mut s = Spill::new(Some(&dir), usize::MAX).unwrap();
                    let mut first: Vec<Builder> = posts(2, 300, &all)
                        .into_iter()
                        .map(|m| m.into_inner().unwrap())
                        .collect();
                    s.run(&mut first, &all).unwrap();
                    Some(s)
                } else {
                    None
                };
                let rest = posts(2, 600, &all);
                stop.store(raised, Ordering::SeqCst);
                let got = assemble(Table::default(), rest, spill.take(), None, &all, 0);
                match (raised, got) {
                    (false, Ok(ri)) => assert_eq!(ri.postings.parts().0.len(), 5000),
                    (true, Err(Some(why))) => assert_eq!(why, STOPPED),
                    (_, got) => panic!(
                        "spilled {spilled}, stop raised {raised}: {:?}",
                        got.map(|ri| ri.postings.parts().0.len())
                    ),
                }
            }
        }
    }
}
