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
    /// For a file without an entry, also the stat the recording saw (another file at the path,
    /// renamed in with no change reported, is tried again).
    undescribable: HashMap<PathBuf, (u64, Option<StatKey>)>,
    /// Files of recorded walks that have no entry in the index and no description, each as a
    /// recording saw it: described in the background, and the description put in place only if
    /// it describes what the recording saw (a change reported since moves it to `changed`).
    unindexed: HashMap<PathBuf, Observed>,
    /// Descriptions of files without an entry in place, and their bytes (within a half of the
    /// room for descriptions, and at most [`MAX_UNINDEXED`]).
    unindexed_described: (usize, usize),
    /// The index whose walks are recorded and whose changed files are described now, and its
    /// room for descriptions ([`RootIndex::serial`], [`RootIndex::describe_room`]); `None` while
    /// the root is (re)built. A description thread started for another stops.
    current: Option<(u64, usize)>,
    /// When the background description last started: it starts at most every
    /// [`RETRY_DESCRIBE`], since a round opens every file it chooses, and a file too new when it
    /// is tried is ready two seconds after that (a start later, or two).
    describe_started: Option<std::time::Instant>,
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
            unindexed_described: (0, 0),
            current: None,
            describe_started: None,
            walks: Vec::new(),
            recording: false,
            broken: None,
        })
    }

    /// Takes in the queued events; `denied` is the gate's question for the root's paths.
    fn drain(&mut self, denied: &dyn Fn(&Path, bool) -> bool) {
        let mut content = Vec::new();
        let generation = &mut self.generation;
        self.watch.drain(denied, &mut |c| match c {
            Change::Structure => *generation += 1,
            Change::Content(p) => content.push(p),
        });
        for p in content {
            self.mark_changed(p);
        }
    }

    /// Whether changed file `p` (last change number `n`) is worth describing again: it has an
    /// entry (a file without one is described only as a recording saw it: [`Live::observe`]),
    /// and was not found undescribable since that change.
    fn describable(&self, ri: &RootIndex, p: &Path, n: u64) -> bool {
        ri.ids.contains_key(p) && self.undescribable.get(p).map(|u| u.0) != Some(n)
    }

    /// File `p` changed: it is searched, never pruned, until it is described again.
    fn mark_changed(&mut self, p: PathBuf) {
        self.undescribe(&p);
        self.unindexed.remove(&p);
        self.changes += 1;
        Arc::make_mut(&mut self.changed).insert(p, self.changes);
    }

    /// Drops the description of `p`, if any.
    fn undescribe(&mut self, p: &Path) {
        if !self.redescribed.contains_key(p) {
            return;
        }
        if let Some(r) = Arc::make_mut(&mut self.redescribed).remove(p) {
            self.redescribed_bytes -= r.bytes();
            if r.unindexed {
                self.unindexed_described.0 -= 1;
                self.unindexed_described.1 -= r.bytes();
            }
        }
    }

    /// A recording found `p`, which has no entry in the index, as `seen`: its stat, taken after
    /// its directory's watch was in place (`None`: not a regular file with one link). A
    /// description of `p` that does not describe what was seen is dropped (it may have been read
    /// before the watch, from another file at the path); and, when the recording is `kept`, `p`
    /// waits to be described as seen (from then on any change to it is reported).
    fn observe(&mut self, p: PathBuf, seen: Option<StatKey>, kept: bool) {
        if let Some(r) = self.redescribed.get(&p) {
            if Some(r.stat) == seen {
                return;
            }
            self.mark_changed(p.clone());
        }
        if seen.is_none() {
            self.unindexed.remove(&p);
        }
        // One found undescribable is tried again only after a change to it was reported since,
        // or when another file is at the path.
        let undescribable = self.undescribable.get(&p).is_some_and(|&(u, was)| {
            self.changed.get(&p).is_none_or(|&m| m <= u) && (was.is_none() || was == seen)
        });
        let Some(stat) = seen.filter(|_| kept && !undescribable) else {
            return;
        };
        if self.unindexed.len() >= MAX_UNINDEXED && !self.unindexed.contains_key(&p) {
            return;
        }
        // No room left for its description: reading it would be in vain.
        let room = self.current.map_or(0, |c| c.1) / 2;
        if self.unindexed_described.0 >= MAX_UNINDEXED || self.unindexed_described.1 >= room {
            return;
        }
        // Searched until described as seen, which holds whatever was reported before.
        if self.changed.contains_key(&p) {
            Arc::make_mut(&mut self.changed).remove(&p);
        }
        let n = self.changes;
        self.unindexed.insert(p, Observed { n, stat });
    }

    /// Puts a description of `p` in place, read since `p` was chosen as changed (change number
    /// `n`) or, with no entry, as a recording saw it (`seen`), if it still holds: no change to
    /// `p` reported meanwhile, no change of the tree's shape (`moved`), room under `cap`, and for
    /// a file without an entry, what the recording saw. (What was read at the path of such a file
    /// may be another file, in a directory not watched under that path yet.)
    fn install(
        &mut self,
        p: PathBuf,
        n: u64,
        seen: Option<Observed>,
        d: Description,
        moved: bool,
        cap: usize,
    ) {
        let unchanged = match seen {
            Some(o) => self.unindexed.get(&p) == Some(&o),
            None => self.changed.get(&p) == Some(&n),
        };
        let (stat, nul, tris) = match d {
            Description::Now(stat, nul, tris) => (stat, nul, tris),
            Description::Later => return,
            Description::Never => {
                if !moved && unchanged && self.undescribable.len() < MAX_UNINDEXED {
                    self.undescribable
                        .insert(p.clone(), (n, seen.map(|o| o.stat)));
                }
                if seen.is_some() && unchanged {
                    self.unindexed.remove(&p);
                }
                return;
            }
        };
        if moved || !unchanged {
            return;
        }
        let r = Arc::new(Redescribed {
            unindexed: seen.is_some(),
            stat,
            nul,
            tris,
        });
        let fits = self.redescribed_bytes + r.bytes() <= cap
            && (seen.is_none()
                || (self.unindexed_described.0 < MAX_UNINDEXED
                    && self.unindexed_described.1 + r.bytes() <= cap / 2));
        if !fits || seen.is_some_and(|o| o.stat != stat) {
            // Searched until a recording sees it again.
            self.unindexed.remove(&p);
            return;
        }
        self.redescribed_bytes += r.bytes();
        if r.unindexed {
            self.unindexed_described.0 += 1;
            self.unindexed_described.1 += r.bytes();
        }
        self.unindexed.remove(&p);
        Arc::make_mut(&mut self.changed).remove(&p);
        Arc::make_mut(&mut self.redescribed).insert(p, r);
        self.installs += 1;
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
        self.unindexed_described = (0, 0);
        self.current = None;
        self.walks = Vec::new();
    }

    /// A new index of the root is in place: every walk recorded until now was checked against
    /// the one before it, so none is replayed again, and a description thread of the one before
    /// stops. (Files changed since are still in the changed set: searched until described again.)
    pub(crate) fn renew(&mut self, ri: &RootIndex) {
        self.generation += 1;
        self.current = Some((ri.serial, ri.describe_room));
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

/// A file without an entry as a recording saw it: the number of changes reported until then, and
/// its stat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Observed {
    n: u64,
    stat: StatKey,
}

