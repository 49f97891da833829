//! Saving a root's index again once it has absorbed changes, so that a restart loads a saved index
//! that holds them (docs/index.md "On disk").
//!
//! A query that finds a root's change reports moved since its index was saved (files changed,
//! entries created, deleted or renamed, as drained by queries) starts one background thread, if
//! none runs. The thread waits until the reports have settled ([`SETTLE`] without a new one) and
//! the last save of the root is [`GAP`] old, then builds the root again taking every unchanged
//! file's entry from the index in place (`reuse`: only the files whose stat moved are read), saves
//! that (a new file, synced, renamed over the old one) and puts it in place, as any build does.
//! So what is saved is what a fresh build would save for the tree as it was walked; a change made
//! meanwhile is caught as after any build (a `statat` at each query, or the next recording).

use super::life::{self, Locked};
use super::{build, snapshot, Index, State};
use crate::core::sandbox::Sandbox;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Change reports settle this long before a save.
pub(super) const SETTLE: Duration = Duration::from_secs(3);
/// A root is saved again at most once in this long.
pub(super) const GAP: Duration = Duration::from_secs(30);
/// How often the waiting thread looks again (and at the stop flag).
const TICK: Duration = Duration::from_millis(100);

/// The index saved last, the change reports it holds, and when.
type LastSave = (u64, (u64, u64), Instant);

/// Per root: the index saved last ([`super::RootIndex::serial`]), the change reports it holds,
/// and when it was saved.
#[derive(Default)]
pub(super) struct Saved {
    roots: Vec<Option<LastSave>>,
    running: bool,
}

/// What a root's change reports are at: file changes and shape changes counted.
fn version(index: &Index, i: usize) -> Option<(u64, u64)> {
    let Some(Ok(live)) = index.live.get(i) else {
        return None;
    };
    let v = live.locked().version();
    Some(v)
}

/// Notes that root `i`'s index `serial`, just saved, holds every change reported so far.
pub(super) fn saved(index: &Index, i: usize, serial: u64) {
    let Some(v) = version(index, i) else {
        return;
    };
    let mut s = index.resave.locked();
    if s.roots.len() <= i {
        s.roots.resize(i + 1, None);
    }
    s.roots[i] = Some((serial, v, life::instant(&index.roots[i].0)));
}

/// Whether root `i` has absorbed changes since its index was saved.
fn dirty(index: &Index, i: usize) -> bool {
    let Some(serial) = index.roots[i].1.locked().serving().map(|r| r.serial) else {
        return false;
    };
    let v = version(index, i);
    let s = index.resave.locked();
    match s.roots.get(i).copied().flatten() {
        Some((saved, at, _)) => saved == serial && Some(at) != v,
        None => false,
    }
}

/// Starts the thread that saves changed roots again, unless one runs or none is changed
/// (called by each indexed query). It builds and saves the index's own roots (the host's
/// sandbox's), whatever sandbox the query came through.
pub(super) fn poke(index: &Arc<Index>) {
    if !matches!(index.cache, Some(Ok(_))) || !(0..index.roots.len()).any(|i| dirty(index, i)) {
        return;
    }
    if std::mem::replace(&mut index.resave.locked().running, true) {
        return;
    }
    let w = index.sandbox.clone();
    let arc = index.clone();
    let all = (0..index.roots.len()).collect();
    let started = life::spawn(
        "rootbound-index-save",
        index.clone(),
        all,
        move || run(&w, &arc),
        |index| index.resave.locked().running = false,
    );
    if started.is_err() {
        index.resave.locked().running = false;
    }
}

/// Waits for each changed root's reports to settle, and saves it again; ends when none is
/// changed (or the host's last sandbox went).
fn run(sb: &Sandbox, index: &Index) {
    let n = index.roots.len();
    let mut last: Vec<(Option<(u64, u64)>, Instant)> = vec![(None, Instant::now()); n];
    while !index.stop.load(Ordering::SeqCst) {
        std::thread::sleep(TICK);
        let mut waiting = false;
        for (i, seen) in last.iter_mut().enumerate() {
            if !dirty(index, i) {
                continue;
            }
            let now = life::instant(&index.roots[i].0);
            let v = version(index, i);
            if seen.0 != v {
                *seen = (v, now);
            }
            let saved_at = index.resave.locked().roots.get(i).copied().flatten();
            let saved_at = saved_at.map_or(now, |r| r.2);
            if now < seen.1 + SETTLE || now < saved_at + GAP {
                waiting = true;
                continue;
            }
            save_again(sb, index, i);
        }
        if !waiting && !(0..n).any(|i| dirty(index, i)) {
            return;
        }
    }
}

/// Builds root `i` again from the index in place, saves it and puts it in place.
fn save_again(sb: &Sandbox, index: &Index, i: usize) {
    let (canonical, state) = &index.roots[i];
    let Some(prior) = state.locked().serving().cloned() else {
        return;
    };
    let Ok(pool) = rayon::ThreadPoolBuilder::new()
        .num_threads(build::threads(sb))
        .thread_name(|i| format!("rootbound-index-save-{i}"))
        .start_handler(|_| {
            std::mem::forget(life::Alive::new());
            let _ = rustix::process::setpriority_process(None, 19);
        })
        .exit_handler(|_| drop(life::Alive))
        .build()
    else {
        return;
    };
    life::fault_point(canonical);
    let progress = build::Progress::default();
    let spill = index.cache.as_ref().and_then(|c| c.as_ref().ok());
    let built = build::build_root(sb, i, &pool, spill, &progress, &index.stop, Some(&prior));
    let Ok(r) = built else {
        // Not saved this time (over the cap, or stopped): the root keeps its index.
        saved(index, i, prior.serial);
        return;
    };
    let (r, true) = snapshot::save_one(sb, index, i, r, "saved after changes") else {
        // Not saved: the root keeps the index in place (its lists in the last saved file's
        // mapping), and the new one, with its scratch file, is let go.
        saved(index, i, prior.serial);
        return;
    };
    let serial = r.serial;
    let mut s = state.locked();
    // Only over the index it was built from: a build of the root since wins.
    if matches!(&*s, State::Ready(cur) if Arc::ptr_eq(cur, &prior)) {
        if let Some(Ok(live)) = index.live.get(i) {
            live.locked().renew(&r);
        }
        *s = State::Ready(Arc::new(r));
        drop(s);
        saved(index, i, serial);
    }
}
