//! An opt-in n-gram index that only prunes which files a grep need not open.
//!
//! `query`: what a pattern requires (pure). `build`: one root's table, from the handle-bound walker
//! with the admission gate (a denied file gets no entry and no postings). `postings`: the lists.
//!
//! The index never decides what is visible: grep still walks as it always does, and asks the index
//! only about the files its own walk yields ([`Pruner::verdict`]). A file is passed over unopened
//! only when it has an entry, the query does not hold on its trigrams, and a `statat` through its
//! directory's handle shows the same (device, inode, size, mtime, ctime) as when it was indexed;
//! every other file is searched as without an index. The pruned file's outcome is the one the
//! unindexed search would have recorded for a file without a match: `too_large` when over
//! `max_filesize`, `binary` when it holds a NUL byte, else searched.

use crate::core::handle::Handle;
use crate::core::sandbox::Sandbox;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

mod arena;
mod budget;
mod build;
mod chunks;
mod entry;
mod life;
mod options;
mod resave;
mod reuse;
mod snapshot;
mod status;
#[doc(hidden)]
pub use life::{
    index_age_at, index_fault_at, index_held, index_hold_at, index_slow_at, index_slow_reads_at,
    index_threads_ended, index_threads_live, IndexPoint,
};
pub(crate) use life::{Locked, Owner};
pub use options::{IndexDir, IndexOptions, IndexVerify, IndexWhen};
pub use status::{IndexState, IndexStatus};
pub(crate) mod keys;
pub(crate) mod postings;
#[cfg(test)]
mod prune_sim;
pub(crate) mod query;
pub(crate) mod replay;
mod scan;
mod seen;
mod spill;

#[cfg(test)]
pub(crate) use scan::scan_all;
pub(crate) use scan::CHUNK;

pub(crate) use query::{hir_query, TriQuery};

/// What a file looked like when indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StatKey {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, u32),
    ctime: (i64, u32),
}

/// One indexed file.
pub(crate) struct Entry {
    stat: StatKey,
    /// It holds a NUL byte (a search without a match stops there: `binary`).
    nul: bool,
}

/// One root's table and postings.
pub(crate) struct RootIndex {
    /// Which build of which root this is, unique in the process: file ids are an index's own.
    serial: u64,
    ids: HashMap<PathBuf, u32>,
    entries: Vec<Entry>,
    /// The file of each unit of the postings: a file is one unit, or one per chunk
    /// (`build::CHUNK`).
    unit_file: Vec<u32>,
    /// The file offset each unit starts at (a file's first at 0; [`scan::ScanFacts::starts`]).
    unit_start: Vec<u64>,
    postings: postings::Postings,
    path_bytes: usize,
    /// The last queries evaluated, newest first: a cursor walk asks the same query once a page,
    /// and decoding the postings of common trigrams costs more than a page of a selective query.
    evaluated: Mutex<Vec<(QueryKey, Evaluated)>>,
    /// The last replay masks computed, newest first, by query and the version of the changed
    /// files ([`replay::Replay::version`]): a cursor walk replays once a page.
    masks: Mutex<Vec<MaskMemo>>,
    /// The memory changed files described again may take (`replay::redescribe`).
    describe_room: usize,
    built: Built,
}

/// What the build of a root's index took.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Built {
    /// The most memory it held at once, as accounted (never over `index_max_bytes`).
    pub peak: u64,
    /// Bytes it read from files.
    pub bytes_read: u64,
}

/// A query, and whether the search is line-oriented (see [`RootIndex::evaluate`]).
type QueryKey = (TriQuery, bool);

/// The files (one bit each) a query holds on and, when the search is line-oriented and some file
/// is in chunks, the units (chunks) it holds on ([`chunks`]).
type Evaluated = (Arc<Vec<u64>>, Option<Arc<Vec<u64>>>);

/// A replay mask, the query and the version of the changed files it was computed for.
type MaskMemo = (QueryKey, (u64, u64), Arc<ReplayMask>);

/// A root's ready index, the files (one bit each) a query holds on, and the units if in chunks
/// ([`Evaluated`]).
type Served = (Arc<RootIndex>, Arc<Vec<u64>>, Option<Arc<Vec<u64>>>);

