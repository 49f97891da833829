//! Recorded walks, replayed while the tree keeps its shape: the index owns the file list
//! of the walks a session repeats, and learns about changes from inotify instead of statting every
//! file at every query.
//!
//! A walk is recorded in the background, the first time a query with its key (start directory,
//! the call's globs, types and switches, and the sandbox's roots) finds none: the same handle-bound
//! walker and gate as any walk, with each directory watched *before* it is read, and every file
//! the index describes statted once *after* its directory's watch exists: a file whose metadata no
//! longer matches its entry joins the changed set. From then on a change is either reported or
//! was already seen. At each query the queued events are drained first: a file whose content or
//! metadata changed joins the changed set (it is searched, never pruned, until a background
//! thread has described it again with no change reported meanwhile: [`redescribe`]; a file the
//! recording finds without an entry, created since the index was built or not describable then,
//! is described the same way); anything that can change what a walk yields (an entry created, deleted or renamed, a
//! directory's permissions, an ignore file, `.git/info/exclude`, a lost event) makes every
//! recorded walk of the root stale, and queries walk (and verify each pruned file by `statat`, as
//! without events) until a new recording is in place.
//!
//! A replay yields exactly what the walk would: the recorded files in walk order with the skip
//! counts between them. A file the index vouches for (an entry, no required trigram, not in the
//! changed set) is passed on as pruned without being opened or statted; every other file is opened
//! through its directory's handle, reopened by the gate from the root.

use super::build::Description;
use super::query::Trigram;
use super::StatKey;
use super::{index_of, RootIndex, State};
use crate::core::admit::RootId;
use crate::core::deadline::Deadline;
use crate::core::dirs::{stat_entry, DirFd, FileType};
use crate::core::open::Want;
use crate::core::sandbox::Sandbox;
use crate::core::watch::{Change, Watch};
use crate::walk::{DirHook, Filter, FoundFile, Walk, WalkEnd, WalkSkips};
use std::collections::{HashMap, HashSet};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Recorded walks kept per root (the most recent ones).
const MAX_WALKS: usize = 8;

/// A file of a recorded walk: its path, the skips counted since the previous file, and its entry
/// in the index (if it has one).
pub(crate) type RecordedFile = (PathBuf, WalkSkips, Option<u32>);

/// One recorded walk.
pub(crate) struct Recorded {
    generation: u64,
    /// The index (its [`RootIndex::serial`]) the walk's entries were checked against: the ids
    /// and entries of a replay are that index's, and a root indexed again has another.
    serial: u64,
    pub files: Vec<RecordedFile>,
    /// Skips counted after the last file.
    pub tail: WalkSkips,
}

impl Recorded {
    /// A recording of no files, checked against index `serial` (for tests).
    #[cfg(test)]
    pub(crate) fn empty(serial: u64) -> Recorded {
        Recorded {
            generation: 0,
            serial,
            files: Vec::new(),
            tail: WalkSkips::default(),
        }
    }
}

/// (start directory, filter key, the sandbox's roots).
type Key = (PathBuf, Arc<str>, Arc<str>);

/// Changed files a root may hold before it is searched unindexed (or a quarter of its files, if
/// more): each is searched at every query until it is described again, and its path is held.
const MAX_CHANGED: usize = 1024;

/// Files without an entry in the index (new since it was built, or not describable then) that a
/// root may track for description in the background; past this many, the others are searched at
/// every query, as any file without an entry.
const MAX_UNINDEXED: usize = 4096;

