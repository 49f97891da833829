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
//! by its path from the root, through the gate (the search worker's `open_in_root`).

mod live;
mod record;
mod redescribe;

use crate::index::life::Locked;
pub(crate) use live::Live;
use live::MAX_CHANGED;

use super::keys::UnitKeys;
use super::StatKey;
use super::{Index, RootIndex, State};
use crate::core::admit::RootId;
use crate::core::sandbox::Sandbox;
use crate::walk::{Filter, WalkSkips};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
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
    /// The bytes of the files' paths, counted once when recorded: the index's memory figure
    /// (`Live::memory`, asked by every `list_roots`) summed them under the root's lock, 78,000
    /// paths on the Linux tree, a third of the server's time in a loop of `list_roots` calls.
    path_bytes: usize,
}

impl Recorded {
    /// A recording of no files, checked against index `serial` (for tests).
    #[cfg(test)]
    pub(crate) fn empty(serial: u64) -> Recorded {
        Recorded::new(serial, Vec::new(), WalkSkips::default())
    }

    /// A walk of `files` (then `tail`), checked against index `serial`.
    pub(crate) fn new(serial: u64, files: Vec<RecordedFile>, tail: WalkSkips) -> Recorded {
        Recorded {
            generation: 0,
            serial,
            path_bytes: files.iter().map(|f| f.0.capacity()).sum(),
            files,
            tail,
        }
    }

    /// The bytes of the files' paths (not the list's own).
    pub(crate) fn path_bytes(&self) -> usize {
        self.path_bytes
    }
}

/// (start directory, filter key, the sandbox's roots).
type Key = (PathBuf, Arc<str>, Arc<str>);

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
    /// It has no entry in the index (it was described as a recording saw it).
    pub unindexed: bool,
    pub stat: StatKey,
    pub nul: bool,
    /// Its distinct keys, sorted, with their position masks.
    pub tris: UnitKeys,
}