/// Queries whose file sets (and replay masks) a root index keeps, at most
/// ([`RootIndex::evaluate`], [`Pruner::replay_mask`]): a session's repeated searches (an agent
/// returns to the same few patterns, and pages each of them) find theirs. With 16, a cycle of 24
/// queries found none.
const EVALUATED: usize = 64;

/// The bytes each of those memos holds, at most, the newest entry always kept: on a tree of a
/// million files one query's file set alone is 125 KB.
const EVALUATED_BYTES: usize = 8 << 20;

/// Keeps the newest entries of `memo` (newest first) within [`EVALUATED`] and
/// [`EVALUATED_BYTES`], by each entry's `bytes`.
fn trim_memo<T>(memo: &mut Vec<T>, bytes: impl Fn(&T) -> usize) {
    let mut total = 0;
    let keep = memo
        .iter()
        .take(EVALUATED)
        .position(|e| {
            total += bytes(e);
            total > EVALUATED_BYTES
        })
        .unwrap_or(EVALUATED.min(memo.len()))
        .max(1);
    memo.truncate(keep);
}

impl RootIndex {
    /// The files of [`RootIndex::evaluate`] (tests).
    #[cfg(test)]
    fn files_for(&self, q: &TriQuery, lines: bool) -> Arc<Vec<u64>> {
        self.evaluate(q, lines, &|| false).0
    }

    /// The files (one bit each) that may hold a match of `q`: with `lines` (a line-oriented
    /// search, whose match lies within one line) those with a chunk whose trigrams satisfy `q`;
    /// otherwise those whose trigrams, all chunks together, do. With `lines`, when some file is
    /// in chunks, also the units (chunks) that may hold one ([`chunks`]). An evaluation `stop`
    /// cut short (see [`postings::Postings::eval`]) prunes less and is not kept.
    fn evaluate(&self, q: &TriQuery, lines: bool, stop: postings::Stop) -> Evaluated {
        let key = (q.clone(), lines);
        let mut memo = self.evaluated.locked();
        if let Some(i) = memo.iter().position(|(k, _)| *k == key) {
            let hit = memo.remove(i);
            let found = hit.1.clone();
            memo.insert(0, hit);
            return found;
        }
        drop(memo);
        let n = self.entries.len();
        let chunked = self.unit_file.len() != n;
        let mut units = None;
        let bits = if !chunked {
            self.postings.eval(q, n, None, stop)
        } else if lines {
            units = self
                .postings
                .eval(q, self.unit_file.len(), None, stop)
                .map(Arc::new);
            units.as_deref().map(|u| self.files_of(u))
        } else {
            self.postings.eval(q, n, Some(&self.unit_file), stop)
        };
        let bits = Arc::new(bits.unwrap_or_else(|| vec![u64::MAX; n.div_ceil(64)]));
        let found = (bits, units);
        // Stopping is for good (a deadline passed stays passed, a cancellation stays): asked
        // after the evaluation, it says whether any part of it was cut short.
        if stop() {
            return found;
        }
        let mut memo = self.evaluated.locked();
        memo.insert(0, (key, found.clone()));
        trim_memo(&mut memo, |(_, (bits, units))| {
            8 * (bits.len() + units.as_ref().map_or(0, |u| u.len()))
        });
        found
    }

    /// The files of the units set in `units`.
    fn files_of(&self, units: &[u64]) -> Vec<u64> {
        let mut files = vec![0u64; self.entries.len().div_ceil(64)];
        for (w, &word) in units.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let u = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if let Some(&f) = self.unit_file.get(u) {
                    files[f as usize / 64] |= 1 << (f % 64);
                }
            }
        }
        files
    }

    fn memory(&self) -> usize {
        self.postings.memory()
            + self.path_bytes
            + self.ids.capacity() * entry::ID_SLOT
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.unit_file.capacity() * 4
            + self.unit_start.capacity() * 8
    }
}

enum State {
    Building(Arc<build::Progress>),
    Ready(Arc<RootIndex>),
    /// Loaded from the saved index, served as in strict mode while the root is built again
    /// (`snapshot`).
    Refreshing(Arc<RootIndex>, Arc<build::Progress>),
    Off(String),
}

impl State {
    /// The index that serves queries, if any.
    fn serving(&self) -> Option<&Arc<RootIndex>> {
        match self {
            State::Ready(ri) | State::Refreshing(ri, _) => Some(ri),
            _ => None,
        }
    }
}

