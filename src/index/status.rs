//! What the index reports per root: `index_status()`, `list_roots`' `index`, and the wait for it.

use super::{Built, Index, Locked, State};
use crate::core::sandbox::Sandbox;

/// Whether a root's index serves queries ([`IndexStatus::state`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum IndexState {
    /// Being built (or built again): searched unindexed until ready.
    Building,
    /// In use.
    Ready,
    /// Not indexed (`reason` says why): searched unindexed.
    Off,
}

impl IndexState {
    /// As serialized: `building`, `ready` or `off`.
    pub fn as_str(self) -> &'static str {
        match self {
            IndexState::Building => "building",
            IndexState::Ready => "ready",
            IndexState::Off => "off",
        }
    }
}

impl std::fmt::Display for IndexState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for IndexState {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The index state of one root, as `list_roots` and [`crate::Sandbox::index_status`] report it.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
// The tool listing names the method as a caller knows it (`rootbound::Sandbox`), not by the path
// rustdoc needs from this module.
#[schemars(
    description = "The index state of one root, as `list_roots` and [`Sandbox::index_status`] report it."
)]
#[non_exhaustive]
pub struct IndexStatus {
    /// The root's name.
    pub root: String,
    /// `building`, `ready` or `off`.
    pub state: IndexState,
    /// Files looked at so far (building) or in the built index (ready; see `described`).
    pub files: u64,
    /// Files described since the build (ready): changed or new files, and files too new for the
    /// build (written within two seconds of its read), each read again in the background; the
    /// index prunes with these too, so a fresh tree can show `files: 0` and a `described` count.
    #[serde(default)]
    pub described: u64,
    /// Memory the index holds, in bytes (ready): postings and the file table, plus the
    /// descriptions of files changed since, the changed set and the recorded walks.
    pub memory: u64,
    /// Why the root is not indexed (off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The most memory the build held at once (ready), in bytes, as it accounts for it: never
    /// over `index_max_bytes`.
    #[serde(default)]
    pub build_peak: u64,
    /// Bytes the build read from files (ready; building: so far). Files over
    /// `index_max_file_bytes` (or `max_filesize`) are not read.
    #[serde(default)]
    pub bytes_read: u64,
    /// Whether change reports (inotify) let repeated searches skip the walk; when not, every
    /// query walks and checks each pruned file's metadata.
    pub events: bool,
    /// Why change reports do not serve this root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events_reason: Option<String>,
    /// The index serving (ready) is the one saved by an earlier run, loaded at the start: each
    /// file it prunes is statted and compared with its entry, and the root is being built again
    /// meanwhile.
    #[serde(default)]
    pub from_snapshot: bool,
    /// What became of the root's saved index (`loaded: ...`, `saved`, `ignored (why): ...`,
    /// `not kept: why`); absent when none is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    /// Bytes of the postings read from the saved file's mapping (page cache, not counted in
    /// `memory`).
    #[serde(default)]
    pub mapped: u64,
}

impl Index {
    /// The state of every root of this index, named as `sb` names them (see
    /// [`crate::Sandbox::index_status`]).
    pub(crate) fn status(&self, sb: &Sandbox) -> Vec<IndexStatus> {
        let index = self;
        index
            .roots
            .iter()
            .zip(&index.live)
            .enumerate()
            .map(|(i, ((canonical, s), live))| {
                let root = (0..sb.read_root_count())
                    .find(|&j| sb.root_canonical(j) == Some(canonical.as_path()))
                    .and_then(|j| sb.root_name(j))
                    .map_or_else(|| canonical.display().to_string(), str::to_string);
                let (live_memory, described) = match live {
                    Ok(l) => {
                        let l = l.locked();
                        (l.memory() as u64, l.descriptions() as u64)
                    }
                    Err(_) => (0, 0),
                };
                let relaxed = std::sync::atomic::Ordering::Relaxed;
                let state_now = s.locked();
                let from_snapshot = matches!(*state_now, State::Refreshing(..));
                let mapped = state_now
                    .serving()
                    .map_or(0, |r| r.postings.mapped() as u64);
                let (state, files, memory, reason, built) = match &*state_now {
                    State::Building(p) => (
                        IndexState::Building,
                        p.files.load(relaxed),
                        0,
                        p.again.clone(),
                        Built {
                            peak: 0,
                            bytes_read: p.bytes_read.load(relaxed),
                        },
                    ),
                    State::Ready(r) | State::Refreshing(r, _) => (
                        IndexState::Ready,
                        r.entries.len() as u64,
                        r.memory() as u64 + live_memory,
                        None,
                        r.built,
                    ),
                    State::Off(why) => (IndexState::Off, 0, 0, Some(why.clone()), Built::default()),
                };
                drop(state_now);
                let events_reason = match live {
                    Ok(l) => l.locked().broken().map(str::to_string),
                    Err(why) => Some(why.clone()),
                };
                let described = if state == IndexState::Ready {
                    described
                } else {
                    0
                };
                IndexStatus {
                    root,
                    state,
                    files,
                    described,
                    memory,
                    reason,
                    build_peak: built.peak,
                    bytes_read: built.bytes_read,
                    events: events_reason.is_none(),
                    events_reason,
                    from_snapshot,
                    snapshot: super::snapshot::note(index, i),
                    mapped,
                }
            })
            .collect()
    }

    /// Waits until no root's index is building (or serving a saved index while it is built
    /// again), no walk is being recorded and no changed file is being described again, at most
    /// `timeout`; true when none is.
    pub(crate) fn wait(&self, sb: &Sandbox, timeout: std::time::Duration) -> bool {
        let end = std::time::Instant::now() + timeout;
        loop {
            if !self
                .status(sb)
                .iter()
                .any(|s| s.state == IndexState::Building || s.from_snapshot)
                && !self.recording()
            {
                return true;
            }
            if std::time::Instant::now() >= end {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