/// A changed file described again: what the build records for a file, as it is now.
pub(crate) struct Redescribed {
    /// It has no entry in the index (it was described as a recording saw it).
    pub unindexed: bool,
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

/// How often the background description of changed files and files without an entry starts
/// (the age a file must have to be described: a file not ready at a start is ready at the next).
const RETRY_DESCRIBE: Duration = Duration::from_secs(super::build::RACY_SECS as u64);

/// Files described again per round of the background work (between two looks at the reports).
const REDESCRIBE_STEP: usize = 256;

impl Sandbox {
    /// The recorded walk of root `root` from `rel` under `key`, if one holds after the queued
    /// events are taken in. Without one, a recording is started in the background (one per root at
    /// a time) and the caller walks.
    pub(crate) fn index_replay(&self, root: usize, rel: &Path, filter: &Filter) -> Option<Replay> {
        let key = filter.walk_key()?;
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
        let key: Key = (rel.to_path_buf(), key, roots);
        let denied = self.gate.denied_fn(RootId::Read(root));
        let mut l = live.lock().unwrap();
        l.drain(&denied);
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
        let to_describe = !l.redescribing
            && l.describe_started
                .is_none_or(|t| t.elapsed() >= RETRY_DESCRIBE)
            && (!l.unindexed.is_empty()
                || l.changed.iter().any(|(p, n)| l.describable(&ri, p, *n)));
        if to_describe {
            l.redescribing = true;
            l.describe_started = Some(std::time::Instant::now());
            let sb = self.clone();
            let ri = ri.clone();
            let spawned = std::thread::Builder::new()
                .name("rootbound-index-redescribe".into())
                .spawn(move || {
                    let _ = rustix::process::setpriority_process(None, 19);
                    if let Some(live) = index_of(&sb).and_then(|i| i.live.get(j)?.as_ref().ok()) {
                        redescribe(&sb, root, live, &ri);
                        let mut l = live.lock().unwrap();
                        l.redescribing = false;
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
    let denied = sb.gate.denied_fn(RootId::Read(root));
    let start_generation = {
        let mut l = live.lock().unwrap();
        l.drain(&denied);
        l.generation
    };
    let hook = Hook {
        live,
        failed: AtomicBool::new(false),
    };
    let mut stale: Vec<PathBuf> = Vec::new();
    let mut unindexed: Vec<(PathBuf, Option<StatKey>)> = Vec::new();
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
    l.drain(&denied);
    for p in stale {
        l.mark_changed(p);
    }
    let kept = recorded.is_some()
        && l.generation == start_generation
        && !hook.failed.load(Ordering::Relaxed);
    // Against the descriptions in place now, not only those the walk started with: one put in
    // place meanwhile may have been read before the walk watched the file's directory.
    for (p, seen) in unindexed {
        l.observe(p, seen, kept);
    }
    let Some(mut rec) = recorded.filter(|_| kept) else {
        return;
    };
    rec.generation = start_generation;
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
    (stale, unindexed): (&mut Vec<PathBuf>, &mut Vec<(PathBuf, Option<StatKey>)>),
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
        // After the directory's watch: a change from here on is reported. A file with an entry
        // is compared with its description, else with the entry; one without is seen as it is
        // (and compared with its description, if any, once the walk is over).
        let seen = || {
            stat_entry(&*f.dir, &f.name)
                .ok()
                .filter(|st| FileType::from_raw_mode(st.st_mode).is_file() && st.st_nlink == 1)
                .map(|st| super::build::stat_key(&st))
        };
        match entry {
            Some(e) => {
                let described = redescribed
                    .get(&f.rel)
                    .map_or(ri.entries[e as usize].stat, |r| r.stat);
                if seen() != Some(described) {
                    stale.push(f.rel.clone());
                }
            }
            None => unindexed.push((f.rel.clone(), seen())),
        }
        files.push((f.rel, std::mem::take(skips), entry));
        true
    };
    let (end, tail) = walk.run(start?, rel.to_path_buf(), levels, &mut on_file);
    // An ignore file with another name can change with no event for it: such a walk is not
    // replayed.
    let rules_reported = filter.ignore.partial() == 0 && filter.ignore.linked() == 0;
    (end == WalkEnd::Complete && rules_reported).then_some(Recorded {
        generation: 0,
        serial: ri.serial,
        files,
        tail,
    })
}

/// Describes the changed files of a root again, and files without an entry as a recording saw
/// them ([`Live::observe`]), in rounds, so that they can be pruned (again). A
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
    let denied = sb.gate.denied_fn(RootId::Read(root));
    let mut tried: HashSet<PathBuf> = HashSet::new();
    loop {
        // (path, its change number, how a recording saw it if it has no entry)
        type Chosen = Vec<(PathBuf, u64, Option<Observed>)>;
        let (chosen, generation, room): (Chosen, u64, usize) = {
            let mut l = live.lock().unwrap();
            l.drain(&denied);
            if l.current.map(|c| c.0) != Some(ri.serial) {
                // The root was indexed again (or is being): `ri` is not its index any more.
                return;
            }
            if l.redescribed_bytes >= cap {
                return;
            }
            let room = cap - l.redescribed_bytes;
            let changed = l
                .changed
                .iter()
                .filter(|(p, n)| l.describable(ri, p, **n))
                .map(|(p, n)| (p, *n, None));
            let unindexed = l.unindexed.iter().map(|(p, o)| (p, o.n, Some(*o)));
            let chosen = changed
                .chain(unindexed)
                .filter(|(p, ..)| !tried.contains(*p))
                .take(REDESCRIBE_STEP)
                .map(|(p, n, o)| (p.clone(), n, o))
                .collect();
            (chosen, l.generation, room)
        };
        if chosen.is_empty() {
            return;
        }
        // The descriptions held until they are put in place stay within the room left too.
        let mut described = Vec::new();
        let mut held = 0usize;
        for (p, n, seen) in chosen {
            let d = super::build::describe(sb, root, &p);
            tried.insert(p.clone());
            if let Description::Now(_, _, tris) = &d {
                held += tris.len() * std::mem::size_of::<Trigram>();
                if held > room {
                    break;
                }
            }
            described.push((p, n, seen, d));
        }
        let mut l = live.lock().unwrap();
        l.drain(&denied);
        // The tree's shape changed since the files were chosen: what was read at a path may not
        // be what is there now, with no change to it reported. Tried again at a later query.
        let moved = l.generation != generation || l.current.map(|c| c.0) != Some(ri.serial);
        for (p, n, seen, d) in described {
            l.install(p, n, seen, d, moved, cap);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(ino: u64, size: u64) -> StatKey {
        StatKey {
            dev: 1,
            ino,
            size,
            mtime: (1, 0),
            ctime: (1, 0),
        }
    }

    fn described(st: StatKey) -> Description {
        Description::Now(st, false, Vec::new())
    }

    const CAP: usize = 1 << 20;

    fn live() -> Live {
        let mut l = Live::new().unwrap();
        l.current = Some((1, CAP));
        l
    }

    /// A file without an entry is described only as a recording saw it: a description read from
    /// another file at its path (another inode, or the same one changed) is not put in place.
    #[test]
    fn a_file_without_an_entry_is_described_only_as_seen() {
        let mut l = live();
        let p = PathBuf::from("d/p");
        l.observe(p.clone(), Some(stat(7, 5)), true);
        let seen = l.unindexed.get(&p).copied();
        assert!(seen.is_some());
        l.install(p.clone(), 0, seen, described(stat(8, 5)), false, CAP);
        assert!(!l.redescribed.contains_key(&p), "another inode");
        assert!(!l.unindexed.contains_key(&p), "searched until seen again");
        l.observe(p.clone(), Some(stat(8, 5)), true);
        let seen = l.unindexed.get(&p).copied();
        l.install(p.clone(), 0, seen, described(stat(8, 9)), false, CAP);
        assert!(!l.redescribed.contains_key(&p), "changed since it was seen");
        l.observe(p.clone(), Some(stat(8, 9)), true);
        let seen = l.unindexed.get(&p).copied();
        l.install(p.clone(), 0, seen, described(stat(8, 9)), false, CAP);
        assert!(l.redescribed.contains_key(&p), "as seen");
        assert_eq!(l.unindexed_described.0, 1);
        // A change reported since it was chosen, or a new shape of the tree, keeps it out too.
        let q = PathBuf::from("d/q");
        l.observe(q.clone(), Some(stat(9, 1)), true);
        let seen = l.unindexed.get(&q).copied();
        l.mark_changed(q.clone());
        l.install(q.clone(), 0, seen, described(stat(9, 1)), false, CAP);
        assert!(!l.redescribed.contains_key(&q));
        l.observe(q.clone(), Some(stat(9, 1)), true);
        let seen = l.unindexed.get(&q).copied();
        l.install(q.clone(), 0, seen, described(stat(9, 1)), true, CAP);
        assert!(!l.redescribed.contains_key(&q));
    }

    /// A recording checks every file without an entry against the description in place when it
    /// ends (one put in place during the walk too): one that differs from what it saw is dropped
    /// and the file is searched; one that matches stays.
    #[test]
    fn a_recording_drops_a_description_that_differs_from_what_it_saw() {
        let mut l = live();
        let p = PathBuf::from("p");
        l.observe(p.clone(), Some(stat(3, 4)), true);
        let seen = l.unindexed.get(&p).copied();
        l.install(p.clone(), 0, seen, described(stat(3, 4)), false, CAP);
        assert!(l.redescribed.contains_key(&p));
        l.observe(p.clone(), Some(stat(3, 4)), true);
        assert!(l.redescribed.contains_key(&p), "the same file");
        // Not kept (the tree changed during the walk): still dropped.
        l.observe(p.clone(), Some(stat(3, 6)), false);
        assert!(!l.redescribed.contains_key(&p));
        assert_eq!(l.unindexed_described, (0, 0));
        assert!(l.changed.contains_key(&p) && !l.unindexed.contains_key(&p));
        // Seen again by a kept recording: it waits to be described as seen, no longer changed.
        l.observe(p.clone(), Some(stat(3, 6)), true);
        assert!(!l.changed.contains_key(&p) && l.unindexed.contains_key(&p));
        // Not a regular file with one link: dropped, and not described.
        l.observe(p.clone(), None, true);
        assert!(!l.redescribed.contains_key(&p) && !l.unindexed.contains_key(&p));
    }

    /// A file without an entry found undescribable (say a byte-order mark) is not read again at
    /// every recording, but is once a change to it was reported, or another file is at its path.
    #[test]
    fn an_undescribable_file_without_an_entry_is_tried_again_after_a_change() {
        let mut l = live();
        let p = PathBuf::from("p");
        l.observe(p.clone(), Some(stat(3, 4)), true);
        let seen = l.unindexed.get(&p).copied();
        l.install(p.clone(), 0, seen, Description::Never, false, CAP);
        assert!(!l.unindexed.contains_key(&p));
        l.observe(p.clone(), Some(stat(3, 4)), true);
        assert!(!l.unindexed.contains_key(&p), "not read again unchanged");
        // Another file renamed in at the path (no change reported): read.
        l.observe(p.clone(), Some(stat(9, 4)), true);
        assert!(l.unindexed.contains_key(&p), "another file is read");
        let seen = l.unindexed.get(&p).copied();
        l.install(p.clone(), 0, seen, Description::Never, false, CAP);
        l.observe(p.clone(), Some(stat(9, 4)), true);
        assert!(!l.unindexed.contains_key(&p), "not read again unchanged");
        l.mark_changed(p.clone());
        l.observe(p.clone(), Some(stat(3, 5)), true);
        assert!(l.unindexed.contains_key(&p), "read again once changed");
        let seen = l.unindexed.get(&p).copied();
        l.install(p.clone(), 0, seen, described(stat(3, 5)), false, CAP);
        assert!(l.redescribed.contains_key(&p));
    }

    /// With no room for its description, a file without an entry is not queued to be read.
    #[test]
    fn without_room_a_file_without_an_entry_is_not_queued() {
        let mut l = live();
        l.current = Some((1, 0));
        l.observe(PathBuf::from("p"), Some(stat(3, 4)), true);
        assert!(l.unindexed.is_empty());
        l.current = None;
        l.observe(PathBuf::from("p"), Some(stat(3, 4)), true);
        assert!(l.unindexed.is_empty(), "no index in place");
    }
}