/// The index of a sandbox's roots (shared by its clones).
pub(crate) struct Index {
    roots: Vec<(PathBuf, Mutex<State>)>,
    /// Per root (same order): change reports and recorded walks, or why there are none.
    live: Vec<Result<Mutex<replay::Live>, String>>,
    /// Raised when the host's last sandbox goes ([`life::Owner`]): background work ends.
    stop: Arc<std::sync::atomic::AtomicBool>,
    /// Where roots' indexes are saved, or why they are not (`None`: not asked).
    cache: Option<Result<crate::core::cache::CacheDir, String>>,
    /// Per root (same order): what became of its saved index (status `snapshot`).
    saved: Vec<Mutex<Option<String>>>,
    /// What each root's last save holds, to save it again after changes (`resave`).
    resave: Mutex<resave::Saved>,
    /// The sandbox whose roots these are (the host's, as the index was started). Work a query
    /// starts in the background (a save after changes, a build again past the changed-set cap)
    /// walks its roots, never the querying sandbox's: a query may come through tools narrowed by
    /// a client's roots (`--client-roots`), whose root `i` is another directory than index root
    /// `i`, or none.
    sandbox: Sandbox,
}

/// What the index used for one grep reports (`stats.index`).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub struct IndexStats {
    /// Roots searched with a ready index.
    pub roots_indexed: u64,
    /// Files passed over unopened: indexed, unchanged, and without the trigrams every match holds.
    /// They are counted in `files_searched` (or `skipped.binary` / `skipped.too_large`) exactly as
    /// the unindexed search counts them.
    pub files_pruned: u64,
    /// Start directories whose walk was replayed from the index's file list (no directory read,
    /// no file statted but those searched), because no change since it was recorded could alter it.
    pub walks_replayed: u64,
    /// Chunks of large files (32 KiB of whole lines each: `scan::CHUNK`) not read: the file was
    /// searched in the chunks that may hold a match only (`files_with_matches`, `count`). The
    /// file is counted as searched, as without the index.
    #[serde(default)]
    pub chunks_pruned: u64,
}

/// Builds the index of each of `roots` that is building, one after the other, in a thread of its
/// own with a pool of its own (as many threads as the search pool), all at the lowest scheduling
/// priority. A root whose index is put in place starts its change reports afresh
/// ([`replay::Live::renew`]).
fn build_in_background(sb: Sandbox, index: Arc<Index>, roots: Vec<usize>) -> std::io::Result<()> {
    let held = index.clone();
    let threads = build::threads(&sb);
    let on = roots.clone();
    life::spawn(
        "rootbound-index",
        index,
        roots.clone(),
        move || {
            let index = &*held;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("rootbound-index-{i}"))
                .start_handler(|_| {
                    std::mem::forget(life::Alive::new());
                    let _ = rustix::process::setpriority_process(None, 19);
                })
                .exit_handler(|_| drop(life::Alive))
                .build();
            for &i in &on {
                snapshot::load_one(&sb, index, i);
            }
            for i in on {
                build_one(&sb, index, i, &pool);
            }
        },
        |_| {},
    )
}