/// One root's change reports and recorded walks.
pub(crate) struct Live {
    watch: Watch,
    /// Bumped by every change that can alter what a walk yields.
    generation: u64,
    /// Files whose content or metadata changed since they were indexed (or described again), each
    /// with the number of its last reported change.
    changed: Arc<HashMap<PathBuf, u64>>,
    /// Changes to files reported so far.
    changes: u64,
    /// Changed files described again in the background, with no change reported since.
    redescribed: Arc<HashMap<PathBuf, Arc<Redescribed>>>,
    redescribed_bytes: usize,
    /// Descriptions put in place so far.
    installs: u64,
    redescribing: bool,
    /// Changed files that cannot be described as they are, with the number of the change after
    /// which that was found (a later change makes them worth another try).
    undescribable: HashMap<PathBuf, u64>,
    /// Files of recorded walks that have no entry in the index, no description and no reported
    /// change, each with the number of changes reported when it was found: described in the
    /// background like changed files (a change reported meanwhile moves it to `changed`).
    unindexed: HashMap<PathBuf, u64>,
    walks: Vec<(Key, Arc<Recorded>)>,
    recording: bool,
    /// Why walks are no longer recorded here (a watch could not be added).
    broken: Option<String>,
}

impl Live {
    /// Change reports for a root on a filesystem that has them (`watch::events_reliable`).
    pub(crate) fn new() -> Result<Live, String> {
        let watch = Watch::new().map_err(|e| format!("inotify: {e}"))?;
        Ok(Live {
            watch,
            generation: 0,
            changed: Arc::default(),
            changes: 0,
            redescribed: Arc::default(),
            redescribed_bytes: 0,
            installs: 0,
            redescribing: false,
            undescribable: HashMap::new(),
            unindexed: HashMap::new(),
            walks: Vec::new(),
            recording: false,
            broken: None,
        })
    }

    fn drain(&mut self) {
        let mut content = Vec::new();
        let generation = &mut self.generation;
        self.watch.drain(&mut |c| match c {
            Change::Structure => *generation += 1,
            Change::Content(p) => content.push(p),
        });
        for p in content {
            self.mark_changed(p);
        }
    }

    /// Whether file `p` (last change number `n`) is worth describing again: not found
    /// undescribable since that change.
    fn describable(&self, p: &Path, n: u64) -> bool {
        self.undescribable.get(p) != Some(&n)
    }

    /// File `p` changed: it is searched, never pruned, until it is described again.
    fn mark_changed(&mut self, p: PathBuf) {
        if self.redescribed.contains_key(&p) {
            if let Some(r) = Arc::make_mut(&mut self.redescribed).remove(&p) {
                self.redescribed_bytes -= r.bytes();
            }
        }
        self.unindexed.remove(&p);
        self.changes += 1;
        Arc::make_mut(&mut self.changed).insert(p, self.changes);
    }

    /// Memory held besides the root's index, approximately: the descriptions of changed files,
    /// the changed and undescribable sets, and the recorded walks.
    pub(crate) fn memory(&self) -> usize {
        let path = |p: &PathBuf| p.capacity() + std::mem::size_of::<PathBuf>() + 16;
        let walks: usize = self
            .walks
            .iter()
            .map(|(k, r)| {
                path(&k.0)
                    + k.1.len()
                    + k.2.len()
                    + r.files.capacity() * std::mem::size_of::<RecordedFile>()
                    + r.files.iter().map(|f| f.0.capacity()).sum::<usize>()
            })
            .sum();
        self.redescribed_bytes
            + self.redescribed.keys().map(path).sum::<usize>()
            + self.changed.keys().map(path).sum::<usize>()
            + self.undescribable.keys().map(path).sum::<usize>()
            + self.unindexed.keys().map(path).sum::<usize>()
            + walks
    }

    /// Lets go of everything held for replays (the root's index is let go).
    fn forget(&mut self) {
        self.changed = Arc::default();
        self.redescribed = Arc::default();
        self.redescribed_bytes = 0;
        self.undescribable = HashMap::new();
        self.unindexed = HashMap::new();
        self.walks = Vec::new();
    }

    /// A new index of the root is in place: every walk recorded until now was checked against
    /// the one before it, so none is replayed again. (Files changed since are still in the
    /// changed set: searched until described again.)
    pub(crate) fn renew(&mut self) {
        self.generation += 1;
    }

    /// Why this root's walks are not replayed, if they cannot be.
    pub(crate) fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }
}

