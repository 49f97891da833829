//! The background description of changed files and of files a recording found without an entry.

use super::live::{Live, Observed};
use crate::core::admit::RootId;
use crate::core::sandbox::Sandbox;
use crate::index::build::Description;
use crate::index::life::{IndexPoint, Locked};
use crate::index::RootIndex;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// Files described again per round of the background work (between two looks at the reports).
const REDESCRIBE_STEP: usize = 256;

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
pub(super) fn redescribe(
    sb: &Sandbox,
    index: &crate::index::Index,
    root: usize,
    live: &Mutex<Live>,
    ri: &RootIndex,
) {
    let cap = ri.describe_room;
    let denied = sb.denied_fn(RootId::Read(root));
    let mut tried: HashSet<PathBuf> = HashSet::new();
    let stopped = || index.stop.load(Ordering::Relaxed);
    loop {
        if stopped() {
            return;
        }
        // (path, its change number, how a recording saw it if it has no entry)
        type Chosen = Vec<(PathBuf, u64, Option<Observed>)>;
        let (chosen, generation, room): (Chosen, u64, usize) = {
            let mut l = live.locked();
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
            if stopped() {
                return;
            }
            let d = crate::index::build::describe(sb, root, &p, &index.stop);
            tried.insert(p.clone());
            if let Description::Now(_, _, tris) = &d {
                held += tris.bytes();
                if held > room {
                    break;
                }
            }
            described.push((p, n, seen, d));
        }
        let canonical = super::ri_root(sb, root);
        crate::index::life::hold_point(&canonical, IndexPoint::Describe, &index.stop);
        let mut l = live.locked();
        l.drain(&denied);
        // The tree's shape changed since the files were chosen: what was read at a path may not
        // be what is there now, with no change to it reported. Tried again at a later query.
        let moved = (l.generation != generation && !crate::core::mutant::on("describe_generation"))
            || l.current.map(|c| c.0) != Some(ri.serial);
        for (p, n, seen, d) in described {
            l.install(p, n, seen, d, moved, cap);
        }
    }
}