impl Redescribed {
    fn bytes(&self) -> usize {
        self.tris.bytes() + 64
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

impl Live {
    /// Whether the background description of changed files (and files without an entry) is due:
    /// none under way, none started in the last [`RETRY_DESCRIBE`], and something to describe.
    fn to_describe(&self, ri: &RootIndex, canonical: &Path) -> bool {
        !self.redescribing
            && self.describe_started.is_none_or(|t| {
                super::life::instant(canonical).saturating_duration_since(t) >= RETRY_DESCRIBE
            })
            && (!self.unindexed.is_empty()
                || self
                    .changed
                    .iter()
                    .any(|(p, n)| self.describable(ri, p, *n)))
    }

    /// The recorded walk under `key`, when it holds for index `ri`: recorded in the current
    /// generation of the tree's shape, against this index.
    fn replay_of(&self, key: &Key, ri: &RootIndex) -> Option<Replay> {
        let (_, w) = self.walks.iter().find(|(k, _)| k == key)?;
        (w.generation == self.generation && w.serial == ri.serial).then(|| Replay {
            serial: ri.serial,
            walk: w.clone(),
            changed: self.changed.clone(),
            redescribed: self.redescribed.clone(),
            version: (self.changes, self.installs),
        })
    }
}

/// The recorded walk of root `root` from `rel` under `key`, if one holds after the queued
/// events are taken in. Without one, a recording is started in the background (one per root at
/// a time) and the caller walks.
pub(crate) fn index_replay(
    sb: &Sandbox,
    index: &Arc<Index>,
    root: usize,
    rel: &Path,
    filter: &Filter,
) -> Option<Replay> {
    let key = filter.walk_key()?;
    let canonical = sb.root_canonical(root)?;
    let j = index.roots.iter().position(|(c, _)| c == canonical)?;
    let live = index.live.get(j)?.as_ref().ok()?;
    let ri = match &*index.roots[j].1.locked() {
        State::Ready(ri) => ri.clone(),
        _ => return None,
    };
    let key: Key = (rel.to_path_buf(), key, roots_key(sb));
    let denied = sb.denied_fn(RootId::Read(root));
    let mut l = live.locked();
    l.drain(&denied);
    let cap = MAX_CHANGED.max(ri.entries.len() / 4);
    if l.changed.len() > cap {
        l.forget();
        drop(l);
        index_again(index, j, cap);
        return None;
    }
    if l.to_describe(&ri, canonical) {
        start_describing(sb, index, root, j, &ri, &mut l);
    }
    if let Some(rp) = l.replay_of(&key, &ri) {
        return Some(rp);
    }
    if !l.recording && l.broken.is_none() {
        l.recording = true;
        drop(l);
        start_recording(sb, index, root, j, key, filter, ri);
    }
    None
}

/// The sandbox's roots, as a part of a recorded walk's key.
fn roots_key(sb: &Sandbox) -> Arc<str> {
    (0..sb.read_root_count())
        .filter_map(|i| sb.root_canonical(i))
        .map(|c| c.to_string_lossy())
        .collect::<Vec<_>>()
        .join("\0")
        .into()
}

/// Root `j` changed past its cap of changed files (`cap`), whose set and descriptions are let
/// go: the changed set is searched at every query and held in memory, so the root is indexed
/// again in the background, and searched unindexed until then. The build walks the index's own
/// root `j` (its host's sandbox), not the querying sandbox's root of that number: a query
/// through tools narrowed by a client's roots numbers its roots otherwise.
fn index_again(index: &Arc<Index>, j: usize, cap: usize) {
    let why = format!(
        "more than {cap} files changed since the root was indexed: it is searched \
         unindexed while it is indexed again"
    );
    let mut state = index.roots[j].1.locked();
    if matches!(*state, State::Ready(_)) {
        *state = State::Building(Arc::new(super::build::Progress {
            again: Some(why.clone()),
            ..Default::default()
        }));
        drop(state);
        if let Err(e) = super::build_in_background(index.sandbox.clone(), index.clone(), vec![j]) {
            *index.roots[j].1.locked() = State::Off(format!("{why}; no build thread: {e}"));
        }
    }
}

/// Starts the background description of root `j`'s changed files and files without an entry
/// (`l`: its change reports, locked).
fn start_describing(
    sb: &Sandbox,
    index: &Arc<Index>,
    root: usize,
    j: usize,
    ri: &Arc<RootIndex>,
    l: &mut Live,
) {
    l.redescribing = true;
    l.describe_started = Some(super::life::instant(&ri_root(sb, root)));
    let (sb, held) = (sb.clone(), index.clone());
    let ri = ri.clone();
    let work = move || {
        if let Some(Ok(live)) = held.live.get(j) {
            crate::index::life::fault_point(&ri_root(&sb, root));
            redescribe::redescribe(&sb, &held, root, live, &ri);
        }
    };
    let after = move |index: &super::Index| {
        if let Some(Ok(live)) = index.live.get(j) {
            live.locked().redescribing = false;
        }
    };
    let spawned = crate::index::life::spawn(
        "rootbound-index-redescribe",
        index.clone(),
        vec![j],
        work,
        after,
    );
    if spawned.is_err() {
        l.redescribing = false;
    }
}

/// Starts recording the walk of root `root` (index root `j`) under `key` in the background.
fn start_recording(
    sb: &Sandbox,
    index: &Arc<Index>,
    root: usize,
    j: usize,
    key: Key,
    filter: &Filter,
    ri: Arc<RootIndex>,
) {
    let (sb, held) = (sb.clone(), index.clone());
    let mut filter = filter.clone();
    // Its own budget for ignore files (no deadline): the call's is not its.
    filter.ignore = crate::walk::IgnoreBudget {
        kinds: filter.ignore.kinds,
        ..Default::default()
    };
    let work = move || {
        crate::index::life::fault_point(&ri_root(&sb, root));
        record::record(&sb, &held, root, j, key, filter, &ri);
    };
    let after = move |index: &super::Index| {
        if let Some(Ok(live)) = index.live.get(j) {
            live.locked().recording = false;
        }
    };
    let spawned =
        crate::index::life::spawn("rootbound-index-walk", index.clone(), vec![j], work, after);
    if spawned.is_err() {
        if let Some(Ok(live)) = index.live.get(j) {
            live.locked().recording = false;
        }
    }
}

impl Index {
    /// Whether a recording, or the description of changed files, is under way in some root (tests
    /// and hosts wait for it).
    pub(crate) fn recording(&self) -> bool {
        self.live.iter().flatten().any(|l| {
            let l = l.locked();
            l.recording || l.redescribing
        })
    }
}

/// The canonical path of read root `root` (where a test's injected fault is looked for).
fn ri_root(sb: &Sandbox, root: usize) -> PathBuf {
    sb.root_canonical(root)
        .map_or_else(PathBuf::new, Path::to_path_buf)
}