/// A recorded walk that holds now, the files changed since they were indexed, and those of them
/// described again since.
pub(crate) struct Replay {
    /// The index the walk was recorded against ([`RootIndex::serial`]): a pruner holding
    /// another (the root was indexed again since the call began) must not use it.
    pub serial: u64,
    pub walk: Arc<Recorded>,
    pub changed: Arc<HashMap<PathBuf, u64>>,
    pub redescribed: Arc<HashMap<PathBuf, Arc<Redescribed>>>,
    /// Changes reported and descriptions put in place until now: the two sets above are the same
    /// whenever these are.
    pub version: (u64, u64),
}

/// A changed file described again: what the build records for a file, as it is now.
pub(crate) struct Redescribed {
    pub stat: StatKey,
    pub nul: bool,
    /// Its distinct trigrams, sorted.
    pub tris: Vec<Trigram>,
}

impl Redescribed {
    fn bytes(&self) -> usize {
        self.tris.capacity() * std::mem::size_of::<Trigram>() + 64
    }

    /// The size and binary fact the search would record for it without a match.
    pub fn no_match(&self) -> super::NoMatch {
        super::NoMatch {
            size: self.stat.size,
            nul: self.nul,
        }
    }
}

/// Files described again per round of the background work (between two looks at the reports).
const REDESCRIBE_STEP: usize = 256;

impl Sandbox {
    /// The recorded walk of root `root` from `rel` under `key`, if one holds after the queued
    /// events are taken in. Without one, a recording is started in the background (one per root at
    /// a time) and the caller walks.
    pub(crate) fn index_replay(&self, root: usize, rel: &Path, filter: &Filter) -> Option<Replay> {
        let key = filter.key.as_ref()?;
        let index = index_of(self)?;
        let canonical = &self.roots.get(root)?.canonical;
        let j = index.roots.iter().position(|(c, _)| c == canonical)?;
        let live = index.live.get(j)?.as_ref().ok()?;
        let ri = match &*index.roots[j].1.lock().unwrap() {
            State::Ready(ri) => ri.clone(),
            _ => return None,
        };
        let roots: Arc<str> = self
            .roots
            .iter()
            .map(|r| r.canonical.to_string_lossy())
            .collect::<Vec<_>>()
            .join("\0")
            .into();
        let key: Key = (rel.to_path_buf(), key.clone(), roots);
        let mut l = live.lock().unwrap();
        l.drain();
        let cap = MAX_CHANGED.max(ri.entries.len() / 4);
        if l.changed.len() > cap {
            // The changed set is searched at every query and held in memory: past the cap what
            // the index held is let go and the root is indexed again in the background; until
            // then it is searched unindexed.
            let why = format!(
                "more than {cap} files changed since the root was indexed: it is searched \
                 unindexed while it is indexed again"
            );
            l.forget();
            drop(l);
            let mut state = index.roots[j].1.lock().unwrap();
            if matches!(*state, State::Ready(_)) {
                *state = State::Building(Arc::new(super::build::Progress {
                    again: Some(why.clone()),
                    ..Default::default()
                }));
                drop(state);
                if let Err(e) = super::build_in_background(self.clone(), vec![j]) {
                    *index.roots[j].1.lock().unwrap() =
                        State::Off(format!("{why}; no build thread: {e}"));
                }
            }
            return None;
        }
        let to_describe =
            !l.unindexed.is_empty() || l.changed.iter().any(|(p, n)| l.describable(p, *n));
        if !l.redescribing && to_describe {
            l.redescribing = true;
            let sb = self.clone();
            let ri = ri.clone();
            let spawned = std::thread::Builder::new()
                .name("rootbound-index-redescribe".into())
                .spawn(move || {
                    let _ = rustix::process::setpriority_process(None, 19);
                    if let Some(live) = index_of(&sb).and_then(|i| i.live.get(j)?.as_ref().ok()) {
                        redescribe(&sb, root, live, &ri);
                        live.lock().unwrap().redescribing = false;
                    }
                });
            if spawned.is_err() {
                l.redescribing = false;
            }
        }
        if let Some((_, w)) = l.walks.iter().find(|(k, _)| *k == key) {
            if w.generation == l.generation && w.serial == ri.serial {
                return Some(Replay {
                    serial: ri.serial,
                    walk: w.clone(),
                    changed: l.changed.clone(),
                    redescribed: l.redescribed.clone(),
                    version: (l.changes, l.installs),
                });
            }
        }
        if !l.recording && l.broken.is_none() {
            l.recording = true;
            drop(l);
            let sb = self.clone();
            let mut filter = filter.clone();
            // Its own budget for ignore files (no deadline): the call's is not its.
            filter.ignore = crate::walk::IgnoreBudget {
                kinds: filter.ignore.kinds,
                ..Default::default()
            };
            let spawned = std::thread::Builder::new()
                .name("rootbound-index-walk".into())
                .spawn(move || {
                    let _ = rustix::process::setpriority_process(None, 19);
                    record(&sb, root, j, key, filter, &ri);
                    if let Some(live) = index_of(&sb).and_then(|i| i.live.get(j)?.as_ref().ok()) {
                        live.lock().unwrap().recording = false;
                    }
                });
            if spawned.is_err() {
                live.lock().unwrap().recording = false;
            }
        }
        None
    }