/// Builds index root `i` if it is building, and puts the outcome in place.
fn build_one(
    sb: &Sandbox,
    index: &Index,
    i: usize,
    pool: &Result<rayon::ThreadPool, rayon::ThreadPoolBuildError>,
) {
    let Some((canonical, state)) = index.roots.get(i) else {
        return;
    };
    // A loaded index's entries are taken for the files it still describes (`reuse`).
    let (progress, prior) = match &*state.locked() {
        State::Building(p) => (p.clone(), None),
        State::Refreshing(ri, p) => (p.clone(), Some(ri.clone())),
        _ => return,
    };
    if index.stop.load(std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    life::fault_point(canonical);
    let next = match pool {
        Ok(pool) => {
            let spill = index.cache.as_ref().and_then(|c| c.as_ref().ok());
            match build::build_root(sb, i, pool, spill, &progress, &index.stop, prior.as_deref()) {
                Ok(r) => match save(sb, index, i, r) {
                    Ok(r) => {
                        if let Some(Ok(live)) = index.live.get(i) {
                            live.locked().renew(&r);
                        }
                        resave::saved(index, i, r.serial);
                        State::Ready(Arc::new(r))
                    }
                    Err(why) => State::Off(why),
                },
                Err(why) => State::Off(why),
            }
        }
        Err(e) => State::Off(format!("no build threads: {e}")),
    };
    *state.locked() = next;
    // The build's lists and reads are freed now; without this glibc keeps their pages.
    crate::core::memory::release_free_pages();
}

/// Saves root `i`'s index `r`, just built; one that was not saved gets its lists on the heap
/// ([`snapshot::unmapped`]): `Err` why the root is off.
fn save(sb: &Sandbox, index: &Index, i: usize, r: RootIndex) -> Result<RootIndex, String> {
    match snapshot::save_one(sb, index, i, r, "saved") {
        (r, true) => Ok(r),
        (r, false) => snapshot::unmapped(r, sb.policy().limits.index_max_bytes),
    }
}

/// Why a root that is not on an events-reporting filesystem gets no change reports.
const NO_EVENTS: &str =
    "its filesystem does not report every change (network, FUSE, overlay or unknown)";

/// Starts building an n-gram index of every root of `sb` in the background (see
/// [`crate::Sandbox::with_index_options`]) and returns its owner: the host's sandboxes hold it, and
/// dropping the last one stops the background work.
pub(crate) fn start(sb: &Sandbox, options: IndexOptions) -> Arc<Owner> {
    let reliable: Vec<bool> = (0..sb.read_root_count())
        .map(|i| sb.root_events_reliable(i))
        .collect();
    let shared = Arc::new(Index {
        roots: (0..sb.read_root_count())
            .filter_map(|i| sb.root_canonical(i))
            .zip(&reliable)
            .map(|(canonical, &reliable)| {
                let state = if options.when == IndexWhen::Auto && !reliable {
                    State::Off(format!("index = auto: {NO_EVENTS}"))
                } else {
                    State::Building(Arc::default())
                };
                (canonical.to_path_buf(), Mutex::new(state))
            })
            .collect(),
        live: reliable
            .iter()
            .map(|&reliable| match options.verify {
                IndexVerify::Strict => Err("index_verify = strict: every query walks and \
                    checks each pruned file's metadata"
                    .to_string()),
                IndexVerify::Events if !reliable => Err(NO_EVENTS.to_string()),
                IndexVerify::Events => replay::Live::new().map(Mutex::new),
            })
            .collect(),
        stop: Arc::default(),
        cache: snapshot::cache_dir(sb, &options.dir, &options.outside),
        saved: (0..sb.read_root_count())
            .map(|_| Mutex::default())
            .collect(),
        resave: Mutex::default(),
        sandbox: sb.clone(),
    });
    let owner = Arc::new(Owner::new(shared.clone()));
    let all = (0..shared.roots.len()).collect();
    if let Err(e) = build_in_background(sb.clone(), shared.clone(), all) {
        for (_, s) in &shared.roots {
            *s.locked() = State::Off(format!("no build thread: {e}"));
        }
    }
    owner
}

impl Index {
    /// The pruner for query `q` over this sandbox's roots, when some root's index is ready and the
    /// query requires something. Its evaluation asks `stop` (the call's deadline and
    /// cancellation) before each list it reads: a call out of time prunes less, never wrongly.
    pub(crate) fn pruner(
        self: &Arc<Self>,
        sb: &Sandbox,
        q: &TriQuery,
        reading: Reading,
        stop: postings::Stop,
    ) -> Option<Pruner> {
        let lines = !reading.whole;
        if q.is_all() {
            return None;
        }
        let index = &**self;
        // Changes absorbed since the last save are saved once they settle.
        resave::poke(self);
        let roots: Vec<Option<Served>> = (0..sb.read_root_count())
            .map(|i| {
                let canonical = sb.root_canonical(i)?;
                let (_, s) = index.roots.iter().find(|(c, _)| c == canonical)?;
                let ri = s.locked().serving()?.clone();
                let (bits, units) = ri.evaluate(q, lines, stop);
                Some((ri, bits, units))
            })
            .collect();
        let indexed = roots.iter().filter(|r| r.is_some()).count() as u64;
        // Stopping is for good: not stopped now, no evaluation above was cut short.
        let whole = !stop();
        (indexed > 0).then_some(Pruner {
            query: q.clone(),
            lines,
            reading,
            roots,
            indexed,
            whole,
            replayed: Default::default(),
            chunks_pruned: Default::default(),
            index: self.clone(),
        })
    }
}

/// Which of a query's files need not be opened.
pub(crate) struct Pruner {
    query: TriQuery,
    /// A line-oriented search (a match lies within one line: see [`RootIndex::evaluate`]).
    lines: bool,
    reading: Reading,
    roots: Vec<Option<Served>>,
    indexed: u64,
    /// No evaluation of `roots` was cut short: replay masks made from them may be kept (one made
    /// from a cut evaluation would search every file for every later call that found it).
    whole: bool,
    replayed: std::sync::atomic::AtomicU64,
    /// Chunks not read so far ([`IndexStats::chunks_pruned`]).
    chunks_pruned: std::sync::atomic::AtomicU64,
    /// The index it prunes with (a call holds it, not its owner: see `life`).
    index: Arc<Index>,
}

/// The files of one replay that must be searched (one bit per entry), and what the search would
/// record for the changed files described again that may be passed over.
pub(crate) struct ReplayMask {
    search: Vec<u64>,
    /// The entries `again` holds (a bit test spares the other files a hash lookup).
    described: Vec<u64>,
    again: HashMap<u32, NoMatch>,
    /// Files without an entry, described since, that may be passed over (by path).
    unindexed: HashMap<PathBuf, NoMatch>,
}

/// What the index knows of a file without a match, how the search reads files, and what it
/// then records: the search's own rule ([`crate::walk::outcome`]), never restated here.
pub(crate) use crate::walk::outcome::{NoMatch, Reading, Vouched};

impl ReplayMask {
    /// The bytes it holds, about: its bits, and a hash entry per file described again.
    fn memory(&self) -> usize {
        8 * (self.search.len() + self.described.len())
            + self.again.capacity() * 32
            + self
                .unindexed
                .keys()
                .map(|p| 64 + p.as_os_str().len())
                .sum::<usize>()
    }
}

impl Pruner {
    /// The index's recorded walk of root `root` from `rel` (see [`replay::index_replay`]).
    pub(crate) fn index_replay(
        &self,
        sb: &Sandbox,
        root: usize,
        rel: &Path,
        filter: &crate::walk::Filter,
    ) -> Option<replay::Replay> {
        replay::index_replay(sb, &self.index, root, rel, filter)
    }

    /// Roots with a ready index.
    pub fn roots_indexed(&self) -> u64 {
        self.indexed
    }

    /// Start directories whose walk was replayed so far.
    pub fn walks_replayed(&self) -> u64 {
        self.replayed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Counts one replayed walk.
    pub fn replayed_one(&self) {
        self.replayed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// What a replay of root `root` may pass over: every entry the query cannot rule out, or that
    /// changed since it was indexed (`changed`), must be searched, except a changed file described
    /// again since (`redescribed`) on which the query does not hold. Computed once a replay, so that
    /// each replayed file costs one bit test, not a path hash.
    pub fn replay_mask(&self, root: usize, rp: &replay::Replay) -> Option<Arc<ReplayMask>> {
        let (ri, bits, _) = self.roots.get(root)?.as_ref()?;
        if rp.serial != ri.serial {
            // Recorded against another index of the root than the one this call holds.
            return None;
        }
        let mut memo = ri.masks.locked();
        if let Some(i) = memo
            .iter()
            .position(|(q, v, _)| *v == rp.version && q.0 == self.query && q.1 == self.lines)
        {
            let hit = memo.remove(i);
            let mask = hit.2.clone();
            memo.insert(0, hit);
            return Some(mask);
        }
        let (changed, redescribed) = (rp.changed.as_ref(), rp.redescribed.as_ref());
        let mut search = bits.as_ref().clone();
        let mut set = |id: usize, on: bool| {
            if let Some(w) = search.get_mut(id / 64) {
                if on {
                    *w |= 1 << (id % 64);
                } else {
                    *w &= !(1 << (id % 64));
                }
            }
        };
        let mut again = HashMap::new();
        let mut unindexed = HashMap::new();
        for (p, r) in redescribed {
            let holds = self.query.eval_masked(&|t| r.tris.mask(t));
            let Some(&id) = ri.ids.get(p) else {
                // A file described and changed since is in `changed` only.
                if !holds && !changed.contains_key(p) {
                    unindexed.insert(p.clone(), r.no_match());
                }
                continue;
            };
            set(id as usize, holds);
            if !holds {
                again.insert(id, r.no_match());
            }
        }
        let masked = changed
            .keys()
            .filter(|_| !crate::core::mutant::on("mask_changed"));
        for &id in masked.filter_map(|p| ri.ids.get(p)) {
            set(id as usize, true);
            again.remove(&id);
        }
        let mut described = vec![0u64; search.len()];
        for &id in again.keys() {
            let id = id as usize;
            described[id / 64] |= 1 << (id % 64);
        }
        let mask = Arc::new(ReplayMask {
            search,
            described,
            again,
            unindexed,
        });
        if self.whole {
            memo.insert(
                0,
                ((self.query.clone(), self.lines), rp.version, mask.clone()),
            );
            trim_memo(&mut memo, |(_, _, m)| m.memory());
        }
        Some(mask)
    }

    /// `Some` when entry `id` of root `root` (a file of a replayed walk) holds no match and no change
    /// was reported for it since it was described: its bit in `mask` is clear.
    pub fn unverified(&self, root: usize, id: u32, mask: &ReplayMask) -> Option<Vouched> {
        let (ri, _, _) = self.roots.get(root)?.as_ref()?;
        let i = id as usize;
        if mask
            .search
            .get(i / 64)
            .is_none_or(|w| w >> (i % 64) & 1 == 1)
        {
            return None;
        }
        if mask.described[i / 64] >> (i % 64) & 1 == 1 {
            return self.reading.no_match_outcome(*mask.again.get(&id)?);
        }
        let e = ri.entries.get(i)?;
        self.reading.no_match_outcome(NoMatch {
            size: e.stat.size,
            nul: e.nul,
        })
    }

    /// `Some` when file `rel` of a replayed walk, which has no entry in the index, was described
    /// since with no match and no change reported.
    pub fn unindexed(&self, rel: &Path, mask: &ReplayMask) -> Option<Vouched> {
        if mask.unindexed.is_empty() {
            return None;
        }
        self.reading.no_match_outcome(*mask.unindexed.get(rel)?)
    }

    /// `Some` when the file `rel` of root `root` (the entry `name` of the directory `dir`) holds no
    /// match and is unchanged since it was indexed; `None`: search it.
    pub fn verdict(
        &self,
        root: usize,
        rel: &Path,
        dir: &(impl Handle + ?Sized),
        name: &OsStr,
    ) -> Option<Vouched> {
        let (ri, bits, _) = self.roots.get(root)?.as_ref()?;
        let id = *ri.ids.get(rel)? as usize;
        if bits[id / 64] >> (id % 64) & 1 == 1 {
            return None;
        }
        let e = &ri.entries[id];
        let st = crate::core::dirs::stat_entry(dir, name).ok()?;
        if !crate::core::dirs::FileType::from_raw_mode(st.st_mode).is_file()
            || (st.st_nlink > 1 && !crate::core::mutant::on("verdict_nlink"))
            || (entry::stat_key(&st) != e.stat && !crate::core::mutant::on("verdict_stat"))
        {
            return None;
        }
        self.reading.no_match_outcome(NoMatch {
            size: e.stat.size,
            nul: e.nul,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading whole files, line by line, without bounds.
    const READING: Reading = Reading {
        max_filesize: u64::MAX,
        whole: false,
        context: false,
        memory_cap: u64::MAX,
    };

    /// A root of `files` (name, text), aged past the racy window, and its ready index.
    fn indexed(files: &[(&str, &str)]) -> (tempfile::TempDir, Sandbox, Arc<Owner>) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let sb = Sandbox::builder().root(dir.path()).build_core().unwrap();
        let owner = start(&sb, IndexOptions::default());
        assert!(owner.index().wait(&sb, std::time::Duration::from_secs(60)));
        (dir, sb, owner)
    }

    /// The memos keep the newest entries: at most `EVALUATED`, within `EVALUATED_BYTES`, and
    /// the newest however large.
    #[test]
    fn memos_keep_the_newest_entries_within_their_count_and_bytes() {
        let mut m: Vec<usize> = (0..100).collect();
        trim_memo(&mut m, |_| 1);
        assert_eq!(m, (0..EVALUATED).collect::<Vec<_>>());
        let mut m: Vec<usize> = (0..10).collect();
        trim_memo(&mut m, |_| EVALUATED_BYTES / 3);
        assert_eq!(m, vec![0, 1, 2]);
        let mut m = vec![0usize, 1];
        trim_memo(&mut m, |_| EVALUATED_BYTES + 1);
        assert_eq!(m, vec![0]);
        let mut m = vec![0usize, 1];
        trim_memo(&mut m, |_| 1);
        assert_eq!(m, vec![0, 1]);
    }

    /// An evaluation its call's `stop` cut short prunes nothing and is not kept: the next call,
    /// in time, evaluates the query again and prunes.
    #[test]
    fn an_evaluation_cut_short_prunes_nothing_and_is_not_kept() {
        let (_dir, sb, owner) = indexed(&[("a.txt", "alpha\n"), ("z.txt", "zebra\n")]);
        let index = owner.index();
        let q = crate::search::matcher::query_of(&["zebra"], Default::default());
        let reading = READING;
        let kept = |p: &Pruner| {
            let (ri, bits, _) = p.roots[0].as_ref().unwrap();
            let files = (0..ri.entries.len())
                .filter(|&i| bits[i / 64] >> (i % 64) & 1 == 1)
                .count();
            (files, ri.evaluated.locked().len())
        };
        let cut = index.pruner(&sb, &q, reading, &|| true).unwrap();
        assert_eq!(kept(&cut), (2, 0));
        let whole = index.pruner(&sb, &q, reading, &|| false).unwrap();
        assert_eq!(kept(&whole), (1, 1));
    }

    /// A replay mask made from an evaluation its call's `stop` cut short (every file a candidate)
    /// is not kept: the next call, in time, passes the file without a match over (it was kept,
    /// and that call's replay searched every file).
    #[test]
    fn a_replay_mask_of_an_evaluation_cut_short_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
        std::fs::write(dir.path().join("z.txt"), "zebra\n").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let sb = Sandbox::builder().root(dir.path()).build_core().unwrap();
        let owner = start(&sb, IndexOptions::default());
        let index = owner.index();
        assert!(index.wait(&sb, std::time::Duration::from_secs(60)));
        let q = crate::search::matcher::query_of(&["zebra"], Default::default());
        let reading = Reading {
            max_filesize: u64::MAX,
            whole: false,
            context: false,
            memory_cap: u64::MAX,
        };
        let replay = |p: &Pruner| {
            let serial = p.roots[0].as_ref().unwrap().0.serial;
            replay::Replay {
                serial,
                walk: Arc::new(replay::Recorded::empty(serial)),
                changed: Arc::default(),
                redescribed: Arc::default(),
                version: (0, 0),
            }
        };
        let searched = |p: &Pruner, name: &str| {
            let mask = p.replay_mask(0, &replay(p)).unwrap();
            let ri = &p.roots[0].as_ref().unwrap().0;
            let id = ri.ids[Path::new(name)] as usize;
            mask.search[id / 64] >> (id % 64) & 1 == 1
        };
        let cut = index.pruner(&sb, &q, reading, &|| true).unwrap();
        assert!(searched(&cut, "a.txt"));
        let whole = index.pruner(&sb, &q, reading, &|| false).unwrap();
        assert!(!searched(&whole, "a.txt"));
        assert!(searched(&whole, "z.txt"));
    }

    /// A call's pruner holds the index of its start: a walk recorded against another index of the
    /// root (the root was indexed again meanwhile) is not replayed with it, since file ids are an
    /// index's own.
    #[test]
    fn a_pruner_replays_only_walks_recorded_against_its_index() {
        let (_dir, sb, owner) = indexed(&[("a.txt", "alpha\n")]);
        let index = owner.index();
        let q = crate::search::matcher::query_of(&["zebra"], Default::default());
        let pruner = index.pruner(&sb, &q, READING, &|| false).unwrap();
        let serial = pruner.roots[0].as_ref().unwrap().0.serial;
        let replay = |serial| replay::Replay {
            serial,
            walk: Arc::new(replay::Recorded::empty(serial)),
            changed: Arc::default(),
            redescribed: Arc::default(),
            version: (0, 0),
        };
        assert!(pruner.replay_mask(0, &replay(serial)).is_some());
        assert!(pruner.replay_mask(0, &replay(serial + 1)).is_none());
    }
}
