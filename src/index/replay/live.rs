//! One root's change reports, changed set, descriptions and recorded walks: the state a replay
//! reads, and the rules by which reports and descriptions change it.

use super::{Key, Recorded, RecordedFile, Redescribed};
use crate::core::watch::{Change, Watch};
use crate::index::build::Description;
use crate::index::{RootIndex, StatKey};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Changed files a root may hold before it is searched unindexed (or a quarter of its files, if
/// more): each is searched at every query until it is described again, and its path is held.
pub(super) const MAX_CHANGED: usize = 1024;

/// Files without an entry in the index (new since it was built, or not describable then) that a
/// root may track for description in the background; past this many, the others are searched at
/// every query, as any file without an entry.
const MAX_UNINDEXED: usize = 4096;

/// One root's change reports and recorded walks.
pub(crate) struct Live {
    pub(super) watch: Watch,
    /// Bumped by every change that can alter what a walk yields.
    pub(super) generation: u64,
    /// Files whose content or metadata changed since they were indexed (or described again), each
    /// with the number of its last reported change.
    pub(super) changed: Arc<HashMap<PathBuf, u64>>,
    /// Changes to files reported so far.
    pub(super) changes: u64,
    /// Changed files described again in the background, with no change reported since.
    pub(super) redescribed: Arc<HashMap<PathBuf, Arc<Redescribed>>>,
    pub(super) redescribed_bytes: usize,
    /// Descriptions put in place so far.
    pub(super) installs: u64,
    pub(super) redescribing: bool,
    /// Changed files that cannot be described as they are, with the number of the change after
    /// which that was found (a later change makes them worth another try).
    /// For a file without an entry, also the stat the recording saw (another file at the path,
    /// renamed in with no change reported, is tried again).
    pub(super) undescribable: HashMap<PathBuf, (u64, Option<StatKey>)>,
    /// Files of recorded walks that have no entry in the index and no description, each as a
    /// recording saw it: described in the background, and the description put in place only if
    /// it describes what the recording saw (a change reported since moves it to `changed`).
    pub(super) unindexed: HashMap<PathBuf, Observed>,
    /// Descriptions of files without an entry in place, and their bytes (within a half of the
    /// room for descriptions, and at most [`MAX_UNINDEXED`]).
    pub(super) unindexed_described: (usize, usize),
    /// The index whose walks are recorded and whose changed files are described now, and its
    /// room for descriptions ([`RootIndex::serial`], [`RootIndex::describe_room`]); `None` while
    /// the root is (re)built. A description thread started for another stops.
    pub(super) current: Option<(u64, usize)>,
    /// When the background description last started: it starts at most every
    /// [`RETRY_DESCRIBE`], since a round opens every file it chooses, and a file too new when it
    /// is tried is ready two seconds after that (a start later, or two).
    pub(super) describe_started: Option<std::time::Instant>,
    pub(super) walks: Vec<(Key, Arc<Recorded>)>,
    pub(super) recording: bool,
    /// Why walks are no longer recorded here (a watch could not be added).
    pub(super) broken: Option<String>,
}

impl Live {
    /// Change reports for a root on a filesystem that has them (`watch::events_reliable`).
    pub(crate) fn new() -> Result<Live, String> {
        let watch = Watch::new(&crate::walk::RULE_FILES).map_err(|e| format!("inotify: {e}"))?;
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
    pub(super) fn drain(&mut self, denied: &dyn Fn(&Path, bool) -> bool) {
        let mut content = Vec::new();
        let generation = &mut self.generation;
        self.watch.drain(denied, &mut |c| match c {
            Change::Structure => *generation += 1,
            Change::Content(p) => content.push(p),
        });
        for p in content
            .into_iter()
            .filter(|_| !crate::core::mutant::on("mark_changed"))
        {
            self.mark_changed(p);
        }
    }

    /// Whether changed file `p` (last change number `n`) is worth describing again: it has an
    /// entry (a file without one is described only as a recording saw it: [`Live::observe`]),
    /// and was not found undescribable since that change.
    pub(super) fn describable(&self, ri: &RootIndex, p: &Path, n: u64) -> bool {
        ri.ids.contains_key(p) && self.undescribable.get(p).map(|u| u.0) != Some(n)
    }

    /// File `p` changed: it is searched, never pruned, until it is described again.
    pub(super) fn mark_changed(&mut self, p: PathBuf) {
        self.undescribe(&p);
        self.unindexed.remove(&p);
        self.changes += 1;
        Arc::make_mut(&mut self.changed).insert(p, self.changes);
    }

    /// Drops the description of `p`, if any.
    pub(super) fn undescribe(&mut self, p: &Path) {
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
    pub(super) fn observe(&mut self, p: PathBuf, seen: Option<StatKey>, kept: bool) {
        if let Some(r) = self.redescribed.get(&p) {
            if Some(r.stat) == seen || crate::core::mutant::on("observe_seen") {
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
    pub(super) fn install(
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
        if (moved && !crate::core::mutant::on("install_moved"))
            || (!unchanged && !crate::core::mutant::on("install_unchanged"))
        {
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
        let unseen =
            seen.is_some_and(|o| o.stat != stat) && !crate::core::mutant::on("install_seen");
        if !fits || unseen {
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

    /// Files described in the background since the root's index was built (changed, new, or too
    /// new for the build), whose descriptions are in place.
    pub(crate) fn descriptions(&self) -> usize {
        self.redescribed.len()
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
                    + r.path_bytes()
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
    pub(crate) fn forget(&mut self) {
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

    /// How far change reports have come: file changes and changes of the tree's shape, as
    /// drained so far (a save of the index after them holds them: `index::resave`).
    pub(crate) fn version(&self) -> (u64, u64) {
        (self.changes, self.generation)
    }

    /// Why this root's walks are not replayed, if they cannot be.
    pub(crate) fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }
}

/// A file without an entry as a recording saw it: the number of changes reported until then, and
/// its stat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Observed {
    pub(super) n: u64,
    pub(super) stat: StatKey,
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
        Description::Now(st, false, Default::default())
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

    /// The memory figure counts a recorded walk's paths, as it did when it summed them at every
    /// call (they are counted once, when the walk is recorded).
    #[test]
    fn memory_counts_a_recorded_walks_paths() {
        let mut l = live();
        let empty = l.memory();
        let files: Vec<RecordedFile> = ["a", "dir/b.c", "dir/sub/longer-name.rs"]
            .iter()
            .map(|p| (PathBuf::from(p), Default::default(), None))
            .collect();
        let listed = files.capacity() * std::mem::size_of::<RecordedFile>();
        let paths: usize = files.iter().map(|f| f.0.capacity()).sum();
        assert!(paths >= 29);
        let key: super::Key = (PathBuf::from("k"), "f".into(), "r".into());
        let key_bytes = key.0.capacity() + std::mem::size_of::<PathBuf>() + 16 + 2;
        let rec = Recorded::new(1, files, Default::default());
        l.walks.push((key, Arc::new(rec)));
        assert_eq!(l.memory(), empty + key_bytes + listed + paths);
    }
}