    /// Whether a recording, or the description of changed files, is under way in some root (tests
    /// and hosts wait for it).
    pub(crate) fn index_recording(&self) -> bool {
        index_of(self).is_some_and(|i| {
            i.live.iter().flatten().any(|l| {
                let l = l.lock().unwrap();
                l.recording || l.redescribing
            })
        })
    }
}

/// Watches each directory a recording walk is about to read.
struct Hook<'a> {
    live: &'a Mutex<Live>,
    failed: AtomicBool,
}

impl Hook<'_> {
    fn result(&self, r: std::io::Result<()>) {
        if let Err(e) = r {
            self.failed.store(true, Ordering::Relaxed);
            let mut l = self.live.lock().unwrap();
            if l.broken.is_none() {
                l.broken = Some(format!("a directory could not be watched: {e}"));
            }
        }
    }
}

impl DirHook for Hook<'_> {
    fn entering(&self, dir: BorrowedFd<'_>, rel: &Path) {
        let r = self.live.lock().unwrap().watch.add(dir, rel);
        self.result(r);
    }

    fn repository(&self, dir: BorrowedFd<'_>, rel: &Path) {
        let r = self.live.lock().unwrap().watch.add_repository(dir, rel);
        self.result(r);
    }
}

/// Records the walk of `key` in root `root` (index root `j`), verifying every described file.
fn record(sb: &Sandbox, root: usize, j: usize, key: Key, filter: Filter, ri: &RootIndex) {
    let Some(live) = index_of(sb).and_then(|i| i.live.get(j)?.as_ref().ok()) else {
        return;
    };
    let start_generation = {
        let mut l = live.lock().unwrap();
        l.drain();
        l.generation
    };
    let hook = Hook {
        live,
        failed: AtomicBool::new(false),
    };
    let mut stale: Vec<PathBuf> = Vec::new();
    let mut unindexed: Vec<PathBuf> = Vec::new();
    let redescribed = live.lock().unwrap().redescribed.clone();
    let recorded = walk_and_verify(
        sb,
        root,
        &key.0,
        &filter,
        ri,
        &redescribed,
        &hook,
        (&mut stale, &mut unindexed),
    );
    let mut l = live.lock().unwrap();
    l.drain();
    for p in stale {
        l.mark_changed(p);
    }
    let Some(mut rec) = recorded else {
        return;
    };
    if l.generation != start_generation || hook.failed.load(Ordering::Relaxed) {
        return;
    }
    rec.generation = start_generation;
    for p in unindexed {
        let known = l.changed.contains_key(&p)
            || l.redescribed.contains_key(&p)
            || l.undescribable.contains_key(&p)
            || l.unindexed.contains_key(&p);
        if !known && l.unindexed.len() < MAX_UNINDEXED {
            let n = l.changes;
            l.unindexed.insert(p, n);
        }
    }
    l.walks.retain(|(k, _)| *k != key);
    l.walks.push((key, Arc::new(rec)));
    if l.walks.len() > MAX_WALKS {
        l.walks.remove(0);
    }
}

