//! The recording of a walk in the background: the same walker and gate as any walk, each
//! directory watched before it is read, each described file verified after its watch exists.

use super::live::Live;
use super::{Key, Recorded, RecordedFile, Redescribed, MAX_WALKS};
use crate::core::admit::{Admitted, RootId};
use crate::core::deadline::Deadline;
use crate::core::dirs::{stat_entry, FileType};
use crate::core::handle::Handle;
use crate::core::open::{Opened, Want};
use crate::core::sandbox::Sandbox;
use crate::index::life::{IndexPoint, Locked};
use crate::index::{Index, RootIndex, StatKey};
use crate::walk::{DirHook, Filter, FoundFile, Walk, WalkEnd, WalkSkips};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a recording walk may take: past it the walk is not recorded.
pub(crate) const RECORD_LIMIT: Duration = Duration::from_secs(600);

/// Watches each directory a recording walk is about to read.
struct Hook<'a> {
    live: &'a Mutex<Live>,
    failed: AtomicBool,
}

impl Hook<'_> {
    fn result(&self, r: std::io::Result<()>) {
        if let Err(e) = r {
            self.failed.store(true, Ordering::Relaxed);
            let mut l = self.live.locked();
            if l.broken.is_none() {
                l.broken = Some(format!("a directory could not be watched: {e}"));
            }
        }
    }
}

impl DirHook for Hook<'_> {
    fn entering(&self, dir: &Admitted<Opened>, rel: &Path) {
        let r = self.live.locked().watch.add(dir, rel);
        self.result(r);
    }

    fn repository(&self, dir: &dyn Handle, rel: &Path) {
        let r = self.live.locked().watch.add_repository(dir, rel);
        self.result(r);
    }
}

/// Records the walk of `key` in root `root` (index root `j`), verifying every described file.
pub(super) fn record(
    sb: &Sandbox,
    index: &Index,
    root: usize,
    j: usize,
    key: Key,
    filter: Filter,
    ri: &RootIndex,
) {
    let Some(Ok(live)) = index.live.get(j) else {
        return;
    };
    let denied = sb.denied_fn(RootId::Read(root));
    let start_generation = {
        let mut l = live.locked();
        l.drain(&denied);
        l.generation
    };
    let hook = Hook {
        live,
        failed: AtomicBool::new(false),
    };
    let mut stale: Vec<PathBuf> = Vec::new();
    let mut unindexed: Vec<(PathBuf, Option<StatKey>)> = Vec::new();
    let redescribed = live.locked().redescribed.clone();
    let recorded = walk_and_verify(
        (sb, index),
        root,
        &key.0,
        &filter,
        ri,
        &redescribed,
        &hook,
        (&mut stale, &mut unindexed),
    );
    let canonical = super::ri_root(sb, root);
    crate::index::life::hold_point(&canonical, IndexPoint::Record, &index.stop);
    let mut l = live.locked();
    l.drain(&denied);
    for p in stale {
        l.mark_changed(p);
    }
    let kept = recorded.is_some()
        && (l.generation == start_generation || crate::core::mutant::on("record_generation"))
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
    (sb, index): (&Sandbox, &Index),
    root: usize,
    rel: &Path,
    filter: &Filter,
    ri: &RootIndex,
    redescribed: &HashMap<PathBuf, Arc<Redescribed>>,
    hook: &Hook<'_>,
    (stale, unindexed): (&mut Vec<PathBuf>, &mut Vec<(PathBuf, Option<StatKey>)>),
) -> Option<Recorded> {
    let id = RootId::Read(root);
    let denied = sb.denied_fn(id);
    // The root and every directory above the start are watched before their ignore files are read.
    let mut prefix = PathBuf::new();
    let mut start = None;
    let comps: Vec<_> = rel.components().collect();
    for k in 0..=comps.len() {
        if k > 0 {
            prefix.push(comps[k - 1]);
        }
        let fd = sb.open_in_root(id, &prefix, Want::Dir).ok()?;
        if k < comps.len() {
            hook.entering(&fd, &prefix);
            if !denied(&prefix.join(".git"), true) {
                hook.repository(&fd, &prefix);
            }
        } else {
            start = Some(fd);
        }
    }
    let levels = if rel.as_os_str().is_empty() {
        None
    } else {
        let no_ignore = filter.no_ignore;
        crate::walk::ancestor_levels(sb, root, rel, no_ignore, &filter.ignore, &denied)
    };
    // A limit of its own, and it ends when the host's last sandbox goes: a walk cut short is
    // not recorded (queries walk, as without one).
    let deadline = Deadline::detached(RECORD_LIMIT).with_stop(index.stop.clone());
    let walk = Walk {
        sandbox: sb,
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
                .map(|st| crate::index::entry::stat_key(&st))
        };
        match entry {
            Some(e) => {
                let described = redescribed
                    .get(&f.rel)
                    .map_or(ri.entries[e as usize].stat, |r| r.stat);
                if seen() != Some(described) && !crate::core::mutant::on("record_stat") {
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
    (end == WalkEnd::Complete && rules_reported).then(|| Recorded::new(ri.serial, files, tail))
}