#[allow(clippy::too_many_arguments)]
fn walk_and_verify(
    sb: &Sandbox,
    root: usize,
    rel: &Path,
    filter: &Filter,
    ri: &RootIndex,
    redescribed: &HashMap<PathBuf, Arc<Redescribed>>,
    hook: &Hook<'_>,
    (stale, unindexed): (&mut Vec<PathBuf>, &mut Vec<PathBuf>),
) -> Option<Recorded> {
    let id = RootId::Read(root);
    let denied = sb.gate.denied_fn(id);
    let r = sb.roots.get(root)?;
    // The root and every directory above the start are watched before their ignore files are read.
    let mut prefix = PathBuf::new();
    let mut start = None;
    let comps: Vec<_> = rel.components().collect();
    for k in 0..=comps.len() {
        if k > 0 {
            prefix.push(comps[k - 1]);
        }
        let fd = sb
            .gate
            .open(id, r.dir.as_fd(), &prefix, &prefix, Want::Dir)
            .ok()?
            .into_inner()
            .fd;
        if k < comps.len() {
            hook.entering(fd.as_fd(), &prefix);
            if !denied(&prefix.join(".git"), true) {
                hook.repository(fd.as_fd(), &prefix);
            }
        } else {
            start = Some(fd);
        }
    }
    let levels = if rel.as_os_str().is_empty() {
        None
    } else {
        crate::walk::ancestor_levels(&r.dir, rel, filter.no_ignore, &filter.ignore, &denied)
    };
    // No time limit of its own: the walk is the one every query would make.
    let deadline = Deadline::detached(Duration::from_secs(u32::MAX as u64));
    let walk = Walk {
        gate: &sb.gate,
        root: id,
        filter,
        deadline: Some(&deadline),
        resume_after: None,
        hook: Some(hook),
    };
    let mut files: Vec<RecordedFile> = Vec::new();
    let mut on_file = |f: FoundFile, skips: &mut WalkSkips| {
        let entry = ri.ids.get(&f.rel).copied();
        // After the directory's watch: a change from here on is reported. A file described again
        // is compared with that description, else with its entry; one with neither is described
        // in the background.
        let described = match (redescribed.get(&f.rel), entry) {
            (Some(r), _) => Some(r.stat),
            (None, Some(e)) => Some(ri.entries[e as usize].stat),
            (None, None) => None,
        };
        if described.is_none() {
            unindexed.push(f.rel.clone());
        }
        if let Some(described) = described {
            let same = stat_entry(&*f.dir, &f.name).ok().is_some_and(|st| {
                FileType::from_raw_mode(st.st_mode).is_file()
                    && st.st_nlink == 1
                    && super::build::stat_key(&st) == described
            });
            if !same {
                stale.push(f.rel.clone());
            }
        }
        files.push((f.rel, std::mem::take(skips), entry));
        true
    };
    let (end, tail) = walk.run(start?, rel.to_path_buf(), levels, &mut on_file);
    (end == WalkEnd::Complete && filter.ignore.partial() == 0).then_some(Recorded {
        generation: 0,
        serial: ri.serial,
        files,
        tail,
    })
}

/// Describes the changed files of a root again, in rounds, so that they can be pruned again. A
/// description counts only when no change to its file was reported from before it was read until
/// it is put in place: the file's number of its last change is the same then as when it was chosen,
/// and so is the root's generation. A change of the tree's shape (a directory renamed away and
/// back, say) can put another file at the path without a change to either file reported, and a
/// recording that verified the path before the description was in place would not see it.
/// Each file is tried once per call of this function (a file that cannot be described, say one
/// changed in the last two seconds, is tried again at a later query's call). The descriptions
/// take at most a quarter of the index's own memory (at least 16 MiB), and never more than
/// `index_max_bytes` leaves beside the index.
fn redescribe(sb: &Sandbox, root: usize, live: &Mutex<Live>, ri: &RootIndex) {
    let cap = ri.describe_room;
    let mut tried: HashSet<PathBuf> = HashSet::new();
    loop {
        // (path, its change number, whether it came from `unindexed`)
        let (chosen, generation, room): (Vec<(PathBuf, u64, bool)>, u64, usize) = {
            let mut l = live.lock().unwrap();
            l.drain();
            if l.redescribed_bytes >= cap {
                return;
            }
            let room = cap - l.redescribed_bytes;
            let changed = l.changed.iter().map(|(p, n)| (p, n, false));
            let chosen = changed
                .chain(l.unindexed.iter().map(|(p, n)| (p, n, true)))
                .filter(|(p, n, _)| l.describable(p, **n) && !tried.contains(*p))
                .take(REDESCRIBE_STEP)
                .map(|(p, n, new)| (p.clone(), *n, new))
                .collect();
            (chosen, l.generation, room)
        };
        if chosen.is_empty() {
            return;
        }
        // The descriptions held until they are put in place stay within the room left too.
        let mut described = Vec::new();
        let mut held = 0usize;
        for (p, n, new) in chosen {
            let d = super::build::describe(sb, root, &p);
            tried.insert(p.clone());
            if let Description::Now(_, _, tris) = &d {
                held += tris.len() * std::mem::size_of::<Trigram>();
                if held > room {
                    break;
                }
            }
            described.push((p, n, new, d));
        }
        let mut l = live.lock().unwrap();
        l.drain();
        // The tree's shape changed since the files were chosen: what was read at a path may not
        // be what is there now, with no change to it reported. Tried again at a later query.
        let moved = l.generation != generation;
        for (p, n, new, d) in described {
            // No change to it reported since it was chosen (one moves it to `changed`, anew).
            let unchanged = match new {
                true => l.unindexed.get(&p) == Some(&n),
                false => l.changed.get(&p) == Some(&n),
            };
            let (stat, nul, tris) = match d {
                Description::Now(stat, nul, tris) => (stat, nul, tris),
                Description::Later => continue,
                Description::Never => {
                    if !moved && unchanged && l.undescribable.len() < MAX_UNINDEXED {
                        l.undescribable.insert(p.clone(), n);
                        l.unindexed.remove(&p);
                    }
                    continue;
                }
            };
            let r = Arc::new(Redescribed { stat, nul, tris });
            if moved || !unchanged || l.redescribed_bytes + r.bytes() > cap {
                continue;
            }
            l.redescribed_bytes += r.bytes();
            l.unindexed.remove(&p);
            Arc::make_mut(&mut l.changed).remove(&p);
            Arc::make_mut(&mut l.redescribed).insert(p, r);
            l.installs += 1;
        }
    }
}

/// What the feed needs to pass a replayed file on.
pub(crate) enum Replayed {
    /// Open it through its directory's handle.
    At(Arc<DirFd>, std::ffi::OsString),
    /// Its directory cannot be opened any more (changed during the call).
    Gone,
}

/// Opens the directories of replayed files, one handle per run of files in the same directory.
pub(crate) struct DirCache {
    last: Option<(PathBuf, Option<Arc<DirFd>>)>,
}

impl DirCache {
    pub fn new() -> Self {
        DirCache { last: None }
    }

    /// How to reach file `rel` of read root `root`.
    pub fn source(&mut self, sb: &Sandbox, root: usize, rel: &Path) -> Replayed {
        let parent = rel.parent().unwrap_or(Path::new(""));
        if self.last.as_ref().map(|(p, _)| p.as_path()) != Some(parent) {
            let dir = sb.roots.get(root).and_then(|r| {
                let o = sb
                    .gate
                    .open(RootId::Read(root), r.dir.as_fd(), parent, parent, Want::Dir)
                    .ok()?;
                DirFd::unread(o.into_inner().fd).map(Arc::new)
            });
            self.last = Some((parent.to_path_buf(), dir));
        }
        match (&self.last, rel.file_name()) {
            (Some((_, Some(d))), Some(name)) => Replayed::At(d.clone(), name.to_os_string()),
            _ => Replayed::Gone,
        }
    }
}
